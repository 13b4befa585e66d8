//! Tools that add or change one element: add_text, update_text, add_media_to_timeline,
//! add_sticker, add_graphic, set_volume.

pub mod add_graphic;
pub mod add_media_to_timeline;
pub mod add_sticker;
pub mod add_text;
pub mod set_volume;
pub mod update_text;

use serde_json::{Map, Value};

use super::args::{NonEmpty, Read};
use super::{edit_error, element_on_track, timeline_mut, Arg, Ctx, Output, ToolError};
use crate::edits;
use crate::model::{AssetType, Canvas, Element, ElementType, TrackType};
use crate::properties::{self, PropertyKind};
use crate::stickers;
use crate::text::Num;
use crate::time::TICKS_PER_SECOND;

/// How long an image stays on screen when add_media_to_timeline is given no duration.
pub const IMAGE_DEFAULT_TICKS: i64 = 5 * TICKS_PER_SECOND;

pub const TEXT_POSITIONS: [&str; 3] = ["top", "center", "bottom"];
pub const TEXT_STYLES: [&str; 4] = ["plain", "subtitle", "hook", "label"];
pub const STICKER_POSITIONS: [&str; 5] = ["top-left", "top-right", "center", "bottom-left", "bottom-right"];

crate::tools::args::choices! {
    TextPositions = TEXT_POSITIONS;
    TextStyles = TEXT_STYLES;
    StickerPositions = STICKER_POSITIONS;
    FontWeights = properties::FONT_WEIGHTS;
    FontStyles = properties::FONT_STYLES;
    TextAligns = properties::TEXT_ALIGNS;
    TextDecorations = properties::TEXT_DECORATIONS;
}

