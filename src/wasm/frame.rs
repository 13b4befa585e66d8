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

/// `frame::place` for a media layer whose source size only its picture tells (the frame leaves
/// its `placement` out): the renderer asks here rather than repeating the fit in JS.
/// `transform_json` is the layer's `transform`.
#[wasm_bindgen(js_name = placeLayerJson)]
pub fn place_layer_json(transform_json: &str, canvas_width: f64, canvas_height: f64, source_width: f64, source_height: f64) -> Result<String, JsValue> {
    let tr = crate::frame::transform_from_json(transform_json).map_err(|e| api_error(ErrorCode::InvalidJson, &e.to_string()))?;
    let placement = crate::frame::place(canvas_width, canvas_height, source_width, source_height, &tr);
    serde_json::to_string(&placement).map_err(|e| api_error(ErrorCode::Internal, &e.to_string()))
}
