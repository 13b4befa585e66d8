//! The boundary's own tests, run on wasm32 in Node and in headless Chromium by wasm-bindgen-test
//! (`npm run test:wasm`, scripts/test-wasm.sh): values built the way JS hands them in, and what
//! comes back out, including the `code` every thrown error carries. The core's rules are tested
//! natively; these check only that the boundary moves values and errors across intact.

use js_sys::Reflect;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use super::WasmEditor;

/// The error's `code` and message, after checking it is a JS `Error`.
fn error(value: JsValue) -> (String, String) {
    let err = value.dyn_ref::<js_sys::Error>().expect("thrown value is a JS Error");
    let code = Reflect::get(err, &"code".into()).expect("code").as_string().expect("code is a string");
    (code, err.message().into())
}

fn thrown<T>(result: Result<T, JsValue>) -> (String, String) {
    match result {
        Ok(_) => panic!("expected a thrown error"),
        Err(e) => error(e),
    }
}

fn call(editor: &mut WasmEditor, tool: &str, args: Value) -> Value {
    serde_json::from_str(&editor.call_tool(tool, &args.to_string())).expect("callTool returns JSON text")
}

#[wasm_bindgen_test]
fn a_project_crosses_as_json_text_and_comes_back_the_same() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    let added = call(&mut editor, "add_text", json!({ "text": "Title", "start": 0, "end": 2, "position": "top", "style": "subtitle" }));
    assert!(added.get("error").is_none(), "{added}");
    let saved = editor.project_json().expect("a project");
    let reopened = WasmEditor::new(Some(saved.clone())).unwrap_or_else(|_| panic!("reopens"));
    assert_eq!(reopened.project_json().as_deref(), Some(saved.as_str()));
}

#[wasm_bindgen_test]
fn an_unreadable_project_throws_an_error_with_its_code() {
    let (code, message) = thrown(WasmEditor::new(Some("{ not json".into())));
    assert_eq!(code, "INVALID_JSON");
    assert!(!message.is_empty());
}

#[wasm_bindgen_test]
fn tool_calls_answer_in_json_and_never_throw() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    let out: Value = serde_json::from_str(&editor.call_tool("list_timeline", "null")).unwrap();
    assert_eq!(out["duration"], json!(0));
    let bad: Value = serde_json::from_str(&editor.call_tool("split", "{ not json")).unwrap();
    assert!(bad["error"].is_string() && bad["code"].is_string(), "{bad}");
    let unknown: Value = serde_json::from_str(&editor.call_tool("no_such_tool", "{}")).unwrap();
    assert_eq!(unknown["code"], json!("UNKNOWN_TOOL"));
    assert_eq!(editor.revision(), 0.0, "failed calls change nothing");
}

#[wasm_bindgen_test]
fn a_tool_call_is_one_undo_step_across_the_boundary() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    assert!(!editor.can_undo() && !editor.undo());
    call(&mut editor, "add_text", json!({ "text": "Title", "start": 0, "end": 2, "position": "top", "style": "subtitle" }));
    assert_eq!(editor.revision(), 1.0);
    assert!(editor.can_undo() && editor.undo());
    assert!(!editor.can_undo() && editor.can_redo() && editor.redo());
}

