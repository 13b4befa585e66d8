//! Every element property, named once: its public path, value kind, unit, default, range, which
//! element types have it, whether it can be keyframed, and the model field that holds it.
//!
//! The tools (get_element, update_clip, the keyframe tools), the frame, the audio plan and the
//! animation evaluator all read a property through this table, so a property added here is seen
//! by all of them. The paths are the public names an agent uses (`transform.scaleX`, `opacity`);
//! they are also OpenCut's param keys, which the OpenCut adapter maps onto these fields.
//!
//! Units are NeuralCut's own: positions and sizes in canvas pixels, rotation in degrees, opacity
//! 0–1. Volume is the one property with two faces: the element stores linear gain (its `volume`
//! field, set_volume's 0–1), and the property `volume` that keyframes, get_element and update_clip
//! speak is decibels, because a fade is drawn in dB; [`gain_to_db`] and [`db_to_gain`] are the one
//! conversion.

use serde_json::Value;

use crate::effects::number;
use crate::model::{Element, ElementType};

/// How a property's values are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyKind {
    Number,
    /// A CSS colour string (`#rrggbb`, `#rrggbbaa`, `rgb()`…).
    Color,
    Text,
    Flag,
}

/// What a property reads as when the element does not set it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    Number(f64),
    Text(&'static str),
    Flag(bool),
    /// A sixth of the canvas height: the default text size.
    FontSize,
}

/// Which element types have a property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Drawn elements: video, image, text, sticker, graphic.
    Visual,
    /// Elements that make sound: video and audio.
    Audible,
    Text,
    /// Graphics whose shape has this definition param (crate::graphics).
    Graphic,
}

impl Scope {
    pub fn covers(self, kind: ElementType) -> bool {
        match self {
            Scope::Visual => is_visual(kind),
            Scope::Audible => kind.has_volume(),
            Scope::Text => kind == ElementType::Text,
            Scope::Graphic => kind == ElementType::Graphic,
        }
    }
}

/// Whether elements of `kind` are drawn (and so have a transform, opacity, blend mode, hidden).
pub fn is_visual(kind: ElementType) -> bool {
    matches!(kind, ElementType::Video | ElementType::Image | ElementType::Text | ElementType::Sticker | ElementType::Graphic)
}

/// One element property.
#[derive(Clone, Copy, Debug)]
pub struct Property {
    /// The public path (also OpenCut's param key and animation path).
    pub path: &'static str,
    pub kind: PropertyKind,
    /// `""` for values without one (names, flags).
    pub unit: &'static str,
    pub default: Default,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub animatable: bool,
    /// The values a text property may take (OpenCut's select options); empty for any.
    pub choices: &'static [&'static str],
    pub scope: Scope,
    pub description: &'static str,
    /// The element's own value, in this property's unit; `None` when it does not set it.
    get: fn(&Element) -> Option<Value>,
    /// Sets (or, with `None`, clears) the element's own value; a value of the wrong kind clears.
    set: fn(&mut Element, Option<Value>),
}

impl Property {
    /// Whether elements of `kind` have this property (a graphic param: some shape has it).
    pub fn applies(&self, kind: ElementType) -> bool {
        self.scope.covers(kind)
    }

    /// Whether `e` has this property: its type does, and a graphic's shape has the param.
    pub fn applies_to(&self, e: &Element) -> bool {
        self.applies(e.kind) && (self.scope != Scope::Graphic || crate::graphics::has(e.definition_id.as_deref(), self.param_key()))
    }

