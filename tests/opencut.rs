//! OpenCut scenes in and out: lossless round trips, tools on a loaded scene compared tick for tick
//! with the expected OpenCut JSON, and refused scenes that leave the editor as it was.
//!
//! Fixtures (tests/fixtures/opencut/*.json) are OpenCut's `{ settings, assets, tracks }`, written
//! by hand from shared/opencut-format.md. Expected results live in tests/fixtures/opencut/expected/;
//! `NEURALCUT_BLESS=1 cargo test --test opencut` rewrites them and fails (review the diff, then run
//! again without the switch).

use std::path::PathBuf;

use neuralcut::model::{Project, ProjectError};
use neuralcut::time::FrameRate;
use neuralcut::tools::context::{ContextRequest, ContextStatus, ProviderReport};
use neuralcut::Editor;
use serde_json::{json, Value};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/opencut")
}

fn fixture(name: &str) -> Value {
    let path = dir().join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

fn loaded(name: &str) -> Editor {
    let mut ed = Editor::new();
    ed.load_opencut_scene(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    ed
}

fn tracks(ed: &Editor) -> Value {
    let scene = ed.to_opencut_scene().unwrap();
    assert_eq!(scene.as_object().unwrap().len(), 1, "toOpenCutScene gives {{ tracks }} only");
    scene["tracks"].clone()
}

fn call(ed: &mut Editor, tool: &str, args: Value) -> Value {
    ed.call_tool(tool, &args).unwrap_or_else(|e| panic!("{tool} {args}: {}", e.to_json()))
}

/// Compares with expected/<name>.json. Under NEURALCUT_BLESS=1 it writes the file and then fails,
/// so a blessed run never counts as a pass.
fn expect(name: &str, actual: &Value) {
    let path = dir().join("expected").join(format!("{name}.json"));
    if std::env::var_os("NEURALCUT_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(actual).unwrap() + "\n").unwrap();
        panic!("NEURALCUT_BLESS: wrote {}; this run fails on purpose: check it by hand, then run the tests without NEURALCUT_BLESS", path.display());
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expected: Value = serde_json::from_str(&text).unwrap();
    if &expected != actual {
        panic!(
            "{name}: OpenCut JSON differs from {}\nactual:\n{}",
            path.display(),
            serde_json::to_string_pretty(actual).unwrap()
        );
    }
}

/// The element `id` in an OpenCut `tracks` value.
fn element<'a>(tracks: &'a Value, id: &str) -> &'a Value {
    all_tracks(tracks)
        .flat_map(|t| t["elements"].as_array().unwrap().iter())
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("no element {id}"))
}

fn all_tracks(tracks: &Value) -> impl Iterator<Item = &Value> {
    let overlay = tracks["overlay"].as_array().unwrap().iter();
    let audio = tracks["audio"].as_array().unwrap().iter();
    overlay.chain(std::iter::once(&tracks["main"])).chain(audio)
}

const FIXTURES: [&str; 3] = ["full", "ntsc-23976", "ntsc-2997"];

// ---------------------------------------------------------------------------------------------
// Round trips

#[test]
fn load_then_save_gives_the_identical_json() {
    for name in FIXTURES {
        let scene = fixture(name);
        let ed = loaded(name);
        assert_eq!(tracks(&ed), scene["tracks"], "{name}: round trip");
        // Loading is not an undo step.
        assert!(!ed.can_undo() && !ed.can_redo(), "{name}");
    }
}

#[test]
fn a_loaded_scene_survives_the_neuralcut_project_json() {
    // Saving the editor's own project and loading it again loses nothing OpenCut needs: the
    // adapter's bookkeeping never collides with NeuralCut's field names.
    for name in FIXTURES {
        let ed = loaded(name);
        let json = ed.project_json().unwrap();
        let again = Editor::from_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(tracks(&again), fixture(name)["tracks"], "{name}");
    }
}

