//! The wasm-bindgen boundary: converts between JS and the core, nothing more. Every rule lives in
//! the core ([`crate::Editor`]); this module only moves values across and turns errors into JS.
//!
//! Transport: tool arguments come in as a JSON string and tool results go out as a JSON string
//! that the TypeScript layer parses (measured faster than serde-wasm-bindgen object conversion
//! for timeline-sized values; see docs/package.md). The option objects of `addAsset` and
//! `addSticker` come in as JSON text too (written by js/options-json.ts) and are checked inside
//! the function body, so a bad value is an ordinary error, never a trap.

mod audio;
mod context;
mod effects;
mod frame;
mod opencut;
mod options;
#[cfg(test)]
mod tests;

use crate::error_code::{CodedError, ErrorCode};
use std::sync::Once;

use wasm_bindgen::prelude::*;

use crate::Editor;

/// Installs the panic hook (and the case mappings of src/text.rs) once per instance. wasm32-unknown-unknown cannot unwind on stable
/// Rust (the release profile aborts), so instead of letting the abort trap as a bare
/// `unreachable`, the hook throws a JS `Error` with code `INTERNAL` and the panic's message out
/// of the call. The instance is left poisoned (borrow flags, shadow stack): js/engine.ts then
/// re-instantiates the module and replays the editor's committed changes (docs/mcp.md).
fn install_hooks() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        // Case mappings of non-ASCII text (src/text.rs says why).
        crate::text::set_host_case(|s| String::from(js_sys::JsString::from(s).to_lower_case()), |s| String::from(js_sys::JsString::from(s).to_upper_case()));
        std::panic::set_hook(Box::new(|info| {
            let payload = info.payload();
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_string());
            let at = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line())).unwrap_or_default();
            wasm_bindgen::throw_val(api_error(ErrorCode::Internal, &format!("internal error: {what}{at}")));
        }));
    });
}

/// A JS `Error` with a stable `code` property; the TypeScript layer rethrows it as
/// `NeuralCutError`.
pub(crate) fn api_error(code: ErrorCode, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("code"), &JsValue::from_str(code.as_str()));
    err.into()
}

/// The one conversion of the engine's errors to JS, so `?` throws them. (A blanket impl over
/// `CodedError` is not allowed for the foreign `JsValue`: one line per type instead.)
macro_rules! thrown_as_js {
    ($($t:ty),*) => {$(
        impl From<$t> for JsValue {
            fn from(e: $t) -> JsValue {
                api_error(CodedError::code(&e), &e.to_string())
            }
        }
    )*};
}
thrown_as_js!(crate::ApiError, crate::model::ProjectError, crate::ToolError);

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
        install_hooks();
        let inner = match project_json {
            None => Editor::new(),
            Some(json) => Editor::from_json(&json)?,
        };
        Ok(WasmEditor { inner, pending: context::Pending::default() })
    }

    /// Adds a media asset to the library and returns its id. Throws `INVALID_ASSET`,
    /// `DUPLICATE_ID` or `NO_ACTIVE_PROJECT`.
    #[wasm_bindgen(js_name = addAsset)]
    pub fn add_asset(&mut self, options_json: &str) -> Result<String, JsValue> {
        let new = options::asset(options_json)?;
        Ok(self.inner.add_asset(new)?)
    }

    /// Adds a sticker to the catalog `add_sticker` draws from and returns its id. Throws
    /// `INVALID_STICKER` or `DUPLICATE_ID`.
    #[wasm_bindgen(js_name = addSticker)]
    pub fn add_sticker(&mut self, options_json: &str) -> Result<String, JsValue> {
        let s = options::sticker(options_json)?;
        Ok(self.inner.add_sticker(&s.id, &s.name, s.url)?)
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

    /// Opens an undo group: the steps recorded until `endGroup` undo and redo as one.
    #[wasm_bindgen(js_name = beginGroup)]
    pub fn begin_group(&mut self, label: &str) {
        self.inner.begin_group(label)
    }

    /// Closes the innermost undo group; false when none is open.
    #[wasm_bindgen(js_name = endGroup)]
    pub fn end_group(&mut self) -> bool {
        self.inner.end_group()
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

    /// TEST ONLY: runs `tool` (its change lands in this instance's memory) and then panics with
    /// `message`, so tests can check that a real panic in the wasm build is reported as an
    /// internal error and that the editor comes back at its last committed state, without that
    /// half-finished call. Reached only through `Symbol.for("neuralcut.testOnlyPanic")` on an
    /// editor, or the MCP server's unlisted `__test_only_panic` tool when the server was started
    /// with NEURALCUT_TEST_ONLY_PANIC=1. Never reachable from a tool call.
    #[wasm_bindgen(js_name = __testOnlyPanic)]
    pub fn test_only_panic(&mut self, tool: &str, args_json: &str, message: &str) {
        let _ = self.inner.call_tool_json(tool, args_json);
        panic!("{message}");
    }

    /// Restricts the effect tools to the effect types the host renders. Throws `INVALID_EFFECTS`
    /// for an id that is not a registered effect, changing nothing.
    #[wasm_bindgen(js_name = setEffects)]
    pub fn set_effects(&mut self, ids: Vec<String>) -> Result<(), JsValue> {
        Ok(self.inner.set_effects(&ids)?)
    }

    /// The effect types the effect tools offer, in registry order.
    pub fn effects(&self) -> Vec<String> {
        self.inner.effects().ids().into_iter().map(String::from).collect()
    }

    /// Declares the element types the host draws. Throws `INVALID_ELEMENT_KINDS` for a name that
    /// is not an element type, changing nothing.
    #[wasm_bindgen(js_name = setElementKinds)]
    pub fn set_element_kinds(&mut self, names: Vec<String>) -> Result<(), JsValue> {
        Ok(self.inner.set_element_kinds(&names)?)
    }

    /// The element types the host draws.
    #[wasm_bindgen(js_name = elementKinds)]
    pub fn element_kinds(&self) -> Vec<String> {
        self.inner.element_kinds().names(true).into_iter().map(String::from).collect()
    }

    /// The whole project as a JSON string (undefined when none is loaded).
    #[wasm_bindgen(js_name = projectJson)]
    pub fn project_json(&self) -> Option<String> {
        self.inner.project_json()
    }
}
