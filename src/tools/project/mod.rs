//! update_project: the project's settings that are edits (the canvas background).

pub mod update_project;

use super::{timeline_mut, Ctx, Output, ToolError};
