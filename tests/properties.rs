//! Property test: random sequences of random tool calls, valid and invalid, on random timelines.
//! No call panics; a failed call changes nothing; after every successful call the model's
//! invariants hold; undoing everything restores the start exactly, redoing everything the end.

use std::collections::HashSet;

use neuralcut::model::{Project, TrackType};
use neuralcut::{Editor, NewAsset};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A tool call with its ids still abstract: indices are resolved against the live timeline when
/// the call runs, so generated sequences stay meaningful as the timeline changes.
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
    Effect(usize, f64, f64, f64),
    UpdateEffect(usize, f64),
    Undo,
    Redo,
    Batch(Vec<Op>),
    Garbage(String, Value),
}

fn time() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => (0u32..240).prop_map(|q| q as f64 / 4.0),
        1 => Just(-1.0),
        1 => (0u32..60_000).prop_map(|ms| ms as f64 / 1000.0),
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
        (idx(), prop::option::of(time()), prop::option::of(time()), prop::option::of(time()))
            .prop_map(|(a, b, c, d)| Op::Timing(a, b, c, d)),
        idx().prop_map(Op::DeleteElement),
        (idx(), -0.5f64..1.5).prop_map(|(a, b)| Op::Volume(a, b)),
        (time(), time()).prop_map(|(a, b)| Op::Sticker(a, b)),
        (0usize..8, time(), time(), -20f64..120.0).prop_map(|(a, b, c, d)| Op::Effect(a, b, c, d)),
        (idx(), -20f64..120.0).prop_map(|(a, b)| Op::UpdateEffect(a, b)),
        Just(Op::Undo),
        Just(Op::Redo),
        (prop_oneof![Just("split"), Just("nope"), Just("list_timeline"), Just("move_timeline_elements")], any::<u8>())
            .prop_map(|(t, n)| Op::Garbage(t.to_string(), garbage(n))),
    ]
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
    tl.tracks
        .iter()
        .flat_map(|t| t.elements.iter().map(move |e| (t.id.clone(), e.id.to_string(), e.kind.as_str().to_string())))
        .collect()
}

fn track_ids(ed: &Editor) -> Vec<String> {
    ed.project().and_then(|p| p.timeline.as_ref()).map(|t| t.tracks.iter().map(|t| t.id.clone()).collect()).unwrap_or_default()
}

/// Picks the i-th element, or an id that does not exist when i is past the end.
fn pick(list: &[(String, String, String)], i: usize) -> (String, String) {
    list.get(i).map(|(t, e, _)| (t.clone(), e.clone())).unwrap_or_else(|| ("t999".into(), format!("e9{i}")))
}

const EFFECTS: [&str; 8] = ["blur", "brightness-contrast", "grayscale", "saturation", "sepia", "invert", "vignette", "glow"];

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
        Op::Effect(k, s, e, v) => {
            let kind = EFFECTS[*k];
            ("apply_effect".into(), json!({ "effectType": kind, "start": s, "end": e, "params": { "intensity": v } }))
        }
        Op::UpdateEffect(i, v) => ("update_effect".into(), json!({ "elementId": pick(&els, *i).1, "params": { "intensity": v } })),
        Op::Undo => ("undo".into(), json!({})),
        Op::Redo => ("redo".into(), json!({})),
        Op::Batch(steps) => {
            let steps: Vec<Value> = steps.iter().map(|s| resolve(ed, s)).map(|(tool, args)| json!({ "tool": tool, "args": args })).collect();
            ("batch".into(), json!({ "steps": steps }))
        }
        Op::Garbage(tool, args) => (tool.clone(), args.clone()),
    }
}

fn check_invariants(project: &Project) {
    let tl = project.timeline.as_ref().expect("timeline");
    assert_eq!(tl.tracks.iter().filter(|t| t.kind == TrackType::Main).count(), 1, "exactly one main track");
    let mut ids = HashSet::new();
    for track in &tl.tracks {
        assert!(ids.insert(track.id.clone()), "duplicate id {}", track.id);
        for pair in track.elements.windows(2) {
            assert!(pair[0].end() <= pair[1].start, "overlap on {}: {} and {}", track.id, pair[0].id, pair[1].id);
        }
        for e in &track.elements {
            assert!(ids.insert(e.id.to_string()), "duplicate id {}", e.id);
            assert!(track.kind.accepts(e.kind), "{} on a {:?} track", e.id, track.kind);
            assert!(e.start >= 0 && e.duration > 0 && e.trim_start >= 0 && e.trim_end >= 0, "bad times on {e:?}");
            if e.kind.is_timed_media() {
                let asset = project.asset(e.asset_id.as_deref().unwrap()).unwrap();
                let source = asset.duration_ticks().unwrap();
                assert!(e.trim_start + e.duration <= source, "{} plays past its source", e.id);
                assert_eq!(e.source_span(), source, "{} trims do not add up", e.id);
            }
        }
    }
}

/// A project with three assets, a sticker, and a few elements laid out by tool calls.
fn start_editor(layout: &[(usize, f64)]) -> Editor {
    let mut ed = Editor::new();
    let asset = |name: &str, kind: &str, duration: Option<f64>| NewAsset {
        id: None,
        name: name.into(),
        kind: kind.into(),
        duration,
        ..NewAsset::default()
    };
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_tool_sequences_keep_the_invariants(
        layout in prop::collection::vec((0usize..3, (0u32..40).prop_map(|q| q as f64 / 2.0)), 0..8),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        let mut ed = start_editor(&layout);
        let initial = ed.project().unwrap().timeline.clone();
        for op in &ops {
            let (tool, args) = resolve(&ed, op);
            let before = ed.project_json().unwrap();
            let (undo_len, redo_len) = (ed.history().undo_len(), ed.history().redo_len());
            let res = ed.call_tool(&tool, &args);
            if std::env::var("PROP_DEBUG").is_ok() { eprintln!("{tool} {} -> {}", args, match &res { Ok(_) => "ok".to_string(), Err(e) => e.message.clone() }); }
            match res {
                Err(err) => {
                    prop_assert!(!err.message.is_empty());
                    prop_assert_eq!(ed.project_json().unwrap(), before, "failed {} changed the project", tool);
                    prop_assert_eq!((ed.history().undo_len(), ed.history().redo_len()), (undo_len, redo_len));
                }
                Ok(_) => {
                    check_invariants(ed.project().unwrap());
                    // The editor's cached listing must equal a cold one of the same project.
                    let mut cold = Editor::from_json(&ed.project_json().unwrap()).unwrap();
                    prop_assert_eq!(ed.call_tool_json("list_timeline", "{}"), cold.call_tool_json("list_timeline", "{}"));
                    let grew = ed.history().undo_len() as isize - undo_len as isize;
                    match tool.as_str() {
                        "undo" => prop_assert_eq!(grew, -1),
                        "redo" => prop_assert_eq!(grew, 1),
                        _ => prop_assert!(grew == 0 || grew == 1, "{} pushed {} entries", tool, grew),
                    }
                    if grew == 0 && tool != "undo" && tool != "redo" {
                        prop_assert_eq!(&ed.project_json().unwrap(), &before, "{} changed the timeline without a history entry", tool);
                    }
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
