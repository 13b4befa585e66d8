//! The picture at one time, as data: which layers a compositor draws, bottom first, and where.
//!
//! Placement follows OpenCut's renderer (apps/web/src/services/renderer at opencut-classic
//! cf5e79e): media and stickers are fitted inside the canvas ("contain"), then scaled by
//! `transform.scaleX/Y`, rotated clockwise by `transform.rotate` degrees about their centre, and
//! centred `transform.positionX/Y` canvas pixels from the canvas centre (+y down). Text is
//! anchored at the canvas centre plus its position, drawn at its font size in pixels. Effect
//! elements act on everything composited below them. docs/render.md lists where this differs
//! from OpenCut.
//!
//! Every element property is read through crate::properties (keyframes applied), so the frame
//! shows what the tools set and nothing is read from a host's own format.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use crate::model::fields::{Scalar, F64, STRING};
use serde_json::{Map, Value};

use crate::model::{Background, Element, ElementType, Project, Sticker, TrackType};
use crate::time::{seconds_to_ticks, ticks_to_seconds};

mod looks;
use looks::{frame_graphic, frame_mask};
pub use looks::{FrameGraphic, FrameMask};

/// One frame: the canvas and its layers, bottom first.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    /// The time asked for, in seconds, and the tick it was rounded to.
    pub time: f64,
    pub tick: i64,
    pub width: u32,
    pub height: u32,
    /// The colour under every layer (OpenCut's default background).
    pub background: String,
    pub layers: Vec<Layer>,
    /// Things at this time that are not drawn, and why (an unknown asset, an unknown effect).
    pub skipped: Vec<Skipped>,
}

/// An element that is visible now but cannot be drawn.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "FrameSkipped")]
pub struct Skipped {
    pub element_id: String,
    pub reason: String,
}

/// One drawn layer.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[schemars(rename = "FrameLayer")]
pub enum Layer {
    /// A video frame, an image or a sticker, drawn as a transformed quad.
    Media(MediaLayer),
    Text(TextLayer),
    /// An effect element: applied to the picture composited so far.
    Effect(EffectLayer),
}

/// Where a quad lands on the canvas: its centre and size in canvas pixels, rotation clockwise.
/// The GPU compositor draws it as it is (`gpu::compose::Quad`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "FramePlacement")]
pub struct Placement {
    pub center_x: f64,
    pub center_y: f64,
    /// Drawn size (absolute; a negative scale flips instead).
    pub width: f64,
    pub height: f64,
    pub rotation: f64,
    pub flip_x: bool,
    pub flip_y: bool,
}

/// The transform params as they are at this time (before any fit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "FrameTransform")]
pub struct Transform {
    pub x: f64,
    pub y: f64,
    pub scale_x: f64,
    pub scale_y: f64,
    pub rotation: f64,
}

/// A layer's transform from JSON text (`placeLayerJson`), as `serde_json::from_str::<Transform>`
/// reads it (`model::fields::Expect`; a test compares them).
pub fn transform_from_json(text: &str) -> Result<Transform, serde_json::Error> {
    crate::model::fields::from_text(text, TransformSeed("struct Transform"))
}

const TRANSFORM_FIELDS: [&str; 5] = ["x", "y", "scaleX", "scaleY", "rotation"];

