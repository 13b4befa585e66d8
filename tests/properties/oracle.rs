//! An oracle for the timeline edits, written from the tool spec (move_timeline_elements, split,
//! update_timeline_element_timing) and docs/tools.md (duplicate_elements, update_clip and the
//! keyframe tools), not from src/: given the saved project before a call, the call's arguments and
//! the saved project after it, it says what the call had to leave and whether it had to succeed.
//! What the spec leaves to the tool (the ids of new elements, the track a displaced copy lands on,
//! keyframe ids) is read from the result; everything else is computed here.
//!
//! Saved form: times in ticks (120 000 a second), elements sorted by start on each track, zero
//! trims and unset fields left out.

// `ensure!(a <= b, …)` negates its condition; with floats that is exactly what is meant (NaN fails).
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Value};

use proptest::prelude::*;

use super::{accepts, check_invariants, front, int, key_time, resolve, start_editor, ticks, time, Op};

type Problem = Result<(), String>;

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)*) => { if !$cond { return Err(format!($($fmt)*)); } };
}

/// Every element by id: (track index, track id, track type, element).
fn index(p: &Value) -> HashMap<String, (usize, String, String, Value)> {
    let mut out = HashMap::new();
    for (i, t) in p["timeline"]["tracks"].as_array().into_iter().flatten().enumerate() {
        for e in t["elements"].as_array().into_iter().flatten() {
            out.insert(s(&e["id"]), (i, s(&t["id"]), s(&t["type"]), e.clone()));
        }
    }
    out
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn tracks(p: &Value) -> Vec<Value> {
    p["timeline"]["tracks"].as_array().cloned().unwrap_or_default()
}

fn end(e: &Value) -> i64 {
    int(e, "start") + int(e, "duration")
}

fn is_media(e: &Value) -> bool {
    matches!(e["type"].as_str(), Some("video" | "audio"))
}

/// The source length of a video or audio element's asset, in ticks.
fn source(p: &Value, e: &Value) -> i64 {
    let a = p["assets"].as_array().unwrap().iter().find(|a| a["id"] == e["assetId"]).expect("asset");
    ticks(a["duration"].as_f64().expect("a timed asset has a duration"))
}

/// The ids in `list`, first occurrence kept (repeats name the same element once).
fn ids(list: &Value) -> Option<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for v in list.as_array()? {
        let id = v.as_str().filter(|s| !s.is_empty())?;
        if seen.insert(id) {
            out.push(id.to_string());
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Seconds given as a finite number: its ticks; `None` when absent or null; `Err` otherwise.
fn opt_ticks(v: &Value) -> Result<Option<i64>, ()> {
    match v {
        Value::Null => Ok(None),
        Value::Number(n) => n.as_f64().filter(|f| f.is_finite()).map(|f| Some(ticks(f))).ok_or(()),
        _ => Err(()),
    }
}

/// Whether any two elements of one track overlap (`[start, end)` ranges).
fn overlaps(elements: &[Value]) -> bool {
    let mut v: Vec<(i64, i64)> = elements.iter().map(|e| (int(e, "start"), end(e))).collect();
    v.sort();
    v.windows(2).any(|w| w[0].1 > w[1].0)
}

/// The project with each track's elements replaced by `placed` (track index → elements), sorted.
fn with_tracks(before: &Value, placed: Vec<Vec<Value>>) -> Value {
    let mut p = before.clone();
    for (t, mut els) in p["timeline"]["tracks"].as_array_mut().unwrap().iter_mut().zip(placed) {
        els.sort_by_key(|e| int(e, "start"));
        t["elements"] = Value::Array(els);
    }
    p
}

fn without_next_id(p: &Value) -> Value {
    let mut p = p.clone();
    p.as_object_mut().unwrap().remove("nextId");
    p
}

/// `after` must be `expected` exactly (but for the id counter).
fn same(expected: &Value, after: &Value, what: &str) -> Problem {
    let (e, a) = (without_next_id(expected), without_next_id(after));
    if e == a {
        return Ok(());
    }
    let (ei, ai) = (index(&e), index(&a));
    let mut ids: Vec<&String> = ei.keys().chain(ai.keys()).collect();
    ids.sort();
    ids.dedup();
    let first = ids.into_iter().find(|id| ei.get(*id).map(|x| (&x.1, &x.3)) != ai.get(*id).map(|x| (&x.1, &x.3)));
    Err(match first {
        Some(id) => format!("{what}: element {id} expected {:?}, got {:?}", ei.get(id).map(|x| (&x.1, &x.3)), ai.get(id).map(|x| (&x.1, &x.3))),
        None => format!("{what}: tracks differ: expected {}, got {}", e["timeline"], a["timeline"]),
    })
}

/// Checks one call. `ok` is whether the tool succeeded. A call the oracle finds invalid must have
/// failed; one it finds valid (when it can tell) must have succeeded with exactly its result.
pub fn check(tool: &str, args: &Value, before: &Value, after: &Value, ok: bool) -> Problem {
    if ok {
        front::check(tool, before, after)?;
    }
    match tool {
        "move_timeline_elements" => verdict(tool, args, ok, move_elements(before, args).map(|e| front::settle(before, e)), after),
        "split" => split(before, args, after, ok),
        "update_timeline_element_timing" => {
            // Keys past a shorter end are cut (with a boundary key): the others must stay, their handles
            // normalised (see `timing`).
            let mut expected = timing(before, args).map(|e| front::settle(before, e));
            let cut = expected.as_ref().and_then(|e| index(e).into_iter().find(|(_, x)| x.3["animations"] == "(cut)"));
            let mut after = after.clone();
            if let (Some((id, (_, _, _, e))), true) = (&cut, ok) {
                let (_, _, _, got) = index(&after).remove(id).ok_or("the retimed element is gone")?;
                inner_keys_kept(&index(before)[id].3, &got, 0, int(e, "duration"))?;
                mark_animations(&mut after, &BTreeSet::from([id.clone()]));
                mark_animations(expected.as_mut().unwrap(), &BTreeSet::from([id.clone()]));
            }
            verdict(tool, args, ok, expected, &after)
        }
        "duplicate_elements" if ok => duplicate(before, args, after),
        "update_clip" if ok => update_clip(before, args, after),
        "upsert_keyframe" | "remove_keyframe" | "update_keyframe_curve" if ok => keyframes(tool, before, args, after),
        _ => Ok(()),
    }
}

fn verdict(tool: &str, args: &Value, ok: bool, expected: Option<Value>, after: &Value) -> Problem {
    match (expected, ok) {
        (Some(e), true) => same(&e, after, tool),
        (None, false) => Ok(()),
        (Some(_), false) => Err(format!("{tool} {args} is valid by the spec but failed")),
        (None, true) => Err(format!("{tool} {args} is invalid by the spec but succeeded")),
    }
}

/// move_timeline_elements: the earliest element starts at `start`, the others keep their offsets
/// to it, on their own tracks or all on `targetTrackId`, which must accept them (an overlay
/// target, their kind too); nothing may overlap. None: the call must fail.
fn move_elements(before: &Value, args: &Value) -> Option<Value> {
    let moved = ids(&args["elementIds"])?;
    let start = opt_ticks(&args["start"]).ok()??;
    if start < 0 {
        return None;
    }
    let idx = index(before);
    let found: Vec<&(usize, String, String, Value)> = moved.iter().map(|id| idx.get(id)).collect::<Option<_>>()?;
    let ts = tracks(before);
    let target = match args.get("targetTrackId") {
        None | Some(Value::Null) => None,
        Some(t) => Some(ts.iter().position(|x| x["id"] == *t)?),
    };
    let delta = start - found.iter().map(|f| int(&f.3, "start")).min()?;
    let mut placed: Vec<Vec<Value>> =
        ts.iter().map(|t| t["elements"].as_array().unwrap().iter().filter(|e| !moved.contains(&s(&e["id"]))).cloned().collect()).collect();
    // An overlay target holds stickers or video and images, never both (OpenCut's graphic and
    // video tracks): every moved element must be of the kind of its first element that stays,
    // or of the first moved one when none stays.
    if let Some(to) = target.filter(|&to| ts[to]["type"] == "overlay") {
        let sticker = |e: &Value| e["type"] == "sticker";
        let stays = ts[to]["elements"].as_array().unwrap().iter().find(|e| !moved.contains(&s(&e["id"])));
        let group = stays.or(found.first().map(|f| &f.3)).map(sticker);
        if found.iter().any(|f| Some(sticker(&f.3)) != group) {
            return None;
        }
    }
    for (ti, _, _, e) in &found {
        let to = target.unwrap_or(*ti);
        if !accepts(ts[to]["type"].as_str()?, e["type"].as_str()?) {
            return None;
        }
        let mut e = e.clone();
        e["start"] = json!(int(&e, "start") + delta);
        placed[to].push(e);
    }
    if placed.iter().any(|els| overlaps(els)) {
        return None;
    }
    Some(with_tracks(before, placed))
}

/// update_timeline_element_timing: start alone moves; end or duration resizes from the start;
/// end and duration together must agree; video and audio trims follow the new length and may
/// not need more than the source holds. Keys past a shorter end are cut (checked apart).
fn timing(before: &Value, args: &Value) -> Option<Value> {
    let id = args["elementId"].as_str().filter(|s| !s.is_empty())?;
    let (start, end_, dur) = (opt_ticks(&args["start"]).ok()?, opt_ticks(&args["end"]).ok()?, opt_ticks(&args["duration"]).ok()?);
    if start.is_none() && end_.is_none() && dur.is_none() || start.is_some_and(|t| t < 0) || end_.is_some_and(|t| t < 0) || dur.is_some_and(|t| t <= 0) {
        return None;
    }
    let (ti, _, _, e) = index(before).remove(id)?;
    let new_start = start.unwrap_or(int(&e, "start"));
    let new_duration = match (end_, dur) {
        (Some(x), Some(d)) if new_start + d != x => return None,
        (_, Some(d)) => d,
        (Some(x), None) => x - new_start,
        (None, None) => int(&e, "duration"),
    };
    if new_duration <= 0 {
        return None;
    }
    let mut new = e.clone();
    new["start"] = json!(new_start);
    new["duration"] = json!(new_duration);
    if is_media(&e) {
        let left = source(before, &e) - int(&e, "trimStart") - new_duration;
        if left < 0 {
            return None;
        }
        set_trim(&mut new, "trimEnd", left);
    }
    // Any change of duration runs OpenCut's clampAnimationsToDuration, which cuts the keys past a
    // shorter end (with a boundary key) and normalises every channel on the way, so a handle a
    // later key made too long is clamped into its segment: key times and values inside stay, the
    // handles may not (a seed that grew a clip with such a handle is kept in the regressions).
    if new_duration != int(&e, "duration") && e.get("animations").is_some() {
        new["animations"] = json!("(cut)");
    }
    let ts = tracks(before);
    let mut placed: Vec<Vec<Value>> = ts.iter().map(|t| t["elements"].as_array().unwrap().iter().filter(|x| x["id"] != id).cloned().collect()).collect();
    placed[ti].push(new);
    if overlaps(&placed[ti]) {
        return None;
    }
    Some(with_tracks(before, placed))
}

fn set_trim(e: &mut Value, key: &str, v: i64) {
    let o = e.as_object_mut().unwrap();
    if v == 0 {
        o.remove(key)
    } else {
        o.insert(key.into(), json!(v))
    };
}

/// Keys as (time, value) pairs of every channel of `animations`, by path (colour channels apart).
fn keys(animations: &Value) -> Vec<(String, i64, Value)> {
    let mut out = Vec::new();
    for (path, data) in animations.as_object().into_iter().flatten() {
        let channels: Vec<(String, &Value)> = if data.get("keys").is_some() {
            vec![(path.clone(), data)]
        } else {
            data.as_object().unwrap().iter().map(|(c, v)| (format!("{path}.{c}"), v)).collect()
        };
        for (name, ch) in channels {
            for k in ch["keys"].as_array().into_iter().flatten() {
                out.push((name.clone(), int(k, "time"), k["value"].clone()));
            }
        }
    }
    out
}

/// A piece of a keyed element covering `[from, to)` of it (element time) keeps the keys strictly
/// inside that range, moved to its own time; keys on its edges may be added (boundary keys).
fn inner_keys_kept(original: &Value, piece: &Value, from: i64, to: i64) -> Problem {
    let want: Vec<(String, i64, Value)> =
        keys(&original["animations"]).into_iter().filter(|k| k.1 > from && k.1 < to).map(|(p, t, v)| (p, t - from, v)).collect();
    let got: Vec<(String, i64, Value)> = keys(&piece["animations"]).into_iter().filter(|k| k.1 > 0 && k.1 < to - from).collect();
    ensure!(want == got, "keys of {} inside {from}..{to}: expected {want:?}, got {got:?}", piece["id"]);
    Ok(())
}

/// Drops each `animations` the oracle does not compute (checked apart by [`inner_keys_kept`]).
fn mark_animations(p: &mut Value, marked: &BTreeSet<String>) {
    for t in p["timeline"]["tracks"].as_array_mut().unwrap() {
        for e in t["elements"].as_array_mut().unwrap() {
            if marked.contains(&s(&e["id"])) {
                e.as_object_mut().unwrap().remove("animations");
            }
        }
    }
}

/// split: every element is cut at each time strictly inside it; the left piece keeps the id and
/// each right piece gets a new one; video and audio pieces keep playing the same source.
fn split(before: &Value, args: &Value, after: &Value, ok: bool) -> Problem {
    let times: Option<Vec<i64>> =
        args["times"].as_array().filter(|t| !t.is_empty()).and_then(|t| t.iter().map(|v| v.as_f64().filter(|f| f.is_finite()).map(ticks)).collect());
    let empty = index(before).is_empty();
    let Some(times) = times.filter(|_| !empty) else {
        ensure!(!ok, "split {args} is invalid by the spec (no times, or no content) but succeeded");
        return Ok(());
    };
    ensure!(ok || times.iter().any(|t| *t < 0), "split {args} is valid by the spec but failed");
    if !ok {
        return Ok(());
    }
    let before_ids: BTreeSet<String> = index(before).into_keys().collect();
    let (after_idx, mut cut) = (index(after), BTreeSet::new());
    let mut expected = before.clone();
    for (t, at) in expected["timeline"]["tracks"].as_array_mut().unwrap().iter_mut().zip(tracks(after)) {
        let mut pieces = Vec::new();
        // New pieces are told apart by where they start: take their ids from the result.
        let new_at: HashMap<i64, String> =
            at["elements"].as_array().unwrap().iter().filter(|e| !before_ids.contains(&s(&e["id"]))).map(|e| (int(e, "start"), s(&e["id"]))).collect();
        for e in t["elements"].as_array().unwrap() {
            let (s0, e0) = (int(e, "start"), end(e));
            let mut cuts: Vec<i64> = times.iter().copied().filter(|c| *c > s0 && *c < e0).collect();
            cuts.sort();
            cuts.dedup();
            let bounds: Vec<i64> = std::iter::once(s0).chain(cuts.iter().copied()).chain(std::iter::once(e0)).collect();
            for w in bounds.windows(2) {
                let mut p = e.clone();
                if w[0] != s0 {
                    p["id"] = json!(new_at.get(&w[0]).cloned().unwrap_or_else(|| format!("(no piece at {})", w[0])));
                }
                p["start"] = json!(w[0]);
                p["duration"] = json!(w[1] - w[0]);
                // Every type's trims grow by what the other pieces cover (OpenCut's split-elements.ts).
                set_trim(&mut p, "trimStart", int(e, "trimStart") + w[0] - s0);
                set_trim(&mut p, "trimEnd", int(e, "trimEnd") + e0 - w[1]);
                if !cuts.is_empty() && e.get("animations").is_some() {
                    if let Some((_, _, _, got)) = after_idx.get(&s(&p["id"])) {
                        inner_keys_kept(e, got, w[0] - s0, w[1] - s0)?;
                    }
                    cut.insert(s(&p["id"]));
                }
                pieces.push(p);
            }
        }
        t["elements"] = Value::Array(pieces);
    }
    let mut after = after.clone();
    mark_animations(&mut expected, &cut);
    mark_animations(&mut after, &cut);
    same(&expected, &after, "split")
}

/// duplicate_elements: the originals stay; each copy has every property of its original and a
/// new id; by default the copies start right after the last original ends, with startTime the
/// earliest copy starts there; the spacing is kept. A copy stays on its track when that time is
/// free there before the call, else it goes on another track of that type; trackId puts all on
/// that track.
fn duplicate(before: &Value, args: &Value, after: &Value) -> Problem {
    let originals = ids(&args["elementIds"]).ok_or("duplicate_elements succeeded without ids")?;
    let (bi, ai) = (index(before), index(after));
    let found: Vec<&(usize, String, String, Value)> =
        originals.iter().map(|id| bi.get(id)).collect::<Option<_>>().ok_or("duplicate_elements succeeded with a missing id")?;
    let first = found.iter().map(|f| int(&f.3, "start")).min().unwrap();
    let shift = match opt_ticks(&args["startTime"]) {
        Ok(Some(at)) => at - first,
        _ => found.iter().map(|f| end(&f.3)).max().unwrap() - first,
    };
    let copies: Vec<&(usize, String, String, Value)> = ai.iter().filter(|(id, _)| !bi.contains_key(*id)).map(|(_, v)| v).collect();
    ensure!(copies.len() == originals.len(), "duplicate_elements made {} copies of {} elements", copies.len(), originals.len());
    let strip = |e: &Value| {
        let mut e = e.clone();
        e.as_object_mut().unwrap().remove("id");
        e.as_object_mut().unwrap().remove("start");
        // Keyframe ids are new; times and values are the original's.
        e["animations"] = json!(keys(&e["animations"]));
        e
    };
    // The copies each original may have: its properties at its new start, on a track the rule
    // allows. Copies of alike originals (same properties, same start) differ only in their ids,
    // which the tool chooses, so any one-to-one pairing that keeps every rule will do.
    // The front of the main track (front.rs) may have moved the copies earlier together, or the
    // first main copy alone to 0: the settled copies are told by where the earliest one is.
    let by = first + shift - copies.iter().map(|c| int(&c.3, "start")).min().unwrap();
    ensure!(by == 0 || copies.iter().any(|c| c.2 == "main"), "duplicate_elements moved copies {by} earlier with none on the main track");
    let mut allowed: Vec<Vec<usize>> = Vec::new();
    for (_, track, ttype, o) in &found {
        let start = int(o, "start") + shift;
        let at = |c: usize| [start, start - by].contains(&int(&copies[c].3, "start")) || (copies[c].2 == "main" && int(&copies[c].3, "start") == 0);
        let alike: Vec<usize> = (0..copies.len()).filter(|&c| at(c) && strip(&copies[c].3) == strip(o)).collect();
        ensure!(!alike.is_empty(), "no copy of {} at {start} with its properties", o["id"]);
        let own_free = bi.values().filter(|x| &x.1 == track).all(|x| end(&x.3) <= start || int(&x.3, "start") >= start + int(o, "duration"));
        let rule = |c: usize| -> Problem {
            let (_, ctrack, ctype, _) = copies[c];
            match args["trackId"].as_str() {
                Some(t) => ensure!(ctrack == t, "copy of {} on {ctrack}, not the given {t}", o["id"]),
                None if own_free => ensure!(ctrack == track, "copy of {} on {ctrack}, though its track {track} is free there", o["id"]),
                None => ensure!(ctype == ttype && ctrack != track, "copy of {} on {ctrack} ({ctype})", o["id"]),
            }
            Ok(())
        };
        let fits: Vec<usize> = alike.iter().copied().filter(|&c| rule(c).is_ok()).collect();
        if fits.is_empty() {
            rule(alike[0])?;
        }
        allowed.push(fits);
    }
    ensure!(pairing(&allowed, &mut vec![false; copies.len()]), "no copy for each of {originals:?} on a track the rule allows, one copy each");
    // Nothing else changes: the project but for the copies (and any track made for them) is as before.
    let mut rest = after.clone();
    for t in rest["timeline"]["tracks"].as_array_mut().unwrap() {
        let els: Vec<Value> = t["elements"].as_array().unwrap().iter().filter(|e| bi.contains_key(&s(&e["id"]))).cloned().collect();
        t["elements"] = Value::Array(els);
    }
    let old: BTreeSet<String> = tracks(before).iter().map(|t| s(&t["id"])).collect();
    rest["timeline"]["tracks"].as_array_mut().unwrap().retain(|t| old.contains(&s(&t["id"])));
    same(before, &rest, "duplicate_elements")
}

/// Whether each original (a row of the copies it may have) can get a copy of its own.
fn pairing(allowed: &[Vec<usize>], taken: &mut [bool]) -> bool {
    let Some((first, rest)) = allowed.split_first() else { return true };
    first.iter().any(|&c| {
        if taken[c] {
            return false;
        }
        taken[c] = true;
        let ok = pairing(rest, taken);
        taken[c] = false;
        ok
    })
}

/// The saved field and value update_clip writes for each argument (docs/tools.md: volume in dB
/// is stored as a gain; rotation as transform.rotate), and which element types take it.
fn clip_fields(k: &str, v: &Value) -> Vec<(&'static str, Value, &'static [&'static str])> {
    const VISUAL: &[&str] = &["video", "image", "text", "sticker"];
    const SOUND: &[&str] = &["video", "audio"];
    match k {
        "opacity" => vec![("opacity", v.clone(), VISUAL)],
        "scale" => vec![("scaleX", v.clone(), VISUAL), ("scaleY", v.clone(), VISUAL)],
        "rotation" => vec![("rotate", v.clone(), VISUAL)],
        "blendMode" => vec![("blendMode", v.clone(), VISUAL)],
        "hidden" => vec![("hidden", v.clone(), VISUAL)],
        "muted" => vec![("muted", v.clone(), SOUND)],
        "volume" => vec![("volume", json!(10f64.powf(v.as_f64().unwrap() / 20.0)), SOUND)],
        "position" if v.is_object() => vec![("x", v["x"].clone(), VISUAL), ("y", v["y"].clone(), VISUAL)],
        _ => Vec::new(), // an anchor: where it lands depends on the drawn size (cases pin it)
    }
}

/// OpenCut's defaults, which the saved form may leave out.
fn default_of(field: &str) -> Value {
    match field {
        "opacity" | "scaleX" | "scaleY" | "volume" => json!(1.0),
        "rotate" | "x" | "y" => json!(0.0),
        "blendMode" => json!("normal"),
        "hidden" | "muted" => json!(false),
        _ => Value::Null,
    }
}

fn close(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(1.0),
        _ => a == b,
    }
}

/// update_clip: each element named takes each property given that its type has; only those
/// change, and no other element.
fn update_clip(before: &Value, args: &Value, after: &Value) -> Problem {
    let named = ids(&args["elementIds"]).ok_or("update_clip succeeded without ids")?;
    let (bi, ai) = (index(before), index(after));
    let mut expected = before.clone();
    let mut loose: BTreeSet<(String, &str)> = BTreeSet::new();
    for id in &named {
        let (_, _, _, e) = bi.get(id).ok_or("update_clip succeeded with a missing id")?;
        let (_, _, _, got) = &ai[id];
        let kind = e["type"].as_str().unwrap();
        for (k, v) in args.as_object().unwrap().iter().filter(|(k, _)| *k != "elementIds") {
            // An anchor lands where the drawn size puts it (the cases pin it); pixels replace a
            // text's or sticker's named placement.
            if k == "position" {
                ["x", "y", "position"].iter().for_each(|f| {
                    loose.insert((id.clone(), f));
                });
            }
            for (field, want, takes) in clip_fields(k, v) {
                if takes.contains(&kind) {
                    let have = got.get(field).cloned().unwrap_or_else(|| default_of(field));
                    ensure!(close(&want, &have), "update_clip {args}: {id}.{field} expected {want}, got {have}");
                }
                loose.insert((id.clone(), field));
            }
        }
    }
    // Every other field of every element is as before.
    let mut after = after.clone();
    for p in [&mut expected, &mut after] {
        for t in p["timeline"]["tracks"].as_array_mut().unwrap() {
            for e in t["elements"].as_array_mut().unwrap() {
                let id = s(&e["id"]);
                let o = e.as_object_mut().unwrap();
                o.retain(|k, _| !loose.contains(&(id.clone(), k.as_str())));
            }
        }
    }
    same(&expected, &after, "update_clip")
}

/// The keyframe tools: the keys of the one property change as the tool says (upsert sets or adds
/// the key at that time, remove takes it away, a curve keeps every time and value); nothing else
/// of any element changes.
fn keyframes(tool: &str, before: &Value, args: &Value, after: &Value) -> Problem {
    let (bi, ai) = (index(before), index(after));
    let id = args["elementId"].as_str().unwrap_or_default();
    let (_, _, _, was) = bi.get(id).ok_or_else(|| format!("{tool} succeeded on a missing element {id}"))?;
    let (_, _, _, now) = &ai[id];
    let path = args["property"].as_str().unwrap_or_default();
    let at = ticks(args["time"].as_f64().unwrap_or(-1.0));
    let of = |e: &Value| -> Vec<(String, i64, Value)> {
        keys(&e["animations"]).into_iter().filter(|k| k.0 == path || k.0.starts_with(&format!("{path}."))).collect()
    };
    let (old, new) = (of(was), of(now));
    let scalar = !matches!(path, "color" | "volume");
    match tool {
        "upsert_keyframe" => {
            let mut want: Vec<(i64, Value)> = old.iter().filter(|k| k.1 != at).map(|k| (k.1, k.2.clone())).collect();
            let times: Vec<i64> = new.iter().map(|k| k.1).collect();
            ensure!(times.contains(&at), "upsert_keyframe {args}: no key at {at}: {new:?}");
            if scalar {
                want.push((at, args["value"].clone()));
                want.sort_by_key(|k| k.0);
                let got: Vec<(i64, Value)> = new.iter().map(|k| (k.1, k.2.clone())).collect();
                ensure!(
                    want.len() == got.len() && want.iter().zip(&got).all(|(a, b)| a.0 == b.0 && close(&a.1, &b.1)),
                    "upsert_keyframe {args}: expected keys {want:?}, got {got:?}"
                );
            }
        }
        "remove_keyframe" => {
            let want: Vec<&(String, i64, Value)> = old.iter().filter(|k| k.1 != at).collect();
            ensure!(want.len() < old.len() && want == new.iter().collect::<Vec<_>>(), "remove_keyframe {args}: expected {want:?}, got {new:?}");
            if new.is_empty() {
                ensure!(now["animations"].get(path).is_none(), "remove_keyframe {args}: an empty {path} channel stays");
            }
        }
        _ => {
            ensure!(old == new, "update_keyframe_curve {args} changed key times or values: {old:?} to {new:?}");
            curve(args, now, path, at)?;
        }
    }
    // No other property of this element, nor any other element, changes.
    let mut expected = before.clone();
    let mut after = after.clone();
    for p in [&mut expected, &mut after] {
        for t in p["timeline"]["tracks"].as_array_mut().unwrap() {
            for e in t["elements"].as_array_mut().unwrap().iter_mut().filter(|e| e["id"] == id) {
                let o = e.as_object_mut().unwrap();
                if let Some(Value::Object(a)) = o.get_mut("animations") {
                    a.remove(path);
                    if a.is_empty() {
                        o.remove("animations");
                    }
                }
            }
        }
    }
    same(&expected, &after, tool)
}

/// update_keyframe_curve with an easing: the segment from the key at `at` to the next is a
/// bezier with CSS's control points (ease-in 0.42,0 → 1,1; ease-out 0,0 → 0.58,1; ease-in-out
/// 0.42,0 → 0.58,1), handles in ticks and value units; linear makes the segment linear.
fn curve(args: &Value, now: &Value, path: &str, at: i64) -> Problem {
    let Some(channel) = now["animations"][path]["keys"].as_array() else { return Ok(()) }; // colour: four channels
    let Some(i) = channel.iter().position(|k| int(k, "time") == at) else { return Ok(()) };
    let (key, next) = (&channel[i], channel.get(i + 1).ok_or("a curve on the last key succeeded")?);
    let easing = args["easing"].as_str().unwrap_or_default();
    let gap = (int(next, "time") - at) as f64;
    let (right, left) = match easing {
        "ease-in" => (0.42, 0.0),
        "ease-out" => (0.0, -0.42),
        "ease-in-out" => (0.42, -0.42),
        _ => {
            ensure!(key["segmentToNext"] == "linear", "easing linear left segment {}", key["segmentToNext"]);
            return Ok(());
        }
    };
    ensure!(key["segmentToNext"] == "bezier", "{easing}: segment {}", key["segmentToNext"]);
    let dt = |h: &Value| h["dt"].as_f64().unwrap_or(f64::NAN);
    ensure!((dt(&key["rightHandle"]) - right * gap).abs() <= 1.0, "{easing}: right handle {} for a gap of {gap}", key["rightHandle"]);
    ensure!((dt(&next["leftHandle"]) - left * gap).abs() <= 1.0, "{easing}: left handle {} for a gap of {gap}", next["leftHandle"]);
    ensure!(key["rightHandle"]["dv"].as_f64() == Some(0.0) && next["leftHandle"]["dv"].as_f64() == Some(0.0), "{easing}: handles move the value");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The property: calls drawn so that most succeed, each judged by the oracle

/// The edits the oracle judges, drawn so that most succeed: few elements far apart, opacity keys
/// on the visual ones, curves on keys that have a next one.
fn oracle_op() -> impl Strategy<Value = Op> {
    let idx = || 0usize..5;
    prop_oneof![
        3 => (prop::collection::vec(idx(), 1..3), time(), prop::option::of(0usize..5)).prop_map(|(a, b, c)| Op::Move(a, b, c)),
        3 => (idx(), prop::option::of(time()), prop::option::of(time()), prop::option::of((1u32..24).prop_map(|q| q as f64 / 4.0)))
            .prop_map(|(a, b, c, d)| Op::Timing(a, b, c, d)),
        2 => prop::collection::vec(time(), 1..3).prop_map(Op::Split),
        2 => (prop::collection::vec(idx(), 1..3), prop::option::of(time())).prop_map(|(a, b)| Op::Duplicate(a, b, None)),
        2 => (prop::collection::vec(0usize..5, 1..3), any::<u8>(), 0.0f64..1.0).prop_map(|(a, b, c)| Op::UpdateClip(a, b, c)),
        4 => (idx(), key_time(), 0.0f64..1.0).prop_map(|(a, t, v)| Op::Keyframe(a, 0, t, v)),
        2 => (idx(), idx(), key_time()).prop_map(|(a, b, c)| Op::RemoveKeyframe(a, b, c)),
        3 => (idx(), idx(), key_time(), 0usize..4).prop_map(|(a, b, c, d)| Op::Curve(a, b, c, d)),
        1 => Just(Op::Undo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256), rng_seed: crate::seed(), ..ProptestConfig::default() })]

    /// Every call of move, split, timing, duplicate, update_clip and the keyframe tools against the
    /// oracle written from the spec (tests/properties/oracle.rs): the timeline it must leave, and
    /// whether it had to succeed.
    #[test]
    fn timeline_edits_agree_with_the_oracle(ops in prop::collection::vec(oracle_op(), 1..30)) {
        // Two clips on main (0-4 s, 20-24 s), a still on an overlay (8-12 s), music (0-4 s).
        let mut ed = start_editor(&[(0, 0.0), (0, 20.0), (1, 8.0), (2, 0.0)]);
        for op in &ops {
            let (tool, args) = resolve(&ed, op);
            let before: Value = serde_json::from_str(&ed.project_json().unwrap()).unwrap();
            let res = ed.call_tool(&tool, &args);
            let after: Value = serde_json::from_str(&ed.project_json().unwrap()).unwrap();
            if res.is_err() {
                prop_assert_eq!(&after, &before, "failed {} changed the project", tool);
            } else {
                check_invariants(&after.to_string());
            }
            if let Err(why) = check(&tool, &args, &before, &after, res.is_ok()) {
                prop_assert!(false, "oracle: {}", why);
            }
        }
    }
}

/// Two alike images (same asset, 12-16 s) on two overlay tracks, copied together: both copies are
/// alike too, each on its original's free track. The oracle must pair them one to one whatever
/// order its maps give (PROPTEST_RNG_SEED=20261201 found it pairing the first original with the
/// second's copy), so the check runs several times: each run hashes in another order.
#[test]
fn alike_copies_are_paired_one_to_one() {
    let mut ed = start_editor(&[(1, 8.5), (1, 12.0), (1, 8.5), (1, 5.0), (1, 12.0)]);
    let before: Value = serde_json::from_str(&ed.project_json().unwrap()).unwrap();
    let alike: Vec<String> = index(&before).into_iter().filter(|(_, x)| int(&x.3, "start") == ticks(12.0)).map(|(id, _)| id).collect();
    assert_eq!(alike.len(), 2, "two images at 12 s: {alike:?}");
    let args = json!({ "elementIds": alike });
    let reply = ed.call_tool("duplicate_elements", &args).unwrap();
    let after: Value = serde_json::from_str(&ed.project_json().unwrap()).unwrap();
    let (bi, ai) = (index(&before), index(&after));
    for copy in reply["elements"].as_array().unwrap() {
        assert_eq!(ai[&s(&copy["elementId"])].1, bi[&s(&copy["sourceId"])].1, "each copy on its original's track: {reply}");
    }
    for _ in 0..16 {
        check("duplicate_elements", &args, &before, &after, true).unwrap();
    }
}
