//! The browser effects module (`neuralcut/effects`): wasm-bindgen exports over [`Renderer`].
//! Thin: parameter rules come from the core registry, the math from the shaders. The JS entry
//! `js/effects.ts` wraps these exports in `createEffectRenderer`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::compose::{BlendMode, Compositor, Quad};
use super::Renderer;
use crate::effects::reference::{self, Effect, RgbaImage};

/// The canvas the renderer draws on.
#[derive(Clone)]
enum Canvas {
    Element(web_sys::HtmlCanvasElement),
    Offscreen(web_sys::OffscreenCanvas),
}

impl Canvas {
    fn from_js(value: &JsValue) -> Result<Canvas, JsError> {
        if let Some(c) = value.dyn_ref::<web_sys::HtmlCanvasElement>() {
            Ok(Canvas::Element(c.clone()))
        } else if let Some(c) = value.dyn_ref::<web_sys::OffscreenCanvas>() {
            Ok(Canvas::Offscreen(c.clone()))
        } else {
            Err(JsError::new("canvas must be an HTMLCanvasElement or an OffscreenCanvas"))
        }
    }

    fn target(&self) -> wgpu::SurfaceTarget<'static> {
        match self {
            Canvas::Element(c) => wgpu::SurfaceTarget::Canvas(c.clone()),
            Canvas::Offscreen(c) => wgpu::SurfaceTarget::OffscreenCanvas(c.clone()),
        }
    }

    fn set_size(&self, width: u32, height: u32) {
        match self {
            Canvas::Element(c) => {
                c.set_width(width);
                c.set_height(height);
            }
            Canvas::Offscreen(c) => {
                c.set_width(width);
                c.set_height(height);
            }
        }
    }
}

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

/// A source the GPU copies from directly.
/// Copies a canvas, bitmap, video frame or image into `texture` (the frame source and the
/// compositor's layers both arrive this way when they are not raw pixels).
fn upload_external(queue: &wgpu::Queue, source: wgpu::ExternalImageSource, texture: &wgpu::Texture, extent: wgpu::Extent3d) {
    queue.copy_external_image_to_texture(
        &wgpu::CopyExternalImageSourceInfo { source, origin: wgpu::Origin2d::ZERO, flip_y: false },
        wgpu::CopyExternalImageDestInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
            color_space: wgpu::PredefinedColorSpace::Srgb,
            premultiplied_alpha: false,
        },
        extent,
    );
}

fn external_source(source: &JsValue) -> Option<wgpu::ExternalImageSource> {
    use wgpu::ExternalImageSource as S;
    if let Some(s) = source.dyn_ref::<web_sys::ImageBitmap>() {
        Some(S::ImageBitmap(s.clone()))
    } else if let Some(s) = source.dyn_ref::<web_sys::HtmlCanvasElement>() {
        Some(S::HTMLCanvasElement(s.clone()))
    } else if let Some(s) = source.dyn_ref::<web_sys::OffscreenCanvas>() {
        Some(S::OffscreenCanvas(s.clone()))
    } else if let Some(s) = source.dyn_ref::<web_sys::HtmlVideoElement>() {
        Some(S::HTMLVideoElement(s.clone()))
    } else if let Some(s) = source.dyn_ref::<web_sys::VideoFrame>() {
        Some(S::VideoFrame(Clone::clone(s)))
    } else {
        source.dyn_ref::<web_sys::HtmlImageElement>().map(|s| S::HTMLImageElement(s.clone()))
    }
}

