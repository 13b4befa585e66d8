//! Property test: random sequences of random tool calls, valid and invalid, on random timelines
//! (add_captions and import_subtitles among them: every word once, in order, on the new top track).
//! No call panics; a failed call changes nothing; after every successful call the model's
//! invariants hold (checked on the saved JSON by an oracle written here, not by the model's own
//! helpers); a call that changes the timeline pushes exactly one undo step and one that changes
//! nothing pushes none; undoing everything restores the start exactly, redoing everything the end.
//!
//! Times include sub-tick values (a tick is 1/120 000 s), so the rounding of seconds to ticks is
//! exercised; effect calls draw every effect of the design's table with parameters drawn around
//! each one's range, and must succeed exactly when every value is within it. After each call of
//! move_timeline_elements, split, update_timeline_element_timing, duplicate_elements, update_clip
//! and the keyframe tools, an oracle written from the spec (tests/properties/oracle.rs) says what
//! the timeline must be, and whether the call had to succeed.

use std::collections::HashSet;
use std::sync::OnceLock;

use neuralcut::{Editor, NewAsset};

#[path = "properties/front.rs"]
mod front;
#[path = "properties/oracle.rs"]
mod oracle;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Ticks per second, written out (docs/ARCHITECTURE.md: 120 000, OpenCut's MediaTime unit).
const TICKS: f64 = 120_000.0;

/// A seconds value as the engine must store it: the nearest tick.
fn ticks(seconds: f64) -> i64 {
    (seconds * TICKS).round() as i64
}

#[derive(Clone, Debug)]
enum Op {
    Split(Vec<f64>),
    Delete(Vec<usize>),
    Move(Vec<usize>, f64, Option<usize>),
    AddText(String, f64, f64),
    UpdateText(usize, Option<f64>, Option<f64>),
    AddMedia(usize, f64, usize, Option<f64>),
    Timing(usize, Option<f64>, Option<f64>, Option<f64>),
    DeleteElement(usize),
    Volume(usize, f64),
    Sticker(f64, f64),
    /// Effect index (into the registry), start, end, and one draw per parameter.
    Effect(usize, f64, f64, Vec<Draw>),
    UpdateEffect(usize, Vec<Draw>),
    GetElement(usize),
    UpdateClip(Vec<usize>, u8, f64),
    Duplicate(Vec<usize>, Option<f64>, Option<usize>),
    UpdateTrack(usize, u8),
    MoveTrack(usize, u8, usize),
    Keyframe(usize, usize, f64, f64),
    RemoveKeyframe(usize, usize, f64),
    Curve(usize, usize, f64, usize),
    ByRef(u8, usize),
    Undo,
    Redo,
    Batch(Vec<Op>),
    Garbage(String, Value),
    /// add_captions of words at these (start, end) times, in the order drawn.
    Captions(Vec<(f64, f64)>, u8),
    /// import_subtitles of SubRip cues at these (start, length) milliseconds.
    Subtitles(Vec<(u32, u32)>),
}

/// A parameter draw: left out, or a value at `u` across the parameter's range, where `u` in
/// [0, 1] is inside it (both ends included) and anything else is outside.
#[derive(Clone, Copy, Debug)]
enum Draw {
    Absent,
    At(f64),
}

fn draw() -> impl Strategy<Value = Draw> {
    prop_oneof![
        2 => Just(Draw::Absent),
        5 => (0.0f64..=1.0).prop_map(Draw::At),
        1 => prop_oneof![Just(0.0), Just(1.0)].prop_map(Draw::At),
        2 => prop_oneof![-0.5f64..-1e-9, (1.0 + 1e-9)..1.5f64].prop_map(Draw::At),
    ]
}

fn time() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => (0u32..240).prop_map(|q| q as f64 / 4.0),
        // A quarter second off by less than a tick either way: must round onto the nearest tick.
        3 => ((0u32..240), -0.75f64..0.75).prop_map(|(q, f)| q as f64 / 4.0 + f / TICKS),
        1 => Just(-1.0),
        1 => (0u32..60_000).prop_map(|ms| ms as f64 / 1000.0),
        1 => 0.0f64..60.0,
    ]
}

