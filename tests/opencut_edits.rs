//! Issue 21's tools on OpenCut (storage v31) scenes: what update_clip, the keyframe tools,
//! duplicate_elements and the track tools write is exactly what OpenCut stores (flat `params`,
//! v30 `animations`, track flags and order), everything they do not touch comes back unchanged,
//! and reading the result back and writing it again gives the same scene. Expected values are
//! written out by hand from OpenCut's code (params/registry.ts, animation/keyframes.ts).

use neuralcut::animation::value_at;
use neuralcut::opencut;
use neuralcut::Editor;
use serde_json::{json, Value};

mod support;
use support::opencut::*;

#[test]
fn update_clip_rewrites_only_the_params_it_changes() {
    let mut ed = loaded();
    let before = opencut::scene(&ed).unwrap()["tracks"].clone();
    call(
        &mut ed,
        "update_clip",
        json!({ "elementIds": ["i-card"], "scale": 0.5, "rotation": 15, "opacity": 0.7, "blendMode": "screen", "position": { "x": 100, "y": -50 } }),
    );
    call(&mut ed, "update_clip", json!({ "elementIds": ["a-music", "v-intro"], "volume": -6, "muted": true }));
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();

    let mut card = element(&before, "i-card");
    for (k, v) in [
        ("transform.positionX", json!(100)),
        ("transform.positionY", json!(-50)),
        ("transform.scaleX", json!(0.5)),
        ("transform.scaleY", json!(0.5)),
        ("transform.rotate", json!(15)),
        ("opacity", json!(0.7)),
        ("blendMode", json!("screen")),
    ] {
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
    assert_round_trips(&mut ed);
}

#[test]
fn keyframes_are_written_as_opencut_v30_animations() {
    let mut ed = loaded();
    let before = opencut::scene(&ed).unwrap()["tracks"].clone();
    // A fade in over 0.5 s on the card: two calls.
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "i-card", "property": "opacity", "time": 0, "value": 0 }));
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "i-card", "property": "opacity", "time": 0.5, "value": 0.9 }));
    call(&mut ed, "update_keyframe_curve", json!({ "elementId": "i-card", "property": "opacity", "time": 0, "easing": "ease-in-out" }));
    // The title already fades in (OpenCut's own keys): a colour key joins them.
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "t-title", "property": "color", "time": 1, "value": "#ffffff" }));
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();

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
    assert_eq!(
        color,
        &json!({ "r": one(1, &color["r"]["keys"][0]["id"]), "g": one(1, &color["g"]["keys"][0]["id"]), "b": one(1, &color["b"]["keys"][0]["id"]), "a": one(1, &color["a"]["keys"][0]["id"]) })
    );
    assert_round_trips(&mut ed);

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
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();
    assert_eq!(element(&after, "t-title").get("animations"), None);
    assert_round_trips(&mut ed);
}

#[test]
fn duplicates_carry_params_and_animations_with_new_ids() {
    let mut ed = loaded();
    let out = call(&mut ed, "duplicate_elements", json!({ "elementIds": ["a-music"], "startTime": 20 }));
    let copy_id = out["elements"][0]["elementId"].as_str().unwrap().to_string();
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();
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
    assert_round_trips(&mut ed);
}

