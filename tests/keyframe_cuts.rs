//! Keyframed elements under split and shortening, as OpenCut's splitAnimationsAtTime and
//! clampAnimationsToDuration leave them (animation/keyframes.ts at cf5e79e). Over random
//! keyframed text elements (linear, step and bezier segments with random handles, hold or linear
//! extrapolation, a colour channel) and random cut times, each piece evaluated with `value_at`
//! shows, at every sampled tick, the value its parent showed at that timeline time. Tolerance:
//! bezier halves have their handle times rounded to whole ticks (as OpenCut stores them) and the
//! evaluator solves the curve's time by 20 bisections, so a number may lie anywhere between the
//! parent's values one tick either side, widened by 1e-3 of its channel's value range (plus
//! 1e-9); a colour component may differ by 0.01 in linear light. Where a channel extrapolates
//! linearly, values outside the piece's own keys are not compared: they follow the piece's edge
//! segment, which a boundary key may have shortened (OpenCut evaluates the same way). One OpenCut rule
//! is kept on purpose: a piece that ends up with no key of a channel (the cut falls after the last
//! key, or before the first) drops that channel and shows the element's own value there.

use neuralcut::animation::{parse_color, value_at};
use neuralcut::model::Element;
use neuralcut::{Editor, TICKS_PER_SECOND};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const PATHS: [&str; 3] = ["opacity", "transform.positionX", "transform.rotate"];

#[derive(Clone, Debug)]
struct Key {
    at: f64,
    value: f64,
    segment: usize,
    right: Option<(f64, f64)>,
    left: Option<(f64, f64)>,
}

fn key() -> impl Strategy<Value = Key> {
    // Handle times within half the segment keep the curve's time control points in order; where
    // they cross, a half's subdivided handle reaches past its boundary key and OpenCut's
    // normalisation clamps it, bending that half (as it does in OpenCut).
    let handle = proptest::option::of((0.0f64..0.5, -2.0f64..2.0));
    (0.0f64..=1.0, -1.0f64..1.0, 0usize..3, handle.clone(), handle).prop_map(|(at, value, segment, right, left)| Key { at, value, segment, right, left })
}

#[derive(Clone, Debug)]
struct Channel {
    keys: Vec<Key>,
    before_linear: bool,
    after_linear: bool,
    scale: f64,
}

fn channel() -> impl Strategy<Value = Channel> {
    (prop::collection::vec(key(), 1..6), any::<bool>(), any::<bool>(), prop_oneof![Just(1.0), Just(500.0), Just(90.0)])
        .prop_map(|(keys, before_linear, after_linear, scale)| Channel { keys, before_linear, after_linear, scale })
}

/// One channel's JSON over `duration` ticks: key times spread over the element (a fifth of them
/// may sit past its end), handles a fraction of the gap to the neighbour.
fn channel_json(c: &Channel, duration: i64, id: &mut usize, value_scale: f64, colour: bool) -> Value {
    let mut keys: Vec<&Key> = c.keys.iter().collect();
    keys.sort_by(|a, b| a.at.total_cmp(&b.at));
    let times: Vec<i64> = keys.iter().map(|k| (k.at * duration as f64 * 1.2).round() as i64).collect();
    let out: Vec<Value> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            *id += 1;
            let value = if colour { (k.value + 1.0) / 2.0 } else { k.value * value_scale };
            let segment = ["linear", "step", "bezier"][k.segment];
            let mut j = json!({ "id": format!("src{id}"), "time": times[i], "value": value, "segmentToNext": segment, "tangentMode": "flat" });
            if let (Some((dt, dv)), Some(next)) = (k.right, times.get(i + 1)) {
                j["rightHandle"] = json!({ "dt": (dt * (next - times[i]) as f64).round(), "dv": dv * value_scale });
            }
            if let (Some((dt, dv)), Some(prev)) = (k.left, i.checked_sub(1).map(|p| times[p])) {
                j["leftHandle"] = json!({ "dt": -(dt * (times[i] - prev) as f64).round(), "dv": dv * value_scale });
            }
            j
        })
        .collect();
    let mode = |linear: bool| if linear { "linear" } else { "hold" };
    json!({ "keys": out, "extrapolation": { "before": mode(c.before_linear), "after": mode(c.after_linear) } })
}

