//! The wgpu effects renderer: boundary code that runs the WGSL shaders of `shaders/`.
//!
//! The same [`Renderer`] runs natively (Vulkan; the GPU tests use Mesa's lavapipe) and in the
//! browser (WebGPU, or WebGL2 with the `effects-webgl` feature). It owns a source texture and
//! two work textures, all `rgba8unorm`, sized to the frame and reused until the size changes.
//! A run of consecutive per-pixel effects is one full-screen pass from one texture into the
//! other; the blur is two passes, at a reduced size with a scale-down and a scale-up when sigma
//! allows. The effect math lives in [`crate::effects::reference`] and docs/effects.md.

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
const BLUR: &str = include_str!("../../shaders/blur.wgsl");
/// The fused per-pixel pass; [`pixel_shader`] specialises it for each run of effects.
const PIXEL: &str = include_str!("../../shaders/pixel.wgsl");

/// Merged blur taps per side the uniform holds (two per vec4): kernel radius up to 512.
const MAX_PAIRS: usize = 256;
/// Size of the uniform block every pass binds: the blur's and the fused pass's, the largest
/// (16 + 128 × 16 bytes).
const UNIFORM_SIZE: u64 = 16 + (MAX_PAIRS as u64 / 2) * 16;
/// Per-pixel effects one fused pass holds (its uniform has one vec4 each, after the size).
const MAX_FUSED: usize = 128;

/// What a fused per-pixel pass does: how it reads its input and which effects it applies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PixelKey {
    /// Reads with one bilinear sample at the target pixel centre (scaling the input to the
    /// target size) instead of loading the texel.
    pub sample: bool,
    /// The effects, in order, as indices into [`PIXEL_EFFECTS`].
    pub ops: Vec<u8>,
}

/// The per-pixel effects, by the name of their function in shaders/pixel.wgsl.
pub const PIXEL_EFFECTS: [&str; 6] = ["brightness_contrast", "grayscale", "saturation", "sepia", "invert", "vignette"];

/// The WGSL of a fused pass: shaders/pixel.wgsl with its entry point's read and effect calls
/// filled in.
pub fn pixel_shader(key: &PixelKey) -> String {
    let mut body = String::new();
    if key.sample && !key.ops.is_empty() {
        // A scaled read is a blur's result, which the reference rounds before the next effect.
        body.push_str("    c = q(c);\n");
    }
    for (i, op) in key.ops.iter().enumerate() {
        if i > 0 {
            body.push_str("    c = q(c);\n");
        }
        body.push_str(&format!("    c = {}(c, params.ops[{}], pos.xy);\n", PIXEL_EFFECTS[*op as usize], i + 1));
    }
    let fetch = if key.sample { "textureSampleLevel(src, linear_clamp, pos.xy * params.ops[0].xy + params.ops[0].zw, 0.0);" } else { "textureLoad(src, vec2<i32>(pos.xy), 0);" };
    PIXEL.replace("textureLoad(src, vec2<i32>(pos.xy), 0); // fetch", fetch).replace("    // ops\n", &body)
}

/// The pipeline a pass runs.
#[derive(Clone, Debug, PartialEq)]
enum Pipe {
    Blur,
    Pixel(PixelKey),
}

/// One full-screen pass: which pipeline and what its uniform block holds.
struct Pass {
    pipe: Pipe,
    uniform: Vec<u8>,
    /// Texture slots read and written: 0 the source, 1 and 2 full-size work textures, 3 + i the
    /// reduced-size texture `Plan::reduced[i]`.
    src: usize,
    dst: usize,
}

/// The passes for one list of effects.
struct Plan {
    passes: Vec<Pass>,
    /// Slot holding the result.
    result: usize,
    /// Reduced-size textures the blur needs: (width, height, which of the two of that size).
    reduced: Vec<(u32, u32, u8)>,
}

/// The other full-size work texture.
fn other(slot: usize) -> usize {
    if slot == 1 {
        2
    } else {
        1
    }
}

