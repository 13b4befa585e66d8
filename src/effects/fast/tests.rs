//! The fast path against the reference: byte for byte for per-pixel runs and full-size blurs,
//! within the documented tolerances for blurs on a reduced copy.

use super::*;
use crate::effects::reference::{self, test_image, RgbaImage};
use crate::effects::EFFECTS;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// Runs the fast path on a copy of `img`.
fn fast(img: &RgbaImage, effects: &[Effect]) -> Vec<u8> {
    let mut out = img.pixels.clone();
    FastEffects::new().apply(&mut out, img.width, img.height, effects).unwrap();
    out
}

/// A per-pixel effect of the registry (index 1..7: every effect but the blur) with each
/// parameter at `min + f · (max − min)`.
fn effect(index: usize, fractions: &[f64]) -> Effect {
    let def = &EFFECTS[index];
    let params = def.params.iter().zip(fractions).map(|(p, f)| (p.key, Some(p.min + f * (p.max - p.min))));
    Effect::new(def.id, params).unwrap()
}

fn image(width: u32, height: u32, seed: &[u8]) -> RgbaImage {
    let n = width as usize * height as usize * 4;
    let pixels = (0..n).map(|i| seed[i % seed.len()].wrapping_add(((i / seed.len()) as u8).wrapping_mul(37))).collect();
    RgbaImage::new(width, height, pixels)
}

/// A fraction that is often exactly an end of the range.
fn fraction() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 1 => Just(1.0), 6 => 0.0f64..=1.0]
}

fn stack(max: usize) -> impl Strategy<Value = Vec<Effect>> {
    prop::collection::vec((1usize..7, prop::collection::vec(fraction(), 2)), 1..=max).prop_map(|v| v.into_iter().map(|(i, f)| effect(i, &f)).collect())
}

/// Where two RGBA8 buffers first differ.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn per_pixel_runs_are_byte_identical_to_the_reference(
        (w, h) in (0u32..80, 0u32..24),
        seed in prop::collection::vec(any::<u8>(), 1..64),
        effects in stack(6),
    ) {
        let img = image(w, h, &seed);
        let want = reference::apply(&img, &effects);
        let got = fast(&img, &effects);
        prop_assert_eq!(first_difference(&got, &want.pixels), None, "{}x{} {:?}", w, h, effects);
    }

    /// Stacks with blurs on frames too small for a reduced level: every blur runs at full size,
    /// so the whole stack matches the reference exactly.
    #[test]
    fn stacks_with_full_size_blurs_are_byte_identical(
        (w, h) in (0u32..14, 0u32..14),
        seed in prop::collection::vec(any::<u8>(), 1..64),
        effects in prop::collection::vec(prop_oneof![
            1 => (0.0f32..=100.0).prop_map(|intensity| Effect::Blur { intensity }),
            3 => (1usize..7, prop::collection::vec(fraction(), 2)).prop_map(|(i, f)| effect(i, &f)),
        ], 1..5),
    ) {
        let img = image(w, h, &seed);
        let want = reference::apply(&img, &effects);
        prop_assert_eq!(first_difference(&fast(&img, &effects), &want.pixels), None, "{}x{} {:?}", w, h, effects);
    }
}

/// The check above would catch a wrong fused run: leaving out the rounding between effects
/// (the mistake a fused pass invites) differs from the reference on these random stacks.
#[test]
fn a_fused_run_without_rounding_between_effects_is_caught() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut caught = 0;
    for _ in 0..200 {
        let (seed, effects) = (prop::collection::vec(any::<u8>(), 1..64), stack(6)).new_tree(&mut runner).unwrap().current();
        let img = image(31, 7, &seed);
        let mut wrong = img.pixels.clone();
        per_pixel_run::<false>(&mut wrong, 31, &effects);
        if first_difference(&wrong, &reference::apply(&img, &effects).pixels).is_some() {
            caught += 1;
        }
    }
    assert!(caught > 50, "only {caught} of 200 wrong runs differed from the reference");
}

/// Mean |Δ| and max |Δ| in steps of 1/255 over every channel.
fn error(a: &[u8], b: &[u8]) -> (f64, u8) {
    let total: u64 = a.iter().zip(b).map(|(x, y)| x.abs_diff(*y) as u64).sum();
    (total as f64 / a.len().max(1) as f64, a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0))
}

fn reduced(intensity: f32, w: u32, h: u32) -> bool {
    let (sx, sy) = blur_sigmas(intensity, w, h);
    blur_level(sx, w).0 > 0 || blur_level(sy, h).0 > 0
}

/// Largest max |Δ| a reduced blur may show (docs/effects.md: 12/255 for the GPU).
const REDUCED_MAX: u8 = 12;

/// Checks one blur against the reference and returns its error.
fn check_blur(img: &RgbaImage, intensity: f32) -> (f64, u8) {
    let want = reference::blur(img, intensity);
    let got = fast(img, &[Effect::Blur { intensity }]);
    let (w, h) = (img.width, img.height);
    if !reduced(intensity, w, h) {
        assert_eq!(first_difference(&got, &want.pixels), None, "full-size blur {w}x{h} at {intensity} must match the reference exactly");
        return (0.0, 0);
    }
    let (mean, max) = error(&got, &want.pixels);
    assert!(mean <= 1.0 && max <= REDUCED_MAX, "{w}x{h} at {intensity}: mean {mean:.3}/255, max {max}/255");
    (mean, max)
}

