//! The fast CPU effects path: a whole effect list applied in place to RGBA8 pixels, for machines
//! whose browser has no usable GPU (js/effects.ts, backend "cpu"). docs/effects.md states its
//! rules; tests below hold it to [`super::reference`].
//!
//! - A run of consecutive per-pixel effects is one pass over the pixels, byte-identical to the
//!   reference: the same `f32` arithmetic in the same order, rounded to 1/255 between effects.
//!   The pass goes in strips of 64 pixels: a strip is read once, split into R, G and B lanes that
//!   stay in L1 while each effect runs its own loop over them, and written once. (Every effect
//!   inside one loop per four pixels ran out of vector registers: a stack of four cost 18.2 ms
//!   at 1080p against 11.5 ms in strips, `node scripts/bench-cpu-effects.mjs`.)
//!   A run of only channel-separable effects (brightness-contrast, invert) is a 256-entry table.
//! - A blur whose sigma allows it runs on a box-halved copy of the frame and is scaled back up
//!   bilinearly (the GPU's reduced blur: [`super::pyramid`]), so its cost does not grow with sigma.
//!   Below that it is the reference's two passes, in the same order, so byte-identical too.
//!
//! The loops work on four `f32` lanes at a time ([`F4`]: wasm SIMD `f32x4` in the browser
//! module, where the size-optimised build vectorised none of the plain loops; an array natively),
//! with per-lane IEEE arithmetic, so both builds give the reference's bits.

use super::pyramid::{blur_level, Axis};
use super::reference::{blur_kernel, blur_sigmas, Effect, LUMA, SEPIA};

mod f4;
use f4::F4;

/// Why [`FastEffects::apply`] refused a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FastError {
    /// The buffer does not hold `width × height` RGBA8 pixels.
    Size { len: usize, width: u32, height: u32 },
    /// The scratch buffers could not be allocated.
    OutOfMemory,
}

impl std::fmt::Display for FastError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FastError::Size { len, width, height } => write!(f, "pixels holds {len} bytes, not {width}x{height}x4"),
            FastError::OutOfMemory => write!(f, "not enough memory for the effects' scratch buffers"),
        }
    }
}

impl std::error::Error for FastError {}

/// Reusable scratch memory, so a frame allocates nothing once the size is stable.
#[derive(Default)]
pub struct FastEffects {
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
    row: Vec<f32>,
    /// The two level texels and the weight each output column reads on the way up.
    columns: Vec<(usize, usize, f32)>,
}

/// `[0, 1]` → the nearest step of 1/255, as the reference's `quantize` then `unit`. The value
/// rounded is at least 0.5, so truncating is the reference's floor, and needs no libm call
/// where the target has no vector floor (x86-64 without SSE4.1).
#[inline(always)]
fn q(v: f32) -> f32 {
    ((v.clamp(0.0, 1.0) * 255.0 + 0.5) as i32) as f32 / 255.0
}

/// `[0, 1]` → RGBA8, as the reference's `quantize`.
#[inline(always)]
fn q8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// [`q`] on four lanes.
#[inline(always)]
fn q4(v: F4) -> F4 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5).trunc() / 255.0
}

/// [`q8`] on four lanes.
#[inline(always)]
fn q8x4(v: F4) -> [u8; 4] {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5).to_u8()
}

/// `acc[i] += k · v[i]`, four lanes at a time: a fixed-width body the vectoriser turns into one
/// multiply and one add of `f32x4` even at the size-optimised level the wasm module is built at
/// (where loops needing a scalar tail are not vectorised). Same arithmetic as the plain loop.
#[inline(always)]
fn axpy(acc: &mut [f32], k: f32, v: &[f32]) {
    let k = F4::splat(k);
    let (acc, _) = acc.as_chunks_mut::<4>();
    let (v, _) = v.as_chunks::<4>();
    for (a, v) in acc.iter_mut().zip(v) {
        (F4::load(a) + k * F4::load(v)).store(a);
    }
}

fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> Result<(), FastError> {
    if v.len() < len {
        v.try_reserve_exact(len - v.len()).map_err(|_| FastError::OutOfMemory)?;
        v.resize(len, T::default());
    }
    Ok(())
}

impl FastEffects {
    pub fn new() -> FastEffects {
        FastEffects::default()
    }

    /// Applies `effects` in order to `pixels` (RGBA8, `width × height`, rows top to bottom).
    /// Effects that change nothing at their parameters still run, as in the reference, except a
    /// blur pass whose kernel is the identity (the reference skips it too).
    pub fn apply(&mut self, pixels: &mut [u8], width: u32, height: u32, effects: &[Effect]) -> Result<(), FastError> {
        let len = (width as usize).checked_mul(height as usize).and_then(|n| n.checked_mul(4));
        if len != Some(pixels.len()) {
            return Err(FastError::Size { len: pixels.len(), width, height });
        }
        if pixels.is_empty() {
            return Ok(());
        }
        let mut i = 0;
        while i < effects.len() {
            if let Effect::Blur { intensity } = effects[i] {
                self.blur(pixels, width as usize, height as usize, intensity)?;
                i += 1;
                continue;
            }
            let end = effects[i..].iter().position(|e| matches!(e, Effect::Blur { .. })).map_or(effects.len(), |n| i + n);
            per_pixel_run::<true>(pixels, width as usize, &effects[i..end]);
            i = end;
        }
        Ok(())
    }

    fn blur(&mut self, pixels: &mut [u8], w: usize, h: usize, intensity: f32) -> Result<(), FastError> {
        let (sx, sy) = blur_sigmas(intensity, w as u32, h as u32);
        let ((lx, sx), (ly, sy)) = (blur_level(sx, w as u32), blur_level(sy, h as u32));
        if lx == 0 && ly == 0 {
            self.blur_full(pixels, w, h, &blur_kernel(sx), &blur_kernel(sy))
        } else {
            self.blur_reduced(pixels, w, h, (lx, sx), (ly, sy))
        }
    }

    /// The reference's two passes, term for term: a horizontal pass rounded to 1/255, then a
    /// vertical one. Rows of the first pass are made as the second needs them (a ring of
    /// `2R + 1` rows), so no full-size intermediate is stored.
    fn blur_full(&mut self, pixels: &mut [u8], w: usize, h: usize, kx: &[f32], ky: &[f32]) -> Result<(), FastError> {
        let (rx, ry) = (kx.len() - 1, ky.len() - 1);
        if rx == 0 && ry == 0 {
            return Ok(());
        }
        let stride = w * 4;
        grow(&mut self.row, (w + 2 * rx) * 4)?;
        if ry == 0 {
            grow(&mut self.a, stride)?;
            for y in 0..h {
                let line = &mut pixels[y * stride..(y + 1) * stride];
                horizontal(line, &mut self.row, &mut self.a[..stride], kx);
                for (o, v) in line.as_chunks_mut::<4>().0.iter_mut().zip(self.a[..stride].as_chunks::<4>().0) {
                    *o = q8x4(F4::load(v));
                }
            }
            return Ok(());
        }
        let slots = 2 * ry + 1;
        grow(&mut self.a, slots * stride)?;
        grow(&mut self.b, stride)?;
        let ring = &mut self.a[..slots * stride];
        let acc = &mut self.b[..stride];
        let mut made = 0; // rows of the first pass computed so far (0..made)
        for y in 0..h {
            let last = (y + ry).min(h - 1);
            while made <= last {
                let slot = &mut ring[(made % slots) * stride..(made % slots + 1) * stride];
                let line = &pixels[made * stride..(made + 1) * stride];
                if rx == 0 {
                    for (o, v) in slot.as_chunks_mut::<4>().0.iter_mut().zip(line.as_chunks::<4>().0) {
                        (F4::from_u8(*v) / 255.0).store(o);
                    }
                } else {
                    horizontal(line, &mut self.row, slot, kx);
                    for v in slot.as_chunks_mut::<4>().0 {
                        q4(F4::load(v)).store(v);
                    }
                }
                made += 1;
            }
            acc.fill(0.0);
            for i in 0..=2 * ry {
                let src = (y + i).saturating_sub(ry).min(h - 1);
                let k = ky[i.abs_diff(ry)];
                let row = &ring[(src % slots) * stride..(src % slots + 1) * stride];
                axpy(acc, k, row);
            }
            // Row y of the frame is no longer read: every first-pass row up to y + R is made.
            for (o, v) in pixels[y * stride..(y + 1) * stride].as_chunks_mut::<4>().0.iter_mut().zip(acc.as_chunks::<4>().0) {
                *o = q8x4(F4::load(v));
            }
        }
        Ok(())
    }

