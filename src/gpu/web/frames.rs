//! The frame compositor's exports (`neuralcut/render`, js/render.ts).

use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::source::Picture;
use super::{err, parse_effects, Engine, WasmEffectRenderer};
use crate::gpu::compose::{BlendMode, Compositor, Quad};

const NOT_BEGUN: &str = "before beginFrame";

/// Declares `LayerDraw` once: each field's JS name is both its `serde(rename)`, which tsify reads
/// to write the .d.ts, and the key `from_js` reads, so the typings and the reader cannot drift.
/// Read by hand rather than by serde-wasm-bindgen, which cost the module 15 KB gzipped.
macro_rules! layer_draw {
    ($($(#[doc = $doc:literal])* $(#[tsify($($ts:tt)*)])? $field:ident: $ty:ty = $js:literal,)*) => {
        /// One layer for `drawLayer`, by name: its quad in target pixels has the fields of a frame
        /// layer's `placement` (centre, size, clockwise degrees, flips), so both read alike.
        #[derive(Tsify)]
        pub struct LayerDraw {
            $($(#[doc = $doc])* $(#[tsify($($ts)*)])? #[serde(rename = $js)] pub $field: $ty,)*
        }

        impl LayerDraw {
            fn from_js(value: &JsValue) -> Result<LayerDraw, JsError> {
                if !value.is_object() {
                    return Err(err("drawLayer takes one object { source, slot, centerX, centerY, width, height, ... }"));
                }
                Ok(LayerDraw { $($field: Field::read(value, $js)?,)* })
            }
        }
    };
}

layer_draw! {
    /// Any picture `render` takes; null or absent draws what `slot` holds from an earlier frame.
    #[tsify(type = "ImageBitmap | ImageData | HTMLCanvasElement | OffscreenCanvas | HTMLVideoElement | VideoFrame | HTMLImageElement | null", optional)]
    source: JsValue = "source",
    /// The layer's index in the frame: its texture is kept for the next frame.
    slot: u32 = "slot",
    center_x: f64 = "centerX",
    center_y: f64 = "centerY",
    width: f64 = "width",
    height: f64 = "height",
    /// Degrees, clockwise.
    rotation: f64 = "rotation",
    flip_x: bool = "flipX",
    flip_y: bool = "flipY",
    opacity: f64 = "opacity",
    /// An OpenCut blend mode (`BlendMode` of the package's typings); an unknown one is normal.
    blend_mode: String = "blendMode",
    /// Clip effects on the layer's own pixels.
    #[tsify(type = "{ effectType: string; params?: Record<string, number> }[]", optional)]
    effects: JsValue = "effects",
}

/// A field of `LayerDraw` read from its JS object, with an error naming it.
trait Field: Sized {
    fn read(object: &JsValue, key: &str) -> Result<Self, JsError>;
}

fn get(object: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

impl Field for JsValue {
    fn read(object: &JsValue, key: &str) -> Result<JsValue, JsError> {
        Ok(get(object, key))
    }
}

impl Field for f64 {
    fn read(object: &JsValue, key: &str) -> Result<f64, JsError> {
        get(object, key).as_f64().ok_or_else(|| err(format!("drawLayer: {key} must be a number")))
    }
}

impl Field for u32 {
    fn read(object: &JsValue, key: &str) -> Result<u32, JsError> {
        let n = get(object, key).as_f64().filter(|n| n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(n));
        n.map(|n| n as u32).ok_or_else(|| err(format!("drawLayer: {key} must be a whole number")))
    }
}

impl Field for bool {
    fn read(object: &JsValue, key: &str) -> Result<bool, JsError> {
        get(object, key).as_bool().ok_or_else(|| err(format!("drawLayer: {key} must be true or false")))
    }
}

impl Field for String {
    fn read(object: &JsValue, key: &str) -> Result<String, JsError> {
        get(object, key).as_string().ok_or_else(|| err(format!("drawLayer: {key} must be a string")))
    }
}

/// The frame compositor behind `neuralcut/render` (js/render.ts): `beginFrame`, one `drawLayer`
/// or `applyEffects` per layer of `editor.frameAt`, bottom first, then `endFrame`.
#[wasm_bindgen]
impl WasmEffectRenderer {
    /// Starts a `width × height` frame filled with a straight-alpha colour (0–1 channels).
    #[wasm_bindgen(js_name = beginFrame)]
    pub fn begin_frame(&mut self, width: u32, height: u32, r: f64, g: f64, b: f64, a: f64) -> Result<(), JsError> {
        match &mut self.engine {
            Engine::Wgpu(e) => {
                let c = e.compositor.get_or_insert_with(|| Compositor::new(e.renderer.device()));
                c.begin(&e.renderer, width, height, [r, g, b, a]).map_err(err)
            }
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => {
                if e.compositor.is_none() {
                    e.compositor = Some(crate::gpu::gl::compose::GlCompositor::new(e.renderer.gl()).map_err(err)?);
                }
                e.compositor.as_mut().expect("made above").begin(&e.renderer, width, height, [r, g, b, a]).map_err(err)
            }
        }
    }

    /// Draws one layer (`LayerDraw`: its picture, slot, quad, opacity, blend mode and clip
    /// effects). A null `source` draws the picture already uploaded to `slot` again.
    #[wasm_bindgen(js_name = drawLayer)]
    pub fn draw_layer(&mut self, layer: Ts<LayerDraw>) -> Result<(), JsError> {
        let LayerDraw { source, slot, center_x, center_y, width, height, rotation, flip_x, flip_y, opacity, blend_mode, effects } =
            LayerDraw::from_js(&layer.js_value())?;
        let effects = parse_effects(&effects)?;
        let quad = Quad { center_x, center_y, width, height, rotation, flip_x, flip_y };
        let mode = BlendMode::parse(&blend_mode);
        let slot = slot as usize;
        let picture = if source.is_null() || source.is_undefined() {
            None
        } else {
            let picture =
                Picture::from_js(&source).ok_or_else(|| err("a layer source must be an ImageBitmap, ImageData, canvas, video, VideoFrame or image"))?;
            let (sw, sh) = picture.size();
            let max = self.engine.max_size();
            if sw == 0 || sh == 0 || sw > max || sh > max {
                return Err(err(format!("layer source is {sw}x{sh}; it must be between 1 and {max} on each side")));
            }
            Some(picture)
        };
        let missing = || err(format!("no picture was uploaded to layer slot {slot}; pass a source"));
        match &mut self.engine {
            Engine::Wgpu(e) => {
                let c = e.compositor.as_mut().ok_or_else(|| err(format!("drawLayer {NOT_BEGUN}")))?;
                match picture {
                    None if !c.has_layer(slot) => return Err(missing()),
                    None => {}
                    Some(picture) => {
                        let (sw, sh) = picture.size();
                        let texture = c.layer_texture(e.renderer.device(), slot, sw, sh).clone();
                        picture.upload(e.renderer.queue(), &texture, sw, sh);
                    }
                }
                c.draw(&mut e.renderer, slot, &quad, opacity, mode, &effects).map_err(err)
            }
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => {
                let c = e.compositor.as_mut().ok_or_else(|| err(format!("drawLayer {NOT_BEGUN}")))?;
                match picture {
                    None if !c.has_layer(slot) => return Err(missing()),
                    None => {}
                    Some(picture) => {
                        let (sw, sh) = picture.size();
                        let texture = c.layer_texture(e.renderer.gl(), slot, sw, sh).map_err(err)?.clone();
                        crate::gpu::gl::upload(e.renderer.gl(), &texture, &source, sw, sh).map_err(err)?;
                    }
                }
                c.draw(&mut e.renderer, slot, &quad, opacity, mode, &effects).map_err(err)
            }
        }
    }

    /// Applies `effects` to everything drawn so far (an effect element).
    #[wasm_bindgen(js_name = applyEffects)]
    pub fn apply_effects(&mut self, #[wasm_bindgen(unchecked_param_type = "NonNullable<LayerDraw[\"effects\"]>")] effects: JsValue) -> Result<(), JsError> {
        let effects = parse_effects(&effects)?;
        match &mut self.engine {
            Engine::Wgpu(e) => e.compositor.as_mut().ok_or_else(|| err(format!("applyEffects {NOT_BEGUN}")))?.apply(&mut e.renderer, &effects).map_err(err),
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => e.compositor.as_mut().ok_or_else(|| err(format!("applyEffects {NOT_BEGUN}")))?.apply(&mut e.renderer, &effects).map_err(err),
        }
    }

    /// Finishes the frame: shows it on the canvas (if any) and keeps it for `readPixels`.
    #[wasm_bindgen(js_name = endFrame)]
    pub fn end_frame(&mut self) -> Result<(), JsError> {
        let (w, h) = match &mut self.engine {
            Engine::Wgpu(e) => {
                let c = e.compositor.as_mut().ok_or_else(|| err(format!("endFrame {NOT_BEGUN}")))?;
                c.finish(&mut e.renderer).map_err(err)?;
                c.size()
            }
            #[cfg(feature = "effects-webgl")]
            Engine::Gl(e) => {
                let c = e.compositor.as_mut().ok_or_else(|| err(format!("endFrame {NOT_BEGUN}")))?;
                c.finish(&mut e.renderer).map_err(err)?;
                c.size()
            }
        };
        self.engine.show(w, h)
    }
}
