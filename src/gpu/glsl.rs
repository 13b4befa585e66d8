//! The shaders of `shaders/` as GLSL ES 3.00, for the WebGL2 executor (`gl/`). naga translates
//! the WGSL ahead of time: `glsl_generated.rs` is its output, written by the test below
//! (`NEURALCUT_BLESS=1 cargo test --features gpu --lib gpu::glsl`) and checked by it on every
//! run, so the WGSL stays the one source and the shipped module carries no shader translator.
//!
//! The two run-time edits mirror the WGSL ones: the fused per-pixel pass gets its `Params`
//! fields and its calls ([`pixel_fragment`], as [`super::plan::pixel_shader`] does on the WGSL),
//! and the compositor's blend mode, a WGSL `override`, becomes a constant ([`composite_fragment`]).

use super::plan::PixelKey;

/// One translated entry point: its source and the names WebGL2 binds its resources by (GLSL ES
/// 3.00 has no `layout(binding = …)`), each with the WGSL group and binding it stands for.
#[derive(Clone, Copy, Debug)]
pub struct GlslShader {
    pub source: &'static str,
    /// Sampler uniforms (a texture, with its sampler when it has one).
    pub textures: &'static [(&'static str, u32, u32)],
    /// Uniform blocks.
    pub blocks: &'static [(&'static str, u32, u32)],
}

include!("glsl_generated.rs");

/// The `ops` function of the pixel templates as naga writes it: it returns its input, and
/// [`pixel_fragment`] gives it the run's calls. It reads the uniform block so that the template
/// declares it even where the read does not use it.
const OPS_STUB: &str = "vec4 ops(vec4 ops_c, vec2 ops_pos) {\n    Read ops_read = _group_0_binding_2_fs.read;\n    return ops_c;\n}";
/// `Params` as naga writes it for the template (only the read).
const PARAMS_STUB: &str = "struct Params {\n    Read read;\n};";
/// The value the compositor's template gives `MODE`, replaced by the real mode.
const MODE_STUB: &str = "const int MODE = 1234567;";

/// The fused pass for `key` in GLSL: the translated template with one `Params` field per effect
/// and the effects' calls, rounding between them, as [`super::plan::pixel_shader`] writes them
/// in WGSL (the same field names, so the block layout is the same std140 one).
pub fn pixel_fragment(key: &PixelKey) -> String {
    let template = if key.sample { PIXEL_SAMPLE_FS } else { PIXEL_LOAD_FS };
    let uniform = template.blocks[0].0;
    let mut fields = String::from("struct Params {\n    Read read;\n");
    let mut body = String::from("vec4 ops(vec4 ops_c, vec2 ops_pos) {\n    vec4 c = ops_c;\n    vec2 pos = ops_pos;\n");
    if key.sample && !key.ops.is_empty() {
        body.push_str("    c = q(c);\n");
    }
    for (i, op) in key.ops.iter().enumerate() {
        fields.push_str(&format!("    {} effect_{};\n", op.params_struct(), i + 1));
        if i > 0 {
            body.push_str("    c = q(c);\n");
        }
        body.push_str(&format!("    c = {}(c, {}.effect_{}, pos);\n", op.function(), uniform_instance(uniform), i + 1));
    }
    fields.push_str("};");
    body.push_str("    return c;\n}");
    template.source.replacen(PARAMS_STUB, &fields, 1).replacen(OPS_STUB, &body, 1)
}

/// The instance name naga gives a uniform block: the block `Params_block_0Fragment` is declared
/// as `uniform Params_block_0Fragment { Params _group_0_binding_2_fs; };`.
fn uniform_instance(block: &str) -> &'static str {
    let source = PIXEL_LOAD_FS.source;
    let declaration = format!("uniform {block} {{ Params ");
    let at = source.find(&declaration).expect("the template declares its block") + declaration.len();
    let rest = &source[at..];
    &rest[..rest.find(';').expect("a declaration ends")]
}