/// Smallest sigma, in pixels of a reduced level, the blur keeps there: a level is used only if
/// the blur left to do at that size is at least this wide. It bounds the work at any sigma: at the
/// level picked the sigma is under about 2.6 px, so a pass takes at most 9 bilinear reads, on a
/// picture 4^L times smaller (docs/effects.md). Measured on lavapipe (tests/gpu.rs): 1.2 keeps
/// the mean |Δ| at most 0.52/255 on the test frames; 0.9 reached 0.90/255 and 0.6 went over 1.
const LEVEL_SIGMA: f32 = 1.2;
/// Deepest level: 2^6 = 64 times smaller on a side, which the largest sigma (170 px) needs.
const MAX_LEVEL: u32 = 6;
/// A level keeps at least this many pixels a side.
const MIN_LEVEL_SIDE: u32 = 8;

/// The pyramid level for a blur of sigma `sigma` along an axis of `size` pixels, and the sigma to
/// blur with there. Halving L times (2-pixel box averages) and scaling back up (bilinear) adds
/// variance (4^L − 1)/12 + 4^L/6 px², which is taken out of the blur done at level L so the
/// total matches σ². Each axis picks its own level: the deepest whose remaining sigma is at
/// least [`LEVEL_SIGMA`].
pub fn blur_level(sigma: f32, size: u32) -> (u32, f32) {
    let mut best = (0, sigma);
    for level in 1..=MAX_LEVEL {
        if size.div_ceil(1 << level) < MIN_LEVEL_SIDE {
            break;
        }
        let scale = (1u32 << (2 * level)) as f32;
        let extra = (scale - 1.0) / 12.0 + scale / 6.0;
        let at_level = (sigma * sigma - extra) / scale;
        if at_level < LEVEL_SIGMA * LEVEL_SIGMA {
            break;
        }
        best = (level, at_level.sqrt());
    }
    best
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// The index of a per-pixel effect in [`PIXEL_EFFECTS`] and its four parameters; `None` for
/// the blur.
fn pixel_op(effect: &Effect, width: u32, height: u32) -> Option<(u8, [f32; 4])> {
    Some(match *effect {
        Effect::Blur { .. } => return None,
        Effect::BrightnessContrast { brightness, contrast } => (0, [brightness, contrast, 0.0, 0.0]),
        Effect::Grayscale { intensity } => (1, [intensity / 100.0, 0.0, 0.0, 0.0]),
        Effect::Saturation { saturation } => (2, [saturation / 100.0, 0.0, 0.0, 0.0]),
        Effect::Sepia { intensity } => (3, [intensity / 100.0, 0.0, 0.0, 0.0]),
        Effect::Invert { intensity } => (4, [intensity / 100.0, 0.0, 0.0, 0.0]),
        Effect::Vignette { radius, softness } => (5, [radius / 100.0, softness / 100.0, width as f32, height as f32]),
    })
}

/// The head of a fused pass's uniform: where each target pixel reads, `uv = pos · a + b` (in
/// texture coordinates of the input; only used when the pass samples).
fn read_head(a: [f32; 2], b: [f32; 2]) -> Vec<u8> {
    floats(&[a[0], a[1], b[0], b[1]])
}

/// One axis of a blur's pyramid. The reduced textures extend `margin` frame pixels beyond each
/// edge (one level-L texel), filled with the edge pixel by the clamp of the first scale-down.
/// So the clamp at a level's edge repeats the frame's edge pixel, as the reference does, rather
/// than an average of the last 2^L pixels.
#[derive(Clone, Copy)]
struct Axis {
    /// Frame pixels along the axis.
    side: u32,
    level: u32,
    margin: u32,
}

impl Axis {
    fn new(side: u32, level: u32) -> Axis {
        Axis { side, level, margin: if level > 0 { 1 << level } else { 0 } }
    }

    /// Texels along the axis at level `l` (capped at this axis's own level).
    fn texels(&self, l: u32) -> u32 {
        let l = l.min(self.level);
        if l == 0 {
            self.side
        } else {
            (self.side + 2 * self.margin).div_ceil(1 << l)
        }
    }

    /// (a, b) of the read at level `l` from level `l − 1`.
    fn down(&self, l: u32) -> (f32, f32) {
        if l > self.level {
            (1.0 / self.texels(l) as f32, 0.0)
        } else if l == 1 {
            (2.0 / self.side as f32, -(self.margin as f32) / self.side as f32)
        } else {
            (2.0 / self.texels(l - 1) as f32, 0.0)
        }
    }

    /// (a, b) of the read at full size from this axis's level.
    fn up(&self) -> (f32, f32) {
        let span = ((1u32 << self.level) * self.texels(self.level)) as f32;
        (1.0 / span, self.margin as f32 / span)
    }
}

/// The passes that render `effects` on a `width × height` frame. Effects that change nothing at
/// their parameters are skipped. A run of consecutive per-pixel effects is one pass; when it
/// follows a blur rendered at a reduced size, it is fused into that blur's scale-up.
fn plan(effects: &[Effect], width: u32, height: u32) -> Plan {
    let mut passes: Vec<Pass> = Vec::new();
    let mut reduced: Vec<(u32, u32, u8)> = Vec::new();
    let mut slot_of = |w: u32, h: u32, n: u8| {
        3 + reduced.iter().position(|k| *k == (w, h, n)).unwrap_or_else(|| {
            reduced.push((w, h, n));
            reduced.len() - 1
        })
    };
    let mut cur = 0;
    // Whether the last pass is a fused pass writing `cur` that more effects may join.
    let mut open = false;
    for effect in effects.iter().filter(|e| !e.is_identity(width, height)) {
        if let Some((op, values)) = pixel_op(effect, width, height) {
            if let Some(Pass { pipe: Pipe::Pixel(key), uniform, .. }) = passes.last_mut().filter(|_| open) {
                if key.ops.len() < MAX_FUSED {
                    key.ops.push(op);
                    uniform.extend(floats(&values));
                    continue;
                }
            }
            let mut uniform = read_head([1.0 / width as f32, 1.0 / height as f32], [0.0, 0.0]);
            uniform.extend(floats(&values));
            passes.push(Pass { pipe: Pipe::Pixel(PixelKey { sample: false, ops: vec![op] }), uniform, src: cur, dst: other(cur) });
            cur = other(cur);
            open = true;
            continue;
        }
        let Effect::Blur { intensity } = *effect else { unreachable!("only the blur has no per-pixel op") };
        let (sx, sy) = blur_sigmas(intensity, width, height);
        let ((lx, sx), (ly, sy)) = (blur_level(sx, width), blur_level(sy, height));
        let (ax, ay) = (Axis::new(width, lx), Axis::new(height, ly));
        let (lw, lh) = (ax.texels(lx), ay.texels(ly));
        let reduced_blur = lx > 0 || ly > 0;
        // Down the pyramid: both axes together while both go down, then the deeper one alone.
        let mut at = cur;
        for l in 1..=lx.max(ly) {
            let dst = slot_of(ax.texels(l), ay.texels(l), 0);
            let ((a0, b0), (a1, b1)) = (ax.down(l), ay.down(l));
            passes.push(Pass { pipe: Pipe::Pixel(PixelKey { sample: true, ops: vec![] }), uniform: read_head([a0, a1], [b0, b1]), src: at, dst });
            at = dst;
        }
        let (mid, end) = if reduced_blur { (slot_of(lw, lh, 1), at) } else { (other(cur), other(other(cur))) };
        // Each pass has its own sigma. A pass whose kernel is the identity still runs (as a copy
        // through the centre tap), which keeps the slot plan the same for every blur.
        for (sigma, step, src, dst) in [(sx, [1.0 / lw as f32, 0.0], at, mid), (sy, [0.0, 1.0 / lh as f32], mid, end)] {
            let (centre, taps) = linear_taps(&blur_kernel(sigma));
            debug_assert!(taps.len() <= MAX_PAIRS);
            let mut u = floats(&step);
            u.extend((taps.len() as u32).to_le_bytes());
            u.extend(centre.to_le_bytes());
            for (offset, weight) in &taps {
                u.extend(floats(&[*offset, *weight]));
            }
            passes.push(Pass { pipe: Pipe::Blur, uniform: u, src, dst });
        }
        if reduced_blur {
            // Back up to full size; `cur` was only read, so its partner is free. Per-pixel
            // effects after the blur join this pass.
            let ((a0, b0), (a1, b1)) = (ax.up(), ay.up());
            passes.push(Pass { pipe: Pipe::Pixel(PixelKey { sample: true, ops: vec![] }), uniform: read_head([a0, a1], [b0, b1]), src: end, dst: other(cur) });
            cur = other(cur);
            open = true;
        } else {
            cur = end;
            open = false;
        }
    }
    Plan { passes, result: cur, reduced }
}

/// Texture reads per frame pixel the passes for `effects` take: every pass's reads per pixel
/// (a bilinear sample counts as one), weighted by its target's share of the frame. A measure of
/// the work, which the tests bound at every blur sigma.
pub fn reads_per_pixel(effects: &[Effect], width: u32, height: u32) -> f64 {
    let plan = plan(effects, width, height);
    let frame = width as f64 * height as f64;
    plan.passes
        .iter()
        .map(|p| {
            let area = if p.dst < 3 { frame } else { plan.reduced[p.dst - 3].0 as f64 * plan.reduced[p.dst - 3].1 as f64 };
            let reads = match p.pipe {
                // The uniform's third word is the number of merged taps a side.
                Pipe::Blur => 1.0 + 2.0 * u32::from_le_bytes(p.uniform[8..12].try_into().expect("4 bytes")) as f64,
                Pipe::Pixel(_) => 1.0,
            };
            reads * area / frame
        })
        .sum()
}

/// One texture the passes read or write, with what binding it needs.
struct Slot {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    bind_group: wgpu::BindGroup,
}

/// Textures for one frame size: the source and two work textures at full size, then the
/// reduced-size ones the blur asked for, by (width, height, which of two), made on first use.
struct Frame {
    width: u32,
    height: u32,
    textures: Vec<Slot>,
    reduced: Vec<((u32, u32, u8), Slot)>,
}

impl Frame {
    fn slot(&self, plan: &Plan, slot: usize) -> &Slot {
        if slot < 3 {
            return &self.textures[slot];
        }
        let key = plan.reduced[slot - 3];
        &self.reduced.iter().find(|(k, _)| *k == key).expect("made before the passes run").1
    }
}

/// Fused pipelines kept at most; a host cycling through more effect stacks than this makes
/// some again.
const MAX_PIXEL_PIPELINES: usize = 64;

/// The effects renderer. GPU objects are created once (pipelines, sampler) or when the frame
/// size or the number of passes grows (textures, uniform buffer), never per frame. The fused
/// per-pixel pipelines are made for each new run of effects and kept.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    vertex: wgpu::ShaderModule,
    blur: wgpu::RenderPipeline,
    /// Fused per-pixel pipelines, all writing [`WORK_FORMAT`].
    pixel_pipelines: Vec<(PixelKey, wgpu::RenderPipeline)>,
    /// Copy pipelines for presenting onto other formats (a canvas may want bgra8unorm).
    present_pipelines: Vec<(wgpu::TextureFormat, wgpu::RenderPipeline)>,
    sampler: wgpu::Sampler,
    uniforms: wgpu::Buffer,
    uniform_slots: u64,
    stride: u64,
    frame: Option<Frame>,
    /// Which texture holds the last result (0: the source, when no effect ran).
    output: usize,
    /// The passes the last `render` ran.
    last_passes: usize,
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
        let vertex = shader_module(&device, "fullscreen", FULLSCREEN);
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
        let blur = make_pipeline(&device, &pipeline_layout, &vertex, &shader_module(&device, "blur", BLUR), "blur", WORK_FORMAT);
        Renderer {
            device,
            queue,
            layout,
            pipeline_layout,
            vertex,
            blur,
            pixel_pipelines: Vec::new(),
            present_pipelines: Vec::new(),
            sampler,
            uniforms,
            uniform_slots,
            stride,
            frame: None,
            output: 0,
            last_passes: 0,
        }
    }

    fn uniform_buffer(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("effect uniforms"),
            size,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Makes the fused pipelines `plan` needs that are not there yet. When that would keep more
    /// than [`MAX_PIXEL_PIPELINES`], the ones this plan does not use are dropped first.
    fn ensure_pixel_pipelines(&mut self, plan: &Plan) {
        let needed: Vec<&PixelKey> = plan.passes.iter().filter_map(|p| if let Pipe::Pixel(k) = &p.pipe { Some(k) } else { None }).collect();
        let missing: Vec<&PixelKey> = needed.iter().copied().filter(|k| !self.pixel_pipelines.iter().any(|(have, _)| have == *k)).collect();
        if missing.is_empty() {
            return;
        }
        if self.pixel_pipelines.len() + missing.len() > MAX_PIXEL_PIPELINES {
            self.pixel_pipelines.retain(|(k, _)| needed.contains(&k));
        }
        for key in missing {
            if self.pixel_pipelines.iter().any(|(have, _)| have == key) {
                continue; // the same run twice in one plan
            }
            let module = shader_module(&self.device, "pixel", &pixel_shader(key));
            let pipeline = make_pipeline(&self.device, &self.pipeline_layout, &self.vertex, &module, "pixel", WORK_FORMAT);
            self.pixel_pipelines.push((key.clone(), pipeline));
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
        let textures = ["source", "work a", "work b"].map(|label| self.slot(label, width, height)).into_iter().collect();
        self.frame = Some(Frame { width, height, textures, reduced: Vec::new() });
        self.output = 0;
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
        let plan = plan(effects, width, height);
        let mut frame = self.frame.take().expect("sized");
        for key in &plan.reduced {
            if !frame.reduced.iter().any(|(k, _)| k == key) {
                frame.reduced.push((*key, self.slot("blur level", key.0, key.1)));
            }
        }
        if plan.passes.len() as u64 > self.uniform_slots {
            self.uniform_slots = (plan.passes.len() as u64).next_power_of_two();
            self.uniforms = Self::uniform_buffer(&self.device, self.stride * self.uniform_slots);
            for t in frame.textures.iter_mut().chain(frame.reduced.iter_mut().map(|(_, s)| s)) {
                t.bind_group = self.bind_group(&t.view);
            }
        }
        self.frame = Some(frame);
        self.ensure_pixel_pipelines(&plan);
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
            let (label, pipeline) = match &pass.pipe {
                Pipe::Blur => ("blur", &self.blur),
                Pipe::Pixel(key) => ("pixel", &self.pixel_pipelines.iter().find(|(k, _)| k == key).expect("made above").1),
            };
            let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(label),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &frame.slot(&plan, pass.dst).view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            rp.set_pipeline(pipeline);
            rp.set_bind_group(0, &frame.slot(&plan, pass.src).bind_group, &[(i as u64 * self.stride) as u32]);
            rp.draw(0..3, 0..1);
        }
        self.output = plan.result;
        self.last_passes = plan.passes.len();
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
            let module = shader_module(&self.device, "copy", COPY);
            let p = make_pipeline(&self.device, &self.pipeline_layout, &self.vertex, &module, "present", format);
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

fn shader_module(device: &wgpu::Device, label: &str, source: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source: wgpu::ShaderSource::Wgsl(source.into()) })
}

fn make_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    vertex: &wgpu::ShaderModule,
    fragment: &wgpu::ShaderModule,
    label: &str,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState { module: vertex, entry_point: Some("vs_main"), compilation_options: Default::default(), buffers: &[] },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: fragment,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
        }),
        multiview_mask: None,
        cache: None,
    })
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
