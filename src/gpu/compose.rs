//! The frame compositor: draws the layers of a [`crate::frame::Frame`] into a canvas-sized
//! picture on the GPU, using the effects [`Renderer`] for scene and clip effects.
//!
//! A normal-blend layer over an opaque picture (the usual case: the background is a colour) is
//! drawn as its own quad into the picture with fixed-function "over" blending, so it costs only
//! the pixels it covers. Any other blend mode, or a picture with transparency, is a full-screen
//! pass of `shaders/composite.wgsl` that reads the picture so far and writes the other of two
//! accumulation textures. Effect passes copy the picture into the effects renderer and back. The
//! finished picture is handed to the renderer as its source, so its `present` and read-back
//! show it.

use super::uniforms::Layer;
use super::{
    fullscreen_pipeline, linear_clamp_sampler, render_pass, sampler_entry, shader_module, texture_entry, uniform_buffer, uniform_entry, Renderer, WORK_FORMAT,
};
use crate::effects::reference::Effect;
use crate::frame::BLEND_MODES;

const COMPOSITE: &str = include_str!("../../shaders/composite.wgsl");
const FULLSCREEN: &str = include_str!("../../shaders/fullscreen.wgsl");
/// Drawing before [`Compositor::begin`] made the picture.
const NO_FRAME: &str = "no frame begun: call begin first";
/// Bytes of composite.wgsl's uniform block.
const LAYER_SIZE: u64 = std::mem::size_of::<Layer>() as u64;

/// The compositor's pipelines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompositePipeline {
    /// One layer over the backdrop in a blend mode (composite.wgsl with `MODE` set): one pipeline
    /// per mode, made when first used, so each compiles only its own blend function.
    Layer(BlendMode),
    /// A normal layer drawn as its quad with fixed-function blending (`vs_quad`, `fs_quad`).
    Over,
}

/// Where a layer's quad lands on the target, in target pixels (centre, size, clockwise degrees):
/// the frame's own placement, so the compositor draws exactly what `frame::place` computed.
pub type Quad = crate::frame::Placement;

impl Quad {
    /// A quad covering a `width × height` target.
    pub fn full(width: u32, height: u32) -> Quad {
        let (w, h) = (width as f64, height as f64);
        Quad { center_x: w / 2.0, center_y: h / 2.0, width: w, height: h, rotation: 0.0, flip_x: false, flip_y: false }
    }

    /// The uniform mapping a target pixel to the layer's uv: undo the translation, the clockwise
    /// rotation (y down) and the size; a flip mirrors u or v. `target` is the picture's size.
    pub fn uniform(&self, opacity: f64, target: (u32, u32)) -> Layer {
        let (sin, cos) = sin_cos(self.rotation.to_radians());
        let (w, h) = (self.width.max(1e-9), self.height.max(1e-9));
        // local x = cos·dx + sin·dy, local y = −sin·dx + cos·dy, with d = p − centre.
        let row = |a: f64, b: f64, size: f64, flip: bool| {
            let k = if flip { -1.0 } else { 1.0 } / size;
            let (a, b) = (a * k, b * k);
            [a as f32, b as f32, (0.5 - a * self.center_x - b * self.center_y) as f32]
        };
        Layer {
            to_u: row(cos, sin, w, self.flip_x),
            opacity: opacity.clamp(0.0, 1.0) as f32,
            to_v: row(-sin, cos, h, self.flip_y),
            target_size: [target.0 as f32, target.1 as f32],
            ..Layer::default()
        }
    }
}

/// The sine and cosine of `radians`. In the browser they come from JS's `Math`: Rust's own link
/// libm's argument reduction, about 7 KB of the effects module for this one call.
fn sin_cos(radians: f64) -> (f64, f64) {
    #[cfg(target_arch = "wasm32")]
    return (js_sys::Math::sin(radians), js_sys::Math::cos(radians));
    #[cfg(not(target_arch = "wasm32"))]
    return radians.sin_cos();
}

/// A blend mode: its index in [`BLEND_MODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BlendMode(pub u8);

