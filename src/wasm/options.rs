//! The option objects of `addAsset` (its struct is the core's `AssetOptions`) and `addSticker`,
//! given as JSON text: js/options-json.ts writes the value serde-wasm-bindgen made of the JS
//! object (and refuses what it refused), which left the engine wasm 4 KB gzipped lighter.

use crate::error_code::ErrorCode;
use serde::Deserialize;

use super::api_error;
use crate::{AssetOptions, NewAsset};

/// What `addSticker` takes.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct StickerOptions {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) url: Option<String>,
}

/// Parsed to a `serde_json::Value` first, then typed: the object check and then the fields'
/// messages come in the order they did when the options crossed as a JS object.
fn convert<T: serde::de::DeserializeOwned>(json: &str, code: ErrorCode, what: &str) -> Result<T, wasm_bindgen::JsValue> {
    let fail = |detail: String| api_error(code, &format!("{what}: {detail}"));
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| fail(e.to_string()))?;
    if !value.is_object() {
        return Err(fail("expected an object".into()));
    }
    serde_json::from_value(value).map_err(|e| fail(e.to_string()))
}

pub(super) fn asset(json: &str) -> Result<NewAsset, wasm_bindgen::JsValue> {
    convert::<AssetOptions>(json, ErrorCode::InvalidAsset, "addAsset options are invalid").map(NewAsset::from)
}

pub(super) fn sticker(json: &str) -> Result<StickerOptions, wasm_bindgen::JsValue> {
    convert(json, ErrorCode::InvalidSticker, "addSticker options are invalid")
}
