//! The option objects of `addAsset` (its struct is the core's `AssetOptions`) and `addSticker`
//! (typed for TypeScript by tsify), converted with serde-wasm-bindgen inside the function body.

use crate::error_code::ErrorCode;
use serde::Deserialize;
use tsify::{Ts, Tsify};
use wasm_bindgen::JsValue;

use super::api_error;
use crate::{AssetOptions, NewAsset};

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

/// `addAsset`'s options, typed for TypeScript by the generated `AssetOptions` (the struct lives in
/// the core, `crate::AssetOptions`, so its typings come from the registry's generator).
pub(super) fn asset(options: &JsValue) -> Result<NewAsset, JsValue> {
    let fail = |detail: String| api_error(ErrorCode::InvalidAsset, &format!("addAsset options are invalid: {detail}"));
    let value: serde_json::Value = serde_wasm_bindgen::from_value(options.clone()).map_err(|e| fail(e.to_string()))?;
    if !value.is_object() {
        return Err(fail("expected an object".into()));
    }
    serde_json::from_value::<AssetOptions>(value).map(NewAsset::from).map_err(|e| fail(e.to_string()))
}

pub(super) fn sticker(options: &Ts<StickerOptions>) -> Result<StickerOptions, JsValue> {
    convert(options, ErrorCode::InvalidSticker, "addSticker options are invalid")
}
