//! The option objects of `addAsset` and `addSticker`: typed for TypeScript by tsify, converted
//! with serde-wasm-bindgen inside the function body.

use crate::error_code::ErrorCode;
use serde::Deserialize;
use tsify::{Ts, Tsify};
use wasm_bindgen::JsValue;

use super::api_error;
use crate::time::FrameRate;
use crate::NewAsset;

/// What `addAsset` takes (file handles stay in JS).
#[derive(Tsify, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssetOptions {
    /// Your own id; one is generated when absent.
    #[tsify(optional)]
    pub id: Option<String>,
    pub name: String,
    #[serde(rename = "type")]
    #[tsify(type = "\"video\" | \"audio\" | \"image\"")]
    pub kind: String,
    /// Seconds; required in practice for video and audio.
    #[tsify(optional)]
    pub duration: Option<f64>,
    #[tsify(optional)]
    pub width: Option<u32>,
    #[tsify(optional)]
    pub height: Option<u32>,
    /// `30`, or `{ numerator: 30000, denominator: 1001 }`.
    #[tsify(optional)]
    pub fps: Option<FpsOption>,
}

/// A frame rate: `30`, or `{ numerator: 30000, denominator: 1001 }`.
#[derive(Tsify, Deserialize)]
#[serde(untagged)]
pub enum FpsOption {
    Whole(u32),
    Rational { numerator: u32, denominator: u32 },
}

/// What `addSticker` takes.
#[derive(Tsify, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StickerOptions {
    pub id: String,
    pub name: String,
    #[tsify(optional)]
    pub url: Option<String>,
}

/// Converts through `serde_json::Value`: serde-wasm-bindgen reads only a struct's declared
/// fields, so `deny_unknown_fields` would never see a misspelt one (`durations: 10`).
fn convert<T: Tsify + serde::de::DeserializeOwned>(options: &Ts<T>, code: ErrorCode, what: &str) -> Result<T, JsValue>
where
    <T as Tsify>::JsType: wasm_bindgen::JsCast,
{
    let fail = |detail: String| api_error(code, &format!("{what}: {detail}"));
    let value: serde_json::Value = serde_wasm_bindgen::from_value(options.js_value()).map_err(|e| fail(e.to_string()))?;
    if !value.is_object() {
        return Err(fail("expected an object".into()));
    }
    serde_json::from_value(value).map_err(|e| fail(e.to_string()))
}

pub(super) fn asset(options: &Ts<AssetOptions>) -> Result<NewAsset, JsValue> {
    let o = convert(options, ErrorCode::InvalidAsset, "addAsset options are invalid")?;
    Ok(NewAsset {
        id: o.id,
        name: o.name,
        kind: o.kind,
        duration: o.duration,
        width: o.width,
        height: o.height,
        fps: o.fps.map(|f| match f {
            FpsOption::Whole(n) => FrameRate { numerator: n, denominator: 1 },
            FpsOption::Rational { numerator, denominator } => FrameRate { numerator, denominator },
        }),
    })
}

pub(super) fn sticker(options: &Ts<StickerOptions>) -> Result<StickerOptions, JsValue> {
    convert(options, ErrorCode::InvalidSticker, "addSticker options are invalid")
}
