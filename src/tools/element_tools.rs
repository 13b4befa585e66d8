//! get_element and update_clip: one element's every property, and changing OpenCut's visual and
//! audio params on one or many elements at once.

use crate::error_code::ErrorCode;
use serde_json::{json, Map, Value};

use super::refs::Refs;
use super::{seconds, timeline_mut, Args, Ctx, Output, ToolError};
use crate::animation;
use crate::model::{Canvas, Element, ElementType, Timeline};
use crate::opencut::{db_to_linear, linear_to_db};

/// OpenCut's blend modes (params/registry.ts).
pub const BLEND_MODES: [&str; 17] = [
    "normal", "darken", "multiply", "color-burn", "lighten", "screen", "plus-lighter", "color-dodge", "overlay",
    "soft-light", "hard-light", "difference", "exclusion", "hue", "saturation", "color", "luminosity",
];

/// Named places for update_clip's position.
pub const ANCHORS: [&str; 9] = ["top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right"];

/// The reference of an element, from the editor's table (or a fresh one outside an editor).
pub(super) fn reference(ctx: &mut Ctx, e: &Element) -> String {
    match ctx.listing.as_deref_mut() {
        Some(cache) => {
            if let Some(tl) = ctx.timeline.as_ref() {
                cache.refs.assign(tl);
            }
            cache.refs.of(&e.id, e.kind)
        }
        None => {
            let mut refs = Refs::default();
            if let Some(tl) = ctx.timeline.as_ref() {
                refs.assign(tl);
            }
            refs.of(&e.id, e.kind)
        }
    }
}

pub(super) fn is_visual(kind: ElementType) -> bool {
    matches!(kind, ElementType::Video | ElementType::Image | ElementType::Text | ElementType::Sticker)
}

/// The element `id` (already resolved from a reference), or "Timeline element not found".
pub(super) fn find<'a>(tl: &'a Timeline, id: &str) -> Result<(usize, usize, &'a Element), ToolError> {
    let (ti, ei) = tl.find(id).ok_or_else(|| ToolError::timeline_element_not_found(id))?;
    Ok((ti, ei, tl.tracks[ti].elements[ei].as_ref()))
}

fn prop(value: Value, unit: Option<&str>) -> Value {
    let mut o = Map::new();
    o.insert("value".into(), value);
    if let Some(u) = unit {
        o.insert("unit".into(), u.into());
    }
    Value::Object(o)
}

pub fn get_element(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let id = args.id("elementId", ToolError::invalid_element_id)?;
    let tl = ctx.timeline()?;
    let (ti, _, e) = find(tl, id)?;
    let e = e.clone();
    let track_id = tl.tracks[ti].id.clone();
    let canvas_h = ctx.settings().canvas.height;
    let mut o = Map::new();
    o.insert("elementId".into(), e.id.as_str().into());
    o.insert("ref".into(), reference(ctx, &e).into());
    o.insert("trackId".into(), track_id.into());
    o.insert("type".into(), e.kind.as_str().into());
    if let Some(n) = &e.name {
        o.insert("name".into(), n.as_str().into());
    }
    for (key, v) in [("assetId", e.asset_id.as_deref()), ("stickerId", e.sticker_id.as_deref()), ("effectType", e.effect_type.as_deref())] {
        if let Some(v) = v {
            o.insert(key.into(), v.into());
        }
    }
    o.insert("start".into(), seconds(e.start));
    o.insert("end".into(), seconds(e.end()));
    o.insert("duration".into(), seconds(e.duration));
    if e.kind.is_timed_media() {
        o.insert(
            "source".into(),
            json!({
                "trimStart": seconds(e.trim_start),
                "trimEnd": seconds(e.trim_end),
                "start": seconds(e.trim_start),
                "end": seconds(e.trim_start + e.source_ticks(e.duration)),
                "rate": crate::effects::number(e.rate()),
            }),
        );
    }
    let mut props = Map::new();
    for p in animation::properties(e.kind) {
        let value = animation::base_value(&e, p.path).unwrap_or(Value::Null);
        props.insert(p.path.into(), prop(value, Some(p.unit)));
    }
    if is_visual(e.kind) {
        props.insert("blendMode".into(), prop(e.blend_mode.clone().unwrap_or_else(|| "normal".into()).into(), None));
        props.insert("hidden".into(), prop(e.hidden.unwrap_or(false).into(), None));
    }
    if e.kind.has_volume() {
        props.insert("muted".into(), prop(e.muted.unwrap_or(false).into(), None));
    }
    if !props.is_empty() {
        o.insert("properties".into(), Value::Object(props));
    }
    if e.kind == ElementType::Text {
        o.insert("text".into(), e.content.clone().unwrap_or_default().into());
        let mut style = Map::new();
        style.insert("fontSize".into(), json!({ "value": crate::effects::number(e.font_size.unwrap_or_else(|| crate::opencut::font_px(15.0, canvas_h))), "unit": "px" }));
        let strings = [
            ("fontFamily", &e.font_family, "Arial"),
            ("fontWeight", &e.font_weight, "normal"),
            ("fontStyle", &e.font_style, "normal"),
            ("textAlign", &e.text_align, "center"),
            ("textDecoration", &e.text_decoration, "none"),
        ];
        for (key, v, default) in strings {
            style.insert(key.into(), v.clone().unwrap_or_else(|| default.into()).into());
        }
        style.insert("background".into(), e.background.clone().map_or(Value::Bool(false), Value::from));
        o.insert("textStyle".into(), Value::Object(style));
        if let Some(p) = &e.position {
            o.insert("position".into(), p.as_str().into());
        }
    }
    if e.kind == ElementType::Effect {
        o.insert("params".into(), Value::Object(e.params.clone().unwrap_or_default()));
    }
    o.insert("keyframes".into(), super::keyframe_tools::summary(&e));
    Ok(Value::Object(o).into())
}

