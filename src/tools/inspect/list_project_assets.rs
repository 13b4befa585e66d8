//! list_project_assets (List project assets): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "list_project_assets",
    title: text!("List project assets"),
    summary: text!("List project assets[ ({type})]"),
    description: text!("List the media assets (video, audio, image) loaded in the project, with their stable ids, durations in seconds and whether the timeline uses them. Call this first when you need an assetId. Filter by usage (all, used, unused) and by type. Reads only."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: LISTING,
    errors: list!(&["No active project"]),
    example: text!(r#"{"filter":"unused","type":"all"}"#),
    run: typed!(run),
};

const FILTERS: [&str; 3] = ["all", "used", "unused"];
const TYPES: [&str; 4] = ["all", "video", "audio", "image"];

choices! {
    Filters = FILTERS;
    AssetTypes = TYPES;
}

arguments! {
    pub struct Arguments {
        /// Which assets by timeline usage (default all)
        filter: Arg<Option<Choice<Filters>>>,
        /// Which asset type (default all)
        r#type: Arg<Option<Choice<AssetTypes>>>,
    }
}

returns! {
    pub struct Returns {
        assets: List<AssetEntry>,
    }
}

returns! {
    struct AssetEntry {
        id: String,
        name: String,
        #[schemars(extend("enum" = ["video", "audio", "image"]))]
        r#type: String,
        duration: Option<f64>,
        used_in_timeline: bool,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let filter = args.filter.choice("filter")?.unwrap_or("all");
    let kind = args.r#type.choice("type")?.unwrap_or("all");
    let project = ctx.project()?;
    let used: HashSet<&str> = ctx.timeline.iter().flat_map(|t| t.tracks.iter()).flat_map(|t| t.elements.iter()).filter_map(|e| e.asset_id.as_deref()).collect();
    let assets: Vec<Value> = project
        .assets
        .iter()
        .filter(|a| kind == "all" || a.kind.as_str() == kind)
        .filter_map(|a| {
            let in_use = used.contains(a.id.as_str());
            let keep = match filter {
                "used" => in_use,
                "unused" => !in_use,
                _ => true,
            };
            keep.then(|| {
                let mut o = Map::new();
                crate::text::put(&mut o, "id", a.id.clone().into());
                crate::text::put(&mut o, "name", a.name.clone().into());
                crate::text::put(&mut o, "type", a.kind.as_str().into());
                if let Some(d) = a.duration {
                    crate::text::put(&mut o, "duration", effects::number(d));
                }
                crate::text::put(&mut o, "usedInTimeline", in_use.into());
                Value::Object(o)
            })
        })
        .collect();
    Ok(crate::text::obj([("assets", serde_json::Value::from(assets))]).into())
}
