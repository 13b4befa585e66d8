//! The browser effects module (`neuralcut/effects`): wasm-bindgen exports over [`Renderer`].
//! Thin: parameter rules come from the core registry, the math from the shaders. The JS entry
//! `js/effects.ts` wraps these exports in `createEffectRenderer`.
//!
//! One job per file: the exports here, `backend.rs` (WebGPU or WebGL2, the device), `canvas.rs`
//! (showing frames on a canvas), `source.rs` (pictures in, cropped to the frame),
//! `read_pixels.rs` (frames back to JS), `frames.rs` (the compositor's exports) and `cpu.rs` (the
//! CPU effects path). WebGL2 runs through `crate::gpu::gl` behind the same exports.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod backend;
mod canvas;
mod cpu;
mod frames;
mod read_pixels;
mod source;

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
    engine: Engine,
    backend: &'static str,
}

/// What runs the passes: wgpu (WebGPU), or the WebGL2 executor (`crate::gpu::gl`).
enum Engine {
    Wgpu(Box<WgpuEngine>),
    #[cfg(feature = "effects-webgl")]
    Gl(Box<GlEngine>),
}

struct WgpuEngine {
    renderer: Renderer,
    _instance: wgpu::Instance,
    _adapter: wgpu::Adapter,
    /// The canvas shown to the user, when the host gave one (else the renderer is headless).
    output: Option<Presenter>,
    /// The frame compositor (`neuralcut/render`), made on first use.
    compositor: Option<Compositor>,
}

#[cfg(feature = "effects-webgl")]
struct GlEngine {
    renderer: crate::gpu::gl::GlRenderer,
    /// The canvas shown to the user, when the host gave one.
    canvas: Option<Canvas>,
    compositor: Option<crate::gpu::gl::compose::GlCompositor>,
}

#[cfg(feature = "effects-webgl")]
impl Drop for GlEngine {
    fn drop(&mut self) {
        let gl = self.renderer.gl().clone();
        if let Some(mut c) = self.compositor.take() {
            c.delete(&gl);
        }
        // A headless renderer's context is its own: lose it now rather than at garbage
        // collection, as a page may hold only a few WebGL contexts and the browser drops the
        // oldest (a live renderer's) beyond that. A host's canvas keeps its context for reuse.
        if self.canvas.is_none() {
            if let Ok(Some(ext)) = gl.get_extension("WEBGL_lose_context") {
                if let Ok(lose) = js_sys::Reflect::get(&ext, &"loseContext".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
                    let _ = lose.call0(&ext);
                }
            }
        }
    }
}

impl WgpuEngine {
    fn new(opened: backend::Opened, canvas: Option<Canvas>) -> Result<WgpuEngine, JsError> {
        let (instance, surface, adapter, device, queue) = opened;
        let output = match (canvas, surface) {
            (Some(canvas), Some(surface)) => Some(Presenter::new(canvas, surface, &adapter)?),
            _ => None,
        };
        Ok(WgpuEngine { renderer: Renderer::new(device, queue), _instance: instance, _adapter: adapter, output, compositor: None })
    }
}

#[cfg(feature = "effects-webgl")]
impl GlEngine {
    fn new(gl: web_sys::WebGl2RenderingContext, canvas: Option<Canvas>) -> Result<GlEngine, String> {
        Ok(GlEngine { renderer: crate::gpu::gl::GlRenderer::new(gl)?, canvas, compositor: None })
    }
}

impl Engine {
    fn max_size(&self) -> u32 {
        match self {
            Engine::Wgpu(e) => e.renderer.max_size(),
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => e.renderer.max_size(),
        }
    }

    fn size(&self) -> Option<(u32, u32)> {
        match self {
            Engine::Wgpu(e) => e.renderer.size(),
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => e.renderer.size(),
        }
    }

    fn resize(&mut self, width: u32, height: u32) -> Result<(), String> {
        match self {
            Engine::Wgpu(e) => e.renderer.resize(width, height),
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => e.renderer.resize(width, height),
        }
    }