    /// The blur on a reduced copy: halve each axis `L` times with 2-texel means (the first
    /// halving reads one level texel beyond each edge, the edge pixel repeated, as the GPU's
    /// margins do), blur there with the remaining sigma, and scale back up bilinearly. Values
    /// stay `f32` (0–255) until the final rounding.
    fn blur_reduced(&mut self, pixels: &mut [u8], w: usize, h: usize, (lx, sx): (u32, f32), (ly, sy): (u32, f32)) -> Result<(), FastError> {
        let ax = Axis::new(w as u32, lx);
        let ay = Axis::new(h as u32, ly);
        let (lw, lh) = (ax.texels(lx) as usize, ay.texels(ly) as usize);
        // Down: both axes together while both go down, then the deeper one alone.
        let mut cur: (usize, usize) = (w, h);
        let mut in_a = false;
        for l in 1..=lx.max(ly) {
            let (dx, dy) = (l <= lx, l <= ly);
            let (nw, nh) = (ax.texels(l) as usize, ay.texels(l) as usize);
            let (ox, oy) = if l == 1 { (ax.margin as usize, ay.margin as usize) } else { (0, 0) };
            let (dx, dy) = (dx.then_some(ox), dy.then_some(oy));
            if l == 1 {
                grow(&mut self.a, nw * nh * 4)?;
                halve(&*pixels, cur.0, cur.1, &mut self.a, nw, nh, dx, dy);
            } else if in_a {
                grow(&mut self.b, nw * nh * 4)?;
                halve(&self.a[..cur.0 * cur.1 * 4], cur.0, cur.1, &mut self.b, nw, nh, dx, dy);
            } else {
                grow(&mut self.a, nw * nh * 4)?;
                halve(&self.b[..cur.0 * cur.1 * 4], cur.0, cur.1, &mut self.a, nw, nh, dx, dy);
            }
            in_a = l == 1 || !in_a;
            cur = (nw, nh);
        }
        debug_assert_eq!(cur, (lw, lh));
        // Blur at the level (in place in the level buffer, through `c`).
        let n = lw * lh * 4;
        let (kx, ky) = (blur_kernel(sx), blur_kernel(sy));
        grow(&mut self.c, n)?;
        grow(&mut self.row, (lw.max(lh) + 2 * kx.len().max(ky.len())) * 4)?;
        let level = if in_a { &mut self.a[..n] } else { &mut self.b[..n] };
        if kx.len() > 1 {
            let stride = lw * 4;
            for (line, out) in level.chunks_exact(stride).zip(self.c[..n].chunks_exact_mut(stride)) {
                horizontal_f32(line, &mut self.row, out, &kx);
            }
            level.copy_from_slice(&self.c[..n]);
        }
        if ky.len() > 1 {
            vertical_f32(level, &mut self.c[..n], lw * 4, lh, &ky);
            level.copy_from_slice(&self.c[..n]);
        }
        // Up: bilinear, with the GPU's texel-centre mapping.
        self.columns.clear();
        self.columns.try_reserve(w).map_err(|_| FastError::OutOfMemory)?;
        self.columns.extend((0..w).map(|x| ax.up_taps(x)));
        grow(&mut self.row, lw * 4)?;
        let row = &mut self.row[..lw * 4];
        let stride = lw * 4;
        for y in 0..h {
            let (y0, y1, fy) = ay.up_taps(y);
            let (r0, r1) = (&level[y0 * stride..(y0 + 1) * stride], &level[y1 * stride..(y1 + 1) * stride]);
            for ((o, a), b) in row.as_chunks_mut::<4>().0.iter_mut().zip(r0.as_chunks::<4>().0).zip(r1.as_chunks::<4>().0) {
                let (a, b) = (F4::load(a), F4::load(b));
                (a + (b - a) * fy).store(o);
            }
            let out = &mut pixels[y * w * 4..(y + 1) * w * 4];
            let texels = row.as_chunks::<4>().0;
            for (px, &(x0, x1, fx)) in out.as_chunks_mut::<4>().0.iter_mut().zip(&self.columns) {
                let (p0, p1) = (F4::load(&texels[x0]), F4::load(&texels[x1]));
                *px = ((p0 + (p1 - p0) * fx).clamp(0.0, 255.0) + 0.5).to_u8();
            }
        }
        Ok(())
    }
}

