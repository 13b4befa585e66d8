//! The text kinds: `offscreen-text` and `overlapping-text`, from each text's box on the canvas.
//!
//! The engine lays out no glyphs (the host's fonts do), so the box is an estimate: lines as
//! written, each character `ADVANCE` × the font size wide plus the letter spacing, each line the
//! font size × the line height tall, placed as the frame places the text (anchor from the
//! position, per `textAlign`, vertically centred), scaled and rotated about its centre; the
//! background box is not counted. Properties are read where they are at each time, so keyframes
//! count: a keyframed text is sampled once a frame (at most `MAX_SAMPLES` times).

use super::{clip, secs, Finding};
use crate::model::{Element, ElementType, Timeline, TrackType};
use crate::properties;
use crate::time::FrameRate;

/// Average glyph advance as a share of the font size (a proportional sans-serif face).
const ADVANCE: f64 = 0.55;
/// Pixels a box may pass the canvas edge, or two boxes share, before it counts (rounding).
const SLACK: f64 = 0.5;
const MAX_SAMPLES: i64 = 2000;

/// An axis-aligned box in canvas pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

/// The canvas the text is drawn on and the frame rate it is sampled at.
#[derive(Clone, Copy)]
pub struct Canvas {
    pub width: f64,
    pub height: f64,
    pub height_px: u32,
    pub fps: FrameRate,
}

fn num(e: &Element, path: &str, t: i64, canvas_height: u32) -> f64 {
    let finite = |v: Option<serde_json::Value>| v.and_then(|v| v.as_f64()).filter(|v| v.is_finite());
    finite(properties::value_at(e, path, t, canvas_height)).or_else(|| finite(properties::find(path).map(|p| p.default_value(canvas_height)))).unwrap_or(0.0)
}

fn text(e: &Element, path: &str, t: i64, canvas_height: u32) -> String {
    match properties::value_at(e, path, t, canvas_height) {
        Some(serde_json::Value::String(s)) => s,
        _ => properties::find(path).and_then(|p| p.default_value(canvas_height).as_str().map(str::to_string)).unwrap_or_default(),
    }
}

/// The text's estimated box `t` ticks after its start.
fn text_box(e: &Element, t: i64, c: Canvas) -> Rect {
    let h_px = c.height_px;
    let font = num(e, "fontSize", t, h_px).max(0.0);
    let content = text(e, "content", t, h_px);
    let lines: Vec<&str> = content.split('\n').collect();
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let w = longest * (font * ADVANCE + num(e, "letterSpacing", t, h_px)).max(0.0) * num(e, "transform.scaleX", t, h_px).abs();
    let h = lines.len() as f64 * font * num(e, "lineHeight", t, h_px).max(0.0) * num(e, "transform.scaleY", t, h_px).abs();
    let ax = c.width / 2.0 + num(e, "transform.positionX", t, h_px);
    let cy = c.height / 2.0 + num(e, "transform.positionY", t, h_px);
    let cx = match text(e, "textAlign", t, h_px).as_str() {
        "left" => ax + w / 2.0,
        "right" => ax - w / 2.0,
        _ => ax,
    };
    let turn = num(e, "transform.rotate", t, h_px);
    let (sin, cos) = (abs_sin(turn), abs_sin(turn + 90.0));
    let (bw, bh) = (w * cos + h * sin, w * sin + h * cos);
    Rect { left: cx - bw / 2.0, top: cy - bh / 2.0, right: cx + bw / 2.0, bottom: cy + bh / 2.0 }
}

/// `|sin|` of an angle in degrees, by Bhaskara's approximation (within 0.002): the box is an
/// estimate anyway, and `f64::sin` would add 6 KB of libm to the wasm.
fn abs_sin(degrees: f64) -> f64 {
    // Not `%`: f64 remainder is a libm call (fmod, 1.2 KB), floor an instruction.
    let a = degrees.abs() - (degrees.abs() / 180.0).floor() * 180.0;
    let p = a * (180.0 - a);
    4.0 * p / (40_500.0 - p)
}

/// The canvas edges `r` passes, in a fixed order.
const EDGES: [&str; 4] = ["left", "top", "right", "bottom"];

fn edges_passed(r: Rect, c: Canvas) -> Vec<&'static str> {
    let passed = [(r.left < -SLACK, "left"), (r.top < -SLACK, "top"), (r.right > c.width + SLACK, "right"), (r.bottom > c.height + SLACK, "bottom")];
    passed.into_iter().filter(|(p, _)| *p).map(|(_, edge)| edge).collect()
}