fn op_leaf() -> impl Strategy<Value = Op> {
    let idx = || 0usize..10;
    prop_oneof![
        prop::collection::vec(time(), 0..4).prop_map(Op::Split),
        prop::collection::vec(idx(), 0..4).prop_map(Op::Delete),
        (prop::collection::vec(idx(), 1..3), time(), prop::option::of(idx())).prop_map(|(a, b, c)| Op::Move(a, b, c)),
        ("[a-z ]{0,8}", time(), time()).prop_map(|(a, b, c)| Op::AddText(a, b, c)),
        (idx(), prop::option::of(time()), prop::option::of(time())).prop_map(|(a, b, c)| Op::UpdateText(a, b, c)),
        (0usize..4, time(), 0usize..4, prop::option::of(time())).prop_map(|(a, b, c, d)| Op::AddMedia(a, b, c, d)),
        (idx(), prop::option::of(time()), prop::option::of(time()), prop::option::of(time())).prop_map(|(a, b, c, d)| Op::Timing(a, b, c, d)),
        idx().prop_map(Op::DeleteElement),
        (idx(), -0.5f64..1.5).prop_map(|(a, b)| Op::Volume(a, b)),
        (time(), time()).prop_map(|(a, b)| Op::Sticker(a, b)),
        (0usize..64, time(), time(), prop::collection::vec(draw(), 4)).prop_map(|(a, b, c, d)| Op::Effect(a, b, c, d)),
        (idx(), prop::collection::vec(draw(), 4)).prop_map(|(a, b)| Op::UpdateEffect(a, b)),
        idx().prop_map(Op::GetElement),
        (prop::collection::vec(0usize..6, 1..3), any::<u8>(), -0.5f64..1.5).prop_map(|(a, b, c)| Op::UpdateClip(a, b, c)),
        (prop::collection::vec(idx(), 1..3), prop::option::of(time()), prop::option::of(0usize..7)).prop_map(|(a, b, c)| Op::Duplicate(a, b, c)),
        (0usize..7, any::<u8>()).prop_map(|(a, b)| Op::UpdateTrack(a, b)),
        (0usize..7, any::<u8>(), 0usize..7).prop_map(|(a, b, c)| Op::MoveTrack(a, b, c)),
        (0usize..5, prop(), key_time(), -0.5f64..1.5).prop_map(|(a, b, c, d)| Op::Keyframe(a, b, c, d)),
        (0usize..5, prop(), key_time()).prop_map(|(a, b, c)| Op::RemoveKeyframe(a, b, c)),
        (0usize..5, prop(), key_time(), 0usize..5).prop_map(|(a, b, c, d)| Op::Curve(a, b, c, d)),
        (any::<u8>(), 0usize..6).prop_map(|(a, b)| Op::ByRef(a, b)),
        (prop::collection::vec((time(), 0.0f64..2.0), 0..6), any::<u8>()).prop_map(|(w, n)| {
            let mut words: Vec<(f64, f64)> = w.into_iter().map(|(s, d)| (s, s + d)).collect();
            // Mostly in spoken order, as a transcript gives them; now and then not.
            if n % 4 != 0 {
                words.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            Op::Captions(words, n)
        }),
        prop::collection::vec((0u32..60_000, 0u32..3_000), 1..4).prop_map(Op::Subtitles),
        Just(Op::Undo),
        Just(Op::Redo),
        (prop_oneof![Just("split"), Just("nope"), Just("list_timeline"), Just("move_timeline_elements")], any::<u8>())
            .prop_map(|(t, n)| Op::Garbage(t.to_string(), garbage(n))),
    ]
}

/// Keyframe times: mostly inside a 4 s element, a few past it.
fn key_time() -> impl Strategy<Value = f64> {
    prop_oneof![4 => (0u32..4).prop_map(|q| q as f64 / 2.0), 1 => (0u32..20).prop_map(|q| q as f64 / 4.0)]
}

/// Mostly properties every visual element has; a few that only some have, or none.
fn prop() -> impl Strategy<Value = usize> {
    prop_oneof![6 => 0usize..4, 1 => 4usize..9]
}

fn garbage(n: u8) -> Value {
    match n % 6 {
        0 => json!(null),
        1 => json!([1, 2]),
        2 => json!({ "times": "soon" }),
        3 => json!({ "bogus": 1 }),
        4 => json!({ "elementIds": [], "start": f64::MAX }),
        _ => json!("text"),
    }
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => op_leaf(),
        1 => prop::collection::vec(op_leaf(), 1..4).prop_map(Op::Batch),
    ]
}

fn element_ids(ed: &Editor) -> Vec<(String, String, String)> {
    let tl = ed.project().and_then(|p| p.timeline.as_ref()).expect("timeline");
    tl.tracks.iter().flat_map(|t| t.elements.iter().map(move |e| (t.id.clone(), e.id.to_string(), e.kind.as_str().to_string()))).collect()
}

fn track_ids(ed: &Editor) -> Vec<String> {
    ed.project().and_then(|p| p.timeline.as_ref()).map(|t| t.tracks.iter().map(|t| t.id.clone()).collect()).unwrap_or_default()
}

/// Picks the i-th element, or an id that does not exist when i is past the end.
fn pick(list: &[(String, String, String)], i: usize) -> (String, String) {
    list.get(i).map(|(t, e, _)| (t.clone(), e.clone())).unwrap_or_else(|| ("t999".into(), format!("e9{i}")))
}

const PROPERTIES: [&str; 9] =
    ["opacity", "transform.positionX", "transform.scaleX", "transform.rotate", "volume", "color", "background.cornerRadius", "blendMode", "nope"];

/// One numeric parameter of an effect.
#[derive(Clone, Debug)]
struct Param {
    key: String,
    min: f64,
    max: f64,
}

