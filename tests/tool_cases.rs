//! Data-driven tool tests: every file under `tests/cases/` is a list of calls with the exact
//! output or error they must give, checked at the JSON boundary.
//!
//! A case file:
//! ```json
//! { "tool": "split", "fixture": "demo", "cases": [
//!   { "name": "…", "fixture": "blank", "setup": [{ "tool": "…", "args": {} }],
//!     "tool": "…", "args": { … },
//!     "expect": { …exact output… }                 // or
//!     "expectError": { "error": "…", "code": "…" }, // every key given must match exactly
//!     "timeline": { …exact list_timeline after the call… },
//!     "elements": { "e24": { "trackId": "t3", …fields of the saved element, in ticks… }, "e99": null },
//!                                                  // a field given as null must be absent
//!     "undoLabels": ["…"],
//!     "noop": true } ] }                           // a successful edit meant to change nothing
//! ```
//! `tool` and `fixture` default to the file's. `"effects": ["blur"]` restricts the editor to the
//! effect types a host renders (`Editor::set_effects`) before the setup runs. A setup step with `"fails": true` must fail (to
//! check that failures leave history alone). Fixtures are `tests/fixtures/<name>.json`, plus
//! `none` (no project: `Editor::empty()`) and `new` (`Editor::new()`). Numbers compare by value.
//!
//! What a case must state: every error case its `code` as well as its `error`; every successful
//! edit (edit, batch, undo, redo) the state it leaves (`timeline` or `elements`), unless it is
//! marked `"noop": true`, in which case it must change nothing and push no undo step, while an
//! unmarked one must change the timeline.
//!
//! Beside what a case states, the harness checks on every call:
//! - a successful output matches its tool's output schema (each batch step its own tool's), with
//!   the `jsonschema` crate; an error has the shared error form (`error`, an UPPER_SNAKE `code`,
//!   an optional `hint`);
//! - a failed call leaves the project JSON and the history (undo/redo stacks) exactly as they were;
//! - a read-only call (and load_asset_context) changes nothing either;
//! - a successful edit that changes the timeline pushes exactly one undo entry labelled with the
//!   tool (clearing redo), undo gives back the previous project exactly and redo the new one; an
//!   edit that changes nothing pushes nothing;
//! - undo/redo move exactly one entry between the stacks, and the opposite call reverses them;
//! - the saved project still loads (so ids are unique, tracks hold no overlaps, trims fit their
//!   source) and reloading it gives the same JSON;
//! - after a successful edit, undo or redo, every element the case does not name is exactly as
//!   before (id, track, saved JSON; appearing or going is a change), and a named one changed only
//!   in the fields named; a `timeline` case names every element for the fields list_timeline
//!   shows (rule in full: tests/tool_cases/unnamed.rs, docs/testing.md).
//!
//! The project's `nextId` (the id allocator) is deliberately outside history: undo never gives an
//! id back, so ids are never reused. Project comparisons across undo ignore `nextId` and check it
//! never decreases.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Wake, Waker};

use neuralcut::model::{AssetType, Project};
use neuralcut::tools::context::{ContextProvider, ContextRequest, ContextStatus, ContextStep, ProviderReport};
use neuralcut::tools::registry::{self, Kind};
use neuralcut::tools::SPEC_MESSAGES;
use neuralcut::Editor;
use serde_json::{json, Map, Value};

// ---------------------------------------------------------------------------------------------
// JSON comparison

/// Where `actual` differs from `expected`: objects need the same keys, arrays the same length,
/// numbers the same value (2 == 2.0).
fn diff(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => (a.as_f64() != b.as_f64()).then(|| format!("{path}: expected {a}, got {b}")),
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            keys.into_iter().find_map(|k| match (a.get(k), b.get(k)) {
                (Some(x), Some(y)) => diff(x, y, &format!("{path}.{k}")),
                (Some(x), None) => Some(format!("{path}.{k}: missing (expected {x})")),
                (None, Some(y)) => Some(format!("{path}.{k}: unexpected {y}")),
                (None, None) => None,
            })
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Some(format!("{path}: expected {} items, got {}: {actual}", a.len(), b.len()));
            }
            a.iter().zip(b).enumerate().find_map(|(i, (x, y))| diff(x, y, &format!("{path}[{i}]")))
        }
        _ => (expected != actual).then(|| format!("{path}: expected {expected}, got {actual}")),
    }
}

/// Like [`diff`] but only for the keys `expected` names at the top level.
fn diff_subset(expected: &Map<String, Value>, actual: &Value, path: &str) -> Option<String> {
    expected.iter().find_map(|(k, x)| match actual.get(k) {
        Some(y) => diff(x, y, &format!("{path}.{k}")),
        None => Some(format!("{path}.{k}: missing (expected {x}) in {actual}")),
    })
}

// ---------------------------------------------------------------------------------------------
// Fixtures and editor state

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn fixture(name: &str) -> Editor {
    match name {
        "none" => Editor::empty(),
        "new" => Editor::new(),
        _ => Editor::from_json(&fixture_text(name)).unwrap_or_else(|e| panic!("fixture {name} does not load: {e}")),
    }
}

fn fixture_text(name: &str) -> String {
    let path = root().join("fixtures").join(format!("{name}.json"));
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
}

/// The demo project with the text `from` of its file written as `to`.
fn demo_with(from: &str, to: &str) -> Editor {
    let text = fixture_text("demo");
    assert!(text.contains(from), "{from} is in the demo fixture");
    Editor::from_json(&text.replace(from, to)).expect("the edited demo loads")
}

/// The project JSON (parsed) and the history's shape.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    project: Option<Value>,
    undo: Vec<String>,
    redo: usize,
}

fn snapshot(ed: &Editor) -> Snapshot {
    Snapshot {
        project: ed.project_json().map(|j| serde_json::from_str(&j).expect("project JSON parses")),
        undo: ed.history().undo_labels().map(str::to_string).collect(),
        redo: ed.history().redo_len(),
    }
}

