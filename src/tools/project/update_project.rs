//! update_project (Update project settings): its definition, argument and result types, and run function.

use super::*;
use crate::model::Background;
use crate::tools::registry::prelude::*;
use serde_json::Value;

pub static DEF: ToolDef = ToolDef {
    name: "update_project",
    title: text!("Update project settings"),
    summary: text!("Set the canvas background"),
    description: text!("Change the project's settings, as one undo step. background is what the canvas shows under every layer, as OpenCut's Background panel sets it: a colour (\"#1e1e1e\", rgb(), rgba(), or \"transparent\" for none), or {\"type\":\"blur\",\"blurIntensity\":200}, the main track's picture blurred behind everything (OpenCut's presets: 100 light, 200 medium, 500 heavy; default 10). {\"type\":\"color\",\"color\":…} is the colour's long form."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["update_project needs background", "No active timeline"]),
    example: text!(r##"{"background":"#1e1e1e"}"##),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// A colour, or {type: "blur", blurIntensity}
        background: Arg<Option<CanvasBackground>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        /// The background as the project now stores it (OpenCut's settings.background)
        background: AnyObject,
    }
}

// The canvas background: a colour's text, or OpenCut's object form.
#[derive(JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[schemars(transform = one_of)]
#[allow(dead_code)]
enum CanvasBackground {
    Color(String),
    Stored {
        #[schemars(extend("enum" = ["color", "blur"]))]
        r#type: String,
        /// For type color
        color: Option<String>,
        /// For type blur: OpenCut's blur intensity (default 10)
        #[schemars(range(min = 0))]
        #[serde(rename = "blurIntensity")]
        blur_intensity: Option<f64>,
    },
}

impl Read for CanvasBackground {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        (v.is_string() || v.is_object()).then_some(v)
    }
}

const BACKGROUND_RULE: &str = "a colour (#rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a) or \"transparent\"), {\"type\": \"color\", \"color\": …} or {\"type\": \"blur\", \"blurIntensity\": number >= 0}";

/// A colour OpenCut's background takes: what the frame can parse, or "transparent".
fn colour(v: Option<&Value>) -> Option<String> {
    let s = v?.as_str()?;
    (s == "transparent" || crate::animation::parse_color(s).is_some()).then(|| s.to_string())
}

fn background(v: &Value) -> Option<Background> {
    let Some(o) = v.as_object() else { return colour(Some(v)).map(Background::Color) };
    let keys: &[&str] = match o.get("type").and_then(Value::as_str)? {
        "color" => &["type", "color"],
        "blur" => &["type", "blurIntensity"],
        _ => return None,
    };
    if o.keys().any(|k| !keys.contains(&k.as_str())) {
        return None;
    }
    match keys[1] {
        "color" => colour(o.get("color")).map(Background::Color),
        _ => match o.get("blurIntensity") {
            None => Some(Background::Blur(Background::DEFAULT_BLUR)),
            Some(i) => i.as_f64().filter(|i| i.is_finite() && *i >= 0.0).map(Background::Blur),
        },
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let Some(given) = args.background.get() else {
        return Err(ToolError::new(crate::error_code::ErrorCode::NoProperties, "update_project needs background"));
    };
    let bg = background(given).ok_or_else(|| ToolError::invalid_argument("background", BACKGROUND_RULE))?;
    // The background's undo step is the timeline's: a project without one has no history.
    timeline_mut(&mut ctx.timeline)?;
    let mut settings = ctx.settings();
    settings.set_background(&bg);
    let stored = settings.extra["background"].clone();
    ctx.settings = Some(settings);
    Ok(serde_json::json!({ "success": true, "background": stored }).into())
}