    /// Copies the top-left `width × height` of `picture` (the JS value it was read from is
    /// `source`) into the source texture.
    fn upload(&mut self, picture: Picture, source: &JsValue, width: u32, height: u32) -> Result<(), String> {
        match self {
            Engine::Wgpu(e) => {
                let _ = source;
                let texture = e.renderer.source_texture().expect("resized").clone();
                picture.upload(e.renderer.queue(), &texture, width, height);
                Ok(())
            }
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => {
                let _ = picture;
                crate::gpu::gl::upload(e.renderer.gl(), e.renderer.source_texture().expect("resized"), source, width, height)
            }
        }
    }

    fn render(&mut self, effects: &[Effect]) -> Result<(), String> {
        match self {
            Engine::Wgpu(e) => e.renderer.render(effects),
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => e.renderer.render(effects),
        }
    }

    /// Draws the last result on the canvas, if there is one.
    fn show(&mut self, width: u32, height: u32) -> Result<(), JsError> {
        match self {
            Engine::Wgpu(e) => match e.output.as_mut() {
                Some(out) => out.show(&mut e.renderer, width, height),
                None => Ok(()),
            },
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => match e.canvas.as_ref() {
                Some(canvas) => {
                    canvas.fit(width, height);
                    e.renderer.show().map_err(err)
                }
                None => Ok(()),
            },
        }
    }
}

/// Creates a renderer. With a `canvas`, every `render` is shown on it; without one the renderer
/// is headless (results stay on the GPU for `readPixels`). `backend` is "auto" (WebGPU, else
/// WebGL2), "webgpu" or "webgl2". `createEffectRenderer` (js/effects.ts) resolves "auto" itself,
/// software adapters included, and passes the backend it chose.
#[wasm_bindgen(js_name = createRenderer)]
pub async fn create_renderer(canvas: JsValue, backend: String) -> Result<WasmEffectRenderer, JsError> {
    console_error_panic_hook::set_once();
    let canvas = if canvas.is_undefined() || canvas.is_null() { None } else { Some(Canvas::from_js(&canvas)?) };
    let (engine, backend) = backend::open(canvas, &backend).await?;
    Ok(WasmEffectRenderer { engine, backend })
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
        self.engine.max_size()
    }

    /// Renders `source` with `effects` applied in order at `width × height`, and shows the result
    /// on the canvas (resized to match), if there is one. The source is copied from its top-left
    /// corner and must be at least that large. Invalid effects are refused before anything is
    /// drawn.
    pub fn render(&mut self, source: JsValue, width: u32, height: u32, effects: JsValue) -> Result<(), JsError> {
        let effects = parse_effects(&effects)?;
        let max = self.engine.max_size();
        if width == 0 || height == 0 || width > max || height > max {
            return Err(err(format!("width and height must be between 1 and {max}, got {width}x{height}")));
        }
        if source.is_undefined() || source.is_null() {
            // Same frame, new effects (e.g. a parameter dragged while paused): no upload.
            if self.engine.size() != Some((width, height)) {
                return Err(err(format!("no source given and no earlier {width}x{height} frame to reuse")));
            }
            self.engine.render(&effects).map_err(err)?;
            return self.engine.show(width, height);
        }
        let picture = Picture::from_js(&source).ok_or_else(|| {
            err("source must be an ImageBitmap, ImageData, HTMLCanvasElement, OffscreenCanvas, HTMLVideoElement, VideoFrame or HTMLImageElement")
        })?;
        let (sw, sh) = picture.size();
        if sw < width || sh < height {
            return Err(err(format!("source is {sw}x{sh}, smaller than the requested {width}x{height}")));
        }
        self.engine.resize(width, height).map_err(err)?;
        self.engine.upload(picture, &source, width, height).map_err(err)?;
        self.engine.render(&effects).map_err(err)?;
        self.engine.show(width, height)
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
