//! move_timeline_elements and update_timeline_element_timing.

pub mod move_timeline_elements;
pub mod update_timeline_element_timing;

use serde_json::Value;

use super::{edit_error, locate_all, seconds, timeline_mut, Ctx, Output, ToolError};
use crate::edits::{self, Move};
use crate::model::{Element, TrackType};
