//! Pictures handed in from JS: `ImageData` (raw pixels, cropped to the frame on the CPU) or an
//! image the GPU copies by itself (bitmap, canvas, video, `VideoFrame`, image element). The frame
//! source and the compositor's layers both arrive this way.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub(super) enum Picture {
    Pixels(web_sys::ImageData),
    External(wgpu::ExternalImageSource),
}

impl Picture {
    /// `None` when `value` is none of the accepted kinds.
    pub fn from_js(value: &JsValue) -> Option<Picture> {
        use wgpu::ExternalImageSource as S;
        if let Some(d) = value.dyn_ref::<web_sys::ImageData>() {
            return Some(Picture::Pixels(d.clone()));
        }
        let external = if let Some(s) = value.dyn_ref::<web_sys::ImageBitmap>() {
            S::ImageBitmap(s.clone())
        } else if let Some(s) = value.dyn_ref::<web_sys::HtmlCanvasElement>() {
            S::HTMLCanvasElement(s.clone())
        } else if let Some(s) = value.dyn_ref::<web_sys::OffscreenCanvas>() {
            S::OffscreenCanvas(s.clone())
        } else if let Some(s) = value.dyn_ref::<web_sys::HtmlVideoElement>() {
            S::HTMLVideoElement(s.clone())
        } else if let Some(s) = value.dyn_ref::<web_sys::VideoFrame>() {
            S::VideoFrame(Clone::clone(s))
        } else {
            S::HTMLImageElement(value.dyn_ref::<web_sys::HtmlImageElement>()?.clone())
        };
        Some(Picture::External(external))
    }

    /// Its full size in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Picture::Pixels(d) => (d.width(), d.height()),
            Picture::External(s) => (s.width(), s.height()),
        }
    }

    /// Copies its top-left `width × height` (at most its size) into `texture`.
    pub fn upload(self, queue: &wgpu::Queue, texture: &wgpu::Texture, width: u32, height: u32) {
        let extent = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        match self {
            Picture::Pixels(data) => {
                let (sw, sh) = (data.width(), data.height());
                let pixels = data.data();
                let row = sw as usize * 4;
                let bytes: Vec<u8> = if sw == width && sh == height {
                    pixels.0
                } else {
                    (0..height as usize).flat_map(|y| pixels.0[y * row..y * row + width as usize * 4].iter().copied()).collect()
                };
                queue.write_texture(
                    texture.as_image_copy(),
                    &bytes,
                    wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(width * 4), rows_per_image: Some(height) },
                    extent,
                );
            }
            Picture::External(source) => queue.copy_external_image_to_texture(
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
            ),
        }
    }
}