/// The CPU path's read of a pyramid axis on the way up.
impl Axis {
    /// The two level texels frame pixel `x` reads on the way up, and the weight of the second.
    fn up_taps(&self, x: usize) -> (usize, usize, f32) {
        if self.level == 0 {
            return (x, x, 0.0);
        }
        let n = self.texels(self.level) as usize;
        let u = (x as f32 + 0.5 + self.margin as f32) / (1u32 << self.level) as f32 - 0.5;
        let u = u.max(0.0);
        let i = (u.floor() as usize).min(n - 1);
        (i, (i + 1).min(n - 1), u - i as f32)
    }
}

/// A texel value a halving reads: a frame byte or a level's `f32` (both 0–255).
trait Texel: Copy {
    fn load4(s: &[Self; 4]) -> F4;
}

impl Texel for u8 {
    #[inline(always)]
    fn load4(s: &[u8; 4]) -> F4 {
        F4::from_u8(*s)
    }
}

impl Texel for f32 {
    #[inline(always)]
    fn load4(s: &[f32; 4]) -> F4 {
        F4::load(s)
    }
}

/// One halving step: `dx` / `dy` are `Some(offset)` for an axis that halves (texel `j` averages
/// source texels `2j − offset` and `2j + 1 − offset`, clamped), `None` for one that keeps its size.
#[allow(clippy::too_many_arguments)]
fn halve<T: Texel>(src: &[T], sw: usize, sh: usize, dst: &mut [f32], nw: usize, nh: usize, dx: Option<usize>, dy: Option<usize>) {
    let pair = |j: usize, o: usize, n: usize| ((2 * j).saturating_sub(o).min(n - 1), (2 * j + 1).saturating_sub(o).min(n - 1));
    let cols: Vec<(usize, usize)> = (0..nw).map(|j| dx.map_or((j, j), |o| pair(j, o, sw))).collect();
    let texels = src.as_chunks::<4>().0;
    let at = |row: usize, x: usize| T::load4(&texels[row * sw + x]);
    for y in 0..nh {
        let (y0, y1) = dy.map_or((y, y), |o| pair(y, o, sh));
        let out = &mut dst[y * nw * 4..(y + 1) * nw * 4];
        for (px, &(x0, x1)) in out.as_chunks_mut::<4>().0.iter_mut().zip(&cols) {
            // A kept axis reads the same texel twice: the mean of four is still right.
            ((at(y0, x0) + at(y0, x1) + at(y1, x0) + at(y1, x1)) * 0.25).store(px);
        }
    }
}

/// The reference's horizontal pass over one RGBA8 row, unrounded: `out[x] = Σ_{i=−R..R}
/// k[|i|] · unit(line[clamp(x + i)])`, summed in that order. `pad` is scratch.
fn horizontal(line: &[u8], pad: &mut [f32], out: &mut [f32], k: &[f32]) {
    let r = k.len() - 1;
    let w = line.len() / 4;
    let pad = &mut pad[..(w + 2 * r) * 4];
    let px = line.as_chunks::<4>().0;
    for (x, o) in pad.as_chunks_mut::<4>().0.iter_mut().enumerate() {
        (F4::from_u8(px[x.saturating_sub(r).min(w - 1)]) / 255.0).store(o);
    }
    out.fill(0.0);
    for i in 0..=2 * r {
        let ki = k[i.abs_diff(r)];
        axpy(out, ki, &pad[i * 4..]);
    }
}

