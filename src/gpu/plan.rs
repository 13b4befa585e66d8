//! What the effects renderer draws for a list of effects: the passes, which pipeline each runs,
//! the textures it reads and writes, and its uniform block. Arithmetic only, no GPU objects.
//!
//! A run of consecutive per-pixel effects is one pass of pixel.wgsl specialised for that run
//! ([`pixel_shader`]); the blur is two passes of blur.wgsl, at a reduced size with a scale-down
//! and a scale-up when sigma allows (docs/effects.md).

use super::uniforms::{self as u, push_member, MAX_PAIRS};
pub use crate::effects::pyramid::blur_level;
use crate::effects::pyramid::Axis;
use crate::effects::reference::{blur_kernel, blur_sigmas, linear_taps, Effect};

/// The fused pass as written: it copies its input. [`pixel_shader`] specialises it.
const PIXEL: &str = include_str!("../../shaders/pixel.wgsl");

/// Per-pixel effects one fused pass holds.
pub const MAX_FUSED: usize = 128;

/// Size of the uniform block every effect pass binds: the largest, the blur's.
pub const UNIFORM_SIZE: u64 = std::mem::size_of::<u::Blur>() as u64;
// A fused pass's block (`read`, then one 16-byte-aligned struct per effect) fits too.
const _: () = assert!((1 + MAX_FUSED) * u::MEMBER_ALIGN <= UNIFORM_SIZE as usize);

/// The per-pixel effects: each is a function and a parameter struct in shaders/pixel.wgsl.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PixelEffect {
    BrightnessContrast,
    Grayscale,
    Saturation,
    Sepia,
    Invert,
    Vignette,
}

impl PixelEffect {
    /// Its function in pixel.wgsl: `fn name(c: vec4<f32>, p: Struct, pos: vec2<f32>) -> vec4<f32>`.
    pub fn function(self) -> &'static str {
        match self {
            PixelEffect::BrightnessContrast => "brightness_contrast",
            PixelEffect::Grayscale => "grayscale",
            PixelEffect::Saturation => "saturation",
            PixelEffect::Sepia => "sepia",
            PixelEffect::Invert => "invert",
            PixelEffect::Vignette => "vignette",
        }
    }

    /// Its parameter struct in pixel.wgsl (and in [`super::uniforms`]).
    pub fn params_struct(self) -> &'static str {
        match self {
            PixelEffect::BrightnessContrast => "BrightnessContrast",
            PixelEffect::Grayscale => "Grayscale",
            PixelEffect::Saturation => "Saturation",
            PixelEffect::Sepia => "Sepia",
            PixelEffect::Invert => "Invert",
            PixelEffect::Vignette => "Vignette",
        }
    }
}

/// A per-pixel effect with the values its uniform struct holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PixelParams {
    BrightnessContrast(u::BrightnessContrast),
    Grayscale(u::Grayscale),
    Saturation(u::Saturation),
    Sepia(u::Sepia),
    Invert(u::Invert),
    Vignette(u::Vignette),
}

impl PixelParams {
    /// The uniform values of a per-pixel effect on a `width × height` frame; `None` for the blur.
    pub fn of(effect: &Effect, width: u32, height: u32) -> Option<PixelParams> {
        Some(match *effect {
            Effect::Blur { .. } => return None,
            Effect::BrightnessContrast { brightness, contrast } => PixelParams::BrightnessContrast(u::BrightnessContrast { brightness, contrast }),
            Effect::Grayscale { intensity } => PixelParams::Grayscale(u::Grayscale { amount: intensity / 100.0 }),
            Effect::Saturation { saturation } => PixelParams::Saturation(u::Saturation { factor: saturation / 100.0 }),
            Effect::Sepia { intensity } => PixelParams::Sepia(u::Sepia { amount: intensity / 100.0 }),
            Effect::Invert { intensity } => PixelParams::Invert(u::Invert { amount: intensity / 100.0 }),
            Effect::Vignette { radius, softness } => {
                PixelParams::Vignette(u::Vignette { radius: radius / 100.0, softness: softness / 100.0, frame_size: [width as f32, height as f32] })
            }
        })
    }

    pub fn effect(&self) -> PixelEffect {
        match self {
            PixelParams::BrightnessContrast(_) => PixelEffect::BrightnessContrast,
            PixelParams::Grayscale(_) => PixelEffect::Grayscale,
            PixelParams::Saturation(_) => PixelEffect::Saturation,
            PixelParams::Sepia(_) => PixelEffect::Sepia,
            PixelParams::Invert(_) => PixelEffect::Invert,
            PixelParams::Vignette(_) => PixelEffect::Vignette,
        }
    }

    /// The struct's bytes, as the uniform block holds them.
    pub fn bytes(&self) -> &[u8] {
        match self {
            PixelParams::BrightnessContrast(p) => bytemuck::bytes_of(p),
            PixelParams::Grayscale(p) => bytemuck::bytes_of(p),
            PixelParams::Saturation(p) => bytemuck::bytes_of(p),
            PixelParams::Sepia(p) => bytemuck::bytes_of(p),
            PixelParams::Invert(p) => bytemuck::bytes_of(p),
            PixelParams::Vignette(p) => bytemuck::bytes_of(p),
        }
    }
}

