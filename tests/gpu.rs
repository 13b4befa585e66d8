//! GPU effects against the CPU reference: wgpu on Vulkan (Mesa's lavapipe in CI). Runs with
//! `cargo test --features gpu`; without a Vulkan driver these tests fail, they do not skip.
//!
//! Tolerances (docs/effects.md): per-pixel effects within 2/255 on every channel of every pixel;
//! blur within 1/255 on average and within BLUR_MAX (BLUR_MAX_REDUCED where its sigma on either
//! axis is 2.58 px or more, so that the GPU may blur at a reduced size: decided from the sigma,
//! never from the renderer's choice) on every channel of every pixel.
//!
//! The expected images come from the CPU reference (`reference::apply`) only: no test here
//! computes expected values with the renderer's helpers (kernel, taps, pyramid level). The
//! reference's kernel is pinned to a literal Gaussian by tests/blur_kernel.rs.

use neuralcut::effects::reference::{self, test_image, Effect, RgbaImage};
use neuralcut::effects::EFFECTS;
use neuralcut::gpu::{native_renderer, Renderer};

fn renderer() -> Renderer {
    let (r, info) = native_renderer().unwrap_or_else(|e| panic!("GPU tests need a Vulkan device: {e}"));
    eprintln!("adapter: {} ({:?})", info.name, info.device_type);
    r
}

fn gpu(r: &mut Renderer, img: &RgbaImage, effects: &[Effect]) -> RgbaImage {
    r.upload(img).unwrap();
    r.render(effects).unwrap();
    r.read_output().unwrap()
}

/// (max |Δ|, mean |Δ|) over all channels, in 1/255 steps.
fn diff(a: &RgbaImage, b: &RgbaImage) -> (u8, f64) {
    assert_eq!((a.width, a.height), (b.width, b.height));
    let mut max = 0u8;
    let mut sum = 0u64;
    for (x, y) in a.pixels.iter().zip(&b.pixels) {
        let d = x.abs_diff(*y);
        max = max.max(d);
        sum += d as u64;
    }
    (max, sum as f64 / a.pixels.len() as f64)
}

fn check(effects: &[Effect], max: u8, mean: f64, got: &RgbaImage, want: &RgbaImage) -> Result<(), String> {
    let (m, avg) = diff(got, want);
    if m > max || avg > mean {
        return Err(format!("{effects:?} on {}x{}: max |Δ| {m}/255, mean {avg:.3}/255", got.width, got.height));
    }
    Ok(())
}

/// Every parameter combination the tests cover: defaults, each parameter at its minimum and at
/// its maximum with the others at their defaults, and all at their minimums / maximums.
fn parameter_cases(id: &str) -> Vec<Effect> {
    let def = neuralcut::effects::find(id).unwrap();
    let mut cases: Vec<Vec<(&str, f64)>> = vec![vec![]];
    for p in def.params {
        cases.push(vec![(p.key, p.min)]);
        cases.push(vec![(p.key, p.max)]);
    }
    if def.params.len() > 1 {
        cases.push(def.params.iter().map(|p| (p.key, p.min)).collect());
        cases.push(def.params.iter().map(|p| (p.key, p.max)).collect());
    }
    cases.into_iter().map(|c| Effect::new(id, c.into_iter().map(|(k, v)| (k, Some(v)))).unwrap()).collect()
}

/// Largest |Δ| of a blur the GPU renders at full size (small sigmas): bilinear weights are
/// quantised.
const BLUR_MAX: u8 = 2;
/// Largest |Δ| of any blur, including those the GPU renders at a reduced size and scales back:
/// reached at one-pixel features (6/255 measured on lavapipe; docs/effects.md).
const BLUR_MAX_REDUCED: u8 = 12;
/// Mean |Δ| of any blur.
const BLUR_MEAN: f64 = 1.0;
/// Per-pixel effects: every channel of every pixel.
const PIXEL_MAX: u8 = 2;

/// Below this sigma on both axes a blur is rendered at full size (docs/effects.md): a reduced
/// level needs a remaining sigma of at least 1.2 px at half size, σ² ≥ 4 · 1.2² + 11/12, so
/// σ ≥ 2.584 px.
const FULL_SIZE_SIGMA: f32 = 2.58;