    /// The key OpenCut keeps this property under in an element's `params`: the path, less the
    /// `params.` of a graphic's definition param (whose animation path keeps it).
    pub fn param_key(&self) -> &'static str {
        self.path.strip_prefix(crate::graphics::PATH_PREFIX).unwrap_or(self.path)
    }

    /// The default at this canvas height.
    pub fn default_value(&self, canvas_height: u32) -> Value {
        match self.default {
            Default::Number(n) => number(n),
            Default::Text(s) => s.into(),
            Default::Flag(b) => b.into(),
            Default::FontSize => number(default_font_size(canvas_height)),
        }
    }

    /// The element's own value, `None` when it does not set it.
    pub fn own(&self, e: &Element) -> Option<Value> {
        (self.get)(e)
    }

    /// Sets the element's own value in this property's unit (`None` clears it, so the default
    /// applies); a value of the wrong kind clears it too.
    pub fn set(&self, e: &mut Element, value: Option<Value>) {
        (self.set)(e, value.filter(|v| self.accepts(v)))
    }

    /// Whether `v` is a value of this property's kind.
    pub fn accepts(&self, v: &Value) -> bool {
        match self.kind {
            PropertyKind::Number => v.as_f64().is_some(),
            PropertyKind::Color | PropertyKind::Text => v.is_string(),
            PropertyKind::Flag => v.is_boolean(),
        }
    }

    /// The element's value, or the default (no keyframes applied).
    pub fn value(&self, e: &Element, canvas_height: u32) -> Value {
        self.own(e).unwrap_or_else(|| self.default_value(canvas_height))
    }
}

/// The default text size in pixels: a sixth of the canvas height.
pub fn default_font_size(canvas_height: u32) -> f64 {
    canvas_height as f64 / 6.0
}

/// OpenCut's quietest volume, in dB (timeline/audio-constants.ts `VOLUME_DB_MIN`). It is not
/// silence: OpenCut plays it at gain 0.001 and is silent only when muted (timeline/audio-state.ts).
pub const MIN_DB: f64 = -60.0;

/// dB → linear gain as OpenCut's `dBToLinear` maps it: clamped to −60…+20 dB, no floor at 0.
pub fn db_to_gain(db: f64) -> f64 {
    10f64.powf(db.clamp(MIN_DB, 20.0) / 20.0)
}

/// Linear gain → dB, to two decimals; gains OpenCut's dB cannot reach (0 included) are [`MIN_DB`].
pub fn gain_to_db(gain: f64) -> f64 {
    if gain <= db_to_gain(MIN_DB) {
        MIN_DB
    } else {
        (20.0 * gain.log10() * 100.0).round() / 100.0
    }
}

fn num(v: Option<f64>) -> Option<Value> {
    v.map(number)
}

fn text(v: &Option<String>) -> Option<Value> {
    v.as_deref().map(Value::from)
}

fn to_num(v: Option<Value>) -> Option<f64> {
    v.and_then(|v| v.as_f64())
}

fn to_text(v: Option<Value>) -> Option<String> {
    v.and_then(|v| v.as_str().map(str::to_string))
}

fn to_flag(v: Option<Value>) -> Option<bool> {
    v.and_then(|v| v.as_bool())
}

/// The getter and setter of a plain `Option<f64>`, `Option<String>` or `Option<bool>` field.
macro_rules! field {
    (num $f:ident) => {
        (|e: &Element| num(e.$f), |e: &mut Element, v: Option<Value>| e.$f = to_num(v))
    };
    (text $f:ident) => {
        (|e: &Element| text(&e.$f), |e: &mut Element, v: Option<Value>| e.$f = to_text(v))
    };
    (flag $f:ident) => {
        (|e: &Element| e.$f.map(Value::from), |e: &mut Element, v: Option<Value>| e.$f = to_flag(v))
    };
}

/// The getter and setter of a graphic's definition param, kept in `params` under OpenCut's key.
macro_rules! param {
    ($key:literal) => {
        (|e: &Element| e.params.as_ref().and_then(|p| p.get($key)).cloned(), |e: &mut Element, v: Option<Value>| set_param(e, $key, v))
    };
}

fn set_param(e: &mut Element, key: &str, v: Option<Value>) {
    match v {
        Some(v) => {
            e.params.get_or_insert_with(serde_json::Map::new).insert(key.into(), v);
        }
        None => {
            if let Some(p) = &mut e.params {
                p.remove(key);
            }
        }
    }
}

