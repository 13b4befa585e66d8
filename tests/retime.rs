//! Retimed clips (`retime.rate ≠ 1`): random sequences of split, timing, move, delete, speed
//! (update_clip), undo and redo calls on video and audio clips played at random rates. After every call, every piece of
//! every clip still shows the source its clip showed at that moment: the source time at timeline
//! time t is `trimStart + (t − start) · rate`, as OpenCut reads it (retime/resolve.ts). Ticks are
//! whole numbers, so each cut rounds once, as OpenCut's split does; the source position of a
//! piece may drift by at most half a tick per cut in its history (1/240 000 s per cut, far below
//! a frame). Its trims always add up to the source: `trimStart + round(duration · rate) + trimEnd`,
//! within a tick per cut and, after a speed change, half the rate's ticks (the new length is
//! rounded to a tick, `round(span / rate)`, as OpenCut's update pipeline rounds it).

use std::collections::HashMap;

use neuralcut::model::{Element, Project};
use neuralcut::{Editor, TICKS_PER_SECOND};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Source length of both assets: 60 s.
const SOURCE: i64 = 60 * TICKS_PER_SECOND;

/// What a piece must show: the exact source time at its start, its rate, and how many cuts made it.
#[derive(Clone, Copy, Debug)]
struct Footage {
    source_at_start: f64,
    rate: f64,
    cuts: u32,
    /// Ticks the trims may be off the source after a speed change (half the rate, rounded up).
    slack: i64,
}

#[derive(Clone, Debug)]
struct Clip {
    rate: f64,
    /// Source ticks played, as a fraction of what the source allows after `trim`.
    played: f64,
    trim: f64,
    gap: i64,
}

fn rate() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.5), Just(2.0), Just(0.25), Just(1.5), Just(5.0), Just(0.01), (1u32..=500).prop_map(|r| r as f64 / 100.0), (0.01f64..5.0),]
}

fn clip() -> impl Strategy<Value = Clip> {
    (rate(), 0.05f64..1.0, 0.0f64..0.9, 0i64..3 * TICKS_PER_SECOND).prop_map(|(rate, played, trim, gap)| Clip { rate, played, trim, gap })
}

/// One track's elements: back to back with gaps, each a valid retimed clip of its asset.
fn track_elements(kind: &str, asset: &str, clips: &[Clip], first_id: usize) -> Vec<Value> {
    let mut at = 0;
    let mut out = Vec::new();
    for (i, c) in clips.iter().enumerate() {
        let trim_start = (c.trim * SOURCE as f64) as i64;
        let available = SOURCE - trim_start;
        // A whole number of timeline ticks whose played source fits in what is left.
        let mut duration = ((available as f64 * c.played) / c.rate).floor().max(1.0) as i64;
        while (duration as f64 * c.rate).round() as i64 > available {
            duration -= 1;
        }
        if duration <= 0 || (duration as f64 * c.rate).round() as i64 == 0 {
            continue;
        }
        let played = (duration as f64 * c.rate).round() as i64;
        let start = at + c.gap;
        let mut e = json!({
            "id": format!("e{}", first_id + i), "type": kind, "assetId": asset, "name": format!("{kind} {i}"),
            "start": start, "duration": duration, "trimStart": trim_start, "trimEnd": SOURCE - trim_start - played,
            "retime": { "rate": c.rate },
        });
        if i % 2 == 1 {
            e["retime"]["maintainPitch"] = json!(true);
        }
        out.push(e);
        at = start + duration;
    }
    out
}

fn project(video: &[Clip], audio: &[Clip]) -> Editor {
    let json = json!({
        "format": "neuralcut-project",
        "version": 1,
        "assets": [
            { "id": "a1", "name": "clip.mp4", "type": "video", "duration": 60 },
            { "id": "a2", "name": "voice.wav", "type": "audio", "duration": 60 },
        ],
        "timeline": { "tracks": [
            { "id": "t1", "type": "main", "elements": track_elements("video", "a1", video, 100) },
            { "id": "t2", "type": "audio", "elements": track_elements("audio", "a2", audio, 200) },
            { "id": "t3", "type": "audio", "elements": [] },
        ] },
    });
    Editor::from_json(&json.to_string()).expect("the generated project is valid")
}

#[derive(Clone, Debug)]
enum Op {
    Split(Vec<f64>),
    /// Element index, and start / end / duration in seconds.
    Timing(usize, Option<f64>, Option<f64>, Option<f64>),
    Move(usize, f64, Option<usize>),
    Delete(usize),
    /// Element index, new rate, and maintainPitch if given.
    Speed(usize, f64, Option<bool>),
    Undo,
    Redo,
}

