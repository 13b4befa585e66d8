//! NeuralCut timeline → OpenCut `{ tracks }`. Imported elements come back exactly as they came
//! in, with only what the tools changed rewritten; elements the tools created get the fields
//! OpenCut's own builders give a new element.

use serde_json::{json, Map, Value};

use super::read::{accepts, background_color};
use super::{units, STASH};
use crate::effects::number;
use crate::model::{Element, ElementType, Project, Timeline, Track, TrackType};

/// Writes the scene's `{ tracks: { overlay, main, audio } }`.
pub fn write_scene(project: &Project, tl: &Timeline) -> Value {
    let w = Writer { project };
    let mut overlay = Vec::new();
    let mut main = None;
    let mut audio = Vec::new();
    for track in &tl.tracks {
        let all = || track.elements.iter().map(|e| e.as_ref()).collect::<Vec<_>>();
        match track.kind {
            TrackType::Main if main.is_none() => main = Some(w.track(&track.id, track, "video", all())),
            // Never in a valid project (exactly one main track); kept rather than dropped.
            TrackType::Main => overlay.push(w.track(&track.id, track, "video", all())),
            TrackType::Audio => audio.push(w.track(&track.id, track, "audio", all())),
            TrackType::Text => overlay.push(w.track(&track.id, track, "text", all())),
            TrackType::Effect => overlay.push(w.track(&track.id, track, "effect", all())),
            TrackType::Overlay => {
                // An OpenCut overlay track is either video (video, image) or graphic (sticker,
                // graphic); NeuralCut's overlay holds all four. Elements that do not fit the
                // track's OpenCut kind go to a companion track just below it.
                let kind = overlay_kind(track);
                let (fit, rest): (Vec<&Element>, Vec<&Element>) =
                    track.elements.iter().map(|e| e.as_ref()).partition(|e| accepts(kind, element_type(e)));
                overlay.push(w.track(&track.id, track, kind, fit));
                if !rest.is_empty() {
                    let other = if kind == "video" { "graphic" } else { "video" };
                    let bare = Track::new(String::new(), TrackType::Overlay);
                    overlay.push(w.track(&format!("{}-{other}", track.id), &bare, other, rest));
                }
            }
        }
    }
    let main = main.unwrap_or_else(|| w.track("main", &Track::new(String::new(), TrackType::Main), "video", Vec::new()));
    let mut tracks = Map::new();
    tracks.insert("overlay".into(), Value::Array(overlay));
    tracks.insert("main".into(), main);
    tracks.insert("audio".into(), Value::Array(audio));
    for (k, v) in &tl.extra {
        tracks.entry(k.clone()).or_insert_with(|| v.clone());
    }
    json!({ "tracks": tracks })
}

fn stash(extra: &Map<String, Value>) -> Option<&Map<String, Value>> {
    extra.get(STASH).and_then(Value::as_object)
}

/// The OpenCut kind of a NeuralCut overlay track: what it was imported as, else graphic when it
/// holds only stickers and graphics, else video.
fn overlay_kind(track: &Track) -> &'static str {
    match stash(&track.extra).and_then(|s| s.get("type")).and_then(Value::as_str) {
        Some("graphic") => "graphic",
        Some(_) => "video",
        None if !track.elements.is_empty() && track.elements.iter().all(|e| e.kind == ElementType::Sticker) => "graphic",
        None => "video",
    }
}

/// The OpenCut type of an element: its NeuralCut type, except that graphics travel as stickers.
pub(super) fn element_type(e: &Element) -> &'static str {
    let graphic = stash(&e.extra).and_then(|s| s.get("type")).and_then(Value::as_str) == Some("graphic");
    if graphic && e.kind == ElementType::Sticker {
        "graphic"
    } else {
        e.kind.as_str()
    }
}

/// Whether the element was created by NeuralCut rather than read from OpenCut: OpenCut elements
/// always carry a field NeuralCut never writes (`transform` on visual elements, `sourceType` on
/// audio).
fn is_native(e: &Element, kind: &str) -> bool {
    match kind {
        "audio" => !e.extra.contains_key("sourceType"),
        "effect" => !e.extra.contains_key(STASH) && e.params.is_none(),
        _ => !e.extra.contains_key("transform"),
    }
}