#[test]
fn track_switches_and_order_are_opencut_track_flags_and_order() {
    let mut ed = loaded();
    call(&mut ed, "update_track", json!({ "trackId": "music-track", "muted": false }));
    call(&mut ed, "update_track", json!({ "trackId": "caption-track", "hidden": true, "name": "Subtitles" }));
    call(&mut ed, "move_track", json!({ "trackId": "pip-track", "index": 0 }));
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();
    assert_eq!(track(&after, "music-track")["muted"], json!(false));
    let captions = track(&after, "caption-track");
    assert_eq!((&captions["hidden"], &captions["name"]), (&json!(true), &json!("Subtitles")));
    let order: Vec<&str> = after["overlay"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(order, ["pip-track", "fx-track", "text-track", "caption-track", "gfx-track"]);
    // The listing shows the switches.
    let list = call(&mut ed, "list_timeline", json!({}));
    let captions = list["tracks"].as_array().unwrap().iter().find(|t| t["trackId"] == "caption-track").unwrap();
    assert_eq!((&captions["hidden"], &captions["name"]), (&json!(true), &json!("Subtitles")));
    assert_round_trips(&mut ed);
}

/// OpenCut's splitAnimationsAtTime (animation/keyframes.ts at cf5e79e), worked by hand for a title
/// cut a quarter of the way through four channels: a linear fade, an eased (bezier) slide, a
/// colour and a discrete (held string) channel.
#[test]
fn split_pieces_carry_animations_as_opencut_splits_them() {
    let mut scene = fixture("v31");
    let title = scene["tracks"]["overlay"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|t| t["elements"].as_array_mut().unwrap().iter_mut())
        .find(|e| e["id"] == "t-title")
        .unwrap();
    // Numbers as JSON.stringify writes them: whole values without a fraction.
    let lin = |id: &str, time: i64, value: f64| {
        let value = if value.fract() == 0.0 { json!(value as i64) } else { json!(value) };
        json!({ "id": id, "time": time, "value": value, "segmentToNext": "linear", "tangentMode": "flat" })
    };
    title["animations"] = json!({
        "opacity": { "keys": [lin("o1", 0, 0.0), lin("o2", 120000, 1.0)] },
        "transform.positionX": { "keys": [
            { "id": "p1", "time": 0, "value": 0, "segmentToNext": "bezier", "tangentMode": "flat", "rightHandle": { "dt": 40000, "dv": 0 } },
            { "id": "p2", "time": 120000, "value": 300, "segmentToNext": "linear", "tangentMode": "flat", "leftHandle": { "dt": -40000, "dv": 0 } } ] },
        "color": {
            "r": { "keys": [lin("c1", 0, 1.0), lin("c2", 120000, 0.0)] },
            "g": { "keys": [lin("c1", 0, 0.0), lin("c2", 120000, 0.0)] },
            "b": { "keys": [lin("c1", 0, 0.0), lin("c2", 120000, 1.0)] },
            "a": { "keys": [lin("c1", 0, 1.0), lin("c2", 120000, 1.0)] } },
        "textAlign": { "keys": [{ "id": "d1", "time": 0, "value": "left" }, { "id": "d2", "time": 60000, "value": "center" }] },
    });
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    call(&mut ed, "split", json!({ "times": [0.25] }));
    let tracks = opencut::scene(&ed).unwrap()["tracks"].clone();
    let left = element(&tracks, "t-title");
    let text_track = tracks["overlay"].as_array().unwrap().iter().find(|t| t["id"] == "text-track").unwrap();
    let right = text_track["elements"].as_array().unwrap().iter().find(|e| e["startTime"] == 30000).unwrap().clone();
    assert_eq!((left["duration"].as_i64(), right["duration"].as_i64()), (Some(30000), Some(570000)));

    // Boundary ids: one left and one right id per property path, from the project's k<n> ids.
    let id = |e: &Value, path: &str, i: usize| e["animations"][path]["keys"][i]["id"].as_str().unwrap().to_string();
    let is_k = |s: &str| s.strip_prefix('k').is_some_and(|n| n.parse::<u64>().is_ok());
    let (ol, or) = (id(&left, "opacity", 1), id(&right, "opacity", 0));
    let (pl, pr) = (id(&left, "transform.positionX", 1), id(&right, "transform.positionX", 0));
    let (cl, cr) = (
        left["animations"]["color"]["r"]["keys"][1]["id"].as_str().unwrap().to_string(),
        right["animations"]["color"]["r"]["keys"][0]["id"].as_str().unwrap().to_string(),
    );
    let (dl, dr) = (id(&left, "textAlign", 1), id(&right, "textAlign", 0));
    let all = [&ol, &or, &pl, &pr, &cl, &cr, &dl, &dr];
    assert!(all.iter().all(|s| is_k(s)), "{all:?}");
    assert_eq!(all.iter().collect::<std::collections::BTreeSet<_>>().len(), 8, "{all:?}");

    // Linear: the value a quarter of the way, 0.25, on both sides of the cut.
    assert_eq!(left["animations"]["opacity"], json!({ "keys": [lin("o1", 0, 0.0), lin(&ol, 30000, 0.25)] }));
    assert_eq!(right["animations"]["opacity"], json!({ "keys": [lin(&or, 0, 0.25), lin("o2", 90000, 1.0)] }));

    // Colour: each component as a linear channel, sharing the path's boundary ids.
    let comp =
        |a: f64, b: f64, mid: f64| (json!({ "keys": [lin("c1", 0, a), lin(&cl, 30000, mid)] }), json!({ "keys": [lin(&cr, 0, mid), lin("c2", 90000, b)] }));
    for (k, (a, b, mid)) in [("r", (1.0, 0.0, 0.75)), ("g", (0.0, 0.0, 0.0)), ("b", (0.0, 1.0, 0.25)), ("a", (1.0, 1.0, 1.0))] {
        let (l, r) = comp(a, b, mid);
        assert_eq!(left["animations"]["color"][k], l, "{k}");
        assert_eq!(right["animations"]["color"][k], r, "{k}");
    }

    // Discrete: the held value at the cut ("left") ends the left piece and opens the right one.
    assert_eq!(left["animations"]["textAlign"], json!({ "keys": [{ "id": "d1", "time": 0, "value": "left" }, { "id": dl, "time": 30000, "value": "left" }] }));
    assert_eq!(
        right["animations"]["textAlign"],
        json!({ "keys": [{ "id": dr, "time": 0, "value": "left" }, { "id": "d2", "time": 30000, "value": "center" }] })
    );

    // Bezier: control points (0,0) (40000,0) (80000,300) (120000,300). Time runs linearly along
    // this curve, so the cut at 30000 is at progress 1/4, which OpenCut's 20 bisections reach as
    // p = 1/4 - 2^-21. De Casteljau at p: the cut point is (120000p, 300p²(3-2p)); the left half's
    // handles are (40000p, 0) from its start and (-40000p, 300p²(2p-2)) from the cut; the right
    // half's are (40000(1-p), 300p(2-p) - 300p²(3-2p)) from the cut and (-40000(1-p), 0) from its
    // end. Handle times are rounded to whole ticks: 10000, -10000, 30000, -30000.
    let p = 0.25 - 2f64.powi(-21);
    let at = 300.0 * p * p * (3.0 - 2.0 * p);
    let x = |e: &Value| e["animations"]["transform.positionX"].clone();
    let (lx, rx) = (x(&left), x(&right));
    let close = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
    assert_eq!(
        lx["keys"][0],
        json!({ "id": "p1", "time": 0, "value": 0, "segmentToNext": "bezier", "tangentMode": "flat", "rightHandle": { "dt": 10000, "dv": 0 } })
    );
    let lb = &lx["keys"][1];
    assert_eq!(
        (lb["id"].as_str(), &lb["time"], &lb["segmentToNext"], &lb["tangentMode"], &lb["leftHandle"]["dt"]),
        (Some(pl.as_str()), &json!(30000), &json!("bezier"), &json!("flat"), &json!(-10000))
    );
    assert!(close(&lb["value"], at) && close(&lb["leftHandle"]["dv"], 300.0 * p * p * (2.0 * p - 2.0)), "{lb}");
    assert_eq!(lb.as_object().unwrap().len(), 6, "no right handle on the left piece's last key: {lb}");
    let rb = &rx["keys"][0];
    assert_eq!(
        (rb["id"].as_str(), &rb["time"], &rb["segmentToNext"], &rb["tangentMode"], &rb["rightHandle"]["dt"]),
        (Some(pr.as_str()), &json!(0), &json!("bezier"), &json!("flat"), &json!(30000))
    );
    assert!(close(&rb["value"], at) && close(&rb["rightHandle"]["dv"], 300.0 * p * (2.0 - p) - at), "{rb}");
    assert_eq!(rb.as_object().unwrap().len(), 6, "no left handle on the right piece's first key: {rb}");
    assert_eq!(
        rx["keys"][1],
        json!({ "id": "p2", "time": 90000, "value": 300, "segmentToNext": "linear", "tangentMode": "flat", "leftHandle": { "dt": -30000, "dv": 0 } })
    );
    assert_eq!((lx["keys"].as_array().unwrap().len(), rx["keys"].as_array().unwrap().len()), (2, 2));
    assert_round_trips(&mut ed);
}

#[test]
fn speed_is_written_as_opencut_s_speed_panel_and_update_pipeline_write_it() {
    let mut ed = loaded();
    let before = opencut::scene(&ed).unwrap()["tracks"].clone();
    // v-intro plays 600 000 of its 1 500 000 source ticks (120 000 and 780 000 trimmed): at 2x,
    // 300 000 ticks, the trims as they were; the panel writes `{ rate, maintainPitch }`.
    call(&mut ed, "update_clip", json!({ "elementIds": ["v-intro"], "speed": 2 }));
    // v-fast (rate 2, pitch kept) plays 480 000 source ticks: at 4x, 120 000, still keeping pitch.
    call(&mut ed, "update_clip", json!({ "elementIds": ["v-fast"], "speed": 4 }));
    // a-whoosh back at rate 1 without the pitch option: OpenCut's panel writes no retime at all.
    call(&mut ed, "update_clip", json!({ "elementIds": ["a-whoosh"], "speed": 3 }));
    call(&mut ed, "update_clip", json!({ "elementIds": ["a-whoosh"], "speed": 1 }));
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();

    let mut intro = element(&before, "v-intro");
    intro["duration"] = json!(300000);
    intro["retime"] = json!({ "rate": 2, "maintainPitch": false });
    // The keys past the new end are cut at it, with the value they had there (OpenCut's
    // clampAnimationsToDuration on the duration change): halfway from 1 to 1.2 and 0 to -12.
    let key =
        |id: &str, time: i64, value: Value, tangent: &str| json!({ "id": id, "time": time, "value": value, "segmentToNext": "linear", "tangentMode": tangent });
    intro["animations"] = json!({
        "transform.scaleX": { "keys": [key("k-s1", 0, json!(1), "auto"), key("k2", 300000, json!(1.1), "flat")] },
        "volume": { "keys": [key("k-v3", 0, json!(0), "auto"), key("k4", 300000, json!(-6), "flat")] },
    });
    assert_eq!(element(&after, "v-intro"), intro);
    let mut fast = element(&before, "v-fast");
    fast["duration"] = json!(120000);
    fast["retime"] = json!({ "rate": 4, "maintainPitch": true });
    assert_eq!(element(&after, "v-fast"), fast);
    assert_eq!(element(&after, "a-whoosh"), element(&before, "a-whoosh"));
    for id in ["t-title", "cap-1", "s-flag", "g-rect", "v-pip", "i-card", "a-extract", "a-music", "e-blur"] {
        assert_eq!(element(&after, id), element(&before, id), "{id} changed");
    }
    assert_round_trips(&mut ed);
}

#[test]
fn masks_are_written_as_opencut_s_masks_panel_writes_them() {
    let mut ed = loaded();
    let before = opencut::scene(&ed).unwrap()["tracks"].clone();
    // i-card's ellipse again: its id and every other parameter stay, the feather changes.
    call(&mut ed, "update_clip", json!({ "elementIds": ["i-card"], "mask": { "type": "ellipse", "feather": 30 } }));
    // v-pip (3840 x 2160, fitted to the 1920 x 1080 canvas) gets a star: OpenCut's default square,
    // 0.6 of its shorter side, 648 px: 0.3375 of its width.
    let added = call(&mut ed, "update_clip", json!({ "elementIds": ["v-pip"], "mask": { "type": "star", "rotation": 36 } }));
    assert_eq!(added["elements"][0]["elementId"], "v-pip");
    // g-rect's rectangle goes.
    call(&mut ed, "update_clip", json!({ "elementIds": ["g-rect"], "mask": { "type": "none" } }));
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();

    let mut card = element(&before, "i-card");
    card["masks"][0]["params"]["feather"] = json!(30);
    assert_eq!(element(&after, "i-card"), card);
    let pip = element(&after, "v-pip");
    let id = pip["masks"][0]["id"].as_str().unwrap().to_string();
    let mut want = element(&before, "v-pip");
    want["masks"] = json!([{ "id": id, "type": "star", "params": {
        "feather": 0, "inverted": false, "strokeColor": "#ffffff", "strokeWidth": 0, "strokeAlign": "center",
        "centerX": 0, "centerY": 0, "width": 0.3375, "height": 0.6, "rotation": 36, "scale": 1
    } }]);
    assert_eq!(pip, want);
    assert!(!id.is_empty() && id != "mask-card" && id != "mask-rect");
    let mut rect = element(&before, "g-rect");
    rect.as_object_mut().unwrap().remove("masks");
    assert_eq!(element(&after, "g-rect"), rect);
    for id in ["t-title", "cap-1", "s-flag", "v-intro", "v-fast", "a-extract", "a-music", "a-whoosh", "e-blur"] {
        assert_eq!(element(&after, id), element(&before, id), "{id} changed");
    }
    assert_round_trips(&mut ed);
    // The frame carries the mask the compositor draws, every parameter filled in.
    let frame = ed.frame_at(0.5).unwrap().unwrap();
    let card_layer = frame.layers.iter().find_map(|l| match l {
        neuralcut::frame::Layer::Media(m) if m.element_id == "i-card" => Some(m.clone()),
        _ => None,
    });
    let mask = card_layer.and_then(|m| m.mask).expect("i-card is drawn through its mask");
    assert_eq!(mask.kind, "ellipse");
    assert_eq!(mask.params["feather"], 30);
    assert_eq!(mask.params["inverted"], true);
}

/// A text mask as OpenCut's `buildDefault` makes it (masks/builtin/definitions/text.ts) with its
/// panel's edits, and a freeform path as its pen leaves one (masks/freeform/definition.ts:
/// UUID point ids, points recentred on their box, closed when the pen returns to the first).
fn text_and_freeform_scene() -> (Value, Value, Value) {
    let text = json!([{ "id": "6f1c2f0e-3b7a-4c55-9d2e-0a4f8b1c7e21", "type": "text", "params": {
        "feather": 6, "inverted": false, "strokeColor": "#ffcc00", "strokeWidth": 2, "strokeAlign": "outside",
        "content": "OPEN\nCUT", "fontSize": 40, "fontFamily": "Arial", "fontWeight": "bold", "fontStyle": "normal",
        "textDecoration": "none", "letterSpacing": 0, "lineHeight": 1.2, "centerX": 0, "centerY": 0.1, "rotation": 0, "scale": 1.25
    } }]);
    let point = |id: &str, x: f64, y: f64, out_x: f64| json!({ "id": id, "x": x, "y": y, "inX": -out_x, "inY": 0, "outX": out_x, "outY": 0 });
    let freeform = json!([{ "id": "0b5e9a53-8f64-4d3e-a1c2-7d9e3f2b6a10", "type": "freeform", "params": {
        "feather": 0, "inverted": true, "strokeColor": "#ffffff", "strokeWidth": 0, "strokeAlign": "center",
        "path": [
            point("c2a7e6f4-1d3b-4e8a-9f5c-2b7d6e1a3c90", 0.0, -0.25, 0.1),
            point("9e4b1c7d-5a2f-4b6e-8d3c-1f7a9e2b5c40", 0.25, 0.25, 0.0),
            point("3d8f2a6c-7e1b-4c9d-a5f3-6b2e8d1c4a70", -0.25, 0.25, 0.0)
        ],
        "closed": true, "centerX": -0.1, "centerY": 0.05, "rotation": 15, "scale": 1
    } }]);
    let mut scene = fixture("v31");
    for t in scene["tracks"]["overlay"].as_array_mut().unwrap() {
        for e in t["elements"].as_array_mut().unwrap() {
            match e["id"].as_str() {
                Some("i-card") => e["masks"] = text.clone(),
                Some("g-rect") => e["masks"] = freeform.clone(),
                _ => {}
            }
        }
    }
    (scene, text, freeform)
}

#[test]
fn text_and_freeform_masks_made_by_opencut_round_trip_and_take_update_clip_s_edits() {
    let (scene, text, freeform) = text_and_freeform_scene();
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    // Read back losslessly: written as loaded, listed and shown as the box masks are.
    assert_eq!(opencut::scene(&ed).unwrap()["tracks"], scene["tracks"]);
    assert_round_trips(&mut ed);
    let shown = call(&mut ed, "get_element", json!({ "elementId": "g-rect" }));
    assert_eq!(shown["mask"], json!({ "type": "freeform", "params": freeform[0]["params"] }));
    assert_eq!(call(&mut ed, "get_element", json!({ "elementId": "i-card" }))["mask"]["params"], text[0]["params"]);
    let listed = call(&mut ed, "list_timeline", json!({})).to_string();
    assert!(listed.contains(r#""elementId":"i-card""#) && listed.contains(r#""mask":"text""#) && listed.contains(r#""mask":"freeform""#), "{listed}");
    // The frame carries each mask whole for the compositor.
    let mask_of = |ed: &Editor, t: f64, id: &str| {
        ed.frame_at(t).unwrap().unwrap().layers.iter().find_map(|l| match l {
            neuralcut::frame::Layer::Media(m) if m.element_id == id => Some(m.mask.clone()),
            _ => None,
        })
    };
    let card = mask_of(&ed, 0.5, "i-card").flatten().expect("i-card is drawn through its text mask");
    assert_eq!((card.kind.as_str(), &Value::Object(card.params)), ("text", &text[0]["params"]));

    // update_clip changes what it is given and nothing else: the ids, the other params, the points.
    call(&mut ed, "update_clip", json!({ "elementIds": ["i-card"], "mask": { "type": "text", "content": "NEW", "fontFamily": "Georgia" } }));
    call(&mut ed, "update_clip", json!({ "elementIds": ["g-rect"], "mask": { "type": "freeform", "rotation": 90, "feather": 12 } }));
    let after = opencut::scene(&ed).unwrap()["tracks"].clone();
    let mut want_text = text.clone();
    want_text[0]["params"]["content"] = json!("NEW");
    want_text[0]["params"]["fontFamily"] = json!("Georgia");
    assert_eq!(element(&after, "i-card")["masks"], want_text);
    let mut want_free = freeform.clone();
    want_free[0]["params"]["rotation"] = json!(90);
    want_free[0]["params"]["feather"] = json!(12);
    assert_eq!(element(&after, "g-rect")["masks"], want_free);
    for id in ["t-title", "v-pip", "v-intro", "e-blur"] {
        assert_eq!(element(&after, id), element(&scene["tracks"], id), "{id} changed");
    }
    assert_round_trips(&mut ed);

    // An open path (OpenCut's isActive) leaves the element whole: the frame has no mask for it.
    call(&mut ed, "update_clip", json!({ "elementIds": ["g-rect"], "mask": { "type": "freeform", "closed": false } }));
    assert_eq!(element(&opencut::scene(&ed).unwrap()["tracks"], "g-rect")["masks"][0]["params"]["closed"], false);
    assert_eq!(mask_of(&ed, 6.5, "g-rect"), Some(None), "g-rect is drawn, unmasked");
}

/// A scene's freeform path with entries that are no points (a number, null, a string) and two
/// points of one id: update_clip on another param neither panics nor touches the odd entries, and
/// the points come out with one id each (OpenCut's pen removes points by id).
#[test]
fn a_hostile_freeform_path_is_kept_and_its_ids_made_unique() {
    let (mut scene, _, _) = text_and_freeform_scene();
    let odd = json!([7, null, "x", { "id": "p1", "x": 0, "y": -0.2, "inX": 0, "inY": 0, "outX": 0, "outY": 0 },
        { "id": "p1", "x": 0.2, "y": 0.2, "inX": 0, "inY": 0, "outX": 0, "outY": 0 }]);
    for t in scene["tracks"]["overlay"].as_array_mut().unwrap() {
        for e in t["elements"].as_array_mut().unwrap() {
            if e["id"] == "g-rect" {
                e["masks"][0]["params"]["path"] = odd.clone();
            }
        }
    }
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    call(&mut ed, "update_clip", json!({ "elementIds": ["g-rect"], "mask": { "type": "freeform", "feather": 5 } }));
    let path = element(&opencut::scene(&ed).unwrap()["tracks"], "g-rect")["masks"][0]["params"]["path"].clone();
    assert_eq!((&path[0], &path[1], &path[2]), (&json!(7), &Value::Null, &json!("x")));
    assert_eq!(path[3]["id"], "p1");
    assert!(path[4]["id"].is_string() && path[4]["id"] != "p1", "{path}");
    assert_eq!((&path[4]["x"], &path[4]["y"]), (&json!(0.2), &json!(0.2)));
    // The frame still carries it (the compositor leaves the odd entries out).
    assert!(ed.frame_at(6.5).unwrap().is_some());
}

/// OpenCut classic at cf5e79e draws no sticker and no effect element (docs/opencut.md): a host
/// that says so (`connectOpenCut`'s default, `elementKinds` without them) gets refusals from the
/// tools that would add one, and list_timeline names what is not drawn. Nothing changes.
#[test]
fn a_host_that_draws_no_stickers_or_effect_elements_gets_none_added() {
    let mut ed = loaded();
    // OpenCut classic as published: its graphics draw, its stickers and effect elements do not.
    ed.set_element_kinds(&["video", "image", "audio", "text", "graphic"]).unwrap();
    let before = opencut::scene(&ed).unwrap();
    for (tool, args, kind) in [
        ("add_sticker", json!({ "stickerId": "flags:FR", "start": 20, "end": 22, "position": "center" }), "sticker"),
        ("apply_effect", json!({ "effectType": "blur", "start": 20, "end": 22 }), "effect"),
        ("duplicate_elements", json!({ "elementIds": ["s-flag"] }), "sticker"),
    ] {
        let err = ed.call_tool(tool, &args).unwrap_err().to_json();
        assert_eq!(err["code"], "ELEMENT_KIND_NOT_DRAWN", "{tool}");
        assert_eq!(err["error"], format!("This host does not draw {kind} elements"));
        assert_eq!(err["hint"], "Its preview shows only: video, image, audio, text, graphic. list_timeline's notDrawn names the rest.");
    }
    assert_eq!(opencut::scene(&ed).unwrap(), before);
    assert!(!ed.can_undo());
    let listed = call(&mut ed, "list_timeline", json!({}));
    assert_eq!(listed["notDrawn"], json!(["sticker", "effect"]));
    // What the host draws is still added; a host that draws everything (the default) lists no notDrawn.
    call(&mut ed, "add_text", json!({ "text": "Hi", "start": 20, "end": 22, "position": "center" }));
    call(&mut ed, "add_graphic", json!({ "shape": "ellipse", "start": 20, "end": 22 }));
    ed.set_element_kinds(&["video", "image", "audio", "text"]).unwrap();
    let err = ed.call_tool("add_graphic", &json!({ "shape": "ellipse", "start": 22, "end": 24 })).unwrap_err().to_json();
    assert_eq!(err["error"], "This host does not draw graphic elements");
    ed.set_element_kinds(&["video", "image", "audio", "text", "sticker", "graphic", "effect"]).unwrap();
    assert!(call(&mut ed, "list_timeline", json!({})).get("notDrawn").is_none());
    call(&mut ed, "add_sticker", json!({ "stickerId": "flags:FR", "start": 20, "end": 22, "position": "center" }));
    // An unknown type is refused and changes nothing.
    let err = ed.set_element_kinds(&["video", "hologram"]).unwrap_err();
    assert_eq!(err.code.as_str(), "INVALID_ELEMENT_KINDS");
    assert_eq!(err.message, "Unknown element type \"hologram\" in elementKinds; element types: video, image, audio, text, sticker, graphic, effect");
    assert_eq!(ed.element_kinds().names(true).len(), 7);
}
