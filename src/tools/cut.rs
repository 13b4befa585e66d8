//! split, delete_timeline_elements and the deprecated delete_element.

use serde::Serialize;
use serde_json::{json, Value};

use super::{Output, seconds, timeline_mut, Args, Ctx, ToolError};
use crate::edits;
use crate::time::seconds_to_ticks;

pub fn split(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
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
    let cuts = edits::split(tl, &times, |prefix| ids.next(prefix));
    let mut affected: Vec<&str> = Vec::new();
    for c in &cuts {
        if !affected.contains(&c.original.as_str()) {
            affected.push(&c.original);
        }
    }
    let new_elements = cuts
        .iter()
        .map(|c| Piece { element_id: &c.piece, split_from: &c.original, track_id: &c.track, start: seconds(c.start), end: seconds(c.end) })
        .collect();
    Ok(Output::from_serialize(&SplitOutput { success: true, affected_elements: affected, new_elements }))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SplitOutput<'a> {
    success: bool,
    affected_elements: Vec<&'a str>,
    new_elements: Vec<Piece<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Piece<'a> {
    element_id: &'a str,
    split_from: &'a str,
    track_id: &'a str,
    start: Value,
    end: Value,
}

pub fn delete_timeline_elements(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let ids = args.id_list("elementIds", ToolError::invalid_element_ids)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let found = edits::locate(tl, &ids);
    let missing: Vec<String> = ids.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(id, _)| id.clone()).collect();
    if !missing.is_empty() {
        return Err(ToolError::elements_not_found(&missing));
    }
    edits::remove_at(tl, &found.into_iter().flatten().collect::<Vec<_>>());
    Ok(json!({ "success": true, "deletedElements": ids }).into())
}

pub fn delete_element(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let track_id = args.id("trackId", ToolError::element_not_found)?;
    let element_id = args.id("elementId", ToolError::element_not_found)?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ti = tl.track_index(track_id).ok_or_else(ToolError::element_not_found)?;
    if !tl.tracks[ti].elements.iter().any(|e| e.id == element_id) {
        return Err(ToolError::element_not_found());
    }
    tl.track_mut(ti).elements.retain(|e| e.id != element_id);
    Ok(json!({ "success": true }).into())
}
