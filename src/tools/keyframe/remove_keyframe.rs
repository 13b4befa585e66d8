//! remove_keyframe (Remove keyframe): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "remove_keyframe",
    title: text!("Remove keyframe"),
    summary: text!("Remove a {property} keyframe[ at {time:time}]"),
    description: text!("Remove one keyframe of a property, named by keyframeId (from list_keyframes) or by its time (seconds from the element's start). A property left with no keyframes goes back to its plain value. Example: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: Annotations { read_only: false, destructive: true, idempotent: false, open_world: false, untrusted_content: false },
    errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Property \"<p>\" cannot be animated on <type> element; animatable: <list>", "Property \"<p>\" cannot be animated: <type> elements have no animatable properties", "Keyframe not found: <id>", "Give exactly one of keyframeId (from list_keyframes) or time (seconds from the element's start)"]),
    example: text!(r#"{"elementId":"e7","property":"opacity","time":0}"#),
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
    }
}

returns! {
    pub struct Returns {
        success: bool,
        element_id: String,
        property: String,
        removed_time: f64,
        keyframes: AnyArray,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let (ti, ei, e, path, time) =
        target_key(ctx, KeyArgs { element_id: &args.element_id, property: &args.property, keyframe_id: &args.keyframe_id, time: &args.time })?;
    let mut e = e.clone();
    let mut anims = e.animations.take().unwrap_or_default();
    let data = anims.get_mut(&path).expect("the key was found in it");
    for_keys_at(data, time, &mut |list, i| {
        list.remove(i);
    });
    // OpenCut drops a channel with no keys left (and a colour with any channel empty).
    let gone = match data {
        Animation::Channel(c) => c.keys().is_empty(),
        _ => COMPONENTS.iter().any(|c| data.part(c).is_none_or(|ch| ch.keys().is_empty())),
    };
    if gone {
        anims.remove(&path);
    }
    e.animations = if anims.is_empty() { None } else { Some(anims) };
    let keys = e.animations.as_ref().and_then(|a| a.get(&path)).map(|d| path_keys(&e, &path, d)).unwrap_or_default();
    let element_id = e.id.clone();
    timeline_mut(&mut ctx.timeline)?.track_mut(ti).elements[ei] = std::sync::Arc::new(e);
    Ok(crate::text::obj([
        ("success", serde_json::Value::from(true)),
        ("elementId", serde_json::Value::from(element_id.as_str())),
        ("property", serde_json::Value::from(path)),
        ("removedTime", seconds(time)),
        ("keyframes", serde_json::Value::from(keys)),
    ])
    .into())
}