#[test]
fn blur_at_every_intensity_stays_within_the_bounds() {
    let mut worst = (0.0f64, 0u8);
    let mut reduced_seen = 0;
    for (w, h, step) in [(1, 1, 1), (1, 257, 1), (257, 1, 1), (2, 2, 1), (5, 3, 1), (31, 17, 1), (320, 180, 7), (333, 187, 1)] {
        let img = test_image(w, h);
        for intensity in (1..=100).step_by(step) {
            let (mean, max) = check_blur(&img, intensity as f32);
            reduced_seen += reduced(intensity as f32, w, h) as u32;
            worst = (worst.0.max(mean), worst.1.max(max));
        }
    }
    assert!(reduced_seen > 20, "the sizes must exercise the reduced path ({reduced_seen})");
    eprintln!("every intensity: worst mean {:.3}/255, worst max {}/255", worst.0, worst.1);
}

#[test]
fn reduced_blurs_on_wide_tall_and_odd_frames_stay_within_the_bounds() {
    let mut worst = (0.0f64, 0u8);
    for (w, h, intensities) in [
        (1201, 61, &[30.0, 60.0, 100.0][..]),
        (61, 1201, &[30.0, 60.0, 100.0][..]),
        (800, 450, &[15.0, 40.0, 100.0][..]),
        (1000, 200, &[60.0][..]),
        (432, 768, &[100.0][..]),
    ] {
        let img = test_image(w, h);
        for &intensity in intensities {
            assert!(reduced(intensity, w, h) || intensity < 20.0, "{w}x{h} at {intensity} should be reduced");
            let e = check_blur(&img, intensity);
            worst = (worst.0.max(e.0), worst.1.max(e.1));
        }
    }
    eprintln!("wide/tall/odd: worst mean {:.3}/255, worst max {}/255", worst.0, worst.1);
}

/// The tolerance check catches a wrong reduced blur: one that blurs the reduced copy with the
/// frame's sigma (forgetting that a level texel spans 2^L pixels) fails it.
#[test]
fn a_reduced_blur_without_variance_compensation_is_caught() {
    let img = test_image(800, 450);
    let intensity = 100.0;
    let (sx, sy) = blur_sigmas(intensity, 800, 450);
    let ((lx, _), (ly, _)) = (blur_level(sx, 800), blur_level(sy, 450));
    assert!(lx > 1 && ly > 1);
    let mut wrong = img.pixels.clone();
    FastEffects::new().blur_reduced(&mut wrong, 800, 450, (lx, sx), (ly, sy)).unwrap();
    let (mean, max) = error(&wrong, &reference::blur(&img, intensity).pixels);
    assert!(mean > 1.0 || max > REDUCED_MAX, "a wrong blur passed: mean {mean:.3}, max {max}");
}

#[test]
fn blur_cost_does_not_grow_with_sigma() {
    // Texel taps per frame pixel: the level blur's taps shrink by 4^L with the area.
    for (w, h) in [(1920u32, 1080u32), (3840, 2160)] {
        for intensity in [13.0f32, 15.0, 25.0, 50.0, 100.0] {
            let (sx, sy) = blur_sigmas(intensity, w, h);
            let ((lx, sx), (ly, sy)) = (blur_level(sx, w), blur_level(sy, h));
            let taps = |s: f32| blur_kernel(s).len() as f32 * 2.0 - 1.0;
            let per_pixel = (taps(sx) + taps(sy)) / (1u32 << (lx + ly)) as f32;
            assert!(lx > 0 && ly > 0 && per_pixel <= 9.0, "{w}x{h} at {intensity}: levels {lx}x{ly}, {per_pixel} taps a pixel");
        }
    }
}

#[test]
fn nothing_panics_on_any_size_or_parameter() {
    let mut fx = FastEffects::new();
    let every: Vec<Effect> =
        (0..7).flat_map(|i| [0.0, 1.0].map(|f| if i == 0 { Effect::Blur { intensity: 100.0 * f as f32 } } else { effect(i, &[f, f]) })).collect();
    for (w, h) in [(0, 0), (0, 5), (5, 0), (1, 1), (1, 2), (2, 1), (1, 9000), (9000, 1), (3, 40_000), (16, 16)] {
        let mut px = vec![200u8; w * h * 4];
        for e in &every {
            fx.apply(&mut px, w as u32, h as u32, std::slice::from_ref(e)).unwrap();
        }
        fx.apply(&mut px, w as u32, h as u32, &every).unwrap();
    }
    // A buffer of the wrong size is refused and left alone.
    let mut px = vec![7u8; 15];
    assert_eq!(fx.apply(&mut px, 2, 2, &every), Err(FastError::Size { len: 15, width: 2, height: 2 }));
    assert_eq!(px, vec![7u8; 15]);
    assert!(fx.apply(&mut [], u32::MAX, u32::MAX, &every).is_err());
}

#[test]
fn the_scratch_is_reused_across_frames_and_sizes() {
    let mut fx = FastEffects::new();
    for (w, h) in [(64, 48), (640, 360), (64, 48), (641, 361)] {
        let img = test_image(w, h);
        let effects = [Effect::Blur { intensity: 100.0 }, Effect::Vignette { radius: 75.0, softness: 35.0 }, Effect::Blur { intensity: 5.0 }];
        let mut out = img.pixels.clone();
        fx.apply(&mut out, w, h, &effects).unwrap();
        assert_eq!(out, fast(&img, &effects), "{w}x{h}: reused scratch changed the result");
    }
}
