//! Reads a saved project from its JSON value, one object at a time: each known key goes to its
//! field (through `super::fields`, with the messages of that field's own `Deserialize`), every other key
//! to `extra` in the order it came. This is what serde's derive did with `#[serde(flatten)]`,
//! without buffering every object through serde's `Content`: 20.5 KB less engine wasm, 6.6 KB
//! gzipped.

use std::sync::Arc;

use serde::de::Error as _;
use serde_json::{Error, Map, Value};

use super::fields::{invalid_type, Field};
use super::{Asset, Element, ElementType, Project, Retime, Settings, Sticker, Timeline, Track};

type Result<T> = std::result::Result<T, Error>;

/// A field's value as its type reads it (`super::fields`, serde's messages). Not inlined: one
/// body per field type rather than one per key.
#[inline(never)]
fn field<T: Field>(v: Value) -> Result<T> {
    T::read(v)
}

/// An optional field read by `read` (`null` is absent, as serde reads an `Option`).
fn option<T>(v: Value, read: fn(Value) -> Result<T>) -> Result<Option<T>> {
    if v.is_null() {
        return Ok(None);
    }
    read(v).map(Some)
}

/// A list read item by item.
fn list<T>(v: Value, read: impl Fn(Value) -> Result<T>) -> Result<Vec<T>> {
    match v {
        Value::Array(items) => items.into_iter().map(read).collect(),
        other => Err(invalid_type(&other, "a sequence")),
    }
}

fn required<T>(value: Option<T>, name: &'static str) -> Result<T> {
    value.ok_or_else(|| Error::missing_field(name))
}

/// The object of a struct, or serde's "invalid type: …, expected struct X".
fn object(v: Value, expected: &str) -> Result<Map<String, Value>> {
    match v {
        Value::Object(map) => Ok(map),
        other => Err(invalid_type(&other, expected)),
    }
}

pub(super) fn project(v: Value) -> Result<Project> {
    let mut p = Project {
        format: String::new(),
        version: 0,
        settings: Settings::default(),
        assets: Vec::new(),
        stickers: Vec::new(),
        timeline: None,
        next_id: 0,
        extra: Map::new(),
    };
    let (mut format, mut version) = (None, None);
    for (key, v) in object(v, "struct Project")? {
        match key.as_str() {
            "format" => format = Some(field(v)?),
            "version" => version = Some(field(v)?),
            "settings" => p.settings = settings(v)?,
            "assets" => p.assets = list(v, asset)?,
            "stickers" => p.stickers = list(v, sticker)?,
            "timeline" => p.timeline = option(v, timeline)?,
            "nextId" => p.next_id = field(v)?,
            _ => {
                p.extra.insert(key, v);
            }
        }
    }
    p.format = required(format, "format")?;
    p.version = required(version, "version")?;
    Ok(p)
}

fn settings(v: Value) -> Result<Settings> {
    let mut s = Settings::default();
    for (key, v) in object(v, "struct Settings")? {
        match key.as_str() {
            "fps" => s.fps = field(v)?,
            "canvas" => s.canvas = field(v)?,
            _ => {
                s.extra.insert(key, v);
            }
        }
    }
    Ok(s)
}

fn asset(v: Value) -> Result<Asset> {
    let (mut id, mut name, mut kind) = (None, None, None);
    let mut a = Asset {
        id: String::new(),
        name: String::new(),
        kind: super::AssetType::Video,
        duration: None,
        width: None,
        height: None,
        fps: None,
        extra: Map::new(),
    };
    for (key, v) in object(v, "struct Asset")? {
        match key.as_str() {
            "id" => id = Some(field(v)?),
            "name" => name = Some(field(v)?),
            "type" => kind = Some(field(v)?),
            "duration" => a.duration = field(v)?,
            "width" => a.width = field(v)?,
            "height" => a.height = field(v)?,
            "fps" => a.fps = field(v)?,
            _ => {
                a.extra.insert(key, v);
            }
        }
    }
    a.id = required(id, "id")?;
    a.name = required(name, "name")?;
    a.kind = required(kind, "type")?;
    Ok(a)
}

fn sticker(v: Value) -> Result<Sticker> {
    let (mut id, mut name) = (None, None);
    let mut s = Sticker { id: String::new(), name: String::new(), url: None, extra: Map::new() };
    for (key, v) in object(v, "struct Sticker")? {
        match key.as_str() {
            "id" => id = Some(field(v)?),
            "name" => name = Some(field(v)?),
            "url" => s.url = field(v)?,
            _ => {
                s.extra.insert(key, v);
            }
        }
    }
    s.id = required(id, "id")?;
    s.name = required(name, "name")?;
    Ok(s)
}

pub(super) fn timeline(v: Value) -> Result<Timeline> {
    let mut tracks = None;
    let mut extra = Map::new();
    for (key, v) in object(v, "struct Timeline")? {
        match key.as_str() {
            "tracks" => tracks = Some(list(v, |v| track(v).map(Arc::new))?),
            _ => {
                extra.insert(key, v);
            }
        }
    }
    Ok(Timeline { tracks: required(tracks, "tracks")?, extra })
}

pub(super) fn track(v: Value) -> Result<Track> {
    let (mut id, mut kind) = (None, None);
    let mut t = Track::new(String::new(), super::TrackType::Main);
    for (key, v) in object(v, "struct Track")? {
        match key.as_str() {
            "id" => id = Some(field(v)?),
            "type" => kind = Some(field(v)?),
            "name" => t.name = field(v)?,
            "elements" => t.elements = list(v, |v| element(v).map(Arc::new))?,
            "hidden" => t.hidden = field(v)?,
            "muted" => t.muted = field(v)?,
            _ => {
                t.extra.insert(key, v);
            }
        }
    }
    t.id = required(id, "id")?;
    t.kind = required(kind, "type")?;
    Ok(t)
}

