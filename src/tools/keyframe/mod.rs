//! Keyframe tools: list_animatable_properties, list_keyframes, upsert_keyframe, remove_keyframe,
//! update_keyframe_curve. They edit `element.animations` exactly as OpenCut's
//! animation/keyframes.ts does (keys sorted by time, a key at the same time is replaced, a
//! channel left without keys is removed); [`crate::animation::value_at`] evaluates the result.

pub mod list_animatable_properties;
pub mod list_keyframes;
pub mod remove_keyframe;
pub mod update_keyframe_curve;
pub mod upsert_keyframe;

use crate::error_code::ErrorCode;
use serde_json::{json, Value};

use super::args::NonEmpty;
use super::element::find;
use super::{seconds, timeline_mut, Arg, Ctx, Output, ToolError};
use crate::animation::{self, Animation, Channel, Handle, Key, KeyValue, Segment, Side};
use crate::model::Element;
use crate::properties::{self, PropertyKind};
use crate::time::seconds_to_ticks;

const COMPONENTS: [&str; 4] = ["r", "g", "b", "a"];
pub const INTERPOLATIONS: [&str; 3] = ["linear", "hold", "bezier"];
pub const EASINGS: [&str; 4] = ["linear", "ease-in", "ease-out", "ease-in-out"];

crate::tools::args::choices! {
    Interpolations = INTERPOLATIONS;
    Easings = EASINGS;
}

/// OpenCut's `segmentToNext` for an interpolation, and back.
fn segment(interpolation: &str) -> Segment {
    match interpolation {
        "hold" => Segment::Step,
        "bezier" => Segment::Bezier,
        _ => Segment::Linear,
    }
}

fn interpolation(key: &Key) -> &'static str {
    match key.segment() {
        Some(Segment::Step) => "hold",
        Some(Segment::Bezier) => "bezier",
        Some(Segment::Linear) => "linear",
        None => "hold",
    }
}

fn not_animatable(e: &Element, property: &str) -> ToolError {
    let list: Vec<&str> = properties::animatable(e).iter().map(|p| p.path).collect();
    let message = if list.is_empty() {
        format!("Property \"{property}\" cannot be animated: {} elements have no animatable properties", e.kind.as_str())
    } else {
        format!("Property \"{property}\" cannot be animated on {} element; animatable: {}", e.kind.as_str(), list.join(", "))
    };
    ToolError::new(ErrorCode::PropertyNotAnimatable, message).with("property", property).with("animatable", list)
}

fn keyframe_not_found(id: &str) -> ToolError {
    ToolError::new(ErrorCode::KeyframeNotFound, format!("Keyframe not found: {id}")).with_hint("Call list_keyframes to get keyframe ids.")
}

fn property_arg(property: &Arg<NonEmpty>) -> Result<&str, ToolError> {
    property.id(|| ToolError::invalid_argument("property", "a property path from list_animatable_properties, such as opacity"))
}

/// The keys of one animated path as the tools show them: id, time in seconds from the element's
/// start, value (a colour composed from its channels), interpolation to the next key.
fn path_keys(e: &Element, path: &str, data: &Animation) -> Vec<Value> {
    let id = |k: &Key| k.id().map_or(Value::Null, Value::from);
    if let Animation::Channel(c) = data {
        return c
            .keys()
            .iter()
            .map(|k| {
                let ticks = k.ticks().unwrap_or(0);
                let mut o = crate::text::obj([
                    ("keyframeId", id(k)),
                    ("time", seconds(ticks)),
                    ("value", k.value().map_or(Value::Null, KeyValue::to_value)),
                    ("interpolation", serde_json::Value::from(interpolation(k))),
                ]);
                for (name, side) in [("leftHandle", Side::Left), ("rightHandle", Side::Right)] {
                    if let Some((dt, dv)) = k.handle(side).and_then(Handle::get) {
                        o[name] = crate::text::obj([("dt", seconds(dt.round() as i64)), ("dv", crate::effects::number(dv))]);
                    }
                }
                o
            })
            .collect();
    }
    // A colour: one key per time of its red channel, the value composed from all four.
    let Some(red) = data.part("r") else { return Vec::new() };
    red.keys()
        .iter()
        .map(|k| {
            let ticks = k.ticks().unwrap_or(0);
            crate::text::obj([
                ("keyframeId", id(k)),
                ("time", seconds(ticks)),
                ("value", animation::value_at(e, path, ticks).unwrap_or(Value::Null)),
                ("interpolation", serde_json::Value::from(interpolation(k))),
            ])
        })
        .collect()
}

/// Every animated path of the element with its keys (get_element and list_keyframes).
pub fn summary(e: &Element) -> Value {
    let Some(anims) = &e.animations else { return json!([]) };
    Value::Array(
        anims
            .iter()
            .filter(|(path, _)| !matches!(*path, "bindings" | "channels"))
            .map(|(path, data)| {
                crate::text::obj([("property", serde_json::Value::from(path)), ("keyframes", serde_json::Value::from(path_keys(e, path, data)))])
            })
            .collect(),
    )
}

/// A time in seconds from the element's start, within its length.
fn key_time(time: Option<f64>, e: &Element) -> Result<i64, ToolError> {
    let bad = || {
        ToolError::new(
            ErrorCode::InvalidKeyframeTime,
            format!("Keyframe time must be from 0 to {} (seconds from the element's start)", crate::text::json(&seconds(e.duration))),
        )
        .with_hint("Keyframe times are relative to the element: 0 is its first frame.")
    };
    match time.and_then(seconds_to_ticks) {
        Some(t) if (0..=e.duration).contains(&t) => Ok(t),
        _ => Err(bad()),
    }
}

