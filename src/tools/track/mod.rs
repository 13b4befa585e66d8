//! update_track, move_track and duplicate_elements.

pub mod duplicate_elements;
pub mod move_track;
pub mod update_track;

use crate::error_code::ErrorCode;
use serde_json::Value;

use super::{edit_error, locate_all, seconds, timeline_mut, Ctx, Output, ToolError};
use crate::animation::Animation;
use crate::edits;
use crate::model::{Timeline, TrackType};

pub(crate) fn track_not_found(id: &str) -> ToolError {
    ToolError::new(ErrorCode::TrackNotFound, format!("Track not found: {id}")).with_hint("Call list_timeline to get the current track ids.")
}

pub(crate) fn invalid_track_id() -> ToolError {
    ToolError::new(ErrorCode::InvalidTrackId, "Invalid track id")
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The indices a track of this kind may take: visual tracks above the main track, audio tracks
/// below it (OpenCut keeps `overlay`, `main` and `audio` apart); the main track stays.
fn allowed(tl: &Timeline, kind: TrackType) -> Option<(usize, usize)> {
    let main = tl.main_index()?;
    match kind {
        TrackType::Main => None,
        TrackType::Audio => Some((main + 1, tl.tracks.len() - 1)),
        _ => (main > 0).then(|| (0, main - 1)),
    }
}

/// The id of the track that holds `element` now (new tracks may have shifted indices).
fn tl_track_id(tl: &Timeline, _was: usize, element: &str) -> String {
    tl.element(element).map(|(t, _)| t.id.clone()).unwrap_or_default()
}

/// Gives the keys of an animated path (each channel of a colour) new ids.
fn renumber_keys(data: &mut Animation, new_id: &mut dyn FnMut() -> String) {
    data.each_channel(&mut |c| {
        if let Some(keys) = c.keys_in_place() {
            for k in keys.iter_mut().filter(|k| k.has_id()) {
                k.set_id(new_id());
            }
        }
    });
}
