//! NeuralCut timeline → OpenCut `{ tracks }`. Imported elements come back exactly as they came
//! in, with only what the tools changed rewritten; elements the tools created get the fields
//! OpenCut's own builders give a new element.

use serde_json::{Map, Value};

use super::read::{accepts, IMPORTED};
use super::{params, units, STASH};
use crate::model::{Element, Project, Timeline, Track, TrackType};

/// Writes the scene's `{ tracks: { overlay, main, audio } }`.
pub fn write_scene(project: &Project, tl: &Timeline) -> Value {
    let w = Writer { project };
    let mut overlay = Vec::new();
    let mut main = None;
    let mut audio = Vec::new();
    for track in &tl.tracks {
        let all = || track.elements.iter().map(|e| e.as_ref()).collect::<Vec<_>>();
        match track.kind {
            TrackType::Main if main.is_none() => main = Some(w.track(&track.id, track, "main", all())),
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
                let (fit, rest): (Vec<&Element>, Vec<&Element>) = track.elements.iter().map(|e| e.as_ref()).partition(|e| accepts(kind, element_type(e)));
                overlay.push(w.track(&track.id, track, kind, fit));
                if !rest.is_empty() {
                    let other = if kind == "video" { "graphic" } else { "video" };
                    let bare = Track::new(String::new(), TrackType::Overlay);
                    overlay.push(w.track(&format!("{}-{other}", track.id), &bare, other, rest));
                }
            }
        }
    }
    let main = main.unwrap_or_else(|| w.track("main", &Track::new(String::new(), TrackType::Main), "main", Vec::new()));
    let mut tracks = Map::new();
    crate::text::put(&mut tracks, "overlay", Value::Array(overlay));
    crate::text::put(&mut tracks, "main", main);
    crate::text::put(&mut tracks, "audio", Value::Array(audio));
    for (k, v) in &tl.extra {
        tracks.entry(k.clone()).or_insert_with(|| v.clone());
    }
    crate::text::obj([("tracks", Value::Object(tracks))])
}

fn stash(extra: &Map<String, Value>) -> Option<&Map<String, Value>> {
    extra.get(STASH).and_then(Value::as_object)
}

/// The OpenCut kind of a NeuralCut overlay track: what it holds (the tools never put stickers and
/// video or images together, see `Track::takes`), else what it was imported as, else video. A
/// track of both (a NeuralCut project's own) keeps its imported kind, video without one.
fn overlay_kind(track: &Track) -> &'static str {
    let imported = stash(&track.extra).and_then(|s| s.get("type")).and_then(Value::as_str);
    let stickers = track.elements.iter().filter(|e| e.kind.is_graphic()).count();
    match imported {
        _ if stickers > 0 && stickers == track.elements.len() => "graphic",
        _ if stickers == 0 && !track.elements.is_empty() => "video",
        Some("graphic") => "graphic",
        _ => "video",
    }
}

/// The OpenCut type of an element: its NeuralCut type.
pub(super) fn element_type(e: &Element) -> &'static str {
    e.kind.as_str()
}

/// Whether the element was created by NeuralCut's tools rather than read from OpenCut (or cut
/// from an element read from OpenCut, which carries its parent's stash).
fn is_native(e: &Element) -> bool {
    stash(&e.extra).and_then(|s| s.get(IMPORTED)).is_none()
}

struct Writer<'a> {
    project: &'a Project,
}

