//! Tools that add or change one element: add_text, update_text, add_media_to_timeline,
//! add_sticker, set_volume.

use serde_json::{json, Value};

use super::{Output, edit_error, timeline_mut, Args, Ctx, ToolError};
use crate::edits;
use crate::stickers;
use crate::model::{AssetType, Canvas, Element, ElementType, TrackType};
use crate::time::TICKS_PER_SECOND;

/// How long an image stays on screen when add_media_to_timeline is given no duration.
pub const IMAGE_DEFAULT_TICKS: i64 = 5 * TICKS_PER_SECOND;

pub const TEXT_POSITIONS: [&str; 3] = ["top", "center", "bottom"];
pub const TEXT_STYLES: [&str; 4] = ["plain", "subtitle", "hook", "label"];
pub const STICKER_POSITIONS: [&str; 5] = ["top-left", "top-right", "center", "bottom-left", "bottom-right"];

/// A required `[start, end)` range in seconds with `start >= 0` and `start < end`.
fn range(args: &Args, err: fn() -> ToolError) -> Result<(i64, i64), ToolError> {
    match (args.seconds("start"), args.seconds("end")) {
        (Ok(Some(s)), Ok(Some(e))) if s >= 0 && s < e => Ok((s, e)),
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

fn required_text<'a>(args: &Args<'a>) -> Result<Option<&'a str>, ToolError> {
    match args.get("text") {
        None => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.as_str())),
        Some(_) => Err(ToolError::text_required()),
    }
}

fn placed(ctx: &Ctx, ti: usize, id: &str) -> Value {
    let track = &ctx.timeline.as_ref().expect("placed after a timeline edit").tracks[ti];
    json!({ "elementId": id, "trackId": track.id })
}

pub fn add_text(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let text = required_text(&args)?.ok_or_else(ToolError::text_required)?;
    let (start, end) = range(&args, ToolError::invalid_range)?;
    let position = args
        .choice("position", &TEXT_POSITIONS)?
        .ok_or_else(|| ToolError::invalid_argument("position", &super::args::one_of(&TEXT_POSITIONS)))?;
    let style = args.choice("style", &TEXT_STYLES)?.unwrap_or("plain");
    let canvas = ctx.settings().canvas;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), ElementType::Text, start, end - start);
    e.name = Some(text_name(text).into());
    e.content = Some(text.to_string());
    apply_style(&mut e, style, canvas);
    set_position(&mut e, position, canvas);
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, TrackType::Text, e, || ids.next('t')).map_err(edit_error)?;
    Ok(placed(ctx, ti, &id).into())
}

pub fn update_text(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let track_id = args.id("trackId", ToolError::text_element_not_found)?;
    let element_id = args.id("elementId", ToolError::text_element_not_found)?;
    let text = required_text(&args)?;
    let start = args.seconds("start").ok().ok_or_else(ToolError::invalid_range)?;
    let end = args.seconds("end").ok().ok_or_else(ToolError::invalid_range)?;
    let position = args.choice("position", &TEXT_POSITIONS)?;
    let canvas = ctx.settings().canvas;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ti = tl.track_index(track_id).ok_or_else(ToolError::text_element_not_found)?;
    let current = tl.tracks[ti].elements.iter().find(|e| e.id == element_id).ok_or_else(ToolError::text_element_not_found)?;
    if current.kind != ElementType::Text {
        return Err(ToolError::not_text());
    }
    let mut e = (**current).clone();
    // Start and end are the text's in and out points: each one given moves that edge only.
    let new_start = start.unwrap_or(e.start);
    let new_end = end.unwrap_or(e.end());
    if new_start < 0 || new_start >= new_end {
        return Err(ToolError::invalid_range());
    }
    e.start = new_start;
    let old_duration = e.duration;
    e.duration = new_end - new_start;
    let ids = &mut ctx.ids;
    edits::fit_animations(&mut e, old_duration, || ids.next('k'));
    if let Some(t) = text {
        e.name = Some(text_name(t).into());
        e.content = Some(t.to_string());
    }
    if let Some(p) = position {
        set_position(&mut e, p, canvas);
    }
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(json!({ "success": true, "elementId": element_id }).into())
}

