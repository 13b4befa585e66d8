//! The blur pyramid's geometry, one rule for the GPU plan (`gpu::plan`) and the CPU path
//! (`effects::fast`): the level a blur runs at along each axis, and each level's size with the
//! margins the first halving reads. Each side adds its own reads (`impl Axis` in those modules).

/// Smallest sigma, in texels of a reduced level, the blur keeps there: a level is used only if
/// the blur left to do at that size is at least this wide. It bounds the work at any sigma: at the
/// level picked the sigma is under about 2.6 px, so a pass takes at most 9 bilinear reads, on a
/// picture 4^L times smaller (docs/effects.md). Measured on lavapipe (tests/gpu.rs): 1.2 keeps
/// the mean |Δ| at most 0.52/255 on the test frames; 0.9 reached 0.90/255 and 0.6 went over 1.
pub const LEVEL_SIGMA: f32 = 1.2;
/// Deepest level: 2^6 = 64 times smaller on a side, which the largest sigma (170 px) needs.
pub const MAX_LEVEL: u32 = 6;
/// A level keeps at least this many texels a side.
pub const MIN_LEVEL_SIDE: u32 = 8;

/// The pyramid level for a blur of sigma `sigma` along an axis of `size` pixels, and the sigma to
/// blur with there. Halving L times (2-pixel box averages) and scaling back up (bilinear) adds
/// variance (4^L − 1)/12 + 4^L/6 px², which is taken out of the blur done at level L so the
/// total matches σ². Each axis picks its own level: the deepest whose remaining sigma is at
/// least [`LEVEL_SIGMA`]. Level 0 is the full-size blur.
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

/// One axis of a blur's pyramid. The reduced levels extend `margin` frame pixels beyond each
/// edge (one level-L texel), filled with the edge pixel by the clamp of the first halving. So the
/// clamp at a level's edge repeats the frame's edge pixel, as the reference does, rather than an
/// average of the last 2^L pixels.
#[derive(Clone, Copy)]
pub struct Axis {
    /// Frame pixels along the axis.
    pub side: u32,
    pub level: u32,
    pub margin: u32,
}

impl Axis {
    pub fn new(side: u32, level: u32) -> Axis {
        Axis { side, level, margin: if level > 0 { 1 << level } else { 0 } }
    }

    /// Texels along the axis at level `l` (capped at this axis's own level).
    pub fn texels(&self, l: u32) -> u32 {
        let l = l.min(self.level);
        if l == 0 {
            self.side
        } else {
            (self.side + 2 * self.margin).div_ceil(1 << l)
        }
    }
}
