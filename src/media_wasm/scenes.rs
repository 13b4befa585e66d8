//! detect_scenes' meter (crate::scenes) for the page: the host tool pushes each decoded frame in
//! the decoder's own layout, then reads the cuts.

use wasm_bindgen::prelude::*;

use super::invalid;
use crate::scenes::{PixelFormat, SceneMeter as Meter};

#[wasm_bindgen]
pub struct SceneMeter {
    inner: Meter,
}

#[wasm_bindgen]
impl SceneMeter {
    /// Throws INVALID_ARGUMENT for a threshold outside (0, 1].
    #[wasm_bindgen(constructor)]
    pub fn new(threshold: f64) -> Result<SceneMeter, JsValue> {
        Meter::new(threshold).map(|inner| SceneMeter { inner }).map_err(|_| invalid("threshold must be a number above 0, at most 1"))
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

    /// Frames measured so far.
    pub fn frames(&self) -> f64 {
        self.inner.frames() as f64
    }

    /// The cuts found, in seconds of the times pushed.
    pub fn cuts(&self) -> Vec<f64> {
        self.inner.cuts()
    }
}
