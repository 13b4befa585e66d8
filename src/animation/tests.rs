//! The evaluator and the cuts against hand-computed values.

use super::*;
use crate::model::ElementType;
use serde_json::{json, Map};

fn clip(animations: Value) -> Element {
    let mut e = Element::new("e1".into(), ElementType::Video, 0, 120_000);
    e.animations = animations.as_object().cloned().map(Animations::from_json);
    e
}

fn at(e: &Element, path: &str, t: i64) -> f64 {
    value_at(e, path, t).and_then(|v| v.as_f64()).unwrap()
}

fn key(id: &str, time: i64, value: f64, seg: &str) -> Value {
    json!({ "id": id, "time": time, "value": value, "segmentToNext": seg, "tangentMode": "flat" })
}

#[test]
fn unanimated_values_are_the_element_s_own_or_opencut_defaults() {
    let mut e = clip(json!({}));
    assert_eq!(value_at(&e, "opacity", 0), Some(json!(1)));
    e.opacity = Some(0.5);
    assert_eq!(value_at(&e, "opacity", 50), Some(json!(0.5)));
    assert_eq!(value_at(&e, "volume", 0), Some(json!(0)));
    assert_eq!(value_at(&e, "color", 0), None, "video has no colour");
    assert_eq!(value_at(&e, "nope", 0), None);
}

#[test]
fn linear_fade_in_and_hold_outside_the_keys() {
    let e = clip(json!({ "opacity": { "keys": [key("a", 0, 0.0, "linear"), key("b", 60_000, 1.0, "linear")] } }));
    assert_eq!(at(&e, "opacity", 0), 0.0);
    assert_eq!(at(&e, "opacity", 30_000), 0.5);
    assert_eq!(at(&e, "opacity", 60_000), 1.0);
    assert_eq!(at(&e, "opacity", 90_000), 1.0, "hold after the last key");
    assert_eq!(at(&e, "opacity", -5), 0.0, "local time is clamped at 0");
}

#[test]
fn number_at_reads_numbers_only() {
    let e = clip(json!({ "opacity": { "keys": [key("a", 0, 0.0, "linear"), key("b", 100, 1.0, "linear")] } }));
    assert_eq!(number_at(&e, "opacity", 50), Some(0.5));
    assert_eq!(number_at(&e, "color", 50), None);
}

#[test]
fn keys_out_of_order_are_sorted() {
    let e = clip(json!({ "opacity": { "keys": [key("b", 60_000, 1.0, "linear"), key("a", 0, 0.0, "linear")] } }));
    assert_eq!(at(&e, "opacity", 15_000), 0.25);
}

#[test]
fn step_segments_hold_the_left_value() {
    let e = clip(json!({ "transform.rotate": { "keys": [key("a", 0, 10.0, "step"), key("b", 100, 90.0, "linear")] } }));
    assert_eq!(at(&e, "transform.rotate", 99), 10.0);
    assert_eq!(at(&e, "transform.rotate", 100), 90.0);
}

#[test]
fn linear_extrapolation_follows_the_edge_segment() {
    let e = clip(json!({ "transform.positionX": {
        "keys": [key("a", 100, 0.0, "linear"), key("b", 200, 100.0, "linear")],
        "extrapolation": { "before": "linear", "after": "linear" } } }));
    assert_eq!(at(&e, "transform.positionX", 0), -100.0);
    assert_eq!(at(&e, "transform.positionX", 300), 200.0);
}

#[test]
fn bezier_with_default_handles_is_symmetric_and_eases() {
    let e = clip(json!({ "opacity": { "keys": [key("a", 0, 0.0, "bezier"), key("b", 1000, 1.0, "linear")] } }));
    // Default handles (a third of the segment, on the line) make the curve the straight line.
    assert!((at(&e, "opacity", 500) - 0.5).abs() < 1e-5);
    assert!((at(&e, "opacity", 250) - 0.25).abs() < 1e-4);
    // Flat handles (ease in-out): slower at the ends, the midpoint still halfway.
    let eased = clip(json!({ "opacity": { "keys": [
        { "id": "a", "time": 0, "value": 0, "segmentToNext": "bezier", "tangentMode": "flat", "rightHandle": { "dt": 420, "dv": 0 } },
        { "id": "b", "time": 1000, "value": 1, "segmentToNext": "linear", "tangentMode": "flat", "leftHandle": { "dt": -420, "dv": 0 } }
    ] } }));
    assert!((at(&eased, "opacity", 500) - 0.5).abs() < 1e-5);
    assert!(at(&eased, "opacity", 100) < 0.1);
    assert!(at(&eased, "opacity", 900) > 0.9);
}

#[test]
fn a_numeric_channel_without_scalar_marks_is_ignored() {
    let e = clip(json!({ "opacity": { "keys": [{ "id": "a", "time": 0, "value": 0.2 }] } }));
    assert_eq!(at(&e, "opacity", 0), 1.0);
}

