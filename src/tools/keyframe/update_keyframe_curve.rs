//! update_keyframe_curve (Update keyframe curve): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;
use serde_json::Number;

pub static DEF: ToolDef = ToolDef {
    name: "update_keyframe_curve",
    title: text!("Update keyframe curve"),
    summary: text!("Change the {property} curve[ at {time:time}]"),
    description: text!("Shape how a property moves from one keyframe (keyframeId or time) to the next: easing ease-in, ease-out, ease-in-out or linear (the simple way); or interpolation (linear, hold, bezier) and bezier handles rightHandle (towards the next keyframe) and leftHandle (from the previous one), each {dt: seconds, dv: value change}. Example: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0,\"easing\":\"ease-out\"}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Keyframe not found: <id>", "update_keyframe_curve needs interpolation, easing, rightHandle or leftHandle", "The keyframe at <t>s is the last of <property>: easing and rightHandle shape the curve to the next keyframe"]),
    example: text!(r#"{"elementId":"e7","property":"opacity","time":0,"easing":"ease-out"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element id or ref from list_timeline
        element_id: Arg<NonEmpty>,
        /// Property path
        property: Arg<NonEmpty>,
        /// Keyframe id from list_keyframes
        keyframe_id: Arg<Option<NonEmpty>>,
        /// Or the keyframe's time, seconds from the element's start
        #[schemars(range(min = 0))]
        time: Arg<Option<f64>>,
        /// How the value moves to the next keyframe
        interpolation: Arg<Option<Choice<Interpolations>>>,
        /// A ready-made curve to the next keyframe
        easing: Arg<Option<Choice<Easings>>>,
        /// Bezier handle towards the next keyframe (dt 0 to the gap)
        right_handle: Arg<Option<Handle>>,
        /// Bezier handle from the previous keyframe (dt minus the gap to 0)
        left_handle: Arg<Option<Handle>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        element_id: String,
        property: String,
        keyframes: AnyArray,
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Handle {
    /// Seconds
    dt: f64,
    /// Value change
    dv: f64,
}

// Parsed by `handle_arg`, part by part; `read` checks only that it is an object.
impl Read for Handle {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        v.is_object().then_some(v)
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let interp = args.interpolation.choice("interpolation")?;
    let easing = args.easing.choice("easing")?;
    let (right, left) = (handle_arg(args.right_handle.get(), "rightHandle")?, handle_arg(args.left_handle.get(), "leftHandle")?);
    if interp.is_none() && easing.is_none() && right.is_none() && left.is_none() {
        return Err(ToolError::new(ErrorCode::NoCurveChange, "update_keyframe_curve needs interpolation, easing, rightHandle or leftHandle"));
    }
    let (ti, ei, e, path, time) =
        target_key(ctx, KeyArgs { element_id: &args.element_id, property: &args.property, keyframe_id: &args.keyframe_id, time: &args.time })?;
    let mut e = e.clone();
    let mut anims = e.animations.take().unwrap_or_default();
    let data = anims.get_mut(&path).expect("the key was found in it");
    let mut no_next = false;
    let mut no_prev = false;
    for_keys_at(data, time, &mut |list, i| {
        let next_time = list.get(i + 1).and_then(Key::ticks);
        let prev_time = i.checked_sub(1).and_then(|p| list[p].ticks());
        if let Some(ease) = easing {
            let Some(next) = next_time else {
                no_next = true;
                return;
            };
            let span = (next - time) as f64;
            // CSS's cubic-bezier control points, as OpenCut handles: flat (dv 0) at an eased end.
            // "linear" has none: its segment is straight and takes no handles.
            let curve = match ease {
                "ease-in" => Some((0.42, 1.0)),
                "ease-out" => Some((0.0, 0.58)),
                "ease-in-out" => Some((0.42, 0.58)),
                _ => None,
            };
            match curve {
                None => {
                    list[i].set_segment(Segment::Linear);
                    list[i].set_handle(Side::Right, None);
                    list[i + 1].set_handle(Side::Left, None);
                }
                Some((out_x, in_x)) => {
                    // Handle times in ticks; flat, so no value change.
                    list[i].set_segment(Segment::Bezier);
                    list[i].set_handle_numbers(Side::Right, Some(Number::from((out_x * span).round() as i64)), Some(Number::from(0)));
                    list[i + 1].set_handle_numbers(Side::Left, Some(Number::from(-((1.0 - in_x) * span).round() as i64)), Some(Number::from(0)));
                }
            }
        }
        if let Some(i_) = interp {
            list[i].set_segment(segment(i_));
        }
        if let Some((dt, dv)) = right {
            match next_time {
                Some(next) => {
                    list[i].set_handle_numbers(Side::Right, Some(Number::from(clamp(dt, 0.0, (next - time) as f64).round() as i64)), animation::number(dv))
                }
                None => no_next = true,
            }
        }
        if let Some((dt, dv)) = left {
            match prev_time {
                Some(prev) => {
                    list[i].set_handle_numbers(Side::Left, Some(Number::from(clamp(dt, -((time - prev) as f64), 0.0).round() as i64)), animation::number(dv))
                }
                None => no_prev = true,
            }
        }
    });
    if no_next {
        return Err(ToolError::new(
            ErrorCode::NoNextKeyframe,
            format!(
                "The keyframe at {}s is the last of {path}: easing and rightHandle shape the curve to the next keyframe",
                crate::text::json(&seconds(time))
            ),
        ));
    }
    if no_prev {
        return Err(ToolError::new(
            ErrorCode::NoPreviousKeyframe,
            format!("The keyframe at {}s is the first of {path}: leftHandle shapes the curve from the previous keyframe", crate::text::json(&seconds(time))),
        ));
    }
    e.animations = Some(anims);
    let keys = path_keys(&e, &path, e.animations.as_ref().and_then(|a| a.get(&path)).expect("set above"));
    let element_id = e.id.clone();
    timeline_mut(&mut ctx.timeline)?.track_mut(ti).elements[ei] = std::sync::Arc::new(e);
    Ok(crate::text::obj([
        ("success", serde_json::Value::from(true)),
        ("elementId", serde_json::Value::from(element_id.as_str())),
        ("property", serde_json::Value::from(path)),
        ("keyframes", serde_json::Value::from(keys)),
    ])
    .into())
}

/// `v.clamp(lo, hi)` without its `lo <= hi` assertion (the keys are in time order, so it holds),
/// whose message would keep core's float printing in the engine wasm.
fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}
