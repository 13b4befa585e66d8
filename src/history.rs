//! Undo and redo of exact timeline states.
//!
//! Each entry is a whole timeline value, but tracks and elements are shared by `Arc` with the
//! states around it: an edit copies only the tracks it touched (their element pointer lists) and
//! the elements it changed. Undo and redo swap one value in; they copy nothing.

use crate::model::Timeline;

/// One undoable step: the state on the other side of it and what the step was.
#[derive(Clone, Debug)]
pub struct Entry {
    pub state: Timeline,
    pub label: String,
}

#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
}

impl History {
    pub fn new() -> History {
        History::default()
    }

    /// Records that the timeline moved on from `before` by the step `label`. Clears redo.
    pub fn record(&mut self, before: Timeline, label: String) {
        self.undo.push(Entry { state: before, label });
        self.redo.clear();
    }

    /// Swaps `current` back one step; returns the label of the step undone.
    pub fn undo(&mut self, current: &mut Timeline) -> Option<String> {
        let entry = self.undo.pop()?;
        let after = std::mem::replace(current, entry.state);
        self.redo.push(Entry { state: after, label: entry.label.clone() });
        Some(entry.label)
    }

    /// Swaps `current` forward one step; returns the label of the step redone.
    pub fn redo(&mut self, current: &mut Timeline) -> Option<String> {
        let entry = self.redo.pop()?;
        let before = std::mem::replace(current, entry.state);
        self.undo.push(Entry { state: before, label: entry.label.clone() });
        Some(entry.label)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Labels of the undo stack, oldest first.
    pub fn undo_labels(&self) -> impl Iterator<Item = &str> {
        self.undo.iter().map(|e| e.label.as_str())
    }

    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}
