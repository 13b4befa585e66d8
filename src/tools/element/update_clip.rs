//! update_clip (Update clip properties): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "update_clip",
    title: text!("Update clip properties"),
    summary: text!("Change {elementIds:n clip}"),
    description: text!("Change how one or many elements look or sound, as one undo step: position (an anchor such as \"top-right\" or {\"anchor\":\"bottom-left\",\"margin\":40}, which keeps the element inside the frame that many pixels from the edges; or {\"x\":px,\"y\":px} from the canvas centre, +y down), scale (factor >= 0.01, or {\"x\":…,\"y\":…}), rotation (degrees -360 to 360, clockwise), opacity (0 to 1), blendMode (normal, multiply, screen, overlay, …), hidden (visual elements), volume (dB -60 to 20; 0 plays as recorded), muted, speed (0.01 to 5: 2 plays twice as fast and makes the clip half as long; OpenCut's rate, the clip's end following) and maintainPitch (keep the sound's pitch at that speed) (video and audio), and mask (video, image and graphic: {\"type\": rectangle, ellipse, diamond, star, heart, cinematic-bars or split, centerX, centerY, width, height, rotation, feather, inverted, strokeColor, strokeWidth, strokeAlign}; {\"type\": \"text\", content, fontSize, fontFamily, fontWeight, fontStyle, textDecoration, letterSpacing, lineHeight, scale, ...} shows the picture through the words; {\"type\": \"freeform\", path: [{x, y, inX, inY, outX, outY}, ...] (3 or more bezier points, fractions of the element's size from the mask's centre), closed, scale, ...}, OpenCut's masks; {\"type\": \"none\"} takes it away), and graphic (a shape from add_graphic: {fill, stroke: {color, width, align}, cornerRadius, sides, points, depth}). Only the properties given change. Example, a small logo in the corner: {\"elementIds\":[\"clip-1\"],\"scale\":0.3,\"position\":\"top-right\"}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Invalid element ids", NOT_FOUND_IDS, "Property \"<name>\" must be <range>", "Element <id> is <a type> element and has no <property>", "update_clip needs at least one property to change", "Element <id> on track <id> is in the way (<start>s to <end>s)", "<A shape> has no <param>; it takes <params>", "Argument \"<name>\" must be <rule>", "No active timeline"]),
    example: text!(r#"{"elementIds":["e6"],"scale":0.5,"position":{"anchor":"top-right","margin":40},"opacity":0.8}"#),
    run: typed!(run),
};

choices! {
    BlendModes = BLEND_MODES;
}

arguments! {
    pub struct Arguments {
        /// Element ids or refs from list_timeline
        #[schemars(length(min = 1))]
        element_ids: Arg<Vec<NonEmpty>>,
        /// An anchor name, {anchor, margin} (margin in pixels from the canvas edges; default 5% of the shorter side), or {x, y} in canvas pixels from the centre (+y down)
        position: Arg<Option<ClipPosition>>,
        /// Factor over the size fitted to the canvas: one number for both axes, or {x, y}
        scale: Arg<Option<ClipScale>>,
        /// Degrees, clockwise
        #[schemars(range(min = -360, max = 360))]
        rotation: Arg<Option<f64>>,
        /// 0 invisible, 1 opaque
        #[schemars(range(min = 0, max = 1))]
        opacity: Arg<Option<f64>>,
        /// How it mixes with what is below
        blend_mode: Arg<Option<Choice<BlendModes>>>,
        /// Decibels; 0 plays as recorded, -60 is the quietest (use muted for silence)
        #[schemars(range(min = -60, max = 20))]
        volume: Arg<Option<f64>>,
        /// Silence a video or audio element
        muted: Arg<Option<bool>>,
        /// Stop drawing a visual element
        hidden: Arg<Option<bool>>,
        /// Playback speed of a video or audio clip: 2 plays twice as fast (the clip gets half as long), 0.5 half as fast; 1 is normal
        #[schemars(range(min = 0.01, max = 5))]
        speed: Arg<Option<f64>>,
        /// Keep the sound's pitch when the speed is not 1 (OpenCut's option; off by default, as there)
        maintain_pitch: Arg<Option<bool>>,
        /// A shape that shows only part of a video, image or graphic (OpenCut's masks: box shapes, split, text, freeform); the same type again changes only the parameters given, another starts from OpenCut's defaults (a centred square of 0.6 of the shorter side; "Mask" in Arial)
        mask: Arg<Option<super::mask::MaskArg>>,
        /// A graphic's look (add_graphic's): fill, stroke {color, width, align}, cornerRadius, sides, points, depth; only the keys given change
        graphic: Arg<Option<super::graphic::GraphicLook>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        elements: List<ClipEntry>,
        warnings: Option<Vec<String>>,
    }
}

