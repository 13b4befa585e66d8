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
