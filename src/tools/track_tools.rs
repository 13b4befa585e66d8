//! update_track, move_track and duplicate_elements.

use crate::error_code::ErrorCode;
use serde_json::{json, Value};

use super::{edit_error, seconds, timeline_mut, Args, Ctx, Output, ToolError};
use crate::edits;
use crate::model::{Timeline, TrackType};

fn track_not_found(id: &str) -> ToolError {
    ToolError::new(ErrorCode::TrackNotFound, format!("Track not found: {id}")).with_hint("Call list_timeline to get the current track ids.")
}

fn invalid_track_id() -> ToolError {
    ToolError::new(ErrorCode::InvalidTrackId, "Invalid track id")
}

pub fn update_track(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let id = args.id("trackId", invalid_track_id)?;
    let flag = |key: &str| -> Result<Option<bool>, ToolError> {
        match args.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(ToolError::invalid_argument(key, "true or false")),
        }
    };
    let (muted, hidden) = (flag("muted")?, flag("hidden")?);
    let name = match args.get("name") {
        None => None,
        Some(Value::String(s)) if !s.trim().is_empty() && s.chars().count() <= 100 => Some(s.trim().to_string()),
        Some(_) => return Err(ToolError::invalid_argument("name", "a non-empty string of at most 100 characters")),
    };
    if muted.is_none() && hidden.is_none() && name.is_none() {
        return Err(ToolError::new(ErrorCode::NoTrackChange, "update_track needs muted, hidden or name"));
    }
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ti = tl.track_index(id).ok_or_else(|| track_not_found(id))?;
    let kind = tl.tracks[ti].kind;
    // OpenCut's track flags: video tracks have both, audio only muted, the others only hidden.
    if muted.is_some() && !matches!(kind, TrackType::Main | TrackType::Overlay | TrackType::Audio) {
        return Err(ToolError::new(ErrorCode::TrackFlagNotSupported, format!("Track {id} is {} {} track, which cannot be muted (it makes no sound)", article(kind.as_str()), kind.as_str())));
    }
    if hidden.is_some() && kind == TrackType::Audio {
        return Err(ToolError::new(ErrorCode::TrackFlagNotSupported, format!("Track {id} is an audio track, which cannot be hidden (mute it instead)")));
    }
    let track = tl.track_mut(ti);
    if let Some(m) = muted {
        track.muted = Some(m);
    }
    if let Some(h) = hidden {
        track.hidden = Some(h);
    }
    if let Some(n) = name {
        track.name = Some(n);
    }
    let mut out = json!({ "success": true, "trackId": track.id, "type": track.kind.as_str() });
    if let Some(n) = &track.name {
        out["name"] = n.as_str().into();
    }
    if kind != TrackType::Audio {
        out["hidden"] = track.hidden.unwrap_or(false).into();
    }
    if matches!(kind, TrackType::Main | TrackType::Overlay | TrackType::Audio) {
        out["muted"] = track.muted.unwrap_or(false).into();
    }
    Ok(out.into())
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

pub fn move_track(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let id = args.id("trackId", invalid_track_id)?;
    let index = match args.get("index") {
        None => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| ToolError::invalid_argument("index", "a whole number >= 0 (a position in list_timeline's track order)"))? as usize),
    };
    let above = args.string("above")?;
    let below = args.string("below")?;
    if [index.is_some(), above.is_some(), below.is_some()].iter().filter(|b| **b).count() != 1 {
        return Err(ToolError::new(ErrorCode::InvalidTrackPosition, "Give exactly one of index, above or below"));
    }
    let tl = timeline_mut(&mut ctx.timeline)?;
    let from = tl.track_index(id).ok_or_else(|| track_not_found(id))?;
    let kind = tl.tracks[from].kind;
    let Some((lo, hi)) = allowed(tl, kind) else {
        return Err(ToolError::new(ErrorCode::InvalidTrackPosition, format!("Track {id} is the main track, which stays between the visual and the audio tracks")));
    };
    // The position counted in the list as it is now; the track is then taken out and put there.
    let to = match (index, above, below) {
        (Some(i), _, _) => i,
        (_, Some(other), _) | (_, _, Some(other)) => {
            let at = tl.track_index(other).ok_or_else(|| track_not_found(other))?;
            if at == from {
                return Err(ToolError::new(ErrorCode::InvalidTrackPosition, "A track cannot move above or below itself"));
            }
            let at = if at > from { at - 1 } else { at };
            if above.is_some() { at } else { at + 1 }
        }
        _ => unreachable!("exactly one was checked"),
    };
    if !(lo..=hi).contains(&to) {
        let group = if kind == TrackType::Audio { "audio tracks stay below the main track" } else { "visual tracks stay above the main track" };
        return Err(ToolError::new(ErrorCode::InvalidTrackPosition, format!("Track {id} can move to index {lo} to {hi} ({group})"))
            .with("min", lo)
            .with("max", hi));
    }
    let track = tl.tracks.remove(from);
    tl.tracks.insert(to, track);
    let order: Vec<&str> = tl.tracks.iter().map(|t| t.id.as_str()).collect();
    Ok(json!({ "success": true, "trackId": id, "index": to, "tracks": order }).into())
}

