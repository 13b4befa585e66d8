//! The project validator (`Project::from_json`): every rule it enforces, each broken once on an
//! otherwise valid project, must refuse the whole project with its code and the path of what is
//! wrong. The case harness (tests/tool_cases.rs) relies on these checks ("the saved project still
//! loads"), so they are tested here on their own: if a check went missing, a test below fails.

use neuralcut::model::Project;
use serde_json::{json, Value};

/// A small valid project holding every track type and every element type, with touching
/// elements, trims that exactly fit their source and volumes at both limits.
fn valid() -> Value {
    json!({
        "format": "neuralcut-project",
        "version": 1,
        "settings": { "fps": { "numerator": 30, "denominator": 1 }, "canvas": { "width": 1920, "height": 1080 } },
        "assets": [
            { "id": "a1", "name": "clip.mp4", "type": "video", "duration": 10 },
            { "id": "a2", "name": "still.png", "type": "image" },
            { "id": "a3", "name": "song.mp3", "type": "audio", "duration": 5 },
            { "id": "a4", "name": "silence.wav", "type": "audio", "duration": 0 }
        ],
        "stickers": [ { "id": "emoji:star", "name": "Star" }, { "id": "flags:us", "name": "US flag" } ],
        "timeline": { "tracks": [
            { "id": "t1", "type": "text", "elements": [
                { "id": "e1", "type": "text", "start": 0, "duration": 120000, "content": "Hi" }
            ] },
            { "id": "t2", "type": "effect", "elements": [
                { "id": "e2", "type": "effect", "start": 0, "duration": 120000, "effectType": "sepia" }
            ] },
            { "id": "t3", "type": "overlay", "elements": [
                { "id": "e3", "type": "sticker", "start": 0, "duration": 120000, "stickerId": "emoji:star" },
                { "id": "e4", "type": "image", "start": 120000, "duration": 240000, "assetId": "a2" },
                { "id": "e5", "type": "video", "start": 360000, "duration": 120000, "assetId": "a1", "volume": 0 }
            ] },
            { "id": "t4", "type": "main", "elements": [
                { "id": "e6", "type": "video", "start": 0, "duration": 600000, "trimStart": 600000, "assetId": "a1", "volume": 1 },
                { "id": "e7", "type": "image", "start": 600000, "duration": 120000, "assetId": "a2" }
            ] },
            { "id": "t5", "type": "audio", "elements": [
                { "id": "e8", "type": "audio", "start": 0, "duration": 360000, "trimStart": 120000, "trimEnd": 120000, "assetId": "a3", "volume": 0.5 },
                { "id": "e9", "type": "audio", "start": 360000, "duration": 120000, "assetId": "a4" }
            ] }
        ] },
        "nextId": 10
    })
}

/// Loads `project`; panics on success, returns (code, message) on failure.
fn refused(project: Value) -> (String, String) {
    match Project::from_json(&project.to_string()) {
        Ok(p) => panic!("an invalid project loaded: {}", p.to_json()),
        Err(e) => (e.code.to_string(), e.message),
    }
}

/// Asserts `project` is refused as INVALID_PROJECT with exactly `message`.
fn assert_invalid(project: Value, message: &str) {
    let (code, got) = refused(project);
    assert_eq!((code.as_str(), got.as_str()), ("INVALID_PROJECT", message));
}

fn element(p: &mut Value, track: usize, el: usize) -> &mut Value {
    &mut p["timeline"]["tracks"][track]["elements"][el]
}

fn with(change: impl FnOnce(&mut Value)) -> Value {
    let mut p = valid();
    change(&mut p);
    p
}

#[test]
fn the_valid_project_loads_and_keeps_its_edge_values() {
    let p = Project::from_json(&valid().to_string()).unwrap_or_else(|e| panic!("{e}"));
    let tl = p.timeline.as_ref().unwrap();
    assert_eq!(tl.tracks.len(), 5);
    assert_eq!(tl.element_count(), 9);
    assert_eq!(p.next_id, 10);
}

// ---------------------------------------------------------------------------------------------
// The header, the JSON and the shape