fn intersect(a: Rect, b: Rect) -> bool {
    a.left.max(b.left) + SLACK < a.right.min(b.right) && a.top.max(b.top) + SLACK < a.bottom.min(b.bottom)
}

fn animated(e: &Element) -> bool {
    e.animations.as_ref().is_some_and(|a| !a.is_empty())
}

/// Sample ticks over `[start, end)` (timeline ticks): one for still texts, else one a frame.
fn samples(span: (i64, i64), moving: bool, fps: FrameRate) -> Vec<i64> {
    if !moving {
        return vec![span.0];
    }
    let step = fps.frame_to_ticks(1).max((span.1 - span.0) / MAX_SAMPLES).max(1);
    (0..).map(|i| span.0 + i * step).take_while(|t| *t < span.1).collect()
}

/// The runs of samples where `bad` holds, as `[first, next sample or span end)`, with what each
/// run's samples gave.
fn runs<T>(ticks: &[i64], end: i64, mut bad: impl FnMut(i64) -> Option<T>) -> Vec<(i64, i64, Vec<T>)> {
    let mut out: Vec<(i64, i64, Vec<T>)> = Vec::new();
    let mut open = false;
    for (i, &t) in ticks.iter().enumerate() {
        let next = ticks.get(i + 1).copied().unwrap_or(end);
        match (bad(t), open) {
            (Some(v), true) => {
                let last = out.last_mut().expect("an open run");
                last.1 = next;
                last.2.push(v);
            }
            (Some(v), false) => {
                out.push((t, next, vec![v]));
                open = true;
            }
            (None, _) => open = false,
        }
    }
    out
}

/// The texts the frame draws: shown elements on shown text tracks.
fn shown_texts(tl: &Timeline) -> Vec<&Element> {
    let mut texts: Vec<&Element> = tl
        .tracks
        .iter()
        .filter(|t| t.kind == TrackType::Text && t.hidden != Some(true))
        .flat_map(|t| t.elements.iter())
        .filter(|e| e.kind == ElementType::Text && e.hidden != Some(true))
        .map(|e| e.as_ref())
        .collect();
    crate::sort::stable_sort_by_key(&mut texts, |e| e.start);
    texts
}

pub fn offscreen(tl: &Timeline, window: (i64, i64), c: Canvas, out: &mut Vec<Finding>) {
    for e in shown_texts(tl) {
        let Some(span) = clip((e.start, e.end()), window) else { continue };
        let ticks = samples(span, animated(e), c.fps);
        for (start, end, edges) in runs(&ticks, span.1, |t| Some(edges_passed(text_box(e, t - e.start, c), c)).filter(|p| !p.is_empty())) {
            let all: Vec<&str> = EDGES.into_iter().filter(|edge| edges.iter().flatten().any(|x| x == edge)).collect();
            let message = format!(
                "Text {} runs off the canvas ({} {}) from {} s to {} s: move it inward, make it smaller or break it into lines.",
                e.id,
                all.join(", "),
                if all.len() == 1 { "edge" } else { "edges" },
                secs(start),
                secs(end)
            );
            out.push(Finding { kind: "offscreen-text", start, end, element_ids: vec![e.id.to_string()], message });
        }
    }
}

pub fn overlapping(tl: &Timeline, window: (i64, i64), c: Canvas, out: &mut Vec<Finding>) {
    let texts = shown_texts(tl);
    for (i, a) in texts.iter().enumerate() {
        // Sorted by start: once one starts after `a` ends, the rest do too.
        for b in texts[i + 1..].iter().take_while(|b| b.start < a.end()) {
            let Some(span) = clip((a.start.max(b.start), a.end().min(b.end())), window) else { continue };
            let ticks = samples(span, animated(a) || animated(b), c.fps);
            let hit = |t: i64| intersect(text_box(a, t - a.start, c), text_box(b, t - b.start, c)).then_some(());
            for (start, end, _) in runs(&ticks, span.1, hit) {
                let message = format!(
                    "Texts {} and {} overlap on screen from {} s to {} s: move one of them, or shorten one so they do not show together.",
                    a.id,
                    b.id,
                    secs(start),
                    secs(end)
                );
                out.push(Finding { kind: "overlapping-text", start, end, element_ids: vec![a.id.to_string(), b.id.to_string()], message });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::abs_sin;

    #[test]
    fn abs_sin_is_close_to_sin() {
        for d in -720..=720 {
            let exact = (d as f64).to_radians().sin().abs();
            assert!((abs_sin(d as f64) - exact).abs() < 0.002, "{d}°");
        }
    }
}
