// sepia: c' = mix(c, S c, intensity / 100), S the W3C sepia matrix. See docs/effects.md.
struct Params {
    // x: intensity / 100
    v: vec4<f32>,
}
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(2) var<uniform> params: Params;

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let c = textureLoad(src, vec2<i32>(pos.xy), 0);
    let s = vec3<f32>(
        dot(vec3<f32>(0.393, 0.769, 0.189), c.rgb),
        dot(vec3<f32>(0.349, 0.686, 0.168), c.rgb),
        dot(vec3<f32>(0.272, 0.534, 0.131), c.rgb),
    );
    let rgb = c.rgb + (s - c.rgb) * params.v.x;
    return vec4<f32>(clamp(rgb, vec3<f32>(0.0), vec3<f32>(1.0)), c.a);
}
