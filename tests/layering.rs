//! Architecture invariant: the core knows nothing of JS. No file under `src/` outside the boundary
//! modules may use `wasm_bindgen`, `js_sys` or `web_sys` in code (comments and string literals
//! are not code). The boundary is `src/wasm/` (the JS API), `src/media_wasm/` (the media meters' API) and `src/gpu/` (the wgpu renderer, whose
//! browser half talks to canvases through web-sys).

use std::fs;
use std::path::{Path, PathBuf};

/// Directories under `src/` that may talk to JS.
const BOUNDARY: &[&str] = &["src/wasm", "src/media_wasm", "src/gpu"];

const FORBIDDEN: &[&str] = &["wasm_bindgen", "js_sys", "web_sys"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.expect("readable directory entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

fn is_boundary(path: &Path) -> bool {
    let rel = path.strip_prefix(root()).expect("under the crate root");
    BOUNDARY.iter().any(|b| rel.starts_with(b))
}

/// The source with comments and string/char literals blanked out, so only code remains. Line
/// structure is kept for error messages.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| {
        for &c in s {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (0usize, 0usize);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if let Some(len) = raw_string_len(rest) {
            blank(&mut out, &rest[..len]);
            i += len;
        } else if let Some(len) = char_literal_len(&src[i..]) {
            blank(&mut out, &rest[..len]);
            i += len;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else {
            // Copy one whole UTF-8 character.
            let ch = src[i..].chars().next().expect("in bounds");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Length of a char literal (`'"'`, `'\''`, `'\u{1F600}'`) starting at `s`; `None` for a
/// lifetime such as `'a`.
fn char_literal_len(s: &str) -> Option<usize> {
    let rest = s.strip_prefix('\'')?;
    if let Some(escaped) = rest.strip_prefix('\\') {
        // Skip the escaped character, then find the closing quote.
        let first = escaped.chars().next()?;
        let after = &escaped[first.len_utf8()..];
        return after.find('\'').map(|end| 2 + first.len_utf8() + end + 1);
    }
    let ch = rest.chars().next()?;
    rest[ch.len_utf8()..].starts_with('\'').then(|| 1 + ch.len_utf8() + 1)
}

/// Length of a raw string literal (`r"…"`, `r#"…"#`, `br"…"`) starting at `s`, if one does.
fn raw_string_len(s: &[u8]) -> Option<usize> {
    let start = if s.starts_with(b"br") {
        2
    } else if s.starts_with(b"r") {
        1
    } else {
        return None;
    };
    let hashes = s[start..].iter().take_while(|&&c| c == b'#').count();
    if s.get(start + hashes) != Some(&b'"') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
    let body = start + hashes + 1;
    let end = s[body..].windows(close.len()).position(|w| w == close.as_slice())?;
    Some(body + end + close.len())
}

/// Every forbidden name used as code in `src`: (line number, name).
fn violations(src: &str) -> Vec<(usize, &'static str)> {
    let code = code_only(src);
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for name in FORBIDDEN {
            let mut from = 0;
            while let Some(at) = line[from..].find(name) {
                let (s, e) = (from + at, from + at + name.len());
                let ident = |c: char| c.is_alphanumeric() || c == '_';
                let before = line[..s].chars().next_back().is_some_and(ident);
                let after = line[e..].chars().next().is_some_and(ident);
                if !before && !after {
                    found.push((n + 1, *name));
                }
                from = e;
            }
        }
    }
    found
}

#[test]
fn core_modules_do_not_use_js_bindings() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let core: Vec<&PathBuf> = files.iter().filter(|p| !is_boundary(p)).collect();

    // A scan that finds nothing proves nothing: make sure it really read the core.
    assert!(core.len() >= 20, "only {} core files found under src/", core.len());
    for must in
        ["src/lib.rs", "src/editor.rs", "src/edits.rs", "src/history.rs", "src/time.rs", "src/model/mod.rs", "src/tools/registry.rs", "src/effects/mod.rs"]
    {
        assert!(core.iter().any(|p| p.ends_with(must)), "{must} was not scanned");
    }
    let mut scanned_bytes = 0;
    let mut bad = Vec::new();
    for path in &core {
        let src = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        scanned_bytes += src.len();
        for (line, name) in violations(&src) {
            bad.push(format!("{}:{line}: {name}", path.strip_prefix(root()).unwrap().display()));
        }
    }
    assert!(scanned_bytes > 50_000, "scanned only {scanned_bytes} bytes of core source");
    // The same detector does see the boundary's real uses, so a clean core means something.
    let boundary_uses: usize = files.iter().filter(|p| is_boundary(p)).map(|p| violations(&fs::read_to_string(p).unwrap()).len()).sum();
    if root().join("src/wasm").is_dir() {
        assert!(boundary_uses > 0, "the detector found no wasm_bindgen use even in src/wasm/");
    }
    assert!(bad.is_empty(), "core modules must not use JS bindings (move this to a boundary module: {BOUNDARY:?}):\n{}", bad.join("\n"));
}

/// The core builds without the JS crates: Cargo.toml only pulls them in for wasm32.
#[test]
fn js_crates_are_wasm_only_dependencies() {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let mut section = String::new();
    let mut seen = 0;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        let name = line.split(['=', ' ']).next().unwrap_or("");
        if ["wasm-bindgen", "js-sys", "web-sys", "wasm-bindgen-futures"].contains(&name) {
            seen += 1;
            assert!(
                section.contains("target_arch = \"wasm32\"") && section.contains("dependencies"),
                "{name} is declared in {section}, not in a wasm32-only dependency table"
            );
        }
    }
    assert!(seen >= 1, "expected wasm-bindgen among the wasm32 dependencies");
}

#[test]
fn the_detector_finds_real_uses_and_ignores_comments_and_strings() {
    assert_eq!(violations("use wasm_bindgen::prelude::*;"), vec![(1, "wasm_bindgen")]);
    assert_eq!(violations("fn f() {\n    let x = js_sys::Date::now();\n}"), vec![(2, "js_sys")]);
    assert_eq!(violations("#[cfg_attr(target_arch = \"wasm32\", wasm_bindgen)]"), vec![(1, "wasm_bindgen")]);
    assert_eq!(violations("extern crate web_sys;"), vec![(1, "web_sys")]);
    assert!(violations("// no wasm_bindgen, js_sys or web_sys here").is_empty());
    assert!(violations("/* web_sys /* nested js_sys */ still comment wasm_bindgen */ fn f() {}").is_empty());
    assert!(violations("//! Docs: the core never imports js_sys.").is_empty());
    assert!(violations("let s = \"wasm_bindgen is a crate\";").is_empty());
    assert!(violations("let s = r#\"js_sys \"quoted\" web_sys\"#;").is_empty());
    assert!(violations("let my_js_sys_count = 1; let web_sysx = 2;").is_empty(), "only whole identifiers count");
    assert_eq!(violations("let s = \"a\\\"b\"; use web_sys::Window;"), vec![(1, "web_sys")]);
    // A quote as a char literal does not start a string that would hide what follows.
    assert_eq!(violations("if c == b'\"' { js_sys::eval(); }"), vec![(1, "js_sys")]);
    assert_eq!(violations("let q = '\\''; let t = '\\u{22}'; web_sys::window();"), vec![(1, "web_sys")]);
    assert_eq!(violations("fn f<'a>(x: &'a str) -> &'a str { wasm_bindgen::x(); x }"), vec![(1, "wasm_bindgen")]);
}

// ---- module direction -------------------------------------------------------------------------
//
// Architecture invariant (docs/ARCHITECTURE.md, "Layers"): core → engine → tools → adapters →
// boundary, and nothing names a layer above it. KNOWN_UPWARD would list, file by file, imports
// that still run upward; it is empty since issue 31 (the core and the engine read the OpenCut
// adapter's stash and units, and the editor named the tools). A new upward import fails the test,
// and so does a listed one that is gone, so the list only shrinks.

/// A top-level module of `src/` and its layer (0 is the lowest).
const LAYERS: &[(&str, u8)] = &[
    ("time", 0),
    ("sort", 0),
    ("text", 0),
    ("error_code", 0),
    ("model", 0),
    ("properties", 0),
    ("animation", 0),
    ("edits", 0),
    ("ranges", 0),
    ("main_start", 0),
    ("scenes", 0),
    ("silence", 0),
    ("history", 0),
    ("masks", 0),
    ("effects", 0),
    ("stickers", 0),
    ("graphics", 0),
    ("editor", 1),
    ("frame", 1),
    ("audio", 1),
    ("tools", 2),
    ("opencut", 3),
    ("wasm", 4),
    ("media_wasm", 4),
    ("gpu", 4),
];

/// (file, the module above it that it names): the upward imports that remain, each to be removed.
const KNOWN_UPWARD: &[(&str, &str)] = &[];

/// Items lib.rs re-exports at the crate root, and the module each comes from: `crate::Editor`
/// names the tools layer as surely as `crate::tools::Editor` does.
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("Editor", "tools"),
    ("ToolError", "tools"),
    ("ApiError", "editor"),
    ("AssetOptions", "editor"),
    ("Document", "editor"),
    ("FpsOption", "editor"),
    ("NewAsset", "editor"),
    ("ErrorCode", "error_code"),
    ("TICKS_PER_SECOND", "time"),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The top-level module a file under `src/` belongs to (`None` for lib.rs, the crate root).
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.strip_prefix("src").ok()?.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
    (name != "lib").then_some(name)
}

/// The top-level modules `src` names as `crate::<module>` or inside `crate::{…}`, in code only.
fn named_modules(src: &str) -> Vec<String> {
    let code = code_only(src);
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back().is_some_and(|c| ident(c) || c == '$');
        rest = &rest[at + "crate::".len()..];
        if before {
            continue; // `$crate::` or `my_crate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item.trim().chars().take_while(|c| ident(*c)).collect();
                out.push(name);
            }
        } else {
            out.push(rest.chars().take_while(|c| ident(*c)).collect());
        }
    }
    out.retain(|n| !n.is_empty());
    out.sort();
    out.dedup();
    out
}

