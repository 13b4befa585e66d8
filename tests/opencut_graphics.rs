//! Issue 34's shapes on OpenCut (storage v31) scenes: add_graphic writes a graphic element as
//! OpenCut's `buildGraphicElement` makes one (every definition param at its default, then the
//! values given), update_clip's `graphic` rewrites only the params it names, keyframes on a
//! definition param are OpenCut's `params.<key>` channels, and the scene round-trips. Expected
//! values are written out by hand from OpenCut's code (graphics/definitions/*.ts,
//! timeline/element-utils.ts, params/registry.ts), never taken from the adapter's output.

use neuralcut::opencut;
use serde_json::json;

mod support;
use support::opencut::*;

#[test]
fn add_graphic_writes_opencut_s_graphic_element() {
    let mut ed = loaded();
    let out = call(
        &mut ed,
        "add_graphic",
        json!({ "shape": "star", "start": 1, "end": 3, "fill": "#ffcc00", "stroke": { "color": "#000000", "width": 6, "align": "outside" }, "points": 6, "depth": 40 }),
    );
    let tracks = opencut::scene(&ed).unwrap()["tracks"].clone();
    let id = out["elementId"].as_str().unwrap();
    let star = element(&tracks, id);
    // The fixture is 1920 x 1080: a fifth of the 1080 side is scale 0.2 of the fitted square.
    assert_eq!(
        star,
        json!({
            "id": id, "name": "Star", "type": "graphic", "startTime": 120000, "duration": 240000, "trimStart": 0, "trimEnd": 0,
            "definitionId": "star",
            "params": {
                "transform.positionX": 0, "transform.positionY": 0, "transform.scaleX": 0.2, "transform.scaleY": 0.2,
                "transform.rotate": 0, "opacity": 1, "blendMode": "normal",
                "fill": "#ffcc00", "stroke": "#000000", "strokeWidth": 6, "strokeAlign": "outside", "points": 6, "depth": 40
            }
        })
    );
    // On a graphic track of its own (the fixture's graphic track is busy at 1 s), as OpenCut's
    // insertion puts one: on top.
    let top = &tracks["overlay"][0];
    assert_eq!((&top["id"], &top["type"]), (&out["trackId"], &json!("graphic")));
    assert_round_trips(&mut ed);
}

#[test]
fn update_clip_rewrites_only_the_graphic_params_it_names() {
    let mut ed = loaded();
    let before = opencut::scene(&ed).unwrap()["tracks"].clone();
    call(&mut ed, "update_clip", json!({ "elementIds": ["g-rect"], "graphic": { "fill": "#00ff00", "stroke": { "width": 4 }, "cornerRadius": 25 } }));
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();
    let mut rect = element(&before, "g-rect");
    rect["params"]["fill"] = json!("#00ff00");
    rect["params"]["strokeWidth"] = json!(4);
    rect["params"]["cornerRadius"] = json!(25);
    assert_eq!(element(&after, "g-rect"), rect);
    // Nothing else in the scene moved.
    let others = |t: &serde_json::Value| {
        all_tracks(t).iter().flat_map(|t| t["elements"].as_array().unwrap().clone()).filter(|e| e["id"] != "g-rect").collect::<Vec<_>>()
    };
    assert_eq!(others(&after), others(&before));
    let listed = call(&mut ed, "get_element", json!({ "elementId": "g-rect" }));
    assert_eq!(listed["shape"], "rectangle");
    assert_eq!(listed["properties"]["params.fill"]["value"], "#00ff00");
    assert_eq!(listed["properties"]["params.cornerRadius"]["value"], 25);
    assert!(listed["properties"].get("params.sides").is_none(), "a rectangle has no sides: {listed}");
    assert_round_trips(&mut ed);
}

