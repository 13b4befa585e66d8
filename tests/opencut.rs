//! OpenCut classic (storage v31) scenes in and out: identical round trips, tools on each fixture
//! producing exactly the elements OpenCut's own commands would, migrated projects read from
//! `params`, and refused scenes (including randomly mutated ones) that leave the editor as it was.
//!
//! Fixtures (tests/fixtures/opencut/*.json, see README.md there) are OpenCut's `{ settings,
//! assets, tracks }` as opencut-classic cf5e79e's own builders make them. Every expected value
//! below is written out by hand from OpenCut's code (params/registry.ts, timeline/defaults.ts,
//! timeline/element-utils.ts), never taken from the adapter's output.

use std::path::PathBuf;

use neuralcut::model::{Project, ProjectError};
use neuralcut::opencut;
use neuralcut::time::FrameRate;
use neuralcut::tools::context::{ContextRequest, ContextStatus, ProviderReport};
use neuralcut::Editor;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/opencut/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

fn loaded(name: &str) -> Editor {
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    ed
}

fn tracks(ed: &Editor) -> Value {
    let scene = opencut::scene(ed).unwrap();
    // `{ tracks }`, and the canvas background when the project has one: no other setting.
    let background = ed.project().unwrap().settings.extra.get("background");
    let settings = background.map(|bg| json!({ "background": bg }));
    assert_eq!(scene.get("settings"), settings.as_ref(), "toOpenCutScene gives the background as OpenCut stores it");
    assert_eq!(scene.as_object().unwrap().len(), 1 + usize::from(settings.is_some()), "toOpenCutScene gives {{ tracks, settings? }} only");
    scene["tracks"].clone()
}

fn call(ed: &mut Editor, tool: &str, args: Value) -> Value {
    ed.call_tool(tool, &args).unwrap_or_else(|e| panic!("{tool} {args}: {}", e.to_json()))
}

/// The element `id` in an OpenCut `tracks` value.
fn element<'a>(tracks: &'a Value, id: &str) -> &'a Value {
    all_tracks(tracks).flat_map(|t| t["elements"].as_array().unwrap().iter()).find(|e| e["id"] == id).unwrap_or_else(|| panic!("no element {id}"))
}

fn all_tracks(tracks: &Value) -> impl Iterator<Item = &Value> {
    let overlay = tracks["overlay"].as_array().unwrap().iter();
    let audio = tracks["audio"].as_array().unwrap().iter();
    overlay.chain(std::iter::once(&tracks["main"])).chain(audio)
}

/// Every element id of a `tracks` value, with its track id.
fn placement(tracks: &Value) -> Vec<(String, String)> {
    all_tracks(tracks)
        .flat_map(|t| t["elements"].as_array().unwrap().iter().map(move |e| (t["id"].as_str().unwrap().to_string(), e["id"].as_str().unwrap().to_string())))
        .collect()
}

const FIXTURES: [&str; 4] = ["v31", "migrated-v28", "ntsc-23976", "ntsc-2997"];

/// OpenCut's element params with their defaults (params/registry.ts, timeline/defaults.ts).
fn visual() -> Map<String, Value> {
    json!({
        "transform.positionX": 0, "transform.positionY": 0, "transform.scaleX": 1, "transform.scaleY": 1,
        "transform.rotate": 0, "opacity": 1, "blendMode": "normal"
    })
    .as_object()
    .unwrap()
    .clone()
}

fn audio() -> Map<String, Value> {
    json!({ "volume": 0, "muted": false }).as_object().unwrap().clone()
}

fn text_params() -> Map<String, Value> {
    let mut p = json!({
        "content": "Default text", "fontFamily": "Arial", "fontSize": 15, "color": "#ffffff", "textAlign": "center",
        "fontWeight": "normal", "fontStyle": "normal", "textDecoration": "none", "letterSpacing": 0, "lineHeight": 1.2,
        "background.enabled": false, "background.color": "#000000", "background.cornerRadius": 0,
        "background.paddingX": 30, "background.paddingY": 42, "background.offsetX": 0, "background.offsetY": 0
    })
    .as_object()
    .unwrap()
    .clone();
    p.extend(visual());
    p
}

fn with(mut base: Map<String, Value>, changes: Value) -> Value {
    base.extend(changes.as_object().unwrap().clone());
    Value::Object(base)
}

// ---------------------------------------------------------------------------------------------
// Round trips