/// The effects and their numeric parameters (key, min, max), written out from the design's
/// "Effects" table (shared/design.md), not read from get_effect: a wrongly published range
/// must not move the bound it is judged by. `the_effect_table_is_what_the_tools_publish`
/// compares the two.
#[allow(clippy::type_complexity)] // (effect, [(parameter, min, max)]), as the table reads
const EFFECTS: &[(&str, &[(&str, f64, f64)])] = &[
    ("blur", &[("intensity", 0.0, 100.0)]),
    ("brightness-contrast", &[("brightness", -1.0, 1.0), ("contrast", 0.0, 3.0)]),
    ("grayscale", &[("intensity", 0.0, 100.0)]),
    ("saturation", &[("saturation", 0.0, 300.0)]),
    ("sepia", &[("intensity", 0.0, 100.0)]),
    ("invert", &[("intensity", 0.0, 100.0)]),
    ("vignette", &[("radius", 10.0, 100.0), ("softness", 5.0, 80.0)]),
];

fn registry() -> &'static Vec<(String, Vec<Param>)> {
    static REGISTRY: OnceLock<Vec<(String, Vec<Param>)>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        EFFECTS
            .iter()
            .map(|(id, params)| (id.to_string(), params.iter().map(|(k, min, max)| Param { key: k.to_string(), min: *min, max: *max }).collect()))
            .collect()
    })
}

#[test]
fn the_effect_table_is_what_the_tools_publish() {
    let mut ed = Editor::new();
    let list = ed.call_tool("list_effects", &json!({})).expect("list_effects");
    let mut published: Vec<String> = list["effects"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_string()).collect();
    published.sort();
    let mut ours: Vec<String> = EFFECTS.iter().map(|(id, _)| id.to_string()).collect();
    ours.sort();
    assert_eq!(published, ours, "the seven effects of the design");
    for (id, params) in EFFECTS {
        let def = ed.call_tool("get_effect", &json!({ "effectType": id })).expect("get_effect");
        let got: Vec<(String, f64, f64)> = def["params"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["key"].as_str().unwrap().to_string(), p["min"].as_f64().unwrap(), p["max"].as_f64().unwrap()))
            .collect();
        let want: Vec<(String, f64, f64)> = params.iter().map(|(k, a, b)| (k.to_string(), *a, *b)).collect();
        assert_eq!(got, want, "{id}'s parameter ranges");
    }
}

fn effect_params(effect: &str) -> &'static [Param] {
    registry().iter().find(|(id, _)| id == effect).map_or(&[], |(_, p)| p)
}

/// The params object of `draws` for `params`, and whether every value given is in range.
fn draw_params(params: &[Param], draws: &[Draw]) -> (Map<String, Value>, bool) {
    let mut out = Map::new();
    let mut in_range = true;
    for (p, d) in params.iter().zip(draws) {
        if let Draw::At(u) = *d {
            let v = if u == 0.0 {
                p.min
            } else if u == 1.0 {
                p.max
            } else {
                p.min + u * (p.max - p.min)
            };
            in_range &= (p.min..=p.max).contains(&v);
            out.insert(p.key.clone(), json!(v));
        }
    }
    (out, in_range)
}

/// The effect type of element `id`, if it is an effect.
fn effect_type_of(ed: &Editor, id: &str) -> Option<String> {
    let tl = ed.project()?.timeline.as_ref()?;
    tl.tracks.iter().flat_map(|t| t.elements.iter()).find(|e| e.id == id)?.effect_type.clone()
}

