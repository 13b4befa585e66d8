//! Masks on video, image and graphic elements, as OpenCut classic has them (masks/*, storage v31):
//! the shapes the tools set, their parameters, ranges and defaults. A mask rides on its element as
//! `masks: [{ id, type, params }]`, the shape NeuralCut's project and OpenCut's scene share, kept
//! with the element's other fields the model does not type (as clip effects are); only the first
//! is drawn, as in OpenCut, whose panel writes one.

use serde_json::{Map, Value};

use crate::model::Element;

/// The shapes update_clip sets (OpenCut's built-in box shapes and split). OpenCut's `text` and
/// `freeform` masks are kept and drawn by OpenCut, not made here.
pub const KINDS: [&str; 7] = ["rectangle", "ellipse", "diamond", "star", "heart", "cinematic-bars", "split"];

/// A number parameter: key, least, greatest (none: unbounded), and what it is.
pub struct NumberParam {
    pub key: &'static str,
    pub min: f64,
    pub max: Option<f64>,
    pub range: &'static str,
}

const fn n(key: &'static str, min: f64, max: Option<f64>, range: &'static str) -> NumberParam {
    NumberParam { key, min, max, range }
}

/// Every shape's (OpenCut's BaseMaskParams): feather and stroke width in canvas pixels.
const BASE: [NumberParam; 2] = [n("feather", 0.0, Some(1000.0), "from 0 to 1000 (pixels)"), n("strokeWidth", 0.0, Some(100.0), "from 0 to 100 (pixels)")];

/// Where a shape sits, as fractions of the element's size from its centre, and its turn.
const PLACE: [NumberParam; 3] = [
    n("centerX", -1.0, Some(1.0), "from -1 to 1 (a fraction of the element's width from its centre)"),
    n("centerY", -1.0, Some(1.0), "from -1 to 1 (a fraction of the element's height from its centre)"),
    n("rotation", 0.0, Some(360.0), "from 0 to 360 (degrees)"),
];

/// A box shape's size, fractions of the element's width and height (OpenCut's floor is 0.01).
const SIZE: [NumberParam; 2] = [
    n("width", 0.01, None, "at least 0.01 (a fraction of the element's width)"),
    n("height", 0.01, None, "at least 0.01 (a fraction of the element's height)"),
];

/// Stroke alignment choices.
pub const STROKE_ALIGN: [&str; 3] = ["inside", "center", "outside"];

/// OpenCut's default square: 0.6 of the element's shorter side (masks/dimensions.ts).
const SQUARE: f64 = 0.6;

/// Whether `kind` is a box shape (centre, size and rotation), as opposed to split (centre and
/// rotation only).
pub fn is_box(kind: &str) -> bool {
    kind != "split"
}

/// The number parameters `kind` takes.
pub fn numbers(kind: &str) -> impl Iterator<Item = &'static NumberParam> {
    let size: &'static [NumberParam] = if is_box(kind) { &SIZE } else { &[] };
    BASE.iter().chain(PLACE.iter()).chain(size.iter())
}

/// Every parameter key `kind` takes, for messages.
pub fn keys(kind: &str) -> Vec<&'static str> {
    let mut k: Vec<&'static str> = numbers(kind).map(|p| p.key).collect();
    k.extend(["inverted", "strokeColor", "strokeAlign"]);
    k
}

/// A new mask's parameters as OpenCut's `buildDefault` makes them for an element drawn
/// `width` × `height` pixels: a centred square of 0.6 of its shorter side (cinematic bars: a
/// band as wide as the diagonal, 0.6 high; split: a vertical line through the centre).
pub fn defaults(kind: &str, width: f64, height: f64) -> Map<String, Value> {
    let mut p = Map::new();
    p.insert("feather".into(), 0.into());
    p.insert("inverted".into(), false.into());
    p.insert("strokeColor".into(), "#ffffff".into());
    p.insert("strokeWidth".into(), 0.into());
    p.insert("strokeAlign".into(), "center".into());
    p.insert("centerX".into(), 0.into());
    p.insert("centerY".into(), 0.into());
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
    if is_box(kind) {
        p.insert("scale".into(), 1.into());
    }
    p
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
        assert_eq!(keys("split"), ["feather", "strokeWidth", "centerX", "centerY", "rotation", "inverted", "strokeColor", "strokeAlign"]);
    }
}
