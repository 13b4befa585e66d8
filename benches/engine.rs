//! `cargo bench`: tool call times on a 100 × 100 timeline and the memory the history keeps, each
//! next to a baseline measured in the same run (a deep copy of the timeline: what a snapshot-undo
//! editor pays per edit). Medians of repeated runs; the machine is shared and noisy.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use neuralcut::model::{Element, Project, Timeline, Track};
use neuralcut::Editor;
use serde_json::{json, Value};

/// Counts live heap bytes so the history's footprint can be measured, not estimated.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

const TRACKS: usize = 100;
const PER_TRACK: usize = 100;
const SECOND: i64 = neuralcut::TICKS_PER_SECOND;

/// 100 tracks (one main, 99 overlay) of 100 one-second video clips each, back to back.
fn big_project() -> Project {
    project_of(SECOND)
}

/// One main-track clip of `keys / 100` seconds whose opacity has `keys` linear keys, 1/100 s apart.
fn keyed_project(keys: usize) -> Project {
    let step = SECOND / 100;
    let keys: Vec<Value> = (0..keys)
        .map(|i| json!({ "id": format!("k{i}"), "time": i as i64 * step, "value": (i % 2) as f64, "segmentToNext": "linear", "tangentMode": "flat" }))
        .collect();
    let mut project = Project::new();
    project.assets.push(serde_json::from_value(json!({ "id": "a1", "name": "clip.mp4", "type": "video", "duration": 3600 })).unwrap());
    let mut e = Element::new("e1".into(), neuralcut::model::ElementType::Video, 0, keys.len() as i64 * step);
    e.asset_id = Some("a1".into());
    e.trim_end = 3600 * SECOND - e.duration;
    e.animations = Some(serde_json::from_value(json!({ "opacity": { "keys": keys } })).unwrap());
    let mut track: Track = serde_json::from_value(json!({ "id": "t1", "type": "main" })).unwrap();
    track.elements.push(Arc::new(e));
    project.timeline = Some(Timeline { tracks: vec![Arc::new(track)], extra: Default::default() });
    Project::from_json(&project.to_json()).expect("valid keyed bench project")
}

/// The same timeline with clips of `clip` ticks.
fn project_of(clip: i64) -> Project {
    let mut project = Project::new();
    project.assets.push(serde_json::from_value(json!({ "id": "a1", "name": "clip.mp4", "type": "video", "duration": 3600 })).unwrap());
    let mut tracks = Vec::with_capacity(TRACKS);
    for t in 0..TRACKS {
        let kind = if t == TRACKS - 1 { "main" } else { "overlay" };
        let mut track: Track = serde_json::from_value(json!({ "id": format!("t{}", 100 + t), "type": kind })).unwrap();
        for i in 0..PER_TRACK {
            let id = format!("e{}", 100_000 + t * PER_TRACK + i);
            let mut e = Element::new(id, neuralcut::model::ElementType::Video, i as i64 * clip, clip);
            e.asset_id = Some("a1".into());
            e.name = Some("clip.mp4".into());
            e.trim_start = i as i64 * clip;
            e.trim_end = 3600 * SECOND - (i as i64 + 1) * clip;
            track.elements.push(Arc::new(e));
        }
        tracks.push(Arc::new(track));
    }
    project.timeline = Some(Timeline { tracks, extra: Default::default() });
    Project::from_json(&project.to_json()).expect("valid bench project")
}

/// A copy that shares nothing with the original.
fn deep_copy(t: &Timeline) -> Timeline {
    Timeline {
        tracks: t
            .tracks
            .iter()
            .map(|tr| {
                let mut copy = Track::new(tr.id.clone(), tr.kind);
                copy.elements = tr.elements.iter().map(|e| Arc::new((**e).clone())).collect();
                Arc::new(copy)
            })
            .collect(),
        extra: t.extra.clone(),
    }
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    samples[samples.len() / 2]
}

