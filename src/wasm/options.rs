//! The option objects of `addAsset` (its struct is the core's `AssetOptions`) and `addSticker`,
//! given as JSON text: js/options-json.ts writes the value serde-wasm-bindgen made of the JS
//! object (and refuses what it refused), which left the engine wasm 4 KB gzipped lighter.

use crate::error_code::ErrorCode;
use crate::model::fields::Field;
use serde::de::Error;
use serde_json::{Map, Value};
use wasm_bindgen::JsValue;

use super::api_error;
use crate::{AssetOptions, NewAsset};

/// What `addSticker` takes.
pub(super) struct StickerOptions {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) url: Option<String>,
}

impl StickerOptions {
    /// Read key by key with the messages serde's derive (`deny_unknown_fields`) gave, as
    /// `AssetOptions::from_map` does.
    fn from_map(map: Map<String, Value>) -> Result<StickerOptions, serde_json::Error> {
        let (mut id, mut name, mut url) = (None, None, None);
        for (key, v) in map {
            match key.as_str() {
                "id" => id = Some(Field::read(v)?),
                "name" => name = Some(Field::read(v)?),
                "url" => url = Field::read(v)?,
                other => return Err(Error::unknown_field(other, &["id", "name", "url"])),
            }
        }
        let id = id.ok_or_else(|| Error::missing_field("id"))?;
        let name = name.ok_or_else(|| Error::missing_field("name"))?;
        Ok(StickerOptions { id, name, url })
    }
}

/// Parsed to a `serde_json::Value` first, then read: the object check and then the fields'
/// messages come in the order they did when the options crossed as a JS object.
fn convert<T>(json: &str, code: ErrorCode, what: &str, read: fn(Map<String, Value>) -> Result<T, serde_json::Error>) -> Result<T, JsValue> {
    let fail = |detail: String| api_error(code, &format!("{what}: {detail}"));
    match serde_json::from_str(json).map_err(|e| fail(e.to_string()))? {
        Value::Object(map) => read(map).map_err(|e| fail(e.to_string())),
        _ => Err(fail("expected an object".into())),
    }
}

pub(super) fn asset(json: &str) -> Result<NewAsset, JsValue> {
    convert(json, ErrorCode::InvalidAsset, "addAsset options are invalid", AssetOptions::from_map).map(NewAsset::from)
}

pub(super) fn sticker(json: &str) -> Result<StickerOptions, JsValue> {
    convert(json, ErrorCode::InvalidSticker, "addSticker options are invalid", StickerOptions::from_map)
}
