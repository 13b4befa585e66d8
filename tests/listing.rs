//! list_timeline's hand-written JSON text (src/tools/listing.rs) against serde_json and against
//! the saved project, on random timelines: any tick (not only whole milliseconds), ids and names
//! that need escaping, trims and volumes. The text must parse, be byte for byte what serde_json
//! writes for the same value, and state each element's times as its ticks / 120 000 exactly.

use neuralcut::Editor;
use proptest::prelude::*;
use serde_json::{json, Value};

const TICKS: f64 = 120_000.0;

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9 ._-]{1,12}",
        // Quotes, backslashes, control characters, non-ASCII and astral characters.
        prop::collection::vec(prop::sample::select(vec!["\"", "\\", "\n", "\t", "\u{1}", "\u{1f}", "é", "日本", "🎬", "a", " ", "/"]), 1..8)
            .prop_map(|parts| parts.concat()),
    ]
}

/// One element on a track of its kind: (kind, gap before it, duration, trim start, name, volume).
fn element() -> impl Strategy<Value = (usize, i64, i64, i64, Option<String>, Option<f64>)> {
    (
        0usize..4,
        prop_oneof![Just(0i64), 1i64..1_000, 1i64..10_000_000],
        prop_oneof![1i64..1_000, 1i64..2_000_000, (1i64..200).prop_map(|s| s * 120_000)],
        prop_oneof![Just(0i64), 1i64..5_000_000],
        prop::option::of(name()),
        prop::option::of(prop_oneof![Just(0.0), Just(1.0), 0.0f64..1.0]),
    )
}

/// A project with an overlay, a text, an audio and the main track, holding `elements` in order.
#[allow(clippy::type_complexity)] // (track, start, duration, trim, name, volume): a fixture row
fn project(elements: &[(usize, i64, i64, i64, Option<String>, Option<f64>)], track_name: &str) -> Value {
    let mut tracks = vec![
        json!({ "id": "t1", "type": "overlay", "name": track_name, "elements": [] }),
        json!({ "id": "t2", "type": "text", "elements": [] }),
        json!({ "id": "t3", "type": "main", "elements": [] }),
        json!({ "id": "t4", "type": "audio", "elements": [] }),
    ];
    let mut ends = [0i64; 4];
    for (n, (kind, gap, duration, trim, name, volume)) in elements.iter().enumerate() {
        let start = ends[*kind] + gap;
        ends[*kind] = start + duration;
        let mut e = json!({ "id": format!("e{}", 100 + n), "start": start, "duration": duration });
        match kind {
            0 => {
                e["type"] = json!("image");
                e["assetId"] = json!("a2");
            }
            1 => {
                e["type"] = json!("text");
                e["content"] = json!(name.clone().unwrap_or_default());
            }
            2 | 3 => {
                e["type"] = json!(if *kind == 2 { "video" } else { "audio" });
                e["assetId"] = json!(if *kind == 2 { "a1" } else { "a3" });
                e["trimStart"] = json!(trim);
                if let Some(v) = volume {
                    e["volume"] = json!(v);
                }
            }
            _ => unreachable!(),
        }
        if let Some(n) = name {
            e["name"] = json!(n);
        }
        tracks[*kind].as_object_mut().unwrap()["elements"].as_array_mut().unwrap().push(e);
    }
    json!({
        "format": "neuralcut-project",
        "version": 1,
        "assets": [
            { "id": "a1", "name": "v.mp4", "type": "video" },
            { "id": "a2", "name": "i.png", "type": "image" },
            { "id": "a3", "name": "s.wav", "type": "audio" }
        ],
        "timeline": { "tracks": tracks }
    })
}