fn resolve(ed: &Editor, op: &Op) -> (String, Value) {
    let els = element_ids(ed);
    let tracks = track_ids(ed);
    let opt = |v: &Option<f64>| v.map_or(Value::Null, Value::from);
    match op {
        Op::Split(times) => ("split".into(), json!({ "times": times })),
        Op::Delete(ix) => ("delete_timeline_elements".into(), json!({ "elementIds": ix.iter().map(|i| pick(&els, *i).1).collect::<Vec<_>>() })),
        Op::Move(ix, start, target) => {
            let mut args = json!({ "elementIds": ix.iter().map(|i| pick(&els, *i).1).collect::<Vec<_>>(), "start": start });
            if let Some(t) = target {
                args["targetTrackId"] = tracks.get(*t).cloned().unwrap_or_else(|| "t404".into()).into();
            }
            ("move_timeline_elements".into(), args)
        }
        Op::Captions(words, n) => {
            let words: Vec<Value> = words.iter().enumerate().map(|(i, (s, e))| json!({ "start": s, "end": e, "text": word(i) })).collect();
            ("add_captions".into(), json!({ "words": words, "maxCharsPerLine": 1 + n % 20, "maxLines": 1 + n % 3 }))
        }
        Op::Subtitles(cues) => {
            let clock = |ms: u32| format!("00:{:02}:{:02},{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000);
            let text: String = cues.iter().enumerate().map(|(i, (s, d))| format!("{}\n{} --> {}\ncue {i}\n\n", i + 1, clock(*s), clock(s + d))).collect();
            ("import_subtitles".into(), json!({ "format": "srt", "text": text }))
        }
        Op::AddText(text, s, e) => ("add_text".into(), json!({ "text": text, "start": s, "end": e, "position": "bottom", "style": "subtitle" })),
        Op::UpdateText(i, s, e) => {
            let (t, id) = pick(&els, *i);
            ("update_text".into(), json!({ "trackId": t, "elementId": id, "start": opt(s), "end": opt(e) }))
        }
        Op::AddMedia(a, s, tt, d) => {
            let asset = ["a2", "a3", "a4", "a1"][*a];
            let track = ["main", "overlay", "audio", "text"][*tt];
            ("add_media_to_timeline".into(), json!({ "assetId": asset, "startTime": s, "trackType": track, "duration": opt(d) }))
        }
        Op::Timing(i, s, e, d) => {
            ("update_timeline_element_timing".into(), json!({ "elementId": pick(&els, *i).1, "start": opt(s), "end": opt(e), "duration": opt(d) }))
        }
        Op::DeleteElement(i) => {
            let (t, id) = pick(&els, *i);
            ("delete_element".into(), json!({ "trackId": t, "elementId": id }))
        }
        Op::Volume(i, v) => {
            let (t, id) = pick(&els, *i);
            ("set_volume".into(), json!({ "trackId": t, "elementId": id, "volume": v }))
        }
        Op::Sticker(s, e) => ("add_sticker".into(), json!({ "stickerId": "emoji:star", "start": s, "end": e, "position": "top-left" })),
        Op::Effect(k, s, e, draws) => {
            let (kind, params) = &registry()[*k % registry().len()];
            let (params, _) = draw_params(params, draws);
            ("apply_effect".into(), json!({ "effectType": kind, "start": s, "end": e, "params": params }))
        }
        Op::UpdateEffect(i, draws) => {
            let id = pick(&els, *i).1;
            let kind = effect_type_of(ed, &id).unwrap_or_else(|| "blur".into());
            let (params, _) = draw_params(effect_params(&kind), draws);
            ("update_effect".into(), json!({ "elementId": id, "params": params }))
        }
        Op::GetElement(i) => ("get_element".into(), json!({ "elementId": pick(&els, *i).1 })),
        Op::UpdateClip(ix, which, v) => {
            let v = *v;
            let mut args = json!({ "elementIds": ix.iter().map(|i| pick(&els, *i).1).collect::<Vec<_>>() });
            // One or two properties, some of them out of range.
            let bits: u8 = if which & 0xC0 == 0 { *which } else { 1 << (which % 8) };
            for bit in 0..8 {
                if bits & (1 << bit) == 0 {
                    continue;
                }
                let (k, val) = match bit {
                    0 => ("opacity", json!(v)),
                    1 => ("scale", json!(v)),
                    2 => ("rotation", json!(v * 200.0)),
                    3 => ("volume", json!(v * 30.0 - 30.0)),
                    4 => ("position", if v > 0.5 { json!("top-right") } else { json!({ "x": v * 400.0, "y": -v * 100.0 }) }),
                    5 => ("muted", json!(v > 1.0)),
                    6 => ("hidden", json!(v > 1.0)),
                    _ => ("blendMode", if v > 0.0 { json!("multiply") } else { json!("glow") }),
                };
                args[k] = val;
            }
            ("update_clip".into(), args)
        }
        Op::Duplicate(ix, start, track) => {
            let mut args = json!({ "elementIds": ix.iter().map(|i| pick(&els, *i).1).collect::<Vec<_>>() });
            if let Some(s) = start {
                args["startTime"] = json!(s);
            }
            if let Some(t) = track {
                args["trackId"] = tracks.get(*t).cloned().unwrap_or_else(|| "t404".into()).into();
            }
            ("duplicate_elements".into(), args)
        }
        Op::UpdateTrack(t, which) => {
            let mut args = json!({ "trackId": tracks.get(*t).cloned().unwrap_or_else(|| "t404".into()) });
            if which & 1 != 0 {
                args["muted"] = json!(which & 8 != 0);
            }
            if which & 2 != 0 {
                args["hidden"] = json!(which & 16 != 0);
            }
            if which & 4 != 0 {
                args["name"] = json!(format!("Track {which}"));
            }
            ("update_track".into(), args)
        }
        Op::MoveTrack(t, how, other) => {
            let id = tracks.get(*t).cloned().unwrap_or_else(|| "t404".into());
            let other_id = tracks.get(*other).cloned().unwrap_or_else(|| "t404".into());
            let args = match how % 3 {
                0 => json!({ "trackId": id, "index": other }),
                1 => json!({ "trackId": id, "above": other_id }),
                _ => json!({ "trackId": id, "below": other_id }),
            };
            ("move_track".into(), args)
        }
        Op::Keyframe(i, p, t, v) => {
            let value = if PROPERTIES[*p] == "color" { json!(if *v > 0.5 { "#ff0000" } else { "#00ff0080" }) } else { json!(v) };
            ("upsert_keyframe".into(), json!({ "elementId": live(&els, *i), "property": PROPERTIES[*p], "time": t, "value": value }))
        }
        Op::RemoveKeyframe(i, p, t) => {
            let (id, prop, time) = existing_key(ed, &live(&els, *i), *p, *t);
            ("remove_keyframe".into(), json!({ "elementId": id, "property": prop, "time": time }))
        }
        Op::Curve(i, p, t, e) => {
            let easing = ["ease-in", "ease-out", "ease-in-out", "linear", "bounce"][*e];
            // Mostly a key with a next one (an element that has one), so the curve has a segment.
            let keyed = (0..els.len()).map(|k| live(&els, i + k)).find(|id| two_keys(ed, id));
            let (id, prop, time) = existing_key(ed, &keyed.unwrap_or_else(|| live(&els, *i)), *p, *t);
            ("update_keyframe_curve".into(), json!({ "elementId": id, "property": prop, "time": time, "easing": easing }))
        }
        Op::ByRef(n, tool) => {
            let r = format!("{}-{}", ["clip", "text", "sticker", "effect"][(*n % 4) as usize], n / 4 % 6 + 1);
            match tool {
                0 => ("get_element".into(), json!({ "elementId": r })),
                1 => ("delete_timeline_elements".into(), json!({ "elementIds": [r] })),
                2 => ("update_clip".into(), json!({ "elementIds": [r], "opacity": 0.5 })),
                3 => ("duplicate_elements".into(), json!({ "elementIds": [r] })),
                4 => ("upsert_keyframe".into(), json!({ "elementId": r, "property": "opacity", "time": 0, "value": 0.3 })),
                _ => ("list_timeline".into(), json!({})),
            }
        }
        Op::Undo => ("undo".into(), json!({})),
        Op::Redo => ("redo".into(), json!({})),
        Op::Batch(steps) => {
            let steps: Vec<Value> = steps.iter().map(|s| resolve(ed, s)).map(|(tool, args)| json!({ "tool": tool, "args": args })).collect();
            ("batch".into(), json!({ "steps": steps }))
        }
        Op::Garbage(tool, args) => (tool.clone(), args.clone()),
    }
}

/// Which element types each track type holds, written out from the architecture invariant
/// (docs/ARCHITECTURE.md), not taken from `TrackType::accepts`.
fn accepts(track: &str, element: &str) -> bool {
    matches!(
        (track, element),
        ("main", "video" | "image") | ("overlay", "video" | "image" | "sticker") | ("text", "text") | ("effect", "effect") | ("audio", "audio")
    )
}

fn int(e: &Value, key: &str) -> i64 {
    match e.get(key) {
        None => 0,
        Some(v) => v.as_i64().unwrap_or_else(|| panic!("{key} is not an integer in {e}")),
    }
}

/// The model's invariants, checked on the saved project JSON.
fn check_invariants(project_json: &str) {
    let p: Value = serde_json::from_str(project_json).expect("project JSON");
    let tracks = p["timeline"]["tracks"].as_array().expect("tracks");
    assert_eq!(tracks.iter().filter(|t| t["type"] == "main").count(), 1, "exactly one main track");
    let assets = p["assets"].as_array().expect("assets");
    let mut ids = HashSet::new();
    for a in assets {
        assert!(ids.insert(a["id"].as_str().unwrap().to_string()), "duplicate id {}", a["id"]);
    }
    for track in tracks {
        let tid = track["id"].as_str().expect("track id");
        let ttype = track["type"].as_str().expect("track type");
        assert!(ids.insert(tid.to_string()), "duplicate id {tid}");
        let elements = track["elements"].as_array().cloned().unwrap_or_default();
        for pair in elements.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(int(a, "start") + int(a, "duration") <= int(b, "start"), "overlap or disorder on {tid}: {} and {}", a["id"], b["id"]);
        }
        for e in &elements {
            let id = e["id"].as_str().expect("element id");
            let kind = e["type"].as_str().expect("element type");
            assert!(ids.insert(id.to_string()), "duplicate id {id}");
            assert!(accepts(ttype, kind), "{id} ({kind}) on a {ttype} track");
            let (start, duration, trim_start, trim_end) = (int(e, "start"), int(e, "duration"), int(e, "trimStart"), int(e, "trimEnd"));
            // Keyframes stay sorted by time, as OpenCut keeps them.
            for data in e["animations"].as_object().into_iter().flat_map(|a| a.values()) {
                let channels: Vec<&Value> = if data.get("keys").is_some() { vec![data] } else { data.as_object().unwrap().values().collect() };
                for ch in channels {
                    let times: Vec<i64> = ch["keys"].as_array().unwrap().iter().map(|k| k["time"].as_i64().unwrap()).collect();
                    assert!(times.windows(2).all(|w| w[0] < w[1]), "{id} keys out of order: {times:?}");
                    // Splits and shorter durations cut keys off at the element's end, as OpenCut does.
                    assert!(times.iter().all(|t| (0..=duration).contains(t)), "{id} keys outside 0..={duration}: {times:?}");
                }
            }
            assert!(start >= 0 && duration > 0 && trim_start >= 0 && trim_end >= 0, "bad times on {e}");
            if let Some(v) = e.get("volume") {
                let v = v.as_f64().expect("volume is a number");
                // Boosts above 0 dB are OpenCut volumes (update_clip takes up to +20 dB, gain 10).
                assert!((0.0..=10.0).contains(&v), "{id}: volume {v}");
            }
            match kind {
                "video" | "audio" | "image" => {
                    let asset_id = e["assetId"].as_str().unwrap_or_else(|| panic!("{id} has no assetId"));
                    let asset = assets.iter().find(|a| a["id"] == asset_id).unwrap_or_else(|| panic!("{id}: no asset {asset_id}"));
                    assert_eq!(asset["type"], kind, "{id} plays an asset of another type");
                    if kind != "image" {
                        // Trims and duration add up to the whole source, so none plays past it.
                        let source = ticks(asset["duration"].as_f64().expect("timed assets have a duration"));
                        assert_eq!(trim_start + duration + trim_end, source, "{id}: trims do not add up to the source");
                    }
                }
                "text" => assert!(e["content"].is_string(), "{id} has no content"),
                "sticker" => assert!(e["stickerId"].is_string(), "{id} has no stickerId"),
                "effect" => {
                    let effect = e["effectType"].as_str().unwrap_or_else(|| panic!("{id} has no effectType"));
                    let params = effect_params(effect);
                    assert!(!params.is_empty() || registry().iter().any(|(k, _)| k == effect), "{id}: unknown effect {effect}");
                    for (k, v) in e["params"].as_object().into_iter().flatten() {
                        let def = params.iter().find(|p| &p.key == k).unwrap_or_else(|| panic!("{id}: unknown param {k}"));
                        let v = v.as_f64().expect("numeric param");
                        assert!(v >= def.min && v <= def.max, "{id}: {k} = {v} out of range");
                    }
                }
                other => panic!("{id}: unknown element type {other}"),
            }
        }
    }
}