impl BlendMode {
    pub const NORMAL: BlendMode = BlendMode(0);

    /// OpenCut's name (`"screen"`); an unknown name is normal, as OpenCut draws it.
    pub fn parse(name: &str) -> BlendMode {
        BLEND_MODES.iter().position(|m| *m == name).map_or(BlendMode::NORMAL, |i| BlendMode(i as u8))
    }
}

struct Target {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    /// Group 0: this texture as the backdrop, the sampler and the uniform.
    backdrop: wgpu::BindGroup,
}

/// The two accumulation textures of the frame size. A full-screen layer pass reads `picture` and
/// writes `spare`, and then they swap; a quad layer draws into `picture` itself.
struct Pictures {
    /// Holds the picture so far.
    picture: Target,
    spare: Target,
}

/// A texture layers are uploaded into, reused while its size stays.
struct LayerTexture {
    width: u32,
    height: u32,
    texture: wgpu::Texture,
    source: wgpu::BindGroup,
}

pub struct Compositor {
    layout0: wgpu::BindGroupLayout,
    layout1: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    vertex: wgpu::ShaderModule,
    fragment: wgpu::ShaderModule,
    /// Made on first use: a software GPU compiles only the blend modes in use.
    pipelines: Vec<(CompositePipeline, wgpu::RenderPipeline)>,
    sampler: wgpu::Sampler,
    uniform: wgpu::Buffer,
    /// Made by the first [`Compositor::begin`], and again when the size changes.
    pictures: Option<Pictures>,
    size: (u32, u32),
    /// Whether every pixel of the picture so far has alpha 1 (the background is opaque): then a
    /// normal layer can be blended in by the fixed-function stage, whose "over" is exact only
    /// over an opaque backdrop.
    opaque: bool,
    layers: Vec<Option<LayerTexture>>,
}