/// A horizontal pass over one `f32` RGBA row, edges clamped.
fn horizontal_f32(line: &[f32], pad: &mut [f32], out: &mut [f32], k: &[f32]) {
    let r = k.len() - 1;
    let w = line.len() / 4;
    let pad = &mut pad[..(w + 2 * r) * 4];
    for x in 0..w + 2 * r {
        let s = x.saturating_sub(r).min(w - 1) * 4;
        pad[x * 4..x * 4 + 4].copy_from_slice(&line[s..s + 4]);
    }
    out.fill(0.0);
    for i in 0..=2 * r {
        let ki = k[i.abs_diff(r)];
        axpy(out, ki, &pad[i * 4..]);
    }
}

/// A vertical pass over `h` rows of `stride` floats, edges clamped.
fn vertical_f32(src: &[f32], out: &mut [f32], stride: usize, h: usize, k: &[f32]) {
    let r = k.len() - 1;
    for (y, acc) in out.chunks_exact_mut(stride).enumerate() {
        acc.fill(0.0);
        for i in 0..=2 * r {
            let s = (y + i).saturating_sub(r).min(h - 1);
            let ki = k[i.abs_diff(r)];
            axpy(acc, ki, &src[s * stride..(s + 1) * stride]);
        }
    }
}

/// Whether the effect treats each colour channel alone, the same way, at every pixel.
fn separable(e: &Effect) -> bool {
    matches!(e, Effect::BrightnessContrast { .. } | Effect::Invert { .. })
}

/// A per-pixel effect on one channel value, as the reference computes it.
#[inline(always)]
fn channel(e: &Effect, v: f32) -> f32 {
    match *e {
        Effect::BrightnessContrast { brightness, contrast } => (v - 0.5) * contrast + 0.5 + brightness,
        Effect::Invert { intensity } => {
            let t = intensity / 100.0;
            v + ((1.0 - v) - v) * t
        }
        _ => unreachable!("only separable effects have a channel function"),
    }
}

/// A run of per-pixel effects over every pixel: one read and one write of each pixel. With
/// `ROUND` false the 1/255 rounding between effects is left out (a wrong variant the
/// tests use to show that they catch a difference).
fn per_pixel_run<const ROUND: bool>(pixels: &mut [u8], width: usize, run: &[Effect]) {
    if run.is_empty() {
        return;
    }
    if run.iter().all(separable) {
        // Every channel value maps through the same steps: a table is exact.
        let mut table = [0u8; 256];
        for (v, t) in table.iter_mut().enumerate() {
            let mut c = v as f32 / 255.0;
            for (i, e) in run.iter().enumerate() {
                if i > 0 && ROUND {
                    c = q(c);
                }
                c = channel(e, c);
            }
            *t = q8(c);
        }
        for px in pixels.chunks_exact_mut(4) {
            px[0] = table[px[0] as usize];
            px[1] = table[px[1] as usize];
            px[2] = table[px[2] as usize];
        }
        return;
    }
    let height = pixels.len() / 4 / width;
    let ops: Vec<Op> = run.iter().map(|e| Op::new(e, width, height)).collect();
    let mut strip = Strip::default();
    for y in 0..height {
        let line = &mut pixels[y * width * 4..(y + 1) * width * 4];
        for (s, part) in line.chunks_mut(STRIP * 4).enumerate() {
            strip.run::<ROUND>(part, &ops, s * STRIP, y);
        }
    }
}

/// Pixels per strip: a strip's three channels (768 bytes) stay in L1 while every effect of the
/// run passes over them, each effect's loop with its constants hoisted and no dispatch inside.
const STRIP: usize = 64;

