//! A graphic's look as the tools take it (add_graphic, and update_clip's `graphic`): fill, an
//! aligned stroke and its shape's own params, each checked against its property
//! (crate::properties) and against the shape (crate::graphics), and written under OpenCut's keys.

use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::error_code::ErrorCode;
use crate::graphics;
use crate::model::Element;
use crate::tools::args::Read;
use crate::tools::create::set_named;
use crate::tools::ToolError;

/// A graphic's outline, OpenCut's stroke group.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct GraphicStroke {
    /// Outline colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000)
    color: Option<String>,
    /// Outline width in pixels of the 512-pixel shape, growing with its drawn size (default 0: no outline)
    #[schemars(range(min = 0, max = 64))]
    width: Option<f64>,
    /// Where the outline sits on the shape's edge (default center)
    #[schemars(extend("enum" = crate::properties::STROKE_ALIGNS))]
    align: Option<String>,
}

impl Read for GraphicStroke {
    type Out<'a> = &'a Map<String, Value>;
    fn of(v: &Value) -> Option<&Map<String, Value>> {
        v.as_object()
    }
}

/// What update_clip's `graphic` changes: the keys add_graphic takes for a graphic's look.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct GraphicLook {
    /// Fill colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a)
    fill: Option<String>,
    stroke: Option<GraphicStroke>,
    /// Corner rounding of a rectangle or polygon, 0 to 50 (50 fully round)
    #[schemars(range(min = 0, max = 50))]
    corner_radius: Option<f64>,
    /// A polygon's sides, 3 to 12
    #[schemars(range(min = 3, max = 12))]
    sides: Option<f64>,
    /// A star's points, 3 to 12
    #[schemars(range(min = 3, max = 12))]
    points: Option<f64>,
    /// A star's inner radius, percent of its outer radius, 1 to 99
    #[schemars(range(min = 1, max = 99))]
    depth: Option<f64>,
}

impl Read for GraphicLook {
    type Out<'a> = &'a Map<String, Value>;
    fn of(v: &Value) -> Option<&Map<String, Value>> {
        v.as_object()
    }
}

/// The look's keys besides `stroke`, each OpenCut's definition param of the same name.
pub const LOOK: [&str; 5] = ["fill", "cornerRadius", "sides", "points", "depth"];

/// The stroke's keys and the definition params they set.
const STROKE: [(&str, &str); 3] = [("color", "stroke"), ("width", "strokeWidth"), ("align", "strokeAlign")];

/// The property paths a look sets (`params.fill`, `params.strokeWidth`, …), for the warning about
/// keyframes that override them.
pub fn paths(look: &Map<String, Value>) -> Vec<String> {
    let stroke = look.get("stroke").and_then(Value::as_object);
    let keys = LOOK.iter().filter(|k| look.contains_key(**k)).copied();
    let stroke_keys = STROKE.iter().filter(|(name, _)| stroke.is_some_and(|s| s.contains_key(*name))).map(|(_, key)| *key);
    keys.chain(stroke_keys).map(|k| format!("{}{k}", graphics::PATH_PREFIX)).collect()
}

/// Sets the look given as an object of [`LOOK`] keys and `stroke` on `e`, a graphic: each value
/// checked against its property and the shape. Callers work on a copy and drop it on an error.
/// `prefix` goes before each argument name in errors (`graphic.` for update_clip's).
pub fn set(e: &mut Element, look: &Map<String, Value>, prefix: &str) -> Result<(), ToolError> {
    if let Some(k) = look.keys().find(|k| *k != "stroke" && !LOOK.contains(&k.as_str())) {
        return Err(ToolError::invalid_argument(&format!("{prefix}{k}"), "one of a graphic's params: fill, stroke, cornerRadius, sides, points, depth"));
    }
    for key in LOOK {
        if let Some(v) = look.get(key) {
            param(e, key, &format!("{prefix}{key}"), v)?;
        }
    }
    match look.get("stroke") {
        None => Ok(()),
        Some(Value::Object(s)) => {
            if let Some(k) = s.keys().find(|k| !STROKE.iter().any(|(name, _)| name == k)) {
                return Err(ToolError::invalid_argument(&format!("{prefix}stroke.{k}"), "one of color, width, align"));
            }
            for (name, key) in STROKE {
                if let Some(v) = s.get(name) {
                    param(e, key, &format!("{prefix}stroke.{name}"), v)?;
                }
            }
            Ok(())
        }
        Some(_) => Err(ToolError::invalid_argument(&format!("{prefix}stroke"), "an object of color, width, align")),
    }
}

/// One definition param onto `e`, refused when its shape does not have it.
fn param(e: &mut Element, key: &str, argument: &str, v: &Value) -> Result<(), ToolError> {
    let def = e.definition_id.as_deref().unwrap_or_default();
    let Some(shape) = graphics::shape(def) else {
        let msg = format!("Graphic {} has the shape \"{def}\", which OpenCut does not draw; its look cannot be set", e.id);
        return Err(ToolError::new(ErrorCode::PropertyNotSupported, msg).with("property", argument).with("element", e.id.as_str()));
    };
    if !shape.params.contains(&key) {
        // The argument names: fill, stroke, then the shape's own.
        let own = shape.params.iter().filter(|k| LOOK.contains(k) && **k != "fill").copied();
        let takes: Vec<&str> = ["fill", "stroke"].into_iter().chain(own).collect();
        let a = crate::text::capitalize(crate::tools::error::article(shape.id));
        let msg = format!("{a} {} has no {key}; it takes {}", shape.id, takes.join(", "));
        return Err(ToolError::new(ErrorCode::PropertyNotSupported, msg).with("property", argument).with("element", e.id.as_str()));
    }
    let path = graphics::property(key).expect("every definition param is a property (graphics::tests)").path;
    set_named(e, path, argument, v)?;
    // OpenCut rounds sides and points when it draws (polygon.ts, star.ts); store what it draws.
    if matches!(key, "sides" | "points") {
        if let Some(params) = e.params.as_mut() {
            let n = params.get(key).and_then(Value::as_f64).unwrap_or(5.0).round();
            params.insert(key.into(), crate::effects::number(n));
        }
    }
    Ok(())
}
