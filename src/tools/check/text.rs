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
    use super::super::fixtures::{timeline, track};
    use super::*;
    use crate::model::Track;

    const CANVAS: Canvas = Canvas { width: 1920.0, height: 1080.0, height_px: 1080, fps: FrameRate::DEFAULT };

    /// Two lines, the longest of 4 characters, at 100 px with 10 px spacing and line height 1.5,
    /// scaled 2 × 0.5, its anchor 100 px right of and 50 px above the centre: 4 × (100 × 0.55 +
    /// 10) × 2 = 520 px wide, 2 × 100 × 1.5 × 0.5 = 150 px tall, anchored at (1060, 490).
    fn styled() -> Element {
        let mut e = Element::new("e1".into(), ElementType::Text, 0, 120_000);
        e.content = Some("abcd\nab".into());
        (e.font_size, e.letter_spacing, e.line_height) = (Some(100.0), Some(10.0), Some(1.5));
        (e.scale_x, e.scale_y, e.x, e.y) = (Some(2.0), Some(0.5), Some(100.0), Some(-50.0));
        e
    }

    fn rect(left: f64, top: f64, right: f64, bottom: f64) -> Rect {
        Rect { left, top, right, bottom }
    }

    #[test]
    fn a_text_box_is_its_longest_line_by_its_lines_placed_by_its_alignment() {
        let mut e = styled();
        assert_eq!(text_box(&e, 0, CANVAS), rect(800.0, 415.0, 1320.0, 565.0), "centred on the anchor");
        e.text_align = Some("left".into());
        assert_eq!(text_box(&e, 0, CANVAS), rect(1060.0, 415.0, 1580.0, 565.0), "starting at the anchor");
        e.text_align = Some("right".into());
        assert_eq!(text_box(&e, 0, CANVAS), rect(540.0, 415.0, 1060.0, 565.0), "ending at the anchor");
    }

    #[test]
    fn a_turned_text_box_is_the_bounds_of_the_turned_box() {
        let mut e = styled();
        for turn in [90.0, -90.0, 270.0] {
            e.rotate = Some(turn);
            assert_eq!(text_box(&e, 0, CANVAS), rect(985.0, 230.0, 1135.0, 750.0), "{turn}°: 150 wide, 520 tall");
        }
        e.rotate = Some(180.0);
        assert_eq!(text_box(&e, 0, CANVAS), rect(800.0, 415.0, 1320.0, 565.0), "a half turn keeps the box");
        // sin 30° = 0.5 exactly in Bhaskara's form; cos 30° is its value at 120°, 28800 / 33300.
        e.rotate = Some(30.0);
        let cos = 28_800.0 / 33_300.0;
        let (bw, bh) = (520.0 * cos + 150.0 * 0.5, 520.0 * 0.5 + 150.0 * cos);
        assert_eq!(text_box(&e, 0, CANVAS), rect(1060.0 - bw / 2.0, 490.0 - bh / 2.0, 1060.0 + bw / 2.0, 490.0 + bh / 2.0));
    }

    #[test]
    fn an_unstyled_text_box_uses_the_defaults() {
        // "Default text": 12 characters at a sixth of 1080 px (180), line height 1.2, centred.
        let e = Element::new("e1".into(), ElementType::Text, 0, 120_000);
        let (w, h) = (12.0 * (180.0 * ADVANCE), 180.0 * 1.2);
        assert_eq!(text_box(&e, 0, CANVAS), rect(960.0 - w / 2.0, 540.0 - h / 2.0, 960.0 + w / 2.0, 540.0 + h / 2.0));
    }

    #[test]
    fn an_edge_counts_once_passed_by_more_than_the_slack() {
        let inside = rect(-0.5, -0.5, 1920.5, 1080.5);
        assert_eq!(edges_passed(inside, CANVAS), Vec::<&str>::new());
        assert_eq!(edges_passed(rect(-0.6, -0.6, 1920.6, 1080.6), CANVAS), ["left", "top", "right", "bottom"]);
        assert_eq!(edges_passed(rect(-0.6, 0.0, 100.0, 100.0), CANVAS), ["left"]);
        assert_eq!(edges_passed(rect(0.0, -0.6, 100.0, 100.0), CANVAS), ["top"]);
        assert_eq!(edges_passed(rect(0.0, 0.0, 1920.6, 100.0), CANVAS), ["right"]);
        assert_eq!(edges_passed(rect(0.0, 0.0, 100.0, 1080.6), CANVAS), ["bottom"]);
    }

    #[test]
    fn boxes_overlap_once_they_share_more_than_the_slack_on_both_axes() {
        let a = rect(0.0, 0.0, 100.0, 100.0);
        assert!(!intersect(a, rect(99.5, 0.0, 200.0, 100.0)), "0.5 px across");
        assert!(intersect(a, rect(99.4, 0.0, 200.0, 100.0)), "0.6 px across");
        assert!(!intersect(a, rect(0.0, 99.5, 100.0, 200.0)), "0.5 px down");
        assert!(intersect(a, rect(0.0, 99.4, 100.0, 200.0)), "0.6 px down");
        assert!(!intersect(a, rect(99.4, 99.5, 200.0, 200.0)), "across but not down");
        assert!(!intersect(a, rect(99.5, 99.4, 200.0, 200.0)), "down but not across");
        assert!(intersect(rect(99.4, 99.4, 200.0, 200.0), a), "either order");
    }

    #[test]
    fn a_still_text_is_sampled_once_and_a_moving_one_once_a_frame_up_to_the_cap() {
        assert_eq!(samples((100, 90_000), false, FrameRate::DEFAULT), [100]);
        // 30 fps: a frame is 4,000 ticks; the span's end is not a sample.
        assert_eq!(samples((100, 12_100), true, FrameRate::DEFAULT), [100, 4_100, 8_100]);
        // 3,000 frames would pass the cap: 2,000 samples, 6,000 ticks apart.
        let long = samples((1_000_000, 13_000_000), true, FrameRate::DEFAULT);
        assert_eq!((long.len(), long[1], long[1999]), (2000, 1_006_000, 12_994_000));
    }

    #[test]
    fn runs_join_consecutive_bad_samples_and_end_at_the_next_sample() {
        let ticks = [0, 10, 20, 30, 40];
        let found = runs(&ticks, 50, |t| [10, 20, 40].contains(&t).then_some(t));
        assert_eq!(found, vec![(10, 30, vec![10, 20]), (40, 50, vec![40])]);
        assert_eq!(runs(&ticks, 50, |_| None::<()>), vec![]);
    }

    /// "ab" at 100 px (110 × 120 px), centred, on its own text track, from `start` for 40,000
    /// ticks; with `moves`, its x goes from `x0` px at its start by 1 px every 40 ticks.
    fn pair_text(id: &str, start: i64, moves: Option<f64>) -> Element {
        let mut e = Element::new(id.into(), ElementType::Text, start, 40_000);
        (e.content, e.font_size) = (Some("ab".into()), Some(100.0));
        if let Some(x0) = moves {
            let keys = serde_json::json!({ "transform.positionX": { "keys": [
                { "id": "k1", "time": 0, "value": x0, "segmentToNext": "linear" },
                { "id": "k2", "time": 40_000, "value": x0 + 1000.0, "segmentToNext": "linear" }
            ] } });
            e.animations = keys.as_object().cloned().map(crate::animation::Animations::from_json);
        }
        e
    }

    fn text_track(id: &str, elements: Vec<Element>) -> Track {
        track(id, TrackType::Text, elements)
    }

    fn overlaps(a: Element, b: Element) -> Vec<(i64, i64)> {
        let tl = timeline(vec![text_track("t1", vec![a]), text_track("t2", vec![b])], Vec::new());
        let mut out = Vec::new();
        overlapping(&tl, (0, i64::MAX), CANVAS, &mut out);
        out.iter().map(|f| (f.start, f.end)).collect()
    }

    #[test]
    fn a_moving_text_overlaps_another_only_while_their_boxes_meet() {
        // The first moves: at 8,000 ticks it is 4,000 ticks in, 100 px right of the still one (less
        // than its 110 px width), at 12,000 it is 200 px right. Sampled a frame apart (4,000).
        assert_eq!(overlaps(pair_text("e1", 4_000, Some(0.0)), pair_text("e2", 8_000, None)), [(8_000, 12_000)]);
        // The second moves, from 100 px right at its start (8,000).
        assert_eq!(overlaps(pair_text("e1", 0, None), pair_text("e2", 8_000, Some(100.0))), [(8_000, 12_000)]);
        // Neither moves: one sample, the whole time they show together.
        assert_eq!(overlaps(pair_text("e1", 4_000, None), pair_text("e2", 8_000, None)), [(8_000, 44_000)]);
    }

    #[test]
    fn only_shown_texts_on_shown_text_tracks_are_checked_in_start_order() {
        let text = |id: &str, start: i64| Element::new(id.into(), ElementType::Text, start, 1000);
        let mut hidden_text = text("e3", 0);
        hidden_text.hidden = Some(true);
        let mut hidden_track = text_track("t2", vec![text("e4", 0)]);
        hidden_track.hidden = Some(true);
        let other = track("t3", TrackType::Overlay, vec![text("e5", 0)]);
        let tl = timeline(vec![text_track("t1", vec![text("e2", 500), hidden_text, text("e1", 100)]), hidden_track, other], Vec::new());
        let ids: Vec<&str> = shown_texts(&tl).iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["e1", "e2"]);
    }

    #[test]
    fn abs_sin_is_close_to_sin() {
        for d in -720..=720 {
            let exact = (d as f64).to_radians().sin().abs();
            assert!((abs_sin(d as f64) - exact).abs() < 0.002, "{d}°");
        }
    }
}
