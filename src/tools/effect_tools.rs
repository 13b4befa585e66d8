//! apply_effect and update_effect: effect elements on effect tracks, params checked against the
//! effect registry.

use serde_json::{json, Map, Value};

use super::{Output, edit_error, timeline_mut, Args, Ctx, ToolError};
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

pub fn apply_effect(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let kind = args.id("effectType", ToolError::invalid_effect_type)?;
    let def = ctx.effects.find(kind).ok_or_else(|| ToolError::effect_not_found(kind))?;
    let start = match args.seconds("start") {
        Ok(Some(t)) if t >= 0 => t,
        _ => return Err(ToolError::invalid_start()),
    };
    let end = match args.seconds("end") {
        Ok(Some(t)) if t >= 0 => t,
        _ => return Err(ToolError::invalid_end()),
    };
    if start >= end {
        return Err(ToolError::invalid_range());
    }
    let patch = match args.get("params") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err(ToolError::invalid_effect_params()),
    };
    let params = def.merge_params(&def.defaults(), &patch).map_err(param_error)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), ElementType::Effect, start, end - start);
    e.name = Some(def.name.into());
    e.effect_type = Some(def.id.to_string());
    e.params = Some(params.clone());
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, TrackType::Effect, e, || ids.next('t')).map_err(|_| ToolError::placement_failed())?;
    let track_id = tl.tracks[ti].id.clone();
    Ok(json!({ "elementId": id, "trackId": track_id, "appliedParams": params }).into())
}

pub fn update_effect(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let id = args.id("elementId", ToolError::invalid_element_id)?;
    let patch = match args.get("params") {
        Some(Value::Object(m)) if !m.is_empty() => m,
        _ => return Err(ToolError::params_required()),
    };
    let tl = timeline_mut(&mut ctx.timeline)?;
    let (ti, ei) = tl.find(id).ok_or_else(|| ToolError::timeline_element_not_found(id))?;
    let current = &tl.tracks[ti].elements[ei];
    if current.kind != ElementType::Effect {
        return Err(ToolError::not_effect());
    }
    let kind = current.effect_type.clone().unwrap_or_default();
    // An effect the host cannot render is not offered for editing either.
    let def = ctx.effects.find(&kind).ok_or_else(|| ToolError::effect_not_found(&kind))?;
    let params = def.merge_params(current.params.as_ref().unwrap_or(&Map::new()), patch).map_err(param_error)?;
    let mut e = (**current).clone();
    e.params = Some(params.clone());
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(json!({ "success": true, "elementId": id, "appliedParams": params }).into())
}