/// OpenCut's blur sigmas, written here from the spec (intensity / 5 px at 1920×1080, scaled with
/// each side), not taken from the code under test.
fn sigmas(intensity: f32, w: u32, h: u32) -> (f32, f32) {
    (intensity / 5.0 * w as f32 / 1920.0, intensity / 5.0 * h as f32 / 1080.0)
}

/// Whether a blur may be rendered at a reduced size, by its sigmas alone: the bound follows the
/// blur asked for, so a blur the renderer reduces wrongly is held to the full-size bound.
fn may_be_reduced(intensity: f32, w: u32, h: u32) -> bool {
    let (sx, sy) = sigmas(intensity, w, h);
    sx >= FULL_SIZE_SIGMA || sy >= FULL_SIZE_SIGMA
}

/// Whether the renderer does blur at a reduced size on either axis (its own choice: used only to
/// say which path a case covers, never for a bound).
fn reduced(intensity: f32, w: u32, h: u32) -> bool {
    let (sx, sy) = reference::blur_sigmas(intensity, w, h);
    neuralcut::gpu::blur_level(sx, w).0 > 0 || neuralcut::gpu::blur_level(sy, h).0 > 0
}

fn tolerance(e: &Effect, w: u32, h: u32) -> (u8, f64) {
    match e {
        Effect::Blur { intensity } if may_be_reduced(*intensity, w, h) => (BLUR_MAX_REDUCED, BLUR_MEAN),
        Effect::Blur { .. } => (BLUR_MAX, BLUR_MEAN),
        _ => (PIXEL_MAX, PIXEL_MAX as f64),
    }
}

#[test]
fn every_effect_at_default_and_edge_parameters_matches_the_reference() {
    let mut r = renderer();
    let img = test_image(480, 270);
    let mut failures = Vec::new();
    let mut count = 0;
    for def in EFFECTS.iter() {
        for effect in parameter_cases(def.id) {
            let got = gpu(&mut r, &img, &[effect]);
            let want = reference::apply(&img, &[effect]);
            let (max, mean) = tolerance(&effect, img.width, img.height);
            let (m, avg) = diff(&got, &want);
            eprintln!("{effect:?}: max |Δ| {m}, mean {avg:.4}");
            assert!(want == img || got != img, "{effect:?} changed nothing on the GPU");
            if let Err(e) = check(&[effect], max, mean, &got, &want) {
                failures.push(e);
            }
            count += 1;
        }
    }
    assert!(failures.is_empty(), "{} of {count} cases differ:\n{}", failures.len(), failures.join("\n"));
    // Five one-parameter effects (3 cases each), two two-parameter ones (7 cases each).
    assert_eq!(count, 5 * 3 + 2 * 7, "cases run");
}

#[test]
fn strong_blur_on_a_tall_frame_matches_the_reference() {
    // 160×1080: OpenCut's sigmas are intensity/5 · 160/1920 across and intensity/5 down, so at
    // 100 the blur is 1.7 px wide (full size across) and 20 px tall (reduced down).
    let mut r = renderer();
    let img = test_image(160, 1080);
    for intensity in [1.0, 15.0, 55.0, 100.0] {
        let e = [Effect::Blur { intensity }];
        let (got, want) = (gpu(&mut r, &img, &e), reference::apply(&img, &e));
        let (m, avg) = diff(&got, &want);
        eprintln!("{e:?} on 160x1080: max |Δ| {m}, mean {avg:.4}");
        let (max, mean) = tolerance(&e[0], 160, 1080);
        check(&e, max, mean, &got, &want).unwrap();
    }
}

