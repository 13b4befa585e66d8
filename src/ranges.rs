//! Removing spans of time from a timeline: the edit under cut_ranges, which silence and filler
//! removal compose (detect, then cut).
//!
//! Each element a span cuts through is divided at the span's edges exactly as `split` divides it
//! (trims, retime, keyframes), the pieces inside a span go, and the first piece left keeps the
//! element's id. With ripple, every element after a span moves left by the length of the spans
//! before it, as OpenCut's ripple shifts the elements that start at or after a freed interval
//! (apps/web/src/ripple/shift.ts at cf5e79e); the shift is the same on every track it touches, so
//! picture, sound, captions and effects stay in sync.

use std::sync::Arc;

use crate::model::{Element, Timeline};

/// A span of timeline ticks, `start` < `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

impl Span {
    pub fn ticks(self) -> i64 {
        self.end - self.start
    }
}

/// Sorts spans and joins those that overlap or touch.
pub fn merge(mut spans: Vec<Span>) -> Vec<Span> {
    // By start only, through the engine's one sort (src/sort.rs): spans that start together join
    // into the same span whatever their order (a second quicksort instantiation: 3.7 KB raw, 0.7 KB gzipped).
    crate::sort::stable_sort_by_key(&mut spans, |s| s.start);
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        match out.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => out.push(s),
        }
    }
    out
}

/// What [`cut`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CutReport {
    /// Elements no piece of which is left.
    pub removed: Vec<String>,
    /// Elements that lost part of their time and kept the rest (under their own id).
    pub shortened: Vec<String>,
    /// Pieces left after a span cut an element in two or more: (new id, the element it came from,
    /// track id).
    pub pieces: Vec<(String, String, String)>,
    /// Elements whose start moved (ripple).
    pub shifted: usize,
}

/// Removes `spans` (merged, see [`merge`]) from the tracks at `tracks`; with `ripple`, closes
/// the gaps they leave. `new_id(prefix)` names new pieces (`'e'`) and boundary keyframes (`'k'`).
pub fn cut(tl: &mut Timeline, spans: &[Span], tracks: &[usize], ripple: bool, mut new_id: impl FnMut(char) -> String) -> CutReport {
    let mut report = CutReport::default();
    // The ripple shift of a time outside every span: the length of the spans before it.
    let shift = |t: i64| if ripple { spans.iter().take_while(|s| s.end <= t).map(|s| s.ticks()).sum::<i64>() } else { 0 };
    for &ti in tracks {
        let touched = tl.tracks[ti].elements.iter().any(|e| shift(e.start) != 0 || spans.iter().any(|s| s.start < e.end() && e.start < s.end));
        if !touched {
            continue;
        }
        let track_id = tl.tracks[ti].id.clone();
        let track = tl.track_mut(ti);
        let mut kept: Vec<Arc<Element>> = Vec::with_capacity(track.elements.len());
        for original in std::mem::take(&mut track.elements) {
            let inside: Vec<&Span> = spans.iter().filter(|s| s.start < original.end() && original.start < s.end).collect();
            if inside.is_empty() {
                let by = shift(original.start);
                if by == 0 {
                    kept.push(original);
                } else {
                    let mut e = (*original).clone();
                    e.start -= by;
                    report.shifted += 1;
                    kept.push(Arc::new(e));
                }
                continue;
            }
            let pieces = surviving_pieces(&original, &inside, &mut new_id);
            if pieces.is_empty() {
                report.removed.push(original.id.to_string());
                continue;
            }
            report.shortened.push(original.id.to_string());
            for (k, mut piece) in pieces.into_iter().enumerate() {
                if k > 0 {
                    piece.id = new_id('e').into();
                    report.pieces.push((piece.id.to_string(), original.id.to_string(), track_id.clone()));
                }
                let by = shift(piece.start);
                if by != 0 {
                    piece.start -= by;
                    report.shifted += 1;
                }
                kept.push(Arc::new(piece));
            }
        }
        track.elements = kept;
    }
    report
}

