//! split, delete_timeline_elements and the deprecated delete_element.

pub mod split;
pub mod delete_timeline_elements;
pub mod delete_element;

use serde_json::{json, Value};

use super::{Output, seconds, timeline_mut, Ctx, ToolError};
use crate::edits;
use crate::time::seconds_to_ticks;