/// One strip of a row as R, G and B lanes: 0–255 as read, then each effect's result.
struct Strip {
    r: [F4; STRIP / 4],
    g: [F4; STRIP / 4],
    b: [F4; STRIP / 4],
}

impl Default for Strip {
    fn default() -> Strip {
        let z = F4::splat(0.0);
        Strip { r: [z; STRIP / 4], g: [z; STRIP / 4], b: [z; STRIP / 4] }
    }
}

impl Strip {
    /// The run on `px` (at most [`STRIP`] RGBA8 pixels of row `y` from column `x0`), in place.
    fn run<const ROUND: bool>(&mut self, px: &mut [u8], ops: &[Op], x0: usize, y: usize) {
        let n = px.len().div_ceil(16);
        let (blocks, tail) = px.as_chunks_mut::<16>();
        for (i, block) in blocks.iter().enumerate() {
            (self.r[i], self.g[i], self.b[i]) = F4::rgb(block);
        }
        let mut last = [0u8; 16];
        if !tail.is_empty() {
            // The last one to three pixels of the row, through a padded block.
            last[..tail.len()].copy_from_slice(tail);
            (self.r[n - 1], self.g[n - 1], self.b[n - 1]) = F4::rgb(&last);
        }
        let (r, g, b) = (&mut self.r[..n], &mut self.g[..n], &mut self.b[..n]);
        for (k, op) in ops.iter().enumerate() {
            // The first effect reads 0–255 lanes; later ones read the previous effect's result,
            // rounded to 1/255 as the reference stores it.
            // (A const parameter: the module links no unrounded variant.)
            if k == 0 {
                op_pass::<IN_BYTES>(op, r, g, b, x0, y)
            } else if ROUND {
                op_pass::<IN_ROUND>(op, r, g, b, x0, y)
            } else {
                op_pass::<IN_AS_IS>(op, r, g, b, x0, y)
            }
        }
        let q = |v: F4| (v.clamp(0.0, 1.0) * 255.0 + 0.5).trunc();
        for (i, block) in blocks.iter_mut().enumerate() {
            F4::store_rgb(q(r[i]), q(g[i]), q(b[i]), block);
        }
        if !tail.is_empty() {
            F4::store_rgb(q(r[n - 1]), q(g[n - 1]), q(b[n - 1]), &mut last);
            let len = tail.len();
            tail.copy_from_slice(&last[..len]);
        }
    }
}

/// How an effect's pass reads its lanes: [`IN_BYTES`] 0–255 from the frame (divided by 255),
/// [`IN_ROUND`] the previous effect's result rounded to 1/255, [`IN_AS_IS`] unrounded (the
/// tests' wrong variant). A const parameter, so each pass's loop has no branch inside.
const IN_BYTES: u8 = 0;
const IN_ROUND: u8 = 1;
const IN_AS_IS: u8 = 2;

