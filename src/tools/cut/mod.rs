//! split, delete_timeline_elements, cut_ranges and the deprecated delete_element.

pub mod cut_ranges;
pub mod delete_element;
pub mod delete_timeline_elements;
pub mod split;

use serde_json::Value;

use super::{element_on_track, locate_all, seconds, timeline_mut, Ctx, Output, ToolError};
use crate::edits;
use crate::time::seconds_to_ticks;
