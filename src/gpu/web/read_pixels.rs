//! `readPixels`: the last frame back to JS as RGBA8 rows, through a Promise.

use wasm_bindgen::prelude::*;

use super::{err, Engine, WasmEffectRenderer};
use crate::gpu::readback::ReadBack;

#[wasm_bindgen]
impl WasmEffectRenderer {
    /// Reads the last rendered frame back: RGBA8 rows, top to bottom. WebGPU has no synchronous
    /// read-back, so this resolves later (WebGL2 resolves at once).
    #[wasm_bindgen(js_name = readPixels, unchecked_return_type = "Promise<Uint8ClampedArray>")]
    pub fn read_pixels(&self, x: u32, y: u32, width: Option<u32>, height: Option<u32>) -> Result<js_sys::Promise, JsError> {
        let (fw, fh) = self.engine.size().ok_or_else(|| err("nothing rendered yet"))?;
        let (width, height) = (width.unwrap_or(fw.saturating_sub(x)), height.unwrap_or(fh.saturating_sub(y)));
        // In u64: a region from JS near u32::MAX must not wrap around into the frame.
        if width == 0 || height == 0 || x as u64 + width as u64 > fw as u64 || y as u64 + height as u64 > fh as u64 {
            return Err(err(format!("region {width}x{height} at ({x}, {y}) is outside the {fw}x{fh} frame")));
        }
        let e = match &self.engine {
            Engine::Wgpu(e) => e,
            // WebGL2 reads back at once.
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => {
                let pixels: JsValue = e.renderer.read_pixels(x, y, width, height).map_err(err)?.into();
                return Ok(js_sys::Promise::resolve(&pixels));
            }
        };
        let device = e.renderer.device().clone();
        let texture = e.renderer.output_texture().expect("sized");
        let read = ReadBack::start(&device, e.renderer.queue(), texture, (x, y), (width, height));
        let state: std::rc::Rc<std::cell::RefCell<Option<Result<(), wgpu::BufferAsyncError>>>> = Default::default();
        let done = state.clone();
        // Resolved by the mapping callback, so WebGPU can wait on it without polling.
        let resolver: std::rc::Rc<std::cell::RefCell<Option<js_sys::Function>>> = Default::default();
        let slot = resolver.clone();
        let mapped = js_sys::Promise::new(&mut |resolve, _| *slot.borrow_mut() = Some(resolve));
        read.slice().map_async(wgpu::MapMode::Read, move |r| {
            *done.borrow_mut() = Some(r);
            if let Some(resolve) = resolver.borrow_mut().take() {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            }
        });
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            // WebGPU resolves the mapping by itself; the Promise waits for its callback.
            loop {
                let _ = device.poll(wgpu::PollType::Poll);
                if let Some(r) = state.borrow_mut().take() {
                    r.map_err(|e| JsValue::from(err(format!("read-back failed: {e}"))))?;
                    break;
                }
                wasm_bindgen_futures::JsFuture::from(mapped.clone()).await?;
            }
            let out = js_sys::Uint8ClampedArray::new_with_length(width * height * 4);
            read.rows(|y, row| out.subarray(y * width * 4, (y + 1) * width * 4).copy_from(row)).map_err(|e| JsValue::from(err(e)))?;
            Ok(out.into())
        }))
    }
}
