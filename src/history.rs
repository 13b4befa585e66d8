//! Undo and redo of exact timeline states (and of the project settings, for the steps that
//! change them).
//!
//! Each entry is a whole timeline value, but tracks and elements are shared by `Arc` with the
//! states around it: an edit copies only the tracks it touched (their element pointer lists) and
//! the elements it changed. Undo and redo swap one value in; they copy nothing.

use crate::model::{Settings, Timeline};

/// One undoable step: the state on the other side of it and what the step was.
#[derive(Clone, Debug)]
pub struct Entry {
    pub state: Timeline,
    /// The settings on the other side, for a step that changed them.
    pub settings: Option<Settings>,
    pub label: String,
}

#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
    group: Option<Group>,
}

/// An open group: the steps recorded above `start` become one step when it closes.
#[derive(Clone, Debug)]
struct Group {
    start: usize,
    label: String,
    depth: usize,
}

impl History {
    pub fn new() -> History {
        History::default()
    }

    /// Records that the timeline moved on from `before` (and the settings from `settings`, when
    /// the step changed them) by the step `label`. Clears redo.
    pub fn record(&mut self, before: Timeline, settings: Option<Settings>, label: String) {
        self.undo.push(Entry { state: before, settings, label });
        self.redo.clear();
    }

    /// Opens a group: every step recorded until the matching `end_group` becomes one step named
    /// `label`. Groups nest; the outermost one decides the label and where the step starts.
    pub fn begin_group(&mut self, label: String) {
        match &mut self.group {
            Some(g) => g.depth += 1,
            None => self.group = Some(Group { start: self.undo.len(), label, depth: 1 }),
        }
    }

    /// Closes the innermost group. When the outermost one closes, the steps recorded inside it
    /// become one; a group that recorded nothing, or whose steps came back to where it started
    /// (`current` equal to its first state), leaves nothing. Returns false when no group is open.
    pub fn end_group(&mut self, current: Option<(&Timeline, &Settings)>) -> bool {
        let Some(g) = &mut self.group else { return false };
        g.depth -= 1;
        if g.depth > 0 {
            return true;
        }
        let Group { start, label, .. } = self.group.take().expect("checked above");
        if self.undo.len() <= start {
            return true;
        }
        let mut steps = self.undo.drain(start..);
        let first = steps.next().expect("at least one step");
        // The settings at the start are those the group's first settings change left.
        let settings = first.settings.or_else(|| steps.find_map(|e| e.settings));
        drop(steps);
        let back = current.is_some_and(|(tl, s)| first.state.same_as(tl) && settings.as_ref().is_none_or(|before| before == s));
        if !back {
            self.undo.push(Entry { state: first.state, settings, label });
        }
        true
    }

    /// Whether a group is open.
    pub fn in_group(&self) -> bool {
        self.group.is_some()
    }

    /// Swaps `current` back one step; returns the label of the step undone.
    pub fn undo(&mut self, current: &mut Timeline, settings: &mut Settings) -> Option<String> {
        let entry = self.undo.pop()?;
        // Undoing below a group's start: the group covers what is recorded from here on.
        if let Some(g) = &mut self.group {
            g.start = g.start.min(self.undo.len());
        }
        let back = swap(entry, current, settings);
        let label = back.label.clone();
        self.redo.push(back);
        Some(label)
    }

    /// Swaps `current` forward one step; returns the label of the step redone.
    pub fn redo(&mut self, current: &mut Timeline, settings: &mut Settings) -> Option<String> {
        let entry = self.redo.pop()?;
        let back = swap(entry, current, settings);
        let label = back.label.clone();
        self.undo.push(back);
        Some(label)
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
        if let Some(g) = &mut self.group {
            g.start = 0;
        }
    }
}

/// Puts `entry`'s state in place and returns the entry that leads back.
fn swap(entry: Entry, current: &mut Timeline, settings: &mut Settings) -> Entry {
    let state = std::mem::replace(current, entry.state);
    let settings = entry.settings.map(|s| std::mem::replace(settings, s));
    Entry { state, settings, label: entry.label }
}
