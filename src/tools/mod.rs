//! The agent tools of the tool spec. Each tool is one module, `<family>/<tool>.rs` (`cut/split.rs`,
//! `keyframe/upsert_keyframe.rs`): its definition, argument and result types and run function;
//! a family's `mod.rs` holds what its tools share. `registry` lists the definitions; the editor
//! (`crate::editor`) decides what a call commits.

mod args;
mod arrange;
pub(crate) mod captions;
mod check;
pub mod context;
mod create;
mod cut;
mod effect;
pub(crate) mod element;
mod error;
pub(crate) mod history;
pub mod host;
mod inspect;
pub(crate) mod keyframe;
mod listing;
mod project;
#[cfg(test)]
mod reads;
pub mod refs;
pub mod registry;
pub mod schema;
mod session;
mod track;
pub mod typescript;

use crate::error_code::ErrorCode;
use serde::Serialize;
use serde_json::Value;

use crate::effects::EffectSet;
use crate::model::{Asset, Element, ElementKinds, ElementType, Project, Settings, Sticker, Timeline};
use crate::time::ticks_to_seconds;
pub use args::{Arg, Args};
pub use error::{ToolError, ToolErrorJson, SPEC_MESSAGES};
pub use listing::ListingCache;
pub use session::Editor;

pub use crate::model::IdGen;

/// What one tool call sees: the project's library and settings (read-only) and a working copy
/// of the timeline. The editor commits the copy only when the call succeeds.
pub struct Ctx<'a> {
    project: Option<&'a Project>,
    pub timeline: Option<Timeline>,
    /// The settings as a tool changed them (update_project); `None` while no tool has.
    pub settings: Option<Settings>,
    pub ids: IdGen,
    /// The editor's list_timeline cache, when the call runs inside an editor.
    pub listing: Option<&'a mut ListingCache>,
    /// The effect types the host can render; the effect tools offer only these.
    pub effects: EffectSet,
    /// The element types the host draws; the tools add no other.
    pub element_kinds: ElementKinds,
}

impl<'a> Ctx<'a> {
    pub fn new(project: Option<&'a Project>) -> Ctx<'a> {
        Ctx {
            project,
            timeline: project.and_then(|p| p.timeline.clone()),
            settings: None,
            ids: IdGen { next: project.map_or(1, |p| p.next_id) },
            listing: None,
            effects: EffectSet::ALL,
            element_kinds: ElementKinds::ALL,
        }
    }

    pub fn with_listing(mut self, cache: &'a mut ListingCache) -> Ctx<'a> {
        self.listing = Some(cache);
        self
    }

    pub fn with_effects(mut self, effects: EffectSet) -> Ctx<'a> {
        self.effects = effects;
        self
    }

    pub fn with_element_kinds(mut self, kinds: ElementKinds) -> Ctx<'a> {
        self.element_kinds = kinds;
        self
    }

    /// Refuses to add an element of `kind` the host does not draw.
    pub fn drawn(&self, kind: ElementType) -> Result<(), ToolError> {
        match self.element_kinds.has(kind) {
            true => Ok(()),
            false => Err(ToolError::not_drawn(kind.as_str(), &self.element_kinds.names(true))),
        }
    }

    pub fn project(&self) -> Result<&'a Project, ToolError> {
        self.project.ok_or_else(ToolError::no_active_project)
    }

    pub fn timeline(&self) -> Result<&Timeline, ToolError> {
        self.timeline.as_ref().ok_or_else(ToolError::no_active_timeline)
    }

    pub fn asset(&self, id: &str) -> Option<&'a Asset> {
        self.project.and_then(|p| p.asset(id))
    }

    pub fn sticker(&self, id: &str) -> Option<&'a Sticker> {
        self.project.and_then(|p| p.sticker(id))
    }

    pub fn settings(&self) -> Settings {
        self.settings.clone().or_else(|| self.project.map(|p| p.settings.clone())).unwrap_or_default()
    }
}

/// The working timeline, or "No active timeline". A free function so callers can borrow
/// `ctx.ids` at the same time.
pub fn timeline_mut(timeline: &mut Option<Timeline>) -> Result<&mut Timeline, ToolError> {
    timeline.as_mut().ok_or_else(ToolError::no_active_timeline)
}

/// Where each of `ids` is, as (track, element) indices in order, or "Timeline elements not found"
/// naming every id that is not on the timeline.
pub(crate) fn locate_all(tl: &Timeline, ids: &[String]) -> Result<Vec<(usize, usize)>, ToolError> {
    let found = crate::edits::locate(tl, ids);
    let missing: Vec<String> = ids.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(id, _)| id.clone()).collect();
    if !missing.is_empty() {
        return Err(ToolError::elements_not_found(&missing));
    }
    Ok(found.into_iter().flatten().collect())
}

/// The index of the track `track_id` and its element `element_id`, or `not_found()` when the
/// track or the element on it is missing.
pub(crate) fn element_on_track<'t>(
    tl: &'t Timeline,
    track_id: &str,
    element_id: &str,
    not_found: fn() -> ToolError,
) -> Result<(usize, &'t Element), ToolError> {
    let ti = tl.track_index(track_id).ok_or_else(not_found)?;
    let e = tl.tracks[ti].elements.iter().find(|e| e.id == element_id).ok_or_else(not_found)?;
    Ok((ti, e))
}

pub type ToolFn = fn(&mut Ctx, Args) -> Result<Output, ToolError>;

/// A tool's output as JSON text. Tools serialise once, straight to text, because the text is what
/// crosses into JS; Rust callers parse it with [`Output::to_value`] when they need a value.
#[derive(Clone, Debug)]
pub struct Output(String);

impl Output {
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Output {
        Output(serde_json::to_string(value).expect("tool outputs always serialise"))
    }

    /// Wraps text this crate wrote itself; it must be one valid JSON value.
    pub(crate) fn from_json_text(text: String) -> Output {
        debug_assert!(serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok(), "not JSON: {text}");
        Output(text)
    }

    /// The text, without copying it.
    pub fn into_string(self) -> String {
        self.0
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.0).expect("tool outputs are valid JSON")
    }
}

impl From<Value> for Output {
    fn from(value: Value) -> Output {
        Output::from_serialize(&value)
    }
}

/// A seconds value for output: whole numbers print without a fraction.
pub fn seconds(ticks: i64) -> Value {
    crate::effects::number(ticks_to_seconds(ticks))
}

/// Maps an edit failure to the tool error that names what is in the way.
pub(crate) fn edit_error(err: crate::edits::EditError) -> ToolError {
    use crate::edits::EditError;
    match err {
        EditError::Overlap { track, element, start, end } => ToolError::overlap(&track, &element, ticks_to_seconds(start), ticks_to_seconds(end)),
        EditError::Incompatible { track } => ToolError::new(ErrorCode::IncompatibleTrack, format!("Track {track} cannot hold this element")),
    }
}
