//! OpenCut's element `params` (storage v31) and the NeuralCut fields read from them.
//!
//! Reading follows OpenCut's renderers: a missing or mistyped key reads as the registry default.
//! Writing starts from the element's own `params` (or, for an element a tool created, every
//! default of its type) and rewrites only the keys whose NeuralCut value a tool changed, so an
//! untouched key comes back byte for byte.

use serde_json::{Map, Value};

use super::units;
use crate::effects::number;
use crate::model::Element;

/// Whether elements of this OpenCut type are drawn (and so have position, hidden, opacity).
pub fn is_visual(kind: &str) -> bool {
    matches!(kind, "video" | "image" | "text" | "sticker" | "graphic")
}

/// Whether elements of this OpenCut type make sound (volume, muted).
pub fn is_audible(kind: &str) -> bool {
    matches!(kind, "video" | "audio")
}

/// Whether NeuralCut's tools place this type by a centre point (x, y).
pub fn is_placed(kind: &str) -> bool {
    matches!(kind, "text" | "sticker" | "graphic")
}

fn num(p: &Map<String, Value>, key: &str, default: f64) -> f64 {
    p.get(key).and_then(Value::as_f64).unwrap_or(default)
}

fn text<'a>(p: &'a Map<String, Value>, key: &str, default: &'a str) -> &'a str {
    p.get(key).and_then(Value::as_str).unwrap_or(default)
}

fn flag(p: &Map<String, Value>, key: &str, default: bool) -> bool {
    p.get(key).and_then(Value::as_bool).unwrap_or(default)
}

/// The NeuralCut values OpenCut's `params` stand for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mapped {
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub volume: Option<f64>,
    pub muted: Option<bool>,
    pub content: Option<String>,
    pub font_size: Option<f64>,
    pub color: Option<String>,
    pub font_weight: Option<String>,
    pub font_family: Option<String>,
    pub font_style: Option<String>,
    pub text_align: Option<String>,
    pub text_decoration: Option<String>,
    pub background: Option<String>,
    pub scale_x: Option<f64>,
    pub scale_y: Option<f64>,
    pub rotate: Option<f64>,
    pub opacity: Option<f64>,
    pub blend_mode: Option<String>,
    /// [`TEXT_NUMBERS`], in that order.
    pub text_numbers: [Option<f64>; 7],
    pub background_color: Option<String>,
    pub fill: Option<String>,
}

/// The numeric text params NeuralCut holds as they are (read only when present).
const TEXT_NUMBERS: [&str; 7] =
    ["letterSpacing", "lineHeight", "background.paddingX", "background.paddingY", "background.offsetX", "background.offsetY", "background.cornerRadius"];

/// The element's fields for [`TEXT_NUMBERS`].
fn text_numbers(e: &Element) -> [Option<f64>; 7] {
    [e.letter_spacing, e.line_height, e.background_padding_x, e.background_padding_y, e.background_offset_x, e.background_offset_y, e.background_corner_radius]
}

