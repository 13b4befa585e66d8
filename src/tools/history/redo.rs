//! redo: run by the editor (`crate::editor`), which owns the history.

use crate::tools::registry::prelude::*;
use crate::tools::schema::*;

pub static DEF: ToolDef = ToolDef {
    name: "redo",
    title: text!("Redo"),
    summary: text!("Redo"),
    description: text!("Redo the last undone call. Reports which tool was redone. Any new edit after an undo clears what can be redone."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Redo,
    // Its answer names the step, and an agent run is named after the user's message.
    annotations: Annotations { untrusted_content: true, ..HISTORY },
    errors: list!(&["Nothing to redo"]),
    example: text!("{}"),
    run: None,
};

pub type Arguments = NoArgs;

returns! {
    pub struct Returns {
        success: bool,
        redone: String,
        can_undo: Option<bool>,
        can_redo: Option<bool>,
    }
}