pub fn duplicate_elements(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let ids = args.id_list("elementIds", ToolError::invalid_element_ids)?;
    let offset = match args.get("offset") {
        None => None,
        Some(v) => Some(v.as_f64().and_then(|s| crate::time::seconds_to_ticks(s.abs()).map(|t| if s < 0.0 { -t } else { t })).ok_or_else(|| ToolError::invalid_argument("offset", "a number of seconds"))?),
    };
    let start = match args.seconds("startTime") {
        Ok(s) => s,
        Err(()) => return Err(ToolError::invalid_start()),
    };
    if offset.is_some() && start.is_some() {
        return Err(ToolError::new(ErrorCode::ConflictingPlacement, "Give offset or startTime, not both"));
    }
    let target = args.string("trackId")?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let found = edits::locate(tl, &ids);
    let missing: Vec<String> = ids.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(id, _)| id.clone()).collect();
    if !missing.is_empty() {
        return Err(ToolError::elements_not_found(&missing));
    }
    let found: Vec<(usize, usize)> = found.into_iter().flatten().collect();
    let originals: Vec<(usize, crate::model::Element)> =
        found.iter().map(|&(ti, ei)| (ti, tl.tracks[ti].elements[ei].as_ref().clone())).collect();
    let earliest = originals.iter().map(|(_, e)| e.start).min().unwrap_or(0);
    let latest = originals.iter().map(|(_, e)| e.end()).max().unwrap_or(0);
    // By default the copies follow the originals, as a paste after the selection would.
    let shift = match (offset, start) {
        (Some(o), _) => o,
        (_, Some(s)) => s - earliest,
        _ => latest - earliest,
    };
    if earliest + shift < 0 {
        return Err(ToolError::invalid_start().with_hint("The copies would start before 0 s."));
    }
    let target_track = match target {
        None => None,
        Some(t) => Some(tl.tracks[tl.track_index(t).ok_or_else(|| ToolError::target_track_not_found(t))?].id.clone()),
    };
    let mut out = Vec::with_capacity(originals.len());
    for (ti, original) in originals {
        let mut copy = original.clone();
        copy.id = ctx.ids.next('e').into();
        copy.start = original.start + shift;
        // Keyframes get ids of their own, as OpenCut's duplicate gives them.
        if let Some(anims) = copy.animations.as_mut() {
            for data in anims.values_mut() {
                renumber_keys(data, &mut || ctx.ids.next('k'));
            }
        }
        let new_id = copy.id.clone();
        let (cs, ce) = (copy.start, copy.end());
        let placed = match &target_track {
            Some(t) => {
                let at = tl.track_index(t).expect("found above");
                let track = &tl.tracks[at];
                if !track.kind.accepts(copy.kind) {
                    return Err(ToolError::incompatible_track(&track.id, track.kind.as_str(), copy.kind.as_str()));
                }
                edits::insert(tl, at, copy).map_err(super::edit_error)?;
                at
            }
            None => {
                let own = tl.track_index(&tl_track_id(tl, ti, &original.id)).unwrap_or(ti);
                if tl.tracks[own].first_overlap(cs, ce, &|_| false).is_none() {
                    edits::insert(tl, own, copy).map_err(edit_error)?;
                    own
                } else {
                    let kind = tl.tracks[own].kind;
                    let ids = &mut ctx.ids;
                    edits::place(tl, kind, copy, || ids.next('t')).map_err(edit_error)?
                }
            }
        };
        out.push(json!({
            "elementId": new_id.as_str(),
            "sourceId": original.id.as_str(),
            "trackId": tl.tracks[placed].id,
            "start": seconds(cs),
            "end": seconds(ce),
        }));
    }
    Ok(json!({ "success": true, "elements": out }).into())
}

/// The id of the track that holds `element` now (new tracks may have shifted indices).
fn tl_track_id(tl: &Timeline, _was: usize, element: &str) -> String {
    tl.element(element).map(|(t, _)| t.id.clone()).unwrap_or_default()
}

fn renumber_keys(data: &mut Value, new_id: &mut dyn FnMut() -> String) {
    if let Some(keys) = data.get_mut("keys").and_then(Value::as_array_mut) {
        for k in keys.iter_mut().filter_map(Value::as_object_mut) {
            if k.contains_key("id") {
                k.insert("id".into(), new_id().into());
            }
        }
    } else if let Some(o) = data.as_object_mut() {
        for v in o.values_mut() {
            if v.get("keys").is_some() {
                renumber_keys(v, new_id);
            }
        }
    }
}
