//! What the compositor needs to draw a graphic's shape and a layer's mask: each parameter at this
//! time with the defaults filled in (crate::graphics, crate::masks).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::At;
use crate::model::Element;

/// A graphic as the compositor draws it into OpenCut's 512 × 512 source: its definition and each
/// of the definition's params at this time (keyframes applied, defaults filled in; crate::graphics).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "FrameGraphic")]
pub struct FrameGraphic {
    /// rectangle, ellipse, polygon or star
    pub definition_id: String,
    /// fill, stroke (colours), strokeWidth (px of the 512 source), strokeAlign (inside, center,
    /// outside), and the shape's own: cornerRadius (rectangle, polygon), sides (polygon), points
    /// and depth (star).
    #[schemars(with = "BTreeMap<String, Value>")]
    pub params: Map<String, Value>,
}

pub(super) fn frame_graphic(at: At) -> Option<FrameGraphic> {
    let id = at.el.definition_id.as_deref()?;
    let shape = crate::graphics::shape(id)?;
    let mut params = Map::new();
    for key in shape.params {
        let Some(p) = crate::graphics::property(key) else { continue };
        let v = at.value(p.path).unwrap_or_else(|| at.default(p.path));
        params.insert(key.to_string(), v);
    }
    Some(FrameGraphic { definition_id: id.to_string(), params })
}

/// A mask as the compositor draws it: OpenCut's shape and every parameter (feather and stroke
/// width in canvas pixels, centre and size as fractions of the element's drawn size).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "FrameMask")]
pub struct FrameMask {
    /// rectangle, ellipse, diamond, star, heart, cinematic-bars, split, text or freeform
    #[serde(rename = "type")]
    pub kind: String,
    #[schemars(with = "BTreeMap<String, Value>")]
    pub params: Map<String, Value>,
}

/// The mask a layer of `el` is drawn through, if it has one.
pub(super) fn frame_mask(el: &Element) -> Option<FrameMask> {
    if !crate::masks::takes_mask(el) {
        return None;
    }
    let (kind, given) = crate::masks::first(el)?;
    let mut params = if crate::masks::KINDS.contains(&kind) { crate::masks::defaults(kind, 1.0, 1.0) } else { Map::new() };
    params.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
    // OpenCut leaves the element whole when its mask is not active (an open path, no text).
    crate::masks::is_active(kind, &params).then(|| FrameMask { kind: kind.to_string(), params })
}
