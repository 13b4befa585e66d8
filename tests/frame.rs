//! `frame_at`: the layers of the picture at a time, on scenes shaped as OpenCut writes them (v31)
//! and on timelines the tools build. Expected placements are computed by hand from OpenCut's
//! renderer (computeVisualTransform: contain fit × scale, centred at canvas centre + position).
#![recursion_limit = "256"]

use neuralcut::frame::{Frame, Layer, MediaLayer, TextLayer};
use neuralcut::opencut;
use neuralcut::{Editor, NewAsset};
use serde_json::{json, Value};

const S: i64 = 120_000;

fn visual(changes: Value) -> Value {
    let mut p = json!({
        "transform.positionX": 0, "transform.positionY": 0, "transform.scaleX": 1, "transform.scaleY": 1,
        "transform.rotate": 0, "opacity": 1, "blendMode": "normal"
    });
    p.as_object_mut().unwrap().extend(changes.as_object().unwrap().clone());
    p
}

fn media(id: &str, kind: &str, media: &str, start: i64, duration: i64, params: Value) -> Value {
    json!({ "id": id, "type": kind, "name": id, "mediaId": media, "startTime": start, "duration": duration,
            "trimStart": 0, "trimEnd": 0, "hidden": false, "params": params })
}

/// A 1920×1080 scene: a 4K video on main, a square logo image picture-in-picture above it, a
/// title, a flag sticker, a blur effect between the video and the title, and a hidden overlay.
fn scene() -> Value {
    let mut video = media("v1", "video", "m-4k", 0, 10 * S, visual(json!({})));
    video["trimStart"] = json!(S);
    video["trimEnd"] = json!(9 * S);
    video["sourceDuration"] = json!(30 * S);
    video["retime"] = json!({ "rate": 2 });
    video["isSourceAudioEnabled"] = json!(true);
    let mut pip = media(
        "pip",
        "image",
        "m-logo",
        0,
        10 * S,
        visual(json!({
            "transform.positionX": 640, "transform.positionY": -300, "transform.scaleX": 0.25, "transform.scaleY": 0.25,
            "transform.rotate": 30, "opacity": 0.5, "blendMode": "screen"
        })),
    );
    pip["effects"] = json!([
        {"id": "ce1", "type": "blur", "params": {"intensity": 10}, "enabled": true},
        {"id": "ce2", "type": "blur", "params": {}, "enabled": false}
    ]);
    let hidden = media("gone", "image", "m-logo", 0, 10 * S, visual(json!({})));
    json!({
        "settings": { "fps": {"numerator": 30, "denominator": 1}, "canvasSize": {"width": 1920, "height": 1080},
                      "background": {"type": "color", "color": "#101010"} },
        "assets": [
            { "id": "m-4k", "name": "a.mp4", "type": "video", "width": 3840, "height": 2160, "duration": 30 },
            { "id": "m-logo", "name": "logo.png", "type": "image", "width": 1080, "height": 1080 },
            { "id": "m-music", "name": "m.mp3", "type": "audio", "duration": 30 }
        ],
        "tracks": {
            "overlay": [
                { "id": "t-text", "name": "Text track", "type": "text", "hidden": false, "elements": [{
                    "id": "title", "type": "text", "name": "Title", "startTime": 0, "duration": 5 * S, "trimStart": 0, "trimEnd": 0,
                    "params": {
                        "content": "Hello", "fontFamily": "Inter", "fontSize": 15, "color": "#ffcc00", "textAlign": "left",
                        "fontWeight": "bold", "fontStyle": "italic", "textDecoration": "underline", "letterSpacing": 2, "lineHeight": 1.5,
                        "background.enabled": true, "background.color": "#0000ff", "background.cornerRadius": 20,
                        "background.paddingX": 30, "background.paddingY": 42, "background.offsetX": 4, "background.offsetY": -4,
                        "transform.positionX": -400, "transform.positionY": 300, "transform.scaleX": 1, "transform.scaleY": 1,
                        "transform.rotate": 0, "opacity": 0.8, "blendMode": "normal"
                    }
                }]},
                { "id": "t-fx", "name": "Effect track", "type": "effect", "hidden": false, "elements": [{
                    "id": "fx", "type": "effect", "name": "Blur", "effectType": "blur", "params": {"intensity": 40},
                    "startTime": 2 * S, "duration": 2 * S, "trimStart": 0, "trimEnd": 0
                }]},
                { "id": "t-gfx", "name": "Graphic track", "type": "graphic", "hidden": false, "elements": [{
                    "id": "flag", "type": "sticker", "name": "US", "stickerId": "flags:US", "intrinsicWidth": 640, "intrinsicHeight": 480,
                    "startTime": 0, "duration": 10 * S, "trimStart": 0, "trimEnd": 0,
                    "params": visual(json!({ "transform.positionX": 700, "transform.positionY": -350, "transform.scaleX": 0.5, "transform.scaleY": -0.5 }))
                }]},
                { "id": "t-pip", "name": "Video track", "type": "video", "hidden": false, "muted": false, "elements": [pip] },
                { "id": "t-hidden", "name": "Video track", "type": "video", "hidden": true, "muted": false, "elements": [hidden] }
            ],
            "main": { "id": "t-main", "name": "Main Track", "type": "video", "hidden": false, "muted": false, "elements": [video] },
            "audio": [{ "id": "t-audio", "name": "Audio track", "type": "audio", "muted": false, "elements": [{
                "id": "music", "type": "audio", "name": "m", "sourceType": "upload", "mediaId": "m-music", "startTime": 0,
                "duration": 10 * S, "trimStart": 0, "trimEnd": 0, "sourceDuration": 30 * S, "params": {"volume": 0, "muted": false}
            }]}]
        }
    })
}

