//! update_text (Update text): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "update_text",
    title: text!("Update text"),
    summary: text!("Edit text {elementId}[ to {text:q}]"),
    description: text!("Change a text element found by trackId and elementId (from list_timeline). Only the fields given change: text, start or end (timeline seconds; each moves that edge only), position, and OpenCut's text settings: fontFamily, fontSize (pixels), color, fontWeight, fontStyle, textAlign, textDecoration, letterSpacing, lineHeight, and the background box {enabled, color, paddingX, paddingY, offsetX, offsetY, cornerRadius} (given, it is drawn unless enabled is false). Keyframes on color or the box override the value set here."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Text element not found", "Element is not text", "Invalid time range", "Text is required", "Element <id> on track <id> is in the way (<start>s to <end>s)"]),
    example: text!(r#"{"trackId":"t3","elementId":"e7","text":"Day two"}"#),
    run: typed!(run),
};

text_arguments! {
    /// Track id from list_timeline
    track_id: Arg<NonEmpty>,
    /// Text element id from list_timeline
    element_id: Arg<NonEmpty>,
    /// New text
    text: Arg<Option<NonEmpty>>,
    /// New start, in timeline seconds
    #[schemars(range(min = 0))]
    start: Arg<Option<f64>>,
    /// New end, in timeline seconds
    #[schemars(range(min = 0))]
    end: Arg<Option<f64>>,
    /// New position
    position: Arg<Option<Choice<TextPositions>>>,
}

returns! {
    pub struct Returns {
        success: bool,
        element_id: String,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let track_id = args.track_id.id(ToolError::text_element_not_found)?;
    let element_id = args.element_id.id(ToolError::text_element_not_found)?;
    let text = required_text(&args.text)?;
    let start = args.start.seconds().ok().ok_or_else(ToolError::invalid_range)?;
    let end = args.end.seconds().ok().ok_or_else(ToolError::invalid_range)?;
    let position = args.position.choice("position")?;
    let canvas = ctx.settings().canvas;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let (ti, current) = element_on_track(tl, track_id, element_id, ToolError::text_element_not_found)?;
    if current.kind != ElementType::Text {
        return Err(ToolError::not_text());
    }
    let mut e = current.clone();
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
        // A caption keeps its name: the name is what makes it one (tools::captions).
        if !crate::tools::captions::is_caption(&e) {
            e.name = Some(text_name(t).into());
        }
        e.content = Some(t.to_string());
    }
    if let Some(p) = position {
        set_position(&mut e, p, canvas);
    }
    set_text_style(&mut e, &args.text_settings(), args.background.get())?;
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(crate::text::obj([("success", serde_json::Value::from(true)), ("elementId", serde_json::Value::from(element_id))]).into())
}