pub fn add_media_to_timeline(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let asset_id = args.id("assetId", ToolError::asset_not_found)?;
    let start = match args.seconds("startTime") {
        Ok(Some(t)) if t >= 0 => t,
        _ => return Err(ToolError::invalid_start()),
    };
    let track_type = match args.get("trackType").and_then(Value::as_str) {
        Some("main") => TrackType::Main,
        Some("overlay") => TrackType::Overlay,
        Some("audio") => TrackType::Audio,
        _ => return Err(ToolError::invalid_track_type().with_hint("trackType is main or overlay for video and image, audio for audio.")),
    };
    let duration = match args.seconds("duration") {
        Ok(Some(d)) if d <= 0 => return Err(ToolError::invalid_duration()),
        Ok(d) => d,
        Err(()) => return Err(ToolError::invalid_duration()),
    };
    ctx.project()?;
    let asset = ctx.asset(asset_id).ok_or_else(|| ToolError::asset_not_found().with_hint("Call list_project_assets to get asset ids."))?;
    if !track_type.accepts(asset.kind.element_type()) {
        return Err(ToolError::invalid_track_type().with_hint("trackType is main or overlay for video and image, audio for audio."));
    }
    let source = asset.duration_ticks();
    let length = match (asset.kind, duration, source) {
        (AssetType::Image, d, _) => d.unwrap_or(IMAGE_DEFAULT_TICKS),
        (_, Some(d), Some(s)) if d > s => return Err(ToolError::duration_exceeds_source()),
        (_, Some(d), _) => d,
        (_, None, Some(s)) => s,
        (_, None, None) => return Err(ToolError::invalid_duration().with_hint("The asset's duration is unknown; pass duration in seconds.")),
    };
    let tl = timeline_mut(&mut ctx.timeline)?;
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), asset.kind.element_type(), start, length);
    e.name = Some(asset.name.as_str().into());
    e.asset_id = Some(asset.id.as_str().into());
    if asset.kind != AssetType::Image {
        e.trim_end = source.map_or(0, |s| s - length);
    }
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, track_type, e, || ids.next('t')).map_err(edit_error)?;
    Ok(placed(ctx, ti, &id).into())
}

pub fn add_sticker(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let sticker_id = args.id("stickerId", ToolError::sticker_not_found)?;
    let (start, end) = range(&args, ToolError::invalid_range)?;
    let position = args
        .choice("position", &STICKER_POSITIONS)?
        .ok_or_else(|| ToolError::invalid_argument("position", &super::args::one_of(&STICKER_POSITIONS)))?;
    // Like add_media_to_timeline: with no project, say so rather than "Sticker not found".
    ctx.project()?;
    // The host's catalog first (its ids as registered), then OpenCut's built-in providers, which
    // write the id in OpenCut's spelling (`flags:us` becomes `flags:US`).
    let (name, sticker_id) = match ctx.sticker(sticker_id) {
        Some(s) => (s.name.clone(), s.id.clone()),
        None => {
            let s = stickers::resolve(sticker_id).ok_or_else(|| {
                ToolError::sticker_not_found().with_hint("Call list_stickers to find sticker ids (provider:value, such as flags:US).")
            })?;
            (s.name.to_string(), s.id)
        }
    };
    let canvas = ctx.settings().canvas;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), ElementType::Sticker, start, end - start);
    e.name = Some(name.into());
    e.sticker_id = Some(sticker_id);
    set_position(&mut e, position, canvas);
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, TrackType::Overlay, e, || ids.next('t')).map_err(edit_error)?;
    Ok(placed(ctx, ti, &id).into())
}

pub fn set_volume(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let volume = args.get("volume").and_then(Value::as_f64).filter(|v| (0.0..=1.0).contains(v)).ok_or_else(ToolError::invalid_volume)?;
    let track_id = args.id("trackId", ToolError::element_not_found)?;
    let element_id = args.id("elementId", ToolError::element_not_found)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ti = tl.track_index(track_id).ok_or_else(ToolError::element_not_found)?;
    let current = tl.tracks[ti].elements.iter().find(|e| e.id == element_id).ok_or_else(ToolError::element_not_found)?;
    if !current.kind.has_volume() {
        return Err(ToolError::no_volume());
    }
    let mut e = (**current).clone();
    e.volume = Some(volume);
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(json!({ "success": true, "volume": crate::effects::number(volume) }).into())
}