fn loaded(scene: &Value) -> Editor {
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, scene).unwrap_or_else(|e| panic!("{e}"));
    ed
}

fn frame(ed: &Editor, seconds: f64) -> Frame {
    ed.frame_at(seconds).unwrap().expect("a project")
}

fn ids(f: &Frame) -> Vec<String> {
    f.layers
        .iter()
        .map(|l| match l {
            Layer::Media(m) => m.element_id.clone(),
            Layer::Text(t) => t.element_id.clone(),
            Layer::Effect(e) => e.element_id.clone(),
        })
        .collect()
}

fn media_layer<'a>(f: &'a Frame, id: &str) -> &'a MediaLayer {
    f.layers
        .iter()
        .find_map(|l| {
            matches!(l, Layer::Media(m) if m.element_id == id).then(|| match l {
                Layer::Media(m) => m,
                _ => unreachable!(),
            })
        })
        .unwrap()
}

fn text_layer<'a>(f: &'a Frame, id: &str) -> &'a TextLayer {
    f.layers
        .iter()
        .find_map(|l| match l {
            Layer::Text(t) if t.element_id == id => Some(t),
            _ => None,
        })
        .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn layers_are_bottom_first_and_hidden_or_silent_ones_are_not_drawn() {
    let ed = loaded(&scene());
    let f = frame(&ed, 1.0);
    // Main first, then overlays last to first; the hidden track and the audio are not drawn.
    assert_eq!(ids(&f), ["v1", "pip", "flag", "title"]);
    assert_eq!((f.width, f.height, f.background.as_str()), (1920, 1080, "#101010"));
    // The effect is on from 2 s to 4 s: it covers what is below it (main, pip, flag), not the title.
    let f = frame(&ed, 2.0);
    assert_eq!(ids(&f), ["v1", "pip", "flag", "fx", "title"]);
    let Layer::Effect(fx) = &f.layers[3] else { panic!("{:?}", f.layers[3]) };
    assert_eq!(fx.covers, [0, 1, 2]);
    assert_eq!(Value::Object(fx.params.clone()), json!({"intensity": 40}));
    assert_eq!(ids(&frame(&ed, 4.0)), ["v1", "pip", "flag", "title"]);
    assert_eq!(ids(&frame(&ed, 5.0)), ["v1", "pip", "flag"]);
    assert!(frame(&ed, 10.0).layers.is_empty());
    assert!(frame(&ed, -1.0).layers.is_empty());
}

#[test]
fn a_picture_in_picture_overlay_lands_where_opencut_puts_it() {
    let ed = loaded(&scene());
    let f = frame(&ed, 1.0);
    // The 4K video fits the 1080p canvas exactly: contain scale 0.5.
    let v = media_layer(&f, "v1").placement.unwrap();
    assert_eq!((v.center_x, v.center_y, v.width, v.height), (960.0, 540.0, 1920.0, 1080.0));
    // 1080² logo: contain scale min(1920/1080, 1080/1080) = 1, × 0.25 = 270 px square, centred
    // at (960 + 640, 540 − 300), rotated 30° clockwise, half opaque, screen blend.
    let pip = media_layer(&f, "pip");
    let p = pip.placement.unwrap();
    assert_eq!((p.center_x, p.center_y, p.width, p.height, p.rotation), (1600.0, 240.0, 270.0, 270.0, 30.0));
    assert!(!p.flip_x && !p.flip_y);
    assert_eq!((pip.opacity, pip.blend_mode.as_str(), pip.media_type), (0.5, "screen", "image"));
    // Only enabled clip effects, with their params.
    assert_eq!(pip.effects.len(), 1);
    assert_eq!((pip.effects[0].effect_type.as_str(), Value::Object(pip.effects[0].params.clone())), ("blur", json!({"intensity": 10})));
    // Sticker: 640×480 intrinsic, contain = min(3, 2.25) = 2.25 → 1440×1080, × 0.5 → 720×540;
    // a negative scale flips instead of shrinking.
    let s = media_layer(&f, "flag").placement.unwrap();
    assert_eq!((s.center_x, s.center_y, s.width, s.height), (1660.0, 190.0, 720.0, 540.0));
    assert!(!s.flip_x && s.flip_y);
}

