//! move_timeline_elements and update_timeline_element_timing.

use serde_json::{json, Value};

use super::{Output, edit_error, seconds, timeline_mut, Args, Ctx, ToolError};
use crate::edits::{self, Move};
use crate::model::Element;

pub fn move_timeline_elements(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let ids = args.id_list("elementIds", ToolError::invalid_element_ids)?;
    let start = match args.seconds("start") {
        Ok(Some(t)) if t >= 0 => t,
        _ => return Err(ToolError::invalid_start()),
    };
    let target = match args.get("targetTrackId") {
        None => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(ToolError::invalid_argument("targetTrackId", "a track id string")),
    };
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let found = edits::locate(tl, &ids);
    let missing: Vec<String> = ids.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(id, _)| id.clone()).collect();
    if !missing.is_empty() {
        return Err(ToolError::elements_not_found(&missing));
    }
    let found: Vec<(usize, usize)> = found.into_iter().flatten().collect();
    let element = |&(ti, ei): &(usize, usize)| -> &Element { &tl.tracks[ti].elements[ei] };
    let target_index = match target {
        None => None,
        Some(id) => Some(tl.track_index(id).ok_or_else(|| ToolError::target_track_not_found(id))?),
    };
    if let Some(ti) = target_index {
        let track = &tl.tracks[ti];
        if let Some(e) = found.iter().map(element).find(|e| !track.kind.accepts(e.kind)) {
            return Err(ToolError::incompatible_track(&track.id, track.kind.as_str(), e.kind.as_str()));
        }
    }
    let earliest = found.iter().map(|p| element(p).start).min().unwrap_or(0);
    let offset = start - earliest;
    let moves: Vec<Move> = found
        .iter()
        .map(|&(ti, ei)| {
            let mut e = element(&(ti, ei)).clone();
            e.start += offset;
            Move { element: e, from: (ti, ei), track: target_index.unwrap_or(ti) }
        })
        .collect();
    let summary: Vec<Value> = moves
        .iter()
        .map(|m| {
            json!({
                "elementId": m.element.id,
                "trackId": tl.tracks[m.track].id,
                "start": seconds(m.element.start),
                "end": seconds(m.element.end()),
            })
        })
        .collect();
    edits::relocate(tl, moves).map_err(edit_error)?;
    Ok(json!({ "success": true, "movedElements": summary }).into())
}

pub fn update_timeline_element_timing(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let id = args.id("elementId", ToolError::invalid_element_id)?;
    if !(args.has("start") || args.has("end") || args.has("duration")) {
        return Err(ToolError::invalid_timing_update().with_hint("Pass at least one of start, end or duration (seconds)."));
    }
    let start = match args.seconds("start") {
        Ok(Some(t)) if t < 0 => return Err(ToolError::invalid_start()),
        Ok(v) => v,
        Err(()) => return Err(ToolError::invalid_start()),
    };
    let end = match args.seconds("end") {
        Ok(Some(t)) if t < 0 => return Err(ToolError::invalid_end()),
        Ok(v) => v,
        Err(()) => return Err(ToolError::invalid_end()),
    };
    let duration = match args.seconds("duration") {
        Ok(Some(t)) if t <= 0 => return Err(ToolError::invalid_duration()),
        Ok(v) => v,
        Err(()) => return Err(ToolError::invalid_duration()),
    };
    let project_assets = ctx.project().ok();
    let tl = timeline_mut(&mut ctx.timeline)?;
    let (ti, ei) = tl.find(id).ok_or_else(|| ToolError::timeline_element_not_found(id))?;
    let mut e = (*tl.tracks[ti].elements[ei]).clone();
    let new_start = start.unwrap_or(e.start);
    let new_duration = match (end, duration) {
        (Some(end), Some(d)) if new_start + d != end => return Err(ToolError::conflicting_timing()),
        (_, Some(d)) => d,
        (Some(end), None) => end - new_start,
        (None, None) => e.duration,
    };
    if new_duration <= 0 {
        return Err(ToolError::invalid_range());
    }
    // A retimed clip moved without a new length keeps its trims as they are: they may carry the
    // tick or two of rounding OpenCut leaves (Element::plays_past), which a move must not refuse.
    let pure_move = e.rate() != 1.0 && new_duration == e.duration;
    if e.kind.is_timed_media() && !pure_move {
        let known = e.asset_id.as_deref().and_then(|a| project_assets.and_then(|p| p.asset(a))).and_then(|a| a.duration_ticks());
        let source = known.unwrap_or_else(|| e.source_span());
        // A retimed clip plays `duration · rate` of source; the head stays where it was.
        let played = e.source_ticks(new_duration);
        if e.trim_start.saturating_add(played) > source {
            return Err(ToolError::duration_exceeds_source());
        }
        e.trim_end = source - e.trim_start - played;
    }
    e.start = new_start;
    let old_duration = e.duration;
    e.duration = new_duration;
    let ids = &mut ctx.ids;
    edits::fit_animations(&mut e, old_duration, || ids.next('k'));
    let track_id = tl.tracks[ti].id.clone();
    let out = json!({
        "success": true,
        "elementId": e.id,
        "trackId": track_id,
        "start": seconds(e.start),
        "end": seconds(e.end()),
        "duration": seconds(e.duration),
    });
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(out.into())
}
