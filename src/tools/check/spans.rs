//! The kinds read from the timeline's structure: `gap`, `past-source` and
//! `effect-without-picture`.

use super::{clip, secs, Finding};
use crate::model::{Element, ElementType, Timeline};

/// Spans of the window where the main track has no element. A hidden element still fills its
/// span here: what it leaves on screen is a rendered-frame question (the host's `black`).
pub fn gaps(tl: &Timeline, window: (i64, i64), out: &mut Vec<Finding>) {
    let Some(main) = tl.main_index().map(|i| &tl.tracks[i]) else { return };
    let spans = main.elements.iter().map(|e| (e.start, e.end()));
    for (start, end) in uncovered(window, spans) {
        // The gap after the main track's last clip, up to the timeline's real end (not a window's).
        let message = if end == tl.end() && start >= main.end() {
            format!("The main track ends at {} s but the timeline runs to {} s: the picture is empty there; extend or add a clip on the main track, or shorten what runs past it.", secs(start), secs(end))
        } else {
            format!(
                "Nothing on the main track from {} s to {} s: the picture is empty there; close the gap (move the later clips back) or put a clip in it.",
                secs(start),
                secs(end)
            )
        };
        out.push(Finding { kind: "gap", start, end, element_ids: Vec::new(), message });
    }
}

/// Video and audio clips that play on after their source ends: the picture holds its last frame
/// and the sound stops. Strict, without the model's retime slack ([`Element::plays_past`]), which
/// lets a project load but is still time past the source. Assets of unknown length are skipped.
pub fn past_source(tl: &Timeline, window: (i64, i64), source_of: &dyn Fn(&Element) -> Option<i64>, out: &mut Vec<Finding>) {
    for e in tl.tracks.iter().flat_map(|t| t.elements.iter()) {
        if !e.kind.is_timed_media() {
            continue;
        }
        let Some(source) = source_of(e) else { continue };
        let played = e.trim_start.saturating_add(e.source_ticks(e.duration));
        if played <= source {
            continue;
        }
        // The timeline tick where the source runs out.
        let out_at = e.start.saturating_add(e.clip_ticks((source - e.trim_start).max(0))).clamp(e.start, e.end());
        let Some((start, end)) = clip((out_at, e.end()), window) else { continue };
        let what = if e.kind == ElementType::Video { "the picture holds its last frame" } else { "the sound stops" };
        let message = format!(
            "Clip {} plays past the end of its source from {} s to {} s ({what}); shorten it to end at {} s or trim its start.",
            e.id,
            secs(out_at),
            secs(e.end()),
            secs(out_at)
        );
        out.push(Finding { kind: "past-source", start, end, element_ids: vec![e.id.to_string()], message });
    }
}

/// Spans of an effect element with nothing drawn below it (no shown video, image, sticker or
/// text on a shown track under its track): the effect acts on an empty picture there.
pub fn effects_without_picture(tl: &Timeline, window: (i64, i64), out: &mut Vec<Finding>) {
    for (ti, track) in tl.tracks.iter().enumerate() {
        if track.kind != crate::model::TrackType::Effect || track.hidden == Some(true) {
            continue;
        }
        for fx in track.elements.iter().filter(|e| e.kind == ElementType::Effect && e.hidden != Some(true)) {
            let Some(span) = clip((fx.start, fx.end()), window) else { continue };
            // Every shown picture below; `uncovered` keeps the part of each inside the effect's span.
            let below = tl.tracks[ti + 1..]
                .iter()
                .filter(|t| t.kind.is_visual() && t.hidden != Some(true))
                .flat_map(|t| t.elements.iter())
                .filter(|e| e.kind != ElementType::Effect && e.hidden != Some(true))
                .map(|e| (e.start, e.end()));
            for (start, end) in uncovered(span, below) {
                let message = format!(
                    "Effect {} has no picture under it from {} s to {} s: move or shorten it to lie over a clip, or put a clip under it.",
                    fx.id,
                    secs(start),
                    secs(end)
                );
                out.push(Finding { kind: "effect-without-picture", start, end, element_ids: vec![fx.id.to_string()], message });
            }
        }
    }
}

/// The parts of `window` no span covers, in order.
fn uncovered(window: (i64, i64), spans: impl Iterator<Item = (i64, i64)>) -> Vec<(i64, i64)> {
    let mut spans: Vec<(i64, i64)> = spans.filter_map(|s| clip(s, window)).collect();
    // By start only: the sweep takes the furthest end. The engine's one sort (crate::sort).
    crate::sort::stable_sort_by_key(&mut spans, |s| s.0);
    let (mut at, mut holes) = (window.0, Vec::new());
    for (start, end) in spans {
        if start > at {
            holes.push((at, start));
        }
        at = at.max(end);
    }
    if at < window.1 {
        holes.push((at, window.1));
    }
    holes
}

#[cfg(test)]
mod tests {
    use super::uncovered;

    #[test]
    fn uncovered_finds_the_holes_between_overlapping_spans() {
        let spans = [(5, 8), (0, 2), (1, 3), (8, 9)];
        assert_eq!(uncovered((0, 12), spans.into_iter()), vec![(3, 5), (9, 12)]);
        assert_eq!(uncovered((4, 6), spans.into_iter()), vec![(4, 5)]);
        assert_eq!(uncovered((0, 3), spans.into_iter()), vec![]);
    }
}
