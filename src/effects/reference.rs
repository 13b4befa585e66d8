//! CPU reference implementations of the seven effects: RGBA8 in, RGBA8 out.
//!
//! These functions define what the WGSL shaders under `shaders/` must produce; the GPU tests
//! compare against them. docs/effects.md states the same formulas in prose.
//!
//! Conventions shared with the shaders:
//! - Values are the sRGB-encoded channel values as stored, mapped to `[0, 1]` (`v / 255`). Nothing
//!   is linearised, exactly as CSS filters and Canvas2D `ctx.filter` work.
//! - Arithmetic is `f32`. Results are clamped to `[0, 1]` and rounded to the nearest step of 1/255
//!   (what a GPU does when writing to an `rgba8unorm` target).
//! - Per-pixel effects leave alpha untouched. Blur filters all four channels alike.
//! - Effects in a list apply in order, each reading the previous one's RGBA8 output.

use super::{find, EffectDef, Limit, ParamError};

/// An RGBA8 image, rows top to bottom, 4 bytes per pixel, no padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl RgbaImage {
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> RgbaImage {
        assert_eq!(pixels.len(), width as usize * height as usize * 4, "RGBA8 buffer size does not match {width}x{height}");
        RgbaImage { width, height, pixels }
    }
}

/// One effect with validated parameter values, ready to render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Effect {
    Blur { intensity: f32 },
    BrightnessContrast { brightness: f32, contrast: f32 },
    Grayscale { intensity: f32 },
    Saturation { saturation: f32 },
    Sepia { intensity: f32 },
    Invert { intensity: f32 },
    Vignette { radius: f32, softness: f32 },
}

/// Why an effect description was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum EffectError {
    UnknownEffect(String),
    Param { effect: &'static str, error: ParamError },
}

impl std::fmt::Display for EffectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EffectError::UnknownEffect(id) => {
                let known: Vec<&str> = super::EFFECTS.iter().map(|e| e.id).collect();
                write!(f, "Unknown effect \"{id}\"; known effects: {}", known.join(", "))
            }
            EffectError::Param { effect, error } => match error {
                ParamError::Invalid { key: Some(k) } => write!(f, "Effect \"{effect}\": parameter \"{k}\" must be a finite number"),
                ParamError::Invalid { key: None } => write!(f, "Effect \"{effect}\": params must be an object of numbers"),
                ParamError::Unknown(k) => {
                    let keys: Vec<&str> = find(effect).map(|d| d.params.iter().map(|p| p.key).collect()).unwrap_or_default();
                    write!(f, "Effect \"{effect}\": unknown parameter \"{k}\"; accepted: {}", keys.join(", "))
                }
                ParamError::BelowMin(k, min) => write!(f, "Effect \"{effect}\": parameter \"{k}\" is below its minimum {}", Limit(*min)),
                ParamError::AboveMax(k, max) => write!(f, "Effect \"{effect}\": parameter \"{k}\" is above its maximum {}", Limit(*max)),
            },
        }
    }
}

impl std::error::Error for EffectError {}

impl Effect {
    /// Builds an effect from its registry id and `(key, value)` pairs, checking every key and
    /// range against the registry. A value of `None` (not a number) or a non-finite one is
    /// refused; missing keys take their defaults.
    pub fn new<K: AsRef<str>>(id: &str, params: impl IntoIterator<Item = (K, Option<f64>)>) -> Result<Effect, EffectError> {
        let def: &'static EffectDef = find(id).ok_or_else(|| EffectError::UnknownEffect(id.to_string()))?;
        let err = |error| EffectError::Param { effect: def.id, error };
        let mut values: Vec<f64> = def.params.iter().map(|p| p.default).collect();
        for (key, value) in params {
            let key = key.as_ref();
            let index = def.params.iter().position(|p| p.key == key).ok_or_else(|| err(ParamError::Unknown(key.to_string())))?;
            let p = &def.params[index];
            let v = value.filter(|v| v.is_finite()).ok_or_else(|| err(ParamError::Invalid { key: Some(key.to_string()) }))?;
            if v < p.min {
                return Err(err(ParamError::BelowMin(p.key, p.min)));
            }
            if v > p.max {
                return Err(err(ParamError::AboveMax(p.key, p.max)));
            }
            values[index] = v;
        }
        let v = |i: usize| values[i] as f32;
        Ok(match def.id {
            "blur" => Effect::Blur { intensity: v(0) },
            "brightness-contrast" => Effect::BrightnessContrast { brightness: v(0), contrast: v(1) },
            "grayscale" => Effect::Grayscale { intensity: v(0) },
            "saturation" => Effect::Saturation { saturation: v(0) },
            "sepia" => Effect::Sepia { intensity: v(0) },
            "invert" => Effect::Invert { intensity: v(0) },
            "vignette" => Effect::Vignette { radius: v(0), softness: v(1) },
            other => unreachable!("effect {other} is registered but has no reference implementation"),
        })
    }

