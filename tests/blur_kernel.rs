//! The blur's kernel against a Gaussian computed here, from the definition in docs/effects.md:
//! radius `R = ceil(3σ)`, weights `exp(−i²/2σ²)` normalised so that the sum over `−R..R` is 1.
//! A kernel of another shape (`exp(−i²/σ²)`, another radius, another normalisation) fails, even
//! though it would still sum to 1. The GPU tests compare the renderer with the CPU reference image
//! built from this kernel, so this is what anchors them to a real Gaussian.

use neuralcut::effects::reference::blur_kernel;

/// `w[0..=R]` of the normalised Gaussian, in f64.
fn gaussian(sigma: f64) -> Vec<f64> {
    let r = (3.0 * sigma).ceil() as i64;
    let full: Vec<f64> = (-r..=r).map(|i| (-((i * i) as f64) / (2.0 * sigma * sigma)).exp()).collect();
    let total: f64 = full.iter().sum();
    full[r as usize..].iter().map(|w| w / total).collect()
}

#[test]
fn weights_are_the_normalised_gaussian() {
    for sigma in [0.3f32, 0.5, 0.8, 1.0, 1.5, 2.0, 2.7, 3.75, 7.5, 10.0, 13.75, 25.0, 50.0, 170.0] {
        let got = blur_kernel(sigma);
        let want = gaussian(sigma as f64);
        assert_eq!(got.len(), want.len(), "sigma {sigma}: radius");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let err = (*g as f64 - w).abs();
            assert!(err <= 1e-6 + 1e-4 * w, "sigma {sigma}: w[{i}] = {g}, Gaussian {w}");
        }
    }
}

#[test]
fn a_few_weights_written_out() {
    // σ = 1: R = 3, e^0, e^-1/2, e^-2, e^-9/2 over 1 + 2(e^-1/2 + e^-2 + e^-9/2) = 2.5060…
    let k = blur_kernel(1.0);
    let total = 1.0 + 2.0 * ((-0.5f64).exp() + (-2.0f64).exp() + (-4.5f64).exp());
    let want = [1.0 / total, (-0.5f64).exp() / total, (-2.0f64).exp() / total, (-4.5f64).exp() / total];
    assert_eq!(k.len(), 4);
    for (g, w) in k.iter().zip(want) {
        assert!((*g as f64 - w).abs() < 1e-6, "{k:?} vs {want:?}");
    }
    // The same to four places.
    let rounded: Vec<f64> = k.iter().map(|w| (*w as f64 * 1e4).round() / 1e4).collect();
    assert_eq!(rounded, [0.3991, 0.2420, 0.0540, 0.0044]);
    // σ = 2: R = 6.
    assert_eq!(blur_kernel(2.0).len(), 7);
    // σ = 2.5: R = ceil(7.5) = 8.
    assert_eq!(blur_kernel(2.5).len(), 9);
}

#[test]
fn tiny_sigmas_are_the_identity() {
    // Zero radius, or every neighbour weight under 1/1000 (σ ≲ 0.27 px): the input unchanged.
    for sigma in [0.0f32, 0.1, 0.2, 0.25] {
        assert_eq!(blur_kernel(sigma), vec![1.0], "sigma {sigma}");
    }
    // Just above: a real kernel of radius 1.
    let k = blur_kernel(0.3);
    assert_eq!(k.len(), 2);
    assert!(k[1] > 1e-3);
}
