//! Editing verbs on a timeline: insert, place, split, remove, move and trim.
//!
//! Each works on a working copy and may leave it half-changed when it fails: the caller discards
//! the copy on error, which is what keeps failed calls free of side effects.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::animation::Animations;
use crate::model::{Element, Timeline, Track, TrackType};

/// Why an edit could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// `element` on `track` occupies part of the requested range.
    Overlap { track: String, element: String, start: i64, end: i64 },
    /// The track cannot hold this kind of element.
    Incompatible { track: String },
}

fn overlap_error(track: &Track, e: &Element) -> EditError {
    EditError::Overlap { track: track.id.clone(), element: e.id.to_string(), start: e.start, end: e.end() }
}

/// Inserts `element` on track `ti` if its range is free.
pub fn insert(tl: &mut Timeline, ti: usize, element: Element) -> Result<(), EditError> {
    let track = &tl.tracks[ti];
    if !track.kind.accepts(element.kind) {
        return Err(EditError::Incompatible { track: track.id.clone() });
    }
    if let Some(e) = track.first_overlap(element.start, element.end(), &|_| false) {
        return Err(overlap_error(track, e));
    }
    tl.track_mut(ti).insert_sorted(Arc::new(element));
    Ok(())
}

/// Puts `element` on the first track of `kind` (top to bottom) that takes it ([`Track::takes`])
/// and whose range is free, creating a track when none has room. The main track is never duplicated: a collision there is an error.
/// Returns the index of the track used. This is OpenCut's auto placement (InsertElementCommand
/// with the `firstAvailable` strategy, timeline/placement/resolve.ts at cf5e79e); the new track
/// goes where [`add_track_at`] puts it.
pub fn place(tl: &mut Timeline, kind: TrackType, element: Element, new_track_id: impl FnOnce() -> String) -> Result<usize, EditError> {
    let (start, end) = (element.start, element.end());
    let mut blocked = None;
    for (ti, track) in tl.tracks.iter().enumerate().filter(|(_, t)| t.kind == kind && t.takes(element.kind)) {
        match track.first_overlap(start, end, &|_| false) {
            None => {
                insert(tl, ti, element)?;
                return Ok(ti);
            }
            Some(e) => blocked = blocked.or_else(|| Some(overlap_error(track, e))),
        }
    }
    if kind == TrackType::Main {
        return Err(blocked.unwrap_or(EditError::Incompatible { track: String::new() }));
    }
    // A sticker or graphic gets a graphic track of its own where OpenCut's insertion makes one: on top
    // (`getHighestInsertIndexForTrack`); other kinds where [`add_track_at`] puts them.
    let ti = add_track_at(tl, kind, new_track_id(), element.kind.is_graphic());
    insert(tl, ti, element)?;
    Ok(ti)
}

/// Adds an empty track where OpenCut's default placement puts a new track of the type
/// (`getDefaultInsertIndexForTrack`, timeline/placement/insert-index.ts at cf5e79e): an overlay or
/// text track just above the main track, so it never covers the overlays and titles already
/// there; an effect track on top of the picture, so it acts on everything; an audio track after
/// the last one. OpenCut's element insertion puts new tracks on top instead; the issue that
/// brought OpenCut's placement asked for this rule, and docs/tools-behaviour.md says why. With
/// `top` the track goes on top of every track instead.
fn add_track_at(tl: &mut Timeline, kind: TrackType, id: String, top: bool) -> usize {
    let track = Arc::new(Track::new(id, kind));
    let at = match kind {
        _ if top => 0,
        TrackType::Effect => 0,
        TrackType::Audio => tl.tracks.len(),
        // Tracks are listed top down with audio last, so the main track's index is where a track
        // just above it goes (the end of the visual tracks when a project has no main track).
        _ => tl.main_index().unwrap_or_else(|| tl.tracks.iter().position(|t| !t.kind.is_visual()).unwrap_or(tl.tracks.len())),
    };
    tl.tracks.insert(at, track);
    at
}

/// One cut made by [`split`]: the element that was cut and the new right-hand piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub original: String,
    pub piece: String,
    pub track: String,
    pub start: i64,
    pub end: i64,
}

