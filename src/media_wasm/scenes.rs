//! detect_scenes' meter (crate::scenes) for the page: the host tool pushes each decoded frame in
//! the decoder's own layout, then reads the cuts.

use wasm_bindgen::prelude::*;

use super::invalid;
use crate::scenes::{PixelFormat, SceneMeter as Meter};

#[wasm_bindgen]
pub struct SceneMeter {
    inner: Meter,
    /// Where the page's `copyTo` writes the next frame (frameBuffer).
    frame: Vec<u8>,
}

#[wasm_bindgen]
impl SceneMeter {
    /// Throws INVALID_ARGUMENT for a threshold outside (0, 1].
    #[wasm_bindgen(constructor)]
    pub fn new(threshold: f64) -> Result<SceneMeter, JsValue> {
        Meter::new(threshold).map(|inner| SceneMeter { inner, frame: Vec::new() }).map_err(|_| invalid("threshold must be a number above 0, at most 1"))
    }

    /// Whether frames in WebCodecs' pixel format `format` can be pushed as they are (I420, I420A,
    /// NV12, RGBA, RGBX, BGRA, BGRX); other layouts are drawn to RGBA first.
    pub fn reads(format: &str) -> bool {
        PixelFormat::from_name(format).is_some()
    }

    /// One frame shown from `time` seconds, `width` × `height` in `format`; false (and skipped)
    /// when the layout is unknown or the bytes do not fit it.
    pub fn push(&mut self, time: f64, format: &str, width: u32, height: u32, data: &[u8]) -> bool {
        PixelFormat::from_name(format).is_some_and(|f| self.inner.push(time, f, width, height, data).is_ok())
    }

    /// The address, in this module's memory, of `size` bytes for the next frame: the page's
    /// `VideoFrame.copyTo` writes the decoder's pixels there, and `pushBuffered` reads them, so a
    /// frame is copied once instead of twice (into JS, then into the module).
    #[wasm_bindgen(js_name = frameBuffer)]
    pub fn frame_buffer(&mut self, size: usize) -> *mut u8 {
        self.frame.resize(size, 0);
        self.frame.as_mut_ptr()
    }

    /// `push` for the frame written at `frameBuffer`.
    #[wasm_bindgen(js_name = pushBuffered)]
    pub fn push_buffered(&mut self, time: f64, format: &str, width: u32, height: u32) -> bool {
        PixelFormat::from_name(format).is_some_and(|f| self.inner.push(time, f, width, height, &self.frame).is_ok())
    }

    /// Frames measured so far.
    pub fn frames(&self) -> f64 {
        self.inner.frames() as f64
    }

    /// The cuts found, in seconds of the times pushed.
    pub fn cuts(&self) -> Vec<f64> {
        self.inner.cuts()
    }
}
