//! get_element and update_clip: one element's every property, and changing OpenCut's visual and
//! audio params on one or many elements at once.

pub mod get_element;
pub mod graphic;
pub mod mask;
pub mod update_clip;

use crate::error_code::ErrorCode;
use serde_json::{json, Map, Value};

use super::refs::Refs;
use super::{edit_error, seconds, timeline_mut, Arg, Ctx, Output, ToolError};
use crate::animation;
use crate::edits;
use crate::model::{Canvas, Element, ElementType, Retime, Timeline};
use crate::properties::{self, db_to_gain, is_visual};

/// OpenCut's blend modes (params/registry.ts): the frame's list.
pub use crate::frame::BLEND_MODES;

/// Named places for update_clip's position.
pub const ANCHORS: [&str; 9] = ["top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right"];

/// The reference of an element, from the editor's table (or a fresh one outside an editor).
pub(super) fn reference(ctx: &mut Ctx, e: &Element) -> String {
    match ctx.listing.as_deref_mut() {
        Some(cache) => {
            if let Some(tl) = ctx.timeline.as_ref() {
                cache.refs.assign(tl);
            }
            cache.refs.of(&e.id, e.kind)
        }
        None => {
            let mut refs = Refs::default();
            if let Some(tl) = ctx.timeline.as_ref() {
                refs.assign(tl);
            }
            refs.of(&e.id, e.kind)
        }
    }
}

/// The element `id` (already resolved from a reference), or "Timeline element not found".
pub(super) fn find<'a>(tl: &'a Timeline, id: &str) -> Result<(usize, usize, &'a Element), ToolError> {
    let (ti, ei) = tl.find(id).ok_or_else(|| ToolError::timeline_element_not_found(id))?;
    Ok((ti, ei, tl.tracks[ti].elements[ei].as_ref()))
}

fn prop(value: Value, unit: Option<&str>) -> Value {
    let mut o = Map::new();
    crate::text::put(&mut o, "value", value);
    if let Some(u) = unit {
        crate::text::put(&mut o, "unit", u.into());
    }
    Value::Object(o)
}

/// A property value outside OpenCut's range (or of the wrong type).
fn out_of_range(property: &str, range: &str) -> ToolError {
    ToolError::new(ErrorCode::PropertyOutOfRange, format!("Property \"{property}\" must be {range}")).with("property", property)
}

fn unsupported(e: &Element, property: &str) -> ToolError {
    ToolError::new(
        ErrorCode::PropertyNotSupported,
        format!("Element {} is {} {} element and has no {property}", e.id, article(e.kind.as_str()), e.kind.as_str()),
    )
    .with("property", property)
    .with("element", e.id.as_str())
}

use crate::tools::error::article;

fn number_in(arg: &Arg<Option<f64>>, key: &str, min: f64, max: Option<f64>, range: &str) -> Result<Option<f64>, ToolError> {
    match arg.read() {
        Ok(None) => Ok(None),
        Ok(Some(n)) if n.is_finite() && n >= min && max.is_none_or(|m| n <= m) => Ok(Some(n)),
        _ => Err(out_of_range(key, range)),
    }
}

/// Where update_clip puts an element: pixels, or an anchor and a margin.
#[derive(Clone, Debug, PartialEq)]
enum Position {
    Pixels(Option<f64>, Option<f64>),
    Anchor(&'static str, Option<f64>),
}

const POSITION_HELP: &str = "an anchor (top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right), {\"anchor\": …, \"margin\": px} or {\"x\": px, \"y\": px} from the canvas centre (each from -100000)";

fn position(arg: Option<&Value>) -> Result<Option<Position>, ToolError> {
    let bad = || out_of_range("position", POSITION_HELP);
    let anchor = |s: &str| ANCHORS.iter().find(|a| **a == s).copied().ok_or_else(bad);
    match arg {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(Position::Anchor(anchor(s)?, None))),
        Some(Value::Object(o)) => {
            if let Some(bad_key) = o.keys().find(|k| !["x", "y", "anchor", "margin"].contains(&k.as_str())) {
                return Err(out_of_range("position", &format!("{POSITION_HELP}; \"{bad_key}\" is not one of its keys")));
            }
            let coord = |k: &str| -> Result<Option<f64>, ToolError> {
                match o.get(k) {
                    None | Some(Value::Null) => Ok(None),
                    Some(v) => v.as_f64().filter(|n| n.is_finite() && *n >= -100000.0).map(Some).ok_or_else(bad),
                }
            };
            match o.get("anchor").filter(|v| !v.is_null()) {
                Some(a) => {
                    if o.contains_key("x") || o.contains_key("y") {
                        return Err(bad());
                    }
                    let a = anchor(a.as_str().ok_or_else(bad)?)?;
                    let margin = match o.get("margin") {
                        None | Some(Value::Null) => None,
                        Some(m) => {
                            Some(m.as_f64().filter(|n| n.is_finite() && *n >= 0.0).ok_or_else(|| out_of_range("position.margin", "a number of pixels >= 0"))?)
                        }
                    };
                    Ok(Some(Position::Anchor(a, margin)))
                }
                None => {
                    let (x, y) = (coord("x")?, coord("y")?);
                    if (x.is_none() && y.is_none()) || o.contains_key("margin") {
                        return Err(bad());
                    }
                    Ok(Some(Position::Pixels(x, y)))
                }
            }
        }
        Some(_) => Err(bad()),
    }
}

