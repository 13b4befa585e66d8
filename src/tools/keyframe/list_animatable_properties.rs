//! list_animatable_properties (List animatable properties): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "list_animatable_properties",
    title: text!("List animatable properties"),
    summary: text!("List what {elementId} can animate"),
    description: text!("The properties of an element (elementId or ref) that keyframes can animate, as OpenCut names them (transform.positionX, transform.positionY, transform.scaleX, transform.scaleY, transform.rotate, opacity; volume for video and audio; color and background.* for text), each with its unit, range, current value and whether it is animated. Reads only. Example: {\"elementId\":\"text-1\"}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: READ,
    errors: list!(&["Invalid element id", "Timeline element not found: <id>", "No active timeline"]),
    example: text!(r#"{"elementId":"e7"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element id or ref (clip-1) from list_timeline
        element_id: Arg<NonEmpty>,
    }
}

returns! {
    pub struct Returns {
        element_id: String,
        r#type: String,
        properties: List<Animatable>,
    }
}

returns! {
    struct Animatable {
        property: String,
        r#type: String,
        unit: String,
        value: AnyValue,
        animated: bool,
        min: Option<f64>,
        max: Option<f64>,
        description: Option<String>,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.element_id.id(ToolError::invalid_element_id)?;
    let (_, _, e) = find(ctx.timeline()?, id)?;
    let props: Vec<Value> = properties::animatable(e)
        .into_iter()
        .map(|p| {
            let mut o = crate::text::obj([
                ("property", p.path.into()),
                ("type", if p.kind == PropertyKind::Color { "color" } else { "number" }.into()),
                ("unit", p.unit.into()),
                ("value", animation::base_value(e, p.path).unwrap_or(Value::Null)),
                ("animated", e.animations.as_ref().is_some_and(|a| a.contains(p.path)).into()),
                ("description", p.description.into()),
            ]);
            if let Some(min) = p.min {
                o["min"] = crate::effects::number(min);
            }
            if let Some(max) = p.max {
                o["max"] = crate::effects::number(max);
            }
            o
        })
        .collect();
    Ok(crate::text::obj([
        ("elementId", serde_json::Value::from(e.id.as_str())),
        ("type", serde_json::Value::from(e.kind.as_str())),
        ("properties", serde_json::Value::from(props)),
    ])
    .into())
}