/// A property value outside OpenCut's range (or of the wrong type).
fn out_of_range(property: &str, range: &str) -> ToolError {
    ToolError::new(ErrorCode::PropertyOutOfRange, format!("Property \"{property}\" must be {range}")).with("property", property)
}

fn unsupported(e: &Element, property: &str) -> ToolError {
    ToolError::new(ErrorCode::PropertyNotSupported,
        format!("Element {} is {} {} element and has no {property}", e.id, article(e.kind.as_str()), e.kind.as_str()),
    )
    .with("property", property)
    .with("element", e.id.as_str())
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn number_in(args: &Args, key: &str, min: f64, max: Option<f64>, range: &str) -> Result<Option<f64>, ToolError> {
    match args.get(key) {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) if n.is_finite() && n >= min && max.map_or(true, |m| n <= m) => Ok(Some(n)),
            _ => Err(out_of_range(key, range)),
        },
    }
}

/// Where update_clip puts an element: pixels, or an anchor and a margin.
#[derive(Clone, Debug, PartialEq)]
enum Position {
    Pixels(Option<f64>, Option<f64>),
    Anchor(&'static str, Option<f64>),
}

const POSITION_HELP: &str = "an anchor (top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right), {\"anchor\": …, \"margin\": px} or {\"x\": px, \"y\": px} from the canvas centre (each from -100000)";

fn position(args: &Args) -> Result<Option<Position>, ToolError> {
    let bad = || out_of_range("position", POSITION_HELP);
    let anchor = |s: &str| ANCHORS.iter().find(|a| **a == s).copied().ok_or_else(bad);
    match args.get("position") {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(Position::Anchor(anchor(s)?, None))),
        Some(Value::Object(o)) => {
            if let Some(bad_key) = o.keys().find(|k| !["x", "y", "anchor", "margin"].contains(&k.as_str())) {
                return Err(out_of_range("position", &format!("{POSITION_HELP}; \"{bad_key}\" is not one of its keys")));
            }
            let coord = |k: &str| -> Result<Option<f64>, ToolError> {
                match o.get(k) {
                    None | Some(Value::Null) => Ok(None),
                    Some(v) => v.as_f64().filter(|n| n.is_finite() && *n >= -100000.0).map(Some).ok_or_else(bad),
                }
            };
            match o.get("anchor").filter(|v| !v.is_null()) {
                Some(a) => {
                    if o.contains_key("x") || o.contains_key("y") {
                        return Err(bad());
                    }
                    let a = anchor(a.as_str().ok_or_else(bad)?)?;
                    let margin = match o.get("margin") {
                        None | Some(Value::Null) => None,
                        Some(m) => Some(m.as_f64().filter(|n| n.is_finite() && *n >= 0.0).ok_or_else(|| out_of_range("position.margin", "a number of pixels >= 0"))?),
                    };
                    Ok(Some(Position::Anchor(a, margin)))
                }
                None => {
                    let (x, y) = (coord("x")?, coord("y")?);
                    if (x.is_none() && y.is_none()) || o.contains_key("margin") {
                        return Err(bad());
                    }
                    Ok(Some(Position::Pixels(x, y)))
                }
            }
        }
        Some(_) => Err(bad()),
    }
}

