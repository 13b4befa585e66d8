//! add_text (Add text): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "add_text",
    title: text!("Add text"),
    summary: text!("Add text {text:q} at {start:time}"),
    description: text!("Add a text element (title, hook, label or one subtitle line) from start to end (timeline seconds) at the top, center or bottom of the frame, with an optional style preset (plain, subtitle, hook, label) and any of OpenCut's text settings over it: fontFamily, fontSize (pixels), color, fontWeight, fontStyle, textAlign, textDecoration, letterSpacing, lineHeight, and a background box {color, paddingX, paddingY, offsetX, offsetY, cornerRadius}. It goes on the first text track free at that time; a new text track is created when none is. For subtitles, call it once per line."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&["Text is required", "Invalid time range", "This host does not draw <type> elements"]),
    example: text!(r#"{"text":"Day one","start":0,"end":2,"position":"top","style":"hook"}"#),
    run: typed!(run),
};

text_arguments! {
    /// The text to show
    text: Arg<NonEmpty>,
    /// When it appears, in timeline seconds
    #[schemars(range(min = 0))]
    start: Arg<f64>,
    /// When it disappears, in timeline seconds
    #[schemars(range(min = 0))]
    end: Arg<f64>,
    /// Where in the frame
    position: Arg<Choice<TextPositions>>,
    /// Style preset (default plain)
    style: Arg<Option<Choice<TextStyles>>>,
}

returns! {
    pub struct Returns {
        element_id: String,
        track_id: String,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let text = args.text.id(ToolError::text_required)?;
    let (start, end) = range(&args.start, &args.end, ToolError::invalid_range)?;
    let position = args.position.choice("position")?;
    let style = args.style.choice("style")?.unwrap_or("plain");
    ctx.drawn(ElementType::Text)?;
    let canvas = ctx.settings().canvas;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), ElementType::Text, start, end - start);
    e.name = Some(text_name(text).into());
    e.content = Some(text.to_string());
    apply_style(&mut e, style, canvas);
    set_text_style(&mut e, &args.text_settings(), args.background.get())?;
    set_position(&mut e, position, canvas);
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, TrackType::Text, e, || ids.next('t')).map_err(edit_error)?;
    Ok(placed(ctx, ti, &id).into())
}