    /// Builds an effect from a JSON params object (as stored on effect elements).
    pub fn from_json(id: &str, params: &serde_json::Map<String, serde_json::Value>) -> Result<Effect, EffectError> {
        Effect::new(id, params.iter().map(|(k, v)| (k.as_str(), v.as_f64())))
    }

    /// Every parameter at its registry default.
    pub fn default_of(id: &str) -> Result<Effect, EffectError> {
        Effect::new::<&str>(id, [])
    }

    /// The registry id.
    pub fn id(&self) -> &'static str {
        match self {
            Effect::Blur { .. } => "blur",
            Effect::BrightnessContrast { .. } => "brightness-contrast",
            Effect::Grayscale { .. } => "grayscale",
            Effect::Saturation { .. } => "saturation",
            Effect::Sepia { .. } => "sepia",
            Effect::Invert { .. } => "invert",
            Effect::Vignette { .. } => "vignette",
        }
    }

    /// Whether the effect changes nothing at these parameters on a `width × height` frame (and
    /// may be skipped).
    pub fn is_identity(&self, width: u32, height: u32) -> bool {
        match *self {
            Effect::Blur { intensity } => {
                let (sx, sy) = blur_sigmas(intensity, width, height);
                blur_kernel(sx).len() == 1 && blur_kernel(sy).len() == 1
            }
            Effect::BrightnessContrast { brightness, contrast } => brightness == 0.0 && contrast == 1.0,
            Effect::Grayscale { intensity } | Effect::Sepia { intensity } | Effect::Invert { intensity } => intensity == 0.0,
            Effect::Saturation { saturation } => saturation == 100.0,
            Effect::Vignette { .. } => false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Per-pixel effects. Each formula is repeated, term for term, in its .wgsl file.

/// Rec. 709 luma weights, applied to the encoded values.
pub const LUMA: [f32; 3] = [0.2126, 0.7152, 0.0722];

/// The W3C Filter Effects sepia matrix (rows give R', G', B').
pub const SEPIA: [[f32; 3]; 3] = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]];

/// `[0, 1]` → RGBA8 channel: clamp, then round to nearest.
pub fn quantize(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5).floor() as u8
}

fn unit(v: u8) -> f32 {
    v as f32 / 255.0
}

