//! `editor.audioPlan(from, to, step)`: the clips heard over a span (`crate::audio`), as JSON text.

use wasm_bindgen::prelude::*;

use super::{api_error, WasmEditor};
use crate::error_code::ErrorCode;

#[wasm_bindgen]
impl WasmEditor {
    /// The audio plan as JSON text (`null` without a project). Throws INVALID_SECONDS for a bad span.
    #[wasm_bindgen(js_name = audioPlanJson)]
    pub fn audio_plan_json(&self, from: f64, to: f64, step: f64) -> Result<String, JsValue> {
        let plan = self.inner.audio_plan(from, to, step)?;
        serde_json::to_string(&plan).map_err(|e| api_error(ErrorCode::Internal, &e.to_string()))
    }
}