type Access = (fn(&Element) -> Option<Value>, fn(&mut Element, Option<Value>));

const fn prop(path: &'static str, kind: PropertyKind, unit: &'static str, default: Default, scope: Scope, (get, set): Access) -> Property {
    Property { path, kind, unit, default, min: None, max: None, animatable: false, choices: &[], scope, description: "", get, set }
}

/// The box colour: `background` while the box is on, `background_color` while it is off.
const BACKGROUND_COLOR: Access = (
    |e| text(&e.background).or_else(|| text(&e.background_color)),
    |e, v| match &mut e.background {
        Some(on) => *on = to_text(v).unwrap_or_else(|| "#000000".into()),
        None => e.background_color = to_text(v),
    },
);

/// Whether the box is drawn: turning it on takes the colour kept while it was off.
const BACKGROUND_ENABLED: Access = (
    |e| Some(e.background.is_some().into()),
    |e, v| match (to_flag(v).unwrap_or(false), e.background.is_some()) {
        (true, false) => e.background = Some(e.background_color.take().unwrap_or_else(|| "#000000".into())),
        (false, true) => e.background_color = e.background.take(),
        _ => {}
    },
);

/// Volume in dB over the element's linear gain.
const VOLUME: Access = (|e| num(e.volume.map(gain_to_db)), |e, v| e.volume = to_num(v).map(db_to_gain));

const fn range(mut p: Property, min: Option<f64>, max: Option<f64>) -> Property {
    p.min = min;
    p.max = max;
    p
}

/// One of OpenCut's options only.
const fn options(mut p: Property, choices: &'static [&'static str]) -> Property {
    p.choices = choices;
    p
}

/// Keyframable, with the description list_animatable_properties shows.
const fn animated(mut p: Property, description: &'static str) -> Property {
    p.animatable = true;
    p.description = description;
    p
}

/// OpenCut's options for the text's select params (params/registry.ts).
pub const FONT_WEIGHTS: [&str; 2] = ["normal", "bold"];
pub const FONT_STYLES: [&str; 2] = ["normal", "italic"];
pub const TEXT_ALIGNS: [&str; 3] = ["left", "center", "right"];
pub const TEXT_DECORATIONS: [&str; 3] = ["none", "underline", "line-through"];
/// Where a graphic's stroke sits on its outline (graphics/definitions/shared.ts).
pub const STROKE_ALIGNS: [&str; 3] = ["inside", "center", "outside"];

use PropertyKind as K;
use Scope as S;

