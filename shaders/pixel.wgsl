// The per-pixel effects, fused: one read and one write per pixel for a whole run of consecutive
// per-pixel effects (docs/effects.md). The renderer specialises this file for each run
// (gpu::plan::pixel_shader): it adds one `Params` field per effect (`effect_1: Vignette`, ...)
// at the "// effects" line and one call per effect, in order, at the "// ops" line, and may
// replace the read marked "// fetch" with a bilinear read at the target size (a blur's
// scale-up, so the effects after a blur cost no extra pass). As written here, the shader copies
// its input.
//
// Each effect's result is rounded to 1/255 before the next one, as the CPU reference does
// between effects. The structs below are matched field for field by src/gpu/uniforms.rs.

// Where a sampling read looks: uv = pos * scale + offset, in texture coordinates of the input.
struct Read {
    scale: vec2<f32>,
    offset: vec2<f32>,
}

struct BrightnessContrast {
    brightness: f32,
    contrast: f32,
}

// intensity / 100
struct Grayscale {
    amount: f32,
}

// saturation / 100
struct Saturation {
    factor: f32,
}

// intensity / 100
struct Sepia {
    amount: f32,
}

// intensity / 100
struct Invert {
    amount: f32,
}

// radius / 100 and softness / 100 (of the centre-to-corner distance); the frame size in pixels.
struct Vignette {
    radius: f32,
    softness: f32,
    frame_size: vec2<f32>,
}

struct Params {
    read: Read,
    // effects
}
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var linear_clamp: sampler;
@group(0) @binding(2) var<uniform> params: Params;

// Clamps to [0, 1] and rounds to the nearest 1/255, as an rgba8unorm write does.
fn q(c: vec4<f32>) -> vec4<f32> {
    return floor(clamp(c, vec4<f32>(0.0), vec4<f32>(1.0)) * 255.0 + 0.5) / 255.0;
}

fn luma(c: vec3<f32>) -> f32 {
    return dot(vec3<f32>(0.2126, 0.7152, 0.0722), c);
}

fn keep_alpha(rgb: vec3<f32>, c: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(clamp(rgb, vec3<f32>(0.0), vec3<f32>(1.0)), c.a);
}

// c' = (c - 0.5) * contrast + 0.5 + brightness.
fn brightness_contrast(c: vec4<f32>, p: BrightnessContrast, pos: vec2<f32>) -> vec4<f32> {
    return keep_alpha((c.rgb - vec3<f32>(0.5)) * p.contrast + vec3<f32>(0.5) + vec3<f32>(p.brightness), c);
}

// c' = mix(c, L(c), intensity / 100).
fn grayscale(c: vec4<f32>, p: Grayscale, pos: vec2<f32>) -> vec4<f32> {
    let l = luma(c.rgb);
    return keep_alpha(c.rgb + (vec3<f32>(l) - c.rgb) * p.amount, c);
}

// c' = L(c) + (c - L(c)) * saturation / 100.
fn saturation(c: vec4<f32>, p: Saturation, pos: vec2<f32>) -> vec4<f32> {
    let l = luma(c.rgb);
    return keep_alpha(vec3<f32>(l) + (c.rgb - vec3<f32>(l)) * p.factor, c);
}

// c' = mix(c, S c, intensity / 100), S the W3C sepia matrix.
fn sepia(c: vec4<f32>, p: Sepia, pos: vec2<f32>) -> vec4<f32> {
    let s = vec3<f32>(
        dot(vec3<f32>(0.393, 0.769, 0.189), c.rgb),
        dot(vec3<f32>(0.349, 0.686, 0.168), c.rgb),
        dot(vec3<f32>(0.272, 0.534, 0.131), c.rgb),
    );
    return keep_alpha(c.rgb + (s - c.rgb) * p.amount, c);
}

// c' = mix(c, 1 - c, intensity / 100).
fn invert(c: vec4<f32>, p: Invert, pos: vec2<f32>) -> vec4<f32> {
    return keep_alpha(c.rgb + ((vec3<f32>(1.0) - c.rgb) - c.rgb) * p.amount, c);
}

// c' = c * (1 - smoothstep(r, r + s, d)), d = distance from the centre over the centre-to-corner
// distance, in frame pixels.
fn vignette(c: vec4<f32>, p: Vignette, pos: vec2<f32>) -> vec4<f32> {
    let half_size = 0.5 * p.frame_size;
    let d = length(pos - half_size) / length(half_size);
    let t = clamp((d - p.radius) / p.softness, 0.0, 1.0);
    let f = 1.0 - t * t * (3.0 - 2.0 * t);
    return keep_alpha(c.rgb * f, c);
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    var c = textureLoad(src, vec2<i32>(pos.xy), 0); // fetch
    // ops
    return c;
}