/// What opening a backend gives. The instance must outlive everything made from it: on WebGPU,
/// dropping it invalidates pending buffer mappings ("no valid external Instance reference").
type Opened = (wgpu::Instance, Option<wgpu::Surface<'static>>, wgpu::Adapter, wgpu::Device, wgpu::Queue);

/// Opens the WebGPU backend. The canvas is not touched until an adapter and device exist, so a
/// failure leaves it free for WebGL2.
async fn open_webgpu(canvas: Option<&Canvas>) -> Result<Opened, String> {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).unwrap_or(JsValue::UNDEFINED);
    let gpu = js_sys::Reflect::get(&navigator, &"gpu".into()).unwrap_or(JsValue::UNDEFINED);
    if gpu.is_undefined() || gpu.is_null() {
        return Err("WebGPU is not available in this browser (no navigator.gpu)".into());
    }
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = instance.request_adapter(&Default::default()).await.map_err(|e| format!("no WebGPU adapter: {e}"))?;
    let (device, queue) = request_device(&adapter).await?;
    let surface = match canvas {
        Some(c) => Some(instance.create_surface(c.target()).map_err(|e| format!("cannot draw on the canvas with WebGPU: {e}"))?),
        None => None,
    };
    Ok((instance, surface, adapter, device, queue))
}

#[cfg(feature = "effects-webgl")]
async fn open_webgl(canvas: Option<&Canvas>) -> Result<Opened, String> {
    // WebGL2 needs a canvas to exist at all; a headless renderer gets a private one.
    let own;
    let canvas = match canvas {
        Some(c) => c,
        None => {
            own = Canvas::Offscreen(web_sys::OffscreenCanvas::new(1, 1).map_err(|_| "no OffscreenCanvas for a WebGL2 context".to_string())?);
            &own
        }
    };
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor { backends: wgpu::Backends::GL, ..wgpu::InstanceDescriptor::new_without_display_handle() });
    let surface = instance.create_surface(canvas.target()).map_err(|e| format!("cannot draw on the canvas with WebGL2: {e}"))?;
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions { compatible_surface: Some(&surface), ..Default::default() })
        .await
        .map_err(|e| format!("no WebGL2 adapter: {e}"))?;
    let (device, queue) = request_device(&adapter).await?;
    Ok((instance, Some(surface), adapter, device, queue))
}

#[cfg(not(feature = "effects-webgl"))]
async fn open_webgl(_: Option<&Canvas>) -> Result<Opened, String> {
    Err("this build of neuralcut/effects has no WebGL2 backend (built without the effects-webgl feature)".into())
}

/// Asks for the adapter's own limits, not the defaults: WebGL2's default 2048-texel limit would
/// refuse 4K frames.
async fn request_device(adapter: &wgpu::Adapter) -> Result<(wgpu::Device, wgpu::Queue), String> {
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor { label: Some("neuralcut effects"), required_limits: adapter.limits(), ..Default::default() })
        .await
        .map_err(|e| format!("cannot open the GPU device: {e}"))?;
    // GPU errors are bugs in this module; report them on the console rather than panicking.
    device.on_uncaptured_error(std::sync::Arc::new(|e: wgpu::Error| console_error(&format!("neuralcut/effects: GPU error: {e}"))));
    Ok((device, queue))
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Where frames are shown.
struct Presenter {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    configured: bool,
    canvas: Canvas,
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
    let c = canvas.as_ref();
    let (opened, name) = match backend.as_str() {
        "webgpu" => (open_webgpu(c).await, "webgpu"),
        "webgl2" => (open_webgl(c).await, "webgl2"),
        "auto" => match open_webgpu(c).await {
            Ok(o) => (Ok(o), "webgpu"),
            Err(webgpu) => (open_webgl(c).await.map_err(|webgl| format!("{webgpu}; {webgl}")), "webgl2"),
        },
        other => return Err(err(format!("backend must be \"auto\", \"webgpu\" or \"webgl2\", got {other:?}"))),
    };
    let (instance, surface, adapter, device, queue) = opened.map_err(err)?;
    let output = match (canvas, surface) {
        (Some(canvas), Some(surface)) => {
            let caps = surface.get_capabilities(&adapter);
            let format = caps
                .formats
                .iter()
                .copied()
                .find(|f| matches!(f, wgpu::TextureFormat::Rgba8Unorm | wgpu::TextureFormat::Bgra8Unorm))
                .or_else(|| caps.formats.iter().copied().find(|f| !f.is_srgb()))
                .ok_or_else(|| err("the canvas offers no non-sRGB colour format"))?;
            let alpha_mode = if caps.alpha_modes.contains(&wgpu::CompositeAlphaMode::Opaque) {
                wgpu::CompositeAlphaMode::Opaque
            } else {
                caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto)
            };
            let config = wgpu::SurfaceConfiguration {
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                format,
                width: 1,
                height: 1,
                present_mode: wgpu::PresentMode::Fifo,
                desired_maximum_frame_latency: 2,
                alpha_mode,
                view_formats: vec![],
                color_space: wgpu::SurfaceColorSpace::Auto,
            };
            Some(Presenter { surface, config, configured: false, canvas })
        }
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
        let image_data = source.dyn_ref::<web_sys::ImageData>().cloned();
        let external = if image_data.is_some() { None } else { external_source(&source) };
        let (sw, sh) = match (&image_data, &external) {
            (Some(d), _) => (d.width(), d.height()),
            (None, Some(s)) => (s.width(), s.height()),
            (None, None) => {
                return Err(err(
                    "source must be an ImageBitmap, ImageData, HTMLCanvasElement, OffscreenCanvas, HTMLVideoElement, VideoFrame or HTMLImageElement",
                ))
            }
        };
        if sw < width || sh < height {
            return Err(err(format!("source is {sw}x{sh}, smaller than the requested {width}x{height}")));
        }

