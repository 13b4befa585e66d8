//! The CPU effects path (`createEffectRenderer({ backend: "cpu" })`): wasm-bindgen exports over
//! the core's [`FastEffects`]. The frame lives in wasm memory; JS writes the source pixels into
//! a view of it, and shows or reads the result through another view, so no bytes cross the
//! boundary twice.

use wasm_bindgen::prelude::*;

use super::{err, parse_effects};
use crate::effects::fast::FastEffects;

/// The largest frame side the CPU path takes (Canvas2D's own limit in Chromium is 32 767; the
/// memory of a frame bounds it well before).
const MAX_SIDE: u32 = 16384;

/// One CPU renderer: the source frame, the result and the scratch.
#[wasm_bindgen]
pub struct CpuEffects {
    source: Vec<u8>,
    output: Vec<u8>,
    width: u32,
    height: u32,
    fx: FastEffects,
}

impl Default for CpuEffects {
    fn default() -> Self {
        CpuEffects::new()
    }
}

fn view(bytes: &mut [u8]) -> js_sys::Uint8Array {
    // SAFETY: the view is handed to JS and used before the next call into this module, which
    // is the only thing that can grow (and so move) wasm memory.
    unsafe { js_sys::Uint8Array::view_mut_raw(bytes.as_mut_ptr(), bytes.len()) }
}

#[wasm_bindgen]
impl CpuEffects {
    #[wasm_bindgen(constructor)]
    pub fn new() -> CpuEffects {
        console_error_panic_hook::set_once();
        CpuEffects { source: Vec::new(), output: Vec::new(), width: 0, height: 0, fx: FastEffects::new() }
    }

    /// The largest width or height accepted.
    #[wasm_bindgen(getter, js_name = maxSize)]
    pub fn max_size(&self) -> u32 {
        MAX_SIDE
    }

    /// Makes room for a `width × height` source and returns a view of it for JS to fill. The view
    /// is valid until the next call.
    #[wasm_bindgen(js_name = sourceView)]
    pub fn source_view(&mut self, width: u32, height: u32) -> Result<js_sys::Uint8Array, JsError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(err(format!("width and height must be between 1 and {MAX_SIDE}, got {width}x{height}")));
        }
        let len = width as usize * height as usize * 4;
        for buffer in [&mut self.source, &mut self.output] {
            if buffer.len() != len {
                buffer.clear();
                buffer.try_reserve_exact(len).map_err(|_| err(format!("not enough memory for a {width}x{height} frame")))?;
                buffer.resize(len, 0);
            }
        }
        self.width = width;
        self.height = height;
        Ok(view(&mut self.source))
    }

    /// The size of the frame held, `[width, height]` (`[0, 0]` before the first).
    pub fn size(&self) -> Vec<u32> {
        vec![self.width, self.height]
    }

    /// Applies `effects` to the source held, into the result. Invalid effects are refused before
    /// anything changes.
    pub fn apply(&mut self, effects: JsValue) -> Result<(), JsError> {
        let effects = parse_effects(&effects)?;
        if self.width == 0 {
            return Err(err("no frame to apply effects to"));
        }
        self.output.copy_from_slice(&self.source);
        self.fx.apply(&mut self.output, self.width, self.height, &effects).map_err(err)
    }

    /// A view of the result (valid until the next call).
    #[wasm_bindgen(js_name = outputView)]
    pub fn output_view(&mut self) -> js_sys::Uint8Array {
        view(&mut self.output)
    }
}