struct TransformSeed(&'static str);

impl<'de> serde::de::DeserializeSeed<'de> for TransformSeed {
    type Value = Transform;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Transform, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for TransformSeed {
    type Value = Transform;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.0)
    }

    crate::model::fields::not_a_struct!();

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Transform, A::Error> {
        let mut v = [0.0; 5];
        for (i, slot) in v.iter_mut().enumerate() {
            *slot =
                seq.next_element_seed(F64)?.and_then(Scalar::number).ok_or_else(|| serde::de::Error::invalid_length(i, &"struct Transform with 5 elements"))?;
        }
        Ok(Transform { x: v[0], y: v[1], scale_x: v[2], scale_y: v[3], rotation: v[4] })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Transform, A::Error> {
        let mut v = [None; 5];
        while let Some(key) = map.next_key_seed(STRING)?.and_then(Scalar::text) {
            match TRANSFORM_FIELDS.iter().position(|f| *f == key) {
                Some(i) if v[i].is_some() => return Err(serde::de::Error::duplicate_field(TRANSFORM_FIELDS[i])),
                Some(i) => v[i] = map.next_value_seed(F64)?.number(),
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        let mut out = [0.0; 5];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = v[i].ok_or_else(|| serde::de::Error::missing_field(TRANSFORM_FIELDS[i]))?;
        }
        Ok(Transform { x: out[0], y: out[1], scale_x: out[2], scale_y: out[3], rotation: out[4] })
    }
}

/// An enabled clip effect of an element (its own pixels only).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "FrameClipEffect")]
pub struct ClipEffect {
    pub effect_type: String,
    #[schemars(with = "BTreeMap<String, f64>")]
    pub params: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "MediaFrameLayer")]
pub struct MediaLayer {
    pub element_id: String,
    pub track_id: String,
    /// video, image, sticker or graphic (one of OpenCut's shapes, drawn from `graphic`).
    #[schemars(extend("enum" = ["video", "image", "sticker", "graphic"]))]
    pub media_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asset_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sticker_id: Option<String>,
    /// A graphic's shape and its definition params at this time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graphic: Option<FrameGraphic>,
    /// Where the picture comes from, when the project knows (a sticker's catalog URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Video: the source time to show, in seconds and ticks (trim and retime applied).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_time: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_tick: Option<i64>,
    /// The source's size in pixels when the project knows it (asset size, sticker intrinsic size).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_height: Option<u32>,
    pub transform: Transform,
    /// The quad on the canvas; absent when the source size is unknown (the compositor fits it
    /// the same way, `frame::place`, once it has the picture).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    pub opacity: f64,
    #[schemars(with = "BlendModeName")]
    pub blend_mode: String,
    pub effects: Vec<ClipEffect>,
    /// The element's mask (OpenCut's first; crate::masks), its parameters with the defaults
    /// filled in: the compositor shows only the picture inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mask: Option<FrameMask>,
}

/// A text block's background box, in pixels.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "FrameTextBackground")]
pub struct TextBackground {
    pub color: String,
    pub padding_x: f64,
    pub padding_y: f64,
    pub offset_x: f64,
    pub offset_y: f64,
    /// Percent of half the box's shorter side.
    pub corner_radius: f64,
}

/// A text element, its style resolved at this time.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "TextFrameLayer")]
pub struct TextLayer {
    pub element_id: String,
    pub track_id: String,
    pub content: String,
    pub font_family: String,
    /// Pixels on the canvas (OpenCut's fontSize × canvasHeight / 90).
    pub font_size: f64,
    pub font_weight: String,
    pub font_style: String,
    pub color: String,
    pub text_align: String,
    pub text_decoration: String,
    /// Pixels between letters, and line height as a multiple of the font size.
    pub letter_spacing: f64,
    pub line_height: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<TextBackground>,
    /// The anchor on the canvas (left edge, centre or right edge of the block per `textAlign`,
    /// vertically centred), in canvas pixels from the top-left corner.
    pub anchor_x: f64,
    pub anchor_y: f64,
    pub transform: Transform,
    pub opacity: f64,
    #[schemars(with = "BlendModeName")]
    pub blend_mode: String,
    pub effects: Vec<ClipEffect>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "EffectFrameLayer")]
pub struct EffectLayer {
    pub element_id: String,
    pub track_id: String,
    pub effect_type: String,
    /// Every parameter, defaults filled in.
    #[schemars(with = "BTreeMap<String, f64>")]
    pub params: Map<String, Value>,
    /// Indices in `layers` of the layers it acts on: every layer below it.
    pub covers: Vec<usize>,
}

/// OpenCut's blend modes (CSS `mix-blend-mode` names).
pub const BLEND_MODES: [&str; 17] = [
    "normal",
    "darken",
    "multiply",
    "color-burn",
    "lighten",
    "screen",
    "plus-lighter",
    "color-dodge",
    "overlay",
    "soft-light",
    "hard-light",
    "difference",
    "exclusion",
    "hue",
    "saturation",
    "color",
    "luminosity",
];

/// The schema of a layer's `blendMode`: one of [`BLEND_MODES`], named `BlendMode` in the typings.
pub struct BlendModeName;

impl JsonSchema for BlendModeName {
    fn schema_name() -> Cow<'static, str> {
        "BlendMode".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": BLEND_MODES, "description": "OpenCut's blend modes (CSS `mix-blend-mode` names)." })
    }
}

