//! The effects renderer: the GPU objects that run a [`Plan`].

use std::num::NonZeroU64;

use super::plan::{pixel_shader, plan, Pipeline, Plan, Tex, UNIFORM_SIZE};
use super::{
    fullscreen_pipeline, linear_clamp_sampler, render_pass, sampler_entry, shader_module, texture_entry, uniform_buffer, uniform_entry, work_texture,
    WORK_FORMAT,
};
use crate::effects::reference::{Effect, RgbaImage};

const FULLSCREEN: &str = include_str!("../../shaders/fullscreen.wgsl");
const COPY: &str = include_str!("../../shaders/copy.wgsl");
const BLUR: &str = include_str!("../../shaders/blur.wgsl");

/// Fused pipelines kept at most; a host cycling through more effect stacks than this makes
/// some again.
const MAX_PIXEL_PIPELINES: usize = 64;

/// One texture the passes read or write, with the bind group that reads it.
struct Slot {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    bind_group: wgpu::BindGroup,
}

/// Textures for one frame size: the source and two work textures, and the reduced-size ones
/// the blur asked for, made on first use.
struct Frame {
    width: u32,
    height: u32,
    source: Slot,
    work_a: Slot,
    work_b: Slot,
    reduced: Vec<(Tex, Slot)>,
}

impl Frame {
    fn slot(&self, tex: Tex) -> &Slot {
        match tex {
            Tex::Source => &self.source,
            Tex::WorkA => &self.work_a,
            Tex::WorkB => &self.work_b,
            Tex::Down { .. } | Tex::Between { .. } => &self.reduced.iter().find(|(t, _)| *t == tex).expect("made before the passes run").1,
        }
    }

    fn slots_mut(&mut self) -> impl Iterator<Item = &mut Slot> {
        [&mut self.source, &mut self.work_a, &mut self.work_b].into_iter().chain(self.reduced.iter_mut().map(|(_, s)| s))
    }
}

/// The effects renderer. GPU objects are created once (pipelines, sampler) or when the frame
/// size or the number of passes grows (textures, uniform buffer), never per frame. Pipelines are
/// made on first use and kept (the fused ones up to [`MAX_PIXEL_PIPELINES`]).
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    vertex: wgpu::ShaderModule,
    pipelines: Vec<(Pipeline, wgpu::RenderPipeline)>,
    sampler: wgpu::Sampler,
    uniforms: wgpu::Buffer,
    /// Passes the uniform buffer has room for, one block of `stride` bytes each.
    uniform_slots: u64,
    stride: u64,
    frame: Option<Frame>,
    /// Which texture holds the last result (the source, when no effect ran).
    output: Tex,
    /// The passes the last `render` ran.
    last_passes: usize,
}