#[test]
fn anisotropic_and_reduced_size_blurs_match_the_reference() {
    // 768×432 at 100: sigma 8 px on both axes. 432×768 (portrait) at 100: 4.5 px across, 14.2 px
    // down. 1000×200 at 60: 6.25 px across, 2.2 px down. Each axis picks its own level, so the
    // portrait frame is reduced more down than across.
    let mut r = renderer();
    let mut levels = Vec::new();
    for (w, h, intensity) in [(768, 432, 100.0), (432, 768, 100.0), (1000, 200, 60.0)] {
        let img = test_image(w, h);
        let e = [Effect::Blur { intensity }];
        let (sx, sy) = reference::blur_sigmas(intensity, w, h);
        let level = (neuralcut::gpu::blur_level(sx, w).0, neuralcut::gpu::blur_level(sy, h).0);
        let (got, want) = (gpu(&mut r, &img, &e), reference::apply(&img, &e));
        let (m, avg) = diff(&got, &want);
        eprintln!("{e:?} on {w}x{h} (sigmas {sx}, {sy}; levels {level:?}): max |Δ| {m}, mean {avg:.4}");
        let (max, mean) = tolerance(&e[0], w, h);
        check(&e, max, mean, &got, &want).unwrap();
        // Not the same as a round blur of either sigma: the two axes really differ.
        if sx != sy {
            assert_ne!(want, reference::blur_with_sigma(&img, sx));
            assert_ne!(want, reference::blur_with_sigma(&img, sy));
        }
        levels.push(level);
    }
    assert_eq!(levels[0].0, levels[0].1, "a round blur reduces both axes alike");
    assert!(levels[1].1 > levels[1].0, "the portrait frame's taller blur is reduced more: {:?}", levels[1]);
    assert!(levels[2].0 > levels[2].1, "the wide frame's wider blur is reduced more: {:?}", levels[2]);
}

#[test]
fn blur_at_every_intensity_stays_within_the_bounds() {
    // Full HD's sigmas scaled to a 640×360 frame (intensity / 5 · 640/1920): every intensity
    // from the smallest that blurs to the largest, so every level change is crossed.
    let mut r = renderer();
    let img = test_image(640, 360);
    let mut worst = (0u8, 0f64);
    let mut reduced_cases = 0;
    for intensity in (1..=20).map(|i| i as f32 * 5.0) {
        let e = [Effect::Blur { intensity }];
        let (got, want) = (gpu(&mut r, &img, &e), reference::apply(&img, &e));
        let (m, avg) = diff(&got, &want);
        eprintln!("{e:?} on 640x360 (reduced: {}): max |Δ| {m}, mean {avg:.4}", reduced(intensity, 640, 360));
        worst = (worst.0.max(m), worst.1.max(avg));
        reduced_cases += reduced(intensity, 640, 360) as u32;
        let (max, mean) = tolerance(&e[0], 640, 360);
        check(&e, max, mean, &got, &want).unwrap();
        // The renderer reduces exactly the blurs the rule above says it may.
        assert_eq!(reduced(intensity, 640, 360), may_be_reduced(intensity, 640, 360), "intensity {intensity}: sigma {:?}", sigmas(intensity, 640, 360));
    }
    eprintln!("worst: max |Δ| {}, mean {:.4}", worst.0, worst.1);
    assert!(reduced_cases >= 10, "most of these blurs take the reduced path ({reduced_cases})");
}

#[test]
fn blur_work_does_not_grow_with_sigma() {
    // Texture reads per frame pixel, counted from the passes the renderer plans, at every
    // intensity at 1080p and 4K: never more than a full-size blur of sigma 2.6 px takes (9 reads
    // a pass), and at most 6 once the blur is reduced (sigma ≥ 2.6 px, the default included),
    // however large the sigma.
    for (w, h) in [(1920, 1080), (3840, 2160)] {
        let mut most_reduced = 0f64;
        for intensity in 1..=100 {
            let intensity = intensity as f32;
            let reads = neuralcut::gpu::reads_per_pixel(&[Effect::Blur { intensity }], w, h);
            assert!(reads <= 18.0, "intensity {intensity} at {w}x{h}: {reads:.2} reads a pixel");
            let (sx, sy) = reference::blur_sigmas(intensity, w, h);
            if sx.min(sy) >= 2.6 {
                assert!(reduced(intensity, w, h), "intensity {intensity} at {w}x{h} is reduced");
                most_reduced = most_reduced.max(reads);
            }
        }
        eprintln!("{w}x{h}: at most {most_reduced:.2} reads a pixel once reduced");
        assert!(most_reduced <= 6.0, "{w}x{h}: {most_reduced:.2} reads a pixel");
    }
    // The default blur (intensity 15) is reduced at 1080p and 4K.
    assert!(reduced(15.0, 1920, 1080) && reduced(15.0, 3840, 2160));
}

