//! list_keyframes (List keyframes): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "list_keyframes",
    title: text!("List keyframes"),
    summary: text!("List keyframes of {elementId}"),
    description: text!("The keyframes of an element (elementId or ref), by property (optional property limits the list): keyframeId, time in seconds from the element's start, value and interpolation to the next keyframe (linear, hold or bezier). Reads only. Example: {\"elementId\":\"clip-1\",\"property\":\"opacity\"}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: READ,
    errors: list!(&["Invalid element id", "Timeline element not found: <id>", "No active timeline"]),
    example: text!(r#"{"elementId":"e7"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element id or ref from list_timeline
        element_id: Arg<NonEmpty>,
        /// Only this property (default: every animated one)
        property: Arg<Option<String>>,
    }
}

returns! {
    pub struct Returns {
        element_id: String,
        duration: f64,
        properties: Vec<AnyObject>,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.element_id.id(ToolError::invalid_element_id)?;
    let only = args.property.string("property")?;
    let (_, _, e) = find(ctx.timeline()?, id)?;
    let mut all = summary(e);
    if let (Some(p), Value::Array(list)) = (only, &mut all) {
        list.retain(|entry| entry["property"] == p);
    }
    Ok(crate::text::obj([("elementId", serde_json::Value::from(e.id.as_str())), ("duration", seconds(e.duration)), ("properties", all)]).into())
}