/// composite.wgsl's full-screen layer pass for blend mode `mode` (an index in
/// [`crate::frame::BLEND_MODES`]).
pub fn composite_fragment(mode: u8) -> String {
    COMPOSITE_FS.source.replacen(MODE_STUB, &format!("const int MODE = {mode};"), 1)
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::super::plan::{pixel_shader, PixelEffect, PixelKey};
    use super::*;

    const FILE: &str = "src/gpu/glsl_generated.rs";

    /// One entry point of `wgsl` in GLSL ES 3.00 for WebGL2, with overrides set. The vertex stage
    /// flips y (naga's ADJUST_COORDINATE_SPACE), so textures keep WebGPU's row order: row 0 is the
    /// top row and gl_FragCoord is WGSL's @builtin(position).
    fn translate(name: &str, wgsl: &str, stage: naga::ShaderStage, entry: &str, constants: &[(&str, f64)]) -> String {
        let module = naga::front::wgsl::parse_str(wgsl).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(wgsl)));
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(wgsl)));
        let constants: naga::back::PipelineConstants = constants.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let (module, info) = naga::back::pipeline_constants::process_overrides(&module, &info, Some((stage, entry)), &constants).expect("overrides");
        let options = naga::back::glsl::Options {
            version: naga::back::glsl::Version::Embedded { version: 300, is_webgl: true },
            writer_flags: naga::back::glsl::WriterFlags::ADJUST_COORDINATE_SPACE,
            binding_map: Default::default(),
            zero_initialize_workgroup_memory: false,
        };
        let pipeline = naga::back::glsl::PipelineOptions { shader_stage: stage, entry_point: entry.into(), multiview: None };
        let mut source = String::new();
        let mut writer = naga::back::glsl::Writer::new(&mut source, &module, &info, &options, &pipeline, naga::proc::BoundsCheckPolicies::default())
            .unwrap_or_else(|e| panic!("{name} {entry}: {e:?}"));
        let reflection = writer.write().unwrap_or_else(|e| panic!("{name} {entry}: {e:?}"));
        let binding = |handle: naga::Handle<naga::GlobalVariable>| {
            let b = module.global_variables[handle].binding.as_ref().expect("a bound global");
            (b.group, b.binding)
        };
        let mut textures: Vec<(String, u32, u32)> =
            reflection.texture_mapping.iter().map(|(n, m)| (n.clone(), binding(m.texture).0, binding(m.texture).1)).collect();
        let mut blocks: Vec<(String, u32, u32)> = reflection.uniforms.iter().map(|(h, n)| (n.clone(), binding(*h).0, binding(*h).1)).collect();
        textures.sort();
        blocks.sort();
        let konst = format!("{}_{}", name, if stage == naga::ShaderStage::Vertex { "VS" } else { "FS" });
        let mut out = format!("/// {name}: `{entry}`.\npub const {konst}: GlslShader = GlslShader {{\n    source: {source:?},\n    textures: &[");
        for (n, g, b) in &textures {
            let _ = write!(out, "({n:?}, {g}, {b}), ");
        }
        out.push_str("],\n    blocks: &[");
        for (n, g, b) in &blocks {
            let _ = write!(out, "({n:?}, {g}, {b}), ");
        }
        out.push_str("],\n};\n\n");
        out
    }

    /// The pixel template: the fused pass with no effects whose entry point ends in a call to
    /// `ops`, the function [`pixel_fragment`] fills in.
    fn pixel_template(sample: bool) -> String {
        let wgsl = pixel_shader(&PixelKey { sample, ops: Vec::new() });
        assert!(wgsl.contains("    return c;\n}"), "pixel.wgsl's entry point returns c");
        wgsl.replace("    return c;\n}", "    return ops(c, pos.xy);\n}")
            + "\nfn ops(ops_c: vec4<f32>, ops_pos: vec2<f32>) -> vec4<f32> {\n    let ops_read = params.read;\n    return ops_c;\n}\n"
    }

    fn generated() -> String {
        use naga::ShaderStage::{Fragment, Vertex};
        let composite = include_str!("../../shaders/composite.wgsl");
        let mode = [("MODE", 1234567.0)];
        let mut out = String::from(
            "// Generated by naga from shaders/*.wgsl (src/gpu/glsl.rs: NEURALCUT_BLESS=1 cargo test --features gpu --lib gpu::glsl). Do not edit.\n\n",
        );
        out += &translate("FULLSCREEN", include_str!("../../shaders/fullscreen.wgsl"), Vertex, "vs_main", &[]);
        out += &translate("BLUR", include_str!("../../shaders/blur.wgsl"), Fragment, "fs_main", &[]);
        out += &translate("PIXEL_LOAD", &pixel_template(false), Fragment, "fs_main", &[]);
        out += &translate("PIXEL_SAMPLE", &pixel_template(true), Fragment, "fs_main", &[]);
        out += &translate("COMPOSITE", composite, Fragment, "fs_main", &mode);
        out += &translate("QUAD", composite, Vertex, "vs_quad", &mode);
        out += &translate("QUAD", composite, Fragment, "fs_quad", &mode);
        out
    }

    #[test]
    fn the_generated_glsl_is_naga_s_translation_of_the_wgsl() {
        let want = generated();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
        if std::env::var_os("NEURALCUT_BLESS").is_some() {
            std::fs::write(&path, &want).expect("write the generated GLSL");
            panic!("wrote {FILE}; run again without NEURALCUT_BLESS");
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(have == want, "{FILE} is out of date with shaders/*.wgsl: run NEURALCUT_BLESS=1 cargo test --features gpu --lib gpu::glsl");
    }

    #[test]
    fn the_run_time_edits_find_their_places() {
        assert!(PIXEL_LOAD_FS.source.contains(OPS_STUB) && PIXEL_SAMPLE_FS.source.contains(OPS_STUB));
        assert!(PIXEL_LOAD_FS.source.contains(PARAMS_STUB) && PIXEL_SAMPLE_FS.source.contains(PARAMS_STUB));
        assert!(COMPOSITE_FS.source.contains(MODE_STUB));
        assert_eq!(PIXEL_LOAD_FS.blocks, PIXEL_SAMPLE_FS.blocks);
        let all =
            [PixelEffect::BrightnessContrast, PixelEffect::Grayscale, PixelEffect::Saturation, PixelEffect::Sepia, PixelEffect::Invert, PixelEffect::Vignette];
        for sample in [false, true] {
            let glsl = pixel_fragment(&PixelKey { sample, ops: all.to_vec() });
            assert!(!glsl.contains(OPS_STUB) && !glsl.contains(PARAMS_STUB));
            for (i, op) in all.iter().enumerate() {
                assert!(glsl.contains(&format!("    {} effect_{};\n", op.params_struct(), i + 1)), "{glsl}");
                assert!(glsl.contains(&format!("vec4 {}(vec4 ", op.function())), "the template defines {}", op.function());
                assert!(glsl.contains(&format!("c = {}(c, _group_0_binding_2_fs.effect_{}, pos);", op.function(), i + 1)), "{glsl}");
            }
        }
        assert!(composite_fragment(13).contains("const int MODE = 13;"));
    }
}
