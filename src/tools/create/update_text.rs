//! update_text (Update text): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "update_text",
    title: text!("Update text"),
    summary: text!("Edit text {elementId}[ to {text:q}]"),
    description: text!("Change a text element found by trackId and elementId (from list_timeline). Only the fields given change: text, start or end (timeline seconds; each moves that edge only), position."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Text element not found", "Element is not text", "Invalid time range", "Text is required", "Element <id> on track <id> is in the way (<start>s to <end>s)"]),
    example: text!(r#"{"trackId":"t3","elementId":"e7","text":"Day two"}"#),
    run: Some(run),
};

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct Arguments {
    /// Track id from list_timeline
    #[schemars(length(min = 1))]
    track_id: String,
    /// Text element id from list_timeline
    #[schemars(length(min = 1))]
    element_id: String,
    /// New text
    #[schemars(length(min = 1))]
    text: Option<String>,
    /// New start, in timeline seconds
    #[schemars(range(min = 0))]
    start: Option<f64>,
    /// New end, in timeline seconds
    #[schemars(range(min = 0))]
    end: Option<f64>,
    /// New position
    #[schemars(extend("enum" = TEXT_POSITIONS))]
    position: Option<String>,
}

#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct Returns {
    success: bool,
    element_id: String,
}

pub fn run(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let track_id = args.id("trackId", ToolError::text_element_not_found)?;
    let element_id = args.id("elementId", ToolError::text_element_not_found)?;
    let text = required_text(&args)?;
    let start = args.seconds("start").ok().ok_or_else(ToolError::invalid_range)?;
    let end = args.seconds("end").ok().ok_or_else(ToolError::invalid_range)?;
    let position = args.choice("position", &TEXT_POSITIONS)?;
    let canvas = ctx.settings().canvas;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ti = tl.track_index(track_id).ok_or_else(ToolError::text_element_not_found)?;
    let current = tl.tracks[ti].elements.iter().find(|e| e.id == element_id).ok_or_else(ToolError::text_element_not_found)?;
    if current.kind != ElementType::Text {
        return Err(ToolError::not_text());
    }
    let mut e = (**current).clone();
    // Start and end are the text's in and out points: each one given moves that edge only.
    let new_start = start.unwrap_or(e.start);
    let new_end = end.unwrap_or(e.end());
    if new_start < 0 || new_start >= new_end {
        return Err(ToolError::invalid_range());
    }
    e.start = new_start;
    let old_duration = e.duration;
    e.duration = new_end - new_start;
    let ids = &mut ctx.ids;
    edits::fit_animations(&mut e, old_duration, || ids.next('k'));
    if let Some(t) = text {
        e.name = Some(text_name(t).into());
        e.content = Some(t.to_string());
    }
    if let Some(p) = position {
        set_position(&mut e, p, canvas);
    }
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(json!({ "success": true, "elementId": element_id }).into())
}
