// brightness-contrast: c' = (c - 0.5) * contrast + 0.5 + brightness. See docs/effects.md.
struct Params {
    // x: brightness in [-1, 1], y: contrast in [0, 3]
    v: vec4<f32>,
}
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(2) var<uniform> params: Params;

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let c = textureLoad(src, vec2<i32>(pos.xy), 0);
    let rgb = (c.rgb - vec3<f32>(0.5)) * params.v.y + vec3<f32>(0.5) + vec3<f32>(params.v.x);
    return vec4<f32>(clamp(rgb, vec3<f32>(0.0), vec3<f32>(1.0)), c.a);
}
