//! `audio_plan`: which clips sound over a span and how loud, on a scene shaped as OpenCut writes it
//! (v31) and edited with the tools. Rules from shared/opencut-format.md: muted tracks and
//! elements are silent, a video with its own sound off is silent, hidden only stops drawing,
//! volume is dB (gain 10^(dB/20) as timeline/audio-state.ts maps it: −60 dB, OpenCut's quietest, plays
//! at 0.001) and keyframable; volume 0 (set_volume 0) is silent, as OpenCut's `muted` it is written as.

use neuralcut::audio::AudioPlan;
use neuralcut::opencut;
use neuralcut::Editor;
use serde_json::{json, Value};

const S: i64 = 120_000;

fn clip(id: &str, kind: &str, media: &str, start: i64, duration: i64, params: Value) -> Value {
    json!({ "id": id, "type": kind, "name": id, "mediaId": media, "startTime": start, "duration": duration,
            "trimStart": 0, "trimEnd": 0, "sourceDuration": 60 * S, "hidden": false, "params": params })
}

fn scene() -> Value {
    let mut main = clip("v1", "video", "m-v", 0, 4 * S, json!({ "volume": -6, "muted": false }));
    main["trimStart"] = json!(2 * S);
    main["trimEnd"] = json!(60 * S - 2 * S - 8 * S);
    main["retime"] = json!({ "rate": 2 });
    let mut hidden = clip("hid", "video", "m-v", 0, 3 * S, json!({}));
    hidden["hidden"] = json!(true);
    let mut no_sound = clip("nosound", "video", "m-v", 0, 3 * S, json!({}));
    no_sound["isSourceAudioEnabled"] = json!(false);
    json!({
        "settings": { "fps": {"numerator": 30, "denominator": 1}, "canvasSize": {"width": 640, "height": 360} },
        "assets": [
            { "id": "m-v", "name": "v.webm", "type": "video", "width": 640, "height": 360, "duration": 60 },
            { "id": "m-a", "name": "a.wav", "type": "audio", "duration": 60 }
        ],
        "tracks": {
            "overlay": [
                { "id": "t-hidden", "name": "Video track", "type": "video", "hidden": true, "muted": false, "elements": [hidden] },
                { "id": "t-nosound", "name": "Video track", "type": "video", "hidden": false, "muted": false, "elements": [no_sound] },
                { "id": "t-muted", "name": "Video track", "type": "video", "hidden": false, "muted": true, "elements": [clip("vm", "video", "m-v", 0, 3 * S, json!({}))] }
            ],
            "main": { "id": "t-main", "name": "Main Track", "type": "video", "hidden": false, "muted": false, "elements": [main] },
            "audio": [{ "id": "t-audio", "name": "Audio track", "type": "audio", "muted": false, "elements": [
                clip("music", "audio", "m-a", S, 5 * S, json!({ "volume": 0, "muted": false })),
                clip("quiet", "audio", "m-a", 7 * S, S, json!({ "volume": 0, "muted": true })),
                clip("quietest", "audio", "m-a", 9 * S, S, json!({ "volume": -60, "muted": false }))
            ]}]
        }
    })
}

fn plan(ed: &Editor, from: f64, to: f64, step: f64) -> AudioPlan {
    ed.audio_plan(from, to, step).expect("a valid span").expect("a project")
}

fn ids(p: &AudioPlan) -> Vec<&str> {
    p.clips.iter().map(|c| c.element_id.as_str()).collect()
}

