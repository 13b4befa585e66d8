//! Issue 21's tools on OpenCut (storage v31) scenes: what update_clip, the keyframe tools,
//! duplicate_elements and the track tools write is exactly what OpenCut stores (flat `params`,
//! v30 `animations`, track flags and order), everything they do not touch comes back unchanged,
//! and reading the result back and writing it again gives the same scene. Expected values are
//! written out by hand from OpenCut's code (params/registry.ts, animation/keyframes.ts).

use std::path::PathBuf;

use neuralcut::animation::value_at;
use neuralcut::Editor;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/opencut/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn loaded() -> Editor {
    let mut ed = Editor::new();
    ed.load_opencut_scene(&fixture("v31")).unwrap();
    ed
}

fn call(ed: &mut Editor, tool: &str, args: Value) -> Value {
    ed.call_tool(tool, &args).unwrap_or_else(|e| panic!("{tool} {args}: {}", e.to_json()))
}

fn all_tracks(tracks: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = tracks["overlay"].as_array().unwrap().iter().collect();
    out.push(&tracks["main"]);
    out.extend(tracks["audio"].as_array().unwrap().iter());
    out
}

fn element(tracks: &Value, id: &str) -> Value {
    all_tracks(tracks).into_iter().flat_map(|t| t["elements"].as_array().unwrap().iter()).find(|e| e["id"] == id).cloned().unwrap_or_else(|| panic!("no {id}"))
}

fn track(tracks: &Value, id: &str) -> Value {
    all_tracks(tracks).into_iter().find(|t| t["id"] == id).cloned().unwrap_or_else(|| panic!("no track {id}"))
}

/// Writing the scene, reading it back into a fresh editor and writing again changes nothing.
fn assert_round_trips(ed: &Editor) {
    let written = ed.to_opencut_scene().unwrap();
    let mut again = Editor::new();
    let mut scene = fixture("v31");
    scene["tracks"] = written["tracks"].clone();
    again.load_opencut_scene(&scene).unwrap();
    assert_eq!(again.to_opencut_scene().unwrap(), written);
}

#[test]
fn update_clip_rewrites_only_the_params_it_changes() {
    let mut ed = loaded();
    let before = ed.to_opencut_scene().unwrap()["tracks"].clone();
    call(&mut ed, "update_clip", json!({ "elementIds": ["i-card"], "scale": 0.5, "rotation": 15, "opacity": 0.7, "blendMode": "screen", "position": { "x": 100, "y": -50 } }));
    call(&mut ed, "update_clip", json!({ "elementIds": ["a-music", "v-intro"], "volume": -6, "muted": true }));
    let after = ed.to_opencut_scene().unwrap()["tracks"].clone();

    let mut card = element(&before, "i-card");
    for (k, v) in [("transform.positionX", json!(100)), ("transform.positionY", json!(-50)), ("transform.scaleX", json!(0.5)), ("transform.scaleY", json!(0.5)), ("transform.rotate", json!(15)), ("opacity", json!(0.7)), ("blendMode", json!("screen"))] {
        card["params"][k] = v;
    }
    assert_eq!(element(&after, "i-card"), card);
    let mut music = element(&before, "a-music");
    music["params"] = json!({ "volume": -6, "muted": true });
    assert_eq!(element(&after, "a-music"), music);
    assert_eq!(element(&after, "v-intro")["params"]["volume"], json!(-6));
    assert_eq!(element(&after, "v-intro")["params"]["muted"], json!(true));
    // Nothing else moved.
    for id in ["t-title", "cap-1", "s-flag", "g-rect", "v-pip", "a-extract", "a-whoosh", "v-fast", "e-blur"] {
        assert_eq!(element(&after, id), element(&before, id), "{id} changed");
    }
    assert_round_trips(&ed);
}