#[test]
fn every_fixture_comes_back_identical() {
    for name in FIXTURES {
        let ed = loaded(name);
        // serde_json's Value compares objects by content: key order aside, identical.
        assert_eq!(tracks(&ed), fixture(name)["tracks"], "{name}: round trip");
        assert!(!ed.can_undo() && !ed.can_redo(), "{name}: loading is not an undo step");
        // Through NeuralCut's own project JSON too: the adapter's bookkeeping never collides.
        let again = Editor::from_json(&ed.project_json().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(tracks(&again), fixture(name)["tracks"], "{name}: via the project JSON");
    }
}

#[test]
fn elements_out_of_order_come_back_sorted_and_unknown_fields_pass_through() {
    let mut scene = fixture("ntsc-23976");
    scene["tracks"]["main"]["elements"].as_array_mut().unwrap().reverse();
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    assert_eq!(tracks(&ed), fixture("ntsc-23976")["tracks"]);

    let mut scene = fixture("ntsc-23976");
    scene["tracks"]["layoutHint"] = json!({ "collapsed": ["audio"] });
    scene["tracks"]["main"]["locked"] = json!(true);
    scene["tracks"]["main"]["opencut"] = json!("a field that happens to share the adapter's key");
    let shot = &mut scene["tracks"]["main"]["elements"][0];
    shot["opencut"] = json!({ "v": 1 });
    shot["x"] = json!(12);
    shot["start"] = json!("marker");
    shot["fontFamily"] = json!("a top-level field with a NeuralCut name");
    shot["params"]["futureParam"] = json!("kept");
    opencut::load_scene(&mut ed, &scene).unwrap();
    assert_eq!(tracks(&ed), scene["tracks"]);
    let again = Editor::from_json(&ed.project_json().unwrap()).unwrap();
    assert_eq!(tracks(&again), scene["tracks"]);
}

/// Keyframes with parts NeuralCut's model does not read: an unknown field on a key, a channel and
/// an extrapolation, a `segmentToNext` and a handle of shapes it does not know, floats written
/// with a fraction, a path that is not a channel.
fn odd_animations() -> Value {
    json!({
        "opacity": { "locked": true, "keys": [
            { "id": "k-a", "time": 0, "value": 0.0, "segmentToNext": "bezier", "tangentMode": "auto", "rightHandle": { "dv": 0.25, "dt": 9000 }, "easing": { "preset": "snappy" } },
            { "time": 30000, "id": "k-b", "value": 1, "segmentToNext": "smooth", "leftHandle": { "dt": -9000, "dv": 0, "weight": 2 } },
            { "id": "k-c", "time": "later", "value": 0.5 }
        ], "extrapolation": { "before": "linear", "after": "hold", "note": 1 } },
        "color": { "r": { "keys": [] }, "g": { "keys": [] }, "b": { "keys": [] }, "a": { "keys": [] }, "space": "linear-srgb" },
        "bindings": [1, 2.50]
    })
}

#[test]
fn animations_come_back_byte_identical_with_what_the_model_does_not_read() {
    let mut scene = fixture("v31");
    let text = |v: &Value| serde_json::to_string(v).unwrap();
    let overlay = scene["tracks"]["overlay"].as_array_mut().unwrap();
    let title = overlay.iter_mut().flat_map(|t| t["elements"].as_array_mut().unwrap().iter_mut()).find(|e| e["id"] == "t-title").unwrap();
    title["animations"] = odd_animations();
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    let written = text(&element(&tracks(&ed), "t-title")["animations"]);
    assert_eq!(written, text(&odd_animations()), "OpenCut's scene, byte for byte");
    let again = Editor::from_json(&ed.project_json().unwrap()).unwrap();
    assert_eq!(text(&element(&tracks(&again), "t-title")["animations"]), written, "through NeuralCut's project JSON");

    // An edit changes what it edits; the parts the model does not read stay where they were.
    call(&mut ed, "upsert_keyframe", json!({ "elementId": "t-title", "property": "opacity", "time": 0, "value": 0.5 }));
    let mut expected = odd_animations();
    expected["opacity"]["keys"][0]["value"] = json!(0.5);
    // Keys are sorted by time again, a time that is not a number counting as 0 (as before).
    expected["opacity"]["keys"].as_array_mut().unwrap().swap(1, 2);
    assert_eq!(text(&element(&tracks(&ed), "t-title")["animations"]), text(&expected));
}

#[test]
fn settings_and_assets_are_read() {
    let ed = loaded("ntsc-23976");
    let p = ed.project().unwrap();
    assert_eq!(p.settings.fps, FrameRate { numerator: 24000, denominator: 1001 });
    assert_eq!((p.settings.canvas.width, p.settings.canvas.height), (1080, 1920));
    assert_eq!(p.settings.extra["background"], json!({ "type": "blur", "blurIntensity": 8 }));
    let film = p.asset("film").unwrap();
    assert_eq!(film.duration_ticks(), Some(1_201_200));
    // A media probe's 23.976 is NTSC's 24000/1001.
    assert_eq!(film.fps, Some(FrameRate { numerator: 24000, denominator: 1001 }));

    // Without settings the editor's fps and canvas stay.
    let mut ed = loaded("ntsc-2997");
    let mut scene = fixture("v31");
    scene.as_object_mut().unwrap().remove("settings");
    opencut::load_scene(&mut ed, &scene).unwrap();
    assert_eq!(ed.project().unwrap().settings.fps, FrameRate { numerator: 30000, denominator: 1001 });
    assert_eq!(ed.project().unwrap().settings.canvas.width, 1440);
}

// ---------------------------------------------------------------------------------------------
// What the agent sees

#[test]
fn the_listing_shows_what_opencut_shows() {
    let mut ed = loaded("v31");
    let tl = call(&mut ed, "list_timeline", json!({}));
    let list = tl["tracks"].as_array().unwrap();
    let kinds: Vec<(&str, &str)> = list.iter().map(|t| (t["trackId"].as_str().unwrap(), t["type"].as_str().unwrap())).collect();
    assert_eq!(
        kinds,
        [
            ("fx-track", "effect"),
            ("text-track", "text"),
            ("caption-track", "text"),
            ("gfx-track", "overlay"),
            ("pip-track", "overlay"),
            ("main-track", "main"),
            ("extract-track", "audio"),
            ("music-track", "audio"),
        ]
    );
    // Hidden and muted tracks say so; the others say nothing.
    let flags: Vec<(&Value, &Value)> = list.iter().map(|t| (&t["hidden"], &t["muted"])).collect();
    let (n, t) = (&Value::Null, &json!(true));
    assert_eq!(flags, [(n, n), (n, n), (t, n), (n, n), (n, t), (n, n), (n, n), (n, t)]);

    let find = |id: &str| list.iter().flat_map(|t| t["elements"].as_array().unwrap()).find(|e| e["elementId"] == id).unwrap().clone();
    // Text from params, and its style: 15 units on a 1080-high canvas are 15 × 1080 / 90 = 180 px.
    assert_eq!(
        find("t-title"),
        json!({
            "elementId": "t-title", "ref": "text-1", "type": "text", "name": "Title", "start": 0, "end": 5, "duration": 5,
            "text": "Hello, world",
            "textStyle": { "fontSize": 180, "fontFamily": "Inter", "color": "#ffcc00", "fontWeight": "bold", "fontStyle": "normal",
                           "textAlign": "center", "textDecoration": "none", "background": "rgba(0,0,0,0.5)" }
        })
    );
    // A caption (fontSize 5 → 60 px), hidden by the user.
    assert_eq!(
        find("cap-2"),
        json!({
            "elementId": "cap-2", "ref": "text-3", "type": "text", "name": "Caption 2", "start": 4, "end": 5.5, "duration": 1.5, "hidden": true,
            "text": "to the show",
            "textStyle": { "fontSize": 60, "fontFamily": "Arial", "color": "#ffffff", "fontWeight": "bold", "fontStyle": "normal",
                           "textAlign": "center", "textDecoration": "none" }
        })
    );
    // −6 dB is 10^(−6/20) ≈ 0.501; hidden and muted in params.
    let pip = find("v-pip");
    assert!((pip["volume"].as_f64().unwrap() - 0.501_187).abs() < 1e-6, "{pip}");
    assert_eq!((&pip["hidden"], &pip["muted"]), (&json!(true), &json!(true)));
    // +6 dB is a boost, 10^(6/20) ≈ 1.995, not capped at 1.
    let music = find("a-music");
    assert!((music["volume"].as_f64().unwrap() - 1.995_262).abs() < 1e-6, "{music}");
    assert_eq!(music["trimStart"], json!(0.5));
    // Extracted audio plays the video's asset; library audio has an asset of its own.
    assert_eq!(find("a-extract")["assetId"], "m-video");
    assert_eq!(find("a-whoosh")["assetId"], "library:https://cdn.example.com/sfx/whoosh.mp3");
    assert_eq!(find("s-flag")["stickerId"], "flags:US");
    assert_eq!((&find("g-rect")["shape"], &find("g-rect")["params"]["fill"]), (&json!("rectangle"), &json!("#ff0000")));
    assert_eq!(find("e-blur")["params"], json!({ "intensity": 15 }));

    let assets = call(&mut ed, "list_project_assets", json!({}));
    let ids: Vec<&str> = assets["assets"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["m-video", "m-broll", "m-image", "m-music", "library:https://cdn.example.com/sfx/whoosh.mp3"]);
}

#[test]
fn a_migrated_project_is_read_from_params_not_its_stale_copies() {
    let mut ed = loaded("migrated-v28");
    let tl = call(&mut ed, "list_timeline", json!({}));
    let list = tl["tracks"].as_array().unwrap();
    let find = |id: &str| list.iter().flat_map(|t| t["elements"].as_array().unwrap()).find(|e| e["elementId"] == id).unwrap().clone();
    // params.content "Hello, world", not the stale top-level "Hello"; 20 units at 720 high = 160 px.
    assert_eq!(
        find("t-hello"),
        json!({
            "elementId": "t-hello", "ref": "text-1", "type": "text", "name": "Text", "start": 0, "end": 3, "duration": 3,
            "text": "Hello, world",
            "textStyle": { "fontSize": 160, "fontFamily": "Inter", "color": "#eeeeee", "fontWeight": "bold", "fontStyle": "italic",
                           "textAlign": "left", "textDecoration": "underline", "background": "#111111", "letterSpacing": 1.5,
                           "lineHeight": 1.4, "background.paddingX": 10, "background.paddingY": 12 }
        })
    );
    // params.volume 3 dB (≈ 1.413) and params.muted false, not the stale −6 dB and muted true.
    let video = find("v-old");
    assert!((video["volume"].as_f64().unwrap() - 1.412_538).abs() < 1e-6, "{video}");
    assert_eq!(video["muted"], Value::Null);
    // A sticker placed by params.transform.positionX (−200), not transform.position.x (−50).
    let tl = ed.project().unwrap().timeline.clone().unwrap();
    let (_, sticker) = tl.element("s-old").unwrap();
    assert_eq!((sticker.x, sticker.y), (Some(-200.0), Some(60.0)));

    // Edits land in params; the stale copies stay as they were and nothing legacy is added.
    call(&mut ed, "update_text", json!({ "trackId": "o-text", "elementId": "t-hello", "text": "Bye" }));
    call(&mut ed, "set_volume", json!({ "trackId": "main", "elementId": "v-old", "volume": 0.5 }));
    let out = tracks(&ed);
    let before = fixture("migrated-v28")["tracks"].clone();
    let mut text = element(&before, "t-hello").clone();
    text["name"] = json!("Bye");
    text["params"]["content"] = json!("Bye");
    assert_eq!(element(&out, "t-hello"), &text);
    let mut video = element(&before, "v-old").clone();
    video["params"]["volume"] = json!(-6.02);
    assert_eq!(element(&out, "v-old"), &video);
    for id in ["a-old", "s-old"] {
        assert_eq!(element(&out, id), element(&before, id), "{id}");
    }
}

// ---------------------------------------------------------------------------------------------
// Each tool on each fixture: exactly what OpenCut's own command would give

/// Loads `name`, runs `tool`, and returns (the output, the tracks before, the tracks after).
fn run(name: &str, setup: impl Fn(&mut Editor), tool: &str, args: Value) -> (Value, Value, Value) {
    let mut ed = loaded(name);
    setup(&mut ed);
    let before = tracks(&ed);
    let out = call(&mut ed, tool, args);
    (out, before, tracks(&ed))
}

/// Asserts that every element of `before` except `changed` is in `after`, identical.
fn others_untouched(before: &Value, after: &Value, changed: &[&str]) {
    for t in all_tracks(before) {
        for e in t["elements"].as_array().unwrap() {
            let id = e["id"].as_str().unwrap();
            if !changed.contains(&id) {
                assert_eq!(element(after, id), e, "{id} untouched");
            }
        }
    }
}

#[test]
fn add_text_makes_opencuts_text_element() {
    // buildTextElement: name, duration, startTime, trims and every text and visual param, nothing
    // else (no hidden). The subtitle preset is 44 px, which is 44 × 90 / 1080 = 3.67 units on a
    // 1080-high canvas; bottom puts the centre 15 % of 1080 = 162 px in from the edge: y 378.
    // On other canvases the preset scales with the height (rounded to whole pixels) and the margin
    // with the shorter side: 1920 high, 78 px = 3.66 units, y 960 − 162 = 798; 720 high, 29 px =
    // 3.63 units (3.625 rounded half up), y 360 − 108 = 252.
    for (name, size, y) in [("v31", 3.67, 378), ("ntsc-2997", 3.67, 378), ("ntsc-23976", 3.66, 798), ("migrated-v28", 3.63, 252)] {
        let args = json!({ "text": "Subscribe", "start": 10, "end": 12, "position": "bottom", "style": "subtitle" });
        let (out, before, after) = run(name, |_| {}, "add_text", args);
        let id = out["elementId"].as_str().unwrap();
        assert_eq!(
            element(&after, id),
            &json!({
                "id": id, "name": "Subscribe", "type": "text", "startTime": 1_200_000, "duration": 240_000, "trimStart": 0, "trimEnd": 0,
                "params": with(text_params(), json!({
                    "content": "Subscribe", "fontSize": size, "background.enabled": true, "background.color": "rgba(0,0,0,0.6)",
                    "transform.positionY": y
                }))
            }),
            "{name}"
        );
        others_untouched(&before, &after, &[]);
    }
}

/// Captions are text elements as OpenCut's caption flow makes them (subtitles/insert.ts: a new
/// text track at index 0, every cue an element named `Caption <n>` at its times), and they come
/// back through a save and load of the scene as the same cues, to the millisecond.
#[test]
fn captions_are_opencuts_caption_text_elements_and_survive_the_scene() {
    let srt = "1\n00:00:00,500 --> 00:00:02,001\nTwo\nlines\n\n2\n00:00:02,001 --> 00:00:03,250\nOne\n";
    let words = json!([{ "start": 4, "end": 4.5, "text": "Spoken" }, { "start": 4.5, "end": 5.2, "text": "words." }]);
    let mut ed = loaded("v31");
    let before = tracks(&ed);
    let imported = call(&mut ed, "import_subtitles", json!({ "format": "srt", "text": srt }));
    let spoken = call(&mut ed, "add_captions", json!({ "words": words }));
    let after = tracks(&ed);
    // add_captions's track went on top, above import_subtitles's.
    let overlay = after["overlay"].as_array().unwrap();
    assert_eq!((&overlay[0]["id"], &overlay[1]["id"]), (&spoken["trackIds"][0], &imported["trackIds"][0]));
    assert_eq!((&overlay[1]["type"], &overlay[1]["name"]), (&json!("text"), &json!("Captions")));
    let first = &overlay[1]["elements"][0];
    assert_eq!(
        first,
        &json!({
            "id": first["id"], "name": "Caption 1", "type": "text", "startTime": 60_000, "duration": 180_120, "trimStart": 0, "trimEnd": 0,
            "params": with(text_params(), json!({
                "content": "Two\nlines", "fontSize": 3.67, "background.enabled": true, "background.color": "rgba(0,0,0,0.6)",
                "transform.positionY": 378
            }))
        })
    );
    others_untouched(&before, &after, &[]);
    // Saved as OpenCut's scene and loaded again: the same scene, and the same subtitles.
    let export = |ed: &mut Editor| call(ed, "export_subtitles", json!({ "format": "srt" }))["text"].clone();
    let mut saved = fixture("v31");
    saved["tracks"] = after.clone();
    let mut again = Editor::new();
    opencut::load_scene(&mut again, &saved).unwrap();
    assert_eq!(tracks(&again), after);
    assert_eq!(export(&mut again), export(&mut ed));
    assert_eq!(
        export(&mut again),
        "1\n00:00:00,500 --> 00:00:02,001\nTwo\nlines\n\n2\n00:00:02,001 --> 00:00:03,250\nOne\n\n3\n00:00:04,000 --> 00:00:05,200\nSpoken words.\n\n"
    );
}

#[test]
fn add_media_makes_opencuts_media_elements() {
    // buildVideoElement: sourceDuration (the asset's 8 s), isSourceAudioEnabled, hidden false, visual
    // and audio params. The tool's 2 s leave 6 s trimmed off the end.
    let args = json!({ "assetId": "m-broll", "startTime": 12, "trackType": "main", "duration": 2 });
    let (out, before, after) = run("v31", |_| {}, "add_media_to_timeline", args);
    let id = out["elementId"].as_str().unwrap();
    let mut params = visual();
    params.extend(audio());
    assert_eq!(
        element(&after, id),
        &json!({
            "id": id, "name": "broll.mp4", "type": "video", "mediaId": "m-broll",
            "startTime": 1_440_000, "duration": 240_000, "trimStart": 0, "trimEnd": 720_000, "sourceDuration": 960_000,
            "isSourceAudioEnabled": true, "hidden": false, "params": params
        })
    );
    assert_eq!(out["trackId"], "main-track");
    others_untouched(&before, &after, &[]);

    // buildImageElement: 5 s, hidden false, visual params.
    let args = json!({ "assetId": "m-image", "startTime": 0, "trackType": "overlay" });
    let (out, before, after) = run("v31", |_| {}, "add_media_to_timeline", args);
    let id = out["elementId"].as_str().unwrap();
    assert_eq!(
        element(&after, id),
        &json!({
            "id": id, "name": "card.png", "type": "image", "mediaId": "m-image",
            "startTime": 0, "duration": 600_000, "trimStart": 0, "trimEnd": 0, "hidden": false, "params": visual()
        })
    );
    others_untouched(&before, &after, &[]);

    // buildUploadAudioElement: sourceType upload, sourceDuration, volume and muted params.
    let args = json!({ "assetId": "m-music", "startTime": 20, "trackType": "audio" });
    let (out, before, after) = run("v31", |_| {}, "add_media_to_timeline", args);
    let id = out["elementId"].as_str().unwrap();
    assert_eq!(
        element(&after, id),
        &json!({
            "id": id, "name": "music.mp3", "type": "audio", "sourceType": "upload", "mediaId": "m-music",
            "startTime": 2_400_000, "duration": 3_600_000, "trimStart": 0, "trimEnd": 0, "sourceDuration": 3_600_000,
            "params": audio()
        })
    );
    others_untouched(&before, &after, &[]);

    // buildLibraryAudioElement: sourceType library and the URL instead of a mediaId.
    let args = json!({ "assetId": "library:https://cdn.example.com/sfx/whoosh.mp3", "startTime": 30, "trackType": "audio" });
    let (out, before, after) = run("v31", |_| {}, "add_media_to_timeline", args);
    let id = out["elementId"].as_str().unwrap();
    assert_eq!(
        element(&after, id),
        &json!({
            "id": id, "name": "Whoosh", "type": "audio", "sourceType": "library", "sourceUrl": "https://cdn.example.com/sfx/whoosh.mp3",
            "startTime": 3_600_000, "duration": 60_000, "trimStart": 0, "trimEnd": 0, "sourceDuration": 60_000,
            "params": audio()
        })
    );
    others_untouched(&before, &after, &[]);

    // The same on the NTSC and migrated fixtures: the asset's whole length.
    for (name, asset, ticks, start) in [("ntsc-2997", "vo", 2_402_400, 0), ("migrated-v28", "m-song", 480_000, 600_000)] {
        let args = json!({ "assetId": asset, "startTime": start / 120_000, "trackType": "audio" });
        let (out, _, after) = run(name, |_| {}, "add_media_to_timeline", args);
        let id = out["elementId"].as_str().unwrap();
        assert_eq!(element(&after, id)["params"], Value::Object(audio()), "{name}");
        assert_eq!((&element(&after, id)["duration"], &element(&after, id)["sourceDuration"]), (&json!(ticks), &json!(ticks)), "{name}");
    }
}

#[test]
fn add_sticker_makes_opencuts_sticker_element() {
    // buildStickerElement: the catalog name, the id as OpenCut writes it (provider:value), 2 s, visual
    // params at scale 0.2: OpenCut fits the 200 × 200 fallback to the canvas (1080 × 1080), so it
    // is 216 × 216; top-right with the 54 px margin: (960 − 54 − 108, −(540 − 54 − 108)) = (798, −378).
    let args = json!({ "stickerId": "flags:FR", "start": 4, "end": 6, "position": "top-right" });
    let (out, before, after) = run("v31", |ed| drop(ed.add_sticker("flags:FR", "France", None).unwrap()), "add_sticker", args);
    let id = out["elementId"].as_str().unwrap();
    assert_eq!(
        element(&after, id),
        &json!({
            "id": id, "name": "France", "type": "sticker", "stickerId": "flags:FR",
            "startTime": 480_000, "duration": 240_000, "trimStart": 0, "trimEnd": 0,
            "params": with(visual(), json!({ "transform.positionX": 798, "transform.positionY": -378, "transform.scaleX": 0.2, "transform.scaleY": 0.2 }))
        })
    );
    others_untouched(&before, &after, &[]);
}

#[test]
fn on_every_fixture_stickers_and_effects_are_opencuts_elements() {
    // Scale 0.2 makes the sticker a fifth of the shorter side; top-left keeps it 5 % of that side in
    // from both edges, so its centre is 15 % in.
    for (name, x, y) in [("v31", -798, -378), ("ntsc-2997", -558, -378), ("ntsc-23976", -378, -798), ("migrated-v28", -532, -252)] {
        let args = json!({ "stickerId": "flags:FR", "start": 20, "end": 22, "position": "top-left" });
        let (out, before, after) = run(name, |_| {}, "add_sticker", args);
        let id = out["elementId"].as_str().unwrap();
        assert_eq!(
            element(&after, id),
            &json!({
                "id": id, "name": "France", "type": "sticker", "stickerId": "flags:FR",
                "startTime": 2_400_000, "duration": 240_000, "trimStart": 0, "trimEnd": 0,
                "params": with(visual(), json!({ "transform.positionX": x, "transform.positionY": y, "transform.scaleX": 0.2, "transform.scaleY": 0.2 }))
            }),
            "{name}"
        );
        others_untouched(&before, &after, &[]);

        let args = json!({ "effectType": "blur", "start": 20, "end": 22, "params": { "intensity": 40 } });
        let (out, before, after) = run(name, |_| {}, "apply_effect", args);
        let id = out["elementId"].as_str().unwrap();
        assert_eq!(
            element(&after, id),
            &json!({
                "id": id, "name": "Blur", "type": "effect", "effectType": "blur", "params": { "intensity": 40 },
                "startTime": 2_400_000, "duration": 240_000, "trimStart": 0, "trimEnd": 0
            }),
            "{name}"
        );
        others_untouched(&before, &after, &[]);

        // Deleting any one element leaves every other one as it was.
        for (track, victim) in placement(&before) {
            let (_, before, after) = run(name, |_| {}, "delete_element", json!({ "trackId": track, "elementId": victim }));
            assert!(placement(&after).iter().all(|(_, e)| e != &victim), "{name} {victim}");
            others_untouched(&before, &after, &[&victim]);
        }
    }
}

#[test]
fn apply_effect_makes_opencuts_effect_element() {
    // buildEffectElement: name from the type, the effect's params, no visual params.
    let args = json!({ "effectType": "blur", "start": 1, "end": 3, "params": { "intensity": 40 } });
    let (out, before, after) = run("v31", |_| {}, "apply_effect", args);
    let id = out["elementId"].as_str().unwrap();
    assert_eq!(
        element(&after, id),
        &json!({
            "id": id, "name": "Blur", "type": "effect", "effectType": "blur", "params": { "intensity": 40 },
            "startTime": 120_000, "duration": 240_000, "trimStart": 0, "trimEnd": 0
        })
    );
    // e-blur is in the way, so a new effect track: OpenCut's buildEmptyTrack, on top.
    let top = &after["overlay"][0];
    assert_eq!(top["id"], out["trackId"]);
    assert_eq!(top, &json!({ "id": out["trackId"], "name": "Effect track", "type": "effect", "hidden": false, "elements": [element(&after, id)] }));
    others_untouched(&before, &after, &[]);

    let (_, before, after) = run("v31", |_| {}, "update_effect", json!({ "elementId": "e-blur", "params": { "intensity": 40 } }));
    let mut blur = element(&before, "e-blur").clone();
    blur["params"] = json!({ "intensity": 40 });
    assert_eq!(element(&after, "e-blur"), &blur);
    others_untouched(&before, &after, &["e-blur"]);
}

#[test]
fn text_edits_land_in_params() {
    // update_text: params.content (and the element's name, which NeuralCut keeps as the text's
    // first words), params.transform.positionY for the position (top: −378); nothing else.
    let args = json!({ "trackId": "text-track", "elementId": "t-title", "text": "Hi", "position": "top" });
    let (_, before, after) = run("v31", |_| {}, "update_text", args);
    let mut title = element(&before, "t-title").clone();
    title["name"] = json!("Hi");
    title["params"]["content"] = json!("Hi");
    title["params"]["transform.positionY"] = json!(-378);
    assert_eq!(element(&after, "t-title"), &title);
    others_untouched(&before, &after, &["t-title"]);

    // A hidden caption on a hidden track stays hidden; only the text changes: OpenCut named it
    // Caption 2, and the name is what keeps it a caption (export_subtitles).
    let args = json!({ "trackId": "caption-track", "elementId": "cap-2", "text": "to the news" });
    let (_, before, after) = run("v31", |_| {}, "update_text", args);
    let mut caption = element(&before, "cap-2").clone();
    assert_eq!(caption["name"], "Caption 2");
    caption["params"]["content"] = json!("to the news");
    assert_eq!(element(&after, "cap-2"), &caption);
    assert_eq!(after["overlay"][2]["hidden"], true);

    let args = json!({ "trackId": "subs", "elementId": "sub-1", "start": 1.001 });
    let (_, before, after) = run("ntsc-2997", |_| {}, "update_text", args);
    let mut sub = element(&before, "sub-1").clone();
    // 1.001 s at 29.97 fps is frame 30 = 120 120 ticks; the end stays at 124 124.
    sub["startTime"] = json!(120_120);
    sub["duration"] = json!(4004);
    assert_eq!(element(&after, "sub-1"), &sub);
}

#[test]
fn set_volume_writes_decibels_in_params() {
    // 0.5 is 20·log10(0.5) = −6.02 dB. 0 is −60 dB and muted: OpenCut's dBToLinear plays −60 dB
    // at gain 0.001, and resolveEffectiveAudioGain is 0 only for a muted element or track
    // (timeline/audio-state.ts).
    for (name, track, id, volume, db) in [
        ("v31", "music-track", "a-music", 0.5, json!(-6.02)),
        ("v31", "pip-track", "v-pip", 0.0, json!(-60)),
        ("v31", "main-track", "v-intro", 1.0, json!(0)),
        ("ntsc-2997", "vo-track", "vo-1", 0.25, json!(-12.04)),
        ("ntsc-2997", "vo-track", "vo-1", 0.0, json!(-60)),
        ("migrated-v28", "o-audio", "a-old", 1.0, json!(0)),
    ] {
        let (_, before, after) = run(name, |_| {}, "set_volume", json!({ "trackId": track, "elementId": id, "volume": volume }));
        let mut e = element(&before, id).clone();
        e["params"]["volume"] = db;
        if volume == 0.0 {
            e["params"]["muted"] = json!(true);
        }
        assert_eq!(element(&after, id), &e, "{name} {id}");
        others_untouched(&before, &after, &[id]);
    }
}

#[test]
fn split_cuts_tick_exact_and_pieces_keep_their_parents_fields() {
    let (out, before, after) = run("v31", |_| {}, "split", json!({ "times": [2] }));
    let mut affected: Vec<&str> = out["affectedElements"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    affected.sort_unstable();
    assert_eq!(affected, ["a-extract", "a-music", "e-blur", "i-card", "s-flag", "t-title", "v-intro"]);
    let piece = |from: &str| {
        let id = out["newElements"].as_array().unwrap().iter().find(|p| p["splitFrom"] == from).unwrap()["elementId"].as_str().unwrap();
        element(&after, id).clone()
    };
    // 2 s = 240 000 ticks. The left piece keeps its id; the right one is a copy with a new id.
    // Animations are split as OpenCut splits them (checked below for v-intro, in full in
    // tests/opencut_edits.rs and tests/keyframe_cuts.rs); every other field is the parent's.
    let fields = |e: &Value| {
        let mut e = e.clone();
        e.as_object_mut().unwrap().remove("animations");
        e
    };
    for id in ["v-intro", "a-extract"] {
        let mut left = fields(element(&before, id));
        left["duration"] = json!(240_000);
        left["trimEnd"] = json!(780_000 + 360_000);
        assert_eq!(fields(element(&after, id)), left, "{id}");
        let mut right = fields(element(&before, id));
        right["id"] = piece(id)["id"].clone();
        right["startTime"] = json!(240_000);
        right["duration"] = json!(360_000);
        right["trimStart"] = json!(120_000 + 240_000);
        assert_eq!(fields(&piece(id)), right, "{id}");
    }
    // OpenCut's split-elements.ts adds the cut span to the trims of every element, whatever
    // its type: the left piece's trimEnd grows by the right piece's span and the right piece's
    // trimStart by the left's.
    for id in ["t-title", "s-flag", "i-card", "e-blur"] {
        let ticks = |e: &Value, key: &str| e[key].as_i64().unwrap();
        let parent = element(&before, id);
        let (head, tail) = (240_000 - ticks(parent, "startTime"), ticks(parent, "startTime") + ticks(parent, "duration") - 240_000);
        let mut left = fields(parent);
        left["duration"] = json!(head);
        left["trimEnd"] = json!(ticks(parent, "trimEnd") + tail);
        assert_eq!(fields(element(&after, id)), left, "{id}");
        let mut right = fields(parent);
        right["id"] = piece(id)["id"].clone();
        right["startTime"] = json!(240_000);
        right["duration"] = json!(tail);
        right["trimStart"] = json!(ticks(parent, "trimStart") + head);
        assert_eq!(fields(&piece(id)), right, "{id}");
    }
    // v-intro zooms 1 → 1.2 and fades 0 → -12 dB over 5 s (600 000 ticks): at the cut, 2/5 of the
    // way, 1.08 and -4.8 dB (0 + -12 · 0.4 in floating point, as JavaScript computes it too).
    let key = |id: &Value, time: i64, value: Value, tangent: &str| json!({ "id": id, "time": time, "value": value, "segmentToNext": "linear", "tangentMode": tangent });
    let (l, r) = (element(&after, "v-intro")["animations"].clone(), piece("v-intro")["animations"].clone());
    let ids = |a: &Value, path: &str, i: usize| a[path]["keys"][i]["id"].clone();
    assert_eq!(
        l,
        json!({
            "transform.scaleX": { "keys": [key(&json!("k-s1"), 0, json!(1), "auto"), key(&ids(&l, "transform.scaleX", 1), 240_000, json!(1.08), "flat")] },
            "volume": { "keys": [key(&json!("k-v3"), 0, json!(0), "auto"), key(&ids(&l, "volume", 1), 240_000, json!(-4.800000000000001), "flat")] },
        })
    );
    assert_eq!(
        r,
        json!({
            "transform.scaleX": { "keys": [key(&ids(&r, "transform.scaleX", 0), 0, json!(1.08), "flat"), key(&json!("k-s2"), 360_000, json!(1.2), "auto")] },
            "volume": { "keys": [key(&ids(&r, "volume", 0), 0, json!(-4.800000000000001), "flat"), key(&json!("k-v4"), 360_000, json!(-12), "auto")] },
        })
    );
    others_untouched(&before, &after, &affected);

    // 24000/1001: one frame is 5005 ticks. Frame 36 is 1.5015 s = 180 180 ticks.
    let (out, before, after) = run("ntsc-23976", |_| {}, "split", json!({ "times": [1.5015] }));
    let id = out["newElements"][0]["elementId"].as_str().unwrap();
    let mut left = element(&before, "shot-2").clone();
    left["duration"] = json!(60_060);
    left["trimEnd"] = json!(720_720 + 180_180);
    let mut right = element(&before, "shot-2").clone();
    right["id"] = json!(id);
    right["startTime"] = json!(180_180);
    right["duration"] = json!(180_180);
    right["trimStart"] = json!(240_240 + 60_060);
    assert_eq!((element(&after, "shot-2"), element(&after, id)), (&left, &right));
}

#[test]
fn a_retimed_clip_keeps_its_footage_where_it_was() {
    // v-fast plays broll at 2×: source time = trimStart + (t − startTime) · 2. Cut at 6.5 s
    // (780 000 ticks): the left piece plays 180 000 ticks = 360 000 of source, so 600 000 are left
    // after it; the right piece starts in the source at 360 000 and keeps the 480 000 trimmed tail.
    let mut ed = loaded("v31");
    let tl = ed.project().unwrap().timeline.clone().unwrap();
    let (_, fast) = tl.element("v-fast").unwrap();
    assert_eq!(fast.retime.as_ref().map(|r| (r.rate, r.maintain_pitch)), Some((2.0, Some(true))));
    let before = tracks(&ed);
    let out = call(&mut ed, "split", json!({ "times": [6.5] }));
    let after = tracks(&ed);
    let piece = out["newElements"].as_array().unwrap().iter().find(|p| p["splitFrom"] == "v-fast").unwrap();
    let id = piece["elementId"].as_str().unwrap();
    let mut left = element(&before, "v-fast").clone();
    left["duration"] = json!(180_000);
    left["trimEnd"] = json!(600_000);
    let mut right = element(&before, "v-fast").clone();
    right["id"] = json!(id);
    right["startTime"] = json!(780_000);
    right["duration"] = json!(60_000);
    right["trimStart"] = json!(360_000);
    assert_eq!((element(&after, "v-fast"), element(&after, id)), (&left, &right));
}

#[test]
fn moves_and_timing_changes_keep_everything_else() {
    let (_, before, after) = run("v31", |_| {}, "move_timeline_elements", json!({ "elementIds": ["i-card"], "start": 15 }));
    let mut card = element(&before, "i-card").clone();
    card["startTime"] = json!(1_800_000);
    assert_eq!(element(&after, "i-card"), &card);
    others_untouched(&before, &after, &["i-card"]);

    // 29.97 fps: frame 30 is 1.001 s = 120 120 ticks.
    let (_, before, after) = run("ntsc-2997", |_| {}, "move_timeline_elements", json!({ "elementIds": ["vo-1"], "start": 1.001 }));
    let mut vo = element(&before, "vo-1").clone();
    vo["startTime"] = json!(120_120);
    assert_eq!(element(&after, "vo-1"), &vo);

    // 12.5 s source: trimEnd = 1 500 000 − 120 000 − 480 000.
    let args = json!({ "elementId": "v-intro", "duration": 4 });
    let (_, before, after) = run("v31", |_| {}, "update_timeline_element_timing", args);
    let mut intro = element(&before, "v-intro").clone();
    intro["duration"] = json!(480_000);
    intro["trimEnd"] = json!(900_000);
    // Its keys at 5 s are past the new end: OpenCut's clampAnimationsToDuration ends each channel
    // with a boundary key at 4 s holding the value there (1 + 0.2 · 0.8, -12 · 0.8).
    let got = element(&after, "v-intro");
    let id = |path: &str| got["animations"][path]["keys"][1]["id"].clone();
    let end = |id: Value, value: Value| json!({ "id": id, "time": 480_000, "value": value, "segmentToNext": "linear", "tangentMode": "flat" });
    intro["animations"]["transform.scaleX"]["keys"][1] = end(id("transform.scaleX"), json!(1.16));
    intro["animations"]["volume"]["keys"][1] = end(id("volume"), json!(-9.600000000000001));
    assert_eq!(got, &intro);
    others_untouched(&before, &after, &["v-intro"]);
}

#[test]
fn a_sticker_is_not_moved_onto_a_video_overlay_track() {
    // OpenCut's MoveElementCommand refuses it (validateElementTrackCompatibility: a sticker goes
    // on graphic tracks only); the engine refuses it too, so no track of both kinds is ever made.
    let mut ed = loaded("v31");
    let before = tracks(&ed);
    let args = json!({ "elementIds": ["s-flag"], "start": 20, "targetTrackId": "pip-track" });
    let err = ed.call_tool("move_timeline_elements", &args).unwrap_err().to_json();
    assert_eq!(err["error"], "Target track pip-track is a video overlay track and cannot hold sticker elements");
    assert_eq!(err["code"], "INCOMPATIBLE_TRACK");
    let args = json!({ "elementIds": ["v-pip"], "start": 20, "targetTrackId": "gfx-track" });
    let err = ed.call_tool("move_timeline_elements", &args).unwrap_err().to_json();
    assert_eq!(err["error"], "Target track gfx-track is a graphic overlay track and cannot hold video elements");
    assert_eq!(tracks(&ed), before);
}

#[test]
fn delete_and_undo_through_a_batch() {
    let mut ed = loaded("v31");
    let steps = json!({ "steps": [
        { "tool": "delete_timeline_elements", "args": { "elementIds": ["g-rect", "a-whoosh"] } },
        { "tool": "split", "args": { "times": [1] } }
    ] });
    call(&mut ed, "batch", steps);
    let t = tracks(&ed);
    assert!(placement(&t).iter().all(|(_, id)| id != "g-rect" && id != "a-whoosh"));
    assert_eq!(ed.history().undo_len(), 1);
    ed.undo().unwrap();
    assert_eq!(tracks(&ed), fixture("v31")["tracks"]);
}

// ---------------------------------------------------------------------------------------------
// History and caches

#[test]
fn loading_is_not_an_undo_step_and_each_tool_call_after_it_is() {
    let mut ed = Editor::new();
    call(&mut ed, "add_text", json!({ "text": "before", "start": 0, "end": 1, "position": "top" }));
    assert!(ed.can_undo());
    opencut::load_scene(&mut ed, &fixture("v31")).unwrap();
    assert!(!ed.can_undo() && !ed.can_redo(), "history starts afresh");
    let rev = ed.revision();
    call(&mut ed, "split", json!({ "times": [2] }));
    call(&mut ed, "set_volume", json!({ "trackId": "music-track", "elementId": "a-music", "volume": 0.25 }));
    assert_eq!(ed.history().undo_len(), 2);
    assert!(ed.revision() > rev);
    ed.undo().unwrap();
    ed.undo().unwrap();
    assert_eq!(tracks(&ed), fixture("v31")["tracks"], "undo returns to the loaded scene exactly");
}

#[test]
fn the_context_cache_survives_a_reload_for_the_same_media() {
    let mut ed = loaded("ntsc-2997");
    let asset = ed.project().unwrap().asset("cam-a").unwrap().clone();
    let request = ContextRequest { asset, previous: None };
    let report = ProviderReport { file_uri: "files/abc".into(), status: ContextStatus::Active, expires_at: Some(9.0e12), summary: None };
    ed.finish_context(&request, Ok(report), 1000.0).unwrap();
    let before = ed.context_cache().clone();
    opencut::load_scene(&mut ed, &fixture("ntsc-2997")).unwrap();
    assert_eq!(ed.context_cache(), &before, "same media, same provider file");
    opencut::load_scene(&mut ed, &fixture("ntsc-23976")).unwrap();
    assert!(ed.context_cache().is_empty(), "cam-a is no longer in the scene");
}

#[test]
fn an_editor_without_a_scene() {
    assert_eq!(opencut::scene(&Editor::empty()).unwrap_err().code, "NO_ACTIVE_PROJECT");
    let fresh = opencut::scene(&Editor::new()).unwrap();
    // OpenCut's buildEmptyTrack for the main track: both flags, no elements.
    assert_eq!(fresh["tracks"]["main"], json!({ "id": "t1", "name": "Main Track", "type": "video", "elements": [], "hidden": false, "muted": false }));
    let mut ed = Editor::empty();
    opencut::load_scene(&mut ed, &fixture("ntsc-2997")).unwrap();
    assert_eq!(tracks(&ed), fixture("ntsc-2997")["tracks"]);
}

// ---------------------------------------------------------------------------------------------
// Refused scenes

/// The editor's state, to check that a refused scene changed nothing.
fn state(ed: &Editor) -> (Option<String>, usize, usize, u64) {
    (ed.project_json(), ed.history().undo_len(), ed.history().redo_len(), ed.revision())
}

/// An editor with a loaded scene and one undo step.
fn busy_editor() -> Editor {
    let mut ed = loaded("ntsc-2997");
    call(&mut ed, "split", json!({ "times": [5] }));
    ed
}

fn refused(mutate: impl Fn(&mut Value), message: &str) {
    let mut ed = busy_editor();
    let before = state(&ed);
    let mut bad = fixture("v31");
    mutate(&mut bad);
    let err: ProjectError = opencut::load_scene(&mut ed, &bad).unwrap_err();
    assert_eq!(err.code, "INVALID_SCENE");
    assert_eq!(err.message, message);
    assert_eq!(state(&ed), before, "the editor is as it was");
    ed.undo().unwrap();
    assert_eq!(tracks(&ed), fixture("ntsc-2997")["tracks"]);
}

fn main_el(v: &mut Value, i: usize) -> &mut Value {
    &mut v["tracks"]["main"]["elements"][i]
}

#[test]
fn scenes_that_break_invariants_are_refused_by_path() {
    refused(
        |s| main_el(s, 1)["startTime"] = json!(500_000),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"v-fast\"): overlaps element \"v-intro\" on the same track (v-intro runs 0–600000 ticks, v-fast starts at 500000)",
    );
    refused(
        |s| main_el(s, 0)["startTime"] = json!(-1),
        "Invalid OpenCut scene at tracks.main.elements[0] (\"v-intro\"): startTime must be a whole number of ticks >= 0, not -1",
    );
    refused(
        |s| s["tracks"]["overlay"][0]["elements"][0]["duration"] = json!(0),
        "Invalid OpenCut scene at tracks.overlay[0].elements[0] (\"e-blur\"): duration must be a whole number of ticks > 0, not 0",
    );
    refused(
        |s| main_el(s, 1)["startTime"] = json!(600_000.5),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"v-fast\"): startTime must be a whole number of ticks >= 0, not 600000.5",
    );
    refused(
        |s| main_el(s, 0)["trimStart"] = json!(1_000_000),
        "Invalid OpenCut scene at tracks.main.elements[0] (\"v-intro\"): plays past the end of asset \"m-video\" (trimStart + duration = 1600000 ticks, the asset has 1500000)",
    );
    refused(
        |s| s["tracks"]["overlay"][4]["elements"][1]["mediaId"] = json!("m-missing"),
        "Invalid OpenCut scene at tracks.overlay[4].elements[1] (\"v-pip\"): unknown asset \"m-missing\" (mediaId); pass every media asset the scene uses in assets",
    );
    refused(
        |s| s["tracks"]["overlay"][4]["elements"][0]["mediaId"] = json!("m-music"),
        "Invalid OpenCut scene at tracks.overlay[4].elements[0] (\"i-card\"): asset \"m-music\" is audio, element is image",
    );
    refused(|s| s["assets"][1]["type"] = json!("font"), "Invalid OpenCut scene at assets[1] (\"m-broll\"): type must be \"video\", \"audio\" or \"image\"");
    refused(|s| s["assets"][2]["id"] = json!("m-video"), "Invalid OpenCut scene at assets[2]: duplicate id \"m-video\"");
    refused(
        |s| main_el(s, 1)["type"] = json!("text"),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"v-fast\"): a video track cannot hold a text element",
    );
    refused(
        |s| s["tracks"]["overlay"][3]["elements"][0]["type"] = json!("hologram"),
        "Invalid OpenCut scene at tracks.overlay[3].elements[0] (\"s-flag\"): unknown element type \"hologram\"",
    );
    refused(
        |s| s["tracks"]["overlay"][1]["type"] = json!("audio"),
        "Invalid OpenCut scene at tracks.overlay[1] (\"text-track\"): overlay tracks are video, text, graphic or effect tracks, not \"audio\"",
    );
    refused(
        |s| drop(s["tracks"].as_object_mut().unwrap().remove("main")),
        "Invalid OpenCut scene at tracks.main: is missing: every scene has one main video track",
    );
    refused(|s| s["tracks"]["audio"][1]["id"] = json!("extract-track"), "Invalid OpenCut scene at tracks.audio[1] (\"extract-track\"): duplicate id");
    refused(
        |s| drop(s["tracks"]["audio"][1]["elements"][1].as_object_mut().unwrap().remove("sourceUrl")),
        "Invalid OpenCut scene at tracks.audio[1].elements[1] (\"a-whoosh\"): a library audio element needs a string sourceUrl",
    );
    refused(
        |s| s["tracks"]["overlay"][2]["hidden"] = json!("yes"),
        "Invalid OpenCut scene at tracks.overlay[2] (\"caption-track\"): hidden must be true or false, not \"yes\"",
    );
    refused(
        |s| s["tracks"]["overlay"][4]["elements"][1]["hidden"] = json!(1),
        "Invalid OpenCut scene at tracks.overlay[4].elements[1] (\"v-pip\"): hidden must be true or false, not 1",
    );
    refused(
        |s| s["tracks"]["overlay"][1]["elements"][0]["params"] = json!([]),
        "Invalid OpenCut scene at tracks.overlay[1].elements[0] (\"t-title\"): params must be an object of param values, not []",
    );
    // Huge numbers NeuralCut cannot hold, named down to the param.
    refused(
        |s| s["tracks"]["audio"][1]["elements"][0]["params"]["volume"] = json!(1e300),
        "Invalid OpenCut scene at tracks.audio[1].elements[0].params.volume (\"a-music\"): must be at most 20 dB, not 1e+300",
    );
    refused(
        |s| s["tracks"]["overlay"][1]["elements"][0]["params"]["fontSize"] = json!(1e308),
        "Invalid OpenCut scene at tracks.overlay[1].elements[0].params.fontSize (\"t-title\"): must be a size > 0, not 1e+308",
    );
    refused(
        |s| main_el(s, 1)["retime"] = json!({ "rate": 0 }),
        "Invalid OpenCut scene at tracks.main.elements[1].retime (\"v-fast\"): must be { rate, maintainPitch? } with a rate from 0.01 to 5, not {\"rate\":0}",
    );
    // At rate 2, v-fast's 240 000 ticks play 480 000 of broll's 960 000; from trimStart 600 000
    // they would run past the end.
    refused(
        |s| main_el(s, 1)["trimStart"] = json!(600_000),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"v-fast\"): plays past the end of asset \"m-broll\" (trimStart + duration = 1080000 ticks, the asset has 960000)",
    );
    refused(|s| s["tracks"] = json!([]), "Invalid OpenCut scene at tracks: must be an object { overlay: [...], main: {...}, audio: [...] }");
    refused(|s| *s = json!("scene"), "Invalid OpenCut scene at scene: must be an object { tracks, assets, settings? }");
    refused(
        |s| s["settings"]["fps"] = json!({ "numerator": 30, "denominator": 0 }),
        "Invalid OpenCut scene at settings.fps: must be { numerator, denominator } with both positive integers",
    );
}

#[test]
fn what_opencut_tolerates_loads() {
    // OpenCut reads a missing or mistyped param as its default: so does NeuralCut, and the value
    // goes back as it was.
    let mut scene = fixture("v31");
    let title = &mut scene["tracks"]["overlay"][1]["elements"][0];
    title["params"]["content"] = json!(42);
    title["params"].as_object_mut().unwrap().remove("fontSize");
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    assert_eq!(tracks(&ed), scene["tracks"]);
    let tl = call(&mut ed, "list_timeline", json!({}));
    assert_eq!(tl["tracks"][1]["elements"][0]["text"], "Default text");
    assert_eq!(tl["tracks"][1]["elements"][0]["textStyle"]["fontSize"], 180);
    // A retimed clip longer than its source at rate 1 is not "past the end".
    assert!(element(&tracks(&ed), "v-fast")["retime"]["rate"] == 2);
}

/// Every path in a JSON value, in the notation of the refusals (`tracks.main.elements[0].params.volume`).
fn paths(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let p = if at.is_empty() { k.clone() } else { format!("{at}.{k}") };
                out.push(p.clone());
                paths(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}[{i}]");
                out.push(p.clone());
                paths(x, p, out);
            }
        }
        _ => {}
    }
}

