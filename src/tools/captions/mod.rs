//! Captions: add_captions (from a word-timed transcript), import_subtitles and export_subtitles.
//! A caption is a text element named `Caption <n>`, the name OpenCut's caption flow gives each
//! (subtitles/build-subtitle-text-element.ts at cf5e79e); the tools make them on caption tracks
//! added on top of the picture, as OpenCut's `insertCaptionChunksAsTextTrack` adds its text track
//! at index 0, in one undo step.

pub mod add_captions;
pub mod export_subtitles;
pub mod formats;
pub mod import_subtitles;

use std::sync::Arc;

use serde_json::{json, Value};

use super::create::{caption_style, TextPositions, TextStyles};
use super::{seconds, timeline_mut, Ctx, Output, ToolError};
use crate::error_code::ErrorCode;
use crate::model::{Element, ElementType, Track, TrackType};
use formats::Cue;

crate::tools::args::choices! {
    Formats = formats::FORMATS;
}

/// Whether `e` is a caption: a text element named `Caption <n>`.
pub fn is_caption(e: &Element) -> bool {
    let number = e.name.as_deref().and_then(|n| n.strip_prefix("Caption "));
    e.kind == ElementType::Text && number.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Places `captions` (sorted by start) on new caption tracks on top of the picture: each on the
/// first of them it fits, a new track below the others when it overlaps every one (a file's
/// overlapping cues), so none is dropped or cut. Numbers them `Caption 1`... in time order.
/// The result: the tracks' ids, how many, and the span they cover.
pub fn place(ctx: &mut Ctx, captions: &[Cue], style: Option<&str>, position: Option<&str>) -> Result<Value, ToolError> {
    let canvas = ctx.settings().canvas;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let mut look = Element::new(String::new(), ElementType::Text, 0, 1);
    caption_style(&mut look, style.unwrap_or("subtitle"), position.unwrap_or("bottom"), canvas);
    let mut tracks: Vec<Track> = Vec::new();
    for (i, c) in captions.iter().enumerate() {
        let mut e = look.clone();
        (e.id, e.start, e.duration) = (ctx.ids.next('e').into(), c.start, c.end - c.start);
        e.name = Some(format!("Caption {}", i + 1).into());
        e.content = Some(c.text.clone());
        let free = tracks.iter().position(|t| t.elements.last().is_none_or(|l| l.end() <= c.start));
        let ti = free.unwrap_or_else(|| {
            let mut t = Track::new(ctx.ids.next('t'), TrackType::Text);
            t.name = Some("Captions".into());
            tracks.push(t);
            tracks.len() - 1
        });
        tracks[ti].elements.push(Arc::new(e));
    }
    let ids: Vec<String> = tracks.iter().map(|t| t.id.clone()).collect();
    for (i, t) in tracks.into_iter().enumerate() {
        tl.tracks.insert(i, Arc::new(t));
    }
    let (first, last) = (captions.first().map_or(0, |c| c.start), captions.iter().map(|c| c.end).max().unwrap_or(0));
    Ok(json!({ "trackIds": ids, "count": captions.len(), "start": seconds(first), "end": seconds(last) }))
}

/// Cues in time order, ties in the order given (one sort for import and export).
pub fn by_start(cues: &mut [Cue]) {
    crate::sort::stable_sort_by_key(cues, |c| c.start);
}

/// "Invalid subtitles: line 3: malformed timing", or without a line for the file as a whole.
pub fn invalid_subtitles((line, why): formats::Bad) -> ToolError {
    let at = if line == 0 { String::new() } else { format!("line {line}: ") };
    ToolError::new(ErrorCode::InvalidSubtitles, format!("Invalid subtitles: {at}{why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caption_is_a_text_named_caption_and_a_number() {
        let named = |kind, name: &str| {
            let mut e = Element::new("e1".into(), kind, 0, 1);
            e.name = Some(name.into());
            is_caption(&e)
        };
        assert!(named(ElementType::Text, "Caption 12"));
        for other in ["Caption ", "Caption x", "Caption 1a", "Captions", "caption 1"] {
            assert!(!named(ElementType::Text, other), "{other}");
        }
        assert!(!named(ElementType::Video, "Caption 1"));
    }
}