/// One element's properties at one time, read through crate::properties: the keyframed value
/// where a property has keyframes, else the element's own, else the property's default.
#[derive(Clone, Copy)]
struct At<'a> {
    el: &'a Element,
    /// Ticks from the element's start.
    t: i64,
    canvas_height: u32,
}

impl At<'_> {
    fn value(&self, path: &str) -> Option<Value> {
        crate::properties::value_at(self.el, path, self.t, self.canvas_height)
    }

    fn default(&self, path: &str) -> Value {
        crate::properties::find(path).map_or(Value::Null, |p| p.default_value(self.canvas_height))
    }

    /// A number; the default when it is not a finite number.
    fn num(&self, path: &str) -> f64 {
        let finite = |v: Option<Value>| v.and_then(|v| v.as_f64()).filter(|v| v.is_finite());
        finite(self.value(path)).or_else(|| finite(Some(self.default(path)))).unwrap_or(0.0)
    }

    fn text(&self, path: &str) -> String {
        match self.value(path) {
            Some(Value::String(s)) => s,
            _ => self.default(path).as_str().unwrap_or_default().to_string(),
        }
    }

    fn flag(&self, path: &str) -> bool {
        self.value(path).and_then(|v| v.as_bool()).unwrap_or(false)
    }
}

fn transform(at: At) -> Transform {
    Transform {
        x: at.num("transform.positionX"),
        y: at.num("transform.positionY"),
        scale_x: at.num("transform.scaleX"),
        scale_y: at.num("transform.scaleY"),
        rotation: at.num("transform.rotate"),
    }
}

fn opacity(at: At) -> f64 {
    at.num("opacity").clamp(0.0, 1.0)
}

/// OpenCut's blend mode; an unknown one draws as normal.
fn blend_mode(at: At) -> String {
    let mode = at.text("blendMode");
    if BLEND_MODES.contains(&mode.as_str()) {
        mode
    } else {
        "normal".into()
    }
}

/// OpenCut's `computeVisualTransform`: fit `source` inside the canvas, scale, centre at the
/// position. Shared by the compositor for sources whose size only the picture tells.
pub fn place(canvas_w: f64, canvas_h: f64, source_w: f64, source_h: f64, tr: &Transform) -> Placement {
    let contain = (canvas_w / source_w).min(canvas_h / source_h);
    let (w, h) = (source_w * contain * tr.scale_x, source_h * contain * tr.scale_y);
    Placement {
        center_x: canvas_w / 2.0 + tr.x,
        center_y: canvas_h / 2.0 + tr.y,
        width: w.abs(),
        height: h.abs(),
        rotation: tr.rotation,
        flip_x: w < 0.0,
        flip_y: h < 0.0,
    }
}

/// Enabled clip effects OpenCut keeps on an imported element (`effects: [{type, params, enabled}]`).
fn clip_effects(el: &Element) -> Vec<ClipEffect> {
    let Some(list) = el.extra.get("effects").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter(|e| e.get("enabled").and_then(Value::as_bool).unwrap_or(false))
        .filter_map(|e| {
            let effect_type = e.get("type")?.as_str()?.to_string();
            let mut params = crate::effects::find(&effect_type).map(|d| d.defaults()).unwrap_or_default();
            if let Some(p) = e.get("params").and_then(Value::as_object) {
                params.extend(p.clone());
            }
            Some(ClipEffect { effect_type, params })
        })
        .collect()
}

fn size_of(v: Option<&Value>) -> Option<u32> {
    v.and_then(Value::as_f64).filter(|n| n.is_finite() && *n >= 1.0).map(|n| n.round() as u32)
}

/// OpenCut draws graphics (shapes) from a 512 × 512 source.
pub const GRAPHIC_SOURCE_SIZE: u32 = 512;

/// The size OpenCut's bounds give a sticker that stores no intrinsic size
/// (`STICKER_INTRINSIC_SIZE_FALLBACK`, stickers/intrinsic-size.ts; preview/element-bounds.ts).
pub const STICKER_FALLBACK_SIZE: u32 = 200;

