//! update_clip's `mask`: the shape and its parameters, checked against crate::masks, and the
//! mask it leaves on an element, `{ id, type, params }` as OpenCut's masks panel writes it.

use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use super::out_of_range;
use crate::masks::{self, Takes, KINDS};
use crate::model::Element;
use crate::tools::args::Read;
use crate::tools::ToolError;

// The schema of `mask` (what MCP, WebMCP and Gemini are shown); `parse` reads it part by part,
// each part with its own message (crate::masks holds the ranges).
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct MaskArg {
    /// The shape, or "none" to take the mask away
    #[schemars(extend("enum" = ["none", "rectangle", "ellipse", "diamond", "star", "heart", "cinematic-bars", "split", "text", "freeform"]))]
    r#type: String,
    /// The shape's centre from the element's centre, a fraction of its width (-1 to 1)
    #[schemars(range(min = -1, max = 1))]
    center_x: Option<f64>,
    /// The same, a fraction of its height, +y down
    #[schemars(range(min = -1, max = 1))]
    center_y: Option<f64>,
    /// Box shapes: width as a fraction of the element's (default a square of 0.6 of its shorter side)
    #[schemars(range(min = 0.01))]
    width: Option<f64>,
    /// Box shapes: height as a fraction of the element's
    #[schemars(range(min = 0.01))]
    height: Option<f64>,
    /// Degrees, clockwise (a split's line turns about its centre)
    #[schemars(range(min = 0, max = 360))]
    rotation: Option<f64>,
    /// Text and freeform: a factor on the shape's size (default 1)
    #[schemars(range(min = 0.01, max = 5))]
    scale: Option<f64>,
    /// Soft edge, in canvas pixels across the outline
    #[schemars(range(min = 0, max = 1000))]
    feather: Option<f64>,
    /// Show what is outside the shape instead
    inverted: Option<bool>,
    /// Outline colour, #rrggbb
    stroke_color: Option<String>,
    /// Outline width in canvas pixels (0: none)
    #[schemars(range(min = 0, max = 100))]
    stroke_width: Option<f64>,
    /// Where the outline runs: inside, on or outside the shape's edge
    #[schemars(extend("enum" = ["inside", "center", "outside"]))]
    stroke_align: Option<String>,
    /// Text: the words the picture shows through (default "Mask"; lines split at \n)
    #[schemars(length(min = 1, max = 1000))]
    content: Option<String>,
    /// Text: OpenCut's text size (default 15, a sixth of the element's height per line)
    #[schemars(range(min = 5, max = 300))]
    font_size: Option<f64>,
    /// Text: font family (default Arial)
    #[schemars(length(min = 1, max = 200))]
    font_family: Option<String>,
    /// Text
    #[schemars(extend("enum" = crate::properties::FONT_WEIGHTS))]
    font_weight: Option<String>,
    /// Text
    #[schemars(extend("enum" = crate::properties::FONT_STYLES))]
    font_style: Option<String>,
    /// Text
    #[schemars(extend("enum" = crate::properties::TEXT_DECORATIONS))]
    text_decoration: Option<String>,
    /// Text: extra pixels between letters
    #[schemars(range(min = -100, max = 500))]
    letter_spacing: Option<f64>,
    /// Text: line spacing, a factor of the font size (default 1.2)
    #[schemars(range(min = 0.1, max = 10))]
    line_height: Option<f64>,
    /// Freeform: the outline's points in order, each a cubic bezier's anchor with its in and out handles
    #[schemars(length(min = 1, max = 1000))]
    path: Option<Vec<PathPoint>>,
    /// Freeform: whether the last point joins the first (default true for a new path; an open path masks nothing)
    closed: Option<bool>,
}

// A freeform point: fractions of the element's width (x) and height (y) from the mask's centre.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
struct PathPoint {
    /// The point's id as get_element shows it (kept; new points get one)
    id: Option<String>,
    /// Anchor, a fraction of the element's width from the mask's centre (-10 to 10)
    x: f64,
    /// Anchor, a fraction of its height, +y down
    y: f64,
    /// Handle into the point, an offset from it (default 0: a corner)
    in_x: Option<f64>,
    in_y: Option<f64>,
    /// Handle out of the point, an offset from it
    out_x: Option<f64>,
    out_y: Option<f64>,
}

impl Read for MaskArg {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        v.is_object().then_some(v)
    }
}

/// What update_clip does to an element's mask.
pub enum MaskChange {
    Remove,
    /// A shape, with the parameters the call gave (the rest are the mask's own or the defaults).
    Set {
        kind: &'static str,
        given: Map<String, Value>,
    },
}

fn is_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Reads `mask` (already known to be an object).
pub fn parse(v: &Value) -> Result<MaskChange, ToolError> {
    let o = v.as_object().ok_or_else(|| out_of_range("mask", "an object with a type"))?;
    let kind_name = o.get("type").and_then(Value::as_str);
    if kind_name == Some("none") {
        return if o.len() == 1 { Ok(MaskChange::Remove) } else { Err(out_of_range("mask", "{\"type\": \"none\"} alone, to take the mask away")) };
    }
    let Some(kind) = kind_name.and_then(|k| KINDS.iter().find(|x| **x == k)) else {
        return Err(out_of_range("mask.type", &format!("one of: none, {}", KINDS.join(", "))));
    };
    let mut given = Map::new();
    for (key, value) in o {
        if key == "type" {
            continue;
        }
        let Some(p) = masks::param(kind, key) else {
            return Err(out_of_range("mask", &format!("{{type, ...}} with only: {}", masks::keys(kind))));
        };
        let ok = match p.takes {
            Takes::Number(min, max) => value.as_f64().is_some_and(|x| x.is_finite() && x >= min && max.is_none_or(|m| x <= m)),
            Takes::Bool => value.is_boolean(),
            Takes::Colour => value.as_str().is_some_and(is_colour),
            Takes::Word(words) => value.as_str().is_some_and(|s| words.contains(&s)),
            Takes::Text(most) => value.as_str().is_some_and(|s| !s.trim().is_empty() && s.chars().count() <= most),
            Takes::Path => {
                given.insert(key.clone(), path(value, p.range)?);
                continue;
            }
        };
        if !ok {
            return Err(out_of_range(&format!("mask.{key}"), p.range));
        }
        given.insert(key.clone(), value.clone());
    }
    Ok(MaskChange::Set { kind, given })
}

