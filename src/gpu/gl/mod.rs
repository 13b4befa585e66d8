//! The WebGL2 executor: runs the same pass plan as the wgpu [`super::Renderer`] ([`super::plan`])
//! and the same compositor steps ([`compose`]) straight on a `WebGl2RenderingContext`, with the
//! GLSL naga translated from shaders/ ahead of time ([`super::glsl`]). It replaces wgpu's GL
//! backend, which links naga's IR, validator and GLSL writer into the module and translates in
//! the page (docs/effects.md, "Speed and size").
//!
//! Textures keep WebGPU's row order: row 0 is the top row. The translated vertex stages flip y,
//! so `gl_FragCoord` is WGSL's `@builtin(position)`, uploads and read-backs need no flip, and
//! only showing the frame on the canvas (whose row 0 is the bottom) flips, in its blit.

pub mod compose;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{WebGl2RenderingContext as Gl, WebGlBuffer, WebGlFramebuffer, WebGlProgram, WebGlShader, WebGlTexture};

use super::glsl::{pixel_fragment, GlslShader, BLUR_FS, FULLSCREEN_VS};
use super::plan::{plan, Pipeline, Tex, UNIFORM_SIZE};
use crate::effects::reference::Effect;

/// Fused programs kept at most, as the wgpu renderer keeps its pipelines.
const MAX_PIXEL_PROGRAMS: usize = 64;

#[wasm_bindgen]
extern "C" {
    /// The context, seen through the one call web-sys splits by source kind.
    #[wasm_bindgen(js_name = WebGL2RenderingContext)]
    type Uploader;
    /// WebGL2's `texSubImage2D` from any picture it takes (ImageData, bitmap, canvas, video,
    /// VideoFrame, image): its top-left `width × height` (WebGL2's sub-rectangle upload).
    #[wasm_bindgen(method, catch, js_name = texSubImage2D)]
    fn tex_sub_image_picture(
        this: &Uploader,
        target: u32,
        level: i32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        source: &JsValue,
    ) -> Result<(), JsValue>;
}

/// The texture unit and the uniform-buffer binding point of a WGSL `@group(g) @binding(b)`.
fn slot(group: u32, binding: u32) -> u32 {
    group * 4 + binding
}

/// A `width × height` RGBA8 texture, linear and clamped (every sampler of shaders/ is), that
/// passes draw into and read from.
pub(crate) fn texture(gl: &Gl, width: u32, height: u32) -> Result<WebGlTexture, String> {
    let texture = gl.create_texture().ok_or("WebGL2 made no texture (context lost?)")?;
    gl.bind_texture(Gl::TEXTURE_2D, Some(&texture));
    gl.tex_storage_2d(Gl::TEXTURE_2D, 1, Gl::RGBA8, width as i32, height as i32);
    for (name, value) in [
        (Gl::TEXTURE_MIN_FILTER, Gl::LINEAR),
        (Gl::TEXTURE_MAG_FILTER, Gl::LINEAR),
        (Gl::TEXTURE_WRAP_S, Gl::CLAMP_TO_EDGE),
        (Gl::TEXTURE_WRAP_T, Gl::CLAMP_TO_EDGE),
    ] {
        gl.tex_parameteri(Gl::TEXTURE_2D, name, value as i32);
    }
    Ok(texture)
}

/// Copies `picture` (anything `texSubImage2D` takes) into `texture`: its top-left
/// `width × height`, bytes as they are (no premultiplying, no flip).
pub(crate) fn upload(gl: &Gl, texture: &WebGlTexture, picture: &JsValue, width: u32, height: u32) -> Result<(), String> {
    gl.bind_texture(Gl::TEXTURE_2D, Some(texture));
    gl.pixel_storei(Gl::UNPACK_ALIGNMENT, 1);
    gl.unchecked_ref::<Uploader>()
        .tex_sub_image_picture(Gl::TEXTURE_2D, 0, 0, 0, width as i32, height as i32, Gl::RGBA, Gl::UNSIGNED_BYTE, picture)
        .map_err(|e| format!("WebGL2 could not upload the picture: {}", js_message(&e)))
}

/// The message of a thrown JS value.
pub(crate) fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_else(|| "unknown error".into())
}

