// Copies the source texel for texel (used to present the result on a canvas).
@group(0) @binding(0) var src: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(src, vec2<i32>(pos.xy), 0);
}