#[test]
fn not_json_is_invalid_json() {
    let e = Project::from_json("{ \"format\": ").unwrap_err();
    assert_eq!(e.code, "INVALID_JSON");
    assert!(e.message.starts_with("Project is not valid JSON: "), "{}", e.message);
}

#[test]
fn a_project_is_an_object() {
    for v in [json!([]), json!("neuralcut-project"), json!(1), json!(null)] {
        assert_invalid(v, "Invalid project: a project is a JSON object");
    }
}

#[test]
fn format_must_be_neuralcut_project() {
    let msg = "Not a NeuralCut project: \"format\" must be \"neuralcut-project\"";
    for format in [json!("opencut-project"), json!(null), json!(1)] {
        let (code, got) = refused(with(|p| p["format"] = format.clone()));
        assert_eq!((code.as_str(), got.as_str()), ("UNSUPPORTED_PROJECT", msg));
    }
    let (code, got) = refused(with(|p| {
        p.as_object_mut().unwrap().remove("format");
    }));
    assert_eq!((code.as_str(), got.as_str()), ("UNSUPPORTED_PROJECT", msg));
}

#[test]
fn version_must_be_the_one_this_build_reads() {
    for (version, shown) in [(json!(2), "2"), (json!(0), "0"), (json!("1"), "(missing)"), (json!(1.5), "(missing)")] {
        let (code, got) = refused(with(|p| p["version"] = version.clone()));
        assert_eq!(code, "UNSUPPORTED_PROJECT");
        assert_eq!(got, format!("Unsupported project version {shown}; this build reads version 1"));
    }
    let (code, got) = refused(with(|p| {
        p.as_object_mut().unwrap().remove("version");
    }));
    assert_eq!((code.as_str(), got.as_str()), ("UNSUPPORTED_PROJECT", "Unsupported project version (missing); this build reads version 1"));
}

#[test]
fn a_field_of_the_wrong_shape_is_invalid() {
    let (code, got) = refused(with(|p| *element(p, 3, 0).get_mut("start").unwrap() = json!("soon")));
    assert_eq!(code, "INVALID_PROJECT");
    assert!(got.starts_with("Invalid project: "), "{got}");
    let (code, _) = refused(with(|p| p["timeline"]["tracks"][0]["type"] = json!("subtitle")));
    assert_eq!(code, "INVALID_PROJECT");
}

/// serde's own message for each field of the wrong shape, a missing required field and an object
/// that is not one, at every level of the project (the reader of src/model/read.rs must keep
/// them, and keep unknown keys and their order).
#[test]
fn shape_errors_carry_serdes_message() {
    type Change = fn(&mut Value);
    let cases: [(Change, &str); 24] = [
        (|p| p["nextId"] = json!(-1), "invalid value: integer `-1`, expected u64"),
        (|p| p["settings"] = json!(3), "invalid type: integer `3`, expected struct Settings"),
        (|p| p["settings"] = json!(null), "invalid type: null, expected struct Settings"),
        (|p| p["settings"]["fps"] = json!(30), "invalid type: integer `30`, expected struct FrameRate"),
        (|p| p["settings"]["canvas"] = json!({ "width": 1.5, "height": 2 }), "invalid type: floating point `1.5`, expected u32"),
        (|p| p["assets"] = json!({}), "invalid type: map, expected a sequence"),
        (|p| p["assets"][0] = json!("a1"), "invalid type: string \"a1\", expected struct Asset"),
        (|p| drop(p["assets"][0].as_object_mut().unwrap().remove("name")), "missing field `name`"),
        (|p| p["assets"][0]["type"] = json!("gif"), "unknown variant `gif`, expected one of `video`, `audio`, `image`"),
        (|p| p["assets"][0]["duration"] = json!("10"), "invalid type: string \"10\", expected f64"),
        (|p| p["stickers"][0] = json!([]), "invalid type: sequence, expected struct Sticker"),
        (|p| p["stickers"][0]["url"] = json!(true), "invalid type: boolean `true`, expected a string"),
        (|p| p["timeline"] = json!(7), "invalid type: integer `7`, expected struct Timeline"),
        (|p| p["timeline"] = json!({}), "missing field `tracks`"),
        (|p| p["timeline"]["tracks"] = json!(null), "invalid type: null, expected a sequence"),
        (|p| p["timeline"]["tracks"][0] = json!(-2), "invalid type: integer `-2`, expected struct Track"),
        (|p| drop(p["timeline"]["tracks"][0].as_object_mut().unwrap().remove("type")), "missing field `type`"),
        (|p| p["timeline"]["tracks"][0]["hidden"] = json!("no"), "invalid type: string \"no\", expected a boolean"),
        (|p| *element(p, 3, 0).get_mut("start").unwrap() = json!("soon"), "invalid type: string \"soon\", expected i64"),
        (|p| *element(p, 3, 0) = json!(2.5), "invalid type: floating point `2.5`, expected struct Element"),
        (|p| drop(element(p, 3, 0).as_object_mut().unwrap().remove("duration")), "missing field `duration`"),
        (|p| element(p, 3, 0)["trimEnd"] = json!(null), "invalid type: null, expected i64"),
        (|p| element(p, 3, 0)["retime"] = json!({ "maintainPitch": true }), "missing field `rate`"),
        (|p| element(p, 3, 0)["params"] = json!([1]), "invalid type: sequence, expected a map"),
    ];
    for (change, message) in cases {
        assert_invalid(with(change), &format!("Invalid project: {message}"));
    }
}