/// One per-pixel effect over a strip's lanes, in place.
#[inline(always)]
fn op_pass<const IN: u8>(op: &Op, r: &mut [F4], g: &mut [F4], b: &mut [F4], x0: usize, y: usize) {
    let read = |v: &mut F4| match IN {
        IN_BYTES => *v / 255.0,
        IN_ROUND => q4(*v),
        _ => *v,
    };
    let mix = |a: F4, b: F4, t: F4| a + (b - a) * t;
    let luma = |r: F4, g: F4, b: F4| F4::splat(LUMA[0]) * r + F4::splat(LUMA[1]) * g + F4::splat(LUMA[2]) * b;
    // Each arm: one loop over the strip, its constants splatted once outside it.
    let lanes = r.iter_mut().zip(g.iter_mut()).zip(b.iter_mut());
    match *op {
        Op::BrightnessContrast { brightness, contrast } => {
            let (c, br, half) = (F4::splat(contrast), F4::splat(brightness), F4::splat(0.5));
            // (v - 0.5) · contrast + 0.5 + brightness, left to right as the reference.
            let f = |v: F4| (v - half) * c + half + br;
            for ((r, g), b) in lanes {
                (*r, *g, *b) = (f(read(r)), f(read(g)), f(read(b)));
            }
        }
        Op::Invert(t) => {
            let (t, one) = (F4::splat(t), F4::splat(1.0));
            let f = |v: F4| mix(v, one - v, t);
            for ((r, g), b) in lanes {
                (*r, *g, *b) = (f(read(r)), f(read(g)), f(read(b)));
            }
        }
        Op::Grayscale(t) => {
            let t = F4::splat(t);
            for ((r, g), b) in lanes {
                let (rv, gv, bv) = (read(r), read(g), read(b));
                let l = luma(rv, gv, bv);
                (*r, *g, *b) = (mix(rv, l, t), mix(gv, l, t), mix(bv, l, t));
            }
        }
        Op::Saturation(s) => {
            let s = F4::splat(s);
            for ((r, g), b) in lanes {
                let (rv, gv, bv) = (read(r), read(g), read(b));
                let l = luma(rv, gv, bv);
                (*r, *g, *b) = (l + (rv - l) * s, l + (gv - l) * s, l + (bv - l) * s);
            }
        }
        Op::Sepia(t) => {
            let t = F4::splat(t);
            let row = |m: [f32; 3]| [F4::splat(m[0]), F4::splat(m[1]), F4::splat(m[2])];
            let (m0, m1, m2) = (row(SEPIA[0]), row(SEPIA[1]), row(SEPIA[2]));
            for ((r, g), b) in lanes {
                let (rv, gv, bv) = (read(r), read(g), read(b));
                let s = |m: &[F4; 3]| m[0] * rv + m[1] * gv + m[2] * bv;
                let (sr, sg, sb) = (s(&m0), s(&m1), s(&m2));
                (*r, *g, *b) = (mix(rv, sr, t), mix(gv, sg, t), mix(bv, sb, t));
            }
        }
        Op::Vignette { hw, hh, diag, r0, span } => {
            let dy = y as f32 + 0.5 - hh;
            for (i, ((r, g), b)) in lanes.enumerate() {
                let x = (x0 + i * 4) as f32;
                let x = F4::new([x, x + 1.0, x + 2.0, x + 3.0]);
                let dx = x + 0.5 - hw;
                let d = (dx * dx + dy * dy).sqrt() / diag;
                let t = ((d - r0) / span).clamp(0.0, 1.0);
                let f = 1.0 - t * t * (3.0 - 2.0 * t);
                (*r, *g, *b) = (read(r) * f, read(g) * f, read(b) * f);
            }
        }
    }
}

/// A per-pixel effect with what it needs precomputed once per run.
enum Op {
    BrightnessContrast { brightness: f32, contrast: f32 },
    Grayscale(f32),
    Saturation(f32),
    Sepia(f32),
    Invert(f32),
    Vignette { hw: f32, hh: f32, diag: f32, r0: f32, span: f32 },
}

impl Op {
    fn new(e: &Effect, width: usize, height: usize) -> Op {
        match *e {
            Effect::BrightnessContrast { brightness, contrast } => Op::BrightnessContrast { brightness, contrast },
            Effect::Grayscale { intensity } => Op::Grayscale(intensity / 100.0),
            Effect::Saturation { saturation } => Op::Saturation(saturation / 100.0),
            Effect::Sepia { intensity } => Op::Sepia(intensity / 100.0),
            Effect::Invert { intensity } => Op::Invert(intensity / 100.0),
            Effect::Vignette { radius, softness } => {
                let (hw, hh) = (width as f32 * 0.5, height as f32 * 0.5);
                let (r0, r1) = (radius / 100.0, radius / 100.0 + softness / 100.0);
                Op::Vignette { hw, hh, diag: (hw * hw + hh * hh).sqrt(), r0, span: r1 - r0 }
            }
            Effect::Blur { .. } => unreachable!("a blur ends a per-pixel run"),
        }
    }
}

// Native only: proptest is a native dev-dependency (the wasm32 test build runs src/wasm's tests).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