returns! {
    struct ClipEntry {
        element_id: String,
        /// With speed or maintainPitch: the clip's speed, pitch option and new timing (seconds)
        speed: Option<f64>,
        maintain_pitch: Option<bool>,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
    }
}

// Where update_clip puts an element: one of three shapes.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[schemars(transform = one_of)]
#[allow(dead_code)]
enum ClipPosition {
    Anchor(#[schemars(extend("enum" = ANCHORS))] String),
    Anchored {
        #[schemars(extend("enum" = ANCHORS))]
        anchor: String,
        #[schemars(range(min = 0))]
        margin: Option<f64>,
    },
    #[schemars(extend("minProperties" = 1))]
    Point {
        #[schemars(range(min = -100000))]
        x: Option<f64>,
        #[schemars(range(min = -100000))]
        y: Option<f64>,
    },
}

#[derive(Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[schemars(transform = one_of)]
#[allow(dead_code)]
enum ClipScale {
    Both(#[schemars(range(min = 0.01))] f64),
    #[schemars(extend("minProperties" = 1))]
    Axes {
        #[schemars(range(min = 0.01))]
        x: Option<f64>,
        #[schemars(range(min = 0.01))]
        y: Option<f64>,
    },
}

// Both are parsed part by part (`position`, the `scale` match in `run`), each part with its own
// message; `read` checks only the JSON type (and an anchor's name).
impl Read for ClipPosition {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        v.as_str().map_or(v.is_object(), |s| ANCHORS.contains(&s)).then_some(v)
    }
}

impl Read for ClipScale {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        (v.is_number() || v.is_object()).then_some(v)
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let ids = args.element_ids.id_list(ToolError::invalid_element_ids)?;
    let position = position(args.position.get())?;
    let scale = match args.scale.read().map_err(|_| out_of_range("scale", "a factor >= 0.01, or {\"x\": factor, \"y\": factor}"))? {
        None => None,
        Some(Value::Object(o)) => {
            if o.keys().any(|k| k != "x" && k != "y") || o.is_empty() {
                return Err(out_of_range("scale", "a factor >= 0.01, or {\"x\": factor, \"y\": factor}"));
            }
            let f = |k: &str| -> Result<Option<f64>, ToolError> {
                match o.get(k) {
                    None => Ok(None),
                    Some(v) => v
                        .as_f64()
                        .filter(|n| n.is_finite() && *n >= 0.01)
                        .map(Some)
                        .ok_or_else(|| out_of_range("scale", "a factor >= 0.01, or {\"x\": factor, \"y\": factor}")),
                }
            };
            Some((f("x")?, f("y")?))
        }
        Some(v) => {
            let n = v
                .as_f64()
                .filter(|n| n.is_finite() && *n >= 0.01)
                .ok_or_else(|| out_of_range("scale", "a factor >= 0.01, or {\"x\": factor, \"y\": factor}"))?;
            Some((Some(n), Some(n)))
        }
    };
    let rotation = number_in(&args.rotation, "rotation", -360.0, Some(360.0), "from -360 to 360 (degrees, clockwise)")?;
    let opacity = number_in(&args.opacity, "opacity", 0.0, Some(1.0), "from 0 to 1")?;
    let volume = number_in(&args.volume, "volume", -60.0, Some(20.0), "from -60 to 20 (dB; 0 plays as recorded)")?;
    let blend = match args.blend_mode.read() {
        Ok(blend) => blend,
        Err(Bad) => return Err(out_of_range("blendMode", &crate::tools::args::one_of(&BLEND_MODES))),
    };
    let flag = |arg: &Arg<Option<bool>>, key: &str| arg.read().map_err(|_| out_of_range(key, "true or false"));
    let (muted, hidden) = (flag(&args.muted, "muted")?, flag(&args.hidden, "hidden")?);
    let speed = number_in(&args.speed, "speed", Retime::MIN_RATE, Some(Retime::MAX_RATE), "from 0.01 to 5 (1 plays at normal speed)")?;
    let pitch = flag(&args.maintain_pitch, "maintainPitch")?;
    let retimed = speed.is_some() || pitch.is_some();
    let mask = match args.mask.read() {
        Ok(None) => None,
        Ok(Some(v)) => Some(super::mask::parse(v)?),
        Err(Bad) => return Err(out_of_range("mask", "an object with a type")),
    };
    let graphic = args.graphic.read().map_err(|_| ToolError::invalid_argument("graphic", "an object of fill, stroke, cornerRadius, sides, points, depth"))?;
    if position.is_none()
        && scale.is_none()
        && rotation.is_none()
        && opacity.is_none()
        && volume.is_none()
        && blend.is_none()
        && muted.is_none()
        && hidden.is_none()
        && !retimed
        && mask.is_none()
        && graphic.is_none()
    {
        return Err(ToolError::new(ErrorCode::NoProperties, "update_clip needs at least one property to change")
            .with_hint("Give position, scale, rotation, opacity, blendMode, volume, muted, hidden, speed, maintainPitch, mask or graphic."));
    }
    let canvas = ctx.settings().canvas;
    let tl = ctx.timeline()?;
    let found = crate::tools::locate_all(tl, &ids)?;
    // Each element, changed, with its duration before (a speed change moves its end).
    let mut updated: Vec<((usize, usize), Element, i64)> = Vec::with_capacity(ids.len());
    // A new mask's default square is of the element's drawn size.
    let mut sizes: Vec<(f64, f64)> = Vec::with_capacity(ids.len());
    let mut warnings: Vec<String> = Vec::new();
    for (ti, ei) in found {
        let mut e = tl.tracks[ti].elements[ei].as_ref().clone();
        let visual = is_visual(e.kind);
        let checks = [
            ("position", position.is_some(), visual),
            ("scale", scale.is_some(), visual),
            ("rotation", rotation.is_some(), visual),
            ("opacity", opacity.is_some(), visual),
            ("blendMode", blend.is_some(), visual),
            ("hidden", hidden.is_some(), visual),
            ("volume", volume.is_some(), e.kind.has_volume()),
            ("muted", muted.is_some(), e.kind.has_volume()),
            ("speed", speed.is_some(), e.kind.is_timed_media()),
            ("maintainPitch", pitch.is_some(), e.kind.is_timed_media()),
            ("mask", mask.is_some(), crate::masks::takes_mask(&e)),
            ("graphic", graphic.is_some(), e.kind == ElementType::Graphic),
        ];
        if let Some((name, _, _)) = checks.iter().find(|(_, given, ok)| *given && !*ok) {
            return Err(unsupported(&e, name));
        }
        if let Some(change) = &mask {
            super::mask::check(&e, change)?;
        }
        let old_duration = e.duration;
        if retimed {
            // As OpenCut's update pipeline derives it: the trims stay, the visible source span
            // plays at the new rate, and the clip's length follows (rounded to a tick).
            let source = e.asset_id.as_deref().and_then(|a| ctx.asset(a)).and_then(|a| a.duration_ticks()).unwrap_or_else(|| e.source_span());
            let visible = (source - e.trim_start - e.trim_end).max(0);
            let rate = speed.unwrap_or(e.rate());
            let keep = pitch.unwrap_or_else(|| e.retime.as_ref().and_then(|r| r.maintain_pitch) == Some(true));
            // OpenCut's speed panel writes `{ rate, maintainPitch }` whole, or nothing at rate 1 without pitch.
            e.retime = (rate != 1.0 || keep).then(|| Retime { rate, maintain_pitch: Some(keep), extra: Map::new() });
            e.duration = e.clip_ticks(visible).max(1);
        }
        if let Some((x, y)) = scale {
            e.scale_x = x.or(e.scale_x);
            e.scale_y = y.or(e.scale_y);
        }
        if let Some(r) = rotation {
            e.rotate = Some(r);
        }
        if let Some(look) = graphic {
            super::graphic::set(&mut e, look, "graphic.")?;
        }
        if let Some(o) = opacity {
            e.opacity = Some(o);
        }
        if let Some(b) = blend {
            e.blend_mode = Some(b.to_string());
        }
        if let Some(h) = hidden {
            e.hidden = Some(h);
        }
        if let Some(m) = muted {
            e.muted = Some(m);
        }
        if let Some(db) = volume {
            e.volume = Some(db_to_gain(db));
        }
        match &position {
            None => {}
            Some(Position::Pixels(x, y)) => {
                e.x = x.or(e.x).or(Some(0.0));
                e.y = y.or(e.y).or(Some(0.0));
                e.position = None;
            }
            Some(Position::Anchor(anchor, margin)) => {
                let scale = (e.scale_x.unwrap_or(1.0), e.scale_y.unwrap_or(1.0));
                let half = half_extent(ctx, &e, canvas, scale);
                let (x, y) = anchored(anchor, margin.unwrap_or_else(|| default_margin(canvas)), half, canvas);
                e.x = Some(x);
                e.y = Some(y);
                e.position = matches!(e.kind, ElementType::Text | ElementType::Sticker | ElementType::Graphic).then(|| anchor.to_string());
            }
        }
        let animated: Vec<String> = [
            ("transform.positionX", position.is_some()),
            ("transform.positionY", position.is_some()),
            ("transform.scaleX", scale.is_some()),
            ("transform.scaleY", scale.is_some()),
            ("transform.rotate", rotation.is_some()),
            ("opacity", opacity.is_some()),
            ("volume", volume.is_some()),
        ]
        .into_iter()
        .filter(|(_, given)| *given)
        .map(|(path, _)| path.to_string())
        .chain(graphic.map(super::graphic::paths).unwrap_or_default())
        .filter(|path| e.animations.as_ref().is_some_and(|a| a.contains(path)))
        .collect();
        if !animated.is_empty() {
            warnings.push(format!(
                "{} has keyframes on {}; they override the value set here (use upsert_keyframe or remove_keyframe)",
                e.id,
                animated.join(", ")
            ));
        }
        // Measured only for a mask (a call without one never reads it).
        let half = if mask.is_some() { half_extent(ctx, &e, canvas, (e.scale_x.unwrap_or(1.0), e.scale_y.unwrap_or(1.0))) } else { (0.0, 0.0) };
        sizes.push((2.0 * half.0, 2.0 * half.1));
        updated.push(((ti, ei), e, old_duration));
    }
    let mut summary: Vec<Value> = Vec::with_capacity(updated.len());
    let tl = timeline_mut(&mut ctx.timeline)?;
    for (((ti, ei), mut e, old_duration), size) in updated.into_iter().zip(sizes) {
        if let Some(change) = &mask {
            super::mask::apply(&mut e, change, size, |c| ctx.ids.next(c));
        }
        let mut entry = clip_summary(&e);
        if retimed {
            edits::fit_animations(&mut e, old_duration, || ctx.ids.next('k'));
            entry["speed"] = crate::effects::number(e.rate());
            entry["maintainPitch"] = Value::Bool(e.retime.as_ref().and_then(|r| r.maintain_pitch) == Some(true));
            entry["start"] = seconds(e.start);
            entry["end"] = seconds(e.end());
            entry["duration"] = seconds(e.duration);
            // A longer clip may reach the next one on its track.
            edits::replace(tl, ti, e).map_err(edit_error)?;
        } else {
            // Only params change: no timing, so no overlap can arise.
            tl.track_mut(ti).elements[ei] = std::sync::Arc::new(e);
        }
        summary.push(entry);
    }
    let mut out = crate::text::obj([("success", serde_json::Value::from(true)), ("elements", serde_json::Value::from(summary))]);
    if !warnings.is_empty() {
        out["warnings"] = json!(warnings);
    }
    Ok(out.into())
}
