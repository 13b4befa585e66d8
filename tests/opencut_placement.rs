//! Where the tools put things, judged by OpenCut classic's own rules (cf5e79e) on scenes shaped
//! as its builders make them (tests/fixtures/opencut): a sticker's box by OpenCut's bounds
//! (preview/element-bounds.ts), the track ids OpenCut looks elements up by, the main track's start
//! (timeline/placement/main-track.ts) and where a new track goes. Expected values are worked out
//! by hand from OpenCut's code, never taken from the adapter's output.

use std::path::PathBuf;

use neuralcut::opencut;
use neuralcut::Editor;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/opencut/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn load(scene: &Value) -> Editor {
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, scene).unwrap_or_else(|e| panic!("{e}"));
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

/// The element `id` and the id of the OpenCut track holding it.
fn find(tracks: &Value, id: &str) -> (Value, String) {
    for t in all_tracks(tracks) {
        if let Some(e) = t["elements"].as_array().unwrap().iter().find(|e| e["id"] == id) {
            return (e.clone(), t["id"].as_str().unwrap().to_string());
        }
    }
    panic!("no element {id}")
}

fn tracks(ed: &Editor) -> Value {
    opencut::scene(ed).unwrap()["tracks"].clone()
}

/// OpenCut's box for a sticker (getElementBounds → getVisualElementBounds): its intrinsic size,
/// or STICKER_INTRINSIC_SIZE_FALLBACK (200) without one, fitted inside the canvas
/// (containScale), times its scale, centred at the canvas centre plus its position.
/// Returns (left, top, right, bottom).
fn opencut_bounds(e: &Value, canvas: (f64, f64)) -> (f64, f64, f64, f64) {
    let (cw, ch) = canvas;
    let p = &e["params"];
    let num = |v: &Value, default: f64| v.as_f64().unwrap_or(default);
    let (sw, sh) = (num(&e["intrinsicWidth"], 200.0), num(&e["intrinsicHeight"], 200.0));
    let contain = (cw / sw).min(ch / sh);
    let w = sw * contain * num(&p["transform.scaleX"], 1.0);
    let h = sh * contain * num(&p["transform.scaleY"], 1.0);
    let (cx, cy) = (cw / 2.0 + num(&p["transform.positionX"], 0.0), ch / 2.0 + num(&p["transform.positionY"], 0.0));
    (cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0)
}

fn on_canvas(b: (f64, f64, f64, f64), canvas: (f64, f64)) -> bool {
    b.0 >= 0.0 && b.1 >= 0.0 && b.2 <= canvas.0 && b.3 <= canvas.1
}

/// The v31 fixture on another canvas.
fn on(width: u32, height: u32) -> Value {
    let mut scene = fixture("v31");
    scene["settings"]["canvasSize"] = json!({ "width": width, "height": height });
    scene
}

#[test]
fn a_sticker_added_at_any_position_is_on_the_canvas_by_opencuts_bounds() {
    // 480 × 270 is the canvas where add_sticker's top-right sticker was a 270 × 270 box at
    // (304.5, −94.5), 42 % visible; 1080 × 1920 is a portrait one.
    for (w, h) in [(1920, 1080), (480, 270), (1080, 1920)] {
        let canvas = (w as f64, h as f64);
        for position in ["top-left", "top-right", "center", "bottom-left", "bottom-right"] {
            for sticker in ["flags:DE", "shapes:star"] {
                let mut ed = load(&on(w, h));
                let out = call(&mut ed, "add_sticker", json!({ "stickerId": sticker, "start": 20, "end": 22, "position": position }));
                let (e, _) = find(&tracks(&ed), out["elementId"].as_str().unwrap());
                let b = opencut_bounds(&e, canvas);
                assert!(on_canvas(b, canvas), "{w}×{h} {position} {sticker}: {b:?}");
                // A fifth of the canvas's shorter side: 200 × 200 fitted to the canvas, scale 0.2.
                assert!((b.2 - b.0 - 0.2 * canvas.0.min(canvas.1)).abs() < 1e-9, "{b:?}");
                // The size the bridge's stickerSize adds after placement, as OpenCut's UI stores
                // it: OpenCut's flags are 640 × 480 (public/flags/*.svg); still on the canvas.
                let mut sized = e.clone();
                (sized["intrinsicWidth"], sized["intrinsicHeight"]) = (json!(640), json!(480));
                assert!(on_canvas(opencut_bounds(&sized, canvas), canvas), "{w}×{h} {position} {sticker} at 640 × 480");
            }
        }
    }
}