/// Half the drawn size of an element in canvas pixels, as OpenCut's bounds measure it
/// (preview/element-bounds.ts): video, images and stickers fitted ("contain") to the canvas from
/// their source size, then scaled (a sticker without a known size counts as OpenCut's 200 × 200
/// fallback, so it fills the canvas's shorter side at scale 1). Text, whose size depends on the
/// host's fonts, counts as a box a fifth of the canvas's shorter side.
pub(crate) fn half_extent(ctx: &Ctx, e: &Element, canvas: Canvas, scale: (f64, f64)) -> (f64, f64) {
    let (cw, ch) = (canvas.width as f64, canvas.height as f64);
    let source = match e.kind {
        ElementType::Video | ElementType::Image => {
            let asset = e.asset_id.as_deref().and_then(|id| ctx.asset(id));
            asset.and_then(|a| Some((a.width? as f64, a.height? as f64)))
        }
        ElementType::Sticker | ElementType::Graphic => {
            let fallback = (crate::frame::STICKER_FALLBACK_SIZE, crate::frame::STICKER_FALLBACK_SIZE);
            let (w, h) = crate::frame::sticker_size(e, e.sticker_id.as_deref().and_then(|id| ctx.sticker(id))).unwrap_or(fallback);
            Some((w as f64, h as f64))
        }
        _ => None,
    };
    let (w, h) = match source.filter(|(w, h)| *w > 0.0 && *h > 0.0) {
        Some((w, h)) => {
            let fit = (cw / w).min(ch / h);
            (w * fit * scale.0, h * fit * scale.1)
        }
        None => {
            let side = 0.2 * cw.min(ch);
            (side * scale.0, side * scale.1)
        }
    };
    (w.abs() / 2.0, h.abs() / 2.0)
}

/// The centre that puts the element at `anchor`, `margin` pixels in from the canvas edges.
pub(crate) fn anchored(anchor: &str, margin: f64, half: (f64, f64), canvas: Canvas) -> (f64, f64) {
    // An element too big to fit inside the margins is centred on that axis.
    let dx = (canvas.width as f64 / 2.0 - margin - half.0).max(0.0);
    let dy = (canvas.height as f64 / 2.0 - margin - half.1).max(0.0);
    let x = if anchor.ends_with("left") {
        -dx
    } else if anchor.ends_with("right") {
        dx
    } else {
        0.0
    };
    let y = if anchor.starts_with("top") {
        -dy
    } else if anchor.starts_with("bottom") {
        dy
    } else {
        0.0
    };
    (x.round(), y.round())
}

/// The default margin of an anchored position: 5 % of the canvas's shorter side.
pub(crate) fn default_margin(canvas: Canvas) -> f64 {
    (0.05 * canvas.width.min(canvas.height) as f64).round()
}

/// What update_clip reports for one element: the properties it has, in their units
/// (crate::properties).
fn clip_summary(e: &Element) -> Value {
    let v = |path: &str| properties::find(path).map_or(Value::Null, |p| p.value(e, 0));
    let mut o = Map::new();
    crate::text::put(&mut o, "elementId", e.id.as_str().into());
    if is_visual(e.kind) {
        crate::text::put(&mut o, "position", crate::text::obj([("x", v("transform.positionX")), ("y", v("transform.positionY"))]));
        crate::text::put(&mut o, "scale", crate::text::obj([("x", v("transform.scaleX")), ("y", v("transform.scaleY"))]));
        crate::text::put(&mut o, "rotation", v("transform.rotate"));
        crate::text::put(&mut o, "opacity", v("opacity"));
        crate::text::put(&mut o, "blendMode", v("blendMode"));
        crate::text::put(&mut o, "hidden", v("hidden"));
    }
    if e.kind.has_volume() {
        crate::text::put(&mut o, "volume", v("volume"));
        crate::text::put(&mut o, "muted", v("muted"));
    }
    Value::Object(o)
}