impl Renderer {
    pub fn new(device: wgpu::Device, queue: wgpu::Queue) -> Renderer {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("effect"),
            entries: &[texture_entry(0), sampler_entry(1), uniform_entry(2, wgpu::ShaderStages::FRAGMENT, true, UNIFORM_SIZE)],
        });
        let pipeline_layout =
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor { label: Some("effect"), bind_group_layouts: &[Some(&layout)], immediate_size: 0 });
        let vertex = shader_module(&device, "fullscreen", FULLSCREEN);
        let sampler = linear_clamp_sampler(&device, "linear clamp");
        let align = device.limits().min_uniform_buffer_offset_alignment as u64;
        let stride = UNIFORM_SIZE.div_ceil(align) * align;
        let uniform_slots = 8;
        let uniforms = uniform_buffer(&device, "effect uniforms", stride * uniform_slots);
        Renderer {
            device,
            queue,
            layout,
            pipeline_layout,
            vertex,
            pipelines: Vec::new(),
            sampler,
            uniforms,
            uniform_slots,
            stride,
            frame: None,
            output: Tex::Source,
            last_passes: 0,
        }
    }

    fn make_pipeline(&self, which: &Pipeline) -> wgpu::RenderPipeline {
        let (label, module, format) = match which {
            Pipeline::Blur => ("blur", shader_module(&self.device, "blur", BLUR), WORK_FORMAT),
            Pipeline::Pixel(key) => ("pixel", shader_module(&self.device, "pixel", &pixel_shader(key)), WORK_FORMAT),
            Pipeline::Present(format) => ("present", shader_module(&self.device, "copy", COPY), *format),
        };
        fullscreen_pipeline(&self.device, label, &self.pipeline_layout, &self.vertex, &module, &[], format)
    }

    fn pipeline(&self, which: &Pipeline) -> &wgpu::RenderPipeline {
        &self.pipelines.iter().find(|(p, _)| p == which).expect("made before use").1
    }

    /// Makes the pipelines `needed` that are not there yet. When that would keep more than
    /// [`MAX_PIXEL_PIPELINES`] fused ones, the fused ones not needed now are dropped first.
    fn ensure_pipelines(&mut self, needed: &[&Pipeline]) {
        let missing: Vec<&Pipeline> = needed.iter().copied().filter(|p| !self.pipelines.iter().any(|(have, _)| have == *p)).collect();
        if missing.is_empty() {
            return;
        }
        let fused = |p: &Pipeline| matches!(p, Pipeline::Pixel(_));
        let kept = self.pipelines.iter().filter(|(p, _)| fused(p)).count();
        if kept + missing.iter().filter(|p| fused(p)).count() > MAX_PIXEL_PIPELINES {
            self.pipelines.retain(|(p, _)| !fused(p) || needed.contains(&p));
        }
        for which in missing {
            if self.pipelines.iter().any(|(have, _)| have == which) {
                continue; // the same run twice in one plan
            }
            let pipeline = self.make_pipeline(which);
            self.pipelines.push((which.clone(), pipeline));
        }
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

    /// How many full-screen passes the last [`Renderer::render`] ran (a run of per-pixel
    /// effects is one).
    pub fn last_pass_count(&self) -> usize {
        self.last_passes
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
        let [source, work_a, work_b] = ["source", "work a", "work b"].map(|label| self.slot(label, width, height));
        self.frame = Some(Frame { width, height, source, work_a, work_b, reduced: Vec::new() });
        self.output = Tex::Source;
        Ok(())
    }

    fn slot(&self, label: &str, width: u32, height: u32) -> Slot {
        let texture = work_texture(&self.device, label, width, height);
        let view = texture.create_view(&Default::default());
        let bind_group = self.bind_group(&view);
        Slot { texture, view, bind_group }
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
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding { buffer: &self.uniforms, offset: 0, size: NonZeroU64::new(UNIFORM_SIZE) }),
                },
            ],
        })
    }

    /// The texture the next frame's source goes into (after [`Renderer::resize`]).
    pub fn source_texture(&self) -> Option<&wgpu::Texture> {
        self.frame.as_ref().map(|f| &f.source.texture)
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
        let plan = plan(effects, width, height);
        self.prepare(&plan);
        if !plan.passes.is_empty() {
            let mut data = vec![0u8; self.stride as usize * plan.passes.len()];
            for (i, pass) in plan.passes.iter().enumerate() {
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
        for (i, pass) in plan.passes.iter().enumerate() {
            let label = if pass.pipeline == Pipeline::Blur { "blur" } else { "pixel" };
            let mut rp = render_pass(&mut encoder, label, &frame.slot(pass.dst).view, load);
            rp.set_pipeline(self.pipeline(&pass.pipeline));
            rp.set_bind_group(0, &frame.slot(pass.src).bind_group, &[(i as u64 * self.stride) as u32]);
            rp.draw(0..3, 0..1);
        }
        self.output = plan.result;
        self.last_passes = plan.passes.len();
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Makes what `plan` needs that is not there yet: reduced-size textures, room in the uniform
    /// buffer, pipelines.
    fn prepare(&mut self, plan: &Plan) {
        let mut frame = self.frame.take().expect("sized");
        for &tex in &plan.reduced {
            if !frame.reduced.iter().any(|(t, _)| *t == tex) {
                let (width, height) = tex.reduced_size().expect("a reduced texture");
                frame.reduced.push((tex, self.slot("blur level", width, height)));
            }
        }
        if plan.passes.len() as u64 > self.uniform_slots {
            self.uniform_slots = (plan.passes.len() as u64).next_power_of_two();
            self.uniforms = uniform_buffer(&self.device, "effect uniforms", self.stride * self.uniform_slots);
            for slot in frame.slots_mut() {
                slot.bind_group = self.bind_group(&slot.view);
            }
        }
        self.frame = Some(frame);
        let needed: Vec<&Pipeline> = plan.passes.iter().map(|p| &p.pipeline).collect();
        self.ensure_pipelines(&needed);
    }

    /// The texture holding the last rendered result.
    pub fn output_texture(&self) -> Option<&wgpu::Texture> {
        self.frame.as_ref().map(|f| &f.slot(self.output).texture)
    }

    /// Draws the last result onto `target` (a canvas texture of the frame size, any colour
    /// format) and submits.
    pub fn present(&mut self, target: &wgpu::TextureView, format: wgpu::TextureFormat) -> Result<(), String> {
        let which = Pipeline::Present(format);
        self.ensure_pipelines(&[&which]);
        let frame = self.frame.as_ref().ok_or("no frame to present")?;
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("present") });
        {
            let mut rp = render_pass(&mut encoder, "present", target, wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT));
            rp.set_pipeline(self.pipeline(&which));
            rp.set_bind_group(0, &frame.slot(self.output).bind_group, &[0]);
            rp.draw(0..3, 0..1);
        }
        self.queue.submit([encoder.finish()]);
        Ok(())
    }
}
