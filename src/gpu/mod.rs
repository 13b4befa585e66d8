//! The wgpu effects renderer: boundary code that runs the WGSL shaders of `shaders/`.
//!
//! The same [`Renderer`] runs natively (Vulkan; the GPU tests use Mesa's lavapipe) and in the
//! browser (WebGPU, or WebGL2 with the `effects-webgl` feature). It owns a source texture and
//! two work textures, all `rgba8unorm`, sized to the frame and reused until the size changes.
//! Each effect is a full-screen pass from one texture into the other (blur is two passes); the
//! effect math lives in [`crate::effects::reference`] and docs/effects.md.

use std::num::NonZeroU64;

use crate::effects::reference::{blur_kernel, blur_sigmas, linear_taps, Effect, RgbaImage};

pub mod compose;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::{block_on, native_renderer};

#[cfg(all(target_arch = "wasm32", feature = "effects"))]
mod web;

/// Format of every texture the effects read and write (sRGB-encoded values, not linearised).
pub const WORK_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

const FULLSCREEN: &str = include_str!("../../shaders/fullscreen.wgsl");
const COPY: &str = include_str!("../../shaders/copy.wgsl");

/// Shader of each pipeline kind, in [`Kind`] order.
const SHADERS: [(&str, &str); 9] = [
    ("blur", include_str!("../../shaders/blur.wgsl")),
    ("brightness-contrast", include_str!("../../shaders/brightness_contrast.wgsl")),
    ("grayscale", include_str!("../../shaders/grayscale.wgsl")),
    ("saturation", include_str!("../../shaders/saturation.wgsl")),
    ("sepia", include_str!("../../shaders/sepia.wgsl")),
    ("invert", include_str!("../../shaders/invert.wgsl")),
    ("vignette", include_str!("../../shaders/vignette.wgsl")),
    ("resample", include_str!("../../shaders/resample.wgsl")),
    ("copy", COPY),
];
const RESAMPLE: usize = 7;

/// Merged blur taps per side the uniform holds (two per vec4): kernel radius up to 512.
const MAX_PAIRS: usize = 256;
/// Size of the uniform block every pass binds: the blur's, the largest (16 + 128 × 16 bytes).
const UNIFORM_SIZE: u64 = 16 + (MAX_PAIRS as u64 / 2) * 16;

/// One full-screen pass: which pipeline and what its uniform block holds.
struct Pass {
    pipeline: usize,
    uniform: Vec<u8>,
    /// Texture slots read and written (see [`Frame::textures`]).
    src: usize,
    dst: usize,
}

/// Texture slots: 0 the source, 1 and 2 full-size work textures, then two per pyramid level
/// (level `l` ≥ 1 is `ceil(size / 2^l)`).
fn level_slot(level: u32, second: bool) -> usize {
    3 + 2 * (level as usize - 1) + second as usize
}

/// The other full-size work texture.
fn other(slot: usize) -> usize {
    if slot == 1 {
        2
    } else {
        1
    }
}

fn level_size(width: u32, height: u32, level: u32) -> (u32, u32) {
    (width.div_ceil(1 << level).max(1), height.div_ceil(1 << level).max(1))
}

/// Sigma (in full-size pixels) above which the blur works on a reduced copy: each level halves
/// the size, and the level is picked so the blur there has sigma of at most about 2.4 px.
const PYRAMID_SIGMA: f32 = 4.0;
/// Deeper levels drift from the reference at the frame edges (the clamp there repeats a 2^L-pixel
/// average rather than the edge pixel); two levels keep mean |Δ| well under 1/255.
const MAX_LEVEL: u32 = 2;

/// The pyramid level for a blur of sigmas `(sx, sy)` and the sigmas to blur with there. Halving
/// L times (2×2 box averages) and scaling back up (bilinear) adds variance
/// (4^L − 1)/12 + 4^L/6 px² on each axis, which is taken out of the blur done at level L so the
/// total matches σ². The halving is the same on both axes, so the smaller sigma picks the level:
/// it must still be large enough to absorb that variance.
pub fn blur_level(sx: f32, sy: f32, width: u32, height: u32) -> (u32, f32, f32) {
    let sigma = sx.min(sy);
    let mut level = 0;
    while level < MAX_LEVEL && sigma / PYRAMID_SIGMA >= (2u32 << level) as f32 && (width >> (level + 1)) >= 8 && (height >> (level + 1)) >= 8 {
        level += 1;
    }
    if level == 0 {
        return (0, sx, sy);
    }
    let scale = (1u32 << (2 * level)) as f32;
    let extra = (scale - 1.0) / 12.0 + scale / 6.0;
    let at_level = |s: f32| ((s * s - extra) / scale).max(0.0).sqrt();
    (level, at_level(sx), at_level(sy))
}

