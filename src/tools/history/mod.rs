//! undo, redo and batch: declared here like every tool, run by the editor (`crate::editor`), which
//! owns the history and the working copy a batch shares between its steps.

pub mod batch;
pub mod redo;
pub mod undo;
