//! `editor.frameAt(seconds)`: the layers of the picture at a time (`crate::frame`), as JSON text.

use crate::error_code::ErrorCode;
use wasm_bindgen::prelude::*;

use super::{api_error, WasmEditor};

#[wasm_bindgen]
impl WasmEditor {
    /// The frame at `seconds` as JSON text (`null` without a project). Throws INVALID_SECONDS
    /// for a non-finite or out-of-range time.
    #[wasm_bindgen(js_name = frameAtJson)]
    pub fn frame_at_json(&self, seconds: f64) -> Result<String, JsValue> {
        let frame = self.inner.frame_at(seconds)?;
        serde_json::to_string(&frame).map_err(|e| api_error(ErrorCode::Internal, &e.to_string()))
    }
}