#[test]
fn per_pixel_effects_run_as_one_pass() {
    let mut r = renderer();
    let img = test_image(320, 180);
    let run = [
        Effect::BrightnessContrast { brightness: 0.1, contrast: 1.4 },
        Effect::Grayscale { intensity: 40.0 },
        Effect::Saturation { saturation: 180.0 },
        Effect::Sepia { intensity: 70.0 },
        Effect::Invert { intensity: 30.0 },
        Effect::Vignette { radius: 50.0, softness: 40.0 },
    ];
    let (got, want) = (gpu(&mut r, &img, &run), reference::apply(&img, &run));
    assert_eq!(r.last_pass_count(), 1, "six per-pixel effects, one pass");
    check(&run, PIXEL_MAX, PIXEL_MAX as f64, &got, &want).unwrap();
    // After a blur rendered at a reduced size, the run joins the blur's scale-up: level 1 is
    // one scale-down, two blur passes and the scale-up.
    let mut stack = vec![Effect::Blur { intensity: 100.0 }];
    stack.extend(run);
    let (got, want) = (gpu(&mut r, &img, &stack), reference::apply(&img, &stack));
    assert!(reduced(100.0, 320, 180));
    let (sx, sy) = reference::blur_sigmas(100.0, 320, 180);
    let downs = neuralcut::gpu::blur_level(sx, 320).0.max(neuralcut::gpu::blur_level(sy, 180).0) as usize;
    assert_eq!(r.last_pass_count(), downs + 3, "blur and six effects");
    check(&stack, BLUR_MAX_REDUCED, BLUR_MEAN, &got, &want).unwrap();
    // A longer run than one pass holds still applies every effect, in order.
    let long: Vec<Effect> = (0..300).map(|i| if i % 2 == 0 { Effect::Invert { intensity: 100.0 } } else { Effect::Grayscale { intensity: 1.0 } }).collect();
    let (got, want) = (gpu(&mut r, &img, &long), reference::apply(&img, &long));
    assert_eq!(r.last_pass_count(), 3, "128 effects a pass");
    check(&long, 2 * 3, 2.0, &got, &want).unwrap();
}

#[test]
fn a_stack_of_effects_applies_in_order() {
    let mut r = renderer();
    let img = test_image(320, 180);
    let stack = [
        Effect::Saturation { saturation: 180.0 },
        Effect::Blur { intensity: 60.0 },
        Effect::Sepia { intensity: 70.0 },
        Effect::BrightnessContrast { brightness: 0.1, contrast: 1.4 },
        Effect::Vignette { radius: 50.0, softness: 40.0 },
        Effect::Invert { intensity: 30.0 },
        Effect::Grayscale { intensity: 25.0 },
        Effect::Blur { intensity: 20.0 },
    ];
    let got = gpu(&mut r, &img, &stack);
    let want = reference::apply(&img, &stack);
    let (m, avg) = diff(&got, &want);
    eprintln!("stack: max |Δ| {m}, mean {avg:.4}");
    // Rounding after each of the eight effects can add up: two steps per effect at most.
    check(&stack, 2 * stack.len() as u8, BLUR_MEAN, &got, &want).unwrap();
    // The same stack without the blurs is held to the per-pixel tolerance (rounding after
    // each effect can add up to one step per effect, so allow two per effect here).
    let per_pixel: Vec<Effect> = stack.iter().copied().filter(|e| !matches!(e, Effect::Blur { .. })).collect();
    check(&per_pixel, 2, 2.0, &gpu(&mut r, &img, &per_pixel), &reference::apply(&img, &per_pixel)).unwrap();
}