impl Writer<'_> {
    /// One track of OpenCut `kind` ("main" is the main video track, named "Main Track" by default).
    fn track(&self, id: &str, track: &Track, kind: &str, elements: Vec<&Element>) -> Value {
        let name = track.name.clone().unwrap_or_else(|| units::track_name(kind).to_string());
        let kind = if kind == "main" { "video" } else { kind };
        let mut o = Map::new();
        crate::text::put(&mut o, "id", id.into());
        crate::text::put(&mut o, "name", name.into());
        crate::text::put(&mut o, "type", kind.into());
        crate::text::put(&mut o, "elements", elements.into_iter().map(|e| self.element(e)).collect());
        // OpenCut's track flags: video has both, audio muted, the others hidden.
        if kind != "audio" || track.hidden.is_some() {
            crate::text::put(&mut o, "hidden", track.hidden.unwrap_or(false).into());
        }
        if matches!(kind, "video" | "audio") || track.muted.is_some() {
            crate::text::put(&mut o, "muted", track.muted.unwrap_or(false).into());
        }
        for (k, v) in &track.extra {
            if k != STASH {
                o.entry(k.clone()).or_insert_with(|| v.clone());
            }
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

    /// One element: as it came in with only what the tools changed rewritten, or, for an element
    /// a tool created, what OpenCut's own builder (timeline/element-utils.ts) makes for its type.
    fn element(&self, e: &Element) -> Value {
        let kind = element_type(e);
        let native = is_native(e);
        let stash = stash(&e.extra);
        let canvas_h = self.project.settings.canvas.height;
        let asset = e.asset_id.as_deref().and_then(|id| self.project.asset(id));
        let mut o = Map::new();
        crate::text::put(&mut o, "id", e.id.as_str().into());
        crate::text::put(&mut o, "name", e.name.as_ref().map_or_else(|| self.default_name(e, kind), |n| n.to_string()).into());
        crate::text::put(&mut o, "type", kind.into());
        crate::text::put(&mut o, "startTime", e.start.into());
        crate::text::put(&mut o, "duration", e.duration.into());
        crate::text::put(&mut o, "trimStart", e.trim_start.into());
        crate::text::put(&mut o, "trimEnd", e.trim_end.into());
        match kind {
            "video" | "image" | "audio" => {
                let library = e.extra.get("sourceType").and_then(Value::as_str) == Some("library")
                    || asset.is_some_and(|a| a.extra.get("sourceType").and_then(Value::as_str) == Some("library"));
                if kind == "audio" && native {
                    crate::text::put(&mut o, "sourceType", if library { "library" } else { "upload" }.into());
                }
                if kind == "audio" && library {
                    if native {
                        let url = asset.and_then(|a| a.extra.get("sourceUrl")).cloned().unwrap_or(Value::Null);
                        crate::text::put(&mut o, "sourceUrl", url);
                    }
                } else if let Some(id) = &e.asset_id {
                    crate::text::put(&mut o, "mediaId", id.as_str().into());
                }
                if native && kind != "image" {
                    let source = asset.and_then(|a| a.duration_ticks()).unwrap_or_else(|| e.source_span());
                    crate::text::put(&mut o, "sourceDuration", source.into());
                }
                if kind == "video" && (native || e.source_audio.is_some()) {
                    crate::text::put(&mut o, "isSourceAudioEnabled", e.source_audio.unwrap_or(true).into());
                }
                if let Some(r) = &e.retime {
                    let mut v = serde_json::to_value(r).unwrap_or_default();
                    // Whole rates as JSON integers, the way JavaScript writes them.
                    v["rate"] = crate::effects::number(r.rate);
                    crate::text::put(&mut o, "retime", v);
                }
            }
            "sticker" => {
                crate::text::put(&mut o, "stickerId", e.sticker_id.clone().unwrap_or_default().into());
            }
            "graphic" => {
                crate::text::put(&mut o, "definitionId", e.definition_id.clone().unwrap_or_default().into());
            }
            "effect" => {
                crate::text::put(&mut o, "effectType", e.effect_type.clone().unwrap_or_default().into());
            }
            _ => {}
        }
        // The builders give video and image `hidden: false`; text, stickers and graphics none.
        match e.hidden {
            Some(h) => {
                crate::text::put(&mut o, "hidden", h.into());
            }
            None if native && matches!(kind, "video" | "image") => {
                crate::text::put(&mut o, "hidden", false.into());
            }
            None => {}
        }
        if kind == "effect" {
            let missing = stash.and_then(|s| s.get("noParams")).is_some();
            if !(missing && e.params.is_none()) {
                crate::text::put(&mut o, "params", Value::Object(e.params.clone().unwrap_or_default()));
            }
        } else {
            let original = stash.and_then(|s| s.get("params")).and_then(Value::as_object);
            let mut p = match (native, original) {
                (true, _) => units::default_params(kind, e.definition_id.as_deref()),
                (false, Some(p)) => p.clone(),
                (false, None) => Map::new(),
            };
            let changed = params::write(kind, e, &mut p, canvas_h);
            if native || original.is_some() || changed {
                crate::text::put(&mut o, "params", Value::Object(p));
            }
        }
        if let Some(a) = &e.animations {
            crate::text::put(&mut o, "animations", Value::Object(a.to_json()));
        }
        for (k, v) in &e.extra {
            if k != STASH && !o.contains_key(k) {
                o.insert(k.clone(), v.clone());
            }
        }
        if let Some(s) = stash {
            for (k, v) in s {
                if !matches!(k.as_str(), "type" | "params" | "noParams" | IMPORTED) && !o.contains_key(k) {
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
                crate::text::capitalize(t)
            }
            "sticker" => {
                let id = e.sticker_id.as_deref().unwrap_or("sticker");
                id.split(':').next_back().unwrap_or(id).replace('-', " ")
            }
            _ => e.asset_id.as_deref().and_then(|id| self.project.asset(id)).map_or_else(|| kind.to_string(), |a| a.name.clone()),
        }
    }
}
