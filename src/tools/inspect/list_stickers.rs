//! list_stickers (List stickers): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "list_stickers",
    title: text!("List stickers"),
    summary: text!("Find stickers[ for {query:q}]"),
    description: text!("Find sticker ids for add_sticker: the host's catalog, then OpenCut's stickers (flags such as flags:US, by country name, code or region; shapes such as shapes:star). query filters case-insensitively; limit (default 50, at most 500) caps the list, total counts every match. Reads only."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: LISTING,
    errors: list!(&["No active project", "Argument \"limit\" must be a whole number from 1 to 500"]),
    example: text!(r#"{"query":"france"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Filter by name, id, country code or region (default: all)
        query: Arg<Option<String>>,
        /// Most stickers to return (default 50)
        #[schemars(range(min = 1, max = 500))]
        limit: Arg<Option<i64>>,
    }
}

returns! {
    pub struct Returns {
        stickers: List<StickerEntry>,
        /// Every match, before limit
        total: i64,
    }
}

returns! {
    struct StickerEntry {
        /// The stickerId add_sticker takes
        id: String,
        name: String,
        /// flags or shapes (OpenCut's), or the catalog id's prefix
        provider: String,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let query = args.query.string("query")?.unwrap_or("");
    let limit = match args.limit.read() {
        Ok(None) => STICKER_LIMIT,
        Ok(Some(n)) if (1..=MAX_STICKER_LIMIT).contains(&n) => n as u64,
        _ => return Err(ToolError::invalid_argument("limit", "a whole number from 1 to 500")),
    } as usize;
    let project = ctx.project()?;
    let q = crate::text::lowercase(query.trim());
    // The host's catalog first, then OpenCut's providers; a built-in the catalog also holds under
    // the same id is listed once.
    let catalog = project
        .stickers
        .iter()
        .filter(|s| q.is_empty() || crate::text::lowercase(&s.id).contains(&q) || crate::text::lowercase(&s.name).contains(&q))
        .map(|s| (s.id.clone(), s.name.as_str(), stickers::parse_id(&s.id).map_or("catalog", |(p, _)| p)));
    let builtin = stickers::search(query).into_iter().filter(|b| project.sticker(&b.id).is_none()).map(|b| (b.id, b.name, b.provider));
    let mut list = Vec::new();
    let mut total = 0;
    for (id, name, provider) in catalog.chain(builtin) {
        if total < limit {
            list.push(crate::text::obj([
                ("id", serde_json::Value::from(id)),
                ("name", serde_json::Value::from(name)),
                ("provider", serde_json::Value::from(provider)),
            ]));
        }
        total += 1;
    }
    Ok(crate::text::obj([("stickers", serde_json::Value::from(list)), ("total", serde_json::Value::from(total))]).into())
}