#[test]
fn unknown_keys_are_kept_in_their_order_at_every_level() {
    let p = with(|p| {
        for at in ["", "/settings", "/assets/0", "/stickers/0", "/timeline", "/timeline/tracks/0"] {
            let v = p.pointer_mut(at).unwrap();
            v["zeta"] = json!(1);
            v["alpha"] = json!({ "b": 2, "a": [3] });
        }
        element(p, 3, 0)["zeta"] = json!(null);
        element(p, 3, 0)["alpha"] = json!("x");
        element(p, 3, 0)["retime"] = json!({ "rate": 1, "zeta": 1, "alpha": 2 });
    });
    let loaded: Value = serde_json::from_str(&Project::from_json(&p.to_string()).unwrap().to_json()).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().filter(|k| ["zeta", "alpha"].contains(&k.as_str())).cloned().collect::<Vec<_>>();
    for v in [&loaded, &loaded["settings"], &loaded["assets"][0], &loaded["stickers"][0], &loaded["timeline"], &loaded["timeline"]["tracks"][0]] {
        assert_eq!(keys(v), ["zeta", "alpha"]);
        assert_eq!(v["alpha"], json!({ "b": 2, "a": [3] }));
    }
    let e = &loaded["timeline"]["tracks"][3]["elements"][0];
    assert_eq!((keys(e), &e["zeta"], &e["alpha"]), (vec!["zeta".to_string(), "alpha".to_string()], &json!(null), &json!("x")));
    assert_eq!(keys(&e["retime"]), ["zeta", "alpha"]);
}

// ---------------------------------------------------------------------------------------------
// Settings, assets and stickers

#[test]
fn frame_rate_numerator_and_denominator_must_be_positive() {
    for (num, den) in [(0, 1), (30, 0), (0, 0)] {
        assert_invalid(
            with(|p| p["settings"]["fps"] = json!({ "numerator": num, "denominator": den })),
            "Invalid project at settings.fps: numerator and denominator must be positive",
        );
    }
}

#[test]
fn asset_ids_are_unique_and_not_empty() {
    assert_invalid(with(|p| p["assets"][2]["id"] = json!("a1")), "Invalid project at assets[2]: duplicate or empty id \"a1\"");
    assert_invalid(with(|p| p["assets"][1]["id"] = json!("")), "Invalid project at assets[1]: duplicate or empty id \"\"");
}

#[test]
fn asset_duration_is_not_negative() {
    assert_invalid(with(|p| p["assets"][0]["duration"] = json!(-0.5)), "Invalid project at assets[0].duration: must be a non-negative number");
    assert_invalid(with(|p| p["assets"][2]["duration"] = json!(-1e-9)), "Invalid project at assets[2].duration: must be a non-negative number");
}

