//! `editor.effectsAt(seconds)`: the effect elements a host renders at a time, as JSON text.

use crate::error_code::ErrorCode;
use wasm_bindgen::prelude::*;

use super::{api_error, WasmEditor};

#[wasm_bindgen]
impl WasmEditor {
    /// The effect elements active at `seconds`, bottom to top, with their params, as JSON text.
    /// Throws INVALID_SECONDS for a non-finite or out-of-range time.
    #[wasm_bindgen(js_name = effectsAtJson)]
    pub fn effects_at_json(&self, seconds: f64) -> Result<String, JsValue> {
        let active = self.inner.active_effects(seconds)?;
        serde_json::to_string(&active).map_err(|e| api_error(ErrorCode::Internal, &e.to_string()))
    }
}
