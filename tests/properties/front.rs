//! The front of the main track, as docs/tools-behaviour.md states OpenCut's rule
//! (timeline/placement/main-track.ts `enforceMainTrackStart`, group-move's resolve-move.ts): after
//! a call that places or retimes (add_media_to_timeline, move_timeline_elements,
//! update_timeline_element_timing, duplicate_elements), when the main track's first element is one
//! the call placed and it starts after 0, everything the call placed moves earlier by the least of
//! their starts (so nothing goes below 0); if that overlaps, the first element moves to 0 alone.
//! Written from that text, on saved projects, apart from the engine's src/main_start.rs.

use std::collections::HashMap;

use serde_json::Value;

use super::int;

pub const PLACING: [&str; 4] = ["add_media_to_timeline", "move_timeline_elements", "update_timeline_element_timing", "duplicate_elements"];

fn starts(p: &Value) -> HashMap<String, i64> {
    let tracks = p["timeline"]["tracks"].as_array().into_iter().flatten();
    tracks.flat_map(|t| t["elements"].as_array().into_iter().flatten()).map(|e| (e["id"].as_str().unwrap().to_string(), int(e, "start"))).collect()
}

/// The main track's first element: (id, start).
fn main_first(p: &Value) -> Option<(String, i64)> {
    let main = p["timeline"]["tracks"].as_array()?.iter().find(|t| t["type"] == "main")?;
    main["elements"].as_array()?.iter().map(|e| (e["id"].as_str().unwrap().to_string(), int(e, "start"))).min_by_key(|x| x.1)
}

/// What the call placed: elements of `after` that `before` lacks or held at another start.
pub fn placed(before: &Value, after: &Value) -> HashMap<String, i64> {
    let was = starts(before);
    starts(after).into_iter().filter(|(id, s)| was.get(id) != Some(s)).collect()
}

fn overlapping(p: &Value) -> bool {
    p["timeline"]["tracks"].as_array().unwrap().iter().any(|t| {
        let mut v: Vec<(i64, i64)> = t["elements"].as_array().unwrap().iter().map(|e| (int(e, "start"), int(e, "start") + int(e, "duration"))).collect();
        v.sort();
        v.windows(2).any(|w| w[0].1 > w[1].0)
    })
}

fn shift(p: &Value, ids: &[&String], by: i64) -> Value {
    let mut out = p.clone();
    for t in out["timeline"]["tracks"].as_array_mut().unwrap() {
        let els = t["elements"].as_array_mut().unwrap();
        for e in els.iter_mut().filter(|e| ids.iter().any(|id| e["id"] == id.as_str())) {
            e["start"] = (int(e, "start") - by).into();
        }
        els.sort_by_key(|e| int(e, "start"));
    }
    out
}

/// `expected` (what the call would leave without the rule) with the rule applied.
pub fn settle(before: &Value, expected: Value) -> Value {
    let group = placed(before, &expected);
    let Some((first, at)) = main_first(&expected).filter(|(id, at)| *at > 0 && group.contains_key(id)) else { return expected };
    let by = group.values().copied().min().unwrap_or(0).min(at);
    if by == 0 {
        return expected;
    }
    let ids: Vec<&String> = group.keys().collect();
    let together = shift(&expected, &ids, by);
    if !overlapping(&together) {
        return together;
    }
    shift(&expected, &[&first], at)
}

/// The rule's promise on any result: the main track's first element, when the call placed it,
/// starts at 0, or something the call placed does (a group that cannot go lower).
pub fn check(tool: &str, before: &Value, after: &Value) -> Result<(), String> {
    if !PLACING.contains(&tool) {
        return Ok(());
    }
    let group = placed(before, after);
    match main_first(after) {
        Some((id, at)) if at > 0 && group.contains_key(&id) && !group.values().any(|s| *s == 0) => {
            Err(format!("{tool} left the main track starting at {at} with its own element {id} first"))
        }
        _ => Ok(()),
    }
}
