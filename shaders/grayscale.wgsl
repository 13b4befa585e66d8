// grayscale: c' = mix(c, L(c), intensity / 100), L with Rec. 709 weights. See docs/effects.md.
struct Params {
    // x: intensity / 100
    v: vec4<f32>,
}
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(2) var<uniform> params: Params;

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let c = textureLoad(src, vec2<i32>(pos.xy), 0);
    let l = dot(vec3<f32>(0.2126, 0.7152, 0.0722), c.rgb);
    let rgb = c.rgb + (vec3<f32>(l) - c.rgb) * params.v.x;
    return vec4<f32>(clamp(rgb, vec3<f32>(0.0), vec3<f32>(1.0)), c.a);
}