/// What a fused per-pixel pass does: how it reads its input and which effects it applies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PixelKey {
    /// Reads with one bilinear sample at the target pixel centre (scaling the input to the
    /// target size) instead of loading the texel.
    pub sample: bool,
    /// The effects, in order.
    pub ops: Vec<PixelEffect>,
}

/// The WGSL of a fused pass: shaders/pixel.wgsl with one `Params` field per effect
/// (`@align(16) effect_1: Vignette`, ...), one call per effect in its entry point, and its read.
pub fn pixel_shader(key: &PixelKey) -> String {
    let mut fields = String::new();
    let mut body = String::new();
    if key.sample && !key.ops.is_empty() {
        // A scaled read is a blur's result, which the reference rounds before the next effect.
        body.push_str("    c = q(c);\n");
    }
    for (i, op) in key.ops.iter().enumerate() {
        // A struct member of a uniform block must sit at a multiple of 16 bytes.
        fields.push_str(&format!("    @align(16) effect_{}: {},\n", i + 1, op.params_struct()));
        if i > 0 {
            body.push_str("    c = q(c);\n");
        }
        body.push_str(&format!("    c = {}(c, params.effect_{}, pos.xy);\n", op.function(), i + 1));
    }
    let fetch = if key.sample {
        "textureSampleLevel(src, linear_clamp, pos.xy * params.read.scale + params.read.offset, 0.0);"
    } else {
        "textureLoad(src, vec2<i32>(pos.xy), 0);"
    };
    PIXEL.replace("textureLoad(src, vec2<i32>(pos.xy), 0); // fetch", fetch).replace("    // effects\n", &fields).replace("    // ops\n", &body)
}

/// A fused pass's uniform block: `read`, then each effect's struct at the next multiple of 16
/// bytes, as WGSL lays out the `Params` that [`pixel_shader`] writes.
pub fn pixel_uniform(read: u::Read, ops: &[PixelParams]) -> Vec<u8> {
    let mut block = bytemuck::bytes_of(&read).to_vec();
    for op in ops {
        push_member(&mut block, op.bytes());
    }
    block
}

/// The effects renderer's pipelines.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pipeline {
    /// One direction of the separable blur (blur.wgsl).
    Blur,
    /// A run of per-pixel effects, or a plain rescale, in one pass (pixel.wgsl specialised).
    Pixel(PixelKey),
    /// Draws the result onto a target of this format, texel for texel (copy.wgsl).
    Present(wgpu::TextureFormat),
}

/// A texture the passes read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tex {
    /// The frame as uploaded.
    Source,
    /// The two full-size work textures the passes take turns writing.
    WorkA,
    WorkB,
    /// A level of a blur's pyramid, by its size: the scale-down writes it, and at the blur's own
    /// level it also takes the blur's result.
    Down {
        width: u32,
        height: u32,
    },
    /// The blur's first (horizontal) result at its reduced size.
    Between {
        width: u32,
        height: u32,
    },
}

impl Tex {
    /// The full-size work texture that is not `self` (the first one after the source).
    fn other(self) -> Tex {
        if self == Tex::WorkA {
            Tex::WorkB
        } else {
            Tex::WorkA
        }
    }

    /// Its size, `None` for the frame-sized ones.
    pub fn reduced_size(self) -> Option<(u32, u32)> {
        match self {
            Tex::Down { width, height } | Tex::Between { width, height } => Some((width, height)),
            Tex::Source | Tex::WorkA | Tex::WorkB => None,
        }
    }
}

/// One full-screen pass.
pub struct Pass {
    pub pipeline: Pipeline,
    /// Its uniform block (at most [`UNIFORM_SIZE`] bytes).
    pub uniform: Vec<u8>,
    pub src: Tex,
    pub dst: Tex,
    /// Texture reads per target pixel (a bilinear sample is one).
    pub reads: u32,
}

/// The passes for one list of effects.
pub struct Plan {
    pub passes: Vec<Pass>,
    /// Where the result is.
    pub result: Tex,
    /// The reduced-size textures the passes use, in the order they first appear.
    pub reduced: Vec<Tex>,
}

/// The read of a fused pass: `uv = pos · a + b` per axis.
fn read(a: [f32; 2], b: [f32; 2]) -> u::Read {
    u::Read { scale: a, offset: b }
}

/// One direction of a blur: its tap table for `sigma`, stepping `step` per texel.
fn blur_uniform(sigma: f32, step: [f32; 2]) -> u::Blur {
    let (centre, taps) = linear_taps(&blur_kernel(sigma));
    debug_assert!(taps.len() <= MAX_PAIRS);
    let mut block = u::Blur { step, pairs: taps.len() as u32, centre, taps: [u::Tap::default(); MAX_PAIRS] };
    for (slot, (offset, weight)) in block.taps.iter_mut().zip(taps) {
        *slot = u::Tap { offset, weight, _pad: [0.0; 2] };
    }
    block
}

