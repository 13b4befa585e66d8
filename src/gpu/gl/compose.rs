//! The frame compositor on WebGL2: the steps of [`crate::gpu::compose::Compositor`] (same quads,
//! same uniform, same two ways of drawing a layer) with the translated composite.wgsl.

use web_sys::{WebGl2RenderingContext as Gl, WebGlBuffer, WebGlFramebuffer, WebGlProgram, WebGlShader, WebGlTexture};

use super::{compile, program, slot, target, texture, GlRenderer};
use crate::effects::reference::Effect;
use crate::gpu::compose::{BlendMode, Quad};
use crate::gpu::glsl::{composite_fragment, COMPOSITE_FS, FULLSCREEN_VS, QUAD_FS, QUAD_VS};

const NO_FRAME: &str = "no frame begun: call begin first";

struct LayerTexture {
    width: u32,
    height: u32,
    texture: WebGlTexture,
}

pub struct GlCompositor {
    fullscreen: WebGlShader,
    quad_vs: WebGlShader,
    /// composite.wgsl's layer pass, one program per blend mode, made on first use.
    modes: Vec<(BlendMode, WebGlProgram)>,
    /// The "over" program (vs_quad, fs_quad), made on first use.
    over: Option<WebGlProgram>,
    uniform: WebGlBuffer,
    fbo: WebGlFramebuffer,
    /// The picture so far and the spare a full-screen layer pass writes (then they swap).
    pictures: Option<(WebGlTexture, WebGlTexture)>,
    size: (u32, u32),
    /// Whether every pixel of the picture is opaque, so a normal layer can be blended in by the
    /// fixed-function stage.
    opaque: bool,
    layers: Vec<Option<LayerTexture>>,
}

impl GlCompositor {
    pub fn new(gl: &Gl) -> Result<GlCompositor, String> {
        let uniform = gl.create_buffer().ok_or("WebGL2 made no buffer")?;
        gl.bind_buffer(Gl::UNIFORM_BUFFER, Some(&uniform));
        gl.buffer_data_with_i32(Gl::UNIFORM_BUFFER, std::mem::size_of::<crate::gpu::uniforms::Layer>() as i32, Gl::DYNAMIC_DRAW);
        Ok(GlCompositor {
            fullscreen: compile(gl, Gl::VERTEX_SHADER, FULLSCREEN_VS.source)?,
            quad_vs: compile(gl, Gl::VERTEX_SHADER, QUAD_VS.source)?,
            modes: Vec::new(),
            over: None,
            uniform,
            fbo: gl.create_framebuffer().ok_or("WebGL2 made no framebuffer")?,
            pictures: None,
            size: (0, 0),
            opaque: true,
            layers: Vec::new(),
        })
    }

    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Starts a `width × height` frame filled with `background` (straight RGBA, 0–1).
    pub fn begin(&mut self, fx: &GlRenderer, width: u32, height: u32, background: [f64; 4]) -> Result<(), String> {
        let max = fx.max_size();
        if width == 0 || height == 0 || width > max || height > max {
            return Err(format!("frame size {width}x{height} is outside 1..={max} on this device"));
        }
        let gl = fx.gl();
        if self.size != (width, height) || self.pictures.is_none() {
            if let Some((a, b)) = self.pictures.take() {
                gl.delete_texture(Some(&a));
                gl.delete_texture(Some(&b));
            }
            self.pictures = Some((texture(gl, width, height)?, texture(gl, width, height)?));
            self.size = (width, height);
        }
        self.opaque = background[3] >= 1.0;
        let [r, g, b, a] = background.map(|c| c as f32);
        target(gl, &self.fbo, &self.pictures.as_ref().expect("made above").0, width, height);
        gl.clear_color(r, g, b, a);
        gl.clear(Gl::COLOR_BUFFER_BIT);
        Ok(())
    }

    pub fn has_layer(&self, slot: usize) -> bool {
        matches!(self.layers.get(slot), Some(Some(_)))
    }

    /// The texture layer `slot` is uploaded into, `width × height`, made or remade as needed.
    pub fn layer_texture(&mut self, gl: &Gl, slot: usize, width: u32, height: u32) -> Result<&WebGlTexture, String> {
        if self.layers.len() <= slot {
            self.layers.resize_with(slot + 1, || None);
        }
        if !matches!(&self.layers[slot], Some(l) if (l.width, l.height) == (width, height)) {
            if let Some(old) = self.layers[slot].take() {
                gl.delete_texture(Some(&old.texture));
            }
            self.layers[slot] = Some(LayerTexture { width, height, texture: texture(gl, width, height)? });
        }
        Ok(&self.layers[slot].as_ref().expect("just made").texture)
    }

    fn layer_program(&mut self, gl: &Gl, mode: BlendMode) -> Result<WebGlProgram, String> {
        if let Some((_, p)) = self.modes.iter().find(|(m, _)| *m == mode) {
            return Ok(p.clone());
        }
        let made = program(gl, (&self.fullscreen, &FULLSCREEN_VS), (&composite_fragment(mode.0), &COMPOSITE_FS))?;
        self.modes.push((mode, made.clone()));
        Ok(made)
    }

