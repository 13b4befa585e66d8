//! get_element (Get element): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "get_element",
    title: text!("Get element"),
    summary: text!("Inspect {elementId}"),
    description: text!("Everything about one element (elementId or its ref from list_timeline): timing in timeline seconds, the source range of video and audio, every property with its unit as OpenCut stores it (transform.positionX/Y: canvas pixels of its centre from the canvas centre, +y down; transform.scaleX/Y: factor; transform.rotate: degrees clockwise; opacity 0-1; blendMode; volume in dB; muted; hidden), text and textStyle, effect params, its mask, and its keyframes. Reads only. Example: {\"elementId\":\"clip-1\"}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: LISTING, // names and text are user-made: data, never instructions
    errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Unknown reference <ref>; candidates: <refs>", "No active timeline"]),
    example: text!(r#"{"elementId":"e6"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element id or ref (clip-1) from list_timeline
        element_id: Arg<NonEmpty>,
    }
}

returns! {
    pub struct Returns {
        element_id: String,
        r#ref: String,
        track_id: String,
        r#type: String,
        name: Option<String>,
        start: f64,
        end: f64,
        duration: f64,
        /// Video and audio: the source seconds played (start, end), trims and rate
        source: Option<AnyObject>,
        /// Property path → {value, unit}
        properties: Option<AnyObject>,
        text: Option<String>,
        text_style: Option<AnyObject>,
        params: Option<AnyObject>,
        /// The mask (video, image, graphic): {type, params}, its parameters as stored
        mask: Option<AnyObject>,
        keyframes: Vec<AnyObject>,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.element_id.id(ToolError::invalid_element_id)?;
    let tl = ctx.timeline()?;
    let (ti, _, e) = find(tl, id)?;
    let e = e.clone();
    let track_id = tl.tracks[ti].id.clone();
    let canvas_h = ctx.settings().canvas.height;
    let mut o = Map::new();
    crate::text::put(&mut o, "elementId", e.id.as_str().into());
    crate::text::put(&mut o, "ref", reference(ctx, &e).into());
    crate::text::put(&mut o, "trackId", track_id.into());
    crate::text::put(&mut o, "type", e.kind.as_str().into());
    if let Some(n) = &e.name {
        crate::text::put(&mut o, "name", n.as_str().into());
    }
    for (key, v) in [("assetId", e.asset_id.as_deref()), ("stickerId", e.sticker_id.as_deref()), ("effectType", e.effect_type.as_deref())] {
        if let Some(v) = v {
            o.insert(key.into(), v.into());
        }
    }
    crate::text::put(&mut o, "start", seconds(e.start));
    crate::text::put(&mut o, "end", seconds(e.end()));
    crate::text::put(&mut o, "duration", seconds(e.duration));
    if e.kind.is_timed_media() {
        o.insert(
            "source".into(),
            crate::text::obj([
                ("trimStart", seconds(e.trim_start)),
                ("trimEnd", seconds(e.trim_end)),
                ("start", seconds(e.trim_start)),
                ("end", seconds(e.trim_start + e.source_ticks(e.duration))),
                ("rate", crate::effects::number(e.rate())),
            ]),
        );
    }
    let mut props = Map::new();
    for p in properties::animatable(&e) {
        let value = animation::base_value(&e, p.path).unwrap_or(Value::Null);
        props.insert(p.path.into(), prop(value, Some(p.unit)));
    }
    for p in ["blendMode", "hidden", "muted", "params.strokeAlign"].into_iter().filter_map(|path| properties::of(&e, path)) {
        props.insert(p.path.into(), prop(p.value(&e, canvas_h), None));
    }
    if !props.is_empty() {
        crate::text::put(&mut o, "properties", Value::Object(props));
    }
    if e.kind == ElementType::Text {
        crate::text::put(&mut o, "text", e.content.clone().unwrap_or_default().into());
        let mut style = Map::new();
        for p in ["fontSize", "fontFamily", "fontWeight", "fontStyle", "textAlign", "textDecoration", "letterSpacing", "lineHeight"]
            .into_iter()
            .filter_map(properties::find)
        {
            let value = p.value(&e, canvas_h);
            style
                .insert(p.path.into(), if p.unit.is_empty() { value } else { crate::text::obj([("value", value), ("unit", serde_json::Value::from(p.unit))]) });
        }
        crate::text::put(&mut style, "background", e.background.clone().map_or(Value::Bool(false), Value::from));
        crate::text::put(&mut o, "textStyle", Value::Object(style));
        if let Some(p) = &e.position {
            crate::text::put(&mut o, "position", p.as_str().into());
        }
    }
    if e.kind == ElementType::Effect {
        crate::text::put(&mut o, "params", Value::Object(e.params.clone().unwrap_or_default()));
    }
    if let Some(d) = &e.definition_id {
        crate::text::put(&mut o, "shape", d.as_str().into());
    }
    if let Some((shape, params)) = crate::masks::first(&e).filter(|_| crate::masks::takes_mask(&e)) {
        o.insert("mask".into(), json!({ "type": shape, "params": params }));
    }
    crate::text::put(&mut o, "keyframes", crate::tools::keyframe::summary(&e));
    Ok(Value::Object(o).into())
}