/// A sticker's source size when the project knows it: OpenCut's stored `intrinsicWidth/Height`,
/// else the catalog entry's `width`/`height`; a graphic is OpenCut's 512 square. OpenCut's
/// renderer draws it fitted to the canvas from this size (or the image's own without one).
pub fn sticker_size(el: &Element, entry: Option<&Sticker>) -> Option<(u32, u32)> {
    if el.kind == ElementType::Graphic {
        return Some((GRAPHIC_SOURCE_SIZE, GRAPHIC_SOURCE_SIZE));
    }
    let w = size_of(el.extra.get("intrinsicWidth")).or_else(|| size_of(entry.and_then(|s| s.extra.get("width"))));
    let h = size_of(el.extra.get("intrinsicHeight")).or_else(|| size_of(entry.and_then(|s| s.extra.get("height"))));
    w.zip(h)
}

/// The frame of `project` at `tick`.
pub fn frame_at(project: &Project, tick: i64) -> Frame {
    let canvas = project.settings.canvas;
    let (cw, ch) = (canvas.width as f64, canvas.height as f64);
    let mut frame = Frame {
        time: ticks_to_seconds(tick),
        tick,
        width: canvas.width,
        height: canvas.height,
        background: Background::DEFAULT_COLOR.into(),
        layers: Vec::new(),
        skipped: Vec::new(),
    };
    // The canvas: a colour ("transparent" draws nothing), or the main track blurred.
    match project.settings.background() {
        Background::Color(c) => frame.background = c,
        Background::Blur(intensity) => blur_backdrop(project, &mut frame, intensity, tick),
    }
    let Some(timeline) = &project.timeline else { return frame };
    // Tracks are stored top first: draw from the last visual track up.
    for track in timeline.tracks.iter().rev() {
        if track.kind == TrackType::Audio || track.hidden == Some(true) {
            continue;
        }
        let from = track.elements.partition_point(|e| e.end() <= tick);
        for el in track.elements[from..].iter().take_while(|e| e.start <= tick) {
            if tick < el.start || el.hidden == Some(true) {
                continue;
            }
            let local = tick - el.start;
            let at = At { el, t: local, canvas_height: canvas.height };
            let skip = |frame: &mut Frame, reason: String| frame.skipped.push(Skipped { element_id: el.id.to_string(), reason });
            match el.kind {
                ElementType::Video | ElementType::Image => match media_layer(project, at, &track.id, cw, ch) {
                    Ok(layer) => frame.layers.push(Layer::Media(layer)),
                    Err(reason) => skip(&mut frame, reason),
                },
                ElementType::Graphic if el.definition_id.as_deref().and_then(crate::graphics::shape).is_none() => {
                    skip(&mut frame, format!("unknown graphic \"{}\"", el.definition_id.as_deref().unwrap_or_default()));
                }
                ElementType::Sticker | ElementType::Graphic => {
                    let graphic = el.kind == ElementType::Graphic;
                    let entry = el.sticker_id.as_deref().and_then(|id| project.sticker(id));
                    let size = sticker_size(el, entry);
                    let (sw, sh) = (size.map(|s| s.0), size.map(|s| s.1));
                    let tr = transform(at);
                    frame.layers.push(Layer::Media(MediaLayer {
                        element_id: el.id.to_string(),
                        track_id: track.id.clone(),
                        media_type: if graphic { "graphic" } else { "sticker" },
                        asset_id: None,
                        url: entry.and_then(|s| s.url.clone()),
                        sticker_id: el.sticker_id.clone(),
                        graphic: frame_graphic(at),
                        source_time: None,
                        source_tick: None,
                        source_width: sw,
                        source_height: sh,
                        placement: sw.zip(sh).map(|(w, h)| place(cw, ch, w as f64, h as f64, &tr)),
                        transform: tr,
                        opacity: opacity(at),
                        blend_mode: blend_mode(at),
                        effects: clip_effects(el),
                        mask: frame_mask(el),
                    }));
                }
                ElementType::Text => frame.layers.push(Layer::Text(text_layer(at, &track.id, cw, ch))),
                ElementType::Effect => {
                    let effect_type = el.effect_type.clone().unwrap_or_default();
                    let Some(def) = crate::effects::find(&effect_type) else {
                        skip(&mut frame, format!("unknown effect \"{effect_type}\""));
                        continue;
                    };
                    let mut params = def.defaults();
                    params.extend(el.params.clone().unwrap_or_default());
                    let covers = (0..frame.layers.len()).collect();
                    frame.layers.push(Layer::Effect(EffectLayer { element_id: el.id.to_string(), track_id: track.id.clone(), effect_type, params, covers }));
                }
                ElementType::Audio => {}
            }
        }
    }
    frame
}