        self.renderer.resize(width, height).map_err(err)?;
        let texture = self.renderer.source_texture().expect("resized").clone();
        let extent = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        match (image_data, external) {
            (Some(data), _) => {
                let pixels = data.data();
                let row = sw as usize * 4;
                let bytes: Vec<u8> = if sw == width && sh == height {
                    pixels.0
                } else {
                    (0..height as usize).flat_map(|y| pixels.0[y * row..y * row + width as usize * 4].iter().copied()).collect()
                };
                self.renderer.queue().write_texture(
                    texture.as_image_copy(),
                    &bytes,
                    wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(width * 4), rows_per_image: Some(height) },
                    extent,
                );
            }
            (None, Some(source)) => upload_external(self.renderer.queue(), source, &texture, extent),
            (None, None) => unreachable!("checked above"),
        }

        self.renderer.render(&effects).map_err(err)?;
        self.show(width, height)
    }

    /// Draws the last result on the canvas, if there is one.
    fn show(&mut self, width: u32, height: u32) -> Result<(), JsError> {
        if let Some(out) = self.output.as_mut() {
            let device = self.renderer.device();
            if !out.configured || (out.config.width, out.config.height) != (width, height) {
                out.canvas.set_size(width, height);
                out.config.width = width;
                out.config.height = height;
                out.surface.configure(device, &out.config);
                out.configured = true;
            }
            let frame = match out.surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
                _ => {
                    out.surface.configure(device, &out.config);
                    match out.surface.get_current_texture() {
                        wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
                        _ => return Err(err("the canvas gave no texture to draw on")),
                    }
                }
            };
            let view = frame.texture.create_view(&Default::default());
            let format = out.config.format;
            self.renderer.present(&view, format).map_err(err)?;
            self.renderer.queue().present(frame);
        }
        Ok(())
    }
}

/// The frame compositor behind `neuralcut/render` (js/render.ts): `beginFrame`, one `drawLayer`
/// or `applyEffects` per layer of `editor.frameAt`, bottom first, then `endFrame`.
#[wasm_bindgen]
impl WasmEffectRenderer {
    /// Starts a `width × height` frame filled with a straight-alpha colour (0–1 channels).
    #[wasm_bindgen(js_name = beginFrame)]
    pub fn begin_frame(&mut self, width: u32, height: u32, r: f64, g: f64, b: f64, a: f64) -> Result<(), JsError> {
        let c = self.compositor.get_or_insert_with(|| Compositor::new(self.renderer.device()));
        c.begin(&self.renderer, width, height, [r, g, b, a]).map_err(err)
    }