/// A keyframe the element has (its first animated property, the key picked by `p`), else the
/// generated property and time, which most likely name none.
fn existing_key(ed: &Editor, id: &str, p: usize, t: f64) -> (String, String, f64) {
    let tl = ed.project().and_then(|p| p.timeline.as_ref()).expect("timeline");
    let found = tl.element(id).and_then(|(_, e)| {
        let anims = e.animations.as_ref()?.to_json();
        let (path, data) = anims.iter().next()?;
        let channel = if data.get("keys").is_some() { data } else { data.get("r")? };
        let keys = channel["keys"].as_array()?;
        let key = keys.get(p % keys.len().saturating_sub(1).max(1))?;
        Some((path.clone(), key["time"].as_i64()? as f64 / 120_000.0))
    });
    match found {
        Some((path, time)) => (id.to_string(), path, time),
        None => (id.to_string(), PROPERTIES[p].to_string(), t),
    }
}

/// Whether the first animated property of element `id` has two keys or more.
fn two_keys(ed: &Editor, id: &str) -> bool {
    let tl = ed.project().and_then(|p| p.timeline.as_ref()).expect("timeline");
    tl.element(id).and_then(|(_, e)| e.animations.as_ref()?.to_json().values().next()?.get("keys")?.as_array().map(|k| k.len() >= 2)).unwrap_or(false)
}

