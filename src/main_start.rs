//! OpenCut's rule for the front of the main track (timeline/placement/main-track.ts
//! `enforceMainTrackStart`, timeline/update-pipeline.ts's startTime rule, group-move's
//! resolve-move.ts at cf5e79e): an element placed on the main track at or before the earliest
//! other main element starts at 0, and what moved with it moves by the same amount. Run after
//! every tool call that places or retimes ([`PLACING`], batch steps included), so the engine
//! never holds a main track OpenCut's own placement would not make. An edit that only empties
//! the front (a delete, a cut without ripple) leaves the gap, as OpenCut's delete does: shifting
//! a clip nobody placed would pull it away from its sound and captions.

use std::sync::Arc;

use crate::model::{Element, Timeline};

/// The tools that place elements or change their start: OpenCut's insert, move, paste and
/// startTime update, the commands its rule runs in. Split, delete and cut_ranges (a split and a
/// delete) leave the front as it is, as OpenCut's split and delete do.
pub const PLACING: [&str; 4] = ["add_media_to_timeline", "move_timeline_elements", "update_timeline_element_timing", "duplicate_elements"];

/// What [`settle`] moved: these elements, `by` ticks earlier.
pub struct Settled {
    pub ids: Vec<String>,
    pub by: i64,
}

/// Elements of `after` that `before` lacks or held at another start: what the edit placed.
fn placed(before: &Timeline, after: &Timeline) -> Vec<(usize, usize)> {
    let mut candidates = Vec::new();
    for (ti, track) in after.tracks.iter().enumerate() {
        let same = before.track_index(&track.id).is_some_and(|bi| Arc::ptr_eq(&before.tracks[bi], track));
        if !same {
            candidates.extend((0..track.elements.len()).map(|ei| (ti, ei)));
        }
    }
    let ids: Vec<String> = candidates.iter().map(|&(ti, ei)| after.tracks[ti].elements[ei].id.to_string()).collect();
    let was = crate::edits::locate(before, &ids);
    candidates
        .into_iter()
        .zip(was)
        .filter(|&((ti, ei), was)| was.is_none_or(|(bt, be)| before.tracks[bt].elements[be].start != after.tracks[ti].elements[ei].start))
        .map(|(p, _)| p)
        .collect()
}

/// Moves the main track's first element to 0 when the edit from `before` placed it there-or-later
/// in front of every other main element, with the rest of what the edit placed (OpenCut's group
/// move keeps a moved group together), never below 0. When moving the group would overlap
/// something, the first element moves alone.
pub fn settle(before: &Timeline, after: &mut Timeline) -> Option<Settled> {
    let mi = after.main_index()?;
    let main = &after.tracks[mi];
    let first = main.elements.first().filter(|e| e.start > 0)?;
    if before.track_index(&main.id).is_some_and(|bi| Arc::ptr_eq(&before.tracks[bi], main)) {
        return None;
    }
    let group = placed(before, after);
    if !group.contains(&(mi, 0)) {
        return None;
    }
    let by = group.iter().map(|&(ti, ei)| after.tracks[ti].elements[ei].start).min().unwrap_or(0).min(first.start);
    if by == 0 {
        return None;
    }
    let moved = shifted(after, &group, by).or_else(|| shifted(after, &[(mi, 0)], by))?;
    let ids = moved.1;
    *after = moved.0;
    Some(Settled { ids, by })
}

/// `tl` with the elements at `positions` moved `by` ticks earlier, or None if that overlaps.
fn shifted(tl: &Timeline, positions: &[(usize, usize)], by: i64) -> Option<(Timeline, Vec<String>)> {
    let mut out = tl.clone();
    crate::edits::remove_at(&mut out, positions);
    let mut ids = Vec::with_capacity(positions.len());
    for &(ti, ei) in positions {
        let mut e: Element = tl.tracks[ti].elements[ei].as_ref().clone();
        e.start -= by;
        ids.push(e.id.to_string());
        crate::edits::insert(&mut out, ti, e).ok()?;
    }
    Some((out, ids))
}
