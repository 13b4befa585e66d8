//! The canvas a renderer shows its frames on: its surface, configured to the frame size.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::err;
use crate::gpu::Renderer;

/// The canvas the renderer draws on.
#[derive(Clone)]
pub(super) enum Canvas {
    Element(web_sys::HtmlCanvasElement),
    Offscreen(web_sys::OffscreenCanvas),
}

impl Canvas {
    pub fn from_js(value: &JsValue) -> Result<Canvas, JsError> {
        if let Some(c) = value.dyn_ref::<web_sys::HtmlCanvasElement>() {
            Ok(Canvas::Element(c.clone()))
        } else if let Some(c) = value.dyn_ref::<web_sys::OffscreenCanvas>() {
            Ok(Canvas::Offscreen(c.clone()))
        } else {
            Err(JsError::new("canvas must be an HTMLCanvasElement or an OffscreenCanvas"))
        }
    }

    pub fn target(&self) -> wgpu::SurfaceTarget<'static> {
        match self {
            Canvas::Element(c) => wgpu::SurfaceTarget::Canvas(c.clone()),
            Canvas::Offscreen(c) => wgpu::SurfaceTarget::OffscreenCanvas(c.clone()),
        }
    }

    /// Its size in pixels.
    #[cfg(feature = "effects-webgl")]
    fn size(&self) -> (u32, u32) {
        match self {
            Canvas::Element(c) => (c.width(), c.height()),
            Canvas::Offscreen(c) => (c.width(), c.height()),
        }
    }

    /// Resizes it to `width × height` unless it is that size already (setting a canvas's size
    /// clears it, even to the same size).
    #[cfg(feature = "effects-webgl")]
    pub fn fit(&self, width: u32, height: u32) {
        if self.size() != (width, height) {
            self.set_size(width, height);
        }
    }

    /// Its WebGL2 context: no antialiasing (a multisampled canvas cannot take the blit that shows
    /// a frame), no depth or stencil, and opaque, as the WebGPU canvas is configured.
    #[cfg(feature = "effects-webgl")]
    pub fn webgl2(&self) -> Result<web_sys::WebGl2RenderingContext, String> {
        let options = js_sys::Object::new();
        for key in ["antialias", "depth", "stencil", "alpha"] {
            let _ = js_sys::Reflect::set(&options, &key.into(), &JsValue::FALSE);
        }
        let context = match self {
            Canvas::Element(c) => c.get_context_with_context_options("webgl2", &options),
            Canvas::Offscreen(c) => c.get_context_with_context_options("webgl2", &options),
        };
        context
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into().ok())
            .ok_or_else(|| "no WebGL2 context on this canvas (WebGL2 unavailable, or the canvas has another context)".into())
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

/// Where frames are shown.
pub(super) struct Presenter {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    configured: bool,
    canvas: Canvas,
}

impl Presenter {
    /// Chooses a plain (non-sRGB) 8-bit format the canvas offers, and opaque alpha when it can.
    pub fn new(canvas: Canvas, surface: wgpu::Surface<'static>, adapter: &wgpu::Adapter) -> Result<Presenter, JsError> {
        let caps = surface.get_capabilities(adapter);
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
        Ok(Presenter { surface, config, configured: false, canvas })
    }

    /// Draws the renderer's last result on the canvas, resizing the canvas to `width × height`.
    pub fn show(&mut self, renderer: &mut Renderer, width: u32, height: u32) -> Result<(), JsError> {
        let device = renderer.device();
        if !self.configured || (self.config.width, self.config.height) != (width, height) {
            self.canvas.set_size(width, height);
            self.config.width = width;
            self.config.height = height;
            self.surface.configure(device, &self.config);
            self.configured = true;
        }
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            _ => {
                self.surface.configure(device, &self.config);
                match self.surface.get_current_texture() {
                    wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
                    _ => return Err(err("the canvas gave no texture to draw on")),
                }
            }
        };
        let view = frame.texture.create_view(&Default::default());
        renderer.present(&view, self.config.format).map_err(err)?;
        renderer.queue().present(frame);
        Ok(())
    }
}
