//! The media-analysis module's wasm-bindgen API (`neuralcut_media`, its own artefact): the meters
//! detect_silences and detect_scenes push decoded media through (crate::silence, crate::scenes).
//! Kept out of the engine module: only those two host tools use it, so a page that never measures
//! media never loads it (the engine is over its size goal; the meters measured 4.5 KB gzipped).

mod scenes;
mod silence;

use wasm_bindgen::prelude::*;

use crate::error_code::ErrorCode;

/// A JS `Error` with code INVALID_ARGUMENT, as the engine's are (js/errors.ts rethrows it).
fn invalid(message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("code"), &JsValue::from_str(ErrorCode::InvalidArgument.as_str()));
    err.into()
}