/// The value at `path` (as written by `paths`), for changing it.
fn at_path<'a>(v: &'a mut Value, path: &str) -> Option<(&'a mut Value, String)> {
    // Split off the last step: `.key` or `[i]`.
    let (parent, last) = match (path.rfind('.'), path.rfind('[')) {
        (Some(d), Some(b)) if b > d => (&path[..b], path[b..].to_string()),
        (Some(d), _) => (&path[..d], path[d + 1..].to_string()),
        (None, Some(b)) => (&path[..b], path[b..].to_string()),
        (None, None) => ("", path.to_string()),
    };
    let mut cur = v;
    if !parent.is_empty() {
        for step in steps(parent) {
            cur = match step {
                Ok(k) => cur.get_mut(k.as_str())?,
                Err(i) => cur.get_mut(i)?,
            };
        }
    }
    Some((cur, last))
}

fn steps(path: &str) -> Vec<Result<String, usize>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let mut rest = part;
        if let Some(b) = rest.find('[') {
            if b > 0 {
                out.push(Ok(rest[..b].to_string()));
            }
            rest = &rest[b..];
            while let Some(end) = rest.find(']') {
                out.push(Err(rest[1..end].parse().unwrap()));
                rest = &rest[end + 1..];
            }
        } else {
            out.push(Ok(rest.to_string()));
        }
    }
    out
}

