//! OpenCut scene → NeuralCut project. Everything is checked here, with OpenCut's own paths in the
//! errors (`tracks.overlay[1].elements[0] ("el-7")`), before anything is built, so a refused scene
//! changes nothing.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{scene_error as err, units, LIBRARY_ASSET_PREFIX, STASH};
use crate::model::{
    Asset, AssetType, Canvas, Element, ElementType, Project, ProjectError, Retime, Settings, Timeline, Track, TrackType, PROJECT_FORMAT, PROJECT_VERSION,
};
use crate::text::Num;
use crate::time::TICKS_PER_SECOND;

/// Names NeuralCut's element serialises itself. An OpenCut field of the same name that is not
/// mapped onto it waits in the stash instead of `extra`, so the two never collide.
const ELEMENT_FIELDS: [&str; 45] = [
    "id",
    "type",
    "name",
    "start",
    "duration",
    "trimStart",
    "trimEnd",
    "assetId",
    "volume",
    "content",
    "style",
    "position",
    "x",
    "y",
    "fontSize",
    "color",
    "fontWeight",
    "background",
    "stickerId",
    "effectType",
    "params",
    "hidden",
    "muted",
    "fontFamily",
    "fontStyle",
    "textAlign",
    "textDecoration",
    "retime",
    "scaleX",
    "scaleY",
    "rotate",
    "opacity",
    "blendMode",
    "letterSpacing",
    "lineHeight",
    "backgroundColor",
    "backgroundPaddingX",
    "backgroundPaddingY",
    "backgroundOffsetX",
    "backgroundOffsetY",
    "backgroundCornerRadius",
    "definitionId",
    "isSourceAudioEnabled",
    "animations",
    STASH,
];

/// The stash key that marks an element read from OpenCut (the tools' own elements have no stash).
pub(super) const IMPORTED: &str = "imported";

/// Which part of OpenCut's `tracks` object a track came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Overlay,
    Main,
    Audio,
}

/// Whether an OpenCut track of `track` type may hold an element of `element` type.
pub(super) fn accepts(track: &str, element: &str) -> bool {
    match track {
        "video" => matches!(element, "video" | "image"),
        "graphic" => matches!(element, "sticker" | "graphic"),
        other => other == element,
    }
}

struct Reader {
    assets: Vec<Asset>,
    ids: HashSet<String>,
    canvas_height: u32,
}

