//! The browser effects module (`neuralcut/effects`): wasm-bindgen exports over [`Renderer`].
//! Thin: parameter rules come from the core registry, the math from the shaders. The JS entry
//! `js/effects.ts` wraps these exports in `createEffectRenderer`.
//!
//! One job per file: the exports here, `backend.rs` (WebGPU or WebGL2, the device), `canvas.rs`
//! (showing frames on a canvas), `source.rs` (pictures in, cropped to the frame),
//! `read_pixels.rs` (frames back to JS), `frames.rs` (the compositor's exports) and `timer.rs`
//! (the short wait the WebGL2 read-back polls with), `cpu.rs` (the CPU effects path).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod backend;
mod canvas;
mod cpu;
mod frames;
mod read_pixels;
mod source;
mod timer;

use canvas::{Canvas, Presenter};
use source::Picture;

use super::compose::Compositor;
use super::Renderer;
use crate::effects::reference::{self, Effect, RgbaImage};

fn err(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// Reads `[{ effectType, params }]` and validates every entry against the registry. The first
/// problem is an error naming the entry, the effect and the parameter.
fn parse_effects(value: &JsValue) -> Result<Vec<Effect>, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let list = value.dyn_ref::<js_sys::Array>().ok_or_else(|| err("effects must be an array of { effectType, params }"))?;
    let mut effects = Vec::with_capacity(list.length() as usize);
    for (i, item) in list.iter().enumerate() {
        if !item.is_object() {
            return Err(err(format!("effects[{i}] must be an object {{ effectType, params }}")));
        }
        let kind = js_sys::Reflect::get(&item, &"effectType".into()).unwrap_or(JsValue::UNDEFINED);
        let kind = kind.as_string().ok_or_else(|| err(format!("effects[{i}].effectType must be a string")))?;
        let params = js_sys::Reflect::get(&item, &"params".into()).unwrap_or(JsValue::UNDEFINED);
        let mut pairs: Vec<(String, Option<f64>)> = Vec::new();
        if !(params.is_undefined() || params.is_null()) {
            if !params.is_object() || js_sys::Array::is_array(&params) {
                return Err(err(format!("effects[{i}] ({kind}): params must be an object of numbers")));
            }
            for entry in js_sys::Object::entries(params.unchecked_ref()).iter() {
                let entry: js_sys::Array = entry.unchecked_into();
                pairs.push((entry.get(0).as_string().unwrap_or_default(), entry.get(1).as_f64()));
            }
        }
        effects.push(Effect::new(&kind, pairs).map_err(|e| err(format!("effects[{i}]: {e}")))?);
    }
    Ok(effects)
}

/// The effects renderer behind `createEffectRenderer` (js/effects.ts).
#[wasm_bindgen]
pub struct WasmEffectRenderer {
    renderer: Renderer,
    _instance: wgpu::Instance,
    _adapter: wgpu::Adapter,
    /// The canvas shown to the user, when the host gave one (else the renderer is headless).
    output: Option<Presenter>,
    backend: &'static str,
    /// The frame compositor (`neuralcut/render`), made on first use.
    compositor: Option<Compositor>,
}

/// Creates a renderer. With a `canvas`, every `render` is shown on it; without one the renderer
/// is headless (results stay on the GPU for `readPixels`). `backend` is "auto" (WebGPU, else
/// WebGL2), "webgpu" or "webgl2". `createEffectRenderer` (js/effects.ts) resolves "auto" itself,
/// software adapters included, and passes the backend it chose.
#[wasm_bindgen(js_name = createRenderer)]
pub async fn create_renderer(canvas: JsValue, backend: String) -> Result<WasmEffectRenderer, JsError> {
    console_error_panic_hook::set_once();
    let canvas = if canvas.is_undefined() || canvas.is_null() { None } else { Some(Canvas::from_js(&canvas)?) };
    let ((instance, surface, adapter, device, queue), name) = backend::open(canvas.as_ref(), &backend).await.map_err(err)?;
    let output = match (canvas, surface) {
        (Some(canvas), Some(surface)) => Some(Presenter::new(canvas, surface, &adapter)?),
        _ => None,
    };
    Ok(WasmEffectRenderer { renderer: Renderer::new(device, queue), _instance: instance, _adapter: adapter, output, backend: name, compositor: None })
}

#[wasm_bindgen]
impl WasmEffectRenderer {
    /// "webgpu" or "webgl2": the backend in use.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.backend.to_string()
    }

    /// The largest frame side the device accepts.
    #[wasm_bindgen(getter, js_name = maxSize)]
    pub fn max_size(&self) -> u32 {
        self.renderer.max_size()
    }

    /// Renders `source` with `effects` applied in order at `width × height`, and shows the result
    /// on the canvas (resized to match), if there is one. The source is copied from its top-left
    /// corner and must be at least that large. Invalid effects are refused before anything is
    /// drawn.
    pub fn render(&mut self, source: JsValue, width: u32, height: u32, effects: JsValue) -> Result<(), JsError> {
        let effects = parse_effects(&effects)?;
        let max = self.renderer.max_size();
        if width == 0 || height == 0 || width > max || height > max {
            return Err(err(format!("width and height must be between 1 and {max}, got {width}x{height}")));
        }
        if source.is_undefined() || source.is_null() {
            // Same frame, new effects (e.g. a parameter dragged while paused): no upload.
            if self.renderer.size() != Some((width, height)) {
                return Err(err(format!("no source given and no earlier {width}x{height} frame to reuse")));
            }
            self.renderer.render(&effects).map_err(err)?;
            return self.show(width, height);
        }
        let picture = Picture::from_js(&source).ok_or_else(|| {
            err("source must be an ImageBitmap, ImageData, HTMLCanvasElement, OffscreenCanvas, HTMLVideoElement, VideoFrame or HTMLImageElement")
        })?;
        let (sw, sh) = picture.size();
        if sw < width || sh < height {
            return Err(err(format!("source is {sw}x{sh}, smaller than the requested {width}x{height}")));
        }
        self.renderer.resize(width, height).map_err(err)?;
        let texture = self.renderer.source_texture().expect("resized").clone();
        picture.upload(self.renderer.queue(), &texture, width, height);
        self.renderer.render(&effects).map_err(err)?;
        self.show(width, height)
    }

    /// Draws the last result on the canvas, if there is one.
    fn show(&mut self, width: u32, height: u32) -> Result<(), JsError> {
        match self.output.as_mut() {
            Some(out) => out.show(&mut self.renderer, width, height),
            None => Ok(()),
        }
    }
}

/// Checks an effect list without rendering; throws the error `render` would.
#[wasm_bindgen(js_name = validateEffects)]
pub fn validate_effects(effects: JsValue) -> Result<(), JsError> {
    parse_effects(&effects).map(|_| ())
}

/// The CPU reference: `pixels` (RGBA8, `width × height`) with `effects` applied in order.
/// Defines what the GPU must produce; also a fallback where no GPU is available.
#[wasm_bindgen(js_name = applyEffectsCpu)]
pub fn apply_effects_cpu(pixels: &[u8], width: u32, height: u32, effects: JsValue) -> Result<Vec<u8>, JsError> {
    let effects = parse_effects(&effects)?;
    if pixels.len() != width as usize * height as usize * 4 {
        return Err(err(format!("pixels holds {} bytes, not {width}x{height}x4", pixels.len())));
    }
    Ok(reference::apply(&RgbaImage::new(width, height, pixels.to_vec()), &effects).pixels)
}