#[test]
fn settings_and_assets_are_read() {
    let ed = loaded("ntsc-23976");
    let p = ed.project().unwrap();
    assert_eq!(p.settings.fps, FrameRate { numerator: 24000, denominator: 1001 });
    assert_eq!((p.settings.canvas.width, p.settings.canvas.height), (1080, 1920));
    assert_eq!(p.settings.extra["background"], json!({ "type": "blur", "blurIntensity": 8 }));
    let film = p.asset("film").unwrap();
    assert_eq!(film.duration, Some(10.01));
    assert_eq!(film.duration_ticks(), Some(1_201_200));
    // A media probe's 23.976 is NTSC's 24000/1001.
    assert_eq!(film.fps, Some(FrameRate { numerator: 24000, denominator: 1001 }));

    // Without settings the editor's fps and canvas stay.
    let mut ed = loaded("ntsc-2997");
    let mut scene = fixture("full");
    scene.as_object_mut().unwrap().remove("settings");
    ed.load_opencut_scene(&scene).unwrap();
    assert_eq!(ed.project().unwrap().settings.fps, FrameRate { numerator: 30000, denominator: 1001 });
    assert_eq!(ed.project().unwrap().settings.canvas.width, 1440);

    // A plain-number fps (older OpenCut) reads as the rational rate.
    let mut scene = fixture("ntsc-2997");
    scene["settings"]["fps"] = json!(29.97);
    ed.load_opencut_scene(&scene).unwrap();
    assert_eq!(ed.project().unwrap().settings.fps, FrameRate { numerator: 30000, denominator: 1001 });
}

#[test]
fn the_tools_see_the_scene_in_neuralcut_terms() {
    let mut ed = loaded("full");
    let tl = call(&mut ed, "list_timeline", json!({}));
    let kinds: Vec<(&str, &str)> =
        tl["tracks"].as_array().unwrap().iter().map(|t| (t["trackId"].as_str().unwrap(), t["type"].as_str().unwrap())).collect();
    assert_eq!(
        kinds,
        [
            ("text-track", "text"),
            ("fx-track", "effect"),
            ("gfx-track", "overlay"),
            ("pip-track", "overlay"),
            ("main-track", "main"),
            ("music-track", "audio"),
            ("sfx-track", "audio"),
        ]
    );
    let gfx = &tl["tracks"][2]["elements"];
    assert_eq!(gfx[1]["elementId"], "g-rect");
    assert_eq!(gfx[1]["type"], "sticker");
    assert_eq!(gfx[1]["stickerId"], "graphic:rectangle");
    // -6 dB is a linear gain of about 0.5.
    let music = &tl["tracks"][5]["elements"][0];
    assert!((music["volume"].as_f64().unwrap() - 0.501).abs() < 1e-3, "{music}");
    assert_eq!(music["trimStart"], json!(0.5));

    let assets = call(&mut ed, "list_project_assets", json!({}));
    let ids: Vec<&str> = assets["assets"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["m-video", "m-broll", "m-image", "m-music", "library:https://cdn.example.com/sfx/whoosh.mp3"]);
}

#[test]
fn elements_out_of_order_come_back_sorted() {
    let mut scene = fixture("ntsc-23976");
    scene["tracks"]["main"]["elements"].as_array_mut().unwrap().reverse();
    let mut ed = Editor::new();
    ed.load_opencut_scene(&scene).unwrap();
    assert_eq!(tracks(&ed), fixture("ntsc-23976")["tracks"]);
}

#[test]
fn unknown_fields_of_the_tracks_object_and_tracks_pass_through() {
    let mut scene = fixture("ntsc-23976");
    scene["tracks"]["layoutHint"] = json!({ "collapsed": ["audio"] });
    scene["tracks"]["main"]["locked"] = json!(true);
    scene["tracks"]["main"]["opencut"] = json!("a field that happens to share the adapter's key");
    scene["tracks"]["main"]["elements"][0]["opencut"] = json!({ "v": 1 });
    scene["tracks"]["main"]["elements"][0]["x"] = json!(12);
    scene["tracks"]["main"]["elements"][0]["start"] = json!("marker");
    let mut ed = Editor::new();
    ed.load_opencut_scene(&scene).unwrap();
    assert_eq!(tracks(&ed), scene["tracks"]);
    let again = Editor::from_json(&ed.project_json().unwrap()).unwrap();
    assert_eq!(tracks(&again), scene["tracks"]);
}

// ---------------------------------------------------------------------------------------------
// History

#[test]
fn loading_is_not_an_undo_step_and_each_tool_call_after_it_is() {
    let mut ed = Editor::new();
    call(&mut ed, "add_text", json!({ "text": "before", "start": 0, "end": 1, "position": "top" }));
    assert!(ed.can_undo());
    ed.load_opencut_scene(&fixture("full")).unwrap();
    assert!(!ed.can_undo() && !ed.can_redo(), "history starts afresh");
    let rev = ed.revision();

    call(&mut ed, "split", json!({ "times": [2] }));
    call(&mut ed, "set_volume", json!({ "trackId": "music-track", "elementId": "a-music", "volume": 0.25 }));
    assert_eq!(ed.history().undo_len(), 2);
    assert!(ed.revision() > rev);
    ed.undo().unwrap();
    ed.undo().unwrap();
    assert!(!ed.can_undo());
    assert_eq!(tracks(&ed), fixture("full")["tracks"], "undo returns to the loaded scene exactly");
    ed.redo().unwrap();
    assert_ne!(tracks(&ed), fixture("full")["tracks"]);
}