#[test]
fn modules_name_no_layer_above_their_own() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut upward: Vec<(String, String)> = Vec::new();
    let mut edges = 0;
    for path in &files {
        let rel = path.strip_prefix(root()).unwrap();
        let Some(module) = module_of(rel) else { continue };
        let own = layer(&module).unwrap_or_else(|| panic!("{}: module {module} has no layer in LAYERS", rel.display()));
        let src = fs::read_to_string(path).unwrap();
        for named in named_modules(&src) {
            let named = ROOT_ITEMS.iter().find(|(item, _)| *item == named).map_or(named, |(_, m)| m.to_string());
            let Some(theirs) = layer(&named) else { continue }; // an item of lib.rs, not a module
            edges += 1;
            if theirs > own {
                upward.push((rel.display().to_string(), named));
            }
        }
    }
    // A scan that finds nothing proves nothing.
    assert!(edges > 100, "only {edges} crate:: module references found");
    upward.sort();
    upward.dedup();
    let known: Vec<(String, String)> = KNOWN_UPWARD.iter().map(|(f, m)| (f.to_string(), m.to_string())).collect();
    let new: Vec<_> = upward.iter().filter(|e| !known.contains(e)).collect();
    let gone: Vec<_> = known.iter().filter(|e| !upward.contains(e)).collect();
    assert!(new.is_empty(), "imports that run upward (a module names a layer above its own; see docs/ARCHITECTURE.md, Layers): {new:?}");
    assert!(gone.is_empty(), "these upward imports are gone: remove them from KNOWN_UPWARD so they cannot come back: {gone:?}");
}