#[test]
fn more_distinct_runs_than_the_pipeline_cache_holds_still_render() {
    // 70 different runs of per-pixel effects, each after a small full-size blur: one frame needs
    // more fused pipelines than the renderer keeps (64), and every one must be there.
    let mut r = renderer();
    let img = test_image(64, 36);
    let runs: Vec<Vec<Effect>> = (0..70u32)
        .map(|i| {
            let digits = [i % 6, (i / 6) % 6, i / 36];
            let run: Vec<Effect> = digits[..1 + (i >= 6) as usize + (i >= 36) as usize]
                .iter()
                .map(|d| match d {
                    0 => Effect::BrightnessContrast { brightness: 0.02, contrast: 1.0 },
                    1 => Effect::Grayscale { intensity: 10.0 },
                    2 => Effect::Saturation { saturation: 110.0 },
                    3 => Effect::Sepia { intensity: 5.0 },
                    4 => Effect::Invert { intensity: 100.0 },
                    _ => Effect::Vignette { radius: 90.0, softness: 10.0 },
                })
                .collect();
            run
        })
        .collect();
    let mut stack = Vec::new();
    for run in &runs {
        stack.push(Effect::Blur { intensity: 60.0 });
        stack.extend(run.iter().copied());
    }
    let (got, want) = (gpu(&mut r, &img, &stack), reference::apply(&img, &stack));
    let (m, avg) = diff(&got, &want);
    eprintln!("{} effects in 70 runs: max |Δ| {m}, mean {avg:.4}", stack.len());
    assert!(avg <= BLUR_MEAN, "mean |Δ| {avg}");
    // And every pixel: an error at a few pixels (an edge, a corner) barely moves the mean. Each
    // blur is full size (sigma 0.4 px) and every effect is rounded to 1/255 as in the
    // reference, so the differences do not add up over the 238 effects: held to one blur's and
    // one per-pixel effect's bound (measured on lavapipe: 2/255).
    assert!(m <= BLUR_MAX + PIXEL_MAX, "max |Δ| {m}/255 over 70 runs");
    // Again, now that the cache holds the last ones: the same picture.
    assert_eq!(gpu(&mut r, &img, &stack), got);
}

#[test]
fn no_effects_and_identity_parameters_return_the_source_exactly() {
    let mut r = renderer();
    let img = test_image(97, 61);
    assert_eq!(gpu(&mut r, &img, &[]), img);
    let neutral = [Effect::Blur { intensity: 0.0 }, Effect::Invert { intensity: 0.0 }, Effect::Saturation { saturation: 100.0 }];
    assert_eq!(gpu(&mut r, &img, &neutral), img);
}

#[test]
fn resizing_between_frames_reuses_the_renderer() {
    let mut r = renderer();
    let e = [Effect::Blur { intensity: 80.0 }, Effect::Sepia { intensity: 100.0 }];
    let mut textures: Vec<((u32, u32), wgpu::Texture, wgpu::Texture)> = Vec::new();
    for (w, h) in [(480, 270), (480, 270), (64, 48), (1, 1), (333, 77), (333, 77), (480, 270)] {
        let img = test_image(w, h);
        let got = gpu(&mut r, &img, &e);
        assert_eq!(r.size(), Some((w, h)));
        let (m, avg) = diff(&got, &reference::apply(&img, &e));
        eprintln!("{w}x{h}: max |Δ| {m}, mean {avg:.4}");
        // The stack's bound (docs/effects.md): 2/255 per effect where the blur is full size, the
        // reduced blur's bound where it may be reduced.
        let max = if may_be_reduced(80.0, w, h) { BLUR_MAX_REDUCED } else { PIXEL_MAX * e.len() as u8 };
        check(&e, max, BLUR_MEAN, &got, &reference::apply(&img, &e)).unwrap();
        let (source, output) = (r.source_texture().unwrap().clone(), r.output_texture().unwrap().clone());
        textures.push(((w, h), source, output));
    }
    // A frame of the same size reuses the textures; a new size makes new ones.
    for pair in textures.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let same_size = a.0 == b.0;
        assert_eq!(a.1 == b.1, same_size, "source texture reused from {:?} to {:?}: {}", a.0, b.0, a.1 == b.1);
        assert_eq!(a.2 == b.2, same_size, "output texture reused from {:?} to {:?}: {}", a.0, b.0, a.2 == b.2);
    }
    assert!(r.resize(0, 10).is_err());
    assert!(r.resize(r.max_size() + 1, 10).is_err());
}