/// Cuts every element where a time falls strictly inside it. The left part keeps the id; each
/// right part gets a new id and keeps its source position. Boundaries and repeats cut nothing.
/// `new_id(prefix)` names new pieces (`'e'`) and the boundary keyframes of animated ones (`'k'`).
pub fn split(tl: &mut Timeline, times: &[i64], mut new_id: impl FnMut(char) -> String) -> Vec<Cut> {
    let mut times = times.to_vec();
    crate::sort::sort_keys(&mut times);
    times.dedup();
    let mut cuts = Vec::new();
    for ti in 0..tl.tracks.len() {
        // Find the cuts first so untouched tracks are never copied. Elements are sorted and
        // disjoint, so a binary search per time finds the one element a time can fall inside.
        let elements = &tl.tracks[ti].elements;
        let mut hits: Vec<(usize, Vec<i64>)> = Vec::new();
        for &t in &times {
            let ei = elements.partition_point(|e| e.end() <= t);
            if ei < elements.len() && elements[ei].start < t {
                match hits.last_mut() {
                    Some((last, at)) if *last == ei => at.push(t),
                    _ => hits.push((ei, vec![t])),
                }
            }
        }
        if hits.is_empty() {
            continue;
        }
        let track_id = tl.tracks[ti].id.clone();
        let track = tl.track_mut(ti);
        // Walk backwards so earlier indices stay valid while pieces are inserted.
        for (ei, at) in hits.into_iter().rev() {
            let original = Arc::clone(&track.elements[ei]);
            let mut pieces = Vec::with_capacity(at.len());
            let mut left = (*original).clone();
            for (k, &t) in at.iter().enumerate() {
                // The keyframes are split, not copied: they leave `left` before it is cloned.
                let animations = left.animations.take();
                let mut right = left.clone();
                right.id = new_id('e').into();
                cut_at(&mut left, &mut right, animations, t, &mut new_id);
                // A piece ends where the next cut of the same element falls, not where it ended
                // before that cut.
                let end = at.get(k + 1).copied().unwrap_or(original.end());
                cuts.push(Cut { original: original.id.to_string(), piece: right.id.to_string(), track: track_id.clone(), start: right.start, end });
                pieces.push(Arc::new(std::mem::replace(&mut left, right)));
            }
            // The first piece still carries the original id: only right parts were renamed.
            pieces.push(Arc::new(left));
            track.elements.splice(ei..=ei, pieces);
        }
    }
    // By time, then in track order (top to bottom): cuts were made track by track, and the sort
    // is stable.
    crate::sort::stable_sort_by_key(&mut cuts, |c| c.start);
    cuts
}

/// Splits `left` (a copy of the element) at `t`; `right` starts as another copy, and both
/// without the element's `animations`, which are divided between them.
pub(crate) fn cut_at(left: &mut Element, right: &mut Element, animations: Option<Animations>, t: i64, new_id: &mut impl FnMut(char) -> String) {
    let offset = t - left.start;
    if let Some(animations) = animations {
        // Key times count from each piece's own start (OpenCut's splitAnimationsAtTime).
        let (l, r) = crate::animation::split_animations(animations, offset, &mut || new_id('k'));
        left.animations = l;
        right.animations = r;
    }
    let tail = left.end() - t;
    // OpenCut's split, for every element type (text, stickers and effects too): round the left
    // piece's source span once and give the rest to the right piece, so the two spans always add
    // up to the whole; each piece's trims grow by the other's span (split-elements.ts).
    let total = left.source_ticks(left.duration);
    let head = left.source_ticks(offset).min(total);
    right.trim_start = left.trim_start + head;
    left.trim_end += total - head;
    left.duration = offset;
    right.start = t;
    right.duration = tail;
}

/// Finds each id's (track index, element index) in one pass over the timeline; `None` for ids
/// that are not there. A few ids are compared directly, many through a hash map.
pub fn locate(tl: &Timeline, ids: &[String]) -> Vec<Option<(usize, usize)>> {
    let mut found = vec![None; ids.len()];
    let index: Option<HashMap<&str, usize, BuildHasherDefault<FastHash>>> =
        (ids.len() > 8).then(|| ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect());
    let mut left = ids.len();
    'tracks: for (ti, track) in tl.tracks.iter().enumerate() {
        for (ei, e) in track.elements.iter().enumerate() {
            let hit = match &index {
                Some(map) => map.get(e.id.as_str()).copied(),
                None => ids.iter().position(|id| *id == e.id),
            };
            if let Some(i) = hit {
                if found[i].is_none() {
                    found[i] = Some((ti, ei));
                    left -= 1;
                    if left == 0 {
                        break 'tracks;
                    }
                }
            }
        }
    }
    found
}