#[test]
fn video_source_time_applies_trim_and_retime() {
    let ed = loaded(&scene());
    // trimStart 1 s, rate 2: 1.5 s into the clip shows source 1 + 3 = 4 s.
    let v = media_layer(&frame(&ed, 1.5), "v1").clone();
    assert_eq!((v.source_tick, v.source_time), (Some(4 * S), Some(4.0)));
    assert_eq!(v.asset_id.as_deref(), Some("m-4k"));
    assert_eq!((v.source_width, v.source_height), (Some(3840), Some(2160)));
    // An image has no source time.
    assert_eq!(media_layer(&frame(&ed, 1.5), "pip").source_time, None);
}

#[test]
fn text_has_its_resolved_style_size_and_anchor() {
    let ed = loaded(&scene());
    let t = text_layer(&frame(&ed, 0.0), "title").clone();
    // fontSize 15 on a 1080-high canvas: 15 × 1080 / 90 = 180 px.
    assert!(close(t.font_size, 180.0), "{}", t.font_size);
    assert_eq!((t.anchor_x, t.anchor_y), (960.0 - 400.0, 540.0 + 300.0));
    assert_eq!(
        (t.content.as_str(), t.font_family.as_str(), t.font_weight.as_str(), t.font_style.as_str(), t.color.as_str()),
        ("Hello", "Inter", "bold", "italic", "#ffcc00")
    );
    assert_eq!((t.text_align.as_str(), t.text_decoration.as_str(), t.letter_spacing, t.line_height), ("left", "underline", 2.0, 1.5));
    assert_eq!(t.opacity, 0.8);
    // Background padding is in OpenCut's units at fontSize 15 (× fontSize / 15 = 1).
    let bg = t.background.unwrap();
    assert_eq!((bg.color.as_str(), bg.padding_x, bg.padding_y, bg.offset_x, bg.offset_y, bg.corner_radius), ("#0000ff", 30.0, 42.0, 4.0, -4.0, 20.0));
}

#[test]
fn timelines_the_tools_build_place_text_and_stickers_at_their_named_positions() {
    let mut ed = Editor::new();
    ed.call_tool("add_text", &json!({"text": "Top line", "start": 0, "end": 2, "position": "top", "style": "subtitle"})).unwrap();
    ed.call_tool("apply_effect", &json!({"effectType": "sepia", "start": 0, "end": 1})).unwrap();
    let f = frame(&ed, 0.5);
    let t = text_layer(&f, "e2");
    // "top": 15 % of the shorter side from the top edge; subtitle is 44 px with a background.
    assert_eq!((t.anchor_x, t.anchor_y), (960.0, 0.15 * 1080.0));
    assert_eq!(t.font_size, 44.0);
    let bg = t.background.clone().unwrap();
    assert_eq!(bg.color, "rgba(0,0,0,0.6)");
    // Padding is given at the default font size (a sixth of the canvas, 180 px) and grows with
    // the font: 30 × 44 / 180. OpenCut, which stores the size as 3.67 of its unit (two decimals),
    // draws 30 × 3.67 / 15, 0.007 px more (docs/render.md).
    assert!(close(bg.padding_x, 30.0 * 44.0 / 180.0), "{}", bg.padding_x);
    assert_eq!(f.layers.len(), 2, "{:?}", f.layers);
}

#[test]
fn hidden_elements_are_skipped_and_unknown_things_are_reported() {
    let mut s = scene();
    s["tracks"]["overlay"][3]["elements"][0]["hidden"] = json!(true);
    s["tracks"]["overlay"][1]["elements"][0]["effectType"] = json!("glitter");
    let ed = loaded(&s);
    let f = frame(&ed, 2.5);
    assert_eq!(ids(&f), ["v1", "flag", "title"]);
    assert_eq!(f.skipped.len(), 1);
    assert_eq!(f.skipped[0].element_id, "fx");
    assert!(f.skipped[0].reason.contains("glitter"));
}

