//! list_effects (List effects): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "list_effects",
    title: text!("List effects"),
    summary: text!("List effects[ for {query:q}]"),
    description: text!("List the available visual effects (id, name, description). Optional query filters by name or keyword, case-insensitively. First step of list_effects, get_effect, apply_effect. Reads only."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: READ,
    errors: list!(&[]),
    example: text!(r#"{"query":"vintage"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Filter by name or keyword
        query: Arg<Option<String>>,
    }
}

returns! {
    pub struct Returns {
        effects: List<EffectEntry>,
    }
}

returns! {
    struct EffectEntry {
        id: String,
        name: String,
        description: String,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let query = args.query.string("query")?.unwrap_or("");
    let list: Vec<Value> = ctx
        .effects
        .search(query)
        .into_iter()
        .map(|e| {
            crate::text::obj([
                ("id", serde_json::Value::from(e.id)),
                ("name", serde_json::Value::from(e.name)),
                ("description", serde_json::Value::from(e.description)),
            ])
        })
        .collect();
    Ok(crate::text::obj([("effects", serde_json::Value::from(list))]).into())
}