/// Every property, in the order the tools list them: the transform, opacity, volume, the text
/// colours and box (the keyframable ones, in OpenCut's order), then the rest.
pub const PROPERTIES: &[Property] = &[
    animated(
        range(prop("transform.positionX", K::Number, "px", Default::Number(0.0), S::Visual, field!(num x)), Some(-100000.0), None),
        "Horizontal offset of the element's centre from the canvas centre (+ is right)",
    ),
    animated(
        range(prop("transform.positionY", K::Number, "px", Default::Number(0.0), S::Visual, field!(num y)), Some(-100000.0), None),
        "Vertical offset of the element's centre from the canvas centre (+ is down)",
    ),
    animated(
        range(prop("transform.scaleX", K::Number, "factor", Default::Number(1.0), S::Visual, field!(num scale_x)), Some(0.01), None),
        "Horizontal scale over the size fitted to the canvas",
    ),
    animated(
        range(prop("transform.scaleY", K::Number, "factor", Default::Number(1.0), S::Visual, field!(num scale_y)), Some(0.01), None),
        "Vertical scale over the size fitted to the canvas",
    ),
    animated(
        range(prop("transform.rotate", K::Number, "degrees", Default::Number(0.0), S::Visual, field!(num rotate)), Some(-360.0), Some(360.0)),
        "Clockwise rotation",
    ),
    animated(range(prop("opacity", K::Number, "0-1", Default::Number(1.0), S::Visual, field!(num opacity)), Some(0.0), Some(1.0)), "0 is invisible, 1 opaque"),
    animated(
        range(prop("volume", K::Number, "dB", Default::Number(0.0), S::Audible, VOLUME), Some(MIN_DB), Some(20.0)),
        "Loudness change; 0 dB plays as recorded, -60 is silent",
    ),
    animated(prop("color", K::Color, "hex colour", Default::Text("#ffffff"), S::Text, field!(text color)), "Text colour"),
    animated(
        prop("background.color", K::Color, "hex colour", Default::Text("#000000"), S::Text, BACKGROUND_COLOR),
        "Background box colour (drawn when the background is on)",
    ),
    animated(
        range(prop("background.paddingX", K::Number, "px", Default::Number(30.0), S::Text, field!(num background_padding_x)), Some(0.0), None),
        "Horizontal padding of the background box",
    ),
    animated(
        range(prop("background.paddingY", K::Number, "px", Default::Number(42.0), S::Text, field!(num background_padding_y)), Some(0.0), None),
        "Vertical padding of the background box",
    ),
    animated(
        prop("background.offsetX", K::Number, "px", Default::Number(0.0), S::Text, field!(num background_offset_x)),
        "Horizontal offset of the background box",
    ),
    animated(
        prop("background.offsetY", K::Number, "px", Default::Number(0.0), S::Text, field!(num background_offset_y)),
        "Vertical offset of the background box",
    ),
    animated(
        range(prop("background.cornerRadius", K::Number, "%", Default::Number(0.0), S::Text, field!(num background_corner_radius)), Some(0.0), Some(100.0)),
        "Corner rounding of the background box",
    ),
    prop("blendMode", K::Text, "", Default::Text("normal"), S::Visual, field!(text blend_mode)),
    prop("hidden", K::Flag, "", Default::Flag(false), S::Visual, field!(flag hidden)),
    prop("muted", K::Flag, "", Default::Flag(false), S::Audible, field!(flag muted)),
    prop("content", K::Text, "", Default::Text("Default text"), S::Text, field!(text content)),
    prop("fontSize", K::Number, "px", Default::FontSize, S::Text, field!(num font_size)),
    prop("fontFamily", K::Text, "", Default::Text("Arial"), S::Text, field!(text font_family)),
    // OpenCut's options and bounds (params/registry.ts).
    options(prop("fontWeight", K::Text, "", Default::Text("normal"), S::Text, field!(text font_weight)), &FONT_WEIGHTS),
    options(prop("fontStyle", K::Text, "", Default::Text("normal"), S::Text, field!(text font_style)), &FONT_STYLES),
    options(prop("textAlign", K::Text, "", Default::Text("center"), S::Text, field!(text text_align)), &TEXT_ALIGNS),
    options(prop("textDecoration", K::Text, "", Default::Text("none"), S::Text, field!(text text_decoration)), &TEXT_DECORATIONS),
    range(prop("letterSpacing", K::Number, "px", Default::Number(0.0), S::Text, field!(num letter_spacing)), Some(-100.0), None),
    range(prop("lineHeight", K::Number, "× font size", Default::Number(1.2), S::Text, field!(num line_height)), Some(0.1), None),
    prop("background.enabled", K::Flag, "", Default::Flag(false), S::Text, BACKGROUND_ENABLED),
    // A graphic's definition params (graphics/definitions/*), animated at `params.<key>`.
    animated(prop("params.fill", K::Color, "hex colour", Default::Text("#ffffff"), S::Graphic, param!("fill")), "Shape fill colour"),
    animated(prop("params.stroke", K::Color, "hex colour", Default::Text("#000000"), S::Graphic, param!("stroke")), "Outline colour"),
    animated(
        range(prop("params.strokeWidth", K::Number, "px of the 512 px shape", Default::Number(0.0), S::Graphic, param!("strokeWidth")), Some(0.0), Some(64.0)),
        "Outline width; 0 draws none",
    ),
    options(prop("params.strokeAlign", K::Text, "", Default::Text("center"), S::Graphic, param!("strokeAlign")), &STROKE_ALIGNS),
    animated(
        range(prop("params.cornerRadius", K::Number, "%", Default::Number(0.0), S::Graphic, param!("cornerRadius")), Some(0.0), Some(50.0)),
        "Corner rounding (rectangle, polygon); 50 is fully round",
    ),
    animated(range(prop("params.sides", K::Number, "count", Default::Number(5.0), S::Graphic, param!("sides")), Some(3.0), Some(12.0)), "Polygon sides"),
    animated(range(prop("params.points", K::Number, "count", Default::Number(5.0), S::Graphic, param!("points")), Some(3.0), Some(12.0)), "Star points"),
    animated(
        range(prop("params.depth", K::Number, "%", Default::Number(45.0), S::Graphic, param!("depth")), Some(1.0), Some(99.0)),
        "Star inner radius, percent of the outer",
    ),
];