pub(super) fn element(v: Value) -> Result<Element> {
    let (mut id, mut kind, mut start, mut duration) = (None, None, None, None);
    let mut e = Element::new(String::new(), ElementType::Video, 0, 0);
    for (key, v) in object(v, "struct Element")? {
        // One read for each field type, not one per key: 2.4 KB less wasm (0.5 KB gzipped).
        if let Some(slot) = number_slot(&mut e, &key) {
            *slot = field(v)?;
            continue;
        }
        if let Some(slot) = text_slot(&mut e, &key) {
            *slot = field(v)?;
            continue;
        }
        if let Some(slot) = flag_slot(&mut e, &key) {
            *slot = field(v)?;
            continue;
        }
        match key.as_str() {
            "id" => id = Some(field(v)?),
            "type" => kind = Some(field(v)?),
            "name" => e.name = field(v)?,
            "start" => start = Some(field(v)?),
            "duration" => duration = Some(field(v)?),
            "trimStart" => e.trim_start = field(v)?,
            "trimEnd" => e.trim_end = field(v)?,
            "assetId" => e.asset_id = field(v)?,
            "params" => e.params = field(v)?,
            "retime" => e.retime = option(v, retime)?,
            "animations" => e.animations = field(v)?,
            _ => {
                e.extra.insert(key, v);
            }
        }
    }
    e.id = required(id, "id")?;
    e.kind = required(kind, "type")?;
    e.start = required(start, "start")?;
    e.duration = required(duration, "duration")?;
    graphic_from_sticker(&mut e);
    Ok(e)
}

/// A project saved before graphics had a type of their own kept an OpenCut graphic as a sticker
/// `graphic:<definitionId>` with a top-level `fill`: it is read as the graphic it is.
fn graphic_from_sticker(e: &mut Element) {
    let Some(def) = e.sticker_id.as_deref().and_then(|s| s.strip_prefix("graphic:")).filter(|_| e.kind == super::ElementType::Sticker) else {
        return;
    };
    e.definition_id = Some(def.to_string());
    e.kind = super::ElementType::Graphic;
    e.sticker_id = None;
    if let Some(fill) = e.extra.remove("fill") {
        e.params.get_or_insert_with(Map::new).insert("fill".into(), fill);
    }
}

/// The element's optional number saved under `key`.
fn number_slot<'e>(e: &'e mut Element, key: &str) -> Option<&'e mut Option<f64>> {
    Some(match key {
        "volume" => &mut e.volume,
        "x" => &mut e.x,
        "y" => &mut e.y,
        "fontSize" => &mut e.font_size,
        "scaleX" => &mut e.scale_x,
        "scaleY" => &mut e.scale_y,
        "rotate" => &mut e.rotate,
        "opacity" => &mut e.opacity,
        "letterSpacing" => &mut e.letter_spacing,
        "lineHeight" => &mut e.line_height,
        "backgroundPaddingX" => &mut e.background_padding_x,
        "backgroundPaddingY" => &mut e.background_padding_y,
        "backgroundOffsetX" => &mut e.background_offset_x,
        "backgroundOffsetY" => &mut e.background_offset_y,
        "backgroundCornerRadius" => &mut e.background_corner_radius,
        _ => return None,
    })
}

/// The element's optional string saved under `key`.
fn text_slot<'e>(e: &'e mut Element, key: &str) -> Option<&'e mut Option<String>> {
    Some(match key {
        "content" => &mut e.content,
        "style" => &mut e.style,
        "position" => &mut e.position,
        "color" => &mut e.color,
        "fontWeight" => &mut e.font_weight,
        "background" => &mut e.background,
        "stickerId" => &mut e.sticker_id,
        "effectType" => &mut e.effect_type,
        "fontFamily" => &mut e.font_family,
        "fontStyle" => &mut e.font_style,
        "textAlign" => &mut e.text_align,
        "textDecoration" => &mut e.text_decoration,
        "blendMode" => &mut e.blend_mode,
        "backgroundColor" => &mut e.background_color,
        "definitionId" => &mut e.definition_id,
        _ => return None,
    })
}

/// The element's optional flag saved under `key`.
fn flag_slot<'e>(e: &'e mut Element, key: &str) -> Option<&'e mut Option<bool>> {
    Some(match key {
        "hidden" => &mut e.hidden,
        "muted" => &mut e.muted,
        "isSourceAudioEnabled" => &mut e.source_audio,
        _ => return None,
    })
}

pub(super) fn retime(v: Value) -> Result<Retime> {
    let mut rate = None;
    let mut r = Retime::new(0.0);
    for (key, v) in object(v, "struct Retime")? {
        match key.as_str() {
            "rate" => rate = Some(field(v)?),
            "maintainPitch" => r.maintain_pitch = field(v)?,
            _ => {
                r.extra.insert(key, v);
            }
        }
    }
    r.rate = required(rate, "rate")?;
    Ok(r)
}

/// Retime as a field type (OpenCut's `retime`, read as the project's).
impl Field for Retime {
    fn read(v: Value) -> Result<Retime> {
        retime(v)
    }
}

/// `Deserialize` for each type (an OpenCut retime, a bench's track and asset) through the same
/// readers, so there is one way to read each.
macro_rules! through_value {
    ($($t:ty => $read:ident),*) => {$(
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                $read(Value::deserialize(d)?).map_err(D::Error::custom)
            }
        }
    )*};
}

through_value!(Project => project, Settings => settings, Asset => asset, Sticker => sticker, Timeline => timeline, Track => track, Element => element, Retime => retime);