fn mix(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

fn luma(c: [f32; 3]) -> f32 {
    LUMA[0] * c[0] + LUMA[1] * c[1] + LUMA[2] * c[2]
}

/// Hermite smoothstep, as WGSL defines it.
pub fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Applies `f(rgb, x, y) -> rgb` to every pixel, keeping alpha.
fn per_pixel(img: &RgbaImage, f: impl Fn([f32; 3], u32, u32) -> [f32; 3]) -> RgbaImage {
    let mut out = img.pixels.clone();
    let w = img.width.max(1) as usize;
    for (i, px) in out.chunks_exact_mut(4).enumerate() {
        let (x, y) = ((i % w) as u32, (i / w) as u32);
        let c = f([unit(px[0]), unit(px[1]), unit(px[2])], x, y);
        px[0] = quantize(c[0]);
        px[1] = quantize(c[1]);
        px[2] = quantize(c[2]);
    }
    RgbaImage { width: img.width, height: img.height, pixels: out }
}

/// `c' = (c − 0.5) · contrast + 0.5 + brightness`.
pub fn brightness_contrast(img: &RgbaImage, brightness: f32, contrast: f32) -> RgbaImage {
    per_pixel(img, |c, _, _| c.map(|v| (v - 0.5) * contrast + 0.5 + brightness))
}

/// `c' = mix(c, L, intensity / 100)` with `L` the Rec. 709 luma.
pub fn grayscale(img: &RgbaImage, intensity: f32) -> RgbaImage {
    let t = intensity / 100.0;
    per_pixel(img, |c, _, _| {
        let l = luma(c);
        c.map(|v| mix(v, l, t))
    })
}

/// `c' = L + (c − L) · saturation / 100`.
pub fn saturation(img: &RgbaImage, saturation: f32) -> RgbaImage {
    let s = saturation / 100.0;
    per_pixel(img, |c, _, _| {
        let l = luma(c);
        c.map(|v| l + (v - l) * s)
    })
}

/// `c' = mix(c, S·c, intensity / 100)` with `S` the sepia matrix.
pub fn sepia(img: &RgbaImage, intensity: f32) -> RgbaImage {
    let t = intensity / 100.0;
    per_pixel(img, |c, _, _| {
        let s = SEPIA.map(|row| row[0] * c[0] + row[1] * c[1] + row[2] * c[2]);
        [mix(c[0], s[0], t), mix(c[1], s[1], t), mix(c[2], s[2], t)]
    })
}

/// `c' = mix(c, 1 − c, intensity / 100)`.
pub fn invert(img: &RgbaImage, intensity: f32) -> RgbaImage {
    let t = intensity / 100.0;
    per_pixel(img, |c, _, _| c.map(|v| mix(v, 1.0 - v, t)))
}

/// The vignette factor at pixel `(x, y)`: `1 − smoothstep(r, r + s, d)` where `d` is the distance
/// of the pixel centre from the frame centre divided by the centre-to-corner distance.
pub fn vignette_factor(width: u32, height: u32, x: u32, y: u32, radius: f32, softness: f32) -> f32 {
    let (hw, hh) = (width as f32 * 0.5, height as f32 * 0.5);
    let (dx, dy) = (x as f32 + 0.5 - hw, y as f32 + 0.5 - hh);
    let d = (dx * dx + dy * dy).sqrt() / (hw * hw + hh * hh).sqrt();
    let r = radius / 100.0;
    1.0 - smoothstep(r, r + softness / 100.0, d)
}

/// `c' = c · vignette_factor`.
pub fn vignette(img: &RgbaImage, radius: f32, softness: f32) -> RgbaImage {
    let (w, h) = (img.width, img.height);
    per_pixel(img, |c, x, y| {
        let f = vignette_factor(w, h, x, y, radius, softness);
        c.map(|v| v * f)
    })
}

// ---------------------------------------------------------------------------------------------
// Blur: a separable Gaussian, horizontal pass then vertical pass, edges clamped.

/// OpenCut's blur sigmas in pixels for an intensity on a `width × height` frame
/// (effects/definitions/blur.ts): `σx = intensity / 5 · width / 1920` and
/// `σy = intensity / 5 · height / 1080`. Each scales with its own side, so a half-size preview
/// looks like the export, and the blur is round only on a 16:9 frame. Each is capped at
/// [`MAX_BLUR_SIGMA`].
pub fn blur_sigmas(intensity: f32, width: u32, height: u32) -> (f32, f32) {
    let sigma = |side: u32, reference: f32| (intensity / 5.0 * side as f32 / reference).clamp(0.0, MAX_BLUR_SIGMA);
    (sigma(width, 1920.0), sigma(height, 1080.0))
}

/// The largest sigma rendered on either axis (reached above 9 000 lines at intensity 100).
pub const MAX_BLUR_SIGMA: f32 = 170.0;

/// Weights `w[0..=R]` of the normalised one-sided Gaussian kernel, `R = ceil(3σ)`:
/// `w[i] = exp(−i² / 2σ²) / Σ_{j=−R..R} exp(−j² / 2σ²)`. A sigma below 1/3 px (`R = 0` or weights
/// beyond the centre under 1/1000) gives `[1.0]`, the identity.
pub fn blur_kernel(sigma: f32) -> Vec<f32> {
    let radius = (3.0 * sigma).ceil() as usize;
    if radius == 0 {
        return vec![1.0];
    }
    let mut w: Vec<f32> = (0..=radius).map(|i| (-((i * i) as f32) / (2.0 * sigma * sigma)).exp()).collect();
    let total = w[0] + 2.0 * w[1..].iter().sum::<f32>();
    for v in &mut w {
        *v /= total;
    }
    if w[1] < 1e-3 {
        return vec![1.0];
    }
    w
}

/// The kernel rearranged for bilinear sampling: the centre weight, then for each pair of
/// neighbouring taps `(2k − 1, 2k)` one sample at offset `(a·w_a + b·w_b) / (w_a + w_b)` with
/// weight `w_a + w_b` (mirrored on the negative side). The shader's result equals the discrete
/// convolution, because a clamped bilinear sample between two texels is their weighted mean.
pub fn linear_taps(kernel: &[f32]) -> (f32, Vec<(f32, f32)>) {
    let mut taps = Vec::new();
    let mut i = 1;
    while i < kernel.len() {
        let (a, wa) = (i as f32, kernel[i]);
        let (b, wb) = if i + 1 < kernel.len() { ((i + 1) as f32, kernel[i + 1]) } else { (i as f32 + 1.0, 0.0) };
        let w = wa + wb;
        taps.push(((a * wa + b * wb) / w, w));
        i += 2;
    }
    (kernel[0], taps)
}

fn blur_pass(src: &[u8], width: usize, height: usize, kernel: &[f32], horizontal: bool) -> Vec<u8> {
    let mut out = vec![0u8; src.len()];
    let r = kernel.len() as isize - 1;
    let (w, h) = (width as isize, height as isize);
    for y in 0..h {
        for x in 0..w {
            let mut acc = [0f32; 4];
            for i in -r..=r {
                let (sx, sy) = if horizontal { ((x + i).clamp(0, w - 1), y) } else { (x, (y + i).clamp(0, h - 1)) };
                let k = kernel[i.unsigned_abs()];
                let at = ((sy * w + sx) * 4) as usize;
                for c in 0..4 {
                    acc[c] += k * unit(src[at + c]);
                }
            }
            let at = ((y * w + x) * 4) as usize;
            for c in 0..4 {
                out[at + c] = quantize(acc[c]);
            }
        }
    }
    out
}

/// Gaussian blur with the sigmas [`blur_sigmas`]`(intensity, width, height)`: a horizontal pass,
/// rounded to RGBA8, then a vertical pass. Pixels beyond the edge repeat the edge pixel.
/// Intensity 0 (or sigmas under 1/3 px) returns the input unchanged.
pub fn blur(img: &RgbaImage, intensity: f32) -> RgbaImage {
    let (sx, sy) = blur_sigmas(intensity, img.width, img.height);
    blur_with_sigmas(img, sx, sy)
}

/// [`blur`] at one explicit sigma in pixels on both axes.
pub fn blur_with_sigma(img: &RgbaImage, sigma: f32) -> RgbaImage {
    blur_with_sigmas(img, sigma, sigma)
}

/// [`blur`] at explicit sigmas in pixels: `sx` for the horizontal pass, `sy` for the vertical.
/// A pass whose kernel is the identity is skipped (it would copy its input exactly).
pub fn blur_with_sigmas(img: &RgbaImage, sx: f32, sy: f32) -> RgbaImage {
    let (kx, ky) = (blur_kernel(sx), blur_kernel(sy));
    let (w, h) = (img.width as usize, img.height as usize);
    let mut pixels = img.pixels.clone();
    if kx.len() > 1 {
        pixels = blur_pass(&pixels, w, h, &kx, true);
    }
    if ky.len() > 1 {
        pixels = blur_pass(&pixels, w, h, &ky, false);
    }
    RgbaImage { width: img.width, height: img.height, pixels }
}

// ---------------------------------------------------------------------------------------------

/// Applies one effect.
pub fn apply_one(img: &RgbaImage, effect: &Effect) -> RgbaImage {
    match *effect {
        Effect::Blur { intensity } => blur(img, intensity),
        Effect::BrightnessContrast { brightness, contrast } => brightness_contrast(img, brightness, contrast),
        Effect::Grayscale { intensity } => grayscale(img, intensity),
        Effect::Saturation { saturation: s } => saturation(img, s),
        Effect::Sepia { intensity } => sepia(img, intensity),
        Effect::Invert { intensity } => invert(img, intensity),
        Effect::Vignette { radius, softness } => vignette(img, radius, softness),
    }
}

/// Applies effects in order, each to the previous one's output.
pub fn apply(img: &RgbaImage, effects: &[Effect]) -> RgbaImage {
    effects.iter().fold(img.clone(), |acc, e| apply_one(&acc, e))
}

/// A deterministic test picture: colour gradients, a hard-edged checker, pure primaries and
/// grey steps, opaque, with a few translucent pixels in the bottom row. Used by the GPU tests.
pub fn test_image(width: u32, height: u32) -> RgbaImage {
    let mut pixels = Vec::with_capacity(width as usize * height as usize * 4);
    for y in 0..height {
        for x in 0..width {
            let (u, v) = (x as f32 / width.max(2) as f32, y as f32 / height.max(2) as f32);
            let px: [u8; 4] = if v < 0.25 {
                [quantize(u), quantize(v * 4.0), quantize(1.0 - u), 255]
            } else if v < 0.5 {
                if ((x / 8) + (y / 8)) % 2 == 0 {
                    [250, 245, 20, 255]
                } else {
                    [12, 30, 200, 255]
                }
            } else if v < 0.75 {
                let band = (x * 8 / width.max(1)) as usize;
                let c = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0], [255, 0, 255], [0, 255, 255], [128, 128, 128]][band];
                [c[0], c[1], c[2], 255]
            } else {
                let g = quantize(((x * 16 / width.max(1)) as f32) / 15.0);
                let a = if y + 1 == height && x % 3 == 0 { 128 } else { 255 };
                [g, quantize(0.5 + 0.5 * (x as f32 * 0.3).sin()), quantize(0.5 + 0.5 * (y as f32 * 0.2).cos()), a]
            };
            pixels.extend_from_slice(&px);
        }
    }
    RgbaImage { width, height, pixels }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn img() -> RgbaImage {
        test_image(64, 48)
    }

    fn px(i: &RgbaImage, x: u32, y: u32) -> [u8; 4] {
        let at = ((y * i.width + x) * 4) as usize;
        i.pixels[at..at + 4].try_into().unwrap()
    }

    fn one(rgba: [u8; 4]) -> RgbaImage {
        RgbaImage::new(1, 1, rgba.to_vec())
    }

    #[test]
    fn neutral_parameters_are_the_identity() {
        let i = img();
        for e in [
            Effect::Blur { intensity: 0.0 },
            Effect::BrightnessContrast { brightness: 0.0, contrast: 1.0 },
            Effect::Grayscale { intensity: 0.0 },
            Effect::Saturation { saturation: 100.0 },
            Effect::Sepia { intensity: 0.0 },
            Effect::Invert { intensity: 0.0 },
        ] {
            assert_eq!(apply_one(&i, &e), i, "{e:?} changed the picture");
            assert!(e.is_identity(i.width, i.height));
        }
        // Radius 100 + any softness never reaches a pixel centre (d < 1).
        assert_eq!(vignette(&i, 100.0, 5.0), i);
    }

    #[test]
    fn per_pixel_formulas_on_single_pixels() {
        assert_eq!(px(&grayscale(&one([255, 0, 0, 200]), 100.0), 0, 0), [54, 54, 54, 200]);
        assert_eq!(px(&invert(&one([255, 10, 128, 7]), 100.0), 0, 0), [0, 245, 127, 7]);
        assert_eq!(px(&invert(&one([200, 0, 100, 255]), 50.0), 0, 0), [128, 128, 128, 255]);
        assert_eq!(px(&brightness_contrast(&one([100, 200, 30, 255]), 1.0, 1.0), 0, 0), [255, 255, 255, 255]);
        assert_eq!(px(&brightness_contrast(&one([100, 200, 30, 255]), -1.0, 1.0), 0, 0), [0, 0, 0, 255]);
        assert_eq!(px(&brightness_contrast(&one([100, 200, 30, 255]), 0.0, 0.0), 0, 0), [128, 128, 128, 255]);
        assert_eq!(px(&brightness_contrast(&one([100, 200, 30, 255]), 0.1, 2.0), 0, 0), [98, 255, 0, 255]);
        assert_eq!(px(&saturation(&one([255, 0, 0, 255]), 0.0), 0, 0), [54, 54, 54, 255]);
        assert_eq!(px(&saturation(&one([200, 100, 100, 255]), 200.0), 0, 0), [255, 79, 79, 255]);
        assert_eq!(px(&sepia(&one([255, 255, 255, 255]), 100.0), 0, 0), [255, 255, 239, 255]);
        assert_eq!(px(&sepia(&one([100, 50, 0, 255]), 100.0), 0, 0), [78, 69, 54, 255]);
    }

    #[test]
    fn vignette_darkens_corners_not_the_centre() {
        let white = RgbaImage::new(100, 60, vec![255; 100 * 60 * 4]);
        let out = vignette(&white, 75.0, 35.0);
        assert_eq!(px(&out, 50, 30), [255, 255, 255, 255]);
        let corner = px(&out, 0, 0);
        assert!(corner[0] < 70, "corner {corner:?}");
        assert_eq!(corner[3], 255);
        // Symmetric about the centre.
        assert_eq!(px(&out, 0, 0), px(&out, 99, 59));
        assert_eq!(px(&out, 10, 5), px(&out, 89, 54));
        // The narrowest setting blacks out most of the frame.
        assert_eq!(px(&vignette(&white, 10.0, 5.0), 0, 0), [0, 0, 0, 255]);
    }

    #[test]
    fn blur_sigmas_follow_opencut() {
        // σx = intensity/5 · W/1920, σy = intensity/5 · H/1080 (OpenCut's blur.ts).
        assert_eq!(blur_sigmas(0.0, 1920, 1080), (0.0, 0.0));
        assert_eq!(blur_sigmas(100.0, 1920, 1080), (20.0, 20.0));
        assert_eq!(blur_sigmas(15.0, 1920, 1080), (3.0, 3.0));
        assert_eq!(blur_sigmas(50.0, 3840, 2160), (20.0, 20.0));
        // Not 16:9: the sigmas differ. A portrait 1080×1920 frame blurs more vertically.
        assert_eq!(blur_sigmas(100.0, 1080, 1920), (11.25, 20.0 * 1920.0 / 1080.0));
        assert_eq!(blur_sigmas(100.0, 960, 960), (10.0, 20.0 * 960.0 / 1080.0));
        assert_eq!(blur_sigmas(100.0, 100_000, 100_000), (MAX_BLUR_SIGMA, MAX_BLUR_SIGMA));
    }

    #[test]
    fn an_anisotropic_blur_is_the_two_passes_of_its_own_sigmas() {
        let i = img();
        let (sx, sy) = blur_sigmas(100.0, i.width, i.height);
        assert!(sx < sy, "64x48 is 4:3, so x blurs less: {sx} {sy}");
        let by_hand = blur_pass(&blur_pass(&i.pixels, 64, 48, &blur_kernel(sx), true), 64, 48, &blur_kernel(sy), false);
        assert_eq!(blur(&i, 100.0).pixels, by_hand);
        // A sigma too small to change anything skips its pass: only rows are blurred here.
        let rows_only = blur_with_sigmas(&i, 2.0, 0.1);
        assert_eq!(rows_only.pixels, blur_pass(&i.pixels, 64, 48, &blur_kernel(2.0), true));
        assert_eq!(blur_with_sigmas(&i, 0.1, 0.1), i);
    }

    #[test]
    fn kernel_is_normalised_and_linear_taps_match_it() {
        for sigma in [0.5f32, 1.0, 2.7, 10.0, 25.0, 170.0] {
            let k = blur_kernel(sigma);
            assert_eq!(k.len(), (3.0 * sigma).ceil() as usize + 1);
            let total = k[0] + 2.0 * k[1..].iter().sum::<f32>();
            assert!((total - 1.0).abs() < 1e-5);
            let (centre, taps) = linear_taps(&k);
            let tap_total = centre + 2.0 * taps.iter().map(|t| t.1).sum::<f32>();
            assert!((tap_total - 1.0).abs() < 1e-5);
            assert!(taps.len() <= 256, "uniform array holds 256 pairs");
            // Each offset lies between its two texels.
            for (k, (off, _)) in taps.iter().enumerate() {
                assert!(*off >= (2 * k + 1) as f32 && *off <= (2 * k + 2) as f32);
            }
        }
        assert_eq!(blur_kernel(0.1), vec![1.0]);
    }

    #[test]
    fn blur_keeps_flat_areas_and_mean_and_softens_edges() {
        let flat = RgbaImage::new(20, 10, [[10u8, 20, 30, 255]; 200].concat());
        assert_eq!(blur(&flat, 100.0), flat.clone());
        assert_eq!(blur_with_sigma(&flat, 3.0), flat);
        // A vertical edge: black left, white right.
        let mut pixels = Vec::new();
        for _y in 0..8 {
            for x in 0..32 {
                let v = if x < 16 { 0 } else { 255 };
                pixels.extend_from_slice(&[v, v, v, 255]);
            }
        }
        let edge = RgbaImage::new(32, 8, pixels);
        let out = blur_with_sigma(&edge, 2.0);
        assert_eq!(px(&out, 0, 0)[0], 0);
        assert_eq!(px(&out, 31, 0)[0], 255);
        let (l, r) = (px(&out, 15, 4)[0], px(&out, 16, 4)[0]);
        assert!(l > 40 && l < 128 && r > 128 && r < 215, "{l} {r}");
        assert_eq!(l as u32 + r as u32, 255, "symmetric around the edge");
        // Rows are identical, so the vertical pass changed nothing.
        assert_eq!(px(&out, 15, 0), px(&out, 15, 7));
    }

    #[test]
    fn effects_validate_against_the_registry() {
        assert_eq!(Effect::default_of("blur"), Ok(Effect::Blur { intensity: 15.0 }));
        assert_eq!(Effect::default_of("vignette"), Ok(Effect::Vignette { radius: 75.0, softness: 35.0 }));
        assert_eq!(Effect::new("brightness-contrast", [("contrast", Some(2.5))]), Ok(Effect::BrightnessContrast { brightness: 0.0, contrast: 2.5 }));
        let e = Effect::new::<&str>("glow", []).unwrap_err();
        assert_eq!(e, EffectError::UnknownEffect("glow".into()));
        assert!(e.to_string().contains("\"glow\""));
        let e = Effect::new("blur", [("radius", Some(3.0))]).unwrap_err();
        assert!(e.to_string().contains("\"radius\"") && e.to_string().contains("intensity"), "{e}");
        let e = Effect::new("blur", [("intensity", Some(101.0))]).unwrap_err();
        assert_eq!(e.to_string(), "Effect \"blur\": parameter \"intensity\" is above its maximum 100");
        let e = Effect::new("sepia", [("intensity", None)]).unwrap_err();
        assert!(e.to_string().contains("finite number"));
        assert!(Effect::new("sepia", [("intensity", Some(f64::NAN))]).is_err());
        for def in &super::super::EFFECTS {
            assert_eq!(Effect::default_of(def.id).unwrap().id(), def.id);
        }
    }

    #[test]
    fn a_list_applies_in_order() {
        let i = img();
        let list = [Effect::Invert { intensity: 100.0 }, Effect::Sepia { intensity: 100.0 }];
        assert!(apply(&i, &list) == sepia(&invert(&i, 100.0), 100.0));
        assert!(apply(&i, &list) != invert(&sepia(&i, 100.0), 100.0), "order matters");
        assert_eq!(apply(&i, &[]), i);
    }
}