#[test]
fn keyframes_are_written_as_opencut_v30_animations() {
    let mut ed = loaded();
    let before = ed.to_opencut_scene().unwrap()["tracks"].clone();
    // A fade in over 0.5 s on the card: two calls.
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "i-card", "property": "opacity", "time": 0, "value": 0 }));
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "i-card", "property": "opacity", "time": 0.5, "value": 0.9 }));
    call(&mut ed, "update_keyframe_curve", json!({ "elementId": "i-card", "property": "opacity", "time": 0, "easing": "ease-in-out" }));
    // The title already fades in (OpenCut's own keys): a colour key joins them.
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "t-title", "property": "color", "time": 1, "value": "#ffffff" }));
    let after = ed.to_opencut_scene().unwrap()["tracks"].clone();

    let card = element(&after, "i-card");
    let ids: Vec<String> = card["animations"]["opacity"]["keys"].as_array().unwrap().iter().map(|k| k["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(
        card["animations"],
        json!({ "opacity": { "keys": [
            { "id": ids[0], "time": 0, "value": 0, "segmentToNext": "bezier", "tangentMode": "flat", "rightHandle": { "dt": 25200, "dv": 0 } },
            { "id": ids[1], "time": 60000, "value": 0.9, "segmentToNext": "linear", "tangentMode": "flat", "leftHandle": { "dt": -25200, "dv": 0 } }
        ] } })
    );
    assert_eq!(card["params"], element(&before, "i-card")["params"], "keyframes leave params alone");

    let title = element(&after, "t-title");
    let old = element(&before, "t-title");
    assert_eq!(title["animations"]["opacity"], old["animations"]["opacity"], "OpenCut's own keys are kept as they were");
    let one = |v: i64, id: &Value| json!({ "keys": [{ "id": id, "time": 120000, "value": v, "segmentToNext": "linear", "tangentMode": "flat" }] });
    let color = &title["animations"]["color"];
    assert_eq!(color, &json!({ "r": one(1, &color["r"]["keys"][0]["id"]), "g": one(1, &color["g"]["keys"][0]["id"]), "b": one(1, &color["b"]["keys"][0]["id"]), "a": one(1, &color["a"]["keys"][0]["id"]) }));
    assert_round_trips(&ed);

    // The evaluator reads OpenCut's keys and the new ones alike.
    let project = ed.project().unwrap();
    let (_, t) = project.timeline.as_ref().unwrap().element("t-title").unwrap();
    assert_eq!(value_at(t, "opacity", 15000), Some(json!(0.5)));
    assert_eq!(value_at(t, "color", 120000), Some(json!("#ffffff")));
    // Before the first colour key the channel holds it (OpenCut's default extrapolation).
    assert_eq!(value_at(t, "color", 0), Some(json!("#ffffff")));
    let (_, m) = project.timeline.as_ref().unwrap().element("a-music").unwrap();
    // OpenCut's own volume ramp: 6 dB at 9 s to -60 dB at 10 s, halfway -27 dB.
    assert_eq!(value_at(m, "volume", 1140000), Some(json!(-27)));
}

#[test]
fn removing_opencut_keys_drops_the_channel_as_opencut_does() {
    let mut ed = loaded();
    call(&mut ed, "remove_keyframe", json!({ "elementId": "t-title", "property": "opacity", "keyframeId": "k-t1" }));
    call(&mut ed, "remove_keyframe", json!({ "elementId": "t-title", "property": "opacity", "time": 0.25 }));
    let after = ed.to_opencut_scene().unwrap()["tracks"].clone();
    assert_eq!(element(&after, "t-title").get("animations"), None);
    assert_round_trips(&ed);
}

#[test]
fn duplicates_carry_params_and_animations_with_new_ids() {
    let mut ed = loaded();
    let out = call(&mut ed, "duplicate_elements", json!({ "elementIds": ["a-music"], "startTime": 20 }));
    let copy_id = out["elements"][0]["elementId"].as_str().unwrap().to_string();
    let after = ed.to_opencut_scene().unwrap()["tracks"].clone();
    let (original, copy) = (element(&after, "a-music"), element(&after, &copy_id));
    assert_eq!(copy["params"], original["params"]);
    assert_eq!(copy["startTime"], json!(2400000));
    for key in ["mediaId", "sourceType", "trimStart", "trimEnd", "sourceDuration", "duration"] {
        assert_eq!(copy[key], original[key], "{key}");
    }
    let keys = |e: &Value| e["animations"]["volume"]["keys"].as_array().unwrap().clone();
    let (a, b) = (keys(&original), keys(&copy));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_ne!(x["id"], y["id"], "keyframe ids are new");
        assert_eq!((&x["time"], &x["value"], &x["segmentToNext"]), (&y["time"], &y["value"], &y["segmentToNext"]));
    }
    assert_round_trips(&ed);
}

#[test]
fn track_switches_and_order_are_opencut_track_flags_and_order() {
    let mut ed = loaded();
    call(&mut ed, "update_track", json!({ "trackId": "music-track", "muted": false }));
    call(&mut ed, "update_track", json!({ "trackId": "caption-track", "hidden": true, "name": "Subtitles" }));
    call(&mut ed, "move_track", json!({ "trackId": "pip-track", "index": 0 }));
    let after = ed.to_opencut_scene().unwrap()["tracks"].clone();
    assert_eq!(track(&after, "music-track")["muted"], json!(false));
    let captions = track(&after, "caption-track");
    assert_eq!((&captions["hidden"], &captions["name"]), (&json!(true), &json!("Subtitles")));
    let order: Vec<&str> = after["overlay"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(order, ["pip-track", "fx-track", "text-track", "caption-track", "gfx-track"]);
    // The listing shows the switches.
    let list = call(&mut ed, "list_timeline", json!({}));
    let captions = list["tracks"].as_array().unwrap().iter().find(|t| t["trackId"] == "caption-track").unwrap();
    assert_eq!((&captions["hidden"], &captions["name"]), (&json!(true), &json!("Subtitles")));
    assert_round_trips(&ed);
}
