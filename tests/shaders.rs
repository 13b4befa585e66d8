//! Every WGSL file under shaders/ parses and validates with naga (the version wgpu uses), and
//! every registered effect has its shader.

use std::path::Path;

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// 7 effects + the shared full-screen vertex stage + the copy used to present + the resampling
/// the blur uses for large sigmas + the frame compositor's layer pass.
const EXPECTED_FILES: usize = 11;

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
            assert!(
                module.entry_points.iter().any(|ep| ep.stage == *stage && ep.name == *entry),
                "{name}.wgsl lacks its {stage:?} entry point {entry}"
            );
        }
        assert_eq!(module.entry_points.len(), expected.len(), "{name}.wgsl has exactly its entry points");
    }
}

#[test]
fn every_registered_effect_has_a_shader() {
    let names: Vec<String> = wgsl_files().into_iter().map(|f| f.0).collect();
    for effect in neuralcut::effects::EFFECTS.iter() {
        let file = effect.id.replace('-', "_");
        assert!(names.contains(&file), "no shaders/{file}.wgsl for effect {}", effect.id);
    }
}