/// Mutations: delete the field, or put a value of another type or size in its place.
fn mutate(scene: &mut Value, path: &str, how: usize) {
    let Some((parent, last)) = at_path(scene, path) else { return };
    let replacement = [json!(null), json!("x"), json!(-1), json!(1.5), json!(1e308), json!(-1e308), json!(i64::MAX), json!([]), json!({}), json!(true)];
    if let Some(key) = last.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
        let i: usize = key.parse().unwrap();
        match how {
            0 => drop(parent.as_array_mut().map(|a| a.remove(i))),
            n => parent[i] = replacement[n % replacement.len()].clone(),
        }
    } else if let Some(o) = parent.as_object_mut() {
        match how {
            0 => drop(o.remove(&last)),
            n => drop(o.insert(last, replacement[n % replacement.len()].clone())),
        }
    }
}

/// The path a refusal names, without the ` ("id")` labels.
fn named_path(message: &str) -> String {
    let rest = message.strip_prefix("Invalid OpenCut scene at ").unwrap_or_else(|| panic!("not a scene refusal: {message}"));
    let mut path = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' if chars.peek() == Some(&'(') => {
                // Skip ` ("…")`.
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                }
            }
            ':' => break,
            c => path.push(c),
        }
    }
    path
}

/// Refusals about one element that another element's change can cause.
const CROSS_REFERENCES: [&str; 6] = ["overlaps element", "unknown asset", "duplicate id", "plays past the end", "is audio, element is", "cannot hold"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random deletions, wrong types and huge numbers anywhere in a real scene: no panic; either it
    /// loads (and then writes back a scene that loads to itself) or it is refused naming the path
    /// of the change (or the element the change collides with), and the editor is unchanged.
    #[test]
    fn mutated_scenes_load_or_are_refused_by_path(pick in any::<prop::sample::Index>(), how in 0usize..10, which in 0usize..2) {
        let name = ["v31", "migrated-v28"][which];
        let mut scene = fixture(name);
        let mut all = Vec::new();
        paths(&scene, String::new(), &mut all);
        let path = pick.get(&all).clone();
        mutate(&mut scene, &path, how);
        let mut ed = busy_editor();
        let before = state(&ed);
        match opencut::load_scene(&mut ed, &scene) {
            Ok(()) => {
                let out = tracks(&ed);
                let mut again = Editor::new();
                let mut reread = scene.clone();
                reread["tracks"] = out.clone();
                opencut::load_scene(&mut again, &reread).unwrap();
                prop_assert_eq!(tracks(&again), out);
                call(&mut ed, "list_timeline", json!({}));
            }
            Err(e) => {
                prop_assert_eq!(e.code, "INVALID_SCENE");
                let named = named_path(&e.message);
                let cross = CROSS_REFERENCES.iter().any(|c| e.message.contains(c));
                let on_path = path.starts_with(&named) || named.starts_with(&path);
                prop_assert!(on_path || cross, "{} changed, refusal names {}: {}", path, named, e.message);
                prop_assert_eq!(state(&ed), before);
            }
        }
    }
}