#[test]
fn colours_interpolate_per_linear_channel() {
    let mut e = Element::new("t".into(), ElementType::Text, 0, 120_000);
    e.color = Some("#ffffff".into());
    let ch = |a: f64, b: f64| json!({ "keys": [key("x", 0, a, "linear"), key("y", 100, b, "linear")] });
    e.animations =
        json!({ "color": { "r": ch(1.0, 0.0), "g": ch(1.0, 0.0), "b": ch(1.0, 0.0), "a": ch(1.0, 1.0) } }).as_object().cloned().map(Animations::from_json);
    assert_eq!(value_at(&e, "color", 0), Some(json!("#ffffff")));
    assert_eq!(value_at(&e, "color", 100), Some(json!("#000000")));
    // Halfway in linear light is 0.5, which sRGB writes as 188 (0xbc).
    assert_eq!(value_at(&e, "color", 50), Some(json!("#bcbcbc")));
    e.animations =
        json!({ "color": { "r": ch(1.0, 1.0), "g": ch(0.0, 0.0), "b": ch(0.0, 0.0), "a": ch(1.0, 0.0) } }).as_object().cloned().map(Animations::from_json);
    assert_eq!(value_at(&e, "color", 50), Some(json!("#ff000080")));
}

#[test]
fn malformed_channels_split_without_panicking() {
    let mut n = 0;
    let mut id = || {
        n += 1;
        format!("k{n}")
    };
    let a = json!({
        "opacity": { "keys": [key("a", 0, 0.0, "linear"), { "id": "b", "time": 100, "value": "x", "segmentToNext": "linear" }] },
        "transform.rotate": { "keys": [{ "id": "c", "time": "soon", "value": 1 }] },
        "bad": 7,
        "color": { "r": 3, "g": { "keys": [] } },
    });
    let typed = || Animations::from_json(a.as_object().unwrap().clone());
    let (l, r) = split_animations(typed(), 50, &mut id);
    assert_eq!(l.unwrap().to_json()["opacity"]["keys"].as_array().unwrap().len(), 1, "no boundary key across a key without a number");
    assert_eq!(r.unwrap().to_json()["opacity"]["keys"].as_array().unwrap().len(), 1);
    assert_eq!(clamp_to_duration(typed(), 0, &mut id), None, "nothing is left of an empty element");
}

#[test]
fn colours_parse_and_format_round_trip() {
    for hex in ["#000000", "#ffffff", "#3366cc", "#12345678"] {
        assert_eq!(format_color(parse_color(hex).unwrap()), hex);
    }
    assert_eq!(format_color(parse_color("rgba(0,0,0,0.6)").unwrap()), "#00000099");
    assert_eq!(parse_color("#12"), None);
    assert_eq!(parse_color("red"), None);
}

#[test]
fn the_evaluator_reads_a_model_built_without_json() {
    let mut a = Key::new("a", 0.0, KeyValue::number(0.0));
    a.set_segment(Segment::Bezier);
    a.set_handle(Side::Right, Some((30.0, 0.0)));
    let mut b = Key::new("b", 90.0, KeyValue::number(1.0));
    b.set_handle(Side::Left, Some((-30.0, 0.0)));
    let mut e = clip(json!({}));
    e.animations = Some(Animations::from_paths(vec![("opacity".to_string(), Animation::Channel(Channel::with_keys(vec![a, b], None)))]));
    // Flat handles at both ends: a smoothstep-like ease, exactly 0.5 halfway by symmetry.
    assert!((at(&e, "opacity", 45) - 0.5).abs() < 1e-6);
    assert!(at(&e, "opacity", 10) < 0.1, "eases in");
    assert_eq!(
        serde_json::to_value(e.animations.as_ref().unwrap()).unwrap(),
        json!({ "opacity": { "keys": [
            { "id": "a", "time": 0, "value": 0, "segmentToNext": "bezier", "rightHandle": { "dt": 30, "dv": 0 } },
            { "id": "b", "time": 90, "value": 1, "leftHandle": { "dt": -30, "dv": 0 } }
        ] } })
    );
}

#[test]
fn the_project_json_comes_back_byte_identical() {
    let text = r#"{"opacity":{"keys":[{"id":"a","time":0,"value":1.0,"segmentToNext":"linear","tangentMode":"flat","extra":[1]},{"value":-0.5,"time":12.5,"id":"b"}],"extrapolation":null},"color":{"a":{"keys":[]},"r":7},"v29":"kept"}"#;
    let parsed: Animations = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&parsed).unwrap(), text);
    assert!(parsed.get("opacity").is_some_and(|c| matches!(c, Animation::Channel(c) if c.is_scalar())));
}

#[test]
fn edits_move_fields_as_a_json_map_does() {
    // The tools once edited serde_json maps (preserve_order); the model keeps their field order.
    let text = r#"{"id":"a","time":0,"value":1,"segmentToNext":"bezier","rightHandle":{"dt":5,"dv":1},"tangentMode":"auto","leftHandle":{"dt":-5,"dv":0}}"#;
    let mut map: Map<String, Value> = serde_json::from_str(text).unwrap();
    let anims = Animations::from_json(json!({ "p": { "keys": [map.clone()] } }).as_object().unwrap().clone());
    let Some(Animation::Channel(mut c)) = anims.into_paths().into_iter().next().map(|(_, a)| a) else { panic!("a channel") };
    let k = &mut c.keys_mut()[0];
    k.set_handle(Side::Right, None);
    map.remove("rightHandle");
    k.set_value(KeyValue::number(2.0));
    map.insert("value".into(), json!(2));
    k.set_tangent("flat");
    map.insert("tangentMode".into(), json!("flat"));
    k.set_handle(Side::Right, Some((3.0, 0.5)));
    map.insert("rightHandle".into(), json!({ "dt": 3, "dv": 0.5 }));
    let written = Animations::from_paths(vec![("p".to_string(), Animation::Channel(c))]).to_json();
    assert_eq!(serde_json::to_string(&written["p"]["keys"][0]).unwrap(), serde_json::to_string(&map).unwrap());
}