/// The reads of a blur pyramid's axis, as a fused pass's `uv = pos · a + b`.
impl Axis {
    /// (a, b) of the read at level `l` from level `l − 1`.
    fn down_read(&self, l: u32) -> (f32, f32) {
        if l > self.level {
            (1.0 / self.texels(l) as f32, 0.0)
        } else if l == 1 {
            (2.0 / self.side as f32, -(self.margin as f32) / self.side as f32)
        } else {
            (2.0 / self.texels(l - 1) as f32, 0.0)
        }
    }

    /// (a, b) of the read at full size from this axis's level.
    fn up_read(&self) -> (f32, f32) {
        let span = ((1u32 << self.level) * self.texels(self.level)) as f32;
        (1.0 / span, self.margin as f32 / span)
    }
}

/// A pass of pixel.wgsl: a read, then `ops`.
fn pixel_pass(sample: bool, read: u::Read, ops: &[PixelParams], src: Tex, dst: Tex) -> Pass {
    let key = PixelKey { sample, ops: ops.iter().map(PixelParams::effect).collect() };
    Pass { pipeline: Pipeline::Pixel(key), uniform: pixel_uniform(read, ops), src, dst, reads: 1 }
}

/// The passes that render `effects` on a `width × height` frame. Effects that change nothing at
/// their parameters are skipped. A run of consecutive per-pixel effects is one pass; when it
/// follows a blur rendered at a reduced size, it is fused into that blur's scale-up.
pub fn plan(effects: &[Effect], width: u32, height: u32) -> Plan {
    let mut passes: Vec<Pass> = Vec::new();
    let mut reduced: Vec<Tex> = Vec::new();
    let mut used = |tex: Tex| {
        if !reduced.contains(&tex) {
            reduced.push(tex);
        }
        tex
    };
    let mut cur = Tex::Source;
    // Whether the last pass is a fused pass writing `cur` that more effects may join.
    let mut open = false;
    for effect in effects.iter().filter(|e| !e.is_identity(width, height)) {
        if let Some(params) = PixelParams::of(effect, width, height) {
            if let Some(Pass { pipeline: Pipeline::Pixel(key), uniform, .. }) = passes.last_mut().filter(|_| open) {
                if key.ops.len() < MAX_FUSED {
                    key.ops.push(params.effect());
                    push_member(uniform, params.bytes());
                    continue;
                }
            }
            let full = read([1.0 / width as f32, 1.0 / height as f32], [0.0, 0.0]);
            passes.push(pixel_pass(false, full, &[params], cur, cur.other()));
            cur = cur.other();
            open = true;
            continue;
        }
        let Effect::Blur { intensity } = *effect else { unreachable!("only the blur has no per-pixel params") };
        let (sx, sy) = blur_sigmas(intensity, width, height);
        let ((lx, sx), (ly, sy)) = (blur_level(sx, width), blur_level(sy, height));
        let (ax, ay) = (Axis::new(width, lx), Axis::new(height, ly));
        let (lw, lh) = (ax.texels(lx), ay.texels(ly));
        let reduced_blur = lx > 0 || ly > 0;
        // Down the pyramid: both axes together while both go down, then the deeper one alone.
        let mut at = cur;
        for l in 1..=lx.max(ly) {
            let dst = used(Tex::Down { width: ax.texels(l), height: ay.texels(l) });
            let ((a0, b0), (a1, b1)) = (ax.down_read(l), ay.down_read(l));
            passes.push(pixel_pass(true, read([a0, a1], [b0, b1]), &[], at, dst));
            at = dst;
        }
        let (mid, end) = if reduced_blur { (used(Tex::Between { width: lw, height: lh }), at) } else { (cur.other(), cur.other().other()) };
        // Each pass has its own sigma. A pass whose kernel is the identity still runs (as a copy
        // through the centre tap), which keeps the texture plan the same for every blur.
        for (sigma, step, src, dst) in [(sx, [1.0 / lw as f32, 0.0], at, mid), (sy, [0.0, 1.0 / lh as f32], mid, end)] {
            let block = blur_uniform(sigma, step);
            passes.push(Pass { pipeline: Pipeline::Blur, uniform: bytemuck::bytes_of(&block).to_vec(), src, dst, reads: 1 + 2 * block.pairs });
        }
        if reduced_blur {
            // Back up to full size; `cur` was only read, so its partner is free. Per-pixel
            // effects after the blur join this pass.
            let ((a0, b0), (a1, b1)) = (ax.up_read(), ay.up_read());
            passes.push(pixel_pass(true, read([a0, a1], [b0, b1]), &[], end, cur.other()));
            cur = cur.other();
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
            let area = p.dst.reduced_size().map_or(frame, |(w, h)| w as f64 * h as f64);
            p.reads as f64 * area / frame
        })
        .sum()
}