/// A freeform path's points, checked: each `{id?, x, y, inX?, inY?, outX?, outY?}` (handles 0
/// when left out, as OpenCut's pen makes a corner).
fn path(v: &Value, range: &str) -> Result<Value, ToolError> {
    let points = v.as_array().filter(|a| !a.is_empty() && a.len() <= masks::PATH_POINTS.1).ok_or_else(|| out_of_range("mask.path", range))?;
    let mut out = Vec::with_capacity(points.len());
    for (i, point) in points.iter().enumerate() {
        let at = |k: &str| format!("mask.path[{i}]{k}");
        let o = point.as_object().filter(|o| o.keys().all(|k| k == "id" || masks::POINT_KEYS.contains(&k.as_str())));
        let o = o.ok_or_else(|| out_of_range(&at(""), "a point {x, y, inX, inY, outX, outY} (id and the handles may be left out)"))?;
        // The id first, as OpenCut's pen writes a point; null until `apply` gives it one.
        let mut q = Map::new();
        let id = o.get("id").map_or(Some(Value::Null), |id| id.as_str().filter(|s| !s.is_empty()).map(Value::from));
        q.insert("id".into(), id.ok_or_else(|| out_of_range(&at(".id"), "a point id (a string)"))?);
        for k in masks::POINT_KEYS {
            let (most, range) = masks::POINT_RANGE;
            let x = match o.get(k) {
                None if k == "x" || k == "y" => None,
                None => Some(0.0),
                Some(x) => x.as_f64().filter(|x| x.is_finite() && x.abs() <= most),
            };
            let x = x.ok_or_else(|| out_of_range(&at(&format!(".{k}")), range))?;
            q.insert(k.into(), crate::effects::number(x));
        }
        out.push(Value::Object(q));
    }
    Ok(Value::Array(out))
}

/// The parameters `e`'s mask has after `change`: the same shape keeps its own and takes the given
/// ones; another starts from OpenCut's defaults for an element drawn `size` pixels (a new
/// freeform path closed unless the call says not, as the pen leaves a finished one).
fn next(e: &Element, kind: &str, given: &Map<String, Value>, size: (f64, f64)) -> (bool, Map<String, Value>) {
    let (same, mut params) = match masks::first(e) {
        Some((k, p)) if k == kind => (true, p.clone()),
        _ => (false, masks::defaults(kind, size.0, size.1)),
    };
    if kind == "freeform" && !same {
        params.insert("closed".into(), true.into());
    }
    for (k, v) in given {
        params.insert(k.clone(), v.clone());
    }
    (same, params)
}

/// Refuses a change that would leave a closed freeform path of fewer than 3 points (read before
/// anything changes, so a refused call changes nothing).
pub fn check(e: &Element, change: &MaskChange) -> Result<(), ToolError> {
    let MaskChange::Set { kind: "freeform", given } = change else {
        return Ok(());
    };
    let old = masks::first(e).filter(|(k, _)| *k == "freeform").map(|(_, p)| p);
    let get = |k: &str| given.get(k).or_else(|| old?.get(k));
    // A new path is closed unless the call says not; an old one without `closed` is open.
    let closed = get("closed").map_or(old.is_none(), |c| c == &Value::Bool(true));
    if closed && get("path").and_then(Value::as_array).map_or(0, Vec::len) < masks::PATH_POINTS.0 {
        return Err(out_of_range("mask.path", "at least 3 points for a closed path (closed: false keeps an open one, which masks nothing)"));
    }
    Ok(())
}

/// Gives `e` the mask `change` asks for (`next`); its id and its path points' ids (by position)
/// stay when the shape does, new ones come from `new_id`.
pub fn apply(e: &mut Element, change: &MaskChange, size: (f64, f64), mut new_id: impl FnMut(char) -> String) {
    let MaskChange::Set { kind, given } = change else {
        return masks::set(e, None);
    };
    let (same, mut params) = next(e, kind, given, size);
    let old = masks::first(e).filter(|_| same);
    let id = old.and(masks::first_id(e)).map_or_else(|| new_id('m'), str::to_string);
    let old_path = old.and_then(|(_, p)| p.get("path")?.as_array());
    if let Some(Value::Array(points)) = params.get_mut("path") {
        // Every point keeps one id of its own: OpenCut's pen removes points by id, so two alike
        // would go together; a point without one takes the old path's at its place, if free.
        let mut used: Vec<String> = Vec::with_capacity(points.len());
        for (i, point) in points.iter_mut().enumerate() {
            // An imported path's odd entry (not a point) is kept as it came; OpenCut skips it too.
            let Some(o) = point.as_object_mut() else { continue };
            let own = o.get("id").and_then(Value::as_str).map(str::to_string);
            let kept = own.or_else(|| old_path.and_then(|p| p.get(i)?.get("id")?.as_str()).map(str::to_string));
            let id = kept.filter(|k| !used.contains(k)).unwrap_or_else(|| new_id('p'));
            o.insert("id".into(), id.as_str().into());
            used.push(id);
        }
    }
    masks::set(e, Some(json!({ "id": id, "type": kind, "params": params })));
}
