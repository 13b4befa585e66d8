//! Read-only tools: list_project_assets, list_timeline, list_stickers, list_effects, get_effect.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use super::{listing, Args, Ctx, Output, ToolError};
use crate::effects;
use crate::stickers;

pub fn list_project_assets(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let filter = args.choice("filter", &["all", "used", "unused"])?.unwrap_or("all");
    let kind = args.choice("type", &["all", "video", "audio", "image"])?.unwrap_or("all");
    let project = ctx.project()?;
    let used: HashSet<&str> = ctx
        .timeline
        .iter()
        .flat_map(|t| t.tracks.iter())
        .flat_map(|t| t.elements.iter())
        .filter_map(|e| e.asset_id.as_deref())
        .collect();
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
                o.insert("id".into(), a.id.clone().into());
                o.insert("name".into(), a.name.clone().into());
                o.insert("type".into(), a.kind.as_str().into());
                if let Some(d) = a.duration {
                    o.insert("duration".into(), effects::number(d));
                }
                o.insert("usedInTimeline".into(), in_use.into());
                Value::Object(o)
            })
        })
        .collect();
    Ok(json!({ "assets": assets }).into())
}

pub fn list_timeline(ctx: &mut Ctx, _args: Args) -> Result<Output, ToolError> {
    let tl = ctx.timeline.as_ref().ok_or_else(ToolError::no_active_timeline)?;
    Ok(listing::list(tl, ctx.listing.as_deref_mut()))
}

/// How many stickers list_stickers returns when `limit` is not given, and at most.
const STICKER_LIMIT: u64 = 50;
const MAX_STICKER_LIMIT: u64 = 500;

pub fn list_stickers(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let query = args.string("query")?.unwrap_or("");
    let limit = match args.get("limit") {
        None => STICKER_LIMIT,
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=MAX_STICKER_LIMIT).contains(n))
            .ok_or_else(|| ToolError::invalid_argument("limit", "a whole number from 1 to 500"))?,
    } as usize;
    let project = ctx.project()?;
    let q = query.trim().to_lowercase();
    // The host's catalog first, then OpenCut's providers; a built-in the catalog also holds under
    // the same id is listed once.
    let catalog = project
        .stickers
        .iter()
        .filter(|s| q.is_empty() || s.id.to_lowercase().contains(&q) || s.name.to_lowercase().contains(&q))
        .map(|s| (s.id.clone(), s.name.as_str(), stickers::parse_id(&s.id).map_or("catalog", |(p, _)| p)));
    let builtin = stickers::search(query).into_iter().filter(|b| project.sticker(&b.id).is_none()).map(|b| (b.id, b.name, b.provider));
    let mut list = Vec::new();
    let mut total = 0;
    for (id, name, provider) in catalog.chain(builtin) {
        if total < limit {
            list.push(json!({ "id": id, "name": name, "provider": provider }));
        }
        total += 1;
    }
    Ok(json!({ "stickers": list, "total": total }).into())
}

pub fn list_effects(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let query = args.string("query")?.unwrap_or("");
    let list: Vec<Value> = ctx
        .effects
        .search(query)
        .into_iter()
        .map(|e| json!({ "id": e.id, "name": e.name, "description": e.description }))
        .collect();
    Ok(json!({ "effects": list }).into())
}

pub fn get_effect(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let kind = args.id("effectType", ToolError::invalid_effect_type)?;
    let def = ctx.effects.find(kind).ok_or_else(|| ToolError::effect_not_found(kind))?;
    let params: Vec<Value> = def
        .params
        .iter()
        .map(|p| {
            json!({
                "key": p.key,
                "label": p.label,
                "type": "number",
                "default": effects::number(p.default),
                "min": effects::number(p.min),
                "max": effects::number(p.max),
                "step": effects::number(p.step),
                "description": p.description(),
            })
        })
        .collect();
    Ok(json!({ "id": def.id, "name": def.name, "description": def.description, "params": params }).into())
}