/// A value NeuralCut cannot hold: the params key and what is wrong.
pub type Refusal = (&'static str, String);

/// Reads an element's `params` as OpenCut shows them.
pub fn read(kind: &str, p: &Map<String, Value>, canvas_height: u32) -> Result<Mapped, Refusal> {
    let mut m = Mapped::default();
    if is_placed(kind) {
        m.x = Some(num(p, "transform.positionX", 0.0));
        m.y = Some(num(p, "transform.positionY", 0.0));
    }
    if is_visual(kind) {
        // Read only when present, so an imported element's NeuralCut form stays as it was; the
        // tools read a missing one as OpenCut's default.
        let present = |key: &str| p.get(key).and_then(Value::as_f64);
        if !is_placed(kind) {
            m.x = present("transform.positionX");
            m.y = present("transform.positionY");
        }
        m.scale_x = present("transform.scaleX");
        m.scale_y = present("transform.scaleY");
        m.rotate = present("transform.rotate");
        m.opacity = present("opacity");
        m.blend_mode = p.get("blendMode").and_then(Value::as_str).map(str::to_string);
    }
    if is_audible(kind) {
        let db = num(p, "volume", 0.0);
        if db > units::MAX_DB {
            return Err(("volume", format!("must be at most {} dB, not {}", units::MAX_DB, p["volume"])));
        }
        m.volume = Some(units::db_to_linear(db));
        m.muted = Some(flag(p, "muted", false));
    }
    if kind == "text" {
        let size = num(p, "fontSize", units::DEFAULT_FONT_SIZE);
        let px = units::font_px(size, canvas_height);
        if !(size > 0.0 && px.is_finite()) {
            return Err(("fontSize", format!("must be a size > 0, not {}", p["fontSize"])));
        }
        m.font_size = Some(px);
        m.content = Some(text(p, "content", "Default text").to_string());
        m.color = Some(text(p, "color", "#ffffff").to_string());
        m.font_weight = Some(text(p, "fontWeight", "normal").to_string());
        m.font_family = Some(text(p, "fontFamily", "Arial").to_string());
        m.font_style = Some(text(p, "fontStyle", "normal").to_string());
        m.text_align = Some(text(p, "textAlign", "center").to_string());
        m.text_decoration = Some(text(p, "textDecoration", "none").to_string());
        let boxed = flag(p, "background.enabled", false);
        m.background = boxed.then(|| text(p, "background.color", "#000000").to_string());
        // The colour of a box that is off, so keyframing it starts from what OpenCut shows.
        m.background_color = (!boxed).then(|| p.get("background.color").and_then(Value::as_str).map(str::to_string)).flatten();
        m.text_numbers = TEXT_NUMBERS.map(|key| p.get(key).and_then(Value::as_f64));
    }
    if kind == "graphic" {
        m.fill = p.get("fill").and_then(Value::as_str).map(str::to_string);
    }
    Ok(m)
}

impl Mapped {
    /// Puts these values on a NeuralCut element.
    pub fn apply_to(self, e: &mut Element) {
        e.x = self.x;
        e.y = self.y;
        e.volume = self.volume;
        e.muted = self.muted;
        e.content = self.content;
        e.font_size = self.font_size;
        e.color = self.color;
        e.font_weight = self.font_weight;
        e.font_family = self.font_family;
        e.font_style = self.font_style;
        e.text_align = self.text_align;
        e.text_decoration = self.text_decoration;
        e.background = self.background;
        e.scale_x = self.scale_x;
        e.scale_y = self.scale_y;
        e.rotate = self.rotate;
        e.opacity = self.opacity;
        e.blend_mode = self.blend_mode;
        [
            e.letter_spacing,
            e.line_height,
            e.background_padding_x,
            e.background_padding_y,
            e.background_offset_x,
            e.background_offset_y,
            e.background_corner_radius,
        ] = self.text_numbers;
        e.background_color = self.background_color;
        e.fill = self.fill;
    }
}

/// Writes into `p` every value of `e` that differs from what `p` reads as. Returns whether any
/// key changed.
pub fn write(kind: &str, e: &Element, p: &mut Map<String, Value>, canvas_height: u32) -> bool {
    // What `p` holds now; values it cannot hold read as the defaults they would be replaced by.
    let was = read(kind, p, canvas_height).unwrap_or_default();
    let mut changed = false;
    let mut set = |p: &mut Map<String, Value>, key: &str, v: Value| {
        p.insert(key.to_string(), v);
        changed = true;
    };
    let nums = [
        ("transform.positionX", e.x, was.x),
        ("transform.positionY", e.y, was.y),
        ("transform.scaleX", e.scale_x, was.scale_x),
        ("transform.scaleY", e.scale_y, was.scale_y),
        ("transform.rotate", e.rotate, was.rotate),
        ("opacity", e.opacity, was.opacity),
    ];
    for (key, now, before) in nums {
        if let Some(v) = now.filter(|v| Some(*v) != before) {
            set(p, key, number(v));
        }
    }
    if let Some(v) = e.volume.filter(|v| Some(*v) != was.volume) {
        set(p, "volume", number(units::linear_to_db(v)));
    }
    if let Some(m) = e.muted.filter(|m| Some(*m) != was.muted) {
        set(p, "muted", m.into());
    }
    if let Some(px) = e.font_size.filter(|v| Some(*v) != was.font_size) {
        set(p, "fontSize", number(units::font_opencut(px, canvas_height)));
    }
    let texts = [
        ("content", &e.content, &was.content),
        ("color", &e.color, &was.color),
        ("fontWeight", &e.font_weight, &was.font_weight),
        ("fontFamily", &e.font_family, &was.font_family),
        ("fontStyle", &e.font_style, &was.font_style),
        ("textAlign", &e.text_align, &was.text_align),
        ("textDecoration", &e.text_decoration, &was.text_decoration),
        ("blendMode", &e.blend_mode, &was.blend_mode),
    ];
    for (key, now, before) in texts {
        if let Some(v) = now.as_ref().filter(|v| Some(*v) != before.as_ref()) {
            set(p, key, v.as_str().into());
        }
    }
    if kind == "text" && e.background != was.background {
        set(p, "background.enabled", e.background.is_some().into());
        if let Some(c) = &e.background {
            set(p, "background.color", c.as_str().into());
        }
    }
    if kind == "text" && e.background.is_none() {
        if let Some(c) = e.background_color.as_ref().filter(|c| Some(*c) != was.background_color.as_ref()) {
            set(p, "background.color", c.as_str().into());
        }
    }
    if kind == "text" {
        for ((key, now), before) in TEXT_NUMBERS.into_iter().zip(text_numbers(e)).zip(was.text_numbers) {
            if let Some(v) = now.filter(|v| Some(*v) != before) {
                set(p, key, number(v));
            }
        }
    }
    if let Some(f) = e.fill.as_ref().filter(|f| kind == "graphic" && Some(*f) != was.fill.as_ref()) {
        set(p, "fill", f.as_str().into());
    }
    changed
}
