//! Backend choice: WebGPU, else WebGL2 (with the `effects-webgl` feature), and the device.

use wasm_bindgen::prelude::*;

use super::canvas::Canvas;

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

/// Opens `backend` ("auto": WebGPU, else WebGL2; "webgpu"; "webgl2") and names the one opened.
pub(super) async fn open(canvas: Option<&Canvas>, backend: &str) -> Result<(Opened, &'static str), String> {
    match backend {
        "webgpu" => Ok((open_webgpu(canvas).await?, "webgpu")),
        "webgl2" => Ok((open_webgl(canvas).await?, "webgl2")),
        "auto" => match open_webgpu(canvas).await {
            Ok(o) => Ok((o, "webgpu")),
            Err(webgpu) => Ok((open_webgl(canvas).await.map_err(|webgl| format!("{webgpu}; {webgl}"))?, "webgl2")),
        },
        other => Err(format!("backend must be \"auto\", \"webgpu\" or \"webgl2\", got {other:?}")),
    }
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}