fn editor(channels: &[Channel], colour: &Channel, duration: i64) -> Editor {
    let mut id = 0;
    let mut animations = Map::new();
    for (path, c) in PATHS.iter().zip(channels) {
        animations.insert(path.to_string(), channel_json(c, duration, &mut id, c.scale, false));
    }
    let comp = |id: &mut usize| channel_json(colour, duration, id, 1.0, true);
    // The components share key times, as OpenCut's colour keyframes do.
    animations.insert("color".into(), json!({ "r": comp(&mut id), "g": comp(&mut id), "b": comp(&mut id), "a": comp(&mut id) }));
    let json = json!({
        "format": "neuralcut-project",
        "version": 1,
        "assets": [],
        "timeline": { "tracks": [
            { "id": "t0", "type": "main", "elements": [] },
            { "id": "t1", "type": "text", "elements": [{
                "id": "e1", "type": "text", "name": "Title", "content": "Title", "start": 12_000, "duration": duration,
                "opacity": 0.25, "x": 40, "color": "#336699", "animations": animations,
            }] },
        ] },
    });
    Editor::from_json(&json.to_string()).expect("the generated project is valid")
}

/// The timeline as saved (the id counter is not part of undo: ids are never reused).
fn timeline(ed: &Editor) -> Value {
    serde_json::from_str::<Value>(&ed.project_json().unwrap()).unwrap()["timeline"].clone()
}

fn elements(ed: &Editor) -> Vec<Element> {
    let tl = ed.project().unwrap().timeline.as_ref().unwrap();
    tl.tracks.iter().flat_map(|t| t.elements.iter().map(|e| (**e).clone())).collect()
}

/// The element's animations as the project JSON holds them.
fn json_of(e: &Element) -> Map<String, Value> {
    e.animations.as_ref().map(|a| a.to_json()).unwrap_or_default()
}

fn key_times(e: &Element, path: &str) -> Vec<f64> {
    let anims = json_of(e);
    let Some(data) = anims.get(path) else { return vec![] };
    let channel = if path == "color" { &data["r"] } else { data };
    channel["keys"].as_array().map(|k| k.iter().filter_map(|k| k["time"].as_f64()).collect()).unwrap_or_default()
}

fn range(e: &Element, path: &str) -> f64 {
    let anims = json_of(e);
    let Some(c) = anims.get(path) else { return 0.0 };
    let Some(keys) = c["keys"].as_array() else { return 1.0 };
    let mut vals = vec![];
    for k in keys {
        let v = k["value"].as_f64().unwrap();
        vals.push(v);
        for h in ["leftHandle", "rightHandle"] {
            if let Some(dv) = k[h]["dv"].as_f64() {
                vals.push(v + dv);
            }
        }
    }
    vals.iter().cloned().fold(f64::MIN, f64::max) - vals.iter().cloned().fold(f64::MAX, f64::min)
}

