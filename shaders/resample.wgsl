// Resamples the source to the target size with one bilinear read at each target pixel centre.
// Halving a size this way averages each 2x2 block; doubling it interpolates. The blur uses it
// to work on a smaller copy of the frame when sigma is large (see docs/effects.md).
struct Params {
    // xy: 1 / target size in pixels.
    v: vec4<f32>,
}
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var linear_clamp: sampler;
@group(0) @binding(2) var<uniform> params: Params;

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    return textureSampleLevel(src, linear_clamp, pos.xy * params.v.xy, 0.0);
}