/// The property at `path`, whatever the element type.
pub fn find(path: &str) -> Option<&'static Property> {
    PROPERTIES.iter().find(|p| p.path == path)
}

/// The property `path` of `e`.
pub fn of(e: &Element, path: &str) -> Option<&'static Property> {
    find(path).filter(|p| p.applies_to(e))
}

/// The keyframable properties of `e`, in table order.
pub fn animatable(e: &Element) -> Vec<&'static Property> {
    PROPERTIES.iter().filter(|p| p.animatable && p.applies_to(e)).collect()
}

/// The keyframable property `path` of `e`.
pub fn animatable_of(e: &Element, path: &str) -> Option<&'static Property> {
    of(e, path).filter(|p| p.animatable)
}

/// The element's value of `path` at `local_ticks` from its start: the keyframed value where the
/// property has keyframes, else its own, else the default. `None` when it has no such property.
pub fn value_at(e: &Element, path: &str, local_ticks: i64, canvas_height: u32) -> Option<Value> {
    let p = of(e, path)?;
    // Only a property with a channel goes to the evaluator (which looks the property up again
    // for its base); the frame reads some twenty properties per layer, most of them unanimated.
    if p.animatable && e.animations.as_ref().is_some_and(|a| a.contains(path)) {
        return crate::animation::value_at(e, path, local_ticks);
    }
    Some(p.value(e, canvas_height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_is_named_once() {
        for (i, p) in PROPERTIES.iter().enumerate() {
            assert!(PROPERTIES[..i].iter().all(|q| q.path != p.path), "{} twice", p.path);
        }
    }

    #[test]
    fn defaults_have_the_kind_of_their_property() {
        for p in PROPERTIES {
            let v = p.default_value(1080);
            let ok = match p.kind {
                PropertyKind::Number => v.is_number(),
                PropertyKind::Color | PropertyKind::Text => v.is_string(),
                PropertyKind::Flag => v.is_boolean(),
            };
            assert!(ok, "{}: default {v}", p.path);
            if let (Some(min), Some(n)) = (p.min, v.as_f64()) {
                assert!(n >= min, "{}", p.path);
            }
            if let (Some(max), Some(n)) = (p.max, v.as_f64()) {
                assert!(n <= max, "{}", p.path);
            }
        }
    }

    #[test]
    fn a_volume_goes_to_db_and_back() {
        for gain in [0.0, 0.001, 0.25, 0.5, 1.0, 2.0, 10.0] {
            let back = db_to_gain(gain_to_db(gain));
            assert!((back - gain).abs() <= gain * 0.0003 + 0.001, "{gain} → {back}");
        }
        assert_eq!(gain_to_db(0.0), MIN_DB);
        // OpenCut plays its quietest volume at 0.001; only muted is silent.
        assert_eq!(db_to_gain(MIN_DB), 0.001);
        assert_eq!(gain_to_db(1.0), 0.0);
    }
}