/// The parts of `e` outside `spans` (those that overlap it, in order), each cut as `split` cuts.
fn surviving_pieces(e: &Element, spans: &[&Span], new_id: &mut impl FnMut(char) -> String) -> Vec<Element> {
    let mut edges: Vec<i64> = spans.iter().flat_map(|s| [s.start, s.end]).filter(|t| *t > e.start && *t < e.end()).collect();
    edges.dedup();
    let mut pieces = Vec::with_capacity(edges.len() + 1);
    let mut left = e.clone();
    for t in edges {
        let animations = left.animations.take();
        let mut right = left.clone();
        crate::edits::cut_at(&mut left, &mut right, animations, t, new_id);
        pieces.push(std::mem::replace(&mut left, right));
    }
    pieces.push(left);
    pieces.retain(|p| !spans.iter().any(|s| s.start <= p.start && p.end() <= s.end));
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: i64, end: i64) -> Span {
        Span { start, end }
    }

    #[test]
    fn spans_that_overlap_or_touch_are_joined() {
        assert_eq!(merge(vec![span(5, 8), span(0, 2), span(2, 3), span(7, 9)]), vec![span(0, 3), span(5, 9)]);
        assert_eq!(merge(vec![]), vec![]);
        // Spans that start together, longer first or shorter first.
        let spans = vec![span(4, 9), span(0, 1), span(4, 5), span(9, 10), span(0, 3), span(12, 13), span(12, 14)];
        assert_eq!(merge(spans), vec![span(0, 3), span(4, 10), span(12, 14)]);
        assert_eq!(merge(vec![span(3, 4), span(3, 6), span(1, 2)]), vec![span(1, 2), span(3, 6)]);
    }

    fn clip(id: &str, start: i64, duration: i64, trim_start: i64, trim_end: i64) -> Element {
        let mut e = Element::new(id.into(), crate::model::ElementType::Video, start, duration);
        (e.trim_start, e.trim_end) = (trim_start, trim_end);
        e
    }

    /// `e` with a linear opacity fade over its first 5 ticks.
    fn faded(mut e: Element) -> Element {
        let keys = serde_json::json!({ "opacity": { "keys": [
            { "id": "a", "time": 0, "value": 0, "segmentToNext": "linear" },
            { "id": "b", "time": 5, "value": 1, "segmentToNext": "linear" }
        ] } });
        e.animations = keys.as_object().cloned().map(crate::animation::Animations::from_json);
        e
    }

    /// The first track's elements: id, start, duration, trims.
    fn pieces(tl: &Timeline) -> Vec<(String, i64, i64, i64, i64)> {
        tl.tracks[0].elements.iter().map(|e| (e.id.to_string(), e.start, e.duration, e.trim_start, e.trim_end)).collect()
    }

    fn timeline(tracks: Vec<Vec<Element>>) -> Timeline {
        let mut tl = Timeline::with_main("t0".into());
        tl.tracks[0] = Arc::new(crate::model::Track::new("t0".into(), crate::model::TrackType::Main));
        for (i, elements) in tracks.into_iter().enumerate() {
            if i > 0 {
                tl.tracks.push(Arc::new(crate::model::Track::new(format!("t{i}"), crate::model::TrackType::Overlay)));
            }
            Arc::make_mut(&mut tl.tracks[i]).elements = elements.into_iter().map(Arc::new).collect();
        }
        tl
    }

    fn ids() -> impl FnMut(char) -> String {
        let mut n = 100;
        move |p| {
            n += 1;
            format!("{p}{n}")
        }
    }

    /// A span that starts before a clip and another inside it: the part between keeps the
    /// source it played (trims moved by what was cut off each end), as split would leave it.
    #[test]
    fn a_clip_cut_by_a_span_over_its_head_and_one_inside_keeps_its_source() {
        // [5, 10) playing source [20, 25) of 40: spans [0, 6) and [8, 9) leave [6, 8) and [9, 10).
        // Its opacity is keyframed, so each cut made names two boundary keys (split_animations):
        // the cuts at 6, 8 and 9 take k101 to k106 and the last part is e107; a cut at an edge
        // outside the clip (0) would be one cut too many.
        let animated = faded(clip("e1", 5, 5, 20, 15));
        let mut tl = timeline(vec![vec![animated]]);
        let report = cut(&mut tl, &[span(0, 6), span(8, 9)], &[0], false, ids());
        let got = pieces(&tl);
        assert_eq!(got, vec![("e1".to_string(), 6, 2, 21, 17), ("e107".to_string(), 9, 1, 24, 15)]);
        assert_eq!((report.shortened, report.removed.len(), report.shifted), (vec!["e1".to_string()], 0, 0));
    }

    /// Spans that start where a clip starts and end where it ends cut it only at their inner
    /// edges: four cuts (6, 7, 8, 9) name k101 to k108, so the second piece left is e109.
    #[test]
    fn spans_flush_with_a_clips_edges_cut_only_inside_it() {
        let animated = faded(clip("e1", 5, 5, 20, 15));
        let mut tl = timeline(vec![vec![animated]]);
        cut(&mut tl, &[span(5, 6), span(7, 8), span(9, 10)], &[0], false, ids());
        let got = pieces(&tl);
        assert_eq!(got, vec![("e1".to_string(), 6, 1, 21, 18), ("e109".to_string(), 8, 1, 23, 16)]);
    }

    /// A track no span reaches and nothing on it shifts is left as it was, not copied (history
    /// shares untouched tracks); an element ending where a span starts is not cut.
    #[test]
    fn a_track_the_spans_do_not_reach_is_not_copied() {
        let mut tl = timeline(vec![vec![clip("e1", 0, 4, 0, 0)], vec![clip("e2", 0, 2, 0, 0), clip("e3", 9, 1, 0, 0)]]);
        let before = tl.clone();
        cut(&mut tl, &[span(4, 9)], &[0, 1], false, ids());
        assert!(Arc::ptr_eq(&before.tracks[0], &tl.tracks[0]), "the element that ends where the span starts is untouched");
        assert!(Arc::ptr_eq(&before.tracks[1], &tl.tracks[1]), "nothing of track 1 is inside the span");
        cut(&mut tl, &[span(4, 9)], &[0, 1], true, ids());
        assert!(Arc::ptr_eq(&before.tracks[0], &tl.tracks[0]), "nothing of track 0 moves");
        assert_eq!(tl.tracks[1].elements[1].start, 4, "e3 moves left by the span");
    }
}
