//! delete_timeline_elements (Delete timeline elements): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "delete_timeline_elements",
    title: text!("Delete timeline elements"),
    summary: text!("Delete {elementIds:n element}"),
    description: text!("Delete the given elements (elementIds from list_timeline) and nothing else; other elements do not move. All ids must exist or nothing is deleted. To delete a time range, split at its edges first."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: Annotations { read_only: false, destructive: true, idempotent: true, open_world: false, untrusted_content: false },
    errors: list!(&["Invalid element ids", NOT_FOUND_IDS, "No timeline content"]),
    example: text!(r#"{"elementIds":["e5"]}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element ids from list_timeline
        #[schemars(length(min = 1))]
        element_ids: Arg<Vec<NonEmpty>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        deleted_elements: Vec<String>,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let ids = args.element_ids.id_list(ToolError::invalid_element_ids)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let found = locate_all(tl, &ids)?;
    edits::remove_at(tl, &found);
    Ok(crate::text::obj([("success", serde_json::Value::from(true)), ("deletedElements", serde_json::Value::from(ids))]).into())
}
