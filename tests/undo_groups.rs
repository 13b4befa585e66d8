//! Undo groups (`Editor::begin_group` / `end_group`): the steps recorded inside a group undo and
//! redo as one step, on the demo fixture, with random sequences of edits drawn from the tools an
//! agent run makes (valid and invalid). An empty group, or one whose edits came back to the start,
//! records nothing; groups nest; undo inside a group keeps the history consistent.

use neuralcut::Editor;
use proptest::prelude::*;
use serde_json::{json, Value};

fn demo() -> Editor {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/demo.json")).unwrap();
    Editor::from_json(&text).unwrap()
}

/// One part of the saved project: "timeline" or "settings".
fn saved(ed: &Editor, part: &str) -> Value {
    serde_json::from_str::<Value>(&ed.project_json().unwrap()).unwrap()[part].clone()
}

fn timeline(ed: &Editor) -> Value {
    saved(ed, "timeline")
}

fn settings(ed: &Editor) -> Value {
    saved(ed, "settings")
}

fn element_ids(ed: &Editor) -> Vec<String> {
    let tl = timeline(ed);
    tl["tracks"].as_array().unwrap().iter().flat_map(|t| t["elements"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_string())).collect()
}

/// One edit an agent might make; `pick` chooses among the elements there are.
#[derive(Clone, Debug)]
enum Op {
    Split(f64),
    Delete(usize),
    AddText(f64),
    Move(usize, f64),
    Undo,
    Bad,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![edit(), Just(Op::Undo)]
}

/** Edits only: inside a group the undo op has its own case test. */
fn edit() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0.0f64..30.0).prop_map(Op::Split),
        (0usize..8).prop_map(Op::Delete),
        (0.0f64..20.0).prop_map(Op::AddText),
        ((0usize..8), (0.0f64..20.0)).prop_map(|(i, t)| Op::Move(i, t)),
        Just(Op::Bad),
    ]
}

/// The tool (and undo label) of an edit.
fn tool_of(op: &Op) -> &'static str {
    match op {
        Op::Split(_) | Op::Bad => "split",
        Op::Delete(_) => "delete_timeline_elements",
        Op::AddText(_) => "add_text",
        Op::Move(..) => "move_timeline_elements",
        Op::Undo => "undo",
    }
}

fn apply(ed: &mut Editor, op: &Op) {
    let ids = element_ids(ed);
    let pick = |i: usize| ids.get(i % ids.len().max(1)).cloned().unwrap_or_default();
    let _ = match op {
        Op::Split(t) => ed.call_tool("split", &json!({ "times": [t] })),
        Op::Delete(i) => ed.call_tool("delete_timeline_elements", &json!({ "elementIds": [pick(*i)] })),
        Op::AddText(t) => ed.call_tool("add_text", &json!({ "text": "Hi", "start": t, "end": t + 1.0, "position": "top" })),
        Op::Move(i, t) => ed.call_tool("move_timeline_elements", &json!({ "elementIds": [pick(*i)], "start": t })),
        Op::Undo => ed.call_tool("undo", &json!({})),
        Op::Bad => ed.call_tool("split", &json!({ "times": "soon" })),
    };
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Edits before, inside and after a group: the group is one step (or none when it changed
    /// nothing), undo of it restores exactly the timeline at its start, redo exactly its end,
    /// and the steps outside it stay single steps.
    #[test]
    fn a_group_undoes_and_redoes_as_one_step(
        before in prop::collection::vec(op(), 0..4),
        inside in prop::collection::vec(edit(), 0..8),
        after in prop::collection::vec(edit(), 0..4),
    ) {
        let mut ed = demo();
        for o in &before {
            apply(&mut ed, o);
        }
        let start = timeline(&ed);
        let steps_before = ed.history().undo_len();
        let labels_before: Vec<String> = ed.history().undo_labels().map(str::to_string).collect();
        ed.begin_group("Agent: tidy up");
        for o in &inside {
            apply(&mut ed, o);
        }
        prop_assert!(ed.end_group());
        let end = timeline(&ed);
        let steps_after = ed.history().undo_len();
        // The steps before the group stay as they were, each its own step under its own label.
        let labels: Vec<String> = ed.history().undo_labels().map(str::to_string).collect();
        prop_assert_eq!(&labels[..steps_before], &labels_before[..], "the steps before the group");
        // Each edit after it is a single step of its own, named by its tool, undone alone.
        let mut states = Vec::new();
        for o in &after {
            let (was, len) = (timeline(&ed), ed.history().undo_len());
            apply(&mut ed, o);
            if timeline(&ed) == was {
                prop_assert_eq!(ed.history().undo_len(), len, "{:?} changed nothing and pushed a step", o);
            } else {
                prop_assert_eq!(ed.history().undo_len(), len + 1, "{:?} after the group is one step", o);
                prop_assert_eq!(ed.history().undo_labels().last(), Some(tool_of(o)));
                states.push((was, tool_of(o)));
            }
        }
        for (was, tool) in states.into_iter().rev() {
            let label = ed.undo();
            prop_assert_eq!(label.as_deref(), Some(tool), "each later edit undoes alone");
            prop_assert_eq!(timeline(&ed), was, "undo takes back that one edit only");
        }
        prop_assert_eq!(timeline(&ed), end.clone(), "after undoing the later edits, the group's end");
        prop_assert_eq!(ed.history().undo_len(), steps_after);
        if end == start {
            prop_assert_eq!(steps_after, steps_before, "a group that changed nothing records nothing");
            return Ok(());
        }
        prop_assert_eq!(steps_after, steps_before + 1, "one step for the whole group");
        prop_assert_eq!(ed.history().undo_labels().last(), Some("Agent: tidy up"));
        prop_assert_eq!(ed.undo(), Some("Agent: tidy up".to_string()));
        prop_assert_eq!(timeline(&ed), start.clone(), "undo of the group restores its start");
        prop_assert_eq!(ed.history().undo_len(), steps_before);
        prop_assert_eq!(ed.redo(), Some("Agent: tidy up".to_string()));
        prop_assert_eq!(timeline(&ed), end, "redo of the group restores its end");
    }
}

#[test]
fn an_empty_group_records_nothing() {
    let mut ed = demo();
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    ed.begin_group("nothing");
    // A failed call and a read change nothing.
    assert!(ed.call_tool("split", &json!({ "times": "x" })).is_err());
    ed.call_tool("list_timeline", &json!({})).unwrap();
    assert!(ed.end_group());
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["split"]);
    assert!(!ed.end_group(), "no group is open any more");
}