fn compile(gl: &Gl, kind: u32, source: &str) -> Result<WebGlShader, String> {
    let shader = gl.create_shader(kind).ok_or("WebGL2 made no shader")?;
    gl.shader_source(&shader, source);
    gl.compile_shader(&shader);
    if gl.get_shader_parameter(&shader, Gl::COMPILE_STATUS).as_bool() != Some(true) {
        return Err(format!("a shader did not compile: {}", gl.get_shader_info_log(&shader).unwrap_or_default()));
    }
    Ok(shader)
}

/// Links `vertex` and `fragment` and binds their resources by name to the units and binding
/// points [`slot`] gives their WGSL groups and bindings.
pub(crate) fn program(gl: &Gl, vertex: (&WebGlShader, &GlslShader), fragment: (&str, &GlslShader)) -> Result<WebGlProgram, String> {
    let fs = compile(gl, Gl::FRAGMENT_SHADER, fragment.0)?;
    let program = gl.create_program().ok_or("WebGL2 made no program")?;
    gl.attach_shader(&program, vertex.0);
    gl.attach_shader(&program, &fs);
    gl.link_program(&program);
    gl.delete_shader(Some(&fs));
    if gl.get_program_parameter(&program, Gl::LINK_STATUS).as_bool() != Some(true) {
        return Err(format!("a program did not link: {}", gl.get_program_info_log(&program).unwrap_or_default()));
    }
    gl.use_program(Some(&program));
    for shader in [vertex.1, fragment.1] {
        for &(name, group, binding) in shader.textures {
            gl.uniform1i(gl.get_uniform_location(&program, name).as_ref(), slot(group, binding) as i32);
        }
        for &(name, group, binding) in shader.blocks {
            let index = gl.get_uniform_block_index(&program, name);
            if index != Gl::INVALID_INDEX {
                gl.uniform_block_binding(&program, index, slot(group, binding));
            }
        }
    }
    Ok(program)
}

/// Points `fbo`'s colour at `texture` and draws into it, `width × height`.
pub(crate) fn target(gl: &Gl, fbo: &WebGlFramebuffer, texture: &WebGlTexture, width: u32, height: u32) {
    gl.bind_framebuffer(Gl::DRAW_FRAMEBUFFER, Some(fbo));
    gl.framebuffer_texture_2d(Gl::DRAW_FRAMEBUFFER, Gl::COLOR_ATTACHMENT0, Gl::TEXTURE_2D, Some(texture), 0);
    gl.viewport(0, 0, width as i32, height as i32);
}

/// Textures for one frame size, as the wgpu renderer's `Frame`.
struct Frame {
    width: u32,
    height: u32,
    source: WebGlTexture,
    work_a: WebGlTexture,
    work_b: WebGlTexture,
    reduced: Vec<(Tex, WebGlTexture)>,
}

impl Frame {
    fn texture(&self, tex: Tex) -> &WebGlTexture {
        match tex {
            Tex::Source => &self.source,
            Tex::WorkA => &self.work_a,
            Tex::WorkB => &self.work_b,
            Tex::Down { .. } | Tex::Between { .. } => &self.reduced.iter().find(|(t, _)| *t == tex).expect("made before the passes run").1,
        }
    }

    fn delete(&self, gl: &Gl) {
        for t in [&self.source, &self.work_a, &self.work_b].into_iter().chain(self.reduced.iter().map(|(_, t)| t)) {
            gl.delete_texture(Some(t));
        }
    }
}

/// The effects renderer on WebGL2: the same plan, the same uniform bytes (std140 lays the blocks
/// out as WGSL does), one draw per pass.
pub struct GlRenderer {
    gl: Gl,
    vertex: WebGlShader,
    programs: Vec<(Pipeline, WebGlProgram)>,
    uniforms: WebGlBuffer,
    /// Draws into a pass's target.
    fbo: WebGlFramebuffer,
    /// Reads from a texture (copies, read-back, showing on the canvas).
    read_fbo: WebGlFramebuffer,
    frame: Option<Frame>,
    output: Tex,
    max_size: u32,
}

