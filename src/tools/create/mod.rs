//! Tools that add or change one element: add_text, update_text, add_media_to_timeline,
//! add_sticker, set_volume.

pub mod add_media_to_timeline;
pub mod add_sticker;
pub mod add_text;
pub mod set_volume;
pub mod update_text;

use serde_json::Value;

use super::args::NonEmpty;
use super::{edit_error, element_on_track, timeline_mut, Arg, Ctx, Output, ToolError};
use crate::edits;
use crate::model::{AssetType, Canvas, Element, ElementType, TrackType};
use crate::stickers;
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
}

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