#[test]
fn sticker_ids_are_unique_and_not_empty() {
    assert_invalid(with(|p| p["stickers"][1]["id"] = json!("emoji:star")), "Invalid project at stickers[1]: duplicate or empty id \"emoji:star\"");
    assert_invalid(with(|p| p["stickers"][0]["id"] = json!("")), "Invalid project at stickers[0]: duplicate or empty id \"\"");
}

#[test]
fn a_sticker_may_share_an_id_with_an_asset() {
    // Stickers have their own namespace (`provider:value`); only timeline ids share the asset's.
    Project::from_json(&with(|p| p["stickers"][0]["id"] = json!("a1")).to_string()).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Tracks

#[test]
fn a_project_without_a_timeline_loads() {
    let p = Project::from_json(&with(|p| p["timeline"] = Value::Null).to_string()).unwrap();
    assert!(p.timeline.is_none());
}

#[test]
fn exactly_one_main_track() {
    assert_invalid(with(|p| p["timeline"]["tracks"][2]["type"] = json!("main")), "Invalid project at timeline.tracks: needs exactly one main track, found 2");
    assert_invalid(
        with(|p| {
            p["timeline"]["tracks"].as_array_mut().unwrap().remove(3);
        }),
        "Invalid project at timeline.tracks: needs exactly one main track, found 0",
    );
    assert_invalid(with(|p| p["timeline"]["tracks"] = json!([])), "Invalid project at timeline.tracks: needs exactly one main track, found 0");
}

#[test]
fn track_ids_are_unique_across_tracks_and_assets() {
    assert_invalid(with(|p| p["timeline"]["tracks"][4]["id"] = json!("t2")), "Invalid project at timeline.tracks[4]: duplicate or empty id \"t2\"");
    assert_invalid(with(|p| p["timeline"]["tracks"][0]["id"] = json!("a3")), "Invalid project at timeline.tracks[0]: duplicate or empty id \"a3\"");
    assert_invalid(with(|p| p["timeline"]["tracks"][1]["id"] = json!("")), "Invalid project at timeline.tracks[1]: duplicate or empty id \"\"");
}

// ---------------------------------------------------------------------------------------------
// Elements

#[test]
fn element_ids_are_unique_across_the_project() {
    assert_invalid(with(|p| element(p, 4, 1)["id"] = json!("e1")), "Invalid project at timeline.tracks[4].elements[1] (\"e1\"): duplicate or empty id");
    assert_invalid(with(|p| element(p, 3, 1)["id"] = json!("e6")), "Invalid project at timeline.tracks[3].elements[1] (\"e6\"): duplicate or empty id");
    // Elements share one namespace with tracks and assets.
    assert_invalid(with(|p| element(p, 1, 0)["id"] = json!("t1")), "Invalid project at timeline.tracks[1].elements[0] (\"t1\"): duplicate or empty id");
    // A later track that reuses an element's id is the duplicate.
    assert_invalid(with(|p| element(p, 0, 0)["id"] = json!("t5")), "Invalid project at timeline.tracks[4]: duplicate or empty id \"t5\"");
    assert_invalid(with(|p| element(p, 1, 0)["id"] = json!("a2")), "Invalid project at timeline.tracks[1].elements[0] (\"a2\"): duplicate or empty id");
    assert_invalid(with(|p| element(p, 1, 0)["id"] = json!("")), "Invalid project at timeline.tracks[1].elements[0] (\"\"): duplicate or empty id");
}

/// Which element types each track type holds, written out from the architecture invariant
/// (docs/ARCHITECTURE.md), not taken from the implementation.
const ACCEPTS: &[(&str, &[&str])] =
    &[("main", &["video", "image"]), ("overlay", &["video", "image", "sticker"]), ("text", &["text"]), ("effect", &["effect"]), ("audio", &["audio"])];

/// A complete element of `kind` that fits the valid project's assets, at 50 s (free everywhere).
fn element_of(kind: &str) -> Value {
    let mut e = json!({ "id": "e50", "type": kind, "start": 6_000_000, "duration": 120000 });
    match kind {
        "video" => e["assetId"] = json!("a1"),
        "image" => e["assetId"] = json!("a2"),
        "audio" => e["assetId"] = json!("a3"),
        "text" => e["content"] = json!("x"),
        "sticker" => e["stickerId"] = json!("flags:us"),
        "effect" => e["effectType"] = json!("blur"),
        _ => unreachable!(),
    }
    e
}

/// The article before a type name in the messages.
fn an(word: &str) -> &'static str {
    match word {
        "overlay" | "effect" | "audio" | "image" => "an",
        _ => "a",
    }
}