#[test]
fn bad_times_are_errors_and_no_project_is_none() {
    let ed = loaded(&scene());
    assert!(ed.frame_at(f64::NAN).is_err());
    assert!(ed.frame_at(f64::INFINITY).is_err());
    assert_eq!(Editor::empty().frame_at(1.0), Ok(None));
}

#[test]
fn frame_json_is_camel_case_with_a_kind_tag() {
    let ed = loaded(&scene());
    let v = serde_json::to_value(frame(&ed, 2.0)).unwrap();
    assert_eq!(v["layers"][0]["kind"], "media");
    assert_eq!(v["layers"][0]["sourceTime"], 5.0);
    assert_eq!(v["layers"][1]["placement"]["centerX"], 1600.0);
    assert_eq!(v["layers"][3]["kind"], "effect");
    assert_eq!(v["layers"][4]["kind"], "text");
    assert_eq!(v["layers"][4]["fontSize"], 180.0);
}

#[test]
fn keyframes_made_by_the_tools_are_evaluated_at_the_frame_time() {
    // A fade-in over 0.5 s and a slide to the right, each two upsert_keyframe calls.
    let mut ed = loaded(&scene());
    for (property, time, value) in [("opacity", 1.0, 0.0), ("opacity", 1.5, 1.0), ("transform.positionX", 1.0, 0.0), ("transform.positionX", 3.0, 400.0)] {
        let out = ed.call_tool("upsert_keyframe", &json!({ "elementId": "pip", "property": property, "time": time, "value": value }));
        assert!(out.is_ok(), "{out:?}");
    }
    let at = |t: f64| media_layer(&frame(&ed, t), "pip").clone();
    // Before the first key the first value holds; linear between; the last value holds after.
    assert_eq!(at(0.5).opacity, 0.0);
    assert!(close(at(1.25).opacity, 0.5), "{}", at(1.25).opacity);
    assert_eq!(at(2.0).opacity, 1.0);
    // positionX 0 → 400 px from 1 s to 3 s: at 2 s the centre is 960 + 200.
    assert!(close(at(2.0).placement.unwrap().center_x, 1160.0));
    assert!(close(at(4.0).placement.unwrap().center_x, 1360.0));
    // Without keyframes the static param stays (the untouched video).
    assert_eq!(media_layer(&frame(&ed, 2.0), "v1").opacity, 1.0);
}

/// What update_clip sets is what the frame draws, on an element the tools made and on one read
/// from OpenCut: the frame read the transform, opacity and blend mode of a tool-made element
/// from OpenCut's params (it has none, so always the defaults) and those of an imported one from
/// the params it was read with, so no update_clip change ever reached the picture (issue 31).
#[test]
fn what_update_clip_sets_is_what_the_frame_draws() {
    let mut native = Editor::new();
    let logo = NewAsset { name: "logo.png".into(), kind: "image".into(), width: Some(1080), height: Some(1080), ..NewAsset::default() };
    let asset = native.add_asset(logo).unwrap();
    native.call_tool("add_media_to_timeline", &json!({ "assetId": asset, "trackType": "main", "startTime": 0, "duration": 5 })).unwrap();
    let native_id = media_ids(&frame(&native, 1.0))[0].clone();
    for (mut ed, id) in [(native, native_id), (loaded(&scene()), "pip".to_string())] {
        let before = media_layer(&frame(&ed, 1.0), &id).clone();
        let args = json!({ "elementIds": [id], "position": { "x": -200, "y": 100 }, "scale": 0.5, "rotation": -45, "opacity": 0.75, "blendMode": "multiply" });
        let out = ed.call_tool("update_clip", &args).unwrap();
        assert_eq!(out["success"], json!(true), "{out}");
        let after = media_layer(&frame(&ed, 1.0), &id).clone();
        let t = &after.transform;
        assert_eq!((t.x, t.y, t.scale_x, t.scale_y, t.rotation), (-200.0, 100.0, 0.5, 0.5, -45.0), "{id}");
        assert_eq!((after.opacity, after.blend_mode.as_str()), (0.75, "multiply"), "{id}");
        // 1080² fitted to 1080 high, × 0.5: a 540 px square centred 200 px left of and 100 px below the centre.
        let p = after.placement.unwrap();
        assert_eq!((p.center_x, p.center_y, p.width, p.height, p.rotation), (760.0, 640.0, 540.0, 540.0, -45.0), "{id}");
        // Nothing else about the layer changed.
        let unchanged = MediaLayer {
            transform: before.transform.clone(),
            placement: before.placement,
            opacity: before.opacity,
            blend_mode: before.blend_mode.clone(),
            ..after.clone()
        };
        assert_eq!(unchanged, before, "{id}");
    }
}

