// vignette: c' = c * (1 - smoothstep(r, r + s, d)), d = distance from the centre over the
// centre-to-corner distance, in pixels. See docs/effects.md.
struct Params {
    // x: radius / 100, y: softness / 100
    v: vec4<f32>,
}
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(2) var<uniform> params: Params;

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let c = textureLoad(src, vec2<i32>(pos.xy), 0);
    let half_size = vec2<f32>(textureDimensions(src)) * 0.5;
    let d = length(pos.xy - half_size) / length(half_size);
    let r = params.v.x;
    let t = clamp((d - r) / params.v.y, 0.0, 1.0);
    let f = 1.0 - t * t * (3.0 - 2.0 * t);
    return vec4<f32>(clamp(c.rgb * f, vec3<f32>(0.0), vec3<f32>(1.0)), c.a);
}
