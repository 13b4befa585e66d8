//! upsert_keyframe (Add or change keyframe): its definition, argument and result types, and run function.

use super::*;
use crate::text::Num;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "upsert_keyframe",
    title: text!("Add or change keyframe"),
    summary: text!("Set a {property} keyframe at {time:time}"),
    description: text!("Set a property's value at a time (seconds from the element's start, 0 to its duration); between keyframes the value moves smoothly (interpolation linear, the default; hold jumps at the next keyframe; bezier eases, see update_keyframe_curve). A keyframe already at that time takes the new value. A fade in over 0.5 s is two calls: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0,\"value\":0} then {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0.5,\"value\":1}. Colours take #rrggbb. Properties and ranges: list_animatable_properties."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Property \"<p>\" cannot be animated on <type> element; animatable: <list>", "Property \"<p>\" cannot be animated: <type> elements have no animatable properties", "Keyframe time must be from 0 to <duration> (seconds from the element's start)", "Property \"<p>\" must be <range>"]),
    example: text!(r#"{"elementId":"e7","property":"opacity","time":0,"value":0}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element id or ref from list_timeline
        element_id: Arg<NonEmpty>,
        /// Property path from list_animatable_properties, such as opacity or transform.positionX
        property: Arg<NonEmpty>,
        /// Seconds from the element's start (0 to its duration)
        #[schemars(range(min = 0))]
        time: Arg<f64>,
        /// The value there, in the property's unit; colours as #rrggbb
        value: Arg<NumberOrText>,
        /// How the value moves to the next keyframe (default linear)
        interpolation: Arg<Option<Choice<Interpolations>>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        element_id: String,
        property: String,
        keyframe: AnyObject,
        keyframes: AnyArray,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.element_id.id(ToolError::invalid_element_id)?;
    let path = property_arg(&args.property)?;
    let interp = args.interpolation.choice("interpolation")?;
    let (ti, ei, e) = find(ctx.timeline()?, id)?;
    let prop = properties::animatable_of(e, path).ok_or_else(|| not_animatable(e, path))?;
    let time = key_time(args.time.read().ok(), e)?;
    let range = match (prop.min, prop.max) {
        (Some(a), Some(b)) => format!("a number from {} to {} ({})", Num(a), Num(b), prop.unit),
        (Some(a), None) => format!("a number >= {} ({})", Num(a), prop.unit),
        _ => format!("a number ({})", prop.unit),
    };
    let out_of_range = |what: &str| ToolError::new(ErrorCode::PropertyOutOfRange, format!("Property \"{path}\" must be {what}")).with("property", path);
    let mut e = e.clone();
    let mut anims = e.animations.take().unwrap_or_default();
    let ids = &mut ctx.ids;
    let mut new_id = || ids.next('k');
    let key_id = match prop.kind {
        PropertyKind::Number => {
            let v = args
                .value
                .get()
                .and_then(Value::as_f64)
                .filter(|v| v.is_finite() && prop.min.is_none_or(|m| *v >= m) && prop.max.is_none_or(|m| *v <= m))
                .ok_or_else(|| out_of_range(&range))?;
            let data = anims.get_or_insert_with(path, || Animation::Channel(Channel::new()));
            if !matches!(data, Animation::Channel(_)) {
                *data = Animation::Channel(Channel::new());
            }
            let Animation::Channel(channel) = data else { unreachable!("made a channel above") };
            upsert_scalar(channel, time, v, interp, &mut new_id)
        }
        PropertyKind::Text | PropertyKind::Flag => return Err(not_animatable(&e, path)),
        PropertyKind::Color => {
            let text = args.value.get().and_then(Value::as_str).unwrap_or("");
            let rgba = animation::parse_color(text).ok_or_else(|| out_of_range("a colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a)"))?;
            let data = anims.get_or_insert_with(path, || Animation::Group(Vec::new()));
            if !COMPONENTS.iter().all(|c| data.part(c).is_some()) {
                *data = Animation::Group(COMPONENTS.iter().map(|c| (c.to_string(), Animation::Channel(Channel::new()))).collect());
            }
            let mut first = String::new();
            for (i, c) in COMPONENTS.iter().enumerate() {
                let channel = data.part_mut(c).expect("made above");
                let kid = upsert_scalar(channel, time, rgba[i], interp, &mut new_id);
                if i == 0 {
                    first = kid;
                }
            }
            first
        }
    };
    e.animations = Some(anims);
    let keys = path_keys(&e, path, e.animations.as_ref().and_then(|a| a.get(path)).expect("set above"));
    let tl = timeline_mut(&mut ctx.timeline)?;
    let element_id = e.id.clone();
    tl.track_mut(ti).elements[ei] = std::sync::Arc::new(e);
    let key = keys.iter().find(|k| k["keyframeId"] == key_id.as_str()).cloned().unwrap_or(Value::Null);
    Ok(crate::text::obj([
        ("success", serde_json::Value::from(true)),
        ("elementId", serde_json::Value::from(element_id.as_str())),
        ("property", serde_json::Value::from(path)),
        ("keyframe", key),
        ("keyframes", serde_json::Value::from(keys)),
    ])
    .into())
}