#[test]
fn every_element_type_on_every_track_type() {
    let tracks = ["text", "effect", "overlay", "main", "audio"]; // the order of valid()
    for (ti, track) in tracks.iter().enumerate() {
        let accepted = ACCEPTS.iter().find(|(t, _)| t == track).unwrap().1;
        for kind in ["video", "image", "audio", "text", "sticker", "effect"] {
            let p = with(|p| p["timeline"]["tracks"][ti]["elements"].as_array_mut().unwrap().push(element_of(kind)));
            let last = p["timeline"]["tracks"][ti]["elements"].as_array().unwrap().len() - 1;
            let loaded = Project::from_json(&p.to_string());
            if accepted.contains(&kind) {
                loaded.unwrap_or_else(|e| panic!("{kind} on {track}: {e}"));
            } else {
                let e = loaded.expect_err(&format!("{kind} on a {track} track must be refused"));
                assert_eq!(e.code, "INVALID_PROJECT");
                assert_eq!(
                    e.message,
                    format!(
                        "Invalid project at timeline.tracks[{ti}].elements[{last}] (\"e50\"): {} {track} track cannot hold {} {kind} element",
                        an(track),
                        an(kind)
                    )
                );
            }
        }
    }
}

#[test]
fn start_duration_and_trims() {
    let path = "Invalid project at timeline.tracks[0].elements[0] (\"e1\"): start and trims must be >= 0 and duration > 0";
    assert_invalid(with(|p| element(p, 0, 0)["start"] = json!(-1)), path);
    assert_invalid(with(|p| element(p, 0, 0)["duration"] = json!(0)), path);
    assert_invalid(with(|p| element(p, 0, 0)["duration"] = json!(-120000)), path);
    assert_invalid(with(|p| element(p, 0, 0)["trimStart"] = json!(-1)), path);
    assert_invalid(with(|p| element(p, 0, 0)["trimEnd"] = json!(-1)), path);
    // The smallest legal values load.
    Project::from_json(&with(|p| element(p, 0, 0)["duration"] = json!(1)).to_string()).unwrap();
}

#[test]
fn elements_on_a_track_do_not_overlap() {
    // e4 (1 s to 3 s) pulled one tick into e3 (0 s to 1 s).
    assert_invalid(with(|p| element(p, 2, 1)["start"] = json!(119_999)), "Invalid project at timeline.tracks[2].elements[1] (\"e4\"): overlaps element \"e3\"");
    // The same element twice over: one inside the other.
    assert_invalid(
        with(|p| {
            let inner = json!({ "id": "e60", "type": "image", "start": 200_000, "duration": 10, "assetId": "a2" });
            p["timeline"]["tracks"][2]["elements"].as_array_mut().unwrap().push(inner);
        }),
        "Invalid project at timeline.tracks[2].elements[2] (\"e60\"): overlaps element \"e4\"",
    );
}

#[test]
fn hand_written_elements_out_of_order_are_sorted_then_checked() {
    let p = with(|p| p["timeline"]["tracks"][2]["elements"].as_array_mut().unwrap().reverse());
    let loaded = Project::from_json(&p.to_string()).unwrap();
    let ids: Vec<&str> = loaded.timeline.as_ref().unwrap().tracks[2].elements.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["e3", "e4", "e5"]);
    // Out of order and overlapping: the path is the sorted position.
    assert_invalid(
        with(|p| {
            element(p, 2, 0)["start"] = json!(400_000);
            p["timeline"]["tracks"][2]["elements"].as_array_mut().unwrap().reverse();
        }),
        "Invalid project at timeline.tracks[2].elements[2] (\"e3\"): overlaps element \"e5\"",
    );
}

