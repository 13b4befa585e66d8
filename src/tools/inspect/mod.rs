//! Read-only tools: list_project_assets, list_timeline, list_stickers, list_effects, get_effect.

pub mod get_effect;
pub mod list_effects;
pub mod list_project_assets;
pub mod list_stickers;
pub mod list_timeline;

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{listing, Ctx, Output, ToolError};
use crate::effects;
use crate::stickers;

/// How many stickers list_stickers returns when `limit` is not given, and at most.
const STICKER_LIMIT: u64 = 50;
const MAX_STICKER_LIMIT: i64 = 500;
