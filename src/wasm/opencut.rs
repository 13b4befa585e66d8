//! OpenCut scenes across the boundary, as JSON text like tool calls: `js/opencut.ts` (the
//! `neuralcut/opencut` entry) strips what JSON cannot carry and puts it back afterwards.

use crate::error_code::ErrorCode;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{api_error, WasmEditor};

#[wasm_bindgen]
impl WasmEditor {
    /// Replaces the timeline and media library with an OpenCut scene `{ tracks, assets,
    /// settings? }` given as JSON text. Not an undo step. Throws INVALID_JSON or INVALID_SCENE
    /// (and then nothing changed).
    #[wasm_bindgen(js_name = loadOpenCutScene)]
    pub fn load_opencut_scene(&mut self, scene_json: &str) -> Result<(), JsValue> {
        let scene: Value = serde_json::from_str(scene_json).map_err(|e| api_error(ErrorCode::InvalidJson, &format!("OpenCut scene is not valid JSON: {e}")))?;
        Ok(crate::opencut::load_scene(&mut self.inner, &scene)?)
    }

    /// Takes OpenCut's normalised copy of the timeline (pruned, rippled) given as JSON text,
    /// keeping the undo history. Throws INVALID_JSON or INVALID_SCENE (and then nothing changed).
    #[wasm_bindgen(js_name = adoptOpenCutScene)]
    pub fn adopt_opencut_scene(&mut self, scene_json: &str) -> Result<(), JsValue> {
        let scene: Value = serde_json::from_str(scene_json).map_err(|e| api_error(ErrorCode::InvalidJson, &format!("OpenCut scene is not valid JSON: {e}")))?;
        Ok(crate::opencut::adopt_scene(&mut self.inner, &scene)?)
    }

    /// The timeline as OpenCut's `{ tracks: { overlay, main, audio } }`, as JSON text. Throws
    /// NO_ACTIVE_PROJECT or NO_ACTIVE_TIMELINE.
    #[wasm_bindgen(js_name = openCutSceneJson)]
    pub fn opencut_scene_json(&self) -> Result<String, JsValue> {
        Ok(crate::text::json(&crate::opencut::scene(&self.inner)?))
    }
}
