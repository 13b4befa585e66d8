//! apply_effect (Apply effect): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;
use std::collections::BTreeMap;

pub static DEF: ToolDef = ToolDef {
    name: "apply_effect",
    title: text!("Apply effect"),
    summary: text!("Apply {effectType} from {start:time} to {end:time}"),
    description: text!("Add an effect from start to end (timeline seconds) on an effect track; it changes the picture of every track below it. params override the defaults (see get_effect) and are checked against their ranges; the applied values are returned. Change them later with update_effect."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&["Invalid effect type", "Effect not found: <type>", "Invalid start time", "Invalid end time", "Invalid time range", "Invalid effect parameters", "Unknown parameter: <key>", "Parameter '<key>' must be >= <min>", "Parameter '<key>' must be <= <max>", "No active timeline", "Failed to place effect element", "This host does not draw <type> elements"]),
    example: text!(r#"{"effectType":"sepia","start":0,"end":4,"params":{"intensity":60}}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Effect id from list_effects
        effect_type: Arg<NonEmpty>,
        /// Effect start, in timeline seconds
        #[schemars(range(min = 0))]
        start: Arg<f64>,
        /// Effect end, in timeline seconds
        #[schemars(range(min = 0))]
        end: Arg<f64>,
        /// Effect parameters by key (see get_effect)
        params: Arg<Option<BTreeMap<String, ParamValue>>>,
    }
}

returns! {
    pub struct Returns {
        element_id: String,
        track_id: String,
        applied_params: AnyObject,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let kind = args.effect_type.id(ToolError::invalid_effect_type)?;
    let def = ctx.effects.find(kind).ok_or_else(|| ToolError::effect_not_found(kind))?;
    let start = match args.start.seconds() {
        Ok(t) if t >= 0 => t,
        _ => return Err(ToolError::invalid_start()),
    };
    let end = match args.end.seconds() {
        Ok(t) if t >= 0 => t,
        _ => return Err(ToolError::invalid_end()),
    };
    if start >= end {
        return Err(ToolError::invalid_range());
    }
    let patch = match args.params.read() {
        Ok(None) => Map::new(),
        Ok(Some(m)) => m.clone(),
        Err(Bad) => return Err(ToolError::invalid_effect_params()),
    };
    let params = def.merge_params(&def.defaults(), &patch).map_err(param_error)?;
    ctx.drawn(ElementType::Effect)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), ElementType::Effect, start, end - start);
    e.name = Some(def.name.into());
    e.effect_type = Some(def.id.to_string());
    e.params = Some(params.clone());
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, TrackType::Effect, e, || ids.next('t')).map_err(|_| ToolError::placement_failed())?;
    let track_id = tl.tracks[ti].id.clone();
    Ok(crate::text::obj([
        ("elementId", serde_json::Value::from(id)),
        ("trackId", serde_json::Value::from(track_id)),
        ("appliedParams", serde_json::Value::from(params)),
    ])
    .into())
}
