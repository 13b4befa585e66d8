//! Issue 34's text styling and canvas background on OpenCut (storage v31) scenes: add_text and
//! update_text write each of OpenCut's text params under its key with the value its properties
//! panel writes, update_project writes `settings.background` as its Background panel does, and
//! reading the result back and writing it again gives the same scene. Expected values are
//! written out by hand from OpenCut's code (params/registry.ts, timeline/defaults.ts,
//! project/types.ts), never taken from the adapter's output.

use neuralcut::opencut;
use serde_json::{json, Map, Value};

mod support;
use support::opencut::*;

/// A new text's params (timeline/defaults.ts `defaultTextElement`) with `changes` over them.
fn text_params(changes: Value) -> Value {
    let mut p: Map<String, Value> = json!({
        "content": "Default text", "fontFamily": "Arial", "fontSize": 15, "color": "#ffffff", "textAlign": "center",
        "fontWeight": "normal", "fontStyle": "normal", "textDecoration": "none", "letterSpacing": 0, "lineHeight": 1.2,
        "background.enabled": false, "background.color": "#000000", "background.cornerRadius": 0,
        "background.paddingX": 30, "background.paddingY": 42, "background.offsetX": 0, "background.offsetY": 0,
        "transform.positionX": 0, "transform.positionY": 0, "transform.scaleX": 1, "transform.scaleY": 1,
        "transform.rotate": 0, "opacity": 1, "blendMode": "normal"
    })
    .as_object()
    .unwrap()
    .clone();
    p.extend(changes.as_object().unwrap().clone());
    Value::Object(p)
}

#[test]
fn add_text_writes_every_text_param_under_opencuts_key() {
    let mut ed = loaded();
    let args = json!({
        "text": "Sale", "start": 20, "end": 22, "position": "center", "fontFamily": "Georgia", "fontSize": 60,
        "color": "#ff0000", "fontWeight": "bold", "fontStyle": "italic", "textAlign": "right", "textDecoration": "underline",
        "letterSpacing": 2.5, "lineHeight": 1.5,
        "background": { "color": "#112233", "paddingX": 10, "paddingY": 12, "offsetX": 4, "offsetY": -4, "cornerRadius": 50 }
    });
    let id = call(&mut ed, "add_text", args)["elementId"].as_str().unwrap().to_string();
    // 60 px on a 1080-high canvas is 60 × 90 / 1080 = 5 of OpenCut's units; the box's paddings
    // are OpenCut's own unit (pixels at fontSize 15), as its panel writes them.
    let expected = json!({
        "id": id, "name": "Sale", "type": "text", "startTime": 2_400_000, "duration": 240_000, "trimStart": 0, "trimEnd": 0,
        "params": text_params(json!({
            "content": "Sale", "fontFamily": "Georgia", "fontSize": 5, "color": "#ff0000", "fontWeight": "bold",
            "fontStyle": "italic", "textAlign": "right", "textDecoration": "underline", "letterSpacing": 2.5, "lineHeight": 1.5,
            "background.enabled": true, "background.color": "#112233", "background.paddingX": 10, "background.paddingY": 12,
            "background.offsetX": 4, "background.offsetY": -4, "background.cornerRadius": 50
        }))
    });
    assert_eq!(element(&opencut::scene(&ed).unwrap()["tracks"], &id), expected);
    assert_round_trips(&mut ed);
}

#[test]
fn update_text_rewrites_only_the_style_keys_given() {
    let mut ed = loaded();
    let before = element(&opencut::scene(&ed).unwrap()["tracks"], "t-title");
    let args = json!({
        "trackId": "text-track", "elementId": "t-title", "fontFamily": "Georgia", "textAlign": "left",
        "letterSpacing": -3, "lineHeight": 0.9, "background": { "enabled": false }
    });
    call(&mut ed, "update_text", args);
    // The box goes off and its colour stays in params, as OpenCut's toggle leaves it.
    let mut expected = before.clone();
    for (k, v) in [("fontFamily", json!("Georgia")), ("textAlign", json!("left")), ("letterSpacing", json!(-3)), ("lineHeight", json!(0.9))] {
        expected["params"][k] = v;
    }
    expected["params"]["background.enabled"] = json!(false);
    assert_eq!(element(&opencut::scene(&ed).unwrap()["tracks"], "t-title"), expected);
    assert_round_trips(&mut ed);

    // On again: the colour it kept, the same params as before but for the keys set above.
    call(&mut ed, "update_text", json!({ "trackId": "text-track", "elementId": "t-title", "background": { "cornerRadius": 100 } }));
    expected["params"]["background.enabled"] = json!(true);
    expected["params"]["background.cornerRadius"] = json!(100);
    assert_eq!(element(&opencut::scene(&ed).unwrap()["tracks"], "t-title"), expected);
    assert_eq!(expected["params"]["background.color"], before["params"]["background.color"]);
    assert_round_trips(&mut ed);
}

#[test]
fn update_project_writes_settings_background_as_opencut_stores_it() {
    let mut ed = loaded();
    let tracks = opencut::scene(&ed).unwrap()["tracks"].clone();
    assert_eq!(opencut::scene(&ed).unwrap()["settings"], json!({ "background": { "type": "color", "color": "#101010" } }));

    call(&mut ed, "update_project", json!({ "background": { "type": "blur", "blurIntensity": 200 } }));
    let scene = opencut::scene(&ed).unwrap();
    assert_eq!(scene["settings"], json!({ "background": { "type": "blur", "blurIntensity": 200 } }));
    assert_eq!(scene["tracks"], tracks, "the tracks are untouched");
    assert_eq!(call(&mut ed, "list_timeline", json!({}))["background"], json!({ "type": "blur", "blurIntensity": 200 }));
    assert_round_trips(&mut ed);

    call(&mut ed, "update_project", json!({ "background": "transparent" }));
    assert_eq!(opencut::scene(&ed).unwrap()["settings"]["background"], json!({ "type": "color", "color": "transparent" }));

    // Each is one undo step, settings and all.
    call(&mut ed, "undo", json!({}));
    call(&mut ed, "undo", json!({}));
    assert_eq!(opencut::scene(&ed).unwrap()["settings"]["background"], json!({ "type": "color", "color": "#101010" }));
    call(&mut ed, "redo", json!({}));
    assert_eq!(opencut::scene(&ed).unwrap()["settings"]["background"], json!({ "type": "blur", "blurIntensity": 200 }));
}

#[test]
fn an_undo_group_spanning_a_text_edit_and_the_background_undoes_both() {
    let mut ed = loaded();
    let before = opencut::scene(&ed).unwrap();
    ed.begin_group("restyle");
    call(&mut ed, "update_text", json!({ "trackId": "text-track", "elementId": "t-title", "color": "#00ff00" }));
    call(&mut ed, "update_project", json!({ "background": "#ffffff" }));
    call(&mut ed, "update_text", json!({ "trackId": "text-track", "elementId": "t-title", "fontWeight": "normal" }));
    assert!(ed.end_group());
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["restyle"]);
    call(&mut ed, "undo", json!({}));
    assert_eq!(opencut::scene(&ed).unwrap(), before);

    // A group that sets the background and sets it back leaves no step.
    ed.begin_group("nothing");
    call(&mut ed, "update_project", json!({ "background": "#ffffff" }));
    call(&mut ed, "update_project", json!({ "background": "#101010" }));
    assert!(ed.end_group());
    assert!(!ed.can_undo());
}