proptest! {
    // PROPTEST_CASES lowers the count for the mutation-testing run (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(128), ..ProptestConfig::default() })]

    #[test]
    fn listing_is_serde_json_text_of_the_saved_times(elements in prop::collection::vec(element(), 0..24), track_name in name()) {
        let p = project(&elements, &track_name);
        let mut ed = Editor::from_json(&p.to_string()).unwrap_or_else(|e| panic!("{e}: {p}"));
        let text = ed.call_tool_json("list_timeline", "{}");
        let listed: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        prop_assert_eq!(&serde_json::to_string(&listed).unwrap(), &text, "not what serde_json writes");
        // A second listing (from the cache) is the same text.
        prop_assert_eq!(&ed.call_tool_json("list_timeline", "{}"), &text);

        let saved: Value = serde_json::from_str(&ed.project_json().unwrap()).unwrap();
        let saved_tracks = saved["timeline"]["tracks"].as_array().unwrap();
        let listed_tracks = listed["tracks"].as_array().unwrap();
        prop_assert_eq!(listed_tracks.len(), saved_tracks.len());
        let mut end = 0i64;
        for (lt, st) in listed_tracks.iter().zip(saved_tracks) {
            prop_assert_eq!(&lt["trackId"], &st["id"]);
            prop_assert_eq!(&lt["type"], &st["type"]);
            prop_assert_eq!(lt.get("name"), st.get("name"));
            let (le, se) = (lt["elements"].as_array().unwrap(), st["elements"].as_array().unwrap());
            prop_assert_eq!(le.len(), se.len());
            for (l, s) in le.iter().zip(se) {
                let (start, duration) = (s["start"].as_i64().unwrap(), s["duration"].as_i64().unwrap());
                end = end.max(start + duration);
                prop_assert_eq!(&l["elementId"], &s["id"]);
                prop_assert_eq!(&l["type"], &s["type"]);
                prop_assert_eq!(l.get("name"), s.get("name"));
                prop_assert_eq!(l.get("assetId"), s.get("assetId"));
                prop_assert_eq!(l["start"].as_f64().unwrap(), start as f64 / TICKS, "start of {}", s);
                prop_assert_eq!(l["end"].as_f64().unwrap(), (start + duration) as f64 / TICKS, "end of {}", s);
                prop_assert_eq!(l["duration"].as_f64().unwrap(), duration as f64 / TICKS, "duration of {}", s);
                let trim = s.get("trimStart").and_then(Value::as_i64).unwrap_or(0);
                match l.get("trimStart") {
                    Some(t) => prop_assert_eq!(t.as_f64().unwrap(), trim as f64 / TICKS),
                    None => prop_assert_eq!(trim, 0, "a trim start is listed unless it is 0"),
                }
                if s["type"] == "text" {
                    prop_assert_eq!(&l["text"], &s["content"]);
                }
                if let Some(v) = s.get("volume").and_then(Value::as_f64) {
                    match l.get("volume") {
                        Some(lv) => prop_assert_eq!(lv.as_f64().unwrap(), v),
                        None => prop_assert_eq!(v, 1.0, "a volume is listed unless it is 1"),
                    }
                }
            }
        }
        prop_assert_eq!(listed["duration"].as_f64().unwrap(), end as f64 / TICKS);
    }
}

#[test]
fn whole_and_fractional_seconds_are_written_as_serde_json_writes_them() {
    // One element per interesting tick count: whole seconds, multiples of 3 ticks (exact
    // millionths), other ticks (shortest round-trip text), and beyond 10 000 s.
    let ticks = [1i64, 2, 3, 40, 120, 1_200, 12_000, 119_999, 120_000, 120_003, 1_199_997_000, 1_200_000_000, 1_200_000_001, 3_600_000_000_000];
    let mut start = 0i64;
    let mut elements = Vec::new();
    for (i, d) in ticks.iter().enumerate() {
        elements.push(json!({ "id": format!("e{}", 10 + i), "type": "image", "assetId": "a2", "start": start, "duration": d }));
        start += d;
    }
    let p = json!({
        "format": "neuralcut-project", "version": 1,
        "assets": [{ "id": "a2", "name": "i.png", "type": "image" }],
        "timeline": { "tracks": [{ "id": "t1", "type": "main", "elements": elements }] }
    });
    let mut ed = Editor::from_json(&p.to_string()).unwrap();
    let text = ed.call_tool_json("list_timeline", "{}");
    let listed: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&listed).unwrap(), text);
    let els = listed["tracks"][0]["elements"].as_array().unwrap();
    let mut start = 0i64;
    for (e, d) in els.iter().zip(ticks) {
        assert_eq!(e["start"].as_f64().unwrap(), start as f64 / TICKS);
        assert_eq!(e["duration"].as_f64().unwrap(), d as f64 / TICKS, "{e}");
        start += d;
    }
    // Written out (an image entry ends after its duration): 3 ticks, 1 s, 1.000025 s, 10 000 s
    // less 0.025 s, 30 000 000 s.
    assert!(text.contains(r#""duration":0.000025}"#), "{text}");
    assert!(text.contains(r#""duration":1}"#), "{text}");
    assert!(text.contains(r#""duration":1.000025}"#), "{text}");
    assert!(text.contains(r#""duration":9999.975}"#), "{text}");
    assert!(text.contains(r#""duration":30000000}"#), "{text}");
}
