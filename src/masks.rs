//! Masks on video, image and graphic elements, as OpenCut classic has them (masks/*, storage v31):
//! the shapes the tools set, their parameters, ranges and defaults. A mask rides on its element as
//! `masks: [{ id, type, params }]`, the shape NeuralCut's project and OpenCut's scene share, kept
//! with the element's other fields the model does not type (as clip effects are); only the first
//! is drawn, as in OpenCut, whose panel writes one.

use serde_json::{Map, Value};

use crate::model::Element;

/// The shapes update_clip sets: OpenCut's built-in box shapes, split, its text mask and its pen
/// tool's freeform path (masks/builtin/definitions, masks/freeform).
pub const KINDS: [&str; 9] = ["rectangle", "ellipse", "diamond", "star", "heart", "cinematic-bars", "split", "text", "freeform"];

/// What a parameter takes.
pub enum Takes {
    /// A finite number from the least to the greatest (none: unbounded).
    Number(f64, Option<f64>),
    Bool,
    /// A colour as #rrggbb.
    Colour,
    /// One of these words.
    Word(&'static [&'static str]),
    /// A string of 1 to this many characters, not only spaces.
    Text(usize),
    /// A freeform path: a list of points (crate::tools::element::mask reads it).
    Path,
}

/// A parameter: key, what it takes, and the range its error message names.
pub struct Param {
    pub key: &'static str,
    pub takes: Takes,
    pub range: &'static str,
}

const fn n(key: &'static str, min: f64, max: Option<f64>, range: &'static str) -> Param {
    Param { key, takes: Takes::Number(min, max), range }
}

const fn t(key: &'static str, takes: Takes, range: &'static str) -> Param {
    Param { key, takes, range }
}

/// Stroke alignment choices.
pub use crate::properties::STROKE_ALIGNS as STROKE_ALIGN;

/// Every shape's (OpenCut's BaseMaskParams): feather and stroke width in canvas pixels.
const BASE: [Param; 5] = [
    n("feather", 0.0, Some(1000.0), "from 0 to 1000 (pixels)"),
    n("strokeWidth", 0.0, Some(100.0), "from 0 to 100 (pixels)"),
    t("inverted", Takes::Bool, "true or false"),
    t("strokeColor", Takes::Colour, "a colour as #rrggbb"),
    t("strokeAlign", Takes::Word(&STROKE_ALIGN), "inside, center or outside"),
];

/// Where a shape sits, as fractions of the element's size from its centre, and its turn.
const PLACE: [Param; 3] = [
    n("centerX", -1.0, Some(1.0), "from -1 to 1 (a fraction of the element's width from its centre)"),
    n("centerY", -1.0, Some(1.0), "from -1 to 1 (a fraction of the element's height from its centre)"),
    n("rotation", 0.0, Some(360.0), "from 0 to 360 (degrees)"),
];

/// A box shape's size, fractions of the element's width and height (OpenCut's floor is 0.01).
const SIZE: [Param; 2] = [
    n("width", 0.01, None, "at least 0.01 (a fraction of the element's width)"),
    n("height", 0.01, None, "at least 0.01 (a fraction of the element's height)"),
];

/// Text and freeform masks grow uniformly (their panels' Scale, 1 % to 500 %).
const SCALE: Param = n("scale", 0.01, Some(5.0), "from 0.01 to 5 (a factor)");

/// The text mask's own (TextMaskParams; ranges from its panel, masks/components/masks-tab.tsx,
/// and text/typography.ts).
const TEXT: [Param; 9] = [
    SCALE,
    n("fontSize", 5.0, Some(300.0), "from 5 to 300 (OpenCut's text size: 15 is a sixth of the element's height)"),
    n("letterSpacing", -100.0, Some(500.0), "from -100 to 500 (pixels)"),
    n("lineHeight", 0.1, Some(10.0), "from 0.1 to 10 (a factor of the font size)"),
    t("content", Takes::Text(1000), "a text of 1 to 1000 characters, not only spaces"),
    t("fontFamily", Takes::Text(200), "a font family name of 1 to 200 characters"),
    t("fontWeight", Takes::Word(&crate::properties::FONT_WEIGHTS), "normal or bold"),
    t("fontStyle", Takes::Word(&crate::properties::FONT_STYLES), "normal or italic"),
    t("textDecoration", Takes::Word(&crate::properties::TEXT_DECORATIONS), "none, underline or line-through"),
];

/// The freeform mask's own: its path and whether it is closed (open, OpenCut draws no mask).
const FREEFORM: [Param; 3] =
    [SCALE, t("path", Takes::Path, "a list of 1 to 1000 points {x, y, inX, inY, outX, outY}"), t("closed", Takes::Bool, "true or false")];

/// The fewest points a closed freeform path needs, and the most a path takes.
pub const PATH_POINTS: (usize, usize) = (3, 1000);

/// A path point's coordinates, fractions of the element's width (x) or height (y) times the
/// mask's scale, from the mask's centre; handles are offsets from their point.
pub const POINT_KEYS: [&str; 6] = ["x", "y", "inX", "inY", "outX", "outY"];
pub const POINT_RANGE: (f64, &str) = (10.0, "from -10 to 10 (a fraction of the element's size from the mask's centre)");

/// OpenCut's default square: 0.6 of the element's shorter side (masks/dimensions.ts).
const SQUARE: f64 = 0.6;

/// Whether `kind` is a box shape (centre, size and rotation): not split, text or freeform.
pub fn is_box(kind: &str) -> bool {
    !matches!(kind, "split" | "text" | "freeform")
}