    /// Draws `source` (any picture `render` takes) as layer `slot`: a quad centred at
    /// (`cx`, `cy`), `w × h` target pixels, rotated clockwise by `rotation` degrees, flipped as
    /// asked, with `opacity`, an OpenCut blend mode and clip `effects` on its own pixels. A null
    /// `source` draws the picture already uploaded to `slot` (by an earlier frame) again.
    #[wasm_bindgen(js_name = drawLayer)]
    #[allow(clippy::too_many_arguments)]
    pub fn draw_layer(
        &mut self,
        source: JsValue,
        slot: u32,
        cx: f64,
        cy: f64,
        w: f64,
        h: f64,
        rotation: f64,
        flip_x: bool,
        flip_y: bool,
        opacity: f64,
        blend_mode: String,
        effects: JsValue,
    ) -> Result<(), JsError> {
        let effects = parse_effects(&effects)?;
        let c = self.compositor.as_mut().ok_or_else(|| err("drawLayer before beginFrame"))?;
        let quad = Quad { center_x: cx, center_y: cy, width: w, height: h, rotation, flip_x, flip_y };
        if source.is_null() || source.is_undefined() {
            if !c.has_layer(slot as usize) {
                return Err(err(format!("no picture was uploaded to layer slot {slot}; pass a source")));
            }
            return c.draw(&mut self.renderer, slot as usize, &quad, opacity, BlendMode::parse(&blend_mode), &effects).map_err(err);
        }
        let image_data = source.dyn_ref::<web_sys::ImageData>().cloned();
        let external = if image_data.is_some() { None } else { external_source(&source) };
        let (sw, sh) = match (&image_data, &external) {
            (Some(d), _) => (d.width(), d.height()),
            (None, Some(s)) => (s.width(), s.height()),
            (None, None) => return Err(err("a layer source must be an ImageBitmap, ImageData, canvas, video, VideoFrame or image")),
        };
        let max = self.renderer.max_size();
        if sw == 0 || sh == 0 || sw > max || sh > max {
            return Err(err(format!("layer source is {sw}x{sh}; it must be between 1 and {max} on each side")));
        }
        let texture = c.layer_texture(self.renderer.device(), slot as usize, sw, sh).clone();
        let extent = wgpu::Extent3d { width: sw, height: sh, depth_or_array_layers: 1 };
        match (image_data, external) {
            (Some(data), _) => self.renderer.queue().write_texture(
                texture.as_image_copy(),
                &data.data().0,
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(sw * 4), rows_per_image: Some(sh) },
                extent,
            ),
            (None, Some(source)) => upload_external(self.renderer.queue(), source, &texture, extent),
            (None, None) => unreachable!("checked above"),
        }
        c.draw(&mut self.renderer, slot as usize, &quad, opacity, BlendMode::parse(&blend_mode), &effects).map_err(err)
    }

    /// Applies `effects` to everything drawn so far (an effect element).
    #[wasm_bindgen(js_name = applyEffects)]
    pub fn apply_effects(&mut self, effects: JsValue) -> Result<(), JsError> {
        let effects = parse_effects(&effects)?;
        let c = self.compositor.as_mut().ok_or_else(|| err("applyEffects before beginFrame"))?;
        c.apply(&mut self.renderer, &effects).map_err(err)
    }

    /// Finishes the frame: shows it on the canvas (if any) and keeps it for `readPixels`.
    #[wasm_bindgen(js_name = endFrame)]
    pub fn end_frame(&mut self) -> Result<(), JsError> {
        let c = self.compositor.as_mut().ok_or_else(|| err("endFrame before beginFrame"))?;
        let (w, h) = c.size();
        c.finish(&mut self.renderer).map_err(err)?;
        self.show(w, h)
    }
}

