//! get_effect (Get effect): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "get_effect",
    title: text!("Get effect"),
    summary: text!("Look up effect {effectType}"),
    description: text!("Describe one effect (effectType from list_effects): each parameter's key, type, default, min, max, step and a readable description. Call before apply_effect to choose params. Reads only."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: READ,
    errors: list!(&["Invalid effect type", "Effect not found: <type>"]),
    example: text!(r#"{"effectType":"blur"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Effect id from list_effects
        effect_type: Arg<NonEmpty>,
    }
}

returns! {
    pub struct Returns {
        id: String,
        name: String,
        description: String,
        params: List<Param>,
    }
}

returns! {
    struct Param {
        key: String,
        label: String,
        #[schemars(extend("enum" = ["number", "boolean", "color", "select"]))]
        r#type: String,
        default: ParamValue,
        min: Option<f64>,
        max: Option<f64>,
        step: Option<f64>,
        options: Option<List<ParamOption>>,
        description: String,
    }
}

returns! {
    struct ParamOption {
        value: Option<String>,
        label: Option<String>,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let kind = args.effect_type.id(ToolError::invalid_effect_type)?;
    let def = ctx.effects.find(kind).ok_or_else(|| ToolError::effect_not_found(kind))?;
    let params: Vec<Value> = def
        .params
        .iter()
        .map(|p| {
            crate::text::obj([
                ("key", serde_json::Value::from(p.key)),
                ("label", serde_json::Value::from(p.label)),
                ("type", serde_json::Value::from("number")),
                ("default", effects::number(p.default)),
                ("min", effects::number(p.min)),
                ("max", effects::number(p.max)),
                ("step", effects::number(p.step)),
                ("description", serde_json::Value::from(p.description())),
            ])
        })
        .collect();
    Ok(crate::text::obj([
        ("id", serde_json::Value::from(def.id)),
        ("name", serde_json::Value::from(def.name)),
        ("description", serde_json::Value::from(def.description)),
        ("params", serde_json::Value::from(params)),
    ])
    .into())
}