fn seconds() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (0u32..2400).prop_map(|q| q as f64 / 8.0),
        1 => (0u32..300_000).prop_map(|ms| ms as f64 / 1000.0),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => prop::collection::vec(seconds(), 1..4).prop_map(Op::Split),
        3 => (0usize..16, prop::option::of(seconds()), prop::option::of(seconds()), prop::option::of((1u32..4000).prop_map(|q| q as f64 / 40.0)))
            .prop_map(|(i, s, e, d)| Op::Timing(i, s, e, d)),
        2 => (0usize..16, seconds(), prop::option::of(0usize..3)).prop_map(|(i, s, t)| Op::Move(i, s, t)),
        1 => (0usize..16).prop_map(Op::Delete),
        2 => (0usize..16, rate().prop_filter("a rate other than 1 keeps a retime", |r| *r != 1.0), prop::option::of(any::<bool>())).prop_map(|(i, r, p)| Op::Speed(i, r, p)),
        1 => Just(Op::Undo),
        1 => Just(Op::Redo),
    ]
}

fn elements(p: &Project) -> Vec<(String, Element)> {
    let tl = p.timeline.as_ref().unwrap();
    tl.tracks.iter().flat_map(|t| t.elements.iter().map(move |e| (t.id.clone(), (**e).clone()))).collect()
}

fn call(ed: &mut Editor, op: &Op) -> (String, Value) {
    let els = elements(ed.project().unwrap());
    let pick = |i: usize| els.get(i % els.len().max(1)).map_or("missing".to_string(), |(_, e)| e.id.to_string());
    let opt = |v: &Option<f64>| v.map_or(Value::Null, Value::from);
    let strip =
        |v: Value| -> Value { Value::Object(v.as_object().unwrap().iter().filter(|(_, x)| !x.is_null()).map(|(k, x)| (k.clone(), x.clone())).collect()) };
    match op {
        Op::Split(times) => ("split".into(), json!({ "times": times })),
        Op::Timing(i, s, e, d) => {
            ("update_timeline_element_timing".into(), strip(json!({ "elementId": pick(*i), "start": opt(s), "end": opt(e), "duration": opt(d) })))
        }
        Op::Move(i, s, t) => {
            let target = t.map(|t| ["t1", "t2", "t3"][t]);
            ("move_timeline_elements".into(), strip(json!({ "elementIds": [pick(*i)], "start": s, "targetTrackId": target })))
        }
        Op::Delete(i) => ("delete_timeline_elements".into(), json!({ "elementIds": [pick(*i)] })),
        Op::Speed(i, r, p) => ("update_clip".into(), strip(json!({ "elementIds": [pick(*i)], "speed": r, "maintainPitch": p }))),
        Op::Undo => ("undo".into(), json!({})),
        Op::Redo => ("redo".into(), json!({})),
    }
}