/// Reads `{ tracks, assets, settings? }` into a project. `base` is the editor's current project:
/// its sticker catalog and id counter carry over, and its settings stand when the scene has none.
pub fn read_scene(scene: &Value, base: Option<&Project>) -> Result<Project, ProjectError> {
    let obj = scene.as_object().ok_or_else(|| err("scene", "must be an object { tracks, assets, settings? }"))?;
    let settings = match obj.get("settings") {
        None | Some(Value::Null) => base.map(|p| p.settings.clone()).unwrap_or_default(),
        Some(v) => read_settings(v, base.map(|p| &p.settings))?,
    };
    let mut reader = Reader { assets: Vec::new(), ids: HashSet::new(), canvas_height: settings.canvas.height };
    match obj.get("assets") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            for (i, v) in list.iter().enumerate() {
                let asset = read_asset(v, &format!("assets[{i}]"))?;
                if !reader.ids.insert(asset.id.clone()) {
                    return Err(err(&format!("assets[{i}]"), format!("duplicate id \"{}\"", asset.id)));
                }
                reader.assets.push(asset);
            }
        }
        Some(_) => return Err(err("assets", "must be an array of media assets")),
    }

    let tracks = obj.get("tracks").ok_or_else(|| err("tracks", "is missing: a scene is { tracks: { overlay, main, audio }, assets }"))?;
    let tracks = tracks.as_object().ok_or_else(|| err("tracks", "must be an object { overlay: [...], main: {...}, audio: [...] }"))?;
    let list = |key: &str| -> Result<&[Value], ProjectError> {
        match tracks.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(a)) => Ok(a.as_slice()),
            Some(_) => Err(err(&format!("tracks.{key}"), "must be an array of tracks")),
        }
    };
    let (overlay, audio) = (list("overlay")?, list("audio")?);
    let main = match tracks.get("main") {
        Some(v @ Value::Object(_)) => v,
        _ => return Err(err("tracks.main", "is missing: every scene has one main video track")),
    };

    let mut out = Vec::with_capacity(overlay.len() + 1 + audio.len());
    for (i, t) in overlay.iter().enumerate() {
        out.push(Arc::new(read_track(t, &format!("tracks.overlay[{i}]"), Slot::Overlay, &mut reader)?));
    }
    out.push(Arc::new(read_track(main, "tracks.main", Slot::Main, &mut reader)?));
    for (i, t) in audio.iter().enumerate() {
        out.push(Arc::new(read_track(t, &format!("tracks.audio[{i}]"), Slot::Audio, &mut reader)?));
    }
    // Anything else in the tracks object rides along on the timeline.
    let extra: Map<String, Value> =
        tracks.iter().filter(|(k, _)| !matches!(k.as_str(), "overlay" | "main" | "audio" | "tracks")).map(|(k, v)| (k.clone(), v.clone())).collect();

    let mut project = Project {
        format: PROJECT_FORMAT.to_string(),
        version: PROJECT_VERSION,
        settings,
        assets: reader.assets,
        stickers: base.map(|p| p.stickers.clone()).unwrap_or_default(),
        timeline: Some(Timeline { tracks: out, extra }),
        next_id: 1,
        extra: base.map(|p| p.extra.clone()).unwrap_or_default(),
    };
    // New ids never collide with the scene's.
    project.next_id = crate::model::next_free_id(&project).max(base.map_or(1, |p| p.next_id));
    Ok(project)
}

fn read_settings(v: &Value, base: Option<&Settings>) -> Result<Settings, ProjectError> {
    let o = v.as_object().ok_or_else(|| err("settings", "must be an object { fps, canvasSize, background }"))?;
    let mut s = base.cloned().unwrap_or_default();
    s.extra = Map::new();
    for (k, v) in o {
        match k.as_str() {
            "fps" => {
                s.fps = units::frame_rate(v).ok_or_else(|| err("settings.fps", "must be { numerator, denominator } with both positive integers"))?;
            }
            "canvasSize" => {
                let dim = |key: &str| v.get(key).and_then(Value::as_u64).filter(|n| *n > 0).and_then(|n| u32::try_from(n).ok());
                let (Some(width), Some(height)) = (dim("width"), dim("height")) else {
                    return Err(err("settings.canvasSize", "must be { width, height } in whole pixels > 0"));
                };
                s.canvas = Canvas { width, height };
            }
            // NeuralCut's own name for the canvas; never an OpenCut field.
            "canvas" => {}
            _ => {
                s.extra.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(s)
}

fn read_asset(v: &Value, path: &str) -> Result<Asset, ProjectError> {
    let o = v.as_object().ok_or_else(|| err(path, "must be a media asset object { id, name, type, duration? }"))?;
    let id = match o.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return Err(err(path, "needs a non-empty string id")),
    };
    let path = format!("{path} (\"{id}\")");
    let name = match o.get("name") {
        None | Some(Value::Null) => id.clone(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(err(&path, "name must be a string")),
    };
    let kind = o.get("type").and_then(Value::as_str).and_then(AssetType::parse).ok_or_else(|| err(&path, "type must be \"video\", \"audio\" or \"image\""))?;
    let duration = match o.get("duration") {
        None | Some(Value::Null) => None,
        Some(d) => Some(
            d.as_f64()
                .filter(|d| d.is_finite() && *d >= 0.0 && *d <= crate::time::MAX_SECONDS)
                .ok_or_else(|| err(&path, "duration must be a number of seconds >= 0"))?,
        ),
    };
    let dim = |key: &str| -> Result<Option<u32>, ProjectError> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0 && *f <= u32::MAX as f64)
                .map(|f| Some(f as u32))
                .ok_or_else(|| err(&path, format!("{key} must be a whole number of pixels"))),
        }
    };
    let (width, height) = (dim("width")?, dim("height")?);
    let fps = match o.get("fps") {
        None | Some(Value::Null) => None,
        Some(v) => Some(units::frame_rate(v).ok_or_else(|| err(&path, "fps must be a positive number or { numerator, denominator }"))?),
    };
    let extra = o
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "id" | "name" | "type" | "duration" | "width" | "height" | "fps"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(Asset { id, name, kind, duration, width, height, fps, extra })
}