/// Half the drawn size of an element in canvas pixels, when the engine knows it: video and
/// images fitted ("contain") to the canvas and scaled, as OpenCut draws them; for text and
/// stickers, whose drawn size depends on the host's fonts and sticker art, a box a fifth of the
/// canvas's shorter side.
fn half_extent(ctx: &Ctx, e: &Element, canvas: Canvas, scale: (f64, f64)) -> (f64, f64) {
    let (cw, ch) = (canvas.width as f64, canvas.height as f64);
    let asset = e.asset_id.as_deref().and_then(|id| ctx.asset(id));
    let (w, h) = match asset.and_then(|a| Some((a.width? as f64, a.height? as f64))).filter(|(w, h)| *w > 0.0 && *h > 0.0) {
        Some((w, h)) if matches!(e.kind, ElementType::Video | ElementType::Image) => {
            let fit = (cw / w).min(ch / h);
            (w * fit * scale.0, h * fit * scale.1)
        }
        _ => {
            let side = 0.2 * cw.min(ch);
            (side * scale.0, side * scale.1)
        }
    };
    (w / 2.0, h / 2.0)
}

/// The centre that puts the element at `anchor`, `margin` pixels in from the canvas edges.
fn anchored(anchor: &str, margin: f64, half: (f64, f64), canvas: Canvas) -> (f64, f64) {
    // An element too big to fit inside the margins is centred on that axis.
    let dx = (canvas.width as f64 / 2.0 - margin - half.0).max(0.0);
    let dy = (canvas.height as f64 / 2.0 - margin - half.1).max(0.0);
    let x = if anchor.ends_with("left") { -dx } else if anchor.ends_with("right") { dx } else { 0.0 };
    let y = if anchor.starts_with("top") { -dy } else if anchor.starts_with("bottom") { dy } else { 0.0 };
    (x.round(), y.round())
}

/// The default margin of an anchored position: 5 % of the canvas's shorter side.
fn default_margin(canvas: Canvas) -> f64 {
    (0.05 * canvas.width.min(canvas.height) as f64).round()
}