impl GlRenderer {
    pub fn new(gl: Gl) -> Result<GlRenderer, String> {
        let vertex = compile(&gl, Gl::VERTEX_SHADER, FULLSCREEN_VS.source)?;
        let uniforms = gl.create_buffer().ok_or("WebGL2 made no buffer")?;
        gl.bind_buffer(Gl::UNIFORM_BUFFER, Some(&uniforms));
        gl.buffer_data_with_i32(Gl::UNIFORM_BUFFER, UNIFORM_SIZE as i32, Gl::DYNAMIC_DRAW);
        let fbo = gl.create_framebuffer().ok_or("WebGL2 made no framebuffer")?;
        let read_fbo = gl.create_framebuffer().ok_or("WebGL2 made no framebuffer")?;
        let param = |name| gl.get_parameter(name).ok();
        let texture = param(Gl::MAX_TEXTURE_SIZE).and_then(|v| v.as_f64()).unwrap_or(2048.0) as u32;
        let viewport = param(Gl::MAX_VIEWPORT_DIMS)
            .map(|v| js_sys::Array::from(&v))
            .map_or(texture, |a| (a.get(0).as_f64().unwrap_or(0.0).min(a.get(1).as_f64().unwrap_or(0.0))) as u32);
        let max_size = texture.min(viewport.max(1));
        Ok(GlRenderer { gl, vertex, programs: Vec::new(), uniforms, fbo, read_fbo, frame: None, output: Tex::Source, max_size })
    }

    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    pub fn max_size(&self) -> u32 {
        self.max_size
    }

    pub fn size(&self) -> Option<(u32, u32)> {
        self.frame.as_ref().map(|f| (f.width, f.height))
    }