/// An element that exists whenever the timeline has any (the keyframe ops need one to mean much).
fn live(list: &[(String, String, String)], i: usize) -> String {
    if list.is_empty() {
        pick(list, i).1
    } else {
        list[i % list.len()].1.clone()
    }
}

fn without_refs(listing: &Value) -> Value {
    let mut v = listing.clone();
    for t in v["tracks"].as_array_mut().unwrap() {
        for e in t["elements"].as_array_mut().unwrap() {
            e.as_object_mut().unwrap().remove("ref");
        }
    }
    v
}

/// The saved element `id` (JSON), if any.
fn saved(ed: &Editor, id: &str) -> Option<Value> {
    let p: Value = serde_json::from_str(&ed.project_json()?).ok()?;
    p["timeline"]["tracks"].as_array()?.iter().flat_map(|t| t["elements"].as_array().cloned().unwrap_or_default()).find(|e| e["id"] == id)
}

/// What a single (non-batch) call must have done, judged from its arguments alone.
fn check_call(ed: &Editor, op: &Op, args: &Value, res: &Result<Value, neuralcut::ToolError>) -> Result<(), TestCaseError> {
    match op {
        Op::Effect(_, s, e, _) => {
            let kind = args["effectType"].as_str().unwrap();
            let (_, in_range) = draw_params(effect_params(kind), &draws_of(op));
            // Times are rounded to the nearest tick before they are checked: -0.0000009 s is 0.
            let times_ok = ticks(*s) >= 0 && ticks(*e) > ticks(*s);
            match res {
                Ok(out) => {
                    prop_assert!(in_range, "apply_effect accepted out-of-range params {}", args);
                    prop_assert!(times_ok, "apply_effect accepted times {} to {}", s, e);
                    let el = saved(ed, out["elementId"].as_str().unwrap()).expect("the new effect is saved");
                    prop_assert_eq!(int(&el, "start"), ticks(*s), "start rounds to the nearest tick");
                    prop_assert_eq!(int(&el, "duration"), ticks(*e) - ticks(*s), "end rounds to the nearest tick");
                    prop_assert_eq!(&el["effectType"], &json!(kind));
                }
                Err(err) => {
                    prop_assert!(!(in_range && times_ok), "apply_effect refused valid arguments {}: {}", args, err.message);
                    if times_ok {
                        prop_assert_eq!(err.code, "PARAMETER_OUT_OF_RANGE", "{}", err.message);
                    }
                }
            }
        }
        Op::UpdateEffect(..) => {
            let id = args["elementId"].as_str().unwrap();
            let params = args["params"].as_object().unwrap();
            if let Some(kind) = effect_type_of(ed, id) {
                let in_range = params.iter().all(|(k, v)| {
                    let def = effect_params(&kind).iter().find(|p| &p.key == k).unwrap();
                    let v = v.as_f64().unwrap();
                    v >= def.min && v <= def.max
                });
                match res {
                    Ok(_) => prop_assert!(in_range && !params.is_empty(), "update_effect accepted {}", args),
                    Err(err) if params.is_empty() => prop_assert_eq!(err.code, "PARAMS_REQUIRED"),
                    Err(err) => {
                        prop_assert!(!in_range, "update_effect refused {}: {}", args, err.message);
                        prop_assert_eq!(err.code, "PARAMETER_OUT_OF_RANGE");
                    }
                }
            } else {
                prop_assert!(res.is_err(), "update_effect on a non-effect succeeded");
            }
        }
        Op::AddText(_, s, e) | Op::Sticker(s, e) => {
            if let Ok(out) = res {
                let el = saved(ed, out["elementId"].as_str().unwrap()).expect("the new element is saved");
                prop_assert_eq!(int(&el, "start"), ticks(*s), "start rounds to the nearest tick");
                prop_assert_eq!(int(&el, "duration"), ticks(*e) - ticks(*s), "end rounds to the nearest tick");
            } else if ticks(*s) >= 0 && ticks(*e) > ticks(*s) && matches!(op, Op::Sticker(..)) {
                // A sticker always finds room: a new overlay track when the others are busy.
                prop_assert!(false, "add_sticker refused {}: {:?}", args, res);
            }
        }
        Op::Captions(words, _) => {
            let valid = words.iter().all(|(s, e)| ticks(*s) >= 0 && ticks(*e) >= ticks(*s)) && words.windows(2).all(|w| ticks(w[1].0) >= ticks(w[0].0));
            match res {
                // Every word once, in order, on the new track on top; the oracle checks no two overlap.
                Ok(out) => {
                    prop_assert!(valid && !words.is_empty(), "add_captions accepted {}", args);
                    let tl = ed.project().and_then(|p| p.timeline.as_ref()).unwrap();
                    prop_assert_eq!(&tl.tracks[0].id, out["trackIds"][0].as_str().unwrap());
                    let text: Vec<String> = tl.tracks[0]
                        .elements
                        .iter()
                        .flat_map(|e| e.content.as_deref().unwrap().split_whitespace().map(str::to_string).collect::<Vec<_>>())
                        .collect();
                    prop_assert_eq!(text, (0..words.len()).map(word).collect::<Vec<_>>());
                }
                Err(err) if words.is_empty() => prop_assert_eq!(err.code, "NO_WORDS"),
                Err(err) => {
                    prop_assert!(!valid, "add_captions refused {}: {}", args, err.message);
                    prop_assert_eq!(err.code, "INVALID_WORDS");
                }
            }
        }
        Op::Subtitles(cues) => {
            let valid = cues.iter().all(|(_, d)| *d > 0);
            match res {
                Ok(out) => prop_assert!(valid && out["count"] == cues.len(), "import_subtitles gave {} for {}", out, args),
                Err(err) => {
                    prop_assert!(!valid, "import_subtitles refused {}: {}", args, err.message);
                    prop_assert_eq!(err.code, "INVALID_SUBTITLES");
                }
            }
        }
        Op::AddMedia(_, s, _, _) => {
            if let Ok(out) = res {
                let el = saved(ed, out["elementId"].as_str().unwrap()).expect("the new element is saved");
                // Or 0, where the front of the main track puts a clip added before its first (front.rs).
                prop_assert!([ticks(*s), 0].contains(&int(&el, "start")), "start rounds to the nearest tick: {}", el);
            }
        }
        _ => {}
    }
    Ok(())
}

