//! The frame compositor's exports (`neuralcut/render`, js/render.ts).

use wasm_bindgen::prelude::*;

use super::source::Picture;
use super::{err, parse_effects, Engine, WasmEffectRenderer};
use crate::gpu::compose::{BlendMode, Compositor, Quad};

const NOT_BEGUN: &str = "before beginFrame";

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
        let quad = Quad { center_x: cx, center_y: cy, width: w, height: h, rotation, flip_x, flip_y };
        let mode = BlendMode::parse(&blend_mode);
        let slot = slot as usize;
        let picture = if source.is_null() || source.is_undefined() {
            None
        } else {
            let picture = Picture::from_js(&source).ok_or_else(|| err("a layer source must be an ImageBitmap, ImageData, canvas, video, VideoFrame or image"))?;
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
    pub fn apply_effects(&mut self, effects: JsValue) -> Result<(), JsError> {
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
