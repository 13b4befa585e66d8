//! Backend choice: WebGPU (wgpu), else WebGL2 (the executor of `crate::gpu::gl`, with the
//! `effects-webgl` feature), and the device.

use wasm_bindgen::prelude::*;

use super::canvas::Canvas;
#[cfg(feature = "effects-webgl")]
use super::GlEngine;
use super::{err, Engine, WgpuEngine};

/// What opening a backend gives. The instance must outlive everything made from it: on WebGPU,
/// dropping it invalidates pending buffer mappings ("no valid external Instance reference").
pub(super) type Opened = (wgpu::Instance, Option<wgpu::Surface<'static>>, wgpu::Adapter, wgpu::Device, wgpu::Queue);

/// Opens the WebGPU backend. The canvas is not touched until an adapter and device exist, so a
/// failure leaves it free for WebGL2.
async fn open_webgpu(canvas: Option<&Canvas>) -> Result<Opened, String> {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).unwrap_or(JsValue::UNDEFINED);
    let gpu = js_sys::Reflect::get(&navigator, &"gpu".into()).unwrap_or(JsValue::UNDEFINED);
    if gpu.is_undefined() || gpu.is_null() {
        return Err("WebGPU is not available in this browser (no navigator.gpu)".into());
    }
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor { backends: wgpu::Backends::BROWSER_WEBGPU, ..wgpu::InstanceDescriptor::new_without_display_handle() });
    let adapter = instance.request_adapter(&Default::default()).await.map_err(|e| format!("no WebGPU adapter: {e}"))?;
    let (device, queue) = request_device(&adapter).await?;
    let surface = match canvas {
        Some(c) => Some(instance.create_surface(c.target()).map_err(|e| format!("cannot draw on the canvas with WebGPU: {e}"))?),
        None => None,
    };
    Ok((instance, surface, adapter, device, queue))
}

/// Opens the WebGL2 executor on the canvas (a headless renderer gets a private one: WebGL2
/// needs a canvas to exist at all).
#[cfg(feature = "effects-webgl")]
fn open_webgl(canvas: Option<Canvas>) -> Result<Engine, String> {
    let (context, shown) = match canvas {
        Some(c) => (c.webgl2()?, Some(c)),
        None => {
            let own = web_sys::OffscreenCanvas::new(1, 1).map_err(|_| "no OffscreenCanvas for a WebGL2 context".to_string())?;
            (Canvas::Offscreen(own).webgl2()?, None)
        }
    };
    Ok(Engine::Gl(Box::new(GlEngine::new(context, shown)?)))
}

#[cfg(not(feature = "effects-webgl"))]
fn open_webgl(_: Option<Canvas>) -> Result<Engine, String> {
    Err("this build of neuralcut/effects has no WebGL2 backend (built without the effects-webgl feature)".into())
}

async fn webgpu_engine(canvas: Option<Canvas>) -> Result<Engine, JsError> {
    let opened = open_webgpu(canvas.as_ref()).await.map_err(err)?;
    Ok(Engine::Wgpu(Box::new(WgpuEngine::new(opened, canvas)?)))
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

/// Opens `backend` ("auto": WebGPU, else WebGL2; "webgpu"; "webgl2") and names the one opened.
pub(super) async fn open(canvas: Option<Canvas>, backend: &str) -> Result<(Engine, &'static str), JsError> {
    match backend {
        "webgpu" => Ok((webgpu_engine(canvas).await?, "webgpu")),
        "webgl2" => Ok((open_webgl(canvas).map_err(err)?, "webgl2")),
        "auto" => match webgpu_engine(canvas.clone()).await {
            Ok(e) => Ok((e, "webgpu")),
            Err(webgpu) => {
                let webgpu = js_message(&webgpu.into());
                Ok((open_webgl(canvas).map_err(|webgl| err(format!("{webgpu}; {webgl}")))?, "webgl2"))
            }
        },
        other => Err(err(format!("backend must be \"auto\", \"webgpu\" or \"webgl2\", got {other:?}"))),
    }
}

/// The message of a thrown JS value.
fn js_message(e: &JsValue) -> String {
    use wasm_bindgen::JsCast;
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_default()
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}