/// A multiply-rotate hash for short ids. `locate` probes every element of the timeline, and
/// the default SipHash made that the slowest part of deleting or moving many elements.
#[derive(Default)]
pub struct FastHash(u64);

impl Hasher for FastHash {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn finish(&self) -> u64 {
        // The product's entropy is in its high bits; hashbrown picks buckets with the low ones.
        // Unrotated, `e1`..`e10000` fell in 64 of 16,384 buckets (rustc-hash 2 rotates the same way).
        self.0.rotate_left(26)
    }
}

/// Removes the elements at `positions` (track index, element index), copying only their tracks.
pub fn remove_at(tl: &mut Timeline, positions: &[(usize, usize)]) {
    // (track, element) pairs as the engine's one sort instantiation takes them (a track index
    // always fits in i64).
    let mut sorted: Vec<(i64, usize)> = positions.iter().map(|&(ti, ei)| (ti as i64, ei)).collect();
    crate::sort::sort_pairs(&mut sorted);
    sorted.dedup();
    // Back to front, so earlier indices stay valid.
    for &(ti, ei) in sorted.iter().rev() {
        tl.track_mut(ti as usize).elements.remove(ei);
    }
}

/// One element's destination in a [`relocate`]: `from` is where it is now.
pub struct Move {
    pub element: Element,
    pub from: (usize, usize),
    pub track: usize,
}

/// Takes the moving elements out, then puts each at its destination; fails on the first overlap
/// (with a staying element or with another moving one).
pub fn relocate(tl: &mut Timeline, moves: Vec<Move>) -> Result<(), EditError> {
    let from: Vec<(usize, usize)> = moves.iter().map(|m| m.from).collect();
    remove_at(tl, &from);
    for m in moves {
        insert(tl, m.track, m.element)?;
    }
    Ok(())
}

/// Cuts off the keys past `e`'s new duration when an edit changed it (OpenCut's update pipeline
/// runs `clampAnimationsToDuration` on every duration change). Key times count from the
/// element's start, so a change of start or trimStart alone leaves them as they are, as in
/// OpenCut.
pub fn fit_animations(e: &mut Element, old_duration: i64, mut new_id: impl FnMut() -> String) {
    if e.duration == old_duration {
        return;
    }
    if let Some(animations) = e.animations.take() {
        e.animations = crate::animation::clamp_to_duration(animations, e.duration, &mut new_id);
    }
}

/// Replaces one element in place (same track) with `updated`, checking its new range.
pub fn replace(tl: &mut Timeline, ti: usize, updated: Element) -> Result<(), EditError> {
    let track = &tl.tracks[ti];
    if let Some(e) = track.first_overlap(updated.start, updated.end(), &|id| id == updated.id) {
        return Err(overlap_error(track, e));
    }
    let track = tl.track_mut(ti);
    let Some(ei) = track.elements.iter().position(|e| e.id == updated.id) else {
        return Err(EditError::Incompatible { track: track.id.clone() });
    };
    let moved = track.elements[ei].start != updated.start;
    if moved {
        track.elements.remove(ei);
        track.insert_sorted(Arc::new(updated));
    } else {
        track.elements[ei] = Arc::new(updated);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::FastHash;
    use std::hash::{BuildHasher, BuildHasherDefault};

    #[test]
    fn short_ids_spread_over_the_buckets() {
        // A 16,384-bucket table indexes with the hash's low 14 bits, as hashbrown does.
        let build = BuildHasherDefault::<FastHash>::default();
        let buckets: std::collections::HashSet<u64> = (1..=10_000).map(|i| build.hash_one(format!("e{i}").as_str()) & 0x3fff).collect();
        assert!(buckets.len() > 6_000, "10,000 ids in {} of 16,384 buckets", buckets.len());
    }
}