    /// Makes the textures `width × height`; a no-op when they already are.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), String> {
        if self.size() == Some((width, height)) {
            return Ok(());
        }
        let max = self.max_size;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(format!("frame size {width}x{height} is outside 1..={max} on this device"));
        }
        if let Some(old) = self.frame.take() {
            old.delete(&self.gl);
        }
        let gl = &self.gl;
        self.frame = Some(Frame {
            width,
            height,
            source: texture(gl, width, height)?,
            work_a: texture(gl, width, height)?,
            work_b: texture(gl, width, height)?,
            reduced: Vec::new(),
        });
        self.output = Tex::Source;
        Ok(())
    }

    /// The texture the next frame's source goes into (after [`GlRenderer::resize`]).
    pub fn source_texture(&self) -> Option<&WebGlTexture> {
        self.frame.as_ref().map(|f| &f.source)
    }

    /// The texture holding the last result.
    pub fn output_texture(&self) -> Option<&WebGlTexture> {
        self.frame.as_ref().map(|f| f.texture(self.output))
    }

    fn program(&mut self, which: &Pipeline) -> Result<&WebGlProgram, String> {
        if let Some(at) = self.programs.iter().position(|(p, _)| p == which) {
            return Ok(&self.programs[at].1);
        }
        let fused = |p: &Pipeline| matches!(p, Pipeline::Pixel(_));
        if fused(which) && self.programs.iter().filter(|(p, _)| fused(p)).count() >= MAX_PIXEL_PROGRAMS {
            let at = self.programs.iter().position(|(p, _)| fused(p)).expect("counted");
            let (_, old) = self.programs.remove(at);
            self.gl.delete_program(Some(&old));
        }
        let made = match which {
            Pipeline::Blur => program(&self.gl, (&self.vertex, &FULLSCREEN_VS), (BLUR_FS.source, &BLUR_FS))?,
            Pipeline::Pixel(key) => {
                let template = if key.sample { &super::glsl::PIXEL_SAMPLE_FS } else { &super::glsl::PIXEL_LOAD_FS };
                program(&self.gl, (&self.vertex, &FULLSCREEN_VS), (&pixel_fragment(key), template))?
            }
            Pipeline::Present(_) => return Err("WebGL2 shows frames with a blit, not a pass".into()),
        };
        self.programs.push((which.clone(), made));
        Ok(&self.programs.last().expect("pushed").1)
    }

    /// Renders `effects`, in order, from the source texture.
    pub fn render(&mut self, effects: &[Effect]) -> Result<(), String> {
        let (width, height) = self.size().ok_or("no frame: upload a source first")?;
        let plan = plan(effects, width, height);
        for &tex in &plan.reduced {
            let frame = self.frame.as_mut().expect("sized");
            if !frame.reduced.iter().any(|(t, _)| *t == tex) {
                let (w, h) = tex.reduced_size().expect("a reduced texture");
                frame.reduced.push((tex, texture(&self.gl, w, h)?));
            }
        }
        for pass in &plan.passes {
            let program = self.program(&pass.pipeline)?.clone();
            let gl = &self.gl;
            let frame = self.frame.as_ref().expect("sized");
            let (w, h) = pass.dst.reduced_size().unwrap_or((width, height));
            gl.use_program(Some(&program));
            gl.bind_buffer_base(Gl::UNIFORM_BUFFER, slot(0, 2), Some(&self.uniforms));
            gl.bind_buffer(Gl::UNIFORM_BUFFER, Some(&self.uniforms));
            gl.buffer_sub_data_with_i32_and_u8_array(Gl::UNIFORM_BUFFER, 0, &pass.uniform);
            gl.active_texture(Gl::TEXTURE0 + slot(0, 0));
            gl.bind_texture(Gl::TEXTURE_2D, Some(frame.texture(pass.src)));
            target(gl, &self.fbo, frame.texture(pass.dst), w, h);
            gl.draw_arrays(Gl::TRIANGLES, 0, 3);
        }
        self.output = plan.result;
        Ok(())
    }

    /// Points the read framebuffer at `texture`.
    pub(crate) fn read_from(&self, texture: &WebGlTexture) {
        self.gl.bind_framebuffer(Gl::READ_FRAMEBUFFER, Some(&self.read_fbo));
        self.gl.framebuffer_texture_2d(Gl::READ_FRAMEBUFFER, Gl::COLOR_ATTACHMENT0, Gl::TEXTURE_2D, Some(texture), 0);
    }

    /// Copies the top-left `width × height` of `from` into `to`.
    pub fn copy(&self, from: &WebGlTexture, to: &WebGlTexture, width: u32, height: u32) {
        self.read_from(from);
        self.gl.bind_texture(Gl::TEXTURE_2D, Some(to));
        self.gl.copy_tex_sub_image_2d(Gl::TEXTURE_2D, 0, 0, 0, 0, 0, width as i32, height as i32);
    }

    /// The region of the last result, RGBA8 rows top to bottom.
    pub fn read_pixels(&self, x: u32, y: u32, width: u32, height: u32) -> Result<js_sys::Uint8ClampedArray, String> {
        let texture = self.output_texture().ok_or("nothing rendered yet")?;
        self.read_from(texture);
        let out = js_sys::Uint8ClampedArray::new_with_length(width * height * 4);
        let view = js_sys::Uint8Array::new(&out.buffer());
        self.gl.pixel_storei(Gl::PACK_ALIGNMENT, 1);
        self.gl
            .read_pixels_with_opt_array_buffer_view(x as i32, y as i32, width as i32, height as i32, Gl::RGBA, Gl::UNSIGNED_BYTE, Some(&view))
            .map_err(|e| format!("read-back failed: {}", js_message(&e)))?;
        Ok(out)
    }

    /// Draws the last result on the context's canvas, resized to the frame by the caller: a blit
    /// that flips rows, as the canvas's row 0 is its bottom.
    pub fn show(&self) -> Result<(), String> {
        let (w, h) = self.size().ok_or("no frame to present")?;
        let texture = self.output_texture().expect("sized");
        self.read_from(texture);
        self.gl.bind_framebuffer(Gl::DRAW_FRAMEBUFFER, None);
        self.gl.viewport(0, 0, w as i32, h as i32);
        let (w, h) = (w as i32, h as i32);
        self.gl.blit_framebuffer(0, 0, w, h, 0, h, w, 0, Gl::COLOR_BUFFER_BIT, Gl::NEAREST);
        Ok(())
    }
}

impl Drop for GlRenderer {
    fn drop(&mut self) {
        let gl = &self.gl;
        if let Some(frame) = self.frame.take() {
            frame.delete(gl);
        }
        for (_, p) in self.programs.drain(..) {
            gl.delete_program(Some(&p));
        }
        gl.delete_shader(Some(&self.vertex));
        gl.delete_buffer(Some(&self.uniforms));
        gl.delete_framebuffer(Some(&self.fbo));
        gl.delete_framebuffer(Some(&self.read_fbo));
    }
}