fn without_next_id(project: &Option<Value>) -> Option<Value> {
    project.clone().map(|mut p| {
        p.as_object_mut().expect("project is an object").remove("nextId");
        p
    })
}

fn next_id(project: &Option<Value>) -> u64 {
    project.as_ref().and_then(|p| p["nextId"].as_u64()).unwrap_or(0)
}

/// The saved project must load again and save to the same JSON.
fn check_reloads(ed: &Editor) -> Result<(), String> {
    let Some(json) = ed.project_json() else { return Ok(()) };
    let again = Project::from_json(&json).map_err(|e| format!("saved project does not reload: {e}"))?;
    if again.to_json() != json {
        return Err("saved project changes when reloaded and saved".into());
    }
    Ok(())
}

/// Calls a tool and hands back its output as a JSON value.
fn call(ed: &mut Editor, name: &str, args: &Value) -> Result<Value, neuralcut::ToolError> {
    ed.call_tool(name, args)
}

/// The saved element with id `id`, with the id of the track that holds it.
fn saved_element(ed: &Editor, id: &str) -> Option<(String, Value)> {
    let project: Value = serde_json::from_str(&ed.project_json()?).ok()?;
    project["timeline"]["tracks"].as_array()?.iter().find_map(|t| {
        let e = t["elements"].as_array()?.iter().find(|e| e["id"] == id)?;
        Some((t["id"].as_str()?.to_string(), e.clone()))
    })
}

// ---------------------------------------------------------------------------------------------
// What a call did not name: tests/tool_cases/unnamed.rs

#[path = "tool_cases/unnamed.rs"]
mod unnamed;
use unnamed::check_unnamed_elements;

// ---------------------------------------------------------------------------------------------
// Running one case

struct CaseFile {
    path: PathBuf,
    tool: Option<String>,
    fixture: String,
    cases: Vec<Value>,
}

fn read_case_file(path: &Path) -> CaseFile {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let cases = v["cases"].as_array().unwrap_or_else(|| panic!("{}: no \"cases\" array", path.display())).clone();
    assert!(!cases.is_empty(), "{}: no cases", path.display());
    CaseFile { path: path.to_path_buf(), tool: v["tool"].as_str().map(str::to_string), fixture: v["fixture"].as_str().unwrap_or("demo").to_string(), cases }
}

const CASE_KEYS: &[&str] =
    &["name", "fixture", "effects", "setup", "tool", "args", "expect", "expectError", "timeline", "elements", "settings", "undoLabels", "noop", "note"];

// ---------------------------------------------------------------------------------------------
// Output schemas

/// The compiled output schema of each tool (made from its result type, tools/schema.rs; the one the MCP and WebMCP hosts
/// publish), validated with the `jsonschema` crate.
fn output_validator(tool: &str) -> &'static jsonschema::Validator {
    static VALIDATORS: OnceLock<HashMap<&'static str, jsonschema::Validator>> = OnceLock::new();
    let all = VALIDATORS.get_or_init(|| {
        registry::TOOLS
            .iter()
            .map(|t| {
                let schema = t.output_schema();
                let v = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: output schema does not compile: {e}", t.name));
                (t.name, v)
            })
            .collect()
    });
    all.get(tool).unwrap_or_else(|| panic!("no output schema for {tool}"))
}

/// The error form every tool shares: `{ error, code, hint?, ...data }`.
fn error_validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        jsonschema::validator_for(&json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "error": { "type": "string", "minLength": 1 },
                "code": { "type": "string", "pattern": "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$" },
                "hint": { "type": "string", "minLength": 1 },
            },
            "required": ["error", "code"],
            // Error data never reuses the names a success gives what was created or changed.
            "not": { "anyOf": [
                { "required": ["elementId"] }, { "required": ["trackId"] },
                { "required": ["elementIds"] }, { "required": ["assetId"] },
            ] },
        }))
        .expect("the error schema compiles")
    })
}

