//! Every WGSL file under shaders/ parses and validates with naga (the version wgpu uses), and
//! every registered effect has its shader.

use std::path::Path;

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// The blur, the fused per-pixel effects (which also scale the blur's levels down and up), the
/// shared full-screen vertex stage, the copy used to present, and the frame compositor's layer
/// pass.
const EXPECTED_FILES: usize = 5;

fn wgsl_files() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "wgsl"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn every_wgsl_file_parses_and_validates() {
    let files = wgsl_files();
    assert_eq!(files.len(), EXPECTED_FILES, "found {:?}", files.iter().map(|f| &f.0).collect::<Vec<_>>());
    for (name, source) in &files {
        let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}.wgsl: {}", e.emit_to_string(source)));
        Validator::new(ValidationFlags::all(), Capabilities::empty())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}.wgsl does not validate: {}", e.emit_to_string(source)));
        use naga::ShaderStage::{Fragment, Vertex};
        // The compositor also draws normal layers as quads (vs_quad + fs_quad, docs/render.md).
        let expected: &[(naga::ShaderStage, &str)] = match name.as_str() {
            "fullscreen" => &[(Vertex, "vs_main")],
            "composite" => &[(Fragment, "fs_main"), (Vertex, "vs_quad"), (Fragment, "fs_quad")],
            _ => &[(Fragment, "fs_main")],
        };
        for (stage, entry) in expected {
            assert!(module.entry_points.iter().any(|ep| ep.stage == *stage && ep.name == *entry), "{name}.wgsl lacks its {stage:?} entry point {entry}");
        }
        assert_eq!(module.entry_points.len(), expected.len(), "{name}.wgsl has exactly its entry points");
    }
}

#[test]
fn every_registered_effect_has_a_shader() {
    // The blur has its own file; every other effect is a function of the fused pass, with the
    // signature the renderer calls and its own parameter struct (brightness-contrast:
    // `BrightnessContrast`).
    let files = wgsl_files();
    let pixel = &files.iter().find(|f| f.0 == "pixel").expect("shaders/pixel.wgsl").1;
    for effect in neuralcut::effects::EFFECTS.iter() {
        let name = effect.id.replace('-', "_");
        if name == "blur" {
            assert!(files.iter().any(|f| f.0 == "blur"), "no shaders/blur.wgsl");
        } else {
            let params: String = effect.id.split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect();
            assert!(pixel.contains(&format!("struct {params} {{")), "shaders/pixel.wgsl has no struct {params} for effect {}", effect.id);
            let signature = format!("fn {name}(c: vec4<f32>, p: {params}, pos: vec2<f32>) -> vec4<f32>");
            assert!(pixel.contains(&signature), "shaders/pixel.wgsl has no `{signature}` for effect {}", effect.id);
        }
    }
}