#[test]
fn media_elements_name_an_existing_asset_of_their_type() {
    let at = "Invalid project at timeline.tracks[3].elements[0] (\"e6\"): ";
    assert_invalid(
        with(|p| {
            element(p, 3, 0).as_object_mut().unwrap().remove("assetId");
        }),
        &format!("{at}media element without assetId"),
    );
    assert_invalid(with(|p| element(p, 3, 0)["assetId"] = json!("a9")), &format!("{at}unknown asset \"a9\""));
    assert_invalid(with(|p| element(p, 3, 0)["assetId"] = json!("a3")), &format!("{at}asset \"a3\" is audio, element is video"));
    assert_invalid(
        with(|p| element(p, 3, 1)["assetId"] = json!("a1")),
        "Invalid project at timeline.tracks[3].elements[1] (\"e7\"): asset \"a1\" is video, element is image",
    );
    assert_invalid(
        with(|p| element(p, 4, 0)["assetId"] = json!("a2")),
        "Invalid project at timeline.tracks[4].elements[0] (\"e8\"): asset \"a2\" is image, element is audio",
    );
    for kind in ["image", "audio"] {
        let (ti, ei) = if kind == "image" { (2, 1) } else { (4, 0) };
        let p = with(|p| {
            element(p, ti, ei).as_object_mut().unwrap().remove("assetId");
        });
        let (_, got) = refused(p);
        assert!(got.ends_with("media element without assetId"), "{kind}: {got}");
    }
}

#[test]
fn video_and_audio_never_play_past_their_source() {
    // e6 plays a1 (10 s) from 5 s for 5 s: one tick more runs past the end.
    assert_invalid(
        with(|p| element(p, 3, 0)["trimStart"] = json!(600_001)),
        "Invalid project at timeline.tracks[3].elements[0] (\"e6\"): plays past the end of asset \"a1\"",
    );
    assert_invalid(
        with(|p| {
            element(p, 3, 0)["duration"] = json!(600_001);
            element(p, 3, 1)["start"] = json!(600_001);
        }),
        "Invalid project at timeline.tracks[3].elements[0] (\"e6\"): plays past the end of asset \"a1\"",
    );
    // e8 plays a3 (5 s) from 1 s for 3 s.
    assert_invalid(
        with(|p| element(p, 4, 0)["duration"] = json!(480_001)),
        "Invalid project at timeline.tracks[4].elements[0] (\"e8\"): plays past the end of asset \"a3\"",
    );
    // An image has no source length: any duration loads.
    Project::from_json(&with(|p| element(p, 3, 1)["duration"] = json!(120_000_000)).to_string()).unwrap();
    // Neither has an asset of unknown (or zero) length: e9 plays a4, whose duration is 0.
    Project::from_json(&with(|p| element(p, 4, 1)["duration"] = json!(120_000_000)).to_string()).unwrap();
    Project::from_json(
        &with(|p| {
            p["assets"][0].as_object_mut().unwrap().remove("duration");
            element(p, 3, 0)["trimStart"] = json!(12_000_000);
        })
        .to_string(),
    )
    .unwrap();
}

#[test]
fn text_sticker_and_effect_elements_carry_their_field() {
    let cases = [
        (0, 0, "content", "Invalid project at timeline.tracks[0].elements[0] (\"e1\"): text element without content"),
        (2, 0, "stickerId", "Invalid project at timeline.tracks[2].elements[0] (\"e3\"): sticker element without stickerId"),
        (1, 0, "effectType", "Invalid project at timeline.tracks[1].elements[0] (\"e2\"): effect element without effectType"),
    ];
    for (ti, ei, field, message) in cases {
        assert_invalid(
            with(|p| {
                element(p, ti, ei).as_object_mut().unwrap().remove(field);
            }),
            message,
        );
    }
}

