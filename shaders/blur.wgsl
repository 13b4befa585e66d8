// blur: one pass of a separable Gaussian (run horizontally, then vertically). Neighbouring taps
// are merged into one bilinear sample placed between the two texels, so a kernel of radius R
// takes 1 + 2 * ceil(R / 2) samples. The tap table comes from reference::linear_taps; see
// docs/effects.md. The sampler is linear and clamps to the edge.
// Two neighbouring kernel taps merged into one bilinear read. A uniform array's stride is 16
// bytes, hence the padding.
struct Tap {
    // Distance from the centre, in texels.
    offset: f32,
    weight: f32,
    _pad: vec2<f32>,
}

// Matched field for field by gpu::uniforms::Blur.
struct Params {
    // One texel along the pass direction, in texture coordinates: (1/w, 0) or (0, 1/h).
    step: vec2<f32>,
    // Number of merged taps used on each side.
    pairs: u32,
    // Weight of the centre texel.
    centre: f32,
    taps: array<Tap, 256>,
}
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var linear_clamp: sampler;
@group(0) @binding(2) var<uniform> params: Params;

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let uv = pos.xy / vec2<f32>(textureDimensions(src));
    var acc = textureSampleLevel(src, linear_clamp, uv, 0.0) * params.centre;
    for (var i = 0u; i < params.pairs; i = i + 1u) {
        let tap = params.taps[i];
        let d = params.step * tap.offset;
        acc = acc + (textureSampleLevel(src, linear_clamp, uv + d, 0.0) + textureSampleLevel(src, linear_clamp, uv - d, 0.0)) * tap.weight;
    }
    return acc;
}