/// `piece` over `[0, piece.duration)` against `parent` from `offset`; `keeps` says whether the
/// piece keeps the channel (else it shows its own value, as OpenCut's split leaves it).
fn same_values(parent: &Element, piece: &Element, offset: i64) -> Result<(), TestCaseError> {
    let base = {
        let mut b = parent.clone();
        b.animations = None;
        b
    };
    for path in PATHS.iter().chain(&["color"]) {
        let times = key_times(parent, path);
        // A cut drops the channel from a piece on whose side no key lies.
        let last = piece.end() == parent.end();
        let keeps = (offset == 0 || times.iter().any(|t| *t >= offset as f64)) && (last || times.iter().any(|t| *t <= (offset + piece.duration) as f64));
        let own = key_times(piece, path);
        let (first, final_) = (own.first().copied().unwrap_or(0.0), own.last().copied().unwrap_or(0.0));
        let linear = |side: &str| {
            let anims = json_of(piece);
            let data = anims.get(*path);
            let channel = data.map(|d| if *path == "color" { &d["r"] } else { d });
            channel.is_some_and(|c| c["extrapolation"][side] == "linear")
        };
        prop_assert_eq!(keeps, piece.animations.as_ref().is_some_and(|a| a.contains(path)), "{} kept on {}", path, piece.id);
        let tolerance = 1e-3 * range(parent, path) + 1e-9;
        let samples = 64;
        for s in 0..=samples {
            let local = (piece.duration - 1) * s / samples;
            // Linear extrapolation follows the piece's own edge segment, which a boundary key
            // may have shortened (OpenCut's evaluator does the same).
            if (linear("before") && (local as f64) < first) || (linear("after") && (local as f64) > final_) {
                continue;
            }
            let want = if keeps { value_at(parent, path, offset + local) } else { value_at(&base, path, 0) }.unwrap();
            let got = value_at(piece, path, local).unwrap();
            match (want.as_f64(), got.as_f64()) {
                (Some(w), Some(g)) => {
                    // Or anywhere between the parent's values a tick either side: handle times
                    // are whole ticks, and where a curve's time barely moves its value races.
                    let near: Vec<f64> = if keeps {
                        [-1, 1].iter().filter_map(|d| value_at(parent, path, (offset + local + d).max(0))?.as_f64()).chain([w]).collect()
                    } else {
                        vec![w]
                    };
                    let (lo, hi) = (near.iter().cloned().fold(f64::MAX, f64::min), near.iter().cloned().fold(f64::MIN, f64::max));
                    prop_assert!(g >= lo - tolerance && g <= hi + tolerance, "{} on {} at {}: {} vs {} (±{})", path, piece.id, local, g, w, tolerance);
                }
                _ => {
                    let (w, g) = (parse_color(want.as_str().unwrap()).unwrap(), parse_color(got.as_str().unwrap()).unwrap());
                    prop_assert!(w.iter().zip(g).all(|(a, b)| (a - b).abs() <= 0.01), "{} on {} at {}: {} vs {}", path, piece.id, local, got, want);
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn split_pieces_show_what_the_parent_showed(
        channels in prop::collection::vec(channel(), 3),
        colour in channel(),
        seconds in 1i64..20,
        cuts in prop::collection::vec(0.0f64..1.0, 1..3),
    ) {
        let duration = seconds * TICKS_PER_SECOND;
        let mut ed = editor(&channels, &colour, duration);
        let parent = elements(&ed).remove(0);
        let before = timeline(&ed);
        let times: Vec<f64> = cuts.iter().map(|f| (12_000 + 1 + (f * (duration - 2) as f64) as i64) as f64 / TICKS_PER_SECOND as f64).collect();
        ed.call_tool("split", &json!({ "times": times })).unwrap();
        let pieces = elements(&ed);
        prop_assert!(pieces.len() > 1);
        for piece in &pieces {
            same_values(&parent, piece, piece.start - parent.start)?;
        }
        // Boundary keys take ids from the project's counter.
        for piece in &pieces {
            for data in json_of(piece).values() {
                let text = data.to_string();
                prop_assert!(!text.contains("\"id\":\"\""), "{}", text);
            }
        }
        ed.call_tool("undo", &json!({})).unwrap();
        prop_assert_eq!(timeline(&ed), before, "undo restores the timeline exactly");
    }

    #[test]
    fn a_shortened_element_keeps_what_it_showed_up_to_its_new_end(
        channels in prop::collection::vec(channel(), 3),
        colour in channel(),
        seconds in 1i64..20,
        end in 0.0f64..1.0,
    ) {
        let duration = seconds * TICKS_PER_SECOND;
        let mut ed = editor(&channels, &colour, duration);
        let parent = elements(&ed).remove(0);
        let before = timeline(&ed);
        let new_end = 12_000 + 1 + (end * (duration - 2) as f64) as i64;
        ed.call_tool("update_timeline_element_timing", &json!({ "elementId": "e1", "end": new_end as f64 / TICKS_PER_SECOND as f64 })).unwrap();
        let short = elements(&ed).remove(0);
        prop_assert_eq!(short.duration, new_end - 12_000);
        same_values(&parent, &short, 0)?;
        for path in PATHS.iter().chain(&["color"]) {
            prop_assert!(key_times(&short, path).iter().all(|t| *t <= short.duration as f64), "{} keeps keys past the end", path);
        }
        ed.call_tool("undo", &json!({})).unwrap();
        prop_assert_eq!(timeline(&ed), before, "undo restores the timeline exactly");
    }
}

/// One bezier segment with value handles, its values and its split worked out by hand, so the
/// evaluator the property above uses on both sides is pinned to numbers it did not produce.
///
/// Opacity keys A (0 ticks, 0) and B (120 000, 1); A's right handle (60 000, +1), B's left handle
/// (-60 000, 0). Control points P0 (0, 0), P1 (60 000, 1), P2 (60 000, 1), P3 (120 000, 1), so
/// time x(s) = 180 000·s(1-s) + 120 000·s³ and value v(s) = 3s(1-s)² + 3s²(1-s) + s³.
/// - s = 1/2: x = 45 000 + 15 000 = 60 000, v = 0.375 + 0.375 + 0.125 = 0.875 (linear: 0.5;
///   handles without their value part, P1 (60 000, 0): 0.5).
/// - s = 1/4: x = 33 750 + 1 875 = 35 625, v = 0.421875 + 0.140625 + 0.015625 = 0.578125.
/// - s = 3/4: x = 120 000 - 35 625 = 84 375 (the curve's time is symmetric about s = 1/2),
///   v = 0.140625 + 0.421875 + 0.421875 = 0.984375.
///
/// Split at 60 000 (de Casteljau at s = 1/2): left half (0, 0) (30 000, 0.5) (45 000, 0.75)
/// (60 000, 0.875), right half (60 000, 0.875) (75 000, 1) (90 000, 1) (120 000, 1), all whole
/// ticks. The left piece at 35 625 is its s = 1/2, the original s = 1/4: 0.578125; the right piece
/// at local 84 375 - 60 000 = 24 375 is the original s = 3/4: 0.984375. Tolerance 1e-5: the
/// evaluator finds s by bisection (20 halvings: s within 1e-6, v within 3e-6).
#[test]
fn a_bezier_with_value_handles_and_its_split_give_the_hand_computed_values() {
    let keys = json!({ "keys": [
        { "id": "ka", "time": 0, "value": 0, "segmentToNext": "bezier", "tangentMode": "flat", "rightHandle": { "dt": 60_000, "dv": 1 } },
        { "id": "kb", "time": 120_000, "value": 1, "segmentToNext": "linear", "tangentMode": "flat", "leftHandle": { "dt": -60_000, "dv": 0 } },
    ] });
    let project = json!({
        "format": "neuralcut-project", "version": 1, "assets": [],
        "timeline": { "tracks": [
            { "id": "t0", "type": "main", "elements": [] },
            { "id": "t1", "type": "text", "elements": [{ "id": "e1", "type": "text", "name": "T", "content": "T", "start": 0, "duration": 120_000, "animations": { "opacity": keys } }] },
        ] },
    });
    let mut ed = Editor::from_json(&project.to_string()).unwrap();
    let at = |e: &Element, t: i64| value_at(e, "opacity", t).unwrap().as_f64().unwrap();
    let near = |got: f64, want: f64, what: &str| assert!((got - want).abs() < 1e-5, "{what}: {got}, by hand {want}");
    let parent = elements(&ed).remove(0);
    near(at(&parent, 60_000), 0.875, "s = 1/2");
    near(at(&parent, 35_625), 0.578125, "s = 1/4");
    near(at(&parent, 84_375), 0.984375, "s = 3/4");
    ed.call_tool("split", &json!({ "times": [0.5] })).unwrap();
    let pieces = elements(&ed);
    let (left, right) = (&pieces[0], &pieces[1]);
    assert_eq!((left.duration, right.start), (60_000, 60_000));
    near(at(left, 35_625), 0.578125, "left piece, s = 1/4 of the original");
    near(at(left, 60_000), 0.875, "left piece's end");
    near(at(right, 0), 0.875, "right piece's start");
    near(at(right, 24_375), 0.984375, "right piece, s = 3/4 of the original");
}