/// The i-th word of a drawn transcript: every third ends a sentence.
fn word(i: usize) -> String {
    if i % 3 == 2 {
        format!("w{i}.")
    } else {
        format!("w{i}")
    }
}

fn draws_of(op: &Op) -> Vec<Draw> {
    match op {
        Op::Effect(_, _, _, d) | Op::UpdateEffect(_, d) => d.clone(),
        _ => Vec::new(),
    }
}

/// A project with three assets, a sticker, and a few elements laid out by tool calls.
fn start_editor(layout: &[(usize, f64)]) -> Editor {
    let mut ed = Editor::new();
    let asset = |name: &str, kind: &str, duration: Option<f64>| NewAsset { id: None, name: name.into(), kind: kind.into(), duration, ..NewAsset::default() };
    ed.add_asset(asset("clip.mp4", "video", Some(12.0))).unwrap();
    ed.add_asset(asset("still.png", "image", None)).unwrap();
    ed.add_asset(asset("music.wav", "audio", Some(30.0))).unwrap();
    ed.add_sticker("emoji:star", "Star", None).unwrap();
    for (kind, at) in layout {
        let (asset, track) = [("a2", "main"), ("a3", "overlay"), ("a4", "audio")][*kind % 3];
        let _ = ed.call_tool("add_media_to_timeline", &json!({ "assetId": asset, "startTime": at, "trackType": track, "duration": 4 }));
    }
    // Fresh history: the random timeline is the starting point.
    Editor::from_json(&ed.project_json().unwrap()).unwrap()
}