#[wasm_bindgen]
impl WasmEffectRenderer {
    /// Reads the last rendered frame back: RGBA8 rows, top to bottom. WebGPU has no synchronous
    /// read-back, so this resolves later (WebGL2 resolves at once).
    #[wasm_bindgen(js_name = readPixels)]
    pub fn read_pixels(&self, x: u32, y: u32, width: Option<u32>, height: Option<u32>) -> Result<js_sys::Promise, JsError> {
        let (fw, fh) = self.renderer.size().ok_or_else(|| err("nothing rendered yet"))?;
        let (width, height) = (width.unwrap_or(fw.saturating_sub(x)), height.unwrap_or(fh.saturating_sub(y)));
        // In u64: a region from JS near u32::MAX must not wrap around into the frame.
        if width == 0 || height == 0 || x as u64 + width as u64 > fw as u64 || y as u64 + height as u64 > fh as u64 {
            return Err(err(format!("region {width}x{height} at ({x}, {y}) is outside the {fw}x{fh} frame")));
        }
        let device = self.renderer.device().clone();
        let queue = self.renderer.queue();
        let texture = self.renderer.output_texture().expect("sized");
        let row = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read back"),
            size: row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo { texture, mip_level: 0, origin: wgpu::Origin3d { x, y, z: 0 }, aspect: wgpu::TextureAspect::All },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: Some(height) },
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        queue.submit([encoder.finish()]);
        let state: std::rc::Rc<std::cell::RefCell<Option<Result<(), wgpu::BufferAsyncError>>>> = Default::default();
        let done = state.clone();
        // Resolved by the mapping callback, so WebGPU can wait on it without polling.
        let resolver: std::rc::Rc<std::cell::RefCell<Option<js_sys::Function>>> = Default::default();
        let slot = resolver.clone();
        let mapped = js_sys::Promise::new(&mut |resolve, _| *slot.borrow_mut() = Some(resolve));
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            *done.borrow_mut() = Some(r);
            if let Some(resolve) = resolver.borrow_mut().take() {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            }
        });
        let webgpu = self.backend == "webgpu";
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            // WebGPU resolves the mapping by itself. WebGL2 only sees its fence signalled in a
            // later task, so it polls between short yields to the event loop, never blocking.
            loop {
                let _ = device.poll(wgpu::PollType::Poll);
                if let Some(r) = state.borrow_mut().take() {
                    r.map_err(|e| JsValue::from(err(format!("read-back failed: {e}"))))?;
                    break;
                }
                if webgpu {
                    wasm_bindgen_futures::JsFuture::from(mapped.clone()).await?;
                } else {
                    short_wait().await?;
                }
            }
            let view = buffer.slice(..).get_mapped_range().map_err(|e| JsValue::from(err(e)))?;
            let out = js_sys::Uint8ClampedArray::new_with_length(width * height * 4);
            for y in 0..height {
                let at = (y * row) as usize;
                out.subarray(y * width * 4, (y + 1) * width * 4).copy_from(&view[at..at + width as usize * 4]);
            }
            drop(view);
            buffer.unmap();
            Ok(out.into())
        }))
    }
}

/// Resolves about 1 ms later, in a later task. The timer is started from a message task: a
/// timer started from a timer's own task counts as nested, and browsers stretch nested timers
/// to 4 ms after five levels, which added 2 to 4 ms to every WebGL2 read-back.
async fn short_wait() -> Result<(), JsValue> {
    let global = js_sys::global();
    if let Ok(ctor) = js_sys::Reflect::get(&global, &"MessageChannel".into())?.dyn_into::<js_sys::Function>() {
        let channel = js_sys::Reflect::construct(&ctor, &js_sys::Array::new())?;
        let port1 = js_sys::Reflect::get(&channel, &"port1".into())?;
        let port2 = js_sys::Reflect::get(&channel, &"port2".into())?;
        let message = js_sys::Promise::new(&mut |resolve, _| {
            let _ = js_sys::Reflect::set(&port1, &"onmessage".into(), &resolve);
        });
        let post: js_sys::Function = js_sys::Reflect::get(&port2, &"postMessage".into())?.dyn_into()?;
        post.call1(&port2, &JsValue::NULL)?;
        wasm_bindgen_futures::JsFuture::from(message).await?;
        if let Ok(close) = js_sys::Reflect::get(&port1, &"close".into())?.dyn_into::<js_sys::Function>() {
            close.call0(&port1)?;
        }
    }
    let set_timeout: js_sys::Function = js_sys::Reflect::get(&global, &"setTimeout".into())?.dyn_into()?;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = set_timeout.call2(&JsValue::UNDEFINED, &resolve, &JsValue::from(1));
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.map(|_| ())
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
