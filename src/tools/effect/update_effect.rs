//! update_effect (Update effect): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;
use std::collections::BTreeMap;

pub static DEF: ToolDef = ToolDef {
    name: "update_effect",
    title: text!("Update effect"),
    summary: text!("Change effect {elementId}"),
    description: text!(
        "Change some parameters of an effect element (elementId from list_timeline); parameters not given keep their values. Returns the full merged params."
    ),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&[
        "Invalid element id",
        "params is required and must be a non-empty object",
        "No active timeline",
        "Timeline element not found: <id>",
        "Element is not an effect",
        "Effect not found: <type>",
        "Unknown parameter: <key>",
        "Parameter '<key>' must be >= <min>",
        "Parameter '<key>' must be <= <max>",
        "Invalid effect parameters"
    ]),
    example: text!(r#"{"elementId":"e9","params":{"intensity":40}}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Effect element id from list_timeline
        element_id: Arg<NonEmpty>,
        /// Effect parameters by key (see get_effect)
        params: Arg<BTreeMap<String, ParamValue>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        element_id: String,
        applied_params: AnyObject,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.element_id.id(ToolError::invalid_element_id)?;
    let patch = match args.params.read() {
        Ok(m) if !m.is_empty() => m,
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
    Ok(crate::text::obj([
        ("success", serde_json::Value::from(true)),
        ("elementId", serde_json::Value::from(id)),
        ("appliedParams", serde_json::Value::from(params)),
    ])
    .into())
}