#[test]
fn the_module_scanner_reads_paths_and_groups_in_code_only() {
    assert_eq!(named_modules("use crate::opencut::STASH;"), vec!["opencut"]);
    assert_eq!(named_modules("let x = crate::tools::refs::Refs::default();"), vec!["tools"]);
    assert_eq!(named_modules("use crate::{model::Element, time};"), vec!["model", "time"]);
    // Every root re-export of lib.rs is mapped to its module.
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap();
    for line in code_only(&lib).lines().filter(|l| l.trim_start().starts_with("pub use ")) {
        let items = line.split_once("::").map_or("", |(_, rest)| rest).trim_end_matches(';');
        let items = items.rsplit_once('{').map_or_else(|| items.rsplit("::").next().unwrap_or(""), |(_, group)| group.trim_end_matches('}'));
        for item in items.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            assert!(ROOT_ITEMS.iter().any(|(i, _)| *i == item), "lib.rs re-exports {item}: add it to ROOT_ITEMS");
        }
    }
    assert!(named_modules("// crate::opencut in a comment\nlet s = \"crate::tools\";").is_empty());
    assert!(named_modules("macro_rules! m { () => { $crate::x } }").is_empty());
    assert_eq!(module_of(Path::new("src/tools/element/mod.rs")).as_deref(), Some("tools"));
    assert_eq!(module_of(Path::new("src/frame.rs")).as_deref(), Some("frame"));
    assert_eq!(module_of(Path::new("src/lib.rs")), None);
}
