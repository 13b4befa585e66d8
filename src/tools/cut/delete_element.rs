//! delete_element (Delete element (deprecated)): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "delete_element",
    title: text!("Delete element (deprecated)"),
    summary: text!("Delete element {elementId}"),
    description: text!("Deprecated: prefer delete_timeline_elements. Deletes one element found by trackId and elementId."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: Annotations { read_only: false, destructive: true, idempotent: true, open_world: false, untrusted_content: false },
    errors: list!(&["Element not found"]),
    example: text!(r#"{"trackId":"t1","elementId":"e5"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Track id from list_timeline
        track_id: Arg<NonEmpty>,
        /// Element id from list_timeline
        element_id: Arg<NonEmpty>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let track_id = args.track_id.id(ToolError::element_not_found)?;
    let element_id = args.element_id.id(ToolError::element_not_found)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let (ti, _) = element_on_track(tl, track_id, element_id, ToolError::element_not_found)?;
    tl.track_mut(ti).elements.retain(|e| e.id != element_id);
    Ok(crate::text::obj([("success", serde_json::Value::from(true))]).into())
}
