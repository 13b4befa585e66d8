//! undo: run by the editor (`crate::editor`), which owns the history.

use crate::tools::registry::prelude::*;
use crate::tools::schema::*;

pub static DEF: ToolDef = ToolDef {
    name: "undo",
    title: text!("Undo"),
    summary: text!("Undo"),
    description: text!("Undo the last successful editing call (a batch counts as one). Reports which tool was undone. Use it to correct a mistake, then call list_timeline to see the state."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Undo,
    // Its answer names the step, and an agent run is named after the user's message.
    annotations: Annotations { untrusted_content: true, ..HISTORY },
    errors: list!(&["Nothing to undo"]),
    example: text!("{}"),
    run: None,
};

pub type Arguments = NoArgs;

returns! {
    pub struct Returns {
        success: bool,
        undone: String,
        can_undo: Option<bool>,
        can_redo: Option<bool>,
    }
}