#[test]
fn a_group_whose_edits_cancel_out_records_nothing() {
    let mut ed = demo();
    let start = timeline(&ed);
    ed.begin_group("back and forth");
    ed.call_tool("set_volume", &json!({ "trackId": "t14", "elementId": "e26", "volume": 0.3 })).unwrap();
    ed.call_tool("set_volume", &json!({ "trackId": "t14", "elementId": "e26", "volume": 0.8 })).unwrap();
    assert!(ed.end_group());
    assert_eq!(timeline(&ed), start);
    assert!(!ed.can_undo(), "nothing to undo: the group changed nothing");
}

#[test]
fn nested_groups_make_one_step_named_by_the_outer_one() {
    let mut ed = demo();
    let start = timeline(&ed);
    ed.begin_group("outer");
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    ed.begin_group("inner");
    ed.call_tool("split", &json!({ "times": [4] })).unwrap();
    assert!(ed.end_group());
    ed.call_tool("add_text", &json!({ "text": "x", "start": 1, "end": 2, "position": "top" })).unwrap();
    assert!(ed.end_group());
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["outer"]);
    ed.undo().unwrap();
    assert_eq!(timeline(&ed), start);
    assert!(!ed.can_undo());
}

#[test]
fn loading_a_project_inside_a_group_keeps_the_group_consistent() {
    let mut ed = demo();
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    ed.begin_group("g");
    ed.call_tool("split", &json!({ "times": [3] })).unwrap();
    ed.load(demo().project().unwrap().clone());
    ed.call_tool("split", &json!({ "times": [4] })).unwrap();
    assert!(ed.end_group());
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["g"]);
}

#[test]
fn undo_inside_a_group_below_its_start_keeps_one_consistent_step() {
    let mut ed = demo();
    ed.call_tool("split", &json!({ "times": [2] })).unwrap();
    let before_split = {
        let mut probe = demo();
        probe.call_tool("list_timeline", &json!({})).unwrap();
        timeline(&probe)
    };
    ed.begin_group("g");
    // The model undoes the user's own split, then makes its own edit.
    ed.call_tool("undo", &json!({})).unwrap();
    assert_eq!(timeline(&ed), before_split);
    ed.call_tool("split", &json!({ "times": [5] })).unwrap();
    let end = timeline(&ed);
    assert!(ed.end_group());
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["g"], "the group starts where the undo left the history");
    ed.undo().unwrap();
    assert_eq!(timeline(&ed), before_split);
    ed.redo().unwrap();
    assert_eq!(timeline(&ed), end);
}

#[test]
fn a_group_that_changes_only_the_settings_is_one_step() {
    let mut ed = demo();
    let (start_timeline, start_settings) = (timeline(&ed), settings(&ed));
    ed.begin_group("background");
    ed.call_tool("update_project", &json!({ "background": "#1e1e1e" })).unwrap();
    let end_settings = settings(&ed);
    assert!(ed.end_group());
    assert_ne!(end_settings, start_settings);
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["background"], "the timeline is as it was, the settings are not");
    ed.undo().unwrap();
    assert_eq!((timeline(&ed), settings(&ed)), (start_timeline.clone(), start_settings));
    ed.redo().unwrap();
    assert_eq!((timeline(&ed), settings(&ed)), (start_timeline, end_settings));
}

#[test]
fn a_group_whose_settings_changes_cancel_out_records_nothing() {
    let mut ed = demo();
    ed.call_tool("update_project", &json!({ "background": "#000000" })).unwrap();
    let (start_timeline, start_settings) = (timeline(&ed), settings(&ed));
    ed.begin_group("back and forth");
    ed.call_tool("update_project", &json!({ "background": "#1e1e1e" })).unwrap();
    ed.call_tool("update_project", &json!({ "background": "#000000" })).unwrap();
    assert!(ed.end_group());
    assert_eq!((timeline(&ed), settings(&ed)), (start_timeline, start_settings));
    assert_eq!(ed.history().undo_labels().collect::<Vec<_>>(), ["update_project"], "only the change before the group");
}