fn media_ids(f: &Frame) -> Vec<String> {
    f.layers.iter().filter_map(|l| if let Layer::Media(m) = l { Some(m.element_id.clone()) } else { None }).collect()
}

#[test]
fn active_effects_use_seconds_and_the_tools() {
    let mut ed = Editor::new();
    assert_eq!(ed.active_effects(1.0), Ok(vec![]));
    let out = ed.call_tool("apply_effect", &json!({"effectType": "sepia", "start": 1, "end": 2, "params": {"intensity": 40}})).unwrap();
    let at = ed.active_effects(1.5).unwrap();
    assert_eq!(at.len(), 1);
    assert_eq!(Value::String(at[0].element_id.clone()), out["elementId"]);
    assert_eq!(Value::Object(at[0].params.clone()), json!({"intensity": 40}));
    assert_eq!((at[0].start, at[0].end), (1.0, 2.0));
    assert!(ed.active_effects(2.0).unwrap().is_empty());
    assert!(ed.active_effects(f64::NAN).is_err());
}

#[test]
fn the_canvas_background_is_opencuts_colour_or_the_main_track_blurred_under_everything() {
    // A colour is the frame's background, "transparent" too (the compositor clears to nothing).
    let f = frame(&loaded(&scene()), 1.0);
    assert_eq!(f.background, "#101010");
    let mut ed = loaded(&scene());
    ed.call_tool("update_project", &json!({ "background": "transparent" })).unwrap();
    assert_eq!(frame(&ed, 1.0).background, "transparent");

    // Blur (scene-builder.ts buildBlurBackgroundNodes): the main track's video under everything,
    // covering the 1920×1080 canvas (3840×2160 scaled by max(1920/3840, 1080/2160) = 0.5: exactly
    // the canvas), untransformed, then blurred; the video itself is drawn over it as before.
    // Intensity 200 is over the blur effect's 100: four passes at 200/√4 = 100, σ² adding up to
    // (200/5)² = 4 × (100/5)².
    let mut ed = loaded(&scene());
    ed.call_tool("update_project", &json!({ "background": { "type": "blur", "blurIntensity": 200 } })).unwrap();
    let f = frame(&ed, 1.0);
    assert_eq!(f.background, "#000000");
    assert_eq!(ids(&f)[..6], ["v1", "background", "background", "background", "background", "v1"]);
    let Layer::Media(backdrop) = &f.layers[0] else { panic!("a media layer") };
    let p = backdrop.placement.unwrap();
    assert_eq!((p.center_x, p.center_y, p.width, p.height, p.rotation), (960.0, 540.0, 1920.0, 1080.0, 0.0));
    // The same source frame as the clip: trim 1 s + 1 s × rate 2 = 3 s.
    assert_eq!(backdrop.source_time, Some(3.0));
    assert_eq!(backdrop.source_time, media_layer(&f, "v1").source_time);
    assert!(backdrop.effects.is_empty() && backdrop.opacity == 1.0 && backdrop.blend_mode == "normal");
    for l in &f.layers[1..5] {
        let Layer::Effect(e) = l else { panic!("an effect layer") };
        assert_eq!((e.effect_type.as_str(), e.params["intensity"].clone(), e.covers.clone()), ("blur", json!(100), vec![0]));
    }
    // The scene's own blur effect element (2–4 s) acts on everything below it, backdrop included.
    let f = frame(&ed, 3.0);
    let fx = f
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Effect(e) if e.element_id == "fx" => Some(e),
            _ => None,
        })
        .unwrap();
    assert_eq!(fx.covers[..6], [0, 1, 2, 3, 4, 5]);

    // OpenCut's default intensity, 10, is one pass; a hidden main track has no backdrop.
    ed.call_tool("update_project", &json!({ "background": { "type": "blur" } })).unwrap();
    assert_eq!(ids(&frame(&ed, 1.0))[..3], ["v1", "background", "v1"]);
    let Layer::Effect(e) = &frame(&ed, 1.0).layers[1] else { panic!("an effect layer") };
    assert_eq!(e.params["intensity"], json!(10));
    let main =
        ed.call_tool("list_timeline", &json!({})).unwrap()["tracks"].as_array().unwrap().iter().find(|t| t["type"] == "main").unwrap()["trackId"].clone();
    ed.call_tool("update_track", &json!({ "trackId": main, "hidden": true })).unwrap();
    assert!(!ids(&frame(&ed, 1.0)).contains(&"background".to_string()));
}
