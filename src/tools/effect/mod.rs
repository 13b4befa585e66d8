//! apply_effect and update_effect: effect elements on effect tracks, params checked against the
//! effect registry.

pub mod apply_effect;
pub mod update_effect;

use serde_json::Map;

use super::{edit_error, timeline_mut, Ctx, Output, ToolError};
use crate::edits;
use crate::effects::ParamError;
use crate::model::{Element, ElementType, TrackType};

fn param_error(e: ParamError) -> ToolError {
    match e {
        ParamError::Invalid { key } => {
            let err = ToolError::invalid_effect_params().with_hint("Parameter values are numbers; call get_effect for ranges.");
            match key {
                Some(k) => err.with("parameter", k),
                None => err,
            }
        }
        ParamError::Unknown(k) => ToolError::unknown_parameter(&k),
        ParamError::BelowMin(k, min) => ToolError::parameter_below(k, min),
        ParamError::AboveMax(k, max) => ToolError::parameter_above(k, max),
    }
}
