//! update_clip's `mask`: the shape and its parameters, checked against crate::masks, and the
//! mask it leaves on an element, `{ id, type, params }` as OpenCut's masks panel writes it.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::out_of_range;
use crate::masks::{self, KINDS, STROKE_ALIGN};
use crate::model::Element;
use crate::tools::args::Read;
use crate::tools::ToolError;

// The schema of `mask` (what MCP, WebMCP and Gemini are shown); `parse` reads it part by part,
// each part with its own message.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct MaskArg {
    /// The shape, or "none" to take the mask away
    #[schemars(extend("enum" = ["none", "rectangle", "ellipse", "diamond", "star", "heart", "cinematic-bars", "split"]))]
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
        let name = format!("mask.{key}");
        if let Some(p) = masks::numbers(kind).find(|p| p.key == key) {
            let ok = value.as_f64().filter(|x| x.is_finite() && *x >= p.min && p.max.is_none_or(|m| *x <= m));
            if ok.is_none() {
                return Err(out_of_range(&name, p.range));
            }
        } else {
            let ok = match key.as_str() {
                "inverted" => value.is_boolean(),
                "strokeColor" => value.as_str().is_some_and(is_colour),
                "strokeAlign" => value.as_str().is_some_and(|s| STROKE_ALIGN.contains(&s)),
                _ => return Err(out_of_range("mask", &format!("{{type, ...}} with only: {}", masks::keys(kind).join(", ")))),
            };
            if !ok {
                let range = match key.as_str() {
                    "inverted" => "true or false",
                    "strokeColor" => "a colour as #rrggbb",
                    _ => "inside, center or outside",
                };
                return Err(out_of_range(&name, range));
            }
        }
        given.insert(key.clone(), value.clone());
    }
    Ok(MaskChange::Set { kind, given })
}

/// Gives `e` the mask `change` asks for: the same shape keeps its id and parameters and takes the
/// given ones; another shape starts from OpenCut's defaults for an element drawn `size` pixels.
pub fn apply(e: &mut Element, change: &MaskChange, size: (f64, f64), new_id: impl FnOnce() -> String) {
    match change {
        MaskChange::Remove => masks::set(e, None),
        MaskChange::Set { kind, given } => {
            let (id, mut params) = match masks::first(e) {
                Some((k, p)) if k == *kind => (masks::first_id(e).map_or_else(new_id, str::to_string), p.clone()),
                _ => (new_id(), masks::defaults(kind, size.0, size.1)),
            };
            for (k, v) in given {
                params.insert(k.clone(), v.clone());
            }
            masks::set(e, Some(json!({ "id": id, "type": kind, "params": params })));
        }
    }
}
