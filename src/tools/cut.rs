//! split, delete_timeline_elements and the deprecated delete_element.

use std::collections::HashSet;

use serde_json::{json, Value};

use super::{seconds, timeline_mut, Args, Ctx, ToolError};
use crate::edits;
use crate::time::seconds_to_ticks;

pub fn split(ctx: &mut Ctx, args: Args) -> Result<Value, ToolError> {
    let Some(Value::Array(raw)) = args.get("times") else { return Err(ToolError::invalid_split_times()) };
    let times = raw
        .iter()
        .map(|v| v.as_f64().and_then(seconds_to_ticks).filter(|t| *t >= 0))
        .collect::<Option<Vec<i64>>>()
        .filter(|t| !t.is_empty())
        .ok_or_else(ToolError::invalid_split_times)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let ids = &mut ctx.ids;
    let cuts = edits::split(tl, &times, || ids.next('e'));
    let mut affected: Vec<&str> = Vec::new();
    for c in &cuts {
        if !affected.contains(&c.original.as_str()) {
            affected.push(&c.original);
        }
    }
    let pieces: Vec<Value> = cuts
        .iter()
        .map(|c| {
            json!({
                "elementId": c.piece,
                "splitFrom": c.original,
                "trackId": c.track,
                "start": seconds(c.start),
                "end": seconds(c.end),
            })
        })
        .collect();
    Ok(json!({ "success": true, "affectedElements": affected, "newElements": pieces }))
}

pub fn delete_timeline_elements(ctx: &mut Ctx, args: Args) -> Result<Value, ToolError> {
    let ids = args.id_list("elementIds", ToolError::invalid_element_ids)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let found: HashSet<&str> = tl
        .tracks
        .iter()
        .flat_map(|t| t.elements.iter())
        .filter(|e| wanted.contains(e.id.as_str()))
        .map(|e| wanted.get(e.id.as_str()).copied().unwrap_or_default())
        .collect();
    let missing: Vec<String> = ids.iter().filter(|id| !found.contains(id.as_str())).cloned().collect();
    if !missing.is_empty() {
        return Err(ToolError::elements_not_found(&missing));
    }
    edits::remove(tl, &wanted);
    Ok(json!({ "success": true, "deletedElements": ids }))
}

pub fn delete_element(ctx: &mut Ctx, args: Args) -> Result<Value, ToolError> {
    let track_id = args.id("trackId", ToolError::element_not_found)?;
    let element_id = args.id("elementId", ToolError::element_not_found)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ti = tl.track_index(track_id).ok_or_else(ToolError::element_not_found)?;
    if !tl.tracks[ti].elements.iter().any(|e| e.id == element_id) {
        return Err(ToolError::element_not_found());
    }
    tl.track_mut(ti).elements.retain(|e| e.id != element_id);
    Ok(json!({ "success": true }))
}
