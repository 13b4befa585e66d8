//! The wgpu effects renderer and frame compositor: boundary code that runs the WGSL shaders of
//! `shaders/`.
//!
//! The same [`Renderer`] runs natively (Vulkan; the GPU tests use Mesa's lavapipe) and in the
//! browser (WebGPU). WebGL2 (the `effects-webgl` feature) runs the same plan through [`gl`], its
//! own small executor with GLSL translated ahead of time ([`glsl`]). It owns a source texture and
//! two work textures, all `rgba8unorm`, sized to the frame and reused until the size changes.
//! A run of consecutive per-pixel effects is one full-screen pass from one texture into the
//! other; the blur is two passes, at a reduced size with a scale-down and a scale-up when sigma
//! allows. The effect math lives in [`crate::effects::reference`] and docs/effects.md.
//!
//! One job per file: [`plan`] (which passes, pipelines, textures and uniforms a list of effects
//! takes), [`uniforms`] (the shaders' uniform structs), `renderer.rs` (the GPU objects that run a
//! plan), [`compose`] (the frame compositor), `readback.rs` (texture to CPU, shared), `native.rs`
//! (native device and blocking read-back) and `web/` (the browser module's exports).

pub mod compose;
pub mod glsl;
pub mod plan;
mod readback;
mod renderer;
pub mod uniforms;

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::{block_on, native_renderer};

#[cfg(all(target_arch = "wasm32", feature = "effects-webgl"))]
pub mod gl;
#[cfg(all(target_arch = "wasm32", feature = "effects"))]
mod web;

pub use plan::{blur_level, reads_per_pixel};
pub use renderer::Renderer;

/// Format of every texture the effects read and write (sRGB-encoded values, not linearised).
pub const WORK_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

fn shader_module(device: &wgpu::Device, label: &str, source: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source: wgpu::ShaderSource::Wgsl(source.into()) })
}

/// A bind group entry for a filterable 2D texture the fragment stage samples.
fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// A bind group entry for the fragment stage's filtering sampler.
fn sampler_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    }
}

/// A bind group entry for a uniform buffer of at least `size` bytes.
fn uniform_entry(binding: u32, visibility: wgpu::ShaderStages, has_dynamic_offset: bool, size: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset, min_binding_size: std::num::NonZeroU64::new(size) },
        count: None,
    }
}

/// The sampler every pass and layer reads its picture with: linear, clamped to the edge.
fn linear_clamp_sampler(device: &wgpu::Device, label: &str) -> wgpu::Sampler {
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some(label),
        address_mode_u: wgpu::AddressMode::ClampToEdge,
        address_mode_v: wgpu::AddressMode::ClampToEdge,
        address_mode_w: wgpu::AddressMode::ClampToEdge,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    })
}

/// A uniform buffer of `size` bytes that the queue writes into.
fn uniform_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// A pipeline of one full-screen triangle (`vs_main` of `vertex`) running `fs_main` of
/// `fragment` with its override `constants`, writing `format` with blending off.
fn fullscreen_pipeline(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::PipelineLayout,
    vertex: &wgpu::ShaderModule,
    fragment: &wgpu::ShaderModule,
    constants: &[(&str, f64)],
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
            compilation_options: wgpu::PipelineCompilationOptions { constants, ..Default::default() },
            targets: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A render pass drawing into one colour target, which it stores; `load` says what the target
/// holds first.
fn render_pass<'e>(encoder: &'e mut wgpu::CommandEncoder, label: &str, view: &wgpu::TextureView, load: wgpu::LoadOp<wgpu::Color>) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
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
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}