fn read_track(v: &Value, path: &str, slot: Slot, r: &mut Reader) -> Result<Track, ProjectError> {
    let o = v.as_object().ok_or_else(|| err(path, "must be a track object { id, name, type, elements }"))?;
    let id = match o.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return Err(err(path, "needs a non-empty string id")),
    };
    let base = path;
    let path = format!("{path} (\"{id}\")");
    if !r.ids.insert(id.clone()) {
        return Err(err(&path, "duplicate id"));
    }
    let oc_type = o.get("type").and_then(Value::as_str).unwrap_or("");
    let kind = match (slot, oc_type) {
        (Slot::Main, "video") => TrackType::Main,
        (Slot::Main, t) => return Err(err(&path, format!("the main track is a video track, not \"{t}\""))),
        (Slot::Overlay, "video" | "graphic") => TrackType::Overlay,
        (Slot::Overlay, "text") => TrackType::Text,
        (Slot::Overlay, "effect") => TrackType::Effect,
        (Slot::Overlay, t) => return Err(err(&path, format!("overlay tracks are video, text, graphic or effect tracks, not \"{t}\""))),
        (Slot::Audio, "audio") => TrackType::Audio,
        (Slot::Audio, t) => return Err(err(&path, format!("tracks in audio are audio tracks, not \"{t}\""))),
    };
    let name = match o.get("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(err(&path, "name must be a string")),
    };
    let elements = match o.get("elements") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(a)) => a.as_slice(),
        Some(_) => return Err(err(&path, "elements must be an array")),
    };
    let mut read = Vec::with_capacity(elements.len());
    for (i, e) in elements.iter().enumerate() {
        let epath = format!("{base}.elements[{i}]");
        read.push((epath.clone(), read_element(e, &epath, oc_type, r)?));
    }
    // NeuralCut keeps each track sorted by start; OpenCut's order inside a track carries no meaning.
    crate::sort::stable_sort_by_key(&mut read, |(_, e)| e.start);
    for pair in read.windows(2) {
        let ((_, a), (bpath, b)) = (&pair[0], &pair[1]);
        if a.end() > b.start {
            return Err(err(
                &format!("{bpath} (\"{}\")", b.id),
                format!("overlaps element \"{}\" on the same track ({} runs {}–{} ticks, {} starts at {})", a.id, a.id, a.start, a.end(), b.id, b.start),
            ));
        }
    }
    let mut track = Track::new(id, kind);
    track.name = name;
    track.elements = read.into_iter().map(|(_, e)| Arc::new(e)).collect();
    track.hidden = read_flag(o, "hidden", &path)?;
    track.muted = read_flag(o, "muted", &path)?;
    let mut stash = Map::new();
    if oc_type == "graphic" {
        crate::text::put(&mut stash, "type", "graphic".into());
    }
    for (k, v) in o {
        match k.as_str() {
            "id" | "name" | "type" | "elements" | "hidden" | "muted" => {}
            STASH => {
                stash.insert(k.clone(), v.clone());
            }
            _ => {
                track.extra.insert(k.clone(), v.clone());
            }
        }
    }
    if !stash.is_empty() {
        track.extra.insert(STASH.into(), Value::Object(stash));
    }
    Ok(track)
}

fn string<'a>(o: &'a Map<String, Value>, key: &str, path: &str, what: &str) -> Result<&'a str, ProjectError> {
    o.get(key).and_then(Value::as_str).ok_or_else(|| err(path, format!("{what} needs a string {key}")))
}

