//! The few places where OpenCut and NeuralCut measure the same thing differently, and OpenCut's
//! defaults for what NeuralCut does not model.

use serde_json::{json, Map, Value};

use crate::time::FrameRate;

/// OpenCut renders text at `fontSize × canvasHeight / 90` pixels (`FONT_SIZE_SCALE_REFERENCE`);
/// NeuralCut's `fontSize` is that pixel size.
pub const FONT_SIZE_SCALE_REFERENCE: f64 = 90.0;
/// OpenCut's default text size (its own unit).
pub const DEFAULT_FONT_SIZE: f64 = 15.0;
/// OpenCut stores volume in decibels, as NeuralCut's `volume` property does (crate::properties);
/// the element's field is linear gain.
pub use crate::properties::{db_to_gain as db_to_linear, gain_to_db as linear_to_db};

/// OpenCut text size → NeuralCut pixels at `canvas_height`.
pub fn font_px(opencut: f64, canvas_height: u32) -> f64 {
    opencut * canvas_height as f64 / FONT_SIZE_SCALE_REFERENCE
}

/// NeuralCut pixels → OpenCut text size, to two decimals.
pub fn font_opencut(px: f64, canvas_height: u32) -> f64 {
    let h = canvas_height.max(1) as f64;
    (px * FONT_SIZE_SCALE_REFERENCE / h * 100.0).round() / 100.0
}

/// OpenCut's loudest volume, in decibels (linear 10, [`crate::model::MAX_VOLUME`]).
pub const MAX_DB: f64 = 20.0;

/// An integer number of ticks: a JSON integer, or a float with no fraction (what a JS number
/// that went through a float-only path looks like).
pub fn ticks(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    let f = v.as_f64()?;
    (f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}

/// A frame rate given as `{numerator, denominator}` or as a plain number (older OpenCut and
/// media probes: 30, 29.97, 23.976…).
pub fn frame_rate(v: &Value) -> Option<FrameRate> {
    if let Some(o) = v.as_object() {
        let n = o.get("numerator")?.as_u64().and_then(|n| u32::try_from(n).ok())?;
        let d = o.get("denominator")?.as_u64().and_then(|d| u32::try_from(d).ok())?;
        let fr = FrameRate { numerator: n, denominator: d };
        return fr.is_valid().then_some(fr);
    }
    let f = v.as_f64().filter(|f| f.is_finite() && *f > 0.0 && *f < 1.0e6)?;
    if (f - f.round()).abs() < 1e-9 {
        return Some(FrameRate { numerator: f.round() as u32, denominator: 1 });
    }
    // NTSC rates: 23.976 → 24000/1001, 29.97 → 30000/1001, 59.94 → 60000/1001.
    let ntsc = (f * 1001.0).round();
    if ntsc % 1000.0 == 0.0 && (ntsc / 1001.0 - f).abs() < 5e-4 {
        return Some(FrameRate { numerator: ntsc as u32, denominator: 1001 });
    }
    Some(FrameRate { numerator: (f * 1000.0).round().max(1.0) as u32, denominator: 1000 })
}

/// OpenCut's `params` for a new element of `kind` (its params registry, params/registry.ts, and
/// timeline/defaults.ts), then a graphic's definition params (`definition`'s, in its order):
/// every key with its default. Effect elements hold their effect's params.
pub fn default_params(kind: &str, definition: Option<&str>) -> Map<String, Value> {
    let mut p = Map::new();
    if kind == "text" {
        let text = json!({
            "content": "Default text",
            "fontFamily": "Arial",
            "fontSize": 15,
            "color": "#ffffff",
            "textAlign": "center",
            "fontWeight": "normal",
            "fontStyle": "normal",
            "textDecoration": "none",
            "letterSpacing": 0,
            "lineHeight": 1.2,
            "background.enabled": false,
            "background.color": "#000000",
            "background.cornerRadius": 0,
            "background.paddingX": 30,
            "background.paddingY": 42,
            "background.offsetX": 0,
            "background.offsetY": 0,
        });
        p.extend(text.as_object().cloned().unwrap_or_default());
    }
    if matches!(kind, "video" | "image" | "text" | "sticker" | "graphic") {
        let visual = json!({
            "transform.positionX": 0,
            "transform.positionY": 0,
            "transform.scaleX": 1,
            "transform.scaleY": 1,
            "transform.rotate": 0,
            "opacity": 1,
            "blendMode": "normal",
        });
        p.extend(visual.as_object().cloned().unwrap_or_default());
    }
    if matches!(kind, "video" | "audio") {
        crate::text::put(&mut p, "volume", 0.into());
        crate::text::put(&mut p, "muted", false.into());
    }
    if let Some(shape) = definition.and_then(crate::graphics::shape) {
        p.extend(crate::graphics::defaults(shape));
    }
    p
}

/// OpenCut's name for a new track of `kind` (its `DEFAULT_TRACK_NAMES`).
pub fn track_name(kind: &str) -> &'static str {
    match kind {
        "text" => "Text track",
        "audio" => "Audio track",
        "graphic" => "Graphic track",
        "effect" => "Effect track",
        "main" => "Main Track",
        _ => "Video track",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volume_round_trips_at_the_edges() {
        assert_eq!(db_to_linear(0.0), 1.0);
        assert_eq!(db_to_linear(20.0), 10.0);
        assert_eq!(db_to_linear(-60.0), 0.001);
        assert_eq!(linear_to_db(1.0), 0.0);
        assert_eq!(linear_to_db(0.0), crate::properties::MIN_DB);
        assert_eq!(linear_to_db(0.5), -6.02);
    }

    #[test]
    fn frame_rates_from_numbers() {
        let fr = |n, d| Some(FrameRate { numerator: n, denominator: d });
        assert_eq!(frame_rate(&json!(30)), fr(30, 1));
        assert_eq!(frame_rate(&json!(29.97)), fr(30000, 1001));
        assert_eq!(frame_rate(&json!(23.976)), fr(24000, 1001));
        assert_eq!(frame_rate(&json!(59.94)), fr(60000, 1001));
        assert_eq!(frame_rate(&json!(12.5)), fr(12500, 1000));
        assert_eq!(frame_rate(&json!({ "numerator": 24000, "denominator": 1001 })), fr(24000, 1001));
        assert_eq!(frame_rate(&json!({ "numerator": 0, "denominator": 1 })), None);
        assert_eq!(frame_rate(&json!(-1)), None);
    }

    #[test]
    fn ticks_accept_whole_floats_only() {
        assert_eq!(ticks(&json!(120000)), Some(120000));
        assert_eq!(ticks(&json!(120000.0)), Some(120000));
        assert_eq!(ticks(&json!(1.5)), None);
        assert_eq!(ticks(&json!("1")), None);
    }
}