#[test]
fn a_sticker_anchored_anywhere_is_on_the_canvas_by_opencuts_bounds() {
    let anchors = ["top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right"];
    for (w, h) in [(1920, 1080), (480, 270), (1080, 1920)] {
        let canvas = (w as f64, h as f64);
        for anchor in anchors {
            // A sticker add_sticker made, at its own scale, and s-flag (640 × 480 by its stored
            // intrinsic size, scale 0.5: 720 × 540 on 1920 × 1080).
            let mut ed = load(&on(w, h));
            let out = call(&mut ed, "add_sticker", json!({ "stickerId": "flags:FR", "start": 20, "end": 22, "position": "center" }));
            let id = out["elementId"].as_str().unwrap().to_string();
            call(&mut ed, "update_clip", json!({ "elementIds": [id.as_str(), "s-flag"], "position": anchor }));
            for id in [id.as_str(), "s-flag"] {
                let (e, _) = find(&tracks(&ed), id);
                let b = opencut_bounds(&e, canvas);
                assert!(on_canvas(b, canvas), "{w}×{h} {anchor} {id}: {b:?}");
            }
        }
    }
    // By hand, s-flag top-right on 1920 × 1080 with the 54 px margin: x = 960 − 54 − 360 = 546,
    // y = −(540 − 54 − 270) = −216.
    let mut ed = load(&fixture("v31"));
    call(&mut ed, "update_clip", json!({ "elementIds": ["s-flag"], "position": "top-right" }));
    let (e, _) = find(&tracks(&ed), "s-flag");
    assert_eq!((&e["params"]["transform.positionX"], &e["params"]["transform.positionY"]), (&json!(546), &json!(-216)));
}

/// The OpenCut track `track_id` holds `element_id`: OpenCut's calls that take both find it.
fn assert_found(tracks: &Value, track_id: &Value, element_id: &Value) {
    let track = all_tracks(tracks).into_iter().find(|t| &t["id"] == track_id).unwrap_or_else(|| panic!("no OpenCut track {track_id}"));
    assert!(track["elements"].as_array().unwrap().iter().any(|e| &e["id"] == element_id), "{element_id} is not on OpenCut track {track_id}");
}