    fn over_program(&mut self, gl: &Gl) -> Result<WebGlProgram, String> {
        if self.over.is_none() {
            self.over = Some(program(gl, (&self.quad_vs, &QUAD_VS), (QUAD_FS.source, &QUAD_FS))?);
        }
        Ok(self.over.clone().expect("made above"))
    }

    /// Draws layer `slot` at `quad` over the picture, after its clip `effects`.
    pub fn draw(&mut self, fx: &mut GlRenderer, slot_index: usize, quad: &Quad, opacity: f64, mode: BlendMode, effects: &[Effect]) -> Result<(), String> {
        let layer = self.layers.get(slot_index).and_then(Option::as_ref).ok_or("no texture uploaded for this layer")?;
        if self.pictures.is_none() {
            return Err(NO_FRAME.into());
        }
        let source = if effects.is_empty() {
            layer.texture.clone()
        } else {
            let (w, h) = (layer.width, layer.height);
            fx.resize(w, h)?;
            fx.copy(&layer.texture, fx.source_texture().expect("resized"), w, h);
            fx.render(effects)?;
            fx.output_texture().expect("rendered").clone()
        };
        let gl = fx.gl().clone();
        let over = mode == BlendMode::NORMAL && self.opaque;
        let program = if over { self.over_program(&gl)? } else { self.layer_program(&gl, mode)? };
        let uniform = quad.uniform(opacity, self.size);
        gl.use_program(Some(&program));
        gl.bind_buffer_base(Gl::UNIFORM_BUFFER, slot(0, 2), Some(&self.uniform));
        gl.bind_buffer(Gl::UNIFORM_BUFFER, Some(&self.uniform));
        gl.buffer_sub_data_with_i32_and_u8_array(Gl::UNIFORM_BUFFER, 0, bytemuck::bytes_of(&uniform));
        let (picture, spare) = self.pictures.as_ref().expect("checked above");
        let (w, h) = self.size;
        gl.active_texture(Gl::TEXTURE0 + slot(1, 0));
        gl.bind_texture(Gl::TEXTURE_2D, Some(&source));
        if over {
            // The quad alone, blended into the picture: straight alpha "over" an opaque picture.
            target(&gl, &self.fbo, picture, w, h);
            gl.enable(Gl::BLEND);
            gl.blend_equation(Gl::FUNC_ADD);
            gl.blend_func_separate(Gl::SRC_ALPHA, Gl::ONE_MINUS_SRC_ALPHA, Gl::ONE, Gl::ONE_MINUS_SRC_ALPHA);
            gl.draw_arrays(Gl::TRIANGLE_STRIP, 0, 4);
            gl.disable(Gl::BLEND);
        } else {
            // A full-screen pass reads the picture as the backdrop and writes the spare.
            gl.active_texture(Gl::TEXTURE0 + slot(0, 0));
            gl.bind_texture(Gl::TEXTURE_2D, Some(picture));
            target(&gl, &self.fbo, spare, w, h);
            gl.draw_arrays(Gl::TRIANGLES, 0, 3);
            let pictures = self.pictures.as_mut().expect("checked above");
            std::mem::swap(&mut pictures.0, &mut pictures.1);
        }
        Ok(())
    }

    /// Applies scene `effects` to the picture so far.
    pub fn apply(&mut self, fx: &mut GlRenderer, effects: &[Effect]) -> Result<(), String> {
        if effects.is_empty() {
            return Ok(());
        }
        let (w, h) = self.size;
        fx.resize(w, h)?;
        let picture = &self.pictures.as_ref().ok_or(NO_FRAME)?.0;
        fx.copy(picture, fx.source_texture().expect("resized"), w, h);
        fx.render(effects)?;
        fx.copy(fx.output_texture().expect("rendered"), picture, w, h);
        Ok(())
    }

    /// Hands the finished picture to the renderer as its output (for showing and read-back).
    pub fn finish(&mut self, fx: &mut GlRenderer) -> Result<(), String> {
        let (w, h) = self.size;
        fx.resize(w, h)?;
        let picture = &self.pictures.as_ref().ok_or(NO_FRAME)?.0;
        fx.copy(picture, fx.source_texture().expect("resized"), w, h);
        fx.render(&[])
    }

    pub fn delete(&mut self, gl: &Gl) {
        for (_, p) in self.modes.drain(..) {
            gl.delete_program(Some(&p));
        }
        if let Some(p) = self.over.take() {
            gl.delete_program(Some(&p));
        }
        if let Some((a, b)) = self.pictures.take() {
            gl.delete_texture(Some(&a));
            gl.delete_texture(Some(&b));
        }
        for l in self.layers.drain(..).flatten() {
            gl.delete_texture(Some(&l.texture));
        }
        gl.delete_shader(Some(&self.fullscreen));
        gl.delete_shader(Some(&self.quad_vs));
        gl.delete_buffer(Some(&self.uniform));
        gl.delete_framebuffer(Some(&self.fbo));
    }
}