/// The random seed of both property tests: fixed, so a CI run replays the cases every run has
/// passed, and `PROPTEST_RNG_SEED=<n>` explores others (docs/testing.md lists what other seeds
/// found in the oracle and in the tools); a flaky CI would hide which change broke what.
fn seed() -> proptest::test_runner::RngSeed {
    let fixed = std::env::var("PROPTEST_RNG_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(20_261_202);
    proptest::test_runner::RngSeed::Fixed(fixed)
}

proptest! {
    // PROPTEST_CASES lowers the count for the mutation-testing run (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256), rng_seed: crate::seed(), ..ProptestConfig::default() })]

    #[test]
    fn random_tool_sequences_keep_the_invariants(
        layout in prop::collection::vec((0usize..3, (0u32..40).prop_map(|q| q as f64 / 2.0)), 0..8),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        let mut ed = start_editor(&layout);
        let mut refs: std::collections::HashMap<String, String> = Default::default();
        let initial = ed.project().unwrap().timeline.clone();
        for op in &ops {
            let (tool, args) = resolve(&ed, op);
            let before = ed.project_json().unwrap();
            let timeline_before = serde_json::from_str::<Value>(&before).unwrap()["timeline"].clone();
            let (undo_len, redo_len) = (ed.history().undo_len(), ed.history().redo_len());
            let res = ed.call_tool(&tool, &args);
            if std::env::var("PROP_DEBUG").is_ok() { eprintln!("{tool} {} -> {}", args, match &res { Ok(_) => "ok".to_string(), Err(e) => e.message.clone() }); }
            match &res {
                Err(err) => {
                    prop_assert!(!err.message.is_empty());
                    prop_assert_eq!(&ed.project_json().unwrap(), &before, "failed {} changed the project", tool);
                    prop_assert_eq!((ed.history().undo_len(), ed.history().redo_len()), (undo_len, redo_len));
                }
                Ok(_) => {
                    let after = ed.project_json().unwrap();
                    // A reference never moves to another element, and no two elements share one.
                    let warm = ed.call_tool("list_timeline", &json!({})).unwrap();
                    let mut seen = HashSet::new();
                    for e in warm["tracks"].as_array().unwrap().iter().flat_map(|t| t["elements"].as_array().unwrap()) {
                        let (id, r) = (e["elementId"].as_str().unwrap().to_string(), e["ref"].as_str().unwrap().to_string());
                        prop_assert!(seen.insert(r.clone()), "ref {} given twice", r);
                        let was = refs.entry(id.clone()).or_insert_with(|| r.clone());
                        prop_assert_eq!(&*was, &r, "element {} changed its ref", id);
                    }
                    let grew = ed.history().undo_len() as isize - undo_len as isize;
                    let changed = serde_json::from_str::<Value>(&after).unwrap()["timeline"] != timeline_before;
                    check_invariants(&after);
                    // The editor's cached listing must equal a cold one of the same project.
                    let mut cold = Editor::from_json(&after).unwrap();
                    // (but for the references, which depend on what the editor has seen).
                    prop_assert_eq!(
                        without_refs(&ed.call_tool("list_timeline", &json!({})).unwrap()),
                        without_refs(&cold.call_tool("list_timeline", &json!({})).unwrap())
                    );
                    prop_assert_eq!(ed.history().undo_len() as isize - undo_len as isize, grew, "list_timeline touched the history");
                    match tool.as_str() {
                        "undo" => prop_assert_eq!(grew, -1),
                        "redo" => prop_assert_eq!(grew, 1),
                        // Exactly one step when the timeline changed, none when it did not.
                        _ => prop_assert_eq!(grew, changed as isize, "{} changed the timeline: {}, pushed {} entries", tool, changed, grew),
                    }
                    if grew == 0 && tool != "undo" && tool != "redo" {
                        prop_assert_eq!(ed.history().redo_len(), redo_len, "{} changed nothing but cleared redo", tool);
                    }
                }
            }
            check_call(&ed, op, &args, &res)?;
            // What the edit had to leave, by the oracle written from the spec (tests/properties/oracle.rs).
            if !matches!(op, Op::ByRef(..) | Op::Batch(..) | Op::Garbage(..)) {
                let (b, a): (Value, Value) = (serde_json::from_str(&before).unwrap(), serde_json::from_str(&ed.project_json().unwrap()).unwrap());
                if let Err(why) = oracle::check(&tool, &args, &b, &a, res.is_ok()) {
                    prop_assert!(false, "oracle: {}", why);
                }
            }
        }
        let last = ed.project().unwrap().timeline.clone();
        let mut undone = 0;
        while ed.undo().is_some() { undone += 1; }
        prop_assert_eq!(&ed.project().unwrap().timeline, &initial);
        for _ in 0..undone {
            prop_assert!(ed.redo().is_some());
        }
        prop_assert_eq!(&ed.project().unwrap().timeline, &last);
    }
}