#[test]
fn a_sticker_next_to_an_image_gets_a_graphic_track_on_top_and_its_id() {
    // pip-track holds i-card (an image, 0–5 s) once v-pip is gone; gfx-track is busy 6–11 s
    // (g-rect). A sticker at 7–9 s cannot share pip-track, an OpenCut video track, so it gets a
    // new graphic track where OpenCut's insertion makes one: on top (getHighestInsertIndexForTrack).
    let mut ed = load(&fixture("v31"));
    call(&mut ed, "delete_timeline_elements", json!({ "elementIds": ["v-pip"] }));
    let out = call(&mut ed, "add_sticker", json!({ "stickerId": "flags:FR", "start": 7, "end": 9, "position": "top-right" }));
    let after = tracks(&ed);
    assert_found(&after, &out["trackId"], &out["elementId"]);
    let top = &after["overlay"][0];
    assert_eq!((&top["id"], &top["type"], &top["name"]), (&out["trackId"], &json!("graphic"), &json!("Graphic track")));
    assert_eq!(top["elements"].as_array().unwrap().len(), 1);
    let kinds: Vec<&str> = after["overlay"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(kinds[1..], ["fx-track", "text-track", "caption-track", "gfx-track", "pip-track"]);
}

#[test]
fn every_track_id_a_tool_returns_holds_its_element_in_opencut() {
    let mut ed = load(&fixture("v31"));
    call(&mut ed, "delete_timeline_elements", json!({ "elementIds": ["v-pip"] }));
    let calls = [
        ("add_sticker", json!({ "stickerId": "shapes:star", "start": 7, "end": 9, "position": "center" })),
        ("add_sticker", json!({ "stickerId": "flags:DE", "start": 20, "end": 21, "position": "top-left" })),
        ("add_media_to_timeline", json!({ "assetId": "m-image", "startTime": 7, "duration": 2, "trackType": "overlay" })),
        ("add_media_to_timeline", json!({ "assetId": "m-broll", "startTime": 16, "duration": 2, "trackType": "overlay" })),
    ];
    for (tool, args) in calls {
        let out = call(&mut ed, tool, args);
        assert_found(&tracks(&ed), &out["trackId"], &out["elementId"]);
    }
    // Moves and copies report the tracks they land on; a sticker goes only where stickers are.
    let out = call(&mut ed, "move_timeline_elements", json!({ "elementIds": ["s-flag"], "start": 30 }));
    for m in out["movedElements"].as_array().unwrap() {
        assert_found(&tracks(&ed), &m["trackId"], &m["elementId"]);
    }
    let out = call(&mut ed, "duplicate_elements", json!({ "elementIds": ["s-flag", "i-card"], "startTime": 7 }));
    for c in out["elements"].as_array().unwrap() {
        assert_found(&tracks(&ed), &c["trackId"], &c["elementId"]);
    }
    let out = call(&mut ed, "split", json!({ "times": [8] }));
    for p in out["newElements"].as_array().unwrap() {
        assert_found(&tracks(&ed), &p["trackId"], &p["elementId"]);
    }
    // No OpenCut track of both kinds, no companion track.
    for t in all_tracks(&tracks(&ed)) {
        assert!(!t["id"].as_str().unwrap().ends_with("-graphic") && !t["id"].as_str().unwrap().ends_with("-video"), "{}", t["id"]);
    }
}

fn main_starts(tracks: &Value) -> Vec<(String, i64)> {
    tracks["main"]["elements"].as_array().unwrap().iter().map(|e| (e["id"].as_str().unwrap().to_string(), e["startTime"].as_i64().unwrap())).collect()
}

#[test]
fn a_clip_placed_at_the_front_of_the_main_track_starts_at_0() {
    // v31's main track: v-intro 0–5 s, v-fast 5–7 s. OpenCut's delete leaves the gap at the front
    // (delete-elements.ts shifts nothing without ripple), and so does the engine.
    let mut ed = load(&fixture("v31"));
    call(&mut ed, "delete_timeline_elements", json!({ "elementIds": ["v-intro"] }));
    assert_eq!(main_starts(&tracks(&ed)), [("v-fast".to_string(), 600_000)]);
    // Moved to 2 s with nothing before it, it lands at 0 (enforceMainTrackStart), and the tool says so.
    let out = call(&mut ed, "move_timeline_elements", json!({ "elementIds": ["v-fast"], "start": 2 }));
    assert_eq!(out["movedElements"][0], json!({ "elementId": "v-fast", "trackId": "main-track", "start": 0, "end": 2 }));
    assert_eq!(main_starts(&tracks(&ed)), [("v-fast".to_string(), 0)]);
    // The first clip retimed to 1–4 s stays at the front: 0–3 s (the startTime rule of
    // update-pipeline.ts); a clip added at 3 s to an empty main track: at 0 (placement's rule).
    let mut ed = load(&fixture("v31"));
    let out = call(&mut ed, "update_timeline_element_timing", json!({ "elementId": "v-intro", "start": 1, "end": 4 }));
    assert_eq!((&out["start"], &out["end"]), (&json!(0), &json!(3)));
    assert_eq!(main_starts(&tracks(&ed)), [("v-intro".to_string(), 0), ("v-fast".to_string(), 600_000)]);
    call(&mut ed, "delete_timeline_elements", json!({ "elementIds": ["v-intro", "v-fast"] }));
    let out = call(&mut ed, "add_media_to_timeline", json!({ "assetId": "m-broll", "startTime": 3, "duration": 2, "trackType": "main" }));
    let (e, track) = find(&tracks(&ed), out["elementId"].as_str().unwrap());
    assert_eq!((track.as_str(), &e["startTime"]), ("main-track", &json!(0)));
}

#[test]
fn what_moves_with_the_front_clip_moves_by_as_much() {
    // OpenCut's group move (resolve-move.ts) shifts the whole group so the main member lands at 0:
    // v-fast (main, 5–7 s) and cap-2 (captions, 4–5.5 s) moved to 6 s after v-intro is gone would
    // put cap-2 at 6 s and v-fast at 7 s; the group moves 6 s earlier (cap-2's start, so nothing
    // goes below 0): cap-2 0–1.5 s, v-fast 1–3 s.
    let mut ed = load(&fixture("v31"));
    call(&mut ed, "delete_timeline_elements", json!({ "elementIds": ["v-intro", "cap-1"] }));
    let out = call(&mut ed, "move_timeline_elements", json!({ "elementIds": ["v-fast", "cap-2"], "start": 6 }));
    let after = tracks(&ed);
    assert_eq!(find(&after, "cap-2").0["startTime"], json!(0));
    assert_eq!(find(&after, "v-fast").0["startTime"], json!(120_000));
    let moved: Vec<(&Value, &Value)> = out["movedElements"].as_array().unwrap().iter().map(|m| (&m["elementId"], &m["start"])).collect();
    assert_eq!(moved, [(&json!("v-fast"), &json!(1)), (&json!("cap-2"), &json!(0))]);
}
