//! batch: run by the editor (`crate::editor`), which owns the history.

use crate::tools::registry::prelude::*;
use crate::tools::schema::*;

pub static DEF: ToolDef = ToolDef {
    name: "batch",
    title: text!("Batch"),
    summary: text!("Run {steps:n step}"),
    description: text!("Run several tool calls in order as one all-or-nothing step: steps is a list of {tool, args}. Later steps see the results of earlier ones. If any step fails, nothing changes and the error names the failing step's index and tool. A successful batch is one undo step. undo, redo, batch and load_asset_context cannot be steps."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Batch,
    annotations: BATCH,
    errors: list!(&["Invalid batch steps", "Tool <name> cannot run inside batch", "<the failing step's own error>"]),
    example: text!(r#"{"steps":[{"tool":"split","args":{"times":[4,6]}},{"tool":"list_timeline","args":{}}]}"#),
    run: None,
};

arguments! {
    pub struct Arguments {
        /// Tool calls to run in order
        #[schemars(length(min = 1))]
        pub steps: Arg<Vec<Step>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        results: List<StepResult>,
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Tool name
    pub tool: Arg<String>,
    /// That tool's arguments
    pub args: Arg<Option<AnyObject>>,
}

// Each step is read by `run_batch` (`Editor`), which names the failing step.
impl Read for Step {
    type Out<'a> = &'a serde_json::Value;
    fn of(v: &serde_json::Value) -> Option<&serde_json::Value> {
        v.is_object().then_some(v)
    }
}

returns! {
    struct StepResult {
        tool: String,
        result: AnyObject,
    }
}