#[wasm_bindgen_test]
fn asset_options_arrive_as_json_text_and_bad_ones_are_refused_by_name() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    let options =
        r#"{ "name": "clip.mp4", "type": "video", "duration": 10, "width": 1920, "height": 1080, "fps": { "numerator": 30000, "denominator": 1001 } }"#;
    let id = editor.add_asset(options).unwrap_or_else(|e| panic!("{:?}", error(e)));
    let assets = call(&mut editor, "list_project_assets", json!({}));
    assert!(assets.to_string().contains(&id), "{assets}");
    let revision = editor.revision();
    let (code, message) = thrown(editor.add_asset(r#"{ "name": "b.mp4", "type": "video", "durations": 10 }"#));
    assert_eq!(code, "INVALID_ASSET");
    assert!(message.contains("durations"), "{message}");
    let (code, message) = thrown(editor.add_asset("42"));
    assert_eq!(code, "INVALID_ASSET");
    assert!(message.contains("expected an object"), "{message}");
    let (code, _) = thrown(editor.add_sticker(r#"{ "id": "s1", "name": "Star", "size": 3 }"#));
    assert_eq!(code, "INVALID_STICKER");
    assert_eq!(editor.revision(), revision, "refused options change nothing");
}

#[wasm_bindgen_test]
fn effect_sets_and_time_queries_throw_their_codes() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    let all = editor.effects();
    assert_eq!(thrown(editor.set_effects(vec!["blur".into(), "glow".into()])).0, "INVALID_EFFECTS");
    assert_eq!(editor.effects(), all, "a refused set changes nothing");
    editor.set_effects(vec!["blur".into()]).unwrap_or_else(|e| panic!("{:?}", error(e)));
    assert_eq!(editor.effects(), ["blur"]);
    assert_eq!(thrown(editor.frame_at_json(f64::NAN)).0, "INVALID_SECONDS");
    assert_eq!(thrown(editor.effects_at_json(f64::INFINITY)).0, "INVALID_SECONDS");
    assert_eq!(thrown(editor.audio_plan_json(2.0, 1.0, 0.5)).0, "INVALID_SECONDS");
    let frame: Value = serde_json::from_str(&editor.frame_at_json(0.0).unwrap_or_else(|e| panic!("{:?}", error(e)))).unwrap();
    assert!(frame.is_object(), "{frame}");
}

#[wasm_bindgen_test]
fn the_context_handshake_refuses_unknown_tickets_and_types() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    assert_eq!(thrown(editor.finish_context(7, Some("{}".into()), None, 0.0)).0, "UNKNOWN_CONTEXT_REQUEST");
    assert_eq!(thrown(editor.begin_context("{}", vec!["text".into()], 0.0)).0, "INVALID_PROVIDER");
    let step: Value =
        serde_json::from_str(&editor.begin_context("{ not json", vec!["video".into()], 0.0).unwrap_or_else(|e| panic!("{:?}", error(e)))).unwrap();
    assert_eq!(step["kind"], json!("done"));
    assert!(step["output"]["code"].is_string(), "{step}");
}

/// Two requests in flight finish in either order, each ticket once.
#[wasm_bindgen_test]
fn context_tickets_finish_in_any_order_and_only_once() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    let ticket = |editor: &mut WasmEditor, name: &str| {
        let id = editor.add_asset(&format!(r#"{{ "name": "{name}", "type": "video", "duration": 10 }}"#)).unwrap_or_else(|e| panic!("{:?}", error(e)));
        let args = json!({ "assetId": id }).to_string();
        let step: Value = serde_json::from_str(&editor.begin_context(&args, vec!["video".into()], 0.0).unwrap_or_else(|e| panic!("{:?}", error(e)))).unwrap();
        assert_eq!(step["kind"], json!("fetch"), "{step}");
        (id, step["ticket"].as_u64().expect("a ticket") as u32)
    };
    let (a, first) = ticket(&mut editor, "a.mp4");
    let (b, second) = ticket(&mut editor, "b.mp4");
    assert_ne!(first, second);
    let report = |uri: &str| Some(json!({ "fileUri": uri, "status": "active" }).to_string());
    let done = |out: String| serde_json::from_str::<Value>(&out).unwrap();
    let out = done(editor.finish_context(second, report("files/b"), None, 1.0).unwrap_or_else(|e| panic!("{:?}", error(e))));
    assert_eq!((&out["assetId"], &out["fileUri"]), (&json!(b), &json!("files/b")), "{out}");
    let out = done(editor.finish_context(first, report("files/a"), None, 1.0).unwrap_or_else(|e| panic!("{:?}", error(e))));
    assert_eq!((&out["assetId"], &out["fileUri"]), (&json!(a), &json!("files/a")), "{out}");
    assert_eq!(thrown(editor.finish_context(first, report("files/a"), None, 2.0)).0, "UNKNOWN_CONTEXT_REQUEST");
    assert_eq!(thrown(editor.finish_context(second, report("files/b"), None, 2.0)).0, "UNKNOWN_CONTEXT_REQUEST");
}

#[wasm_bindgen_test]
fn opencut_scenes_cross_as_json_text() {
    let mut editor = WasmEditor::new(None).unwrap_or_else(|_| panic!("new editor"));
    assert_eq!(thrown(editor.load_opencut_scene("{ not json")).0, "INVALID_JSON");
    let scene: Value = serde_json::from_str(&editor.opencut_scene_json().unwrap_or_else(|e| panic!("{:?}", error(e)))).unwrap();
    assert!(scene["tracks"].is_object(), "{scene}");
}