#[test]
fn muted_tracks_elements_and_sourceless_video_are_silent_hidden_ones_sound() {
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene()).unwrap_or_else(|e| panic!("{e}"));
    let p = plan(&ed, 0.0, 20.0, 0.5);
    assert_eq!(ids(&p), ["hid", "v1", "music", "quietest"], "muted track, muted element and source audio off are left out");
    // OpenCut's dBToLinear(−60) is 10^−3: heard, very quietly.
    assert_eq!(p.clips[3].gains, [0.001]);
    let v1 = &p.clips[1];
    assert_eq!((v1.start, v1.end, v1.source_start, v1.rate, v1.maintain_pitch), (0.0, 4.0, 2.0, 2.0, false));
    assert_eq!(v1.gains.len(), 1, "an unanimated volume is one gain");
    assert!((v1.gains[0] - 10f64.powf(-6.0 / 20.0)).abs() < 1e-9);
    assert_eq!(p.clips[2].gains, [1.0]);
    assert_eq!(p.clips[2].track_id, "t-audio");
    assert_eq!(p.clips[2].asset_id, "m-a");
    // OpenCut's pitch option reaches the plan only where it changes something (a rate not 1).
    let mut pitched = scene();
    pitched["tracks"]["main"]["elements"][0]["retime"] = json!({ "rate": 2, "maintainPitch": true });
    pitched["tracks"]["audio"][0]["elements"][0]["retime"] = json!({ "rate": 1, "maintainPitch": true });
    let mut ed2 = Editor::new();
    opencut::load_scene(&mut ed2, &pitched).unwrap_or_else(|e| panic!("{e}"));
    let p2 = plan(&ed2, 0.0, 20.0, 0.5);
    let flags: Vec<(&str, bool)> = p2.clips.iter().map(|c| (c.element_id.as_str(), c.maintain_pitch)).collect();
    assert_eq!(flags, [("hid", false), ("v1", true), ("music", false), ("quietest", false)]);
    // A span keeps only what overlaps it.
    assert_eq!(ids(&plan(&ed, 4.0, 5.0, 0.5)), ["music"]);
    assert_eq!(ids(&plan(&ed, 6.0, 6.5, 0.5)), Vec::<&str>::new());
}

#[test]
fn volume_zero_is_silent() {
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene()).unwrap_or_else(|e| panic!("{e}"));
    ed.call_tool("set_volume", &json!({ "trackId": "t-audio", "elementId": "music", "volume": 0 })).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(ids(&plan(&ed, 0.0, 20.0, 0.5)), ["hid", "v1", "quietest"]);
}

#[test]
fn a_keyframed_volume_is_sampled_every_step() {
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene()).unwrap_or_else(|e| panic!("{e}"));
    for (time, value) in [(0.0, -60.0), (2.0, 0.0)] {
        let out = ed.call_tool("upsert_keyframe", &json!({ "elementId": "music", "property": "volume", "time": time, "value": value }));
        out.unwrap_or_else(|e| panic!("{e:?}"));
    }
    let p = plan(&ed, 0.0, 10.0, 0.5);
    let music = p.clips.iter().find(|c| c.element_id == "music").expect("music sounds");
    assert_eq!(music.gains_from, 1.0);
    // Linear in dB from -60 (gain 0.001) at 1 s to 0 at 3 s, then held: 1 s to 6 s every 0.5 s.
    assert_eq!(music.gains.len(), 11);
    assert_eq!(music.gains[0], 0.001);
    assert!((music.gains[2] - 10f64.powf(-30.0 / 20.0)).abs() < 1e-9, "{:?}", music.gains);
    assert!(music.gains[4..].iter().all(|g| (g - 1.0).abs() < 1e-9), "{:?}", music.gains);
}

#[test]
fn bad_spans_are_errors_and_an_empty_project_is_silent() {
    let ed = Editor::new();
    assert_eq!(plan(&ed, 0.0, 1.0, 0.1).clips, []);
    for (a, b, s) in [(1.0, 0.0, 0.1), (0.0, f64::NAN, 0.1), (0.0, 1.0, 0.0), (-1.0, 1.0, 0.1), (0.0, f64::INFINITY, 0.1)] {
        assert!(ed.audio_plan(a, b, s).is_err(), "{a} {b} {s}");
    }
}