pub fn update_clip(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let ids = args.id_list("elementIds", ToolError::invalid_element_ids)?;
    let position = position(&args)?;
    let scale = match args.get("scale") {
        None => None,
        Some(Value::Object(o)) => {
            if o.keys().any(|k| k != "x" && k != "y") || o.is_empty() {
                return Err(out_of_range("scale", "a factor >= 0.01, or {\"x\": factor, \"y\": factor}"));
            }
            let f = |k: &str| -> Result<Option<f64>, ToolError> {
                match o.get(k) {
                    None => Ok(None),
                    Some(v) => v.as_f64().filter(|n| n.is_finite() && *n >= 0.01).map(Some).ok_or_else(|| out_of_range("scale", "a factor >= 0.01, or {\"x\": factor, \"y\": factor}")),
                }
            };
            Some((f("x")?, f("y")?))
        }
        Some(v) => {
            let n = v.as_f64().filter(|n| n.is_finite() && *n >= 0.01).ok_or_else(|| out_of_range("scale", "a factor >= 0.01, or {\"x\": factor, \"y\": factor}"))?;
            Some((Some(n), Some(n)))
        }
    };
    let rotation = number_in(&args, "rotation", -360.0, Some(360.0), "from -360 to 360 (degrees, clockwise)")?;
    let opacity = number_in(&args, "opacity", 0.0, Some(1.0), "from 0 to 1")?;
    let volume = number_in(&args, "volume", -60.0, Some(20.0), "from -60 to 20 (dB; 0 plays as recorded)")?;
    let blend = match args.get("blendMode") {
        None => None,
        Some(v) => Some(
            v.as_str()
                .and_then(|s| BLEND_MODES.iter().find(|m| **m == s))
                .copied()
                .ok_or_else(|| out_of_range("blendMode", &super::args::one_of(&BLEND_MODES)))?,
        ),
    };
    let flag = |key: &str| -> Result<Option<bool>, ToolError> {
        match args.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(out_of_range(key, "true or false")),
        }
    };
    let (muted, hidden) = (flag("muted")?, flag("hidden")?);
    if position.is_none() && scale.is_none() && rotation.is_none() && opacity.is_none() && volume.is_none() && blend.is_none() && muted.is_none() && hidden.is_none() {
        return Err(ToolError::new(ErrorCode::NoProperties, "update_clip needs at least one property to change")
            .with_hint("Give position, scale, rotation, opacity, blendMode, volume, muted or hidden."));
    }
    let canvas = ctx.settings().canvas;
    let tl = ctx.timeline()?;
    let found = crate::edits::locate(tl, &ids);
    let missing: Vec<String> = ids.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(id, _)| id.clone()).collect();
    if !missing.is_empty() {
        return Err(ToolError::elements_not_found(&missing));
    }
    let mut updated: Vec<((usize, usize), Element)> = Vec::with_capacity(ids.len());
    let mut warnings: Vec<String> = Vec::new();
    for (ti, ei) in found.into_iter().flatten() {
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
        ];
        if let Some((name, _, _)) = checks.iter().find(|(_, given, ok)| *given && !*ok) {
            return Err(unsupported(&e, name));
        }
        if let Some((x, y)) = scale {
            e.scale_x = x.or(e.scale_x);
            e.scale_y = y.or(e.scale_y);
        }
        if let Some(r) = rotation {
            e.rotate = Some(r);
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
            e.volume = Some(db_to_linear(db));
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
                e.position = matches!(e.kind, ElementType::Text | ElementType::Sticker).then(|| anchor.to_string());
            }
        }
        let animated: Vec<&str> = [
            ("transform.positionX", position.is_some()),
            ("transform.positionY", position.is_some()),
            ("transform.scaleX", scale.is_some()),
            ("transform.scaleY", scale.is_some()),
            ("transform.rotate", rotation.is_some()),
            ("opacity", opacity.is_some()),
            ("volume", volume.is_some()),
        ]
        .into_iter()
        .filter(|(path, given)| *given && e.animations.as_ref().is_some_and(|a| a.contains_key(*path)))
        .map(|(path, _)| path)
        .collect();
        if !animated.is_empty() {
            warnings.push(format!(
                "{} has keyframes on {}; they override the value set here (use upsert_keyframe or remove_keyframe)",
                e.id,
                animated.join(", ")
            ));
        }
        updated.push(((ti, ei), e));
    }
    let summary: Vec<Value> = updated.iter().map(|(_, e)| clip_summary(e)).collect();
    let tl = timeline_mut(&mut ctx.timeline)?;
    for ((ti, ei), e) in updated {
        // Only params change: no timing, so no overlap can arise.
        tl.track_mut(ti).elements[ei] = std::sync::Arc::new(e);
    }
    let mut out = json!({ "success": true, "elements": summary });
    if !warnings.is_empty() {
        out["warnings"] = json!(warnings);
    }
    Ok(out.into())
}

/// What update_clip reports for one element: the properties it has, in OpenCut's units.
fn clip_summary(e: &Element) -> Value {
    let mut o = Map::new();
    o.insert("elementId".into(), e.id.as_str().into());
    let n = crate::effects::number;
    if is_visual(e.kind) {
        o.insert("position".into(), json!({ "x": n(e.x.unwrap_or(0.0)), "y": n(e.y.unwrap_or(0.0)) }));
        o.insert("scale".into(), json!({ "x": n(e.scale_x.unwrap_or(1.0)), "y": n(e.scale_y.unwrap_or(1.0)) }));
        o.insert("rotation".into(), n(e.rotate.unwrap_or(0.0)));
        o.insert("opacity".into(), n(e.opacity.unwrap_or(1.0)));
        o.insert("blendMode".into(), e.blend_mode.clone().unwrap_or_else(|| "normal".into()).into());
        o.insert("hidden".into(), e.hidden.unwrap_or(false).into());
    }
    if e.kind.has_volume() {
        o.insert("volume".into(), n(linear_to_db(e.volume.unwrap_or(1.0))));
        o.insert("muted".into(), e.muted.unwrap_or(false).into());
    }
    Value::Object(o)
}