fn numbers_differ(a: Option<&Value>, b: Option<f64>) -> bool {
    match (a.and_then(Value::as_f64), b) {
        (Some(x), Some(y)) => x != y,
        (_, None) => false,
        (None, Some(_)) => true,
    }
}

struct Writer<'a> {
    project: &'a Project,
}

impl Writer<'_> {
    fn track(&self, id: &str, track: &Track, kind: &str, elements: Vec<&Element>) -> Value {
        let mut o = Map::new();
        o.insert("id".into(), id.into());
        o.insert("name".into(), track.name.clone().unwrap_or_else(|| units::track_name(kind).to_string()).into());
        o.insert("type".into(), kind.into());
        o.insert("elements".into(), elements.into_iter().map(|e| self.element(e)).collect());
        for (k, v) in &track.extra {
            if k != STASH {
                o.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        for (k, v) in units::track_flags(kind) {
            o.entry(k).or_insert(v);
        }
        if let Some(s) = stash(&track.extra) {
            for (k, v) in s {
                if k != "type" {
                    o.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        Value::Object(o)
    }

    fn element(&self, e: &Element) -> Value {
        let kind = element_type(e);
        let native = is_native(e, kind);
        let stash = stash(&e.extra);
        let stashed = |key: &str| stash.and_then(|s| s.get(key));
        let canvas_h = self.project.settings.canvas.height;
        let asset = e.asset_id.as_deref().and_then(|id| self.project.asset(id));
        let mut o = Map::new();
        o.insert("id".into(), e.id.as_str().into());
        o.insert("name".into(), e.name.as_ref().map_or_else(|| self.default_name(e, kind), |n| n.to_string()).into());
        o.insert("type".into(), kind.into());
        o.insert("startTime".into(), e.start.into());
        o.insert("duration".into(), e.duration.into());
        o.insert("trimStart".into(), e.trim_start.into());
        o.insert("trimEnd".into(), e.trim_end.into());
        // The model's typed retime (a project saved and loaded again holds it there, not in extra).
        if let Some(r) = &e.retime {
            o.insert("retime".into(), serde_json::to_value(r).expect("a retime serialises"));
        }
        let mut put = |k: &str, v: Value| {
            o.insert(k.to_string(), v);
        };
        match kind {
            "video" | "image" | "audio" => {
                let library = e.extra.get("sourceType").and_then(Value::as_str) == Some("library")
                    || asset.is_some_and(|a| a.extra.get("sourceType").and_then(Value::as_str) == Some("library"));
                if kind == "audio" && native {
                    put("sourceType", if library { "library" } else { "upload" }.into());
                }
                if kind == "audio" && library {
                    if native {
                        let url = asset.and_then(|a| a.extra.get("sourceUrl")).cloned().unwrap_or(Value::Null);
                        put("sourceUrl", url);
                    }
                } else if let Some(id) = &e.asset_id {
                    put("mediaId", id.as_str().into());
                }
                if kind != "image" {
                    // Written back as it came unless a tool changed it.
                    let volume = match (e.volume, stashed("volume")) {
                        (Some(v), Some(orig)) if orig.as_f64().map(units::db_to_linear) == Some(v) => Some(orig.clone()),
                        (Some(v), _) => Some(number(units::linear_to_db(v))),
                        (None, _) if native => Some(0.into()),
                        (None, _) => None,
                    };
                    if let Some(v) = volume {
                        put("volume", v);
                    }
                }
                if native {
                    if kind != "image" {
                        let source = asset.and_then(|a| a.duration_ticks()).unwrap_or_else(|| e.source_span());
                        put("sourceDuration", source.into());
                        put("muted", false.into());
                    }
                    if kind != "audio" {
                        put("hidden", false.into());
                        put("transform", units::transform(0.0, 0.0));
                        put("opacity", 1.into());
                        put("blendMode", "normal".into());
                    }
                }
            }
            "text" => {
                put("content", e.content.clone().unwrap_or_default().into());
                let size = match (e.font_size, stashed("fontSize")) {
                    (Some(px), Some(orig)) if orig.as_f64().map(|s| units::font_px(s, canvas_h)) == Some(px) => Some(orig.clone()),
                    (Some(px), _) => Some(number(units::font_opencut(px, canvas_h))),
                    (None, _) if native => Some(number(units::DEFAULT_FONT_SIZE)),
                    (None, _) => None,
                };
                if let Some(v) = size {
                    put("fontSize", v);
                }
                if native {
                    put("fontFamily", "Arial".into());
                }
                if let Some(c) = e.color.clone().or_else(|| native.then(|| "#ffffff".to_string())) {
                    put("color", c.into());
                }
                let background = match stashed("background") {
                    Some(orig) if background_color(orig) == e.background => Some(orig.clone()),
                    Some(orig) => {
                        let mut bg = orig.as_object().cloned().unwrap_or_default();
                        bg.insert("enabled".into(), e.background.is_some().into());
                        if let Some(c) = &e.background {
                            bg.insert("color".into(), c.clone().into());
                        }
                        Some(Value::Object(bg))
                    }
                    None if native || e.background.is_some() => Some(units::text_background(e.background.as_deref())),
                    None => None,
                };
                if let Some(bg) = background {
                    put("background", bg);
                }
                if native {
                    put("textAlign", "center".into());
                }
                if let Some(w) = e.font_weight.clone().or_else(|| native.then(|| "normal".to_string())) {
                    put("fontWeight", w.into());
                }
                if native {
                    put("fontStyle", "normal".into());
                    put("textDecoration", "none".into());
                    put("letterSpacing", 0.into());
                    put("lineHeight", number(1.2));
                }
            }
            "sticker" => {
                put("stickerId", e.sticker_id.clone().unwrap_or_default().into());
            }
            "graphic" => {
                if let Some(p) = &e.params {
                    put("params", Value::Object(p.clone()));
                }
            }
            "effect" => {
                put("effectType", e.effect_type.clone().unwrap_or_default().into());
                if e.params.is_some() || native {
                    put("params", Value::Object(e.params.clone().unwrap_or_default()));
                }
            }
            _ => {}
        }
        let placed = matches!(kind, "text" | "sticker" | "graphic");
        if placed && native {
            put("transform", units::transform(e.x.unwrap_or(0.0), e.y.unwrap_or(0.0)));
            put("opacity", 1.into());
            put("blendMode", "normal".into());
        }
        for (k, v) in &e.extra {
            if k == STASH || o.contains_key(k) {
                continue;
            }
            let mut v = v.clone();
            // A tool moved the text or sticker: its centre lives in transform.position.
            if placed && k == "transform" {
                if let Some(pos) = v.get_mut("position").and_then(Value::as_object_mut) {
                    for (axis, now) in [("x", e.x), ("y", e.y)] {
                        if numbers_differ(pos.get(axis), now) {
                            pos.insert(axis.into(), number(now.unwrap_or(0.0)));
                        }
                    }
                }
            }
            o.insert(k.clone(), v);
        }
        if let Some(s) = stash {
            for (k, v) in s {
                if k != "type" && !o.contains_key(k) {
                    o.insert(k.clone(), v.clone());
                }
            }
        }
        Value::Object(o)
    }

    /// OpenCut's name for a new element of `kind`, when NeuralCut has none.
    fn default_name(&self, e: &Element, kind: &str) -> String {
        match kind {
            "text" => "Text".to_string(),
            "effect" => {
                let t = e.effect_type.as_deref().unwrap_or("effect");
                let mut c = t.chars();
                c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
            }
            "sticker" => {
                let id = e.sticker_id.as_deref().unwrap_or("sticker");
                id.split(':').next_back().unwrap_or(id).replace('-', " ")
            }
            _ => e
                .asset_id
                .as_deref()
                .and_then(|id| self.project.asset(id))
                .map_or_else(|| kind.to_string(), |a| a.name.clone()),
        }
    }
}
