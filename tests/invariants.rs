//! Architecture invariant (docs/ARCHITECTURE.md, src/history.rs): the asset library, the sticker
//! catalog and the asset-context cache are not part of history. Adding media is not an edit of the
//! timeline, and undo never removes an asset that elements may later refer to.

use neuralcut::model::AssetType;
use neuralcut::tools::context::{ContextStatus, ContextStep, ProviderReport};
use neuralcut::{Editor, NewAsset};
use serde_json::{json, Value};

fn demo() -> Editor {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/demo.json")).unwrap();
    Editor::from_json(&text).unwrap()
}

fn asset_ids(ed: &Editor) -> Vec<String> {
    ed.project().unwrap().assets.iter().map(|a| a.id.clone()).collect()
}

fn listed_assets(ed: &mut Editor) -> Vec<Value> {
    ed.call_tool("list_project_assets", &json!({})).unwrap()["assets"].as_array().unwrap().clone()
}

#[test]
fn edit_then_add_asset_then_undo_keeps_the_asset() {
    let mut ed = demo();
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    let timeline_after_split = ed.project().unwrap().timeline.clone();
    let id = ed.add_asset(NewAsset { name: "late.mp4".into(), kind: "video".into(), duration: Some(3.0), ..NewAsset::default() }).unwrap();
    assert_eq!(ed.history().undo_len(), 1, "adding an asset is not an undo step");
    assert_eq!(ed.project().unwrap().timeline, timeline_after_split, "nor does it touch the timeline");

    assert_eq!(ed.undo().as_deref(), Some("split"), "undo undoes the split, not the asset");
    assert!(asset_ids(&ed).contains(&id), "undo kept the asset added after the edit");
    assert!(listed_assets(&mut ed).iter().any(|a| a["id"] == id.as_str() && a["name"] == "late.mp4"));
    // The asset is still usable by the tools after the undo.
    let placed = ed.call_tool("add_media_to_timeline", &json!({ "assetId": id, "startTime": 20, "trackType": "overlay" })).unwrap();
    assert!(placed["elementId"].is_string());
    // Undo that, and redo the split: the asset stays through every step.
    ed.undo().unwrap();
    ed.redo().unwrap();
    assert!(asset_ids(&ed).contains(&id));
    while ed.undo().is_some() {}
    assert!(asset_ids(&ed).contains(&id), "undoing everything keeps it too");
    // And a saved project keeps it.
    let again = Editor::from_json(&ed.project_json().unwrap()).unwrap();
    assert!(asset_ids(&again).contains(&id));
}

#[test]
fn an_element_that_uses_a_late_asset_survives_undo_and_redo() {
    let mut ed = demo();
    let id = ed.add_asset(NewAsset { name: "late.wav".into(), kind: "audio".into(), duration: Some(2.0), ..NewAsset::default() }).unwrap();
    let placed = ed.call_tool("add_media_to_timeline", &json!({ "assetId": id, "startTime": 20, "trackType": "audio" })).unwrap();
    ed.undo().unwrap();
    assert!(asset_ids(&ed).contains(&id));
    ed.redo().unwrap();
    // The redone element refers to an asset that is still there: the project still loads.
    let json = ed.project_json().unwrap();
    Editor::from_json(&json).unwrap_or_else(|e| panic!("redo left an element without its asset: {e}"));
    assert!(json.contains(placed["elementId"].as_str().unwrap()));
}

#[test]
fn edit_then_add_sticker_then_undo_keeps_the_sticker() {
    let mut ed = demo();
    ed.call_tool("delete_timeline_elements", &json!({ "elementIds": ["e25"] })).unwrap();
    ed.add_sticker("emoji:moon", "Moon", None).unwrap();
    assert_eq!(ed.history().undo_len(), 1);
    ed.undo().unwrap();
    assert!(ed.project().unwrap().sticker("emoji:moon").is_some(), "undo kept the sticker");
    ed.call_tool("add_sticker", &json!({ "stickerId": "emoji:moon", "start": 20, "end": 21, "position": "center" })).unwrap();
}

#[test]
fn edit_then_load_context_then_undo_keeps_the_cache() {
    let mut ed = demo();
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    let ContextStep::Fetch(request) = ed.begin_context(&json!({ "assetId": "a1" }), &[AssetType::Video], 0.0).unwrap() else {
        panic!("an empty cache asks the provider");
    };
    let report = ProviderReport { file_uri: "https://example.com/f".into(), status: ContextStatus::Active, expires_at: None, summary: None };
    ed.finish_context(&request, Ok(report), 0.0).unwrap();
    ed.undo().unwrap();
    assert!(ed.context_cache().get("a1").is_some(), "undo kept the context cache");
}

#[test]
fn loading_a_project_starts_history_afresh() {
    let mut ed = demo();
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    ed.call_tool("split", &json!({ "times": [3] })).unwrap();
    ed.undo().unwrap();
    assert!(ed.can_undo() && ed.can_redo());
    let other = demo().project().unwrap().clone();
    ed.load(other);
    assert!(!ed.can_undo() && !ed.can_redo(), "load clears both stacks");
    assert_eq!((ed.history().undo_len(), ed.history().redo_len()), (0, 0));
    assert_eq!(ed.history().undo_labels().count(), 0);
    assert_eq!(ed.undo(), None);
    assert_eq!(ed.redo(), None);
}

#[test]
fn history_reports_its_stacks() {
    let mut ed = demo();
    assert!(!ed.can_undo() && !ed.can_redo());
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    ed.call_tool("delete_timeline_elements", &json!({ "elementIds": ["e25"] })).unwrap();
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["split", "delete_timeline_elements"]);
    assert!(ed.can_undo() && !ed.can_redo());
    assert_eq!(ed.undo().as_deref(), Some("delete_timeline_elements"));
    assert!(ed.can_undo() && ed.can_redo());
    assert_eq!((ed.history().undo_len(), ed.history().redo_len()), (1, 1));
    assert_eq!(ed.undo().as_deref(), Some("split"));
    assert!(!ed.can_undo() && ed.can_redo());
    assert_eq!(ed.redo().as_deref(), Some("split"));
    assert_eq!(ed.redo().as_deref(), Some("delete_timeline_elements"));
    assert_eq!(ed.redo(), None);
}