/// A text tool's `Arguments`: its own fields, then OpenCut's text settings, declared once for
/// add_text and update_text (with `text_settings()`, the settings given, each under its property path).
macro_rules! text_arguments {
    ($($own:tt)*) => {
        crate::tools::registry::arguments! {
            pub struct Arguments {
                $($own)*
                /// Font family, a name from the host's font list (OpenCut's default Arial)
                font_family: Arg<Option<NonEmpty>>,
                /// Text size in canvas pixels
                #[schemars(range(min = 0))]
                font_size: Arg<Option<f64>>,
                /// Text colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a)
                color: Arg<Option<String>>,
                font_weight: Arg<Option<Choice<FontWeights>>>,
                font_style: Arg<Option<Choice<FontStyles>>>,
                /// Which edge of the text sits on its position (OpenCut's default center)
                text_align: Arg<Option<Choice<TextAligns>>>,
                text_decoration: Arg<Option<Choice<TextDecorations>>>,
                /// Extra pixels between letters (OpenCut's default 0)
                #[schemars(range(min = -100))]
                letter_spacing: Arg<Option<f64>>,
                /// Line spacing, a multiple of the font size (OpenCut's default 1.2)
                #[schemars(range(min = 0.1))]
                line_height: Arg<Option<f64>>,
                /// A box behind the text; drawn unless enabled is false (update_text: only the keys given change)
                background: Arg<Option<TextBox>>,
            }
        }

        impl Arguments {
            /// The text settings given, each under its property path.
            fn text_settings(&self) -> [(&'static str, Option<&serde_json::Value>); 9] {
                [
                    ("fontFamily", self.font_family.get()),
                    ("fontSize", self.font_size.get()),
                    ("color", self.color.get()),
                    ("fontWeight", self.font_weight.get()),
                    ("fontStyle", self.font_style.get()),
                    ("textAlign", self.text_align.get()),
                    ("textDecoration", self.text_decoration.get()),
                    ("letterSpacing", self.letter_spacing.get()),
                    ("lineHeight", self.line_height.get()),
                ]
            }
        }
    };
}
pub(crate) use text_arguments;

/// The text's background box, OpenCut's `background.*` params. Read as an object; each key is
/// checked against its property (crate::properties).
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct TextBox {
    /// Whether the box is drawn (default true: giving background turns it on)
    enabled: Option<bool>,
    /// Box colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000)
    color: Option<String>,
    /// Space left and right of the text, in pixels at the default font size, growing with the font (default 30)
    #[schemars(range(min = 0))]
    padding_x: Option<f64>,
    /// Space above and below the text, as paddingX (default 42)
    #[schemars(range(min = 0))]
    padding_y: Option<f64>,
    /// Shift of the box from the text, pixels (+ is right)
    #[schemars(range(min = -100000))]
    offset_x: Option<f64>,
    /// Shift of the box from the text, pixels (+ is down)
    #[schemars(range(min = -100000))]
    offset_y: Option<f64>,
    /// Corner rounding, percent of half the box's shorter side (0 square, 100 round ends)
    #[schemars(range(min = 0, max = 100))]
    corner_radius: Option<f64>,
}

impl Read for TextBox {
    type Out<'a> = &'a Map<String, Value>;
    fn of(v: &Value) -> Option<&Map<String, Value>> {
        v.as_object()
    }
}

/// The box's keys and their properties, `enabled` first: a box given is drawn unless it says
/// `enabled: false`, and its colour lands on the box as it then is (on, or kept while off).
const BOX: [(&str, &str); 7] = [
    ("enabled", "background.enabled"),
    ("color", "background.color"),
    ("paddingX", "background.paddingX"),
    ("paddingY", "background.paddingY"),
    ("offsetX", "background.offsetX"),
    ("offsetY", "background.offsetY"),
    ("cornerRadius", "background.cornerRadius"),
];

/// Sets the text params add_text and update_text were given (`(param, value)`, the param being
/// its property path) and the background box, each checked against its property: OpenCut's
/// options and bounds.
fn set_text_style(e: &mut Element, given: &[(&'static str, Option<&Value>)], background: Option<&Value>) -> Result<(), ToolError> {
    for (path, v) in given {
        if let Some(v) = v {
            set_checked(e, path, v)?;
        }
    }
    let Some(bg) = background else { return Ok(()) };
    let bad = || ToolError::invalid_argument("background", "an object of enabled, color, paddingX, paddingY, offsetX, offsetY, cornerRadius");
    let bg = bg.as_object().ok_or_else(bad)?;
    if bg.keys().any(|k| !BOX.iter().any(|(key, _)| key == k)) {
        return Err(bad());
    }
    for (key, path) in BOX {
        match bg.get(key) {
            Some(v) => set_checked(e, path, v)?,
            None if key == "enabled" => set_checked(e, path, &Value::Bool(true))?,
            None => {}
        }
    }
    Ok(())
}

/// One value onto its property, or the error naming it and what the property takes.
fn set_checked(e: &mut Element, path: &str, v: &Value) -> Result<(), ToolError> {
    set_named(e, path, path, v)
}

/// [`set_checked`] for an argument whose name is not the property's path (`stroke.width`).
pub(crate) fn set_named(e: &mut Element, path: &str, argument: &str, v: &Value) -> Result<(), ToolError> {
    let p = properties::find(path).expect("a property of the table");
    let ok = match p.kind {
        PropertyKind::Number => {
            v.as_f64().is_some_and(|n| n.is_finite() && p.min.is_none_or(|m| n >= m) && p.max.is_none_or(|m| n <= m) && (path != "fontSize" || n > 0.0))
        }
        PropertyKind::Color => v.as_str().and_then(crate::animation::parse_color).is_some(),
        PropertyKind::Text => v.as_str().is_some_and(|s| !s.trim().is_empty() && (p.choices.is_empty() || p.choices.contains(&s))),
        PropertyKind::Flag => v.is_boolean(),
    };
    if !ok {
        let rule = match p.kind {
            PropertyKind::Number => match (p.min, p.max) {
                (Some(lo), Some(hi)) => format!("a number from {} to {}", Num(lo), Num(hi)),
                (Some(lo), None) => format!("a number >= {}", Num(lo)),
                _ if path == "fontSize" => "a number of pixels > 0".to_string(),
                _ => "a number".to_string(),
            },
            PropertyKind::Color => COLOUR_RULE.to_string(),
            PropertyKind::Text if !p.choices.is_empty() => crate::tools::args::one_of(p.choices),
            PropertyKind::Text => "a non-empty string".to_string(),
            PropertyKind::Flag => "true or false".to_string(),
        };
        return Err(ToolError::invalid_argument(argument, &rule));
    }
    p.set(e, Some(v.clone()));
    Ok(())
}

/// What a colour argument takes.
pub const COLOUR_RULE: &str = "a colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a)";

/// A required `[start, end)` range in seconds with `start >= 0` and `start < end`.
fn range(start: &Arg<f64>, end: &Arg<f64>, err: fn() -> ToolError) -> Result<(i64, i64), ToolError> {
    match (start.seconds(), end.seconds()) {
        (Ok(s), Ok(e)) if s >= 0 && s < e => Ok((s, e)),
        _ => Err(err()),
    }
}

/// Where a named position puts an element's centre, as a pixel offset from the canvas centre.
/// Text keeps a 15 % safe margin from the top and bottom edges; stickers sit that far in from
/// the corners.
pub fn placement(canvas: Canvas, position: &str) -> (f64, f64) {
    let (w, h) = (canvas.width as f64, canvas.height as f64);
    let margin = 0.15 * w.min(h);
    let (dx, dy) = (w / 2.0 - margin, h / 2.0 - margin);
    match position {
        "top" => (0.0, -dy),
        "bottom" => (0.0, dy),
        "top-left" => (-dx, -dy),
        "top-right" => (dx, -dy),
        "bottom-left" => (-dx, dy),
        "bottom-right" => (dx, dy),
        _ => (0.0, 0.0),
    }
}

/// Style presets: font size (pixels at a 1080-pixel-high canvas), weight, colour, background.
fn apply_style(e: &mut Element, style: &str, canvas: Canvas) {
    let (size, weight, color, background) = match style {
        "subtitle" => (44.0, "normal", "#ffffff", Some("rgba(0,0,0,0.6)")),
        "hook" => (80.0, "bold", "#ffffff", None),
        "label" => (32.0, "bold", "#000000", Some("#ffffff")),
        _ => (56.0, "normal", "#ffffff", None),
    };
    e.style = Some(style.to_string());
    e.font_size = Some((size * canvas.height as f64 / 1080.0).round());
    e.font_weight = Some(weight.to_string());
    e.color = Some(color.to_string());
    e.background = background.map(str::to_string);
}

/// A caption's look: a style preset and a named position, as add_text gives them.
pub(crate) fn caption_style(e: &mut Element, style: &str, position: &str, canvas: Canvas) {
    apply_style(e, style, canvas);
    set_position(e, position, canvas);
}

fn set_position(e: &mut Element, position: &str, canvas: Canvas) {
    let (x, y) = placement(canvas, position);
    e.position = Some(position.to_string());
    e.x = Some(x);
    e.y = Some(y);
}

/// A short name for the timeline view: the first words of the text.
fn text_name(text: &str) -> String {
    let mut name: String = text.chars().take(32).collect();
    if text.chars().count() > 32 {
        name.push('…');
    }
    name
}

fn required_text(text: &Arg<Option<NonEmpty>>) -> Result<Option<&str>, ToolError> {
    match text.read() {
        Ok(t) if t.is_none_or(|s| !s.trim().is_empty()) => Ok(t),
        _ => Err(ToolError::text_required()),
    }
}

fn placed(ctx: &Ctx, ti: usize, id: &str) -> Value {
    let track = &ctx.timeline.as_ref().expect("placed after a timeline edit").tracks[ti];
    crate::text::obj([("elementId", serde_json::Value::from(id)), ("trackId", serde_json::Value::from(track.id.as_str()))])
}