#[test]
fn the_context_cache_survives_a_reload_for_the_same_media() {
    let mut ed = loaded("ntsc-2997");
    let asset = ed.project().unwrap().asset("cam-a").unwrap().clone();
    let request = ContextRequest { asset, previous: None };
    let report = ProviderReport { file_uri: "files/abc".into(), status: ContextStatus::Active, expires_at: Some(9.0e12), summary: None };
    ed.finish_context(&request, Ok(report), 1000.0).unwrap();
    let before = ed.context_cache().clone();

    ed.load_opencut_scene(&fixture("ntsc-2997")).unwrap();
    assert_eq!(ed.context_cache(), &before, "same media, same provider file");

    ed.load_opencut_scene(&fixture("ntsc-23976")).unwrap();
    assert!(ed.context_cache().is_empty(), "cam-a is no longer in the scene");
}

// ---------------------------------------------------------------------------------------------
// Tools on a loaded scene, tick for tick

#[test]
fn split_cuts_tick_exact_and_pieces_keep_their_parents_fields() {
    let mut ed = loaded("full");
    let out = call(&mut ed, "split", json!({ "times": [2] }));
    let t = tracks(&ed);
    expect("full.split", &t);

    // The cut pieces: 2 s = 240 000 ticks.
    let mut affected: Vec<&str> = out["affectedElements"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    affected.sort_unstable();
    assert_eq!(affected, ["a-music", "e-blur", "t-title", "v-intro"]);
    let piece = |from: &str| {
        let id = out["newElements"].as_array().unwrap().iter().find(|p| p["splitFrom"] == from).unwrap()["elementId"].as_str().unwrap();
        element(&t, id).clone()
    };
    let (left, right) = (element(&t, "v-intro"), piece("v-intro"));
    assert_eq!((&left["startTime"], &left["duration"], &left["trimStart"], &left["trimEnd"]), (&json!(0), &json!(240000), &json!(120000), &json!(1140000)));
    assert_eq!((&right["startTime"], &right["duration"], &right["trimStart"], &right["trimEnd"]), (&json!(240000), &json!(360000), &json!(360000), &json!(780000)));
    // Everything NeuralCut does not model is on both halves.
    for key in ["effects", "masks", "animations", "transform", "aiTags", "isSourceAudioEnabled", "sourceDuration", "volume", "blendMode"] {
        assert_eq!(left[key], fixture("full")["tracks"]["main"]["elements"][0][key], "left {key}");
        assert_eq!(right[key], left[key], "right {key}");
    }
    let title = piece("t-title");
    assert_eq!(title["background"], element(&t, "t-title")["background"]);
    assert_eq!(title["fontFamily"], "Inter");
    assert_eq!(title["fontSize"], 15);

    // Elements nothing touched are exactly as they came.
    let before = fixture("full")["tracks"].clone();
    for id in ["t-caption", "e-custom", "s-flag", "g-rect", "v-pip", "i-card", "v-fast", "a-whoosh"] {
        assert_eq!(element(&t, id), element(&before, id), "{id}");
    }
}

#[test]
fn split_on_ntsc_frame_boundaries() {
    // 24000/1001: one frame is 5005 ticks. Frame 36 is 1.5015 s = 180 180 ticks.
    let mut ed = loaded("ntsc-23976");
    let out = call(&mut ed, "split", json!({ "times": [1.5015] }));
    let t = tracks(&ed);
    let id = out["newElements"][0]["elementId"].as_str().unwrap();
    let (left, right) = (element(&t, "shot-2"), element(&t, id));
    assert_eq!((&left["startTime"], &left["duration"], &left["trimStart"], &left["trimEnd"]), (&json!(120120), &json!(60060), &json!(240240), &json!(900900)));
    assert_eq!((&right["startTime"], &right["duration"], &right["trimStart"], &right["trimEnd"]), (&json!(180180), &json!(180180), &json!(300300), &json!(720720)));
    assert_eq!(right["volume"], -1.5);
    expect("ntsc-23976.split", &t);
}

#[test]
fn move_keeps_everything_but_the_start() {
    let mut ed = loaded("full");
    call(&mut ed, "move_timeline_elements", json!({ "elementIds": ["i-card"], "start": 15 }));
    // 29.97 fps: frame 30 is 1.001 s = 120 120 ticks.
    let mut ntsc = loaded("ntsc-2997");
    call(&mut ntsc, "move_timeline_elements", json!({ "elementIds": ["sub-1"], "start": 1.001 }));
    let t = tracks(&ed);
    assert_eq!(element(&t, "i-card")["startTime"], 1_800_000);
    let mut card = element(&fixture("full")["tracks"], "i-card").clone();
    card["startTime"] = json!(1_800_000);
    assert_eq!(element(&t, "i-card"), &card);
    // Sorted by start: the card now comes after v-fast.
    let ids: Vec<&str> = t["main"]["elements"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["v-intro", "v-fast", "i-card"]);
    expect("full.move", &t);
    assert_eq!(element(&tracks(&ntsc), "sub-1")["startTime"], 120120);
    expect("ntsc-2997.move", &tracks(&ntsc));
}

#[test]
fn a_sticker_moved_onto_a_video_overlay_track_gets_a_graphic_track_beside_it() {
    let mut ed = loaded("full");
    call(&mut ed, "move_timeline_elements", json!({ "elementIds": ["s-flag"], "start": 0, "targetTrackId": "pip-track" }));
    let t = tracks(&ed);
    let overlay = t["overlay"].as_array().unwrap();
    let ids: Vec<(&str, &str)> = overlay.iter().map(|t| (t["id"].as_str().unwrap(), t["type"].as_str().unwrap())).collect();
    assert_eq!(ids, [("text-track", "text"), ("fx-track", "effect"), ("gfx-track", "graphic"), ("pip-track", "video"), ("pip-track-graphic", "graphic")]);
    assert_eq!(overlay[3]["elements"].as_array().unwrap().len(), 1);
    assert_eq!(overlay[4]["elements"][0]["id"], "s-flag");
    assert_eq!(overlay[4]["name"], "Graphic track");
    assert_eq!(overlay[4]["hidden"], false);
}

#[test]
fn timing_changes_recompute_trims_from_the_asset() {
    let mut ed = loaded("full");
    call(&mut ed, "update_timeline_element_timing", json!({ "elementId": "v-intro", "duration": 4 }));
    call(&mut ed, "update_timeline_element_timing", json!({ "elementId": "a-music", "start": 1, "end": 9 }));
    call(&mut ed, "update_timeline_element_timing", json!({ "elementId": "t-caption", "end": 7 }));
    let t = tracks(&ed);
    let v = element(&t, "v-intro");
    // 12.5 s source: 1 500 000 − 120 000 − 480 000.
    assert_eq!((&v["duration"], &v["trimStart"], &v["trimEnd"]), (&json!(480000), &json!(120000), &json!(900000)));
    let a = element(&t, "a-music");
    assert_eq!((&a["startTime"], &a["duration"], &a["trimStart"], &a["trimEnd"]), (&json!(120000), &json!(960000), &json!(60000), &json!(2580000)));
    let c = element(&t, "t-caption");
    assert_eq!((&c["startTime"], &c["duration"]), (&json!(480000), &json!(360000)));
    expect("full.timing", &t);
}

#[test]
fn effect_tools_write_opencut_effect_elements() {
    let mut ed = loaded("full");
    // 1–3 s collides with e-blur on the effect track, so a new effect track goes on top.
    let out = call(&mut ed, "apply_effect", json!({ "effectType": "vignette", "start": 1, "end": 3, "params": { "radius": 60 } }));
    call(&mut ed, "update_effect", json!({ "elementId": "e-blur", "params": { "intensity": 40 } }));
    // An effect type only OpenCut knows keeps its params and cannot be updated by NeuralCut.
    let err = ed.call_tool("update_effect", &json!({ "elementId": "e-custom", "params": { "amount": 1 } })).unwrap_err();
    assert_eq!(err.code, "EFFECT_NOT_FOUND", "{}", err.to_json());
    let t = tracks(&ed);
    let top = &t["overlay"][0];
    assert_eq!(top["id"], out["trackId"]);
    assert_eq!(top["type"], "effect");
    assert_eq!(top["name"], "Effect track");
    assert_eq!(top["hidden"], false);
    let e = &top["elements"][0];
    assert_eq!(
        e,
        &json!({
            "id": out["elementId"], "name": "Vignette", "type": "effect",
            "startTime": 120000, "duration": 240000, "trimStart": 0, "trimEnd": 0,
            "effectType": "vignette", "params": { "radius": 60, "softness": 35 }
        })
    );
    assert_eq!(element(&t, "e-blur")["params"], json!({ "intensity": 40 }));
    expect("full.effects", &t);
}

#[test]
fn elements_the_tools_create_are_complete_opencut_elements() {
    let mut ed = loaded("full");
    ed.add_sticker("flags:fr", "France", None).unwrap();
    let text = call(&mut ed, "add_text", json!({ "text": "Subscribe", "start": 0, "end": 2, "position": "bottom", "style": "subtitle" }));
    let sticker = call(&mut ed, "add_sticker", json!({ "stickerId": "flags:fr", "start": 4, "end": 6, "position": "top-right" }));
    let video = call(&mut ed, "add_media_to_timeline", json!({ "assetId": "m-broll", "startTime": 12, "trackType": "main", "duration": 2 }));
    let image = call(&mut ed, "add_media_to_timeline", json!({ "assetId": "m-image", "startTime": 0, "trackType": "overlay" }));
    let music = call(&mut ed, "add_media_to_timeline", json!({ "assetId": "m-music", "startTime": 10, "trackType": "audio" }));
    let whoosh = call(&mut ed, "add_media_to_timeline", json!({ "assetId": "library:https://cdn.example.com/sfx/whoosh.mp3", "startTime": 20, "trackType": "audio" }));
    let t = tracks(&ed);
    let id = |v: &Value| v["elementId"].as_str().unwrap().to_string();

    // subtitle: 44 px at 1080 high = 44 × 90 / 1080 in OpenCut's unit; bottom = 15 % in from the edge.
    assert_eq!(
        element(&t, &id(&text)),
        &json!({
            "id": id(&text), "name": "Subscribe", "type": "text",
            "startTime": 0, "duration": 240000, "trimStart": 0, "trimEnd": 0,
            "content": "Subscribe", "fontSize": 3.67, "fontFamily": "Arial", "color": "#ffffff",
            "background": { "enabled": true, "color": "rgba(0,0,0,0.6)", "cornerRadius": 0, "paddingX": 30, "paddingY": 42, "offsetX": 0, "offsetY": 0 },
            "textAlign": "center", "fontWeight": "normal", "fontStyle": "normal", "textDecoration": "none",
            "letterSpacing": 0, "lineHeight": 1.2,
            "transform": { "scaleX": 1, "scaleY": 1, "position": { "x": 0, "y": 378 }, "rotate": 0 },
            "opacity": 1, "blendMode": "normal"
        })
    );
    assert_eq!(
        element(&t, &id(&sticker)),
        &json!({
            "id": id(&sticker), "name": "France", "type": "sticker",
            "startTime": 480000, "duration": 240000, "trimStart": 0, "trimEnd": 0,
            "stickerId": "flags:fr",
            "transform": { "scaleX": 1, "scaleY": 1, "position": { "x": 798, "y": -378 }, "rotate": 0 },
            "opacity": 1, "blendMode": "normal"
        })
    );
    assert_eq!(
        element(&t, &id(&video)),
        &json!({
            "id": id(&video), "name": "broll.mp4", "type": "video",
            "startTime": 1440000, "duration": 240000, "trimStart": 0, "trimEnd": 720000,
            "mediaId": "m-broll", "volume": 0, "sourceDuration": 960000, "muted": false, "hidden": false,
            "transform": { "scaleX": 1, "scaleY": 1, "position": { "x": 0, "y": 0 }, "rotate": 0 },
            "opacity": 1, "blendMode": "normal"
        })
    );
    assert_eq!(
        element(&t, &id(&image)),
        &json!({
            "id": id(&image), "name": "card.png", "type": "image",
            "startTime": 0, "duration": 600000, "trimStart": 0, "trimEnd": 0,
            "mediaId": "m-image", "hidden": false,
            "transform": { "scaleX": 1, "scaleY": 1, "position": { "x": 0, "y": 0 }, "rotate": 0 },
            "opacity": 1, "blendMode": "normal"
        })
    );
    assert_eq!(
        element(&t, &id(&music)),
        &json!({
            "id": id(&music), "name": "music.mp3", "type": "audio",
            "startTime": 1200000, "duration": 3600000, "trimStart": 0, "trimEnd": 0,
            "sourceType": "upload", "mediaId": "m-music", "volume": 0, "sourceDuration": 3600000, "muted": false
        })
    );
    assert_eq!(
        element(&t, &id(&whoosh)),
        &json!({
            "id": id(&whoosh), "name": "Whoosh", "type": "audio",
            "startTime": 2400000, "duration": 60000, "trimStart": 0, "trimEnd": 0,
            "sourceType": "library", "sourceUrl": "https://cdn.example.com/sfx/whoosh.mp3",
            "volume": 0, "sourceDuration": 60000, "muted": false
        })
    );
    // New visual tracks go on top of the overlay list; the music fitted on its own track.
    let overlay: Vec<(&str, &str)> =
        t["overlay"].as_array().unwrap().iter().map(|t| (t["type"].as_str().unwrap(), t["name"].as_str().unwrap())).collect();
    assert_eq!(
        overlay,
        [
            ("video", "Video track"),
            ("text", "Text track"),
            ("text", "Titles"),
            ("effect", "Effects"),
            ("graphic", "Stickers"),
            ("video", "Picture in picture"),
        ]
    );
    assert_eq!(t["audio"][0]["elements"][1]["id"], id(&music).as_str());
    expect("full.created", &t);
}

#[test]
fn volume_and_text_edits_write_opencut_units() {
    let mut ed = loaded("full");
    call(&mut ed, "set_volume", json!({ "trackId": "music-track", "elementId": "a-music", "volume": 0.5 }));
    call(&mut ed, "set_volume", json!({ "trackId": "pip-track", "elementId": "v-pip", "volume": 0 }));
    call(&mut ed, "update_text", json!({ "trackId": "text-track", "elementId": "t-title", "text": "Hi", "position": "top" }));
    let t = tracks(&ed);
    assert_eq!(element(&t, "a-music")["volume"], json!(-6.02));
    assert_eq!(element(&t, "v-pip")["volume"], json!(-60));
    let title = element(&t, "t-title");
    assert_eq!(title["content"], "Hi");
    assert_eq!(title["transform"], json!({ "scaleX": 1, "scaleY": 1, "position": { "x": 0, "y": -378 }, "rotate": 5 }));
    assert_eq!(title["fontSize"], 15, "style untouched");
    assert_eq!(title["background"], fixture("full")["tracks"]["overlay"][0]["elements"][0]["background"]);

    // A boosted clip (+2.5 dB, above NeuralCut's 1.0) comes back unchanged when untouched.
    let ntsc = loaded("ntsc-2997");
    assert_eq!(element(&tracks(&ntsc), "vo-1")["volume"], 2.5);
}

#[test]
fn delete_and_undo_through_a_batch() {
    let mut ed = loaded("full");
    call(
        &mut ed,
        "batch",
        json!({ "steps": [
            { "tool": "delete_timeline_elements", "args": { "elementIds": ["g-rect", "a-whoosh"] } },
            { "tool": "split", "args": { "times": [1] } }
        ] }),
    );
    let t = tracks(&ed);
    // Emptied tracks stay (OpenCut removes empty tracks itself if it wants to).
    assert_eq!(t["audio"][1]["elements"], json!([]));
    assert_eq!(t["overlay"][2]["elements"].as_array().unwrap().len(), 2, "s-flag cut in two");
    assert_eq!(ed.history().undo_len(), 1);
    ed.undo().unwrap();
    assert_eq!(tracks(&ed), fixture("full")["tracks"]);
}

#[test]
fn an_editor_without_a_scene() {
    let err = Editor::empty().to_opencut_scene().unwrap_err();
    assert_eq!(err.code, "NO_ACTIVE_PROJECT");
    let fresh = Editor::new().to_opencut_scene().unwrap();
    assert_eq!(fresh["tracks"]["overlay"], json!([]));
    assert_eq!(fresh["tracks"]["main"]["type"], "video");
    assert_eq!(fresh["tracks"]["main"]["elements"], json!([]));
    // An editor with no project can load a scene.
    let mut ed = Editor::empty();
    ed.load_opencut_scene(&fixture("ntsc-2997")).unwrap();
    assert_eq!(tracks(&ed), fixture("ntsc-2997")["tracks"]);
}

// ---------------------------------------------------------------------------------------------
// Refused scenes

fn refused(mutate: impl Fn(&mut Value), message: &str) {
    let mut ed = loaded("ntsc-2997");
    call(&mut ed, "split", json!({ "times": [5] }));
    let (project, scene, undo, revision) = (ed.project_json(), tracks(&ed), ed.history().undo_len(), ed.revision());

    let mut bad = fixture("full");
    mutate(&mut bad);
    let err: ProjectError = ed.load_opencut_scene(&bad).unwrap_err();
    assert_eq!(err.code, "INVALID_SCENE");
    assert_eq!(err.message, message);

    assert_eq!(ed.project_json(), project, "the project is as it was");
    assert_eq!(tracks(&ed), scene);
    assert_eq!(ed.history().undo_len(), undo, "and so is the history");
    assert_eq!(ed.revision(), revision);
    ed.undo().unwrap();
    assert_eq!(tracks(&ed), fixture("ntsc-2997")["tracks"]);
}

fn main_el(v: &mut Value, i: usize) -> &mut Value {
    &mut v["tracks"]["main"]["elements"][i]
}

#[test]
fn overlapping_elements_are_refused() {
    refused(
        |s| main_el(s, 1)["startTime"] = json!(500000),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"i-card\"): overlaps element \"v-intro\" on the same track (v-intro runs 0–600000 ticks, i-card starts at 500000)",
    );
    refused(
        |s| s["tracks"]["audio"][0]["elements"].as_array_mut().unwrap().push(json!({
            "id": "a-dup", "name": "again", "type": "audio", "sourceType": "upload", "mediaId": "m-music",
            "startTime": 1199999, "duration": 120000, "trimStart": 0, "trimEnd": 0, "volume": 0
        })),
        "Invalid OpenCut scene at tracks.audio[0].elements[1] (\"a-dup\"): overlaps element \"a-music\" on the same track (a-music runs 0–1200000 ticks, a-dup starts at 1199999)",
    );
}

#[test]
fn bad_times_are_refused() {
    refused(
        |s| main_el(s, 0)["startTime"] = json!(-1),
        "Invalid OpenCut scene at tracks.main.elements[0] (\"v-intro\"): startTime must be a whole number of ticks >= 0, not -1",
    );
    refused(
        |s| s["tracks"]["overlay"][1]["elements"][0]["duration"] = json!(0),
        "Invalid OpenCut scene at tracks.overlay[1].elements[0] (\"e-blur\"): duration must be a whole number of ticks > 0, not 0",
    );
    refused(
        |s| s["tracks"]["overlay"][0]["elements"][1]["duration"] = json!(-240000),
        "Invalid OpenCut scene at tracks.overlay[0].elements[1] (\"t-caption\"): duration must be a whole number of ticks > 0, not -240000",
    );
    refused(
        |s| main_el(s, 1)["startTime"] = json!(600000.5),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"i-card\"): startTime must be a whole number of ticks >= 0, not 600000.5",
    );
    refused(
        |s| main_el(s, 0)["trimStart"] = json!(-5),
        "Invalid OpenCut scene at tracks.main.elements[0] (\"v-intro\"): trimStart must be a whole number of ticks >= 0, not -5",
    );
    refused(
        |s| {
            main_el(s, 0).as_object_mut().unwrap().remove("startTime");
        },
        "Invalid OpenCut scene at tracks.main.elements[0] (\"v-intro\"): needs startTime (whole ticks)",
    );
    refused(
        |s| main_el(s, 0)["trimStart"] = json!(1000000),
        "Invalid OpenCut scene at tracks.main.elements[0] (\"v-intro\"): plays past the end of asset \"m-video\" (trimStart + duration = 1600000 ticks, the asset has 1500000)",
    );
}

#[test]
fn unknown_assets_are_refused() {
    refused(
        |s| s["tracks"]["overlay"][3]["elements"][0]["mediaId"] = json!("m-missing"),
        "Invalid OpenCut scene at tracks.overlay[3].elements[0] (\"v-pip\"): unknown asset \"m-missing\" (mediaId); pass every media asset the scene uses in assets",
    );
    refused(
        |s| {
            s.as_object_mut().unwrap().remove("assets");
        },
        "Invalid OpenCut scene at tracks.overlay[3].elements[0] (\"v-pip\"): unknown asset \"m-broll\" (mediaId); pass every media asset the scene uses in assets",
    );
    refused(
        |s| main_el(s, 1)["mediaId"] = json!("m-music"),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"i-card\"): asset \"m-music\" is audio, element is image",
    );
    refused(
        |s| s["assets"][1]["type"] = json!("font"),
        "Invalid OpenCut scene at assets[1] (\"m-broll\"): type must be \"video\", \"audio\" or \"image\"",
    );
    refused(
        |s| s["assets"][2]["id"] = json!("m-video"),
        "Invalid OpenCut scene at assets[2]: duplicate id \"m-video\"",
    );
}

#[test]
fn misplaced_and_malformed_tracks_and_elements_are_refused() {
    refused(
        |s| main_el(s, 1)["type"] = json!("text"),
        "Invalid OpenCut scene at tracks.main.elements[1] (\"i-card\"): a video track cannot hold a text element",
    );
    refused(
        |s| s["tracks"]["overlay"][2]["elements"][0]["type"] = json!("hologram"),
        "Invalid OpenCut scene at tracks.overlay[2].elements[0] (\"s-flag\"): unknown element type \"hologram\"",
    );
    refused(
        |s| s["tracks"]["overlay"][0]["type"] = json!("audio"),
        "Invalid OpenCut scene at tracks.overlay[0] (\"text-track\"): overlay tracks are video, text, graphic or effect tracks, not \"audio\"",
    );
    refused(
        |s| s["tracks"]["main"]["type"] = json!("text"),
        "Invalid OpenCut scene at tracks.main (\"main-track\"): the main track is a video track, not \"text\"",
    );
    refused(
        |s| {
            s["tracks"].as_object_mut().unwrap().remove("main");
        },
        "Invalid OpenCut scene at tracks.main: is missing: every scene has one main video track",
    );
    refused(
        |s| s["tracks"]["overlay"][1]["elements"][1]["id"] = json!("e-blur"),
        "Invalid OpenCut scene at tracks.overlay[1].elements[1] (\"e-blur\"): duplicate id",
    );
    refused(
        |s| s["tracks"]["audio"][1]["id"] = json!("music-track"),
        "Invalid OpenCut scene at tracks.audio[1] (\"music-track\"): duplicate id",
    );
    refused(
        |s| {
            s["tracks"]["overlay"][0]["elements"][0].as_object_mut().unwrap().remove("content");
        },
        "Invalid OpenCut scene at tracks.overlay[0].elements[0] (\"t-title\"): a text element needs a string content",
    );
    refused(
        |s| {
            s["tracks"]["audio"][1]["elements"][0].as_object_mut().unwrap().remove("sourceUrl");
        },
        "Invalid OpenCut scene at tracks.audio[1].elements[0] (\"a-whoosh\"): a library audio element needs a string sourceUrl",
    );
    refused(|s| s["tracks"] = json!([]), "Invalid OpenCut scene at tracks: must be an object { overlay: [...], main: {...}, audio: [...] }");
    refused(|s| *s = json!("scene"), "Invalid OpenCut scene at scene: must be an object { tracks, assets, settings? }");
    refused(
        |s| s["settings"]["fps"] = json!({ "numerator": 30, "denominator": 0 }),
        "Invalid OpenCut scene at settings.fps: must be { numerator, denominator } with both positive integers",
    );
    refused(
        |s| s["tracks"]["overlay"][3]["elements"][0]["volume"] = json!("loud"),
        "Invalid OpenCut scene at tracks.overlay[3].elements[0] (\"v-pip\"): volume must be a number (decibels)",
    );
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
        json!({ "tracks": { "main": { "id": "m", "type": "video" }, "overlay": [{ "id": "o", "type": "graphic", "elements": [{ "id": "g", "type": "graphic", "startTime": 0, "duration": 1 }] }] } }),
        json!({ "tracks": { "main": { "id": "m", "type": "video", "elements": [{ "id": "e", "type": "video", "startTime": 1e300, "duration": 1, "mediaId": "a" }] } }, "assets": [{ "id": "a", "type": "video" }] }),
        json!({ "tracks": { "main": { "id": "m", "type": "video" } }, "assets": [{ "id": "a", "type": "video", "duration": -1 }] }),
        json!({ "tracks": { "main": { "id": "m", "type": "video" } }, "settings": { "canvasSize": { "width": 0, "height": 10 } } }),
    ];
    for scene in odd {
        let mut ed = Editor::new();
        let before = ed.project_json();
        assert!(ed.load_opencut_scene(&scene).is_err(), "{scene}");
        assert_eq!(ed.project_json(), before);
    }
    // The smallest valid scene.
    let mut ed = Editor::new();
    ed.load_opencut_scene(&json!({ "tracks": { "overlay": [], "main": { "id": "m", "name": "Main", "type": "video", "elements": [], "muted": false, "hidden": false }, "audio": [] }, "assets": [] })).unwrap();
    assert_eq!(tracks(&ed)["main"]["id"], "m");
    let p: &Project = ed.project().unwrap();
    assert_eq!(p.timeline.as_ref().unwrap().tracks.len(), 1);
}