/// Upserts one scalar key into `channel` as OpenCut's `upsertScalarChannelKey` does: a key at the
/// same time takes the new value (and the interpolation when given), else a new key is added;
/// keys stay sorted by time. Returns the key's id.
fn upsert_scalar(channel: &mut Channel, time: i64, value: f64, interp: Option<&str>, new_id: &mut dyn FnMut() -> String) -> String {
    let list = channel.keys_mut();
    let id = match list.iter_mut().find(|k| k.ticks() == Some(time)) {
        Some(k) => {
            k.set_value(KeyValue::number(value));
            if let Some(i) = interp {
                k.set_segment(segment(i));
            }
            if k.segment().is_none() {
                k.set_segment(Segment::Linear);
            }
            if !k.has_tangent() {
                k.set_tangent("flat");
            }
            k.id().unwrap_or_default().to_string()
        }
        None => {
            let id = new_id();
            let mut k = Key::new(&id, time as f64, KeyValue::number(value));
            k.set_segment(segment(interp.unwrap_or("linear")));
            k.set_tangent("flat");
            list.push(k);
            id
        }
    };
    crate::sort::stable_sort_by_key(list, (|k| k.ticks().unwrap_or(0)) as fn(&Key) -> i64);
    id
}

/// The time of the key `key_id` (or of the key at `time`) in an animated path (a colour's four
/// channels in turn).
fn locate_key(data: &Animation, key_id: Option<&str>, time: Option<i64>) -> Option<i64> {
    let found = |c: &Channel| {
        c.keys().iter().find_map(|k| {
            let t = k.ticks()?;
            let hit = match key_id {
                Some(id) => k.id() == Some(id),
                None => Some(t) == time,
            };
            hit.then_some(t)
        })
    };
    match data {
        Animation::Channel(c) => found(c),
        _ => COMPONENTS.iter().find_map(|name| data.part(name).and_then(found)),
    }
}

/// Applies `f` to every key at `time` of a path (all four channels of a colour).
fn for_keys_at(data: &mut Animation, time: i64, f: &mut dyn FnMut(&mut Vec<Key>, usize)) {
    let mut apply = |channel: &mut Channel| {
        if let Some(list) = channel.keys_in_place() {
            if let Some(i) = list.iter().position(|k| k.ticks() == Some(time)) {
                f(list, i);
            }
        }
    };
    if let Animation::Channel(c) = data {
        apply(c);
    } else {
        for c in COMPONENTS {
            if let Some(ch) = data.part_mut(c) {
                apply(ch);
            }
        }
    }
}

/// The arguments that name one keyframe (remove_keyframe, update_keyframe_curve).
struct KeyArgs<'a> {
    element_id: &'a Arg<NonEmpty>,
    property: &'a Arg<NonEmpty>,
    keyframe_id: &'a Arg<Option<NonEmpty>>,
    time: &'a Arg<Option<f64>>,
}

/// The element, its animated path, and the time of the key the call names.
fn target_key<'a>(ctx: &'a Ctx, args: KeyArgs) -> Result<(usize, usize, &'a Element, String, i64), ToolError> {
    let id = args.element_id.id(ToolError::invalid_element_id)?;
    let path = property_arg(args.property)?;
    let (ti, ei, e) = find(ctx.timeline()?, id)?;
    if properties::animatable_of(e, path).is_none() && !e.animations.as_ref().is_some_and(|a| a.contains(path)) {
        return Err(not_animatable(e, path));
    }
    let key_id = args.keyframe_id.string("keyframeId")?;
    let time = match args.time.read() {
        Ok(None) => None,
        t => Some(key_time(t.ok().flatten(), e)?),
    };
    let (key_id, time) = match (key_id, time) {
        (Some(k), None) => (Some(k), None),
        (None, Some(t)) => (None, Some(t)),
        _ => {
            return Err(ToolError::new(
                ErrorCode::InvalidKeyframe,
                "Give exactly one of keyframeId (from list_keyframes) or time (seconds from the element's start)",
            ))
        }
    };
    let data = e.animations.as_ref().and_then(|a| a.get(path));
    let found = data.and_then(|d| locate_key(d, key_id, time));
    let t = found.ok_or_else(|| match key_id {
        Some(k) => keyframe_not_found(k),
        None => keyframe_not_found(&format!("{path} at {}s", crate::text::json(&seconds(time.unwrap_or(0))))),
    })?;
    Ok((ti, ei, e, path.to_string(), t))
}

/// A handle argument `{dt, dv}`: dt in seconds, dv in the property's unit.
fn handle_arg(arg: Option<&Value>, key: &str) -> Result<Option<(f64, f64)>, ToolError> {
    let bad = || ToolError::invalid_argument(key, "{\"dt\": seconds, \"dv\": value change}");
    match arg {
        None => Ok(None),
        Some(Value::Object(o)) if o.keys().all(|k| k == "dt" || k == "dv") => {
            let dt = o.get("dt").and_then(Value::as_f64).filter(|v| v.is_finite()).ok_or_else(bad)?;
            let dv = o.get("dv").and_then(Value::as_f64).filter(|v| v.is_finite()).ok_or_else(bad)?;
            Ok(Some((dt * crate::TICKS_PER_SECOND as f64, dv)))
        }
        Some(_) => Err(bad()),
    }
}
