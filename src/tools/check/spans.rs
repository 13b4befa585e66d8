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
    use super::super::fixtures::{timeline, track};
    use super::{effects_without_picture, past_source, uncovered, Finding};
    use crate::model::{Element, ElementType, TrackType};

    const S: i64 = crate::time::TICKS_PER_SECOND;

    fn spans(found: &[Finding]) -> Vec<(&str, i64, i64)> {
        found.iter().map(|f| (f.kind, f.start, f.end)).collect()
    }

    #[test]
    fn a_trimmed_clip_runs_past_its_source_where_the_source_left_after_the_trim_ends() {
        // 1 s in, 4 s long, its first second trimmed: a 3 s source runs out 2 s into the clip.
        let mut clip = Element::new("e1".into(), ElementType::Video, S, 4 * S);
        clip.trim_start = S;
        let mut sound = Element::new("e2".into(), ElementType::Audio, 0, 3 * S);
        sound.trim_start = S;
        // Its source's whole length, not more: no finding.
        let fits = Element::new("e3".into(), ElementType::Video, 5 * S, 3 * S);
        let tl = timeline(vec![track("t1", TrackType::Audio, vec![sound])], vec![clip, fits]);
        let mut found = Vec::new();
        past_source(&tl, (0, 10 * S), &|_: &Element| Some(3 * S), &mut found);
        assert_eq!(spans(&found), [("past-source", 2 * S, 3 * S), ("past-source", 3 * S, 5 * S)]);
        assert_eq!(
            found[1].message,
            "Clip e1 plays past the end of its source from 3 s to 5 s (the picture holds its last frame); shorten it to end at 3 s or trim its start."
        );
        assert!(found[0].message.contains("(the sound stops)"), "{}", found[0].message);
    }

    #[test]
    fn only_a_shown_effect_on_a_shown_track_is_checked() {
        let effect = |id: &str, start: i64, hidden: Option<bool>| {
            let mut e = Element::new(id.into(), ElementType::Effect, start, 2 * S);
            e.hidden = hidden;
            e
        };
        let mut hidden_track = track("t2", TrackType::Effect, vec![effect("e2", 0, None)]);
        hidden_track.hidden = Some(true);
        let tl = timeline(vec![track("t1", TrackType::Effect, vec![effect("e1", 0, None), effect("e3", 3 * S, Some(true))]), hidden_track], Vec::new());
        let mut found = Vec::new();
        effects_without_picture(&tl, (0, 10 * S), &mut found);
        assert_eq!(spans(&found), [("effect-without-picture", 0, 2 * S)]);
        assert_eq!(found[0].element_ids, ["e1"]);
    }

    #[test]
    fn uncovered_finds_the_holes_between_overlapping_spans() {
        let spans = [(5, 8), (0, 2), (1, 3), (8, 9)];
        assert_eq!(uncovered((0, 12), spans.into_iter()), vec![(3, 5), (9, 12)]);
        assert_eq!(uncovered((4, 6), spans.into_iter()), vec![(4, 5)]);
        assert_eq!(uncovered((0, 3), spans.into_iter()), vec![]);
    }
}
