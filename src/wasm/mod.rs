//! The wasm-bindgen boundary: converts between JS and the core, nothing more. Every rule lives in
//! the core ([`crate::Editor`]); this module only moves values across and turns errors into JS.
//!
//! Transport: tool arguments come in as a JSON string and tool results go out as a JSON string
//! that the TypeScript layer parses (measured faster than serde-wasm-bindgen object conversion
//! for timeline-sized values; see docs/package.md). Small option objects (`addAsset`,
//! `addSticker`) come in as JS objects typed by tsify and converted inside the function body, so
//! a bad value is an ordinary error, never a trap.

mod context;
mod effects;
mod frame;
mod options;
mod opencut;

use std::sync::Once;

use wasm_bindgen::prelude::*;

use crate::Editor;

pub use options::{AssetOptions, FpsOption, StickerOptions};

/// Installs console_error_panic_hook once, so a panic reports its message.
fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(console_error_panic_hook::set_once);
}

/// A JS `Error` with a stable `code` property; the TypeScript layer rethrows it as
/// `NeuralCutError`.
pub(crate) fn api_error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("code"), &JsValue::from_str(code));
    err.into()
}

/// One project, its undo history and the asset-context cache.
#[wasm_bindgen]
pub struct WasmEditor {
    inner: Editor,
    pending: context::Pending,
}

#[wasm_bindgen]
impl WasmEditor {
    /// An editor on an empty project, or on `projectJson` (a string from `projectJson()`).
    /// Throws an `Error` with `code` INVALID_JSON, UNSUPPORTED_PROJECT or INVALID_PROJECT.
    #[wasm_bindgen(constructor)]
    pub fn new(project_json: Option<String>) -> Result<WasmEditor, JsValue> {
        install_panic_hook();
        let inner = match project_json {
            None => Editor::new(),
            Some(json) => Editor::from_json(&json).map_err(|e| api_error(e.code, &e.message))?,
        };
        Ok(WasmEditor { inner, pending: context::Pending::default() })
    }

    /// Adds a media asset to the library and returns its id. Throws `INVALID_ASSET`,
    /// `DUPLICATE_ID` or `NO_ACTIVE_PROJECT`.
    #[wasm_bindgen(js_name = addAsset)]
    pub fn add_asset(&mut self, options: tsify::Ts<AssetOptions>) -> Result<String, JsValue> {
        let new = options::asset(&options)?;
        self.inner.add_asset(new).map_err(|e| api_error(e.code, &e.message))
    }

    /// Adds a sticker to the catalog `add_sticker` draws from and returns its id.
    #[wasm_bindgen(js_name = addSticker)]
    pub fn add_sticker(&mut self, options: tsify::Ts<StickerOptions>) -> Result<String, JsValue> {
        let s = options::sticker(&options)?;
        self.inner.add_sticker(&s.id, &s.name, s.url).map_err(|e| api_error(e.code, &e.message))
    }

    /// Runs a tool. `argsJson` is a JSON object (or `null`); returns the output, or
    /// `{ error, code, hint?, ... }`, as a JSON string. Never throws for tool errors.
    #[wasm_bindgen(js_name = callTool)]
    pub fn call_tool(&mut self, name: &str, args_json: &str) -> String {
        self.inner.call_tool_json(name, args_json)
    }

    pub fn undo(&mut self) -> bool {
        self.inner.undo().is_some()
    }

    pub fn redo(&mut self) -> bool {
        self.inner.redo().is_some()
    }

    #[wasm_bindgen(js_name = canUndo)]
    pub fn can_undo(&self) -> bool {
        self.inner.can_undo()
    }

    #[wasm_bindgen(js_name = canRedo)]
    pub fn can_redo(&self) -> bool {
        self.inner.can_redo()
    }

    /// Bumped on every committed change.
    pub fn revision(&self) -> f64 {
        self.inner.revision() as f64
    }

    /// Restricts the effect tools to the effect types the host renders. Throws `INVALID_EFFECTS`
    /// for an id that is not a registered effect, changing nothing.
    #[wasm_bindgen(js_name = setEffects)]
    pub fn set_effects(&mut self, ids: Vec<String>) -> Result<(), JsValue> {
        self.inner.set_effects(&ids).map_err(|e| api_error(e.code, &e.message))
    }

    /// The effect types the effect tools offer, in registry order.
    pub fn effects(&self) -> Vec<String> {
        self.inner.effects().ids().into_iter().map(String::from).collect()
    }

    /// The whole project as a JSON string (undefined when none is loaded).
    #[wasm_bindgen(js_name = projectJson)]
    pub fn project_json(&self) -> Option<String> {
        self.inner.project_json()
    }
}