/// A required-or-absent boolean flag (`hidden`, `muted`): absent is `None`, anything but a boolean
/// is refused.
pub(super) fn read_flag(o: &Map<String, Value>, key: &str, path: &str) -> Result<Option<bool>, ProjectError> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(err(path, format!("{key} must be true or false, not {}", crate::text::json(v)))),
    }
}

fn read_element(v: &Value, base: &str, track_type: &str, r: &mut Reader) -> Result<Element, ProjectError> {
    let o = v.as_object().ok_or_else(|| err(base, "must be an element object"))?;
    let id = match o.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return Err(err(base, "needs a non-empty string id")),
    };
    let path = &format!("{base} (\"{id}\")");
    if !r.ids.insert(id.clone()) {
        return Err(err(path, "duplicate id"));
    }
    let t = o.get("type").and_then(Value::as_str).unwrap_or("");
    let kind = match t {
        "video" => ElementType::Video,
        "image" => ElementType::Image,
        "audio" => ElementType::Audio,
        "text" => ElementType::Text,
        "sticker" => ElementType::Sticker,
        "graphic" => ElementType::Graphic,
        "effect" => ElementType::Effect,
        other => return Err(err(path, format!("unknown element type \"{other}\""))),
    };
    if !accepts(track_type, t) {
        return Err(err(path, format!("a {track_type} track cannot hold a {t} element")));
    }
    let time = |key: &str, min: i64, default: Option<i64>| -> Result<i64, ProjectError> {
        match o.get(key) {
            None | Some(Value::Null) => default.ok_or_else(|| err(path, format!("needs {key} (whole ticks)"))),
            Some(v) => units::ticks(v).filter(|t| *t >= min && *t <= crate::time::MAX_SECONDS as i64 * TICKS_PER_SECOND).ok_or_else(|| {
                let bound = if min > 0 { "> 0" } else { ">= 0" };
                err(path, format!("{key} must be a whole number of ticks {bound}, not {}", crate::text::json(v)))
            }),
        }
    };
    let (start, duration) = (time("startTime", 0, None)?, time("duration", 1, None)?);
    let (trim_start, trim_end) = (time("trimStart", 0, Some(0))?, time("trimEnd", 0, Some(0))?);
    if start.checked_add(duration).is_none_or(|end| end > crate::time::MAX_SECONDS as i64 * TICKS_PER_SECOND) {
        return Err(err(path, "startTime + duration is past the longest timeline NeuralCut holds"));
    }
    let mut e = Element::new(id, kind, start, duration);
    e.trim_start = trim_start;
    e.trim_end = trim_end;
    e.name = match o.get("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str().into()),
        Some(_) => return Err(err(path, "name must be a string")),
    };
    let mut handled = vec!["id", "type", "name", "startTime", "duration", "trimStart", "trimEnd"];
    // Every element read from OpenCut has a stash; elements the tools create have none.
    let mut stash = Map::new();
    stash.insert(IMPORTED.into(), true.into());
    // v31 keeps transform, opacity, blend mode, volume, muted and every text field in `params`.
    // Top-level copies left by the v28→v29 migration are never read (they pass through).
    let params = match o.get("params") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(v) => return Err(err(path, format!("params must be an object of param values, not {}", crate::text::json(v)))),
    };
    handled.push("params");
    if t == "effect" {
        // An effect element's params are its effect's parameters, which NeuralCut models as they are.
        e.params = params.cloned();
        if params.is_none() {
            crate::text::put(&mut stash, "noParams", true.into());
        }
    } else if let Some(p) = params {
        crate::text::put(&mut stash, "params", Value::Object(p.clone()));
    }
    let empty = Map::new();
    super::params::read(t, params.unwrap_or(&empty), r.canvas_height, &mut e)
        .map_err(|(key, what)| err(&format!("{base}.params.{key} (\"{}\")", e.id), what))?;
    // v30+ animations are modelled (the keyframe tools edit them); anything else under that
    // name (not an object) waits in the stash.
    if let Some(Value::Object(a)) = o.get("animations") {
        e.animations = Some(crate::animation::Animations::from_json(a.clone()));
        handled.push("animations");
    }
    if super::params::is_visual(t) {
        e.hidden = read_flag(o, "hidden", path)?;
        handled.push("hidden");
    }
    match t {
        "video" | "image" | "audio" => {
            let library = t == "audio" && o.get("sourceType").and_then(Value::as_str) == Some("library");
            let asset = if library {
                let url = string(o, "sourceUrl", path, "a library audio element")?;
                r.library_asset(url, e.name.as_deref(), o.get("sourceDuration"))
            } else {
                let media = string(o, "mediaId", path, &format!("a {t} element"))?;
                handled.push("mediaId");
                let asset = r
                    .assets
                    .iter()
                    .find(|a| a.id == media)
                    .ok_or_else(|| err(path, format!("unknown asset \"{media}\" (mediaId); pass every media asset the scene uses in assets")))?;
                // OpenCut's "Extract audio" makes an audio element that plays the video's sound.
                let extracted = t == "audio" && asset.kind == AssetType::Video;
                if asset.kind.as_str() != t && !extracted {
                    return Err(err(path, format!("asset \"{media}\" is {}, element is {t}", asset.kind.as_str())));
                }
                asset
            };
            if t != "image" {
                if let Some(v) = o.get("retime") {
                    e.retime = Some(read_retime(v).ok_or_else(|| {
                        let (min, max) = (Retime::MIN_RATE, Retime::MAX_RATE);
                        err(
                            &format!("{base}.retime (\"{}\")", e.id),
                            format!("must be {{ rate, maintainPitch? }} with a rate from {} to {}, not {}", Num(min), Num(max), crate::text::json(v)),
                        )
                    })?);
                    handled.push("retime");
                }
            }
            // A retimed clip plays round(duration × rate) ticks of its source (with the model's
            // slack for OpenCut's own rounding).
            let played = e.trim_start.saturating_add(e.source_ticks(e.duration));
            if let (false, Some(source)) = (t == "image", asset.duration_ticks()) {
                if e.plays_past(source) {
                    return Err(err(
                        path,
                        format!("plays past the end of asset \"{}\" (trimStart + duration = {played} ticks, the asset has {source})", asset.id),
                    ));
                }
            }
            e.asset_id = Some(asset.id.as_str().into());
            if let (true, Some(on)) = (t == "video", o.get("isSourceAudioEnabled").and_then(Value::as_bool)) {
                e.source_audio = Some(on);
                handled.push("isSourceAudioEnabled");
            }
        }
        "text" => {}
        "sticker" => {
            e.sticker_id = Some(string(o, "stickerId", path, "a sticker element")?.to_string());
            handled.push("stickerId");
        }
        "graphic" => {
            let def = string(o, "definitionId", path, "a graphic element")?;
            // An id OpenCut's registry does not know is kept; the frame skips it (as OpenCut fails to).
            e.definition_id = Some(def.to_string());
            handled.push("definitionId");
        }
        "effect" => {
            e.effect_type = Some(string(o, "effectType", path, "an effect element")?.to_string());
            handled.push("effectType");
        }
        _ => unreachable!("element types were matched above"),
    }
    for (k, v) in o {
        if handled.contains(&k.as_str()) {
            continue;
        }
        if ELEMENT_FIELDS.contains(&k.as_str()) {
            stash.insert(k.clone(), v.clone());
        } else {
            e.extra.insert(k.clone(), v.clone());
        }
    }
    e.extra.insert(STASH.into(), Value::Object(stash));
    Ok(e)
}