fn schema_errors(v: &jsonschema::Validator, instance: &Value) -> Option<String> {
    let errors: Vec<String> = v.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

/// Checks a successful output against its tool's schema, and each step of a batch against its
/// own tool's.
fn check_output_schema(tool: &str, out: &Value) -> Result<(), String> {
    if let Some(e) = schema_errors(output_validator(tool), out) {
        return Err(format!("{tool} output does not match its output schema: {e}\n  output: {out}"));
    }
    if tool == "batch" {
        for (i, step) in out["results"].as_array().into_iter().flatten().enumerate() {
            let step_tool = step["tool"].as_str().ok_or_else(|| format!("batch results[{i}] names no tool"))?;
            check_output_schema(step_tool, &step["result"]).map_err(|e| format!("batch results[{i}]: {e}"))?;
        }
    }
    Ok(())
}

fn run_case(file: &CaseFile, case: &Value) -> Result<(), String> {
    let obj = case.as_object().ok_or("a case is an object")?;
    if let Some(bad) = obj.keys().find(|k| !CASE_KEYS.contains(&k.as_str())) {
        return Err(format!("unknown case key \"{bad}\""));
    }
    let tool = case["tool"].as_str().or(file.tool.as_deref()).ok_or("no tool")?;
    let args = case.get("args").cloned().unwrap_or(json!({}));
    let fixture_name = case["fixture"].as_str().unwrap_or(&file.fixture);
    let mut ed = fixture(fixture_name);
    if let Some(effects) = case.get("effects") {
        let ids: Vec<&str> = effects.as_array().ok_or("effects is an array")?.iter().filter_map(Value::as_str).collect();
        ed.set_effects(&ids).map_err(|e| format!("effects: {e}"))?;
    }

    for (i, step) in case["setup"].as_array().into_iter().flatten().enumerate() {
        let name = step["tool"].as_str().ok_or_else(|| format!("setup[{i}]: no tool"))?;
        let result = call(&mut ed, name, step.get("args").unwrap_or(&Value::Null));
        match (result, step["fails"].as_bool().unwrap_or(false)) {
            (Ok(_), false) | (Err(_), true) => {}
            (Err(e), false) => return Err(format!("setup[{i}] {name} failed: {}", e.to_json())),
            (Ok(out), true) => return Err(format!("setup[{i}] {name} should fail, got {out}")),
        }
    }

    let before = snapshot(&ed);
    let result = call(&mut ed, tool, &args);
    let after = snapshot(&ed);
    let kind = registry::find(tool).map(|d| d.kind);

    match (&result, case.get("expect"), case.get("expectError")) {
        (_, Some(_), Some(_)) => return Err("give expect or expectError, not both".into()),
        (_, None, None) => return Err("a case needs expect or expectError".into()),
        (Ok(out), Some(expected), None) => {
            if let Some(d) = diff(expected, out, "output") {
                return Err(format!("{d}\n  full output: {out}"));
            }
            check_output_schema(tool, out)?;
        }
        (Ok(out), None, Some(_)) => return Err(format!("expected an error, got {out}")),
        (Err(e), Some(_), None) => return Err(format!("expected success, got error {}", e.to_json())),
        (Err(e), None, Some(expected)) => {
            let expected = expected.as_object().ok_or("expectError is an object")?;
            if !expected.contains_key("error") || !expected.contains_key("code") {
                return Err("expectError needs \"error\" and \"code\"".into());
            }
            if let Some(why) = schema_errors(error_validator(), &e.to_json()) {
                return Err(format!("the error does not have the error form: {why}: {}", e.to_json()));
            }
            if let Some(d) = diff_subset(expected, &e.to_json(), "error") {
                return Err(d);
            }
        }
    }

    // A successful edit must say what it leaves behind: the resulting state (`timeline` or
    // `elements`), or `"noop": true` when it is meant to change nothing. Without this a tool that
    // answers right but commits nothing (or something else) would pass.
    let noop = match case.get("noop") {
        None => false,
        Some(Value::Bool(true)) => true,
        Some(other) => return Err(format!("noop is true or absent, got {other}")),
    };
    let states = case.get("timeline").is_some() || case.get("elements").is_some() || case.get("settings").is_some();
    match (&result, kind) {
        (Ok(_), Some(Kind::Edit | Kind::Batch | Kind::Undo | Kind::Redo)) => {
            if !noop && !states {
                return Err("a successful edit needs the resulting state (\"timeline\" or \"elements\"), or \"noop\": true".into());
            }
            if noop && without_next_id(&after.project) != without_next_id(&before.project) {
                return Err("a case marked noop changed the project".into());
            }
            if !noop && without_next_id(&after.project) == without_next_id(&before.project) {
                return Err("the edit changed nothing and pushed no undo step: mark the case \"noop\": true if that is right".into());
            }
        }
        _ if noop => return Err("\"noop\" is only for successful edits".into()),
        _ => {}
    }

    // What the call did to the project and its history.
    match (&result, kind) {
        (Err(_), _) | (Ok(_), None | Some(Kind::Read | Kind::Context | Kind::Host)) => {
            if after != before {
                return Err(format!("{} changed the project or history", if result.is_err() { "a failed call" } else { "a read-only call" }));
            }
        }
        (Ok(_), Some(Kind::Edit | Kind::Batch)) => {
            if next_id(&after.project) < next_id(&before.project) {
                return Err("nextId went back".into());
            }
            // Edits change the timeline only: never the assets, the sticker catalog or settings,
            // except the settings a case states (update_project's), which must be exactly those.
            for key in ["assets", "stickers", "settings", "format", "version"] {
                let part = |s: &Snapshot| s.project.as_ref().map(|p| p[key].clone());
                match case.get(key).filter(|_| key == "settings") {
                    Some(expected) if part(&after).as_ref() != Some(expected) => {
                        return Err(format!("settings: expected {expected}, got {}", part(&after).unwrap_or_default()));
                    }
                    Some(_) => {}
                    None if part(&after) != part(&before) => return Err(format!("an edit changed the project's {key}")),
                    None => {}
                }
            }
            if without_next_id(&after.project) == without_next_id(&before.project) {
                if after.undo != before.undo || after.redo != before.redo {
                    return Err("an edit that changed nothing touched the history".into());
                }
            } else {
                let mut expected_undo = before.undo.clone();
                expected_undo.push(after.undo.last().cloned().unwrap_or_default());
                if after.undo != expected_undo || after.redo != 0 {
                    return Err(format!("expected exactly one new undo entry and no redo, got {:?} / {}", after.undo, after.redo));
                }
                let label = after.undo.last().unwrap();
                let label_ok = if kind == Some(Kind::Batch) { label.starts_with("batch: ") } else { label == tool };
                if !label_ok {
                    return Err(format!("undo label {label:?} does not name the call"));
                }
                ed.undo().ok_or("undo refused")?;
                if without_next_id(&snapshot(&ed).project) != without_next_id(&before.project) {
                    return Err("undo did not restore the previous project exactly".into());
                }
                ed.redo().ok_or("redo refused")?;
                if snapshot(&ed) != after {
                    return Err("redo did not restore the edited project exactly".into());
                }
            }
        }
        (Ok(_), Some(Kind::Undo)) => {
            if after.undo.len() + 1 != before.undo.len() || after.redo != before.redo + 1 {
                return Err("undo did not move exactly one entry".into());
            }
            ed.redo().ok_or("redo after undo refused")?;
            if snapshot(&ed) != before {
                return Err("redo did not reverse the undo exactly".into());
            }
            ed.undo();
        }
        (Ok(_), Some(Kind::Redo)) => {
            if after.undo.len() != before.undo.len() + 1 || after.redo + 1 != before.redo {
                return Err("redo did not move exactly one entry".into());
            }
            ed.undo().ok_or("undo after redo refused")?;
            if snapshot(&ed) != before {
                return Err("undo did not reverse the redo exactly".into());
            }
            ed.redo();
        }
    }
    if snapshot(&ed) != after {
        return Err("the harness's undo/redo round trip did not come back to the state after the call".into());
    }
    check_reloads(&ed)?;

    if let Some(expected) = case.get("timeline") {
        let listed = call(&mut ed, "list_timeline", &json!({})).map_err(|e| format!("list_timeline after: {}", e.to_json()))?;
        if let Some(d) = diff(expected, &listed, "timeline") {
            return Err(format!("{d}\n  full timeline: {listed}"));
        }
    }
    if let Some(elements) = case.get("elements") {
        for (id, fields) in elements.as_object().ok_or("elements is an object")? {
            match (fields, saved_element(&ed, id)) {
                (Value::Null, None) => {}
                (Value::Null, Some((_, e))) => return Err(format!("element {id} should be gone, found {e}")),
                (_, None) => return Err(format!("element {id} not in the saved project")),
                (Value::Object(f), Some((track, mut e))) => {
                    // Zero trims are left out of the saved form; read them as the 0 they mean.
                    for key in ["trimStart", "trimEnd"] {
                        e.as_object_mut().unwrap().entry(key).or_insert(json!(0));
                    }
                    // "trackId" names the track that holds the element.
                    let mut f = f.clone();
                    if let Some(want) = f.remove("trackId") {
                        if want != track {
                            return Err(format!("element {id} is on track {track}, expected {want}"));
                        }
                    }
                    // A field given as null must be absent (the saved form leaves unset fields out).
                    for (k, _) in f.iter().filter(|(_, v)| v.is_null()) {
                        if let Some(v) = e.get(k) {
                            return Err(format!("element {id}.{k}: expected absent, got {v}"));
                        }
                    }
                    f.retain(|_, v| !v.is_null());
                    if let Some(d) = diff_subset(&f, &e, &format!("element {id}")) {
                        return Err(d);
                    }
                }
                _ => return Err(format!("elements.{id} is an object or null")),
            }
        }
    }
    if !noop {
        if let (Ok(_), Some(Kind::Edit | Kind::Batch | Kind::Undo | Kind::Redo)) = (&result, kind) {
            check_unnamed_elements(&before.project, &after.project, case.get("elements"), case.get("timeline").is_some())?;
        }
    }
    if let Some(labels) = case.get("undoLabels") {
        let actual: Vec<Value> = ed.history().undo_labels().map(Value::from).collect();
        if let Some(d) = diff(labels, &Value::Array(actual), "undoLabels") {
            return Err(d);
        }
    }
    Ok(())
}

fn run_file(name: &str) {
    let file = read_case_file(&root().join("cases").join(format!("{name}.json")));
    let mut failures = Vec::new();
    let mut names = BTreeSet::new();
    for (i, case) in file.cases.iter().enumerate() {
        let label = format!("{}[{i}] {}", name, case["name"].as_str().unwrap_or("(unnamed)"));
        if case["name"].as_str().is_none() {
            failures.push(format!("{label}: a case needs a name"));
        } else if !names.insert(case["name"].as_str().unwrap().to_string()) {
            failures.push(format!("{label}: duplicate case name"));
        }
        if let Err(why) = run_case(&file, case) {
            failures.push(format!("{label}: {why}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases in {} failed:\n{}", failures.len(), file.cases.len(), file.path.display(), failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// One test per case file

macro_rules! case_files {
    ($($name:ident),* $(,)?) => {
        const CASE_FILES: &[&str] = &[$(stringify!($name)),*];
        $( #[test] fn $name() { run_file(stringify!($name)); } )*
    };
}

case_files!(
    add_captions,
    import_subtitles,
    export_subtitles,
    remove_keyframe,
    update_keyframe_curve,
    upsert_keyframe,
    list_keyframes,
    list_animatable_properties,
    duplicate_elements,
    update_track,
    move_track,
    update_clip,
    update_project,
    get_element,
    references,
    list_project_assets,
    list_timeline,
    load_asset_context,
    split,
    check_timeline,
    cut_ranges,
    delete_timeline_elements,
    move_timeline_elements,
    add_text,
    update_text,
    add_media_to_timeline,
    update_timeline_element_timing,
    delete_element,
    set_volume,
    add_sticker,
    add_graphic,
    list_stickers,
    list_effects,
    get_effect,
    apply_effect,
    update_effect,
    undo_redo,
    batch,
    strict_arguments,
);

fn all_case_files() -> Vec<CaseFile> {
    let mut files: Vec<PathBuf> = fs::read_dir(root().join("cases"))
        .expect("tests/cases exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files.iter().map(|p| read_case_file(p)).collect()
}

#[test]
fn every_case_file_is_run() {
    let on_disk: BTreeSet<String> = all_case_files().iter().map(|f| f.path.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    let listed: BTreeSet<String> = CASE_FILES.iter().map(|s| s.to_string()).collect();
    assert_eq!(on_disk, listed, "every tests/cases/*.json must be listed in case_files! (and only those)");
}

/// Every (tool) a case calls, and every error message a case expects.
fn coverage() -> (BTreeSet<String>, Vec<String>) {
    let mut tools = BTreeSet::new();
    let mut errors = Vec::new();
    for file in all_case_files() {
        for case in &file.cases {
            if let Some(t) = case["tool"].as_str().or(file.tool.as_deref()) {
                tools.insert(t.to_string());
            }
            if let Some(e) = case["expectError"]["error"].as_str() {
                errors.push(e.to_string());
            }
        }
    }
    (tools, errors)
}

#[test]
fn every_registered_tool_has_cases() {
    let (tools, _) = coverage();
    let missing: Vec<&str> = registry::names().into_iter().filter(|n| !tools.contains(*n)).collect();
    assert!(missing.is_empty(), "tools without cases: {missing:?}");
    assert_eq!(
        registry::names().len(),
        38,
        "17 spec tools plus list_stickers, undo, redo, batch, the ten of issue 21, cut_ranges and check_timeline (issue 33), add_captions, import_subtitles, export_subtitles, update_project and add_graphic (issue 34)"
    );
}

/// Every edit tool (and undo, redo, batch) has a successful case that states the whole resulting
/// timeline, so what it does to the rest of the timeline is written down once in full.
#[test]
fn every_edit_tool_has_a_whole_timeline_case() {
    let mut stated = BTreeSet::new();
    for file in all_case_files() {
        for case in &file.cases {
            if case.get("timeline").is_some() && case.get("expect").is_some() {
                stated.insert(case["tool"].as_str().or(file.tool.as_deref()).unwrap_or_default().to_string());
            }
        }
    }
    let edits = registry::TOOLS.iter().filter(|t| matches!(t.kind, Kind::Edit | Kind::Batch | Kind::Undo | Kind::Redo));
    let missing: Vec<&str> = edits.map(|t| t.name).filter(|n| !stated.contains(*n)).collect();
    assert!(missing.is_empty(), "edit tools without a whole-timeline case: {missing:?}");
}

/// Every error string of the spec is expected, exactly, by at least one case.
#[test]
fn every_spec_error_string_is_exercised() {
    let (_, errors) = coverage();
    // "Failed to place effect element" cannot happen: apply_effect creates a new effect track
    // whenever no existing one is free, and an empty track always has room. It stays documented.
    let unreachable = ["Failed to place effect element"];
    // Only reachable with a provider that refuses a type: see the context_* tests below.
    let covered_by_provider_tests = ["Unsupported asset type"];
    for (_, message) in SPEC_MESSAGES {
        if covered_by_provider_tests.contains(message) {
            continue;
        }
        if unreachable.contains(message) {
            let apply = registry::find("apply_effect").unwrap();
            assert!(apply.errors.contains(message), "{message} is documented for apply_effect");
            continue;
        }
        assert!(errors.iter().any(|e| e == message), "no case expects the spec error {message:?}");
    }
    // The spec's messages with a filled-in part.
    let templated = [
        "Timeline elements not found: ",
        "Target track not found: ",
        "Timeline element not found: ",
        "Effect not found: ",
        "Unknown parameter: ",
        "Parameter '",
    ];
    for prefix in templated {
        assert!(errors.iter().any(|e| e.starts_with(prefix)), "no case expects an error starting {prefix:?}");
    }
    assert!(errors.iter().any(|e| e.starts_with("Parameter '") && e.contains(" must be >= ")));
    assert!(errors.iter().any(|e| e.starts_with("Parameter '") && e.contains(" must be <= ")));
}

/// Whether `message` is an instance of `template`, where each `<x>` stands for any non-empty text.
fn fits(template: &str, message: &str) -> bool {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else { break };
        pieces.push(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    pieces.push(rest);
    if pieces.len() == 1 {
        return template == message;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !message.starts_with(first) || !message.ends_with(last) || message.len() < first.len() + last.len() {
        return false;
    }
    // Middle pieces in order, each after at least one character of filled-in text.
    let mut at = first.len();
    let end = message.len() - last.len();
    for piece in &pieces[1..pieces.len() - 1] {
        match message.get(at + 1..end).and_then(|m| m.find(piece)) {
            Some(i) => at = at + 1 + i + piece.len(),
            None => return false,
        }
    }
    end > at
}

#[test]
fn the_template_matcher_is_strict() {
    assert!(fits("Track not found: <id>", "Track not found: t3"));
    assert!(!fits("Track not found: <id>", "Track not found: "));
    assert!(!fits("Track not found: <id>", "Tracks not found: t3"));
    assert!(fits("Element <id> on track <id> is in the way (<start>s to <end>s)", "Element e2 on track t1 is in the way (0s to 3s)"));
    assert!(!fits("Element <id> on track <id> is in the way (<start>s to <end>s)", "Element e2 on track t1 is in the way"));
    assert!(fits("Nothing to undo", "Nothing to undo"));
    assert!(!fits("Nothing to undo", "Nothing to undo!"));
}

/// Every error a case expects is in its tool's documented list (or the common list): a tool
/// cannot return a message its definition (and so MCP, the typings and docs/tools.md) omits.
#[test]
fn every_expected_error_is_in_the_tools_definition() {
    let mut undocumented = Vec::new();
    for file in all_case_files() {
        for case in &file.cases {
            let Some(message) = case["expectError"]["error"].as_str() else { continue };
            let tool = case["tool"].as_str().or(file.tool.as_deref()).unwrap_or_default();
            let Some(def) = registry::find(tool) else { continue }; // unknown-tool cases
                                                                    // batch passes its failing step's own error on.
            let step_errors = if tool == "batch" { registry::TOOLS.iter().flat_map(|t| t.errors.iter()).copied().collect() } else { Vec::new() };
            let listed = def.errors.iter().chain(registry::COMMON_ERRORS).chain(&step_errors);
            if !listed.clone().any(|t| fits(t, message)) {
                undocumented.push(format!("{tool}: {message}"));
            }
        }
    }
    assert!(undocumented.is_empty(), "errors returned but not in the tool's errors (src/tools/registry.rs):\n{}", undocumented.join("\n"));
}

/// The fixture files these cases use (tests/fixtures holds others' fixtures too).
const FIXTURES: &[&str] = &["demo", "blank", "no_timeline", "odd"];

#[test]
fn fixtures_load_and_round_trip() {
    for name in FIXTURES {
        let path = root().join("fixtures").join(format!("{name}.json"));
        let text = fs::read_to_string(&path).unwrap();
        let project = Project::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let saved = project.to_json();
        assert_eq!(Project::from_json(&saved).unwrap().to_json(), saved, "{}", path.display());
        // Unknown fields survive.
        let original: Value = serde_json::from_str(&text).unwrap();
        let saved: Value = serde_json::from_str(&saved).unwrap();
        if let Some(ui) = original.get("ui") {
            assert_eq!(saved.get("ui"), Some(ui));
        }
    }
    let demo: Value = serde_json::from_str(&fixture("demo").project_json().unwrap()).unwrap();
    assert_eq!(demo["timeline"]["tracks"][3]["muted"], json!(false));
    assert_eq!(demo["timeline"]["tracks"][3]["elements"][0]["locked"], json!(true));
}

#[test]
fn the_comparison_is_strict_but_numeric() {
    assert_eq!(diff(&json!({ "a": 2, "b": [1.5] }), &json!({ "a": 2.0, "b": [1.5] }), "x"), None);
    assert!(diff(&json!({ "a": 2 }), &json!({ "a": 3 }), "x").is_some());
    assert!(diff(&json!({ "a": 2 }), &json!({ "a": 2, "b": 1 }), "x").is_some(), "extra keys fail");
    assert!(diff(&json!({ "a": 2, "b": 1 }), &json!({ "a": 2 }), "x").is_some(), "missing keys fail");
    assert!(diff(&json!([1, 2]), &json!([2, 1]), "x").is_some(), "order matters");
    assert!(diff(&json!("2"), &json!(2), "x").is_some(), "a string is not a number");
    assert!(diff_subset(json!({ "error": "x" }).as_object().unwrap(), &json!({ "error": "x", "code": "C" }), "e").is_none());
}

#[test]
fn unknown_tool_is_an_error_that_lists_the_tools() {
    let mut ed = fixture("demo");
    let before = snapshot(&ed);
    let err = call(&mut ed, "transcribe_video", &json!({})).unwrap_err().to_json();
    assert_eq!(err["error"], "Unknown tool \"transcribe_video\"");
    assert_eq!(err["code"], "UNKNOWN_TOOL");
    assert!(err["hint"].as_str().unwrap().contains("list_timeline"));
    assert_eq!(snapshot(&ed), before);
}

#[test]
fn an_element_id_shaped_like_a_reference_is_its_own_reference_or_ambiguous() {
    // The first clip (e22, clip-1 in listing order) named "clip-1": the name and the reference
    // are the same element, so the call goes ahead.
    let mut ed = demo_with(r#""id": "e22""#, r#""id": "clip-1""#);
    let out = call(&mut ed, "delete_timeline_elements", &json!({ "elementIds": ["clip-1"] })).expect("deleted");
    assert_eq!(out, json!({ "success": true, "deletedElements": ["clip-1"] }));
    // The project is then the demo's with e22 deleted: nothing else moved.
    let mut plain = fixture("demo");
    call(&mut plain, "delete_timeline_elements", &json!({ "elementIds": ["e22"] })).expect("deleted");
    assert_eq!(snapshot(&ed).project, snapshot(&plain).project);
    // Named "clip-2" while clip-2 is the next clip (e24): the call is refused and nothing changes.
    let mut ed = demo_with(r#""id": "e22""#, r#""id": "clip-2""#);
    let before = snapshot(&ed);
    let err = call(&mut ed, "delete_timeline_elements", &json!({ "elementIds": ["clip-2"] })).unwrap_err().to_json();
    assert_eq!(err["code"], "AMBIGUOUS_REFERENCE", "{err}");
    assert_eq!(err["candidates"], json!(["clip-2", "e24"]), "{err}");
    assert_eq!(snapshot(&ed), before);
}

#[test]
fn list_timeline_writes_a_text_style_of_one_field() {
    // e20 with its font size alone, then with its colour alone.
    let style = r##""fontSize": 80, "color": "#ffffff", "fontWeight": "bold""##;
    for (fields, want) in [(r#""fontSize": 80"#, json!({ "fontSize": 80 })), (r##""color": "#ffffff""##, json!({ "color": "#ffffff" }))] {
        let mut ed = demo_with(style, fields);
        let out = call(&mut ed, "list_timeline", &json!({})).expect("listed");
        let e20 = out["tracks"].as_array().unwrap().iter().flat_map(|t| t["elements"].as_array().unwrap()).find(|e| e["elementId"] == "e20").cloned();
        assert_eq!(e20.map(|e| e["textStyle"].clone()), Some(want), "{fields}");
    }
}

// ---------------------------------------------------------------------------------------------
// load_asset_context: the two-step API and the async provider

/// Runs a future to completion on this thread (the providers here never wait on anything real).
fn block_on<F: Future>(future: F) -> F::Output {
    struct Noop;
    impl Wake for Noop {
        fn wake(self: Arc<Self>) {}
    }
    let waker = Waker::from(Arc::new(Noop));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// A provider that answers from a script and records what it was asked.
struct Scripted {
    supported: Vec<AssetType>,
    answers: Vec<Result<ProviderReport, String>>,
    calls: Vec<ContextRequest>,
}

impl Scripted {
    fn new(answers: Vec<Result<ProviderReport, String>>) -> Scripted {
        Scripted { supported: vec![AssetType::Video, AssetType::Audio, AssetType::Image], answers, calls: Vec::new() }
    }
}

/// Yields once before answering, so the editor really awaits.
struct YieldOnce(bool);
impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

impl ContextProvider for Scripted {
    fn supported_types(&self) -> &[AssetType] {
        &self.supported
    }
    async fn load(&mut self, request: &ContextRequest) -> Result<ProviderReport, String> {
        self.calls.push(request.clone());
        YieldOnce(false).await;
        assert!(!self.answers.is_empty(), "provider called more often than scripted");
        self.answers.remove(0)
    }
}

fn report(uri: &str, status: ContextStatus, expires_at: Option<f64>, summary: Option<&str>) -> Result<ProviderReport, String> {
    Ok(ProviderReport { file_uri: uri.into(), status, expires_at, summary: summary.map(str::to_string) })
}

fn assert_same(expected: Value, actual: &Value) {
    if let Some(d) = diff(&expected, actual, "output") {
        panic!("{d}\n  full: {actual}");
    }
}

const NOW: f64 = 1_700_000_000_000.0;
const URI: &str = "https://generativelanguage.googleapis.com/v1beta/files/abc";

#[test]
fn context_two_step_api() {
    let mut ed = fixture("demo");
    let before = snapshot(&ed);
    let all = [AssetType::Video, AssetType::Audio, AssetType::Image];
    let ContextStep::Fetch(request) = ed.begin_context(&json!({ "assetId": "a1" }), &all, NOW).unwrap() else {
        panic!("an empty cache must ask the provider");
    };
    assert_eq!(request.asset.id, "a1");
    assert_eq!(request.previous, None);
    let out = ed.finish_context(&request, report(URI, ContextStatus::Active, Some(NOW + 3.6e6), Some("A beach at dawn")), NOW).unwrap();
    assert_same(json!({ "assetId": "a1", "status": "loaded", "cached": false, "provider": "gemini", "fileUri": URI, "summary": "A beach at dawn" }), &out);
    // The cache record of the spec.
    let record = &ed.context_cache()["a1"];
    assert_eq!(record.provider, "gemini");
    assert_eq!(record.file_uri, URI);
    assert_eq!(record.status, ContextStatus::Active);
    assert_eq!(record.created_at, NOW);
    // Second call: answered from the cache.
    let ContextStep::Done(out) = ed.begin_context(&json!({ "assetId": "a1" }), &all, NOW + 1000.0).unwrap() else {
        panic!("a live cache entry answers without the provider");
    };
    assert_same(json!({ "assetId": "a1", "status": "loaded", "cached": true, "provider": "gemini", "fileUri": URI, "summary": "A beach at dawn" }), &out);
    // Without a provider, call_tool answers from the cache too.
    let out = call(&mut ed, "load_asset_context", &json!({ "assetId": "a1" })).unwrap();
    assert_eq!(out["cached"], true);
    // Never the timeline, never the history.
    assert_eq!(snapshot(&ed), before);
    // Validation happens in step one.
    let err = ed.begin_context(&json!({ "assetId": "a404" }), &all, NOW).unwrap_err();
    assert_eq!(err.message, "Asset not found");
    let err = ed.begin_context(&json!({ "assetId": "a1", "force": true }), &all, NOW).unwrap_err();
    assert_eq!(err.to_json()["error"], "unknown argument \"force\" for load_asset_context; expected: assetId");
    let err = ed.begin_context(&json!({ "assetId": "a3" }), &[AssetType::Video], NOW).unwrap_err();
    assert_eq!(err.to_json(), json!({ "error": "Unsupported asset type", "code": "UNSUPPORTED_ASSET_TYPE" }));
}

#[test]
fn a_forgotten_context_is_fetched_again() {
    let mut ed = fixture("demo");
    let all = [AssetType::Video, AssetType::Audio, AssetType::Image];
    assert!(!ed.forget_context("a1"), "nothing cached yet");
    let ContextStep::Fetch(request) = ed.begin_context(&json!({ "assetId": "a1" }), &all, NOW).unwrap() else {
        panic!("an empty cache must ask the provider");
    };
    ed.finish_context(&request, report(URI, ContextStatus::Active, Some(NOW + 3.6e6), None), NOW).unwrap();
    assert!(ed.forget_context("a1"), "the record is dropped");
    assert!(ed.context_cache().get("a1").is_none());
    assert!(!ed.forget_context("a1"), "and only once");
    let step = ed.begin_context(&json!({ "assetId": "a1" }), &all, NOW + 1000.0).unwrap();
    assert!(matches!(step, ContextStep::Fetch(_)), "asked of the provider again");
}

#[test]
fn context_provider_cache_hit_does_not_call_the_provider() {
    let mut ed = fixture("demo");
    let mut provider = Scripted::new(vec![report(URI, ContextStatus::Active, None, None)]);
    let out = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a1" }), NOW)).unwrap();
    assert_same(json!({ "assetId": "a1", "status": "loaded", "cached": false, "provider": "gemini", "fileUri": URI }), &out);
    assert_eq!(provider.calls.len(), 1);
    let before = snapshot(&ed);
    for _ in 0..3 {
        let out = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a1" }), NOW + 5.0)).unwrap();
        assert_same(json!({ "assetId": "a1", "status": "loaded", "cached": true, "provider": "gemini", "fileUri": URI }), &out);
    }
    assert_eq!(provider.calls.len(), 1, "cached: the provider is not called again");
    assert_eq!(snapshot(&ed), before);
    // The file name resolves when unambiguous, to the same cache entry.
    let out = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "intro.mp4" }), NOW)).unwrap();
    assert_eq!(out["assetId"], "a1");
    assert_eq!(out["cached"], true);
    assert_eq!(provider.calls.len(), 1);
}

#[test]
fn context_processing_is_polled_then_loaded() {
    let mut ed = fixture("demo");
    let mut provider = Scripted::new(vec![
        report(URI, ContextStatus::Processing, None, None),
        report(URI, ContextStatus::Processing, None, None),
        report(URI, ContextStatus::Active, None, Some("Two people talking")),
    ]);
    let call = |ed: &mut Editor, p: &mut Scripted, now: f64| block_on(ed.load_asset_context(p, &json!({ "assetId": "a1" }), now)).unwrap();
    let out = call(&mut ed, &mut provider, NOW);
    assert_same(json!({ "assetId": "a1", "status": "processing", "cached": false, "provider": "gemini", "fileUri": URI }), &out);
    assert_eq!(ed.context_cache()["a1"].status, ContextStatus::Processing);
    // Still processing: the provider is asked to poll the file it already has, not to upload again.
    let out = call(&mut ed, &mut provider, NOW + 1000.0);
    assert_eq!(out["status"], "processing");
    assert_eq!(provider.calls[1].previous.as_ref().map(|p| p.file_uri.as_str()), Some(URI));
    assert_eq!(provider.calls[1].previous.as_ref().map(|p| p.status), Some(ContextStatus::Processing));
    let out = call(&mut ed, &mut provider, NOW + 2000.0);
    // The same file, so no new upload happened: cached.
    assert_same(json!({ "assetId": "a1", "status": "loaded", "cached": true, "provider": "gemini", "fileUri": URI, "summary": "Two people talking" }), &out);
    assert_eq!(ed.context_cache()["a1"].created_at, NOW, "the record keeps its creation time while polled");
    assert_eq!(provider.calls.len(), 3);
    let out = call(&mut ed, &mut provider, NOW + 3000.0);
    assert_eq!(out["cached"], true);
    assert_eq!(provider.calls.len(), 3);
}

#[test]
fn context_expired_record_is_fetched_again() {
    let mut ed = fixture("demo");
    let uri2 = "https://generativelanguage.googleapis.com/v1beta/files/def";
    let mut provider = Scripted::new(vec![
        report(URI, ContextStatus::Active, Some(NOW + 48.0 * 3.6e6), None),
        report(uri2, ContextStatus::Active, Some(NOW + 96.0 * 3.6e6), None),
    ]);
    block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a2" }), NOW)).unwrap();
    // Before expiry: cached.
    let out = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a2" }), NOW + 47.0 * 3.6e6)).unwrap();
    assert_eq!(out["cached"], true);
    assert_eq!(provider.calls.len(), 1);
    // After expiry: a fresh upload, with no stale record handed to the provider.
    let later = NOW + 49.0 * 3.6e6;
    let out = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a2" }), later)).unwrap();
    assert_same(json!({ "assetId": "a2", "status": "loaded", "cached": false, "provider": "gemini", "fileUri": uri2 }), &out);
    assert_eq!(provider.calls.len(), 2);
    assert_eq!(provider.calls[1].previous, None);
    assert_eq!(ed.context_cache()["a2"].created_at, later);
    assert_eq!(ed.context_cache()["a2"].file_uri, uri2);
}

#[test]
fn context_provider_failure_is_the_spec_error_with_details() {
    let mut ed = fixture("demo");
    let before = snapshot(&ed);
    let mut provider = Scripted::new(vec![
        Err("upload rejected: file too large (2.1 GB > 2 GB)".into()),
        report(URI, ContextStatus::Failed, None, None),
        report("", ContextStatus::Active, None, None),
        report(URI, ContextStatus::Active, None, None),
    ]);
    let err = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a1" }), NOW)).unwrap_err();
    assert_eq!(
        err.to_json(),
        json!({ "error": "Failed to load asset context", "code": "CONTEXT_LOAD_FAILED", "details": "upload rejected: file too large (2.1 GB > 2 GB)" })
    );
    assert_eq!(ed.context_cache()["a1"].status, ContextStatus::Failed);
    // A failed record is not a cache hit: the next call asks again.
    let err = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a1" }), NOW + 1.0)).unwrap_err();
    assert_eq!(err.to_json()["error"], "Failed to load asset context");
    assert_eq!(err.to_json()["details"], "provider could not process the file");
    assert_eq!(provider.calls[1].previous, None);
    let err = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a1" }), NOW + 2.0)).unwrap_err();
    assert_eq!(err.to_json()["details"], "provider returned no file");
    let out = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a1" }), NOW + 3.0)).unwrap();
    assert_eq!(out["status"], "loaded");
    assert_eq!(out["cached"], false);
    assert_eq!(provider.calls.len(), 4);
    assert_eq!(snapshot(&ed), before, "context loading never touches the project or history");
}

#[test]
fn context_unsupported_type_never_reaches_the_provider() {
    let mut ed = fixture("demo");
    let mut provider = Scripted::new(vec![report(URI, ContextStatus::Active, None, None)]);
    provider.supported = vec![AssetType::Video];
    for asset in ["a3", "a4"] {
        let err = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": asset }), NOW)).unwrap_err();
        assert_eq!(err.to_json(), json!({ "error": "Unsupported asset type", "code": "UNSUPPORTED_ASSET_TYPE" }));
    }
    let err = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "nope" }), NOW)).unwrap_err();
    assert_eq!(err.message, "Asset not found");
    assert!(provider.calls.is_empty());
    let out = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a7" }), NOW)).unwrap();
    assert_eq!(out["status"], "loaded");
    assert_eq!(provider.calls.len(), 1);
    assert_eq!(provider.calls[0].asset.id, "a7");
    assert!(ed.context_cache().get("a3").is_none());
}

#[test]
fn context_without_a_project_or_provider() {
    let mut ed = Editor::empty();
    let mut provider = Scripted::new(vec![]);
    let err = block_on(ed.load_asset_context(&mut provider, &json!({ "assetId": "a1" }), NOW)).unwrap_err();
    assert_eq!(err.message, "No active project");
    let mut ed = fixture("demo");
    let err = call(&mut ed, "load_asset_context", &json!({ "assetId": "a1" })).unwrap_err().to_json();
    assert_eq!(err["error"], "Failed to load asset context");
    assert!(err["details"].as_str().unwrap().contains("provider"));
    assert!(ed.context_cache().is_empty(), "no provider: nothing recorded");
}