fn pipeline_of(effect: &Effect) -> usize {
    SHADERS.iter().position(|(id, _)| *id == effect.id()).expect("every effect has a shader")
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// The passes that render `effects` on a `width × height` frame, and the slot holding the
/// result. Effects that change nothing at their parameters are skipped.
fn plan(effects: &[Effect], width: u32, height: u32) -> (Vec<Pass>, usize) {
    let mut passes = Vec::new();
    let mut cur = 0;
    for effect in effects.iter().filter(|e| !e.is_identity(width, height)) {
        let pipeline = pipeline_of(effect);
        let single = |uniform: Vec<u8>, cur: usize| Pass { pipeline, uniform, src: cur, dst: other(cur) };
        match *effect {
            Effect::Blur { intensity } => {
                let (sx, sy) = blur_sigmas(intensity, width, height);
                let (level, sx, sy) = blur_level(sx, sy, width, height);
                let (lw, lh) = level_size(width, height, level);
                let resample = |w: u32, h: u32| floats(&[1.0 / w as f32, 1.0 / h as f32, 0.0, 0.0]);
                // Down the pyramid.
                let mut at = cur;
                for l in 1..=level {
                    let (w, h) = level_size(width, height, l);
                    passes.push(Pass { pipeline: RESAMPLE, uniform: resample(w, h), src: at, dst: level_slot(l, false) });
                    at = level_slot(l, false);
                }
                let (mid, end) = if level == 0 { (other(cur), other(other(cur))) } else { (level_slot(level, true), level_slot(level, false)) };
                // Each pass has its own sigma. A pass whose kernel is the identity still runs (as
                // a copy through the centre tap), which keeps the slot plan the same for every blur.
                for (sigma, step, src, dst) in [(sx, [1.0 / lw as f32, 0.0], at, mid), (sy, [0.0, 1.0 / lh as f32], mid, end)] {
                    let (centre, taps) = linear_taps(&blur_kernel(sigma));
                    debug_assert!(taps.len() <= MAX_PAIRS);
                    let mut u = floats(&step);
                    u.extend((taps.len() as u32).to_le_bytes());
                    u.extend(centre.to_le_bytes());
                    for (offset, weight) in &taps {
                        u.extend(floats(&[*offset, *weight]));
                    }
                    passes.push(Pass { pipeline, uniform: u, src, dst });
                }
                if level > 0 {
                    // Back up to full size; `cur` was only read, so its partner is free.
                    passes.push(Pass { pipeline: RESAMPLE, uniform: resample(width, height), src: end, dst: other(cur) });
                    cur = other(cur);
                } else {
                    cur = end;
                }
            }
            Effect::BrightnessContrast { brightness, contrast } => passes.push(single(floats(&[brightness, contrast, 0.0, 0.0]), cur)),
            Effect::Grayscale { intensity } | Effect::Sepia { intensity } | Effect::Invert { intensity } => {
                passes.push(single(floats(&[intensity / 100.0, 0.0, 0.0, 0.0]), cur))
            }
            Effect::Saturation { saturation } => passes.push(single(floats(&[saturation / 100.0, 0.0, 0.0, 0.0]), cur)),
            Effect::Vignette { radius, softness } => passes.push(single(floats(&[radius / 100.0, softness / 100.0, 0.0, 0.0]), cur)),
        }
        if !matches!(effect, Effect::Blur { .. }) {
            cur = passes.last().expect("pushed").dst;
        }
    }
    (passes, cur)
}

/// One texture the passes read or write, with what binding it needs.
struct Slot {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    bind_group: wgpu::BindGroup,
}

/// Textures for one frame size: slots 0 (source), 1 and 2 (work) at full size, then pyramid
/// levels for the blur, made when a blur first needs them.
struct Frame {
    width: u32,
    height: u32,
    textures: Vec<Slot>,
}

/// The effects renderer. GPU objects are created once (pipelines, sampler) or when the frame
/// size or the number of passes grows (textures, uniform buffer), never per frame.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    vertex: wgpu::ShaderModule,
    fragments: Vec<wgpu::ShaderModule>,
    /// One pipeline per entry of [`SHADERS`], all writing [`WORK_FORMAT`].
    pipelines: Vec<wgpu::RenderPipeline>,
    /// Copy pipelines for presenting onto other formats (a canvas may want bgra8unorm).
    present_pipelines: Vec<(wgpu::TextureFormat, wgpu::RenderPipeline)>,
    sampler: wgpu::Sampler,
    uniforms: wgpu::Buffer,
    uniform_slots: u64,
    stride: u64,
    frame: Option<Frame>,
    /// Which texture holds the last result (0: the source, when no effect ran).
    output: usize,
}

