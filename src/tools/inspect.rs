//! Read-only tools: list_project_assets, list_timeline, list_effects, get_effect.

use std::collections::HashSet;
use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Map, Value};

use super::{Args, Ctx, Output, ToolError};
use crate::effects;
use crate::model::{Element, ElementType, Timeline, Track};
use crate::time::{ticks_to_seconds, TICKS_PER_SECOND};

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
    // Serialised straight from the timeline: on 10 000 elements a Value tree costs several times
    // more than the text itself.
    Ok(Output::from_serialize(&TimelineView(ctx.timeline()?)))
}

struct TimelineView<'a>(&'a Timeline);
struct TrackView<'a>(&'a Track);
/// What list_timeline says of one element: ids and times, plus what an agent needs to recognise
/// it (text content, effect and params, sticker, volume).
struct ElementView<'a>(&'a Element);
struct Seconds(i64);

impl Serialize for Seconds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % TICKS_PER_SECOND == 0 {
            s.serialize_i64(self.0 / TICKS_PER_SECOND)
        } else {
            s.serialize_f64(ticks_to_seconds(self.0))
        }
    }
}

impl Serialize for TimelineView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("tracks", &SeqView(&self.0.tracks, |t: &Arc<Track>| TrackView(t)))?;
        m.serialize_entry("duration", &Seconds(self.0.end()))?;
        m.end()
    }
}

/// Serialises a slice through a view constructor without collecting the views.
struct SeqView<'a, T, V, F: Fn(&'a T) -> V>(&'a [T], F);

impl<'a, T, V: Serialize, F: Fn(&'a T) -> V> Serialize for SeqView<'a, T, V, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(&self.1))
    }
}

impl Serialize for TrackView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("trackId", &t.id)?;
        m.serialize_entry("type", t.kind.as_str())?;
        if let Some(n) = &t.name {
            m.serialize_entry("name", n)?;
        }
        m.serialize_entry("elements", &SeqView(&t.elements, |e: &Arc<Element>| ElementView(e)))?;
        m.end()
    }
}

impl Serialize for ElementView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("elementId", &e.id)?;
        m.serialize_entry("type", e.kind.as_str())?;
        if let Some(a) = &e.asset_id {
            m.serialize_entry("assetId", a)?;
        }
        if let Some(n) = &e.name {
            m.serialize_entry("name", n)?;
        }
        m.serialize_entry("start", &Seconds(e.start))?;
        m.serialize_entry("end", &Seconds(e.end()))?;
        m.serialize_entry("duration", &Seconds(e.duration))?;
        match e.kind {
            ElementType::Video | ElementType::Audio => {
                m.serialize_entry("trimStart", &Seconds(e.trim_start))?;
                m.serialize_entry("volume", &effects::number(e.volume.unwrap_or(1.0)))?;
            }
            ElementType::Text => {
                m.serialize_entry("text", e.content.as_deref().unwrap_or_default())?;
                if let Some(p) = &e.position {
                    m.serialize_entry("position", p)?;
                }
            }
            ElementType::Sticker => {
                m.serialize_entry("stickerId", e.sticker_id.as_deref().unwrap_or_default())?;
                if let Some(p) = &e.position {
                    m.serialize_entry("position", p)?;
                }
            }
            ElementType::Effect => {
                m.serialize_entry("effectType", e.effect_type.as_deref().unwrap_or_default())?;
                m.serialize_entry("params", &e.params.clone().unwrap_or_default())?;
            }
            ElementType::Image => {}
        }
        m.end()
    }
}

pub fn list_effects(_ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let query = args.string("query")?.unwrap_or("");
    let list: Vec<Value> = effects::search(query)
        .into_iter()
        .map(|e| json!({ "id": e.id, "name": e.name, "description": e.description }))
        .collect();
    Ok(json!({ "effects": list }).into())
}

pub fn get_effect(_ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
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
    Ok(json!({ "id": def.id, "name": def.name, "description": def.description, "params": params }).into())
}