/// OpenCut's `retime` ({ rate, maintainPitch? }), when NeuralCut can hold it.
fn read_retime(v: &Value) -> Option<Retime> {
    let r = <Retime as crate::model::fields::Field>::read(v.clone()).ok()?;
    let pitch_ok = v.get("maintainPitch").is_none_or(Value::is_boolean);
    (r.is_valid() && pitch_ok).then_some(r)
}

impl Reader {
    /// The asset standing for OpenCut library audio (played from a URL, not a media file): one per
    /// URL, id `library:<url>`, known to NeuralCut's tools like any audio asset.
    fn library_asset(&mut self, url: &str, name: Option<&str>, source: Option<&Value>) -> &Asset {
        let id = format!("{LIBRARY_ASSET_PREFIX}{url}");
        if let Some(i) = self.assets.iter().position(|a| a.id == id) {
            return &self.assets[i];
        }
        let mut extra = Map::new();
        crate::text::put(&mut extra, "sourceType", "library".into());
        crate::text::put(&mut extra, "sourceUrl", url.into());
        let duration = source.and_then(units::ticks).filter(|t| *t > 0).map(crate::time::ticks_to_seconds);
        self.ids.insert(id.clone());
        self.assets.push(Asset { id, name: name.unwrap_or(url).to_string(), kind: AssetType::Audio, duration, width: None, height: None, fps: None, extra });
        self.assets.last().expect("just pushed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// ELEMENT_FIELDS is every name `Element` serialises itself, no more and no less. The pattern
    /// below names every field, so adding one to `Element` stops this test compiling until it is
    /// added here, to the JSON and to ELEMENT_FIELDS.
    #[test]
    fn element_fields_are_the_elements_serde_names() {
        let all = json!({
            "id": "e1", "type": "text", "name": "n", "start": 1, "duration": 2, "trimStart": 3, "trimEnd": 4,
            "assetId": "a1", "volume": 0.5, "content": "c", "style": "hook", "position": "top", "x": 1, "y": 2,
            "fontSize": 3, "color": "#fff", "fontWeight": "bold", "background": "#000", "stickerId": "s",
            "effectType": "blur", "params": {}, "hidden": true, "muted": true, "fontFamily": "f", "fontStyle": "italic",
            "textAlign": "left", "textDecoration": "underline", "retime": { "rate": 2 }, "scaleX": 1, "scaleY": 1,
            "rotate": 1, "opacity": 1, "blendMode": "normal", "animations": {},
        });
        // A second object: one json! of every field passes the macro recursion limit.
        let more = json!({
            "letterSpacing": 1, "lineHeight": 1, "backgroundColor": "#000", "backgroundPaddingX": 1, "backgroundPaddingY": 1,
            "backgroundOffsetX": 1, "backgroundOffsetY": 1, "backgroundCornerRadius": 1, "definitionId": "star", "isSourceAudioEnabled": true,
        });
        let mut all = all;
        all.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
        let e: Element = serde_json::from_value(all.clone()).unwrap();
        let Element {
            id: _,
            kind: _,
            name: _,
            start: _,
            duration: _,
            trim_start: _,
            trim_end: _,
            asset_id: _,
            volume: _,
            content: _,
            style: _,
            position: _,
            x: _,
            y: _,
            font_size: _,
            color: _,
            font_weight: _,
            background: _,
            sticker_id: _,
            effect_type: _,
            params: _,
            retime: _,
            hidden: _,
            muted: _,
            font_family: _,
            font_style: _,
            text_align: _,
            text_decoration: _,
            scale_x: _,
            scale_y: _,
            rotate: _,
            opacity: _,
            blend_mode: _,
            letter_spacing: _,
            line_height: _,
            background_color: _,
            background_padding_x: _,
            background_padding_y: _,
            background_offset_x: _,
            background_offset_y: _,
            background_corner_radius: _,
            definition_id: _,
            source_audio: _,
            animations: _,
            extra,
        } = &e;
        assert!(extra.is_empty(), "not Element fields: {extra:?}");
        let mut written: Vec<String> = serde_json::to_value(&e).unwrap().as_object().unwrap().keys().cloned().collect();
        let mut given: Vec<String> = all.as_object().unwrap().keys().cloned().collect();
        written.sort_unstable();
        given.sort_unstable();
        assert_eq!(written, given, "every field is written back under its name");
        let mut names: Vec<&str> = given.iter().map(String::as_str).collect();
        names.push(STASH);
        names.sort_unstable();
        let mut listed = ELEMENT_FIELDS.to_vec();
        listed.sort_unstable();
        assert_eq!(listed, names);
    }
}