/// Median microseconds of `run`, each run preceded by an untimed `setup`.
fn time<S, R: FnMut(&mut S)>(runs: usize, mut setup: impl FnMut() -> S, mut run: R) -> f64 {
    let samples = (0..runs)
        .map(|_| {
            let mut state = setup();
            let t0 = Instant::now();
            run(&mut state);
            t0.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    median(samples)
}

fn call(ed: &mut Editor, tool: &str, args: &Value) {
    black_box(ed.call_tool(tool, args).expect("bench call succeeds"));
}

fn main() {
    let project = big_project();
    let base = Editor::with_project(project.clone());
    let timeline = project.timeline.clone().unwrap();
    let runs = 41;

    let copy_us = time(
        runs,
        || (),
        |_| {
            black_box(deep_copy(&timeline));
        },
    );
    let split_args = json!({ "times": [50.5] });
    let split_us = time(runs, || base.clone(), |ed| call(ed, "split", &split_args));
    let move_ids: Vec<String> = (0..50).map(|i| format!("e{}", 100_000 + 5 * PER_TRACK + i)).collect();
    let move_args = json!({ "elementIds": move_ids, "start": 200 });
    let move_us = time(runs, || base.clone(), |ed| call(ed, "move_timeline_elements", &move_args));
    let one_move = json!({ "elementIds": ["e100250"], "start": 150 });
    let one_move_us = time(runs, || base.clone(), |ed| call(ed, "move_timeline_elements", &one_move));
    let delete_ids: Vec<String> = (0..TRACKS).map(|t| format!("e{}", 100_000 + t * PER_TRACK + 7)).collect();
    let delete_args = json!({ "elementIds": delete_ids });
    let delete_us = time(runs, || base.clone(), |ed| call(ed, "delete_timeline_elements", &delete_args));
    let list_us = time(
        runs,
        || base.clone(),
        |ed| {
            black_box(ed.call_tool_json("list_timeline", "{}"));
        },
    );
    // Clips of 1.26 s: every time has a fraction, as on most real timelines.
    let fractional = Editor::with_project(project_of(SECOND * 126 / 100));
    let list_fraction_us = time(
        runs,
        || fractional.clone(),
        |ed| {
            black_box(ed.call_tool_json("list_timeline", "{}"));
        },
    );
    let mut warm = base.clone();
    warm.call_tool_json("list_timeline", "{}");
    let list_warm_us = time(
        runs,
        || {
            let mut ed = warm.clone();
            call(&mut ed, "update_timeline_element_timing", &json!({ "elementId": "e100250", "duration": 0.5 }));
            ed
        },
        |ed| {
            black_box(ed.call_tool_json("list_timeline", "{}"));
        },
    );
    let list_value_us = time(runs, || base.clone(), |ed| call(ed, "list_timeline", &json!({})));
    let undo_redo = |args: Value, tool: &'static str| {
        time(
            runs,
            || {
                let mut ed = base.clone();
                call(&mut ed, tool, &args);
                ed
            },
            |ed| {
                ed.undo();
                ed.redo();
            },
        )
    };
    let undo_split_us = undo_redo(split_args.clone(), "split");
    let undo_one_us = undo_redo(one_move.clone(), "move_timeline_elements");

    // Memory: 1 000 single-element edits against 1 000 full copies.
    let before_copy = live();
    let copy = deep_copy(&timeline);
    let copy_bytes = live() - before_copy;
    drop(copy);
    let mut ed = base.clone();
    let before = live();
    for i in 0..1000 {
        let id = format!("e{}", 100_000 + (i * 37) % (TRACKS * PER_TRACK));
        call(&mut ed, "update_timeline_element_timing", &json!({ "elementId": id, "duration": 0.5 + (i % 3) as f64 * 0.1 }));
    }
    let history_bytes = live() - before;
    assert_eq!(ed.history().undo_len(), 1000);

    // Split cost against keyframe count: one clip whose opacity has a key every tick of 1/100 s,
    // cut in the middle. Linear means the 100 000-key split costs 10 times the 10 000-key one.
    let keyed = |keys: usize| {
        let mut ed = Editor::with_project(keyed_project(keys));
        ed.call_tool_json("list_timeline", "{}");
        ed
    };
    let (keyed_small, keyed_large) = (keyed(10_000), keyed(100_000));
    let mid = |keys: usize| json!({ "times": [keys as f64 / 200.0 + 0.005] });
    let key_runs = 9;
    let split_10k_us = time(key_runs, || keyed_small.clone(), |ed| call(ed, "split", &mid(10_000)));
    let split_100k_us = time(key_runs, || keyed_large.clone(), |ed| call(ed, "split", &mid(100_000)));
    let keyed_element = keyed_large.project().unwrap().timeline.as_ref().unwrap().tracks[0].elements[0].clone();
    let clone_100k_us = time(
        key_runs,
        || (),
        |_| {
            black_box((*keyed_element).clone());
        },
    );

    table(
        &format!("neuralcut engine bench: {TRACKS} tracks x {PER_TRACK} elements, median of {runs} runs"),
        "vs deep copy",
        &[
            ("baseline: deep copy of the timeline", copy_us),
            ("split at one time crossing every track", split_us),
            ("move 50 elements", move_us),
            ("move 1 element", one_move_us),
            ("delete 100 elements", delete_us),
            ("list_timeline, cold (JSON text, as JS gets it)", list_us),
            ("list_timeline, cold, clips of 1.26 s", list_fraction_us),
            ("list_timeline after a 1-element edit (cached)", list_warm_us),
            ("list_timeline (parsed into a serde Value)", list_value_us),
            ("undo + redo of the split", undo_split_us),
            ("undo + redo of the one-element move", undo_one_us),
        ],
    );
    table(
        &format!("split of one element with N opacity keyframes, median of {key_runs} runs"),
        "vs clone",
        &[("baseline: clone of the 100 000-key element", clone_100k_us), ("split, 10 000 keys", split_10k_us), ("split, 100 000 keys", split_100k_us)],
    );
    println!("100 000 keys / 10 000 keys: {:.2}x (linear: 10x)", split_100k_us / split_10k_us);
    let full = copy_bytes as f64 * 1000.0;
    println!(
        "history of 1000 single-element edits: {:.1} KiB; 1000 full copies: {:.1} MiB; ratio {:.3} % (goal < 10 %)",
        history_bytes as f64 / 1024.0,
        full / (1024.0 * 1024.0),
        100.0 * history_bytes as f64 / full
    );
}

/// A table of medians under `title`, each row against the first, the baseline.
fn table(title: &str, versus: &str, rows: &[(&str, f64)]) {
    println!("{title}");
    println!("{:<44} {:>12} {:>14}", "operation", "median", versus);
    let baseline = rows[0].1;
    for (name, us) in rows {
        println!("{name:<44} {us:>9.1} µs {:>13.3}x", us / baseline);
    }
}