/// A video or image element's layer, or why it cannot be drawn.
fn media_layer(project: &Project, at: At, track_id: &str, cw: f64, ch: f64) -> Result<MediaLayer, String> {
    let el = at.el;
    let asset_id = el.asset_id.as_deref().unwrap_or_default();
    let asset = project.asset(asset_id).ok_or_else(|| format!("unknown asset \"{asset_id}\""))?;
    let tr = transform(at);
    let (sw, sh) = (asset.width, asset.height);
    let (source_time, source_tick) = if el.kind == ElementType::Video {
        let mut src = el.trim_start.saturating_add(el.source_ticks(at.t));
        // Past the source's end (a rounded retime), hold its last tick.
        if let Some(d) = asset.duration_ticks() {
            src = src.min(d - 1).max(0);
        }
        (Some(ticks_to_seconds(src)), Some(src))
    } else {
        (None, None)
    };
    Ok(MediaLayer {
        element_id: el.id.to_string(),
        track_id: track_id.to_string(),
        media_type: if el.kind == ElementType::Video { "video" } else { "image" },
        asset_id: Some(asset.id.clone()),
        sticker_id: None,
        graphic: None,
        url: asset.extra.get("url").and_then(Value::as_str).map(str::to_string),
        source_time,
        source_tick,
        source_width: sw,
        source_height: sh,
        placement: sw.zip(sh).map(|(w, h)| place(cw, ch, w as f64, h as f64, &tr)),
        transform: tr,
        opacity: opacity(at),
        blend_mode: blend_mode(at),
        effects: clip_effects(el),
        mask: frame_mask(el),
    })
}

/// OpenCut's blur background (services/renderer/scene-builder.ts, compositor/frame-descriptor.ts):
/// under everything, each main-track video or image showing now, covering the canvas (its
/// picture only: no transform, opacity or effects), then blurred with the blur effect at the
/// background's intensity. The effect takes intensities up to its registry's 100; a stronger one
/// is `n` passes at `intensity / √n`, whose Gaussian sigmas add up to the one asked for.
fn blur_backdrop(project: &Project, frame: &mut Frame, intensity: f64, tick: i64) {
    let (cw, ch) = (frame.width as f64, frame.height as f64);
    let Some(main) = project.timeline.iter().flat_map(|tl| tl.tracks.iter()).find(|t| t.kind == TrackType::Main && t.hidden != Some(true)) else {
        return;
    };
    for el in main.elements.iter().filter(|e| e.start <= tick && tick < e.end() && e.hidden != Some(true)) {
        let at = At { el, t: tick - el.start, canvas_height: frame.height };
        let Ok(mut layer) = media_layer(project, at, &main.id, cw, ch) else { continue };
        let (Some(sw), Some(sh)) = (layer.source_width, layer.source_height) else { continue };
        let (sw, sh) = (sw as f64, sh as f64);
        let cover = (cw / sw).max(ch / sh);
        let (w, h) = (sw * cover, sh * cover);
        // As a transform: the cover's scale over the contain fit every media layer starts from.
        let scale = cover / (cw / sw).min(ch / sh);
        layer.transform = Transform { x: 0.0, y: 0.0, scale_x: scale, scale_y: scale, rotation: 0.0 };
        layer.placement = Some(Placement { center_x: cw / 2.0, center_y: ch / 2.0, width: w, height: h, rotation: 0.0, flip_x: false, flip_y: false });
        layer.opacity = 1.0;
        layer.blend_mode = "normal".into();
        layer.effects = Vec::new();
        frame.layers.push(Layer::Media(layer));
    }
    if frame.layers.is_empty() || intensity <= 0.0 {
        return;
    }
    let passes = ((intensity / 100.0).powi(2)).ceil().max(1.0);
    let mut params = Map::new();
    params.insert("intensity".into(), crate::effects::number(intensity / passes.sqrt()));
    let covers: Vec<usize> = (0..frame.layers.len()).collect();
    for _ in 0..passes as usize {
        let effect = EffectLayer {
            element_id: "background".into(),
            track_id: main.id.clone(),
            effect_type: "blur".into(),
            params: params.clone(),
            covers: covers.clone(),
        };
        frame.layers.push(Layer::Effect(effect));
    }
}

