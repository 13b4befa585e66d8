//! OpenCut's element `params` (storage v31) and the NeuralCut fields read from them.
//!
//! A property's param key is its public path (crate::properties; a graphic's definition params drop
//! the `params.` their animation path has), so the adapter walks the one
//! property table and says only how OpenCut keeps each: not in params, read only when present, or
//! always read with a missing or mistyped key standing for the property's default (as OpenCut's
//! renderers read it). Two differ in units (`fontSize` in OpenCut's unit, the text box as
//! `background.enabled` + `background.color`); volume is decibels on both sides.
//!
//! Writing starts from the element's own `params` (or, for an element a tool created, every
//! default of its type) and rewrites only the keys whose NeuralCut value a tool changed, so an
//! untouched key comes back byte for byte.

use serde_json::{Map, Value};

use super::units;
use crate::effects::number;
use crate::model::Element;
use crate::properties::{Property, PROPERTIES};

/// Whether elements of this OpenCut type are drawn (and so have position, hidden, opacity).
pub fn is_visual(kind: &str) -> bool {
    matches!(kind, "video" | "image" | "text" | "sticker" | "graphic")
}

/// Whether elements of this OpenCut type make sound (volume, muted).
pub fn is_audible(kind: &str) -> bool {
    matches!(kind, "video" | "audio")
}

/// Whether NeuralCut's tools place this type by a centre point (x, y).
pub fn is_placed(kind: &str) -> bool {
    matches!(kind, "text" | "sticker" | "graphic")
}

/// How an element of OpenCut type `kind` keeps a property in `params`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Not a param of this type (or kept elsewhere: `hidden` is a field of the element).
    Absent,
    /// Read only when present, so an imported element's NeuralCut form stays as it was.
    Present,
    /// Always read; missing or mistyped is the default.
    Defaulted,
    /// Read and written by hand below.
    Special,
}

fn rule(kind: &str, p: &Property) -> Rule {
    match p.path {
        "hidden" => Rule::Absent,
        "transform.positionX" | "transform.positionY" if is_placed(kind) => Rule::Defaulted,
        "transform.positionX" | "transform.positionY" | "transform.scaleX" | "transform.scaleY" | "transform.rotate" | "opacity" | "blendMode"
            if is_visual(kind) =>
        {
            Rule::Present
        }
        "volume" | "muted" if is_audible(kind) => Rule::Defaulted,
        "fontSize" | "background.enabled" | "background.color" if kind == "text" => Rule::Special,
        "content" | "color" | "fontWeight" | "fontFamily" | "fontStyle" | "textAlign" | "textDecoration" if kind == "text" => Rule::Defaulted,
        "letterSpacing"
        | "lineHeight"
        | "background.paddingX"
        | "background.paddingY"
        | "background.offsetX"
        | "background.offsetY"
        | "background.cornerRadius"
            if kind == "text" =>
        {
            Rule::Present
        }
        // Any shape's params: a key the shape lacks is never present.
        path if kind == "graphic" && path.starts_with(crate::graphics::PATH_PREFIX) => Rule::Present,
        _ => Rule::Absent,
    }
}

