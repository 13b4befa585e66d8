//! set_volume (Set volume): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "set_volume",
    title: text!("Set volume"),
    summary: text!("Set the volume of {elementId} to {volume}"),
    description: text!("Set the volume of a video or audio element (trackId and elementId from list_timeline) from 0 (silent) to 1 (full)."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Volume must be between 0 and 1", "Element does not support volume", "Element not found"]),
    example: text!(r#"{"trackId":"t2","elementId":"e8","volume":0.5}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Track id from list_timeline
        track_id: Arg<NonEmpty>,
        /// Video or audio element id
        element_id: Arg<NonEmpty>,
        /// 0 is silent, 1 is full volume
        #[schemars(range(min = 0, max = 1))]
        volume: Arg<f64>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        volume: f64,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let volume = args.volume.get().and_then(Value::as_f64).filter(|v| (0.0..=1.0).contains(v)).ok_or_else(ToolError::invalid_volume)?;
    let track_id = args.track_id.id(ToolError::element_not_found)?;
    let element_id = args.element_id.id(ToolError::element_not_found)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let (ti, current) = element_on_track(tl, track_id, element_id, ToolError::element_not_found)?;
    if !current.kind.has_volume() {
        return Err(ToolError::no_volume());
    }
    let mut e = current.clone();
    e.volume = Some(volume);
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(crate::text::obj([("success", serde_json::Value::from(true)), ("volume", crate::effects::number(volume))]).into())
}