#[test]
fn keyframes_on_a_definition_param_are_opencut_s_params_channels() {
    let mut ed = loaded();
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "g-rect", "property": "params.strokeWidth", "time": 0, "value": 0 }));
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "g-rect", "property": "params.strokeWidth", "time": 2, "value": 32 }));
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "g-rect", "property": "params.fill", "time": 0, "value": "#0000ff" }));
    let tracks = opencut::scene(&ed).unwrap()["tracks"].clone();
    let a = &element(&tracks, "g-rect")["animations"];
    let keys = a["params.strokeWidth"]["keys"].as_array().unwrap();
    assert_eq!(keys.iter().map(|k| (k["time"].clone(), k["value"].clone())).collect::<Vec<_>>(), [(json!(0), json!(0)), (json!(240000), json!(32))]);
    // A colour is OpenCut's four scalar channels in linear light: #0000ff is (0, 0, 1, 1).
    assert_eq!([&a["params.fill"]["b"]["keys"][0]["value"], &a["params.fill"]["r"]["keys"][0]["value"]], [&json!(1), &json!(0)]);
    let props = call(&mut ed, "list_animatable_properties", json!({ "elementId": "g-rect" }));
    let names: Vec<&str> = props["properties"].as_array().unwrap().iter().map(|p| p["property"].as_str().unwrap()).collect();
    assert!(names.contains(&"params.fill") && names.contains(&"params.cornerRadius") && !names.contains(&"params.points"), "{names:?}");
    assert_round_trips(&mut ed);
}

#[test]
fn an_unknown_definition_is_kept_and_not_drawn() {
    // OpenCut's registry throws on it, so its preview cannot draw it; NeuralCut keeps it as it is.
    let mut scene = fixture("v31");
    let overlay = scene["tracks"]["overlay"].as_array_mut().unwrap();
    let g = overlay.iter_mut().flat_map(|t| t["elements"].as_array_mut().unwrap().iter_mut()).find(|e| e["id"] == "g-rect").unwrap();
    g["definitionId"] = json!("blob");
    let mut ed = neuralcut::Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    let written = opencut::scene(&ed).unwrap();
    assert_eq!(element(&written["tracks"], "g-rect")["definitionId"], "blob");
    let err = ed.call_tool("update_clip", &json!({ "elementIds": ["g-rect"], "graphic": { "fill": "#ffffff" } })).unwrap_err();
    assert_eq!(err.to_json()["code"], "PROPERTY_NOT_SUPPORTED");
    assert_eq!(err.to_json()["error"], "Graphic g-rect has the shape \"blob\", which OpenCut does not draw; its look cannot be set");
}

#[test]
fn a_project_saved_when_graphics_were_stickers_reads_them_as_graphics() {
    // Before issue 34's graphic type, an imported OpenCut graphic was saved in NeuralCut's own
    // project as a sticker `graphic:<definitionId>` with a top-level `fill`.
    let mut project = serde_json::from_str::<serde_json::Value>(&neuralcut::Editor::new().project_json().unwrap()).unwrap();
    project["timeline"] = json!({ "tracks": [
        { "id": "t1", "type": "main", "elements": [] },
        { "id": "t2", "type": "overlay", "elements": [{ "id": "g1", "type": "sticker", "stickerId": "graphic:star", "fill": "#ff0000", "start": 0, "duration": 120000 }] }
    ] });
    let mut ed = neuralcut::Editor::from_json(&project.to_string()).unwrap();
    let got = call(&mut ed, "get_element", json!({ "elementId": "g1" }));
    assert_eq!((&got["type"], &got["shape"], &got["properties"]["params.fill"]["value"]), (&json!("graphic"), &json!("star"), &json!("#ff0000")));
    let saved: serde_json::Value = serde_json::from_str(&ed.project_json().unwrap()).unwrap();
    let g = &saved["timeline"]["tracks"][1]["elements"][0];
    assert_eq!(g, &json!({ "id": "g1", "type": "graphic", "start": 0, "duration": 120000, "definitionId": "star", "params": { "fill": "#ff0000" } }));
}