fn text_layer(at: At, track_id: &str, cw: f64, ch: f64) -> TextLayer {
    let font_size = at.num("fontSize").max(0.0);
    // The box's padding is given at the default font size and grows with the font.
    let ratio = font_size / crate::properties::default_font_size(at.canvas_height);
    let background = at.flag("background.enabled").then(|| TextBackground {
        color: at.text("background.color"),
        padding_x: at.num("background.paddingX").max(0.0) * ratio,
        padding_y: at.num("background.paddingY").max(0.0) * ratio,
        offset_x: at.num("background.offsetX"),
        offset_y: at.num("background.offsetY"),
        corner_radius: at.num("background.cornerRadius").clamp(0.0, 100.0),
    });
    let tr = transform(at);
    TextLayer {
        element_id: at.el.id.to_string(),
        track_id: track_id.to_string(),
        content: at.text("content"),
        font_family: at.text("fontFamily"),
        font_size,
        font_weight: at.text("fontWeight"),
        font_style: at.text("fontStyle"),
        color: at.text("color"),
        text_align: at.text("textAlign"),
        text_decoration: at.text("textDecoration"),
        letter_spacing: at.num("letterSpacing"),
        line_height: at.num("lineHeight"),
        background,
        anchor_x: cw / 2.0 + tr.x,
        anchor_y: ch / 2.0 + tr.y,
        transform: tr,
        opacity: opacity(at),
        blend_mode: blend_mode(at),
        effects: clip_effects(at.el),
    }
}

impl crate::editor::Document {
    /// The frame at `seconds` (rounded to the nearest tick); `None` without a project. A
    /// non-finite or out-of-range time is an error.
    pub fn frame_at(&self, seconds: f64) -> Result<Option<Frame>, crate::ApiError> {
        let tick = seconds_to_ticks(seconds).ok_or_else(|| {
            crate::ApiError::new(crate::ErrorCode::InvalidSeconds, format!("seconds must be a finite number of seconds, got {}", crate::text::Num(seconds)))
        })?;
        Ok(self.project().map(|p| frame_at(p, tick)))
    }

    /// The effect elements active at `seconds`, bottom to top (crate::effects::active::effects_at).
    /// Empty when there is no project or timeline. Seconds are rounded to the nearest tick; a
    /// non-finite or out-of-range value is an error.
    pub fn active_effects(&self, seconds: f64) -> Result<Vec<crate::effects::active::ActiveEffect>, crate::ApiError> {
        let tick = seconds_to_ticks(seconds).ok_or_else(|| {
            crate::ApiError::new(crate::ErrorCode::InvalidSeconds, format!("seconds must be a finite number of seconds, got {}", crate::text::Num(seconds)))
        })?;
        Ok(self.project().and_then(|p| p.timeline.as_ref()).map(|tl| crate::effects::active::effects_at(tl, tick)).unwrap_or_default())
    }
}

// Native only: the derive it stands in for is the reference.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn transform_text_reads_as_from_str_does() {
        let texts = [
            r#"{"x":1,"y":2.5,"scaleX":1,"scaleY":-1,"rotation":90}"#,
            r#" { "rotation" : 0, "scaleY": 1, "scaleX": 1, "y": 0, "x": 0, "extra": [1, {"a": null}] } "#,
            r#"[1, 2, 3, 4, 5]"#,
            r#"[1, 2, 3]"#,
            r#"[1, 2, 3, 4, 5, 6]"#,
            r#"{"x":1}"#,
            r#"{"x":1,"x":2}"#,
            r#"{"x":"1","y":2,"scaleX":1,"scaleY":1,"rotation":0}"#,
            r#"{"x":true,"y":2,"scaleX":1,"scaleY":1,"rotation":0}"#,
            r#"{"x":null,"y":2,"scaleX":1,"scaleY":1,"rotation":0}"#,
            r#"{"x":1e400}"#,
            r#"{"x":1,"#,
            r#"{"x":1} x"#,
            "null",
            "\"t\"",
            "1.5",
            "12",
            "",
        ];
        let differs = [r#"{"x":[1],"y":2,"scaleX":1,"scaleY":1,"rotation":0}"#, r#"{"x":{},"y":2}"#, r#"[[1], 2, 3, 4, 5]"#];
        crate::model::fields::tests::same_text(super::transform_from_json, &texts, &differs);
    }
}