#[test]
fn nothing_panics_on_odd_values() {
    let odd = [
        json!(null),
        json!({}),
        json!({ "tracks": null }),
        json!({ "tracks": { "main": { "id": "m", "type": "video", "elements": [null, 1, "x", []] } } }),
        json!({ "tracks": { "main": { "id": "m", "type": "video", "elements": {} } } }),
        json!({ "tracks": { "main": { "id": 5, "type": "video" } } }),
        json!({ "tracks": { "main": { "id": "m", "type": "video", "elements": [{ "id": "e", "type": "video", "startTime": 1e300, "duration": 1, "mediaId": "a" }] } }, "assets": [{ "id": "a", "type": "video" }] }),
        json!({ "tracks": { "main": { "id": "m", "type": "video" } }, "assets": [{ "id": "a", "type": "video", "duration": -1 }] }),
        json!({ "tracks": { "main": { "id": "m", "type": "video" } }, "settings": { "canvasSize": { "width": 0, "height": 10 } } }),
    ];
    for scene in odd {
        let mut ed = Editor::new();
        let before = ed.project_json();
        assert!(opencut::load_scene(&mut ed, &scene).is_err(), "{scene}");
        assert_eq!(ed.project_json(), before);
    }
    // The smallest valid scene.
    let mut ed = Editor::new();
    let smallest = json!({ "tracks": { "overlay": [], "main": { "id": "m", "name": "Main", "type": "video", "elements": [], "muted": false, "hidden": false }, "audio": [] }, "assets": [] });
    opencut::load_scene(&mut ed, &smallest).unwrap();
    assert_eq!(tracks(&ed), smallest["tracks"]);
    let p: &Project = ed.project().unwrap();
    assert_eq!(p.timeline.as_ref().unwrap().tracks.len(), 1);
}
