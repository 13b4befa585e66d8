//! Read-only tools: list_project_assets, list_timeline, list_effects, get_effect.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use super::{seconds, Args, Ctx, ToolError};
use crate::effects;
use crate::model::{Element, ElementType};

pub fn list_project_assets(ctx: &mut Ctx, args: Args) -> Result<Value, ToolError> {
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
    Ok(json!({ "assets": assets }))
}

pub fn list_timeline(ctx: &mut Ctx, _args: Args) -> Result<Value, ToolError> {
    let tl = ctx.timeline()?;
    let tracks: Vec<Value> = tl
        .tracks
        .iter()
        .map(|t| {
            let mut o = Map::new();
            o.insert("trackId".into(), t.id.clone().into());
            o.insert("type".into(), t.kind.as_str().into());
            if let Some(n) = &t.name {
                o.insert("name".into(), n.clone().into());
            }
            o.insert("elements".into(), t.elements.iter().map(|e| element_summary(e)).collect());
            Value::Object(o)
        })
        .collect();
    Ok(json!({ "tracks": tracks, "duration": seconds(tl.end()) }))
}

/// What list_timeline says of one element: ids and times, plus what an agent needs to recognise
/// it (text content, effect and params, sticker, volume).
fn element_summary(e: &Element) -> Value {
    let mut o = Map::new();
    o.insert("elementId".into(), e.id.clone().into());
    o.insert("type".into(), e.kind.as_str().into());
    if let Some(a) = &e.asset_id {
        o.insert("assetId".into(), a.clone().into());
    }
    if let Some(n) = &e.name {
        o.insert("name".into(), n.clone().into());
    }
    o.insert("start".into(), seconds(e.start));
    o.insert("end".into(), seconds(e.end()));
    o.insert("duration".into(), seconds(e.duration));
    match e.kind {
        ElementType::Video | ElementType::Audio => {
            o.insert("trimStart".into(), seconds(e.trim_start));
            o.insert("volume".into(), effects::number(e.volume.unwrap_or(1.0)));
        }
        ElementType::Text => {
            o.insert("text".into(), e.content.clone().unwrap_or_default().into());
            if let Some(p) = &e.position {
                o.insert("position".into(), p.clone().into());
            }
        }
        ElementType::Sticker => {
            o.insert("stickerId".into(), e.sticker_id.clone().unwrap_or_default().into());
            if let Some(p) = &e.position {
                o.insert("position".into(), p.clone().into());
            }
        }
        ElementType::Effect => {
            o.insert("effectType".into(), e.effect_type.clone().unwrap_or_default().into());
            o.insert("params".into(), Value::Object(e.params.clone().unwrap_or_default()));
        }
        ElementType::Image => {}
    }
    Value::Object(o)
}

pub fn list_effects(_ctx: &mut Ctx, args: Args) -> Result<Value, ToolError> {
    let query = args.string("query")?.unwrap_or("");
    let list: Vec<Value> = effects::search(query)
        .into_iter()
        .map(|e| json!({ "id": e.id, "name": e.name, "description": e.description }))
        .collect();
    Ok(json!({ "effects": list }))
}

pub fn get_effect(_ctx: &mut Ctx, args: Args) -> Result<Value, ToolError> {
    let kind = args.id("effectType", ToolError::invalid_effect_type)?;
    let def = effects::find(kind).ok_or_else(|| ToolError::effect_not_found(kind))?;
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
    Ok(json!({ "id": def.id, "name": def.name, "description": def.description, "params": params }))
}