impl Compositor {
    pub fn new(device: &wgpu::Device) -> Compositor {
        let layout0 = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("composite backdrop"),
            // The quad's vertex stage places the corners from the uniform too.
            entries: &[texture_entry(0), sampler_entry(1), uniform_entry(2, wgpu::ShaderStages::VERTEX_FRAGMENT, false, LAYER_SIZE)],
        });
        let layout1 = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some("composite layer"), entries: &[texture_entry(0)] });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("composite"),
            bind_group_layouts: &[Some(&layout0), Some(&layout1)],
            immediate_size: 0,
        });
        let (vertex, fragment) = (shader_module(device, "fullscreen", FULLSCREEN), shader_module(device, "composite", COMPOSITE));
        let sampler = linear_clamp_sampler(device, "layer");
        let uniform = uniform_buffer(device, "composite uniform", LAYER_SIZE);
        Compositor {
            layout0,
            layout1,
            pipeline_layout,
            vertex,
            fragment,
            pipelines: Vec::new(),
            sampler,
            uniform,
            pictures: None,
            size: (0, 0),
            opaque: true,
            layers: Vec::new(),
        }
    }

    /// The pipeline for `which`, made on first use.
    pub fn pipeline(&mut self, device: &wgpu::Device, which: CompositePipeline) -> &wgpu::RenderPipeline {
        let at = match self.pipelines.iter().position(|(p, _)| *p == which) {
            Some(at) => at,
            None => {
                let pipeline = match which {
                    CompositePipeline::Layer(mode) => self.layer_pipeline(device, mode),
                    CompositePipeline::Over => over_pipeline(device, &self.pipeline_layout, &self.fragment),
                };
                self.pipelines.push((which, pipeline));
                self.pipelines.len() - 1
            }
        };
        &self.pipelines[at].1
    }

    /// composite.wgsl's full-screen pass with `MODE` set to `mode`.
    fn layer_pipeline(&self, device: &wgpu::Device, mode: BlendMode) -> wgpu::RenderPipeline {
        let label = BLEND_MODES[mode.0 as usize];
        fullscreen_pipeline(device, label, &self.pipeline_layout, &self.vertex, &self.fragment, &[("MODE", mode.0 as f64)], WORK_FORMAT)
    }

    fn source_group(&self, device: &wgpu::Device, view: &wgpu::TextureView) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("layer source"),
            layout: &self.layout1,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(view) }],
        })
    }

    fn target(&self, device: &wgpu::Device, width: u32, height: u32) -> Target {
        let texture = super::work_texture(device, "composite", width, height);
        let view = texture.create_view(&Default::default());
        let backdrop = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("backdrop"),
            layout: &self.layout0,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&self.sampler) },
                wgpu::BindGroupEntry { binding: 2, resource: self.uniform.as_entire_binding() },
            ],
        });
        Target { texture, view, backdrop }
    }

    /// Starts a `width × height` frame filled with `background` (straight RGBA, 0–1).
    pub fn begin(&mut self, fx: &Renderer, width: u32, height: u32, background: [f64; 4]) -> Result<(), String> {
        let max = fx.max_size();
        if width == 0 || height == 0 || width > max || height > max {
            return Err(format!("frame size {width}x{height} is outside 1..={max} on this device"));
        }
        let device = fx.device();
        if self.size != (width, height) || self.pictures.is_none() {
            self.pictures = Some(Pictures { picture: self.target(device, width, height), spare: self.target(device, width, height) });
            self.size = (width, height);
        }
        let pictures = self.pictures.as_ref().expect("made above");
        self.opaque = background[3] >= 1.0;
        let [r, g, b, a] = background;
        let mut encoder = device.create_command_encoder(&Default::default());
        // A pass that only clears the picture to the background.
        render_pass(&mut encoder, "background", &pictures.picture.view, wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }));
        fx.queue().submit([encoder.finish()]);
        Ok(())
    }

    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The texture layer `slot` is uploaded into, `width × height`, made or remade as needed.
    pub fn layer_texture(&mut self, device: &wgpu::Device, slot: usize, width: u32, height: u32) -> &wgpu::Texture {
        if self.layers.len() <= slot {
            self.layers.resize_with(slot + 1, || None);
        }
        if !matches!(&self.layers[slot], Some(l) if (l.width, l.height) == (width, height)) {
            let texture = super::work_texture(device, "layer", width, height);
            let source = self.source_group(device, &texture.create_view(&Default::default()));
            self.layers[slot] = Some(LayerTexture { width, height, texture, source });
        }
        &self.layers[slot].as_ref().expect("just made").texture
    }

    /// Draws layer `slot` (uploaded with [`Compositor::layer_texture`]) at `quad` over the
    /// picture, after its clip `effects` (applied to its own pixels).
    pub fn draw(&mut self, fx: &mut Renderer, slot: usize, quad: &Quad, opacity: f64, mode: BlendMode, effects: &[Effect]) -> Result<(), String> {
        let layer = self.layers.get(slot).and_then(Option::as_ref).ok_or("no texture uploaded for this layer")?;
        if self.pictures.is_none() {
            return Err(NO_FRAME.into());
        }
        let clip = !effects.is_empty();
        let own;
        let source = if clip {
            let (w, h) = (layer.width, layer.height);
            fx.resize(w, h)?;
            copy(fx, &layer.texture, fx.source_texture().expect("resized"), w, h);
            fx.render(effects)?;
            let view = fx.output_texture().expect("rendered").create_view(&Default::default());
            own = self.source_group(fx.device(), &view);
            &own
        } else {
            &layer.source
        };
        let source = source.clone();
        let uniform = quad.uniform(opacity, self.size);
        fx.queue().write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        let over = mode == BlendMode::NORMAL && self.opaque;
        let pipeline = self.pipeline(fx.device(), if over { CompositePipeline::Over } else { CompositePipeline::Layer(mode) }).clone();
        let pictures = self.pictures.as_mut().expect("checked above");
        // Over draws into the picture; a full-screen pass reads it and writes the spare.
        let (target, group0) = if over { (&pictures.picture, &pictures.spare) } else { (&pictures.spare, &pictures.picture) };
        let mut encoder = fx.device().create_command_encoder(&Default::default());
        {
            // Over: into the picture itself, which is kept. Otherwise the pass draws one triangle
            // over the whole other target with blending off, so nothing there needs keeping.
            // SAFETY (DontCare): every pixel of that target is written before anything reads it.
            let load = if over { wgpu::LoadOp::Load } else { wgpu::LoadOp::DontCare(unsafe { wgpu::LoadOpDontCare::enabled() }) };
            let mut rp = render_pass(&mut encoder, "composite", &target.view, load);
            rp.set_pipeline(&pipeline);
            // Group 0 holds the uniform; for "over" it is bound through the other target, as the
            // picture cannot be sampled while it is drawn into (the quad reads no backdrop).
            rp.set_bind_group(0, &group0.backdrop, &[]);
            rp.set_bind_group(1, &source, &[]);
            rp.draw(if over { 0..4 } else { 0..3 }, 0..1);
        }
        fx.queue().submit([encoder.finish()]);
        if !over {
            std::mem::swap(&mut pictures.picture, &mut pictures.spare);
        }
        Ok(())
    }

    /// Whether layer `slot` holds an uploaded texture (so a frame can draw it again without a
    /// new upload).
    pub fn has_layer(&self, slot: usize) -> bool {
        matches!(self.layers.get(slot), Some(Some(_)))
    }

    /// Applies scene `effects` to the picture so far (an effect element over the layers below).
    pub fn apply(&mut self, fx: &mut Renderer, effects: &[Effect]) -> Result<(), String> {
        if effects.is_empty() {
            return Ok(());
        }
        let (w, h) = self.size;
        fx.resize(w, h)?;
        let picture = &self.pictures.as_ref().ok_or(NO_FRAME)?.picture.texture;
        copy(fx, picture, fx.source_texture().expect("resized"), w, h);
        fx.render(effects)?;
        copy(fx, fx.output_texture().expect("rendered"), picture, w, h);
        Ok(())
    }

    /// Hands the finished picture to the renderer as its output (for `present` and read-back).
    pub fn finish(&mut self, fx: &mut Renderer) -> Result<(), String> {
        let (w, h) = self.size;
        fx.resize(w, h)?;
        let picture = &self.pictures.as_ref().ok_or(NO_FRAME)?.picture.texture;
        copy(fx, picture, fx.source_texture().expect("resized"), w, h);
        fx.render(&[])
    }

    /// Uploads an RGBA8 image (straight alpha) as layer `slot`.
    pub fn upload(&mut self, fx: &Renderer, slot: usize, image: &crate::effects::reference::RgbaImage) {
        let texture = self.layer_texture(fx.device(), slot, image.width, image.height);
        fx.queue().write_texture(
            texture.as_image_copy(),
            &image.pixels,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(image.width * 4), rows_per_image: Some(image.height) },
            wgpu::Extent3d { width: image.width, height: image.height, depth_or_array_layers: 1 },
        );
    }
}

fn copy(fx: &Renderer, from: &wgpu::Texture, to: &wgpu::Texture, width: u32, height: u32) {
    let mut encoder = fx.device().create_command_encoder(&Default::default());
    encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), wgpu::Extent3d { width, height, depth_or_array_layers: 1 });
    fx.queue().submit([encoder.finish()]);
}

/// The "over" pipeline: the layer's quad, blended in straight alpha over an opaque picture
/// (colour a·Cs + (1 − a)·Cb, alpha a + (1 − a)·1 = 1), exactly what `fs_main` computes there.
fn over_pipeline(device: &wgpu::Device, layout: &wgpu::PipelineLayout, module: &wgpu::ShaderModule) -> wgpu::RenderPipeline {
    let blend = wgpu::BlendState {
        color: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::SrcAlpha,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
        alpha: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("over"),
        layout: Some(layout),
        vertex: wgpu::VertexState { module, entry_point: Some("vs_quad"), compilation_options: Default::default(), buffers: &[] },
        primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::TriangleStrip, ..Default::default() },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs_quad"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState { format: WORK_FORMAT, blend: Some(blend), write_mask: wgpu::ColorWrites::ALL })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
