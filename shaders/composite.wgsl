// composite: draws one layer (a transformed quad) over the picture so far, with opacity and a
// blend mode (W3C Compositing and Blending, the modes of CSS mix-blend-mode that OpenCut uses).
// Two ways (docs/render.md, "How it draws"):
// - vs_quad + fs_quad: a normal layer over an opaque picture is the quad itself, drawn into the
//   picture with fixed-function "over" blending: only the covered pixels, no backdrop read.
// - vs_main (fullscreen.wgsl) + fs_main: any other blend mode, or a picture with transparency,
//   is a full-screen pass that reads the backdrop and writes the other accumulation texture.
// Colours are sRGB-encoded values, as Canvas2D blends them.
// Matched field for field by gpu::uniforms::Layer.
struct Layer {
    // Target pixel p = (x, y, 1) -> layer uv: u = dot(to_u, p), v = dot(to_v, p).
    to_u: vec3<f32>,
    opacity: f32,
    to_v: vec3<f32>,
    _pad: f32,
    // The picture's size in pixels.
    target_size: vec2<f32>,
}
// The blend mode (index in crate::frame::BLEND_MODES), fixed per pipeline so a software GPU
// compiles only the mode in use.
override MODE: i32 = 0;
@group(0) @binding(0) var backdrop: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var<uniform> layer: Layer;
@group(1) @binding(0) var src: texture_2d<f32>;

fn lum(c: vec3<f32>) -> f32 {
    return dot(c, vec3<f32>(0.3, 0.59, 0.11));
}

fn clip_color(c: vec3<f32>) -> vec3<f32> {
    let l = lum(c);
    let n = min(c.r, min(c.g, c.b));
    let x = max(c.r, max(c.g, c.b));
    var o = c;
    if (n < 0.0) {
        o = l + (o - l) * l / max(l - n, 1e-6);
    }
    if (x > 1.0) {
        o = l + (o - l) * (1.0 - l) / max(x - l, 1e-6);
    }
    return o;
}

fn set_lum(c: vec3<f32>, l: f32) -> vec3<f32> {
    return clip_color(c + (l - lum(c)));
}

fn sat(c: vec3<f32>) -> f32 {
    return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b));
}

fn set_sat(c: vec3<f32>, s: f32) -> vec3<f32> {
    let n = min(c.r, min(c.g, c.b));
    let x = max(c.r, max(c.g, c.b));
    if (x <= n) {
        return vec3<f32>(0.0);
    }
    return (c - n) * s / (x - n);
}

fn color_dodge(b: f32, s: f32) -> f32 {
    if (b <= 0.0) { return 0.0; }
    if (s >= 1.0) { return 1.0; }
    return min(1.0, b / (1.0 - s));
}

fn color_burn(b: f32, s: f32) -> f32 {
    if (b >= 1.0) { return 1.0; }
    if (s <= 0.0) { return 0.0; }
    return 1.0 - min(1.0, (1.0 - b) / s);
}

fn hard_light(b: f32, s: f32) -> f32 {
    if (s <= 0.5) { return b * 2.0 * s; }
    let t = 2.0 * s - 1.0;
    return b + t - b * t;
}

fn soft_light(b: f32, s: f32) -> f32 {
    if (s <= 0.5) { return b - (1.0 - 2.0 * s) * b * (1.0 - b); }
    var d = sqrt(b);
    if (b <= 0.25) { d = ((16.0 * b - 12.0) * b + 4.0) * b; }
    return b + (2.0 * s - 1.0) * (d - b);
}

fn per_channel(mode: i32, b: vec3<f32>, s: vec3<f32>) -> vec3<f32> {
    var o = vec3<f32>(0.0);
    for (var i = 0; i < 3; i++) {
        let cb = b[i];
        let cs = s[i];
        var r = cs;
        switch mode {
            case 3: { r = color_burn(cb, cs); }
            case 7: { r = color_dodge(cb, cs); }
            case 8: { r = hard_light(cs, cb); }
            case 9: { r = soft_light(cb, cs); }
            case 10: { r = hard_light(cb, cs); }
            default: { r = cs; }
        }
        o[i] = r;
    }
    return o;
}

fn blend(mode: i32, b: vec3<f32>, s: vec3<f32>) -> vec3<f32> {
    switch mode {
        case 1: { return min(b, s); }
        case 2: { return b * s; }
        case 4: { return max(b, s); }
        case 5: { return b + s - b * s; }
        case 6: { return min(b + s, vec3<f32>(1.0)); }
        case 11: { return abs(b - s); }
        case 12: { return b + s - 2.0 * b * s; }
        case 13: { return set_lum(set_sat(s, sat(b)), lum(b)); }
        case 14: { return set_lum(set_sat(b, sat(s)), lum(b)); }
        case 15: { return set_lum(s, lum(b)); }
        case 16: { return set_lum(b, lum(s)); }
        case 3, 7, 8, 9, 10: { return per_channel(mode, b, s); }
        default: { return s; }
    }
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let dst = textureLoad(backdrop, vec2<i32>(pos.xy), 0);
    let p = vec3<f32>(pos.xy, 1.0);
    let uv = vec2<f32>(dot(layer.to_u, p), dot(layer.to_v, p));
    // Sampled everywhere (uniform control flow), masked outside the quad.
    var s = textureSampleLevel(src, smp, uv, 0.0);
    let inside = all(uv >= vec2<f32>(0.0)) && all(uv <= vec2<f32>(1.0));
    let a = select(0.0, s.a * layer.opacity, inside);
    let mode = MODE;
    // Straight alpha in and out: co = as(1 - ab)Cs + as·ab·B(Cb, Cs) + (1 - as)ab·Cb.
    let mixed = mix(s.rgb, blend(mode, dst.rgb, s.rgb), dst.a);
    let ao = a + dst.a * (1.0 - a);
    let co = a * mixed + (1.0 - a) * dst.a * dst.rgb;
    let rgb = select(vec3<f32>(0.0), co / max(ao, 1e-6), ao > 0.0);
    return vec4<f32>(clamp(rgb, vec3<f32>(0.0), vec3<f32>(1.0)), ao);
}

struct QuadOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

// The layer's corners: vertex i of a 4-vertex strip is uv (i & 1, i >> 1), taken back to target
// pixels through the inverse of the uv mapping, then to clip space.
@vertex
fn vs_quad(@builtin(vertex_index) i: u32) -> QuadOut {
    let uv = vec2<f32>(f32(i & 1u), f32((i >> 1u) & 1u));
    let a = layer.to_u.x;
    let b = layer.to_u.y;
    let c = layer.to_v.x;
    let d = layer.to_v.y;
    let du = uv.x - layer.to_u.z;
    let dv = uv.y - layer.to_v.z;
    let det = a * d - b * c;
    let p = vec2<f32>(d * du - b * dv, a * dv - c * du) / det;
    let size = layer.target_size;
    var out: QuadOut;
    out.pos = vec4<f32>(p.x / size.x * 2.0 - 1.0, 1.0 - p.y / size.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

// Straight alpha out; the pipeline's blend state does "over" (colour: a, 1 - a; alpha: 1, 1 - a).
@fragment
fn fs_quad(in: QuadOut) -> @location(0) vec4<f32> {
    let s = textureSample(src, smp, in.uv);
    return vec4<f32>(s.rgb, s.a * layer.opacity);
}