impl Renderer {
    pub fn new(device: wgpu::Device, queue: wgpu::Queue) -> Renderer {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("effect"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: NonZeroU64::new(UNIFORM_SIZE),
                    },
                    count: None,
                },
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("effect"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = |label: &str, source: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source: wgpu::ShaderSource::Wgsl(source.into()) })
        };
        let vertex = module("fullscreen", FULLSCREEN);
        let fragments: Vec<wgpu::ShaderModule> = SHADERS.iter().map(|(id, src)| module(id, src)).collect();
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("linear clamp"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            address_mode_w: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let align = device.limits().min_uniform_buffer_offset_alignment as u64;
        let stride = UNIFORM_SIZE.div_ceil(align) * align;
        let uniform_slots = 8;
        let uniforms = Self::uniform_buffer(&device, stride * uniform_slots);
        let mut r = Renderer {
            device,
            queue,
            layout,
            pipeline_layout,
            vertex,
            fragments,
            pipelines: Vec::new(),
            present_pipelines: Vec::new(),
            sampler,
            uniforms,
            uniform_slots,
            stride,
            frame: None,
            output: 0,
        };
        r.pipelines = (0..SHADERS.len()).map(|i| r.make_pipeline(i, WORK_FORMAT)).collect();
        r
    }

    fn uniform_buffer(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("effect uniforms"),
            size,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    fn make_pipeline(&self, shader: usize, format: wgpu::TextureFormat) -> wgpu::RenderPipeline {
        self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(SHADERS[shader].0),
            layout: Some(&self.pipeline_layout),
            vertex: wgpu::VertexState {
                module: &self.vertex,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &self.fragments[shader],
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
            }),
            multiview_mask: None,
            cache: None,
        })
    }

    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The largest frame side this device accepts.
    pub fn max_size(&self) -> u32 {
        self.device.limits().max_texture_dimension_2d
    }

    /// The current frame size, if any frame was set up.
    pub fn size(&self) -> Option<(u32, u32)> {
        self.frame.as_ref().map(|f| (f.width, f.height))
    }

    /// Makes the textures `width × height`; a no-op when they already are.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), String> {
        if self.size() == Some((width, height)) {
            return Ok(());
        }
        let max = self.max_size();
        if width == 0 || height == 0 || width > max || height > max {
            return Err(format!("frame size {width}x{height} is outside 1..={max} on this device"));
        }
        let textures = ["source", "work a", "work b"].map(|label| self.slot(label, width, height)).into_iter().collect();
        self.frame = Some(Frame { width, height, textures });
        self.output = 0;
        Ok(())
    }

    fn slot(&self, label: &str, width: u32, height: u32) -> Slot {
        let texture = work_texture(&self.device, label, width, height);
        let view = texture.create_view(&Default::default());
        let bind_group = self.bind_group(&view);
        Slot { texture, view, bind_group }
    }

    /// Makes the pyramid textures down to `level`.
    fn ensure_levels(&mut self, level: u32) {
        let frame = self.frame.take().expect("sized");
        let mut textures = frame.textures;
        while textures.len() < level_slot(level, true) + 1 {
            let l = (textures.len() as u32 - 3) / 2 + 1;
            let (w, h) = level_size(frame.width, frame.height, l);
            textures.push(self.slot("blur level", w, h));
        }
        self.frame = Some(Frame { textures, ..frame });
    }

    fn bind_group(&self, view: &wgpu::TextureView) -> wgpu::BindGroup {
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("effect input"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&self.sampler) },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &self.uniforms,
                        offset: 0,
                        size: NonZeroU64::new(UNIFORM_SIZE),
                    }),
                },
            ],
        })
    }

    /// The texture the next frame's source goes into (after [`Renderer::resize`]).
    pub fn source_texture(&self) -> Option<&wgpu::Texture> {
        self.frame.as_ref().map(|f| &f.textures[0].texture)
    }

    /// Uploads an RGBA8 image as the source, resizing to it.
    pub fn upload(&mut self, image: &RgbaImage) -> Result<(), String> {
        self.resize(image.width, image.height)?;
        let texture = self.source_texture().expect("resized");
        self.queue.write_texture(
            texture.as_image_copy(),
            &image.pixels,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(image.width * 4), rows_per_image: Some(image.height) },
            wgpu::Extent3d { width: image.width, height: image.height, depth_or_array_layers: 1 },
        );
        Ok(())
    }

    /// Renders `effects`, in order, from the source texture, and submits the work. The result
    /// stays on the GPU; [`Renderer::present`] draws it onto a target.
    pub fn render(&mut self, effects: &[Effect]) -> Result<(), String> {
        let (width, height) = self.size().ok_or("no frame: upload a source first")?;
        let (passes, result) = plan(effects, width, height);
        let slots = passes.iter().map(|p| p.src.max(p.dst)).max().unwrap_or(0);
        if slots >= 3 {
            self.ensure_levels(((slots - 3) / 2 + 1) as u32);
        }
        if passes.len() as u64 > self.uniform_slots {
            self.uniform_slots = (passes.len() as u64).next_power_of_two();
            self.uniforms = Self::uniform_buffer(&self.device, self.stride * self.uniform_slots);
            let mut frame = self.frame.take().expect("sized");
            for t in &mut frame.textures {
                t.bind_group = self.bind_group(&t.view);
            }
            self.frame = Some(frame);
        }
        if !passes.is_empty() {
            let mut data = vec![0u8; self.stride as usize * passes.len()];
            for (i, pass) in passes.iter().enumerate() {
                let at = i * self.stride as usize;
                data[at..at + pass.uniform.len()].copy_from_slice(&pass.uniform);
            }
            self.queue.write_buffer(&self.uniforms, 0, &data);
        }
        let frame = self.frame.as_ref().expect("sized");
        // SAFETY: every pass draws one triangle covering the whole target with blending off, so
        // each pixel is written before anything reads it; clearing first would be wasted work.
        let load = wgpu::LoadOp::DontCare(unsafe { wgpu::LoadOpDontCare::enabled() });
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("effects") });
        for (i, pass) in passes.iter().enumerate() {
            let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(SHADERS[pass.pipeline].0),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &frame.textures[pass.dst].view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            rp.set_pipeline(&self.pipelines[pass.pipeline]);
            rp.set_bind_group(0, &frame.textures[pass.src].bind_group, &[(i as u64 * self.stride) as u32]);
            rp.draw(0..3, 0..1);
        }
        self.output = result;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// The texture holding the last rendered result.
    pub fn output_texture(&self) -> Option<&wgpu::Texture> {
        self.frame.as_ref().map(|f| &f.textures[self.output].texture)
    }

    /// Draws the last result onto `target` (a canvas texture of the frame size, any colour
    /// format) and submits.
    pub fn present(&mut self, target: &wgpu::TextureView, format: wgpu::TextureFormat) -> Result<(), String> {
        if !self.present_pipelines.iter().any(|(f, _)| *f == format) {
            let copy = SHADERS.len() - 1;
            let p = self.make_pipeline(copy, format);
            self.present_pipelines.push((format, p));
        }
        let pipeline = &self.present_pipelines.iter().find(|(f, _)| *f == format).expect("just made").1;
        let frame = self.frame.as_ref().ok_or("no frame to present")?;
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("present") });
        {
            let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("present"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT), store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            rp.set_pipeline(pipeline);
            rp.set_bind_group(0, &frame.textures[self.output].bind_group, &[0]);
            rp.draw(0..3, 0..1);
        }
        self.queue.submit([encoder.finish()]);
        Ok(())
    }
}

/// A texture in the working format that passes read, draw into, and copy both ways: every
/// intermediate picture of the effects chain and the compositor is one of these.
pub(crate) fn work_texture(device: &wgpu::Device, label: &str, width: u32, height: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: WORK_FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}