#[test]
fn a_graphic_element_carries_its_definition() {
    // A graphic goes on an overlay track of its own (graphics and pictures do not share one).
    let graphic = |e: Value| with(|p| p["timeline"]["tracks"].as_array_mut().unwrap().push(json!({ "id": "t6", "type": "overlay", "elements": [e] })));
    Project::from_json(&graphic(json!({ "id": "e10", "type": "graphic", "start": 0, "duration": 120000, "definitionId": "rectangle" })).to_string()).unwrap();
    assert_invalid(
        graphic(json!({ "id": "e10", "type": "graphic", "start": 0, "duration": 120000 })),
        "Invalid project at timeline.tracks[5].elements[0] (\"e10\"): graphic element without definitionId",
    );
}

#[test]
fn volume_is_between_0_and_10() {
    // Linear gain: 0 is silent, 1 plays as recorded, 10 is OpenCut's +20 dB boost, its maximum.
    for (ti, ei, id, v) in [(3, 0, "e6", 10.0001), (2, 2, "e5", -0.0001), (4, 0, "e8", 20.0)] {
        assert_invalid(
            with(|p| element(p, ti, ei)["volume"] = json!(v)),
            &format!("Invalid project at timeline.tracks[{ti}].elements[{ei}] (\"{id}\"): volume must be between 0 and 10"),
        );
    }
    // The check applies to every element type that carries one.
    assert_invalid(
        with(|p| element(p, 0, 0)["volume"] = json!(11)),
        "Invalid project at timeline.tracks[0].elements[0] (\"e1\"): volume must be between 0 and 10",
    );
    // A boost within the range loads.
    assert!(Project::from_json(&with(|p| element(p, 3, 0)["volume"] = json!(2.5)).to_string()).is_ok());
}

#[test]
fn the_first_broken_rule_in_file_order_is_reported() {
    // Two problems: the one earlier in the file wins, so the message is stable.
    assert_invalid(
        with(|p| {
            element(p, 4, 0)["volume"] = json!(5);
            element(p, 0, 0)["duration"] = json!(0);
        }),
        "Invalid project at timeline.tracks[0].elements[0] (\"e1\"): start and trims must be >= 0 and duration > 0",
    );
}

// ---------------------------------------------------------------------------------------------
// The id counter

#[test]
fn next_id_moves_past_every_id_the_engine_could_have_made() {
    let load = |p: Value| Project::from_json(&p.to_string()).unwrap().next_id;
    // Saved counter below the ids in use: raised to one past the largest.
    assert_eq!(load(with(|p| p["nextId"] = json!(1))), 10);
    assert_eq!(load(with(|p| p["nextId"] = json!(0))), 10);
    // A larger saved counter is kept.
    assert_eq!(load(with(|p| p["nextId"] = json!(500))), 500);
    // The largest number counts, wherever it is: an asset, a track or an element.
    assert_eq!(load(with(|p| p["assets"].as_array_mut().unwrap().push(json!({ "id": "a40", "name": "x.png", "type": "image" })))), 41);
    assert_eq!(load(with(|p| p["timeline"]["tracks"][4]["id"] = json!("t77"))), 78);
    assert_eq!(load(with(|p| element(p, 3, 1)["id"] = json!("e123"))), 124);
    // Ids the engine never makes do not move it: upper-case or no prefix, no digits, other
    // characters after the digits.
    for id in ["E900", "900", "e", "e12a", "ee900", "e-900", "e+900", "é900"] {
        assert_eq!(load(with(|p| element(p, 3, 1)["id"] = json!(id))), 10, "{id}");
    }
    // A number too large for the counter does not wrap it back to 0.
    assert_eq!(load(with(|p| element(p, 3, 1)["id"] = json!(format!("e{}", u64::MAX)))), u64::MAX);
    assert_eq!(load(with(|p| element(p, 3, 1)["id"] = json!("e99999999999999999999999"))), 10);
}

#[test]
fn the_error_displays_as_its_message_and_is_an_error() {
    let e = Project::from_json(&with(|p| p["settings"]["fps"]["numerator"] = json!(0)).to_string()).unwrap_err();
    assert_eq!(e.to_string(), "Invalid project at settings.fps: numerator and denominator must be positive");
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(boxed.to_string(), e.message);
}