/// A value NeuralCut cannot hold: the params key and what is wrong.
pub type Refusal = (&'static str, String);

/// Reads an element's `params` onto `e` as OpenCut shows them.
pub fn read(kind: &str, params: &Map<String, Value>, canvas_height: u32, e: &mut Element) -> Result<(), Refusal> {
    for p in PROPERTIES {
        let given = params.get(p.param_key()).filter(|v| p.accepts(v)).cloned();
        match rule(kind, p) {
            Rule::Absent | Rule::Special => {}
            Rule::Present => p.set(e, given),
            Rule::Defaulted => p.set(e, Some(given.unwrap_or_else(|| p.default_value(canvas_height)))),
        }
    }
    if is_audible(kind) && params.get("volume").and_then(Value::as_f64).is_some_and(|db| db > units::MAX_DB) {
        return Err(("volume", format!("must be at most {} dB, not {}", crate::text::Num(units::MAX_DB), crate::text::json(&params["volume"]))));
    }
    if kind == "text" {
        let size = params.get("fontSize").and_then(Value::as_f64).unwrap_or(units::DEFAULT_FONT_SIZE);
        let px = units::font_px(size, canvas_height);
        if !(size > 0.0 && px.is_finite()) {
            return Err(("fontSize", format!("must be a size > 0, not {}", crate::text::json(&params["fontSize"]))));
        }
        e.font_size = Some(px);
        let color = params.get("background.color").and_then(Value::as_str).map(str::to_string);
        // A box that is off keeps its colour, so keyframing it starts from what OpenCut shows.
        (e.background, e.background_color) = match params.get("background.enabled").and_then(Value::as_bool).unwrap_or(false) {
            true => (Some(color.unwrap_or_else(|| "#000000".into())), None),
            false => (None, color),
        };
    }
    Ok(())
}

/// Writes into `params` every value of `e` that differs from what `params` reads as. Returns
/// whether any key changed.
pub fn write(kind: &str, e: &Element, params: &mut Map<String, Value>, canvas_height: u32) -> bool {
    // What `params` holds now; values it cannot hold read as the defaults they would be replaced by.
    let mut was = Element::new(String::new(), e.kind, 0, 1);
    if read(kind, params, canvas_height, &mut was).is_err() {
        was = Element::new(String::new(), e.kind, 0, 1);
    }
    let mut changed = false;
    let mut set = |params: &mut Map<String, Value>, key: &str, v: Value| {
        params.insert(key.to_string(), v);
        changed = true;
    };
    for p in PROPERTIES.iter().filter(|p| matches!(rule(kind, p), Rule::Present | Rule::Defaulted)) {
        if let Some(v) = p.own(e).filter(|v| Some(v) != p.own(&was).as_ref()) {
            set(params, p.param_key(), v);
        }
    }
    // OpenCut has no silent volume (its quietest, −60 dB, plays at gain 0.001; audio-state.ts):
    // a volume of 0 is silence there only as `muted`.
    if is_audible(kind) && e.volume == Some(0.0) && params.get("muted") != Some(&Value::Bool(true)) {
        set(params, "muted", true.into());
    }
    if kind != "text" {
        return changed;
    }
    if let Some(px) = e.font_size.filter(|v| Some(*v) != was.font_size) {
        set(params, "fontSize", number(units::font_opencut(px, canvas_height)));
    }
    if e.background != was.background {
        set(params, "background.enabled", e.background.is_some().into());
        if let Some(c) = &e.background {
            set(params, "background.color", c.as_str().into());
        }
    }
    if let Some(c) = e.background_color.as_ref().filter(|c| e.background.is_none() && Some(*c) != was.background_color.as_ref()) {
        set(params, "background.color", c.as_str().into());
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ElementType;
    use serde_json::json;

    /// A property added to the table is read from OpenCut's params for every type that has it,
    /// unless OpenCut keeps it elsewhere.
    #[test]
    fn every_property_of_a_type_has_a_rule() {
        let kinds = [
            ("video", ElementType::Video),
            ("image", ElementType::Image),
            ("audio", ElementType::Audio),
            ("text", ElementType::Text),
            ("sticker", ElementType::Sticker),
            ("graphic", ElementType::Graphic),
        ];
        for (kind, t) in kinds {
            for p in PROPERTIES.iter().filter(|p| p.applies(t)) {
                let elsewhere = p.path == "hidden";
                assert_eq!(rule(kind, p) == Rule::Absent, elsewhere, "{kind}: {}", p.path);
            }
        }
    }

    /// Every text param NeuralCut holds comes back as it was, and reads as the table says.
    #[test]
    fn text_params_read_onto_the_table_and_write_back_unchanged() {
        let given = json!({
            "content": "Hi", "fontSize": 6, "color": "#ff0000", "fontFamily": "Inter", "fontWeight": "bold",
            "fontStyle": "italic", "textAlign": "left", "textDecoration": "underline", "letterSpacing": 2,
            "lineHeight": 1.5, "background.enabled": false, "background.color": "#112233", "background.paddingX": 4,
            "background.paddingY": 5, "background.offsetX": -6, "background.offsetY": 7, "background.cornerRadius": 25,
            "transform.positionX": 10, "transform.positionY": -20, "transform.scaleX": 2, "transform.scaleY": 3,
            "transform.rotate": 45, "opacity": 0.5, "blendMode": "screen",
        });
        let params = given.as_object().unwrap().clone();
        let mut e = Element::new("e1".into(), ElementType::Text, 0, 1);
        read("text", &params, 1080, &mut e).unwrap();
        for (key, v) in &params {
            let Some(p) = crate::properties::find(key).filter(|p| p.path != "fontSize") else { continue };
            assert_eq!(p.value(&e, 1080), *v, "{key}");
        }
        assert_eq!(e.font_size, Some(72.0));
        let mut out = params.clone();
        assert!(!write("text", &e, &mut out, 1080), "nothing changed");
        assert_eq!(out, params);
    }

    /// Which NeuralCut fields an element of each OpenCut type reads from its params: every key
    /// of the table present (with values unlike the defaults), and none. A type reading a key it
    /// does not have (an audio clip's opacity, a text's volume) would change its saved form.
    #[test]
    fn each_type_reads_exactly_its_own_params() {
        let mut every = Map::new();
        for p in PROPERTIES {
            let v = match p.kind {
                crate::properties::PropertyKind::Number => json!(7),
                crate::properties::PropertyKind::Color => json!("#123456"),
                crate::properties::PropertyKind::Text => json!("x"),
                crate::properties::PropertyKind::Flag => json!(true),
            };
            every.insert(p.param_key().into(), v);
        }
        let fields = |kind: &str, t: ElementType, params: &Map<String, Value>| -> Vec<String> {
            let mut e = Element::new("e1".into(), t, 0, 1);
            read(kind, params, 1080, &mut e).unwrap();
            let saved = serde_json::to_value(&e).unwrap();
            let mut keys: Vec<String> =
                saved.as_object().unwrap().keys().filter(|k| !matches!(k.as_str(), "id" | "type" | "start" | "duration")).cloned().collect();
            keys.sort();
            keys
        };
        let visual = ["x", "y", "scaleX", "scaleY", "rotate", "opacity", "blendMode"];
        let text = [
            "content",
            "fontSize",
            "color",
            "fontWeight",
            "background",
            "fontFamily",
            "fontStyle",
            "textAlign",
            "textDecoration",
            "letterSpacing",
            "lineHeight",
            "backgroundPaddingX",
            "backgroundPaddingY",
            "backgroundOffsetX",
            "backgroundOffsetY",
            "backgroundCornerRadius",
        ];
        let sorted = |parts: &[&[&str]]| -> Vec<String> {
            let mut v: Vec<String> = parts.iter().flat_map(|p| p.iter().map(|s| s.to_string())).collect();
            v.sort();
            v
        };
        let cases: [(&str, ElementType, Vec<String>, Vec<String>); 6] = [
            ("video", ElementType::Video, sorted(&[&visual, &["volume", "muted"]]), sorted(&[&["volume", "muted"]])),
            ("image", ElementType::Image, sorted(&[&visual]), vec![]),
            ("audio", ElementType::Audio, sorted(&[&["volume", "muted"]]), sorted(&[&["volume", "muted"]])),
            ("text", ElementType::Text, sorted(&[&visual, &text]), sorted(&[&["x", "y"], &text[..9]]).into_iter().filter(|k| k != "background").collect()),
            ("sticker", ElementType::Sticker, sorted(&[&visual]), sorted(&[&["x", "y"]])),
            ("graphic", ElementType::Graphic, sorted(&[&visual, &["params"]]), sorted(&[&["x", "y"]])),
        ];
        for (kind, t, all, none) in cases {
            assert_eq!(fields(kind, t, &every), all, "{kind}, every key given");
            assert_eq!(fields(kind, t, &Map::new()), none, "{kind}, no params");
        }
    }

    /// OpenCut's bounds, at the bound: +20 dB is its loudest volume and loads; a font size must
    /// be above 0.
    #[test]
    fn volume_and_font_size_are_refused_just_past_their_bounds() {
        let read_one = |kind: &str, t: ElementType, params: Value| read(kind, params.as_object().unwrap(), 1080, &mut Element::new("e".into(), t, 0, 1));
        assert!(read_one("audio", ElementType::Audio, json!({ "volume": 20 })).is_ok());
        assert_eq!(read_one("audio", ElementType::Audio, json!({ "volume": 20.01 })).unwrap_err().0, "volume");
        assert!(read_one("text", ElementType::Text, json!({ "fontSize": 0.01 })).is_ok());
        assert_eq!(read_one("text", ElementType::Text, json!({ "fontSize": 0 })).unwrap_err().0, "fontSize");
    }
}
