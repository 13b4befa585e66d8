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

#[cfg(test)]
mod tests {
    use super::allowed;
    use crate::model::{Timeline, Track, TrackType};
    use std::sync::Arc;

    fn layout(kinds: &[TrackType]) -> Timeline {
        let mut tl = Timeline::with_main("t0".into());
        tl.tracks = kinds.iter().enumerate().map(|(i, k)| Arc::new(Track::new(format!("t{i}"), *k))).collect();
        tl
    }

    #[test]
    fn visual_tracks_move_above_the_main_track_and_audio_below_it() {
        use TrackType::{Audio, Main, Overlay, Text};
        let tl = layout(&[Text, Overlay, Main, Audio, Audio]);
        assert_eq!([allowed(&tl, Text), allowed(&tl, Overlay), allowed(&tl, Audio), allowed(&tl, Main)], [Some((0, 1)), Some((0, 1)), Some((3, 4)), None]);
        // With the main track on top no place is above it: none is offered rather than 0 to -1.
        let tl = layout(&[Main, Audio]);
        assert_eq!([allowed(&tl, Overlay), allowed(&tl, Audio)], [None, Some((1, 1))]);
    }
}