/// The parameters `kind` takes, in three lists.
fn lists(kind: &str) -> [&'static [Param]; 3] {
    let own: &'static [Param] = match kind {
        "split" => &[],
        "text" => &TEXT,
        "freeform" => &FREEFORM,
        _ => &SIZE,
    };
    [&BASE, &PLACE, own]
}

/// The parameter `key` of `kind`, if it takes one.
pub fn param(kind: &str, key: &str) -> Option<&'static Param> {
    lists(kind).into_iter().flatten().find(|p| p.key == key)
}

/// Every parameter key `kind` takes, for messages: the numbers, then the rest.
pub fn keys(kind: &str) -> String {
    let mut out = String::new();
    for numbers in [true, false] {
        for p in lists(kind).into_iter().flatten().filter(|p| matches!(p.takes, Takes::Number(..)) == numbers) {
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(p.key);
        }
    }
    out
}

/// A new mask's parameters as OpenCut's `buildDefault` makes them for an element drawn
/// `width` × `height` pixels: a centred square of 0.6 of its shorter side (cinematic bars: a
/// band as wide as the diagonal, 0.6 high; split: a vertical line through the centre; text:
/// "Mask" in Arial at size 15; freeform: an empty open path).
pub fn defaults(kind: &str, width: f64, height: f64) -> Map<String, Value> {
    // Read from JSON text: the wasm's parser is smaller than an insert per key.
    let own = match kind {
        "text" => {
            r#","content":"Mask","fontSize":15,"fontFamily":"Arial","fontWeight":"normal","fontStyle":"normal","textDecoration":"none","letterSpacing":0,"lineHeight":1.2"#
        }
        "freeform" => r#","path":[],"closed":false"#,
        _ => "",
    };
    let text = format!(r##"{{"feather":0,"inverted":false,"strokeColor":"#ffffff","strokeWidth":0,"strokeAlign":"center"{own},"centerX":0,"centerY":0}}"##);
    let Ok(Value::Object(mut p)) = serde_json::from_str::<Value>(&text) else { unreachable!("the defaults are JSON") };
    if is_box(kind) {
        let (w, h) = (width.abs(), height.abs());
        let (mw, mh) = if kind == "cinematic-bars" {
            let full = if w > 0.0 && h > 0.0 { (w * w + h * h).sqrt() / w } else { std::f64::consts::SQRT_2 };
            (full.max(1.0), SQUARE)
        } else {
            let side = w.min(h) * SQUARE;
            (if w > 0.0 { side / w } else { SQUARE }, if h > 0.0 { side / h } else { SQUARE })
        };
        p.insert("width".into(), crate::effects::number(mw));
        p.insert("height".into(), crate::effects::number(mh));
    }
    p.insert("rotation".into(), 0.into());
    if kind != "split" {
        p.insert("scale".into(), 1.into());
    }
    p
}

/// Whether OpenCut applies the mask (its definitions' `isActive`): a text mask with no visible
/// character and an open freeform path leave the element whole.
pub fn is_active(kind: &str, params: &Map<String, Value>) -> bool {
    match kind {
        "text" => params.get("content").and_then(Value::as_str).is_some_and(|s| !s.trim().is_empty()),
        "freeform" => params.get("closed").and_then(Value::as_bool) == Some(true),
        _ => true,
    }
}

/// Whether `e` can carry a mask: video, image and graphic elements, as in OpenCut.
pub fn takes_mask(e: &Element) -> bool {
    use crate::model::ElementType;
    matches!(e.kind, ElementType::Video | ElementType::Image | ElementType::Graphic)
}

/// The element's first mask: its type and parameters, if it has one.
pub fn first(e: &Element) -> Option<(&str, &Map<String, Value>)> {
    let m = e.extra.get("masks")?.as_array()?.first()?;
    Some((m.get("type")?.as_str()?, m.get("params")?.as_object()?))
}

/// Sets the element's mask to `mask` (`{ id, type, params }`), or takes its masks away.
pub fn set(e: &mut Element, mask: Option<Value>) {
    match mask {
        Some(m) => {
            e.extra.insert("masks".into(), Value::Array(vec![m]));
        }
        None => {
            e.extra.remove("masks");
        }
    }
}

/// The id of the element's first mask, kept when an edit changes its parameters.
pub fn first_id(e: &Element) -> Option<&str> {
    e.extra.get("masks")?.as_array()?.first()?.get("id")?.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_opencut_s_square_band_and_line() {
        // A 1920 x 1080 element: the square is 648 px, 0.3375 of its width and 0.6 of its height.
        let square = defaults("ellipse", 1920.0, 1080.0);
        assert_eq!((square["width"].as_f64(), square["height"].as_f64()), (Some(0.3375), Some(0.6)));
        assert_eq!(square["scale"], 1);
        // The band spans the diagonal: sqrt(1920^2 + 1080^2) / 1920.
        let band = defaults("cinematic-bars", 1920.0, 1080.0);
        assert!((band["width"].as_f64().unwrap() - (1920f64.powi(2) + 1080f64.powi(2)).sqrt() / 1920.0).abs() < 1e-12);
        assert_eq!(band["height"].as_f64(), Some(0.6));
        let line = defaults("split", 1920.0, 1080.0);
        assert!(!line.contains_key("width") && !line.contains_key("scale"));
        assert_eq!(keys("split"), "feather, strokeWidth, centerX, centerY, rotation, inverted, strokeColor, strokeAlign");
    }
}