/// Records the footage of pieces made by the last call, and checks every element against its own.
fn check(project: &Project, before: &HashMap<String, Element>, footage: &mut HashMap<String, Footage>, pieces: &[Value]) {
    // A new piece (a right part) continues the clip it was cut from. Pieces of one clip come in
    // time order, each cut from the one before, so the k-th has been rounded k times more.
    let mut made: HashMap<&str, u32> = HashMap::new();
    for piece in pieces {
        let (id, from) = (piece["elementId"].as_str().unwrap(), piece["splitFrom"].as_str().unwrap());
        let k = made.entry(from).or_insert(0);
        *k += 1;
        let parent = footage[from];
        let start = project.timeline.as_ref().unwrap().element(id).unwrap().1.start;
        let offset = (start - before[from].start) as f64;
        footage.insert(
            id.to_string(),
            Footage { source_at_start: parent.source_at_start + offset * parent.rate, rate: parent.rate, cuts: parent.cuts + *k, slack: parent.slack },
        );
    }
    for (_, e) in elements(project) {
        let f = footage.get(e.id.as_str()).unwrap_or_else(|| panic!("{} has no recorded footage", e.id));
        let retime = e.retime.as_ref().expect("retime is kept on every piece");
        assert_eq!(retime.rate, f.rate, "{} changed rate", e.id);
        let drift = (e.trim_start as f64 - f.source_at_start).abs();
        assert!(
            drift <= 0.5 * f.cuts as f64 + 1e-6,
            "{}: source at its start is {} ticks, its clip showed {} there ({} cuts)",
            e.id,
            e.trim_start,
            f.source_at_start,
            f.cuts
        );
        // OpenCut's split rounds the left piece once and hands the right piece the rest of the
        // span without rounding its own play again, so a piece's trims may be a tick off the
        // source per cut; its exact end (the last source time it shows) moves at most half a
        // tick per cut.
        let span_error = (e.source_span() - SOURCE).abs();
        assert!(
            span_error <= f.cuts as i64 + f.slack,
            "{}: trimStart + round(duration · rate) + trimEnd is {} ticks off the source ({} cuts)",
            e.id,
            span_error,
            f.cuts
        );
        let exact_end = e.trim_start as f64 + e.duration as f64 * f.rate;
        assert!(
            exact_end <= SOURCE as f64 + 0.5 * (f.cuts + 1) as f64 + f.slack as f64 + 1e-6,
            "{} plays {} ticks past its source",
            e.id,
            exact_end - SOURCE as f64
        );
        assert!(e.trim_start >= 0 && e.trim_end >= 0 && e.duration > 0, "{e:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn edits_of_retimed_clips_keep_the_footage_where_it_was(
        video in prop::collection::vec(clip(), 1..5),
        audio in prop::collection::vec(clip(), 0..4),
        ops in prop::collection::vec(op(), 1..25),
    ) {
        let mut ed = project(&video, &audio);
        let mut footage: HashMap<String, Footage> = elements(ed.project().unwrap())
            .into_iter()
            .map(|(_, e)| (e.id.to_string(), Footage { source_at_start: e.trim_start as f64, rate: e.rate(), cuts: 0, slack: 0 }))
            .collect();
        // What each piece showed before each undoable step and after each undone one: undo and
        // redo bring back a speed change's rate with the rest.
        let mut past: Vec<HashMap<String, Footage>> = Vec::new();
        let mut future: Vec<HashMap<String, Footage>> = Vec::new();
        for op in &ops {
            let (tool, args) = call(&mut ed, op);
            let snapshot = footage.clone();
            let saved_before = ed.project_json().unwrap();
            let before: HashMap<String, Element> = elements(ed.project().unwrap()).into_iter().map(|(_, e)| (e.id.to_string(), e)).collect();
            let out = ed.call_tool(&tool, &args);
            // A call that changed nothing pushed no step.
            let changed = ed.project_json().unwrap() != saved_before;
            match (&out, op) {
                _ if !changed => {}
                (Ok(_), Op::Undo) => {
                    future.push(snapshot);
                    footage = past.pop().expect("an undo follows a step");
                }
                (Ok(_), Op::Redo) => {
                    past.push(snapshot);
                    footage = future.pop().expect("a redo follows an undo");
                }
                (Ok(_), _) => {
                    past.push(snapshot);
                    future.clear();
                }
                _ => {}
            }
            // A speed change keeps the clip's head and plays it at the new rate.
            if let (Ok(_), Op::Speed(_, rate, _)) = (&out, op) {
                let id = args["elementIds"][0].as_str().unwrap();
                let f = footage.get_mut(id).unwrap();
                f.rate = *rate;
                f.slack = f.slack.max((rate / 2.0).ceil() as i64);
            }
            let pieces = match (&out, tool.as_str()) {
                (Ok(v), "split") => v["newElements"].as_array().cloned().unwrap_or_default(),
                _ => vec![],
            };
            check(ed.project().unwrap(), &before, &mut footage, &pieces);
            // What the edits made still loads: the rounding stays within what a project may hold.
            let saved = ed.project_json().unwrap();
            prop_assert_eq!(Project::from_json(&saved).map(|p| p.to_json()), Ok(saved));
        }
    }
}

fn one_clip(rate: f64) -> Editor {
    let c = Clip { rate, played: 0.5, trim: 0.1, gap: TICKS_PER_SECOND };
    project(&[c], &[])
}

#[test]
fn a_split_gives_each_piece_the_source_its_time_showed() {
    // 10 s of timeline at rate 2 plays 20 s of source from 6 s: a cut at 5 s (4 s into the
    // clip) shows source 6 + 4 · 2 = 14 s on both sides of the cut.
    let json = json!({
        "format": "neuralcut-project", "version": 1,
        "assets": [{ "id": "a1", "name": "clip.mp4", "type": "video", "duration": 60 }],
        "timeline": { "tracks": [{ "id": "t1", "type": "main", "elements": [
            { "id": "e1", "type": "video", "assetId": "a1", "start": 120000, "duration": 1200000, "trimStart": 720000, "trimEnd": 4080000, "retime": { "rate": 2, "maintainPitch": true, "curve": "kept" } }
        ] }] },
    });
    let mut ed = Editor::from_json(&json.to_string()).unwrap();
    ed.call_tool("split", &json!({ "times": [5] })).unwrap();
    let els = elements(ed.project().unwrap());
    let (left, right) = (&els[0].1, &els[1].1);
    assert_eq!((left.start, left.duration, left.trim_start, left.trim_end), (120_000, 480_000, 720_000, 4_080_000 + 1_440_000));
    assert_eq!((right.start, right.duration, right.trim_start, right.trim_end), (600_000, 720_000, 720_000 + 960_000, 4_080_000));
    for piece in [left, right] {
        let r = piece.retime.as_ref().unwrap();
        assert_eq!((r.rate, r.maintain_pitch), (2.0, Some(true)));
        assert_eq!(r.extra["curve"], "kept", "unknown retime keys ride along");
    }
    // The listing shows the rate, and leaves it out at 1.
    let listed = ed.call_tool("list_timeline", &json!({})).unwrap();
    assert_eq!(listed["tracks"][0]["elements"][1]["rate"], 2);
    assert_eq!(listed["tracks"][0]["elements"][1]["trimStart"], 14);
}

#[test]
fn timing_edits_of_a_retimed_clip_keep_its_head_and_check_the_source_at_its_rate() {
    let mut ed = one_clip(2.0);
    let e = elements(ed.project().unwrap())[0].1.clone();
    let (ts, source_left) = (e.trim_start, SOURCE - e.trim_start);
    // At rate 2, what is left of the source lasts half as long on the timeline.
    let most = source_left / 2;
    let err = ed
        .call_tool("update_timeline_element_timing", &json!({ "elementId": e.id.as_str(), "duration": (most + 1) as f64 / TICKS_PER_SECOND as f64 }))
        .unwrap_err();
    assert_eq!(err.message, "Duration exceeds source duration");
    ed.call_tool("update_timeline_element_timing", &json!({ "elementId": e.id.as_str(), "start": 30, "duration": most as f64 / TICKS_PER_SECOND as f64 }))
        .unwrap();
    let after = elements(ed.project().unwrap())[0].1.clone();
    // Asked for 30 s, the main track's only clip stays at its front, 0 (OpenCut's main-track rule).
    assert_eq!((after.start, after.duration, after.trim_start, after.trim_end), (0, most, ts, 0));
}

#[test]
fn a_bad_retime_is_refused_on_load_naming_the_element() {
    let with = |retime: Value, kind: &str| {
        let json = json!({
            "format": "neuralcut-project", "version": 1,
            "assets": [{ "id": "a1", "name": "clip.mp4", "type": "video", "duration": 60 }, { "id": "a2", "name": "p.png", "type": "image" }],
            "timeline": { "tracks": [{ "id": "t1", "type": "main", "elements": [
                { "id": "e1", "type": kind, "assetId": if kind == "video" { "a1" } else { "a2" }, "start": 0, "duration": 120000, "retime": retime }
            ] }] },
        });
        Project::from_json(&json.to_string())
    };
    for bad in [json!({ "rate": 0 }), json!({ "rate": 5.01 }), json!({ "rate": 0.001 }), json!({ "rate": -1 })] {
        let err = with(bad.clone(), "video").unwrap_err();
        assert_eq!(err.code, "INVALID_PROJECT");
        assert!(err.message.contains("\"e1\"") && err.message.contains("retime.rate"), "{bad}: {}", err.message);
    }
    for bad in [json!({}), json!({ "rate": "fast" }), json!({ "rate": 2, "maintainPitch": "yes" }), json!(3)] {
        assert_eq!(with(bad.clone(), "video").unwrap_err().code, "INVALID_PROJECT", "{bad}");
    }
    assert!(with(json!({ "rate": 2 }), "image").unwrap_err().message.contains("cannot have a retime"));
    assert!(with(json!({ "rate": 5 }), "video").is_ok());
    // At rate 5, 12 s of timeline plays the whole minute. Whole-tick rounding may carry a retimed
    // clip up to 120 ticks (1 ms) past its source; more is refused.
    let ending = |extra: i64| {
        let json = json!({
            "format": "neuralcut-project", "version": 1,
            "assets": [{ "id": "a1", "name": "clip.mp4", "type": "video", "duration": 60 }],
            "timeline": { "tracks": [{ "id": "t1", "type": "main", "elements": [
                { "id": "e1", "type": "video", "assetId": "a1", "start": 0, "duration": 12 * TICKS_PER_SECOND + extra, "retime": { "rate": 5 } }
            ] }] },
        });
        Project::from_json(&json.to_string())
    };
    assert!(ending(0).is_ok() && ending(24).is_ok());
    assert!(ending(25).unwrap_err().message.contains("plays past the end"));
}
