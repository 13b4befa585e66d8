//! import_subtitles (Import subtitles): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "import_subtitles",
    title: text!("Import subtitles"),
    summary: text!("Import {format} subtitles"),
    description: text!("Add a subtitle file's cues as captions (text elements named Caption 1, 2, ...) on a new captions track on top of the picture, one undo step, each at its cue's times to the millisecond. text is the file's content; format srt (SubRip), vtt (WebVTT) or ass (Advanced SubStation Alpha: its Dialogue lines, override tags such as {\\i1} dropped, \\N a line break; its styles are not carried). Overlapping cues go on further captions tracks, so none is cut. A malformed cue fails the whole call, naming its line; nothing changes."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&["Invalid subtitles: <why>", "Argument \"<name>\" must be <rule>"]),
    example: text!(r#"{"format":"srt","text":"1\n00:00:00,500 --> 00:00:02,000\nHello there\n\n2\n00:00:02,000 --> 00:00:03,250\nGeneral Kenobi\n"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// The subtitle file's text
        text: Arg<String>,
        /// Its format
        format: Arg<Choice<Formats>>,
        /// Style preset (default subtitle)
        style: Arg<Option<Choice<TextStyles>>>,
        /// Where in the frame (default bottom)
        position: Arg<Option<Choice<TextPositions>>>,
    }
}

// The same answer as add_captions: the tracks, how many captions, their span.
pub use super::add_captions::Returns;

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let format = args.format.choice("format")?;
    let text = args.text.read().map_err(|_| ToolError::invalid_argument("text", "the subtitle file's text"))?;
    let style = args.style.choice("style")?;
    let position = args.position.choice("position")?;
    ctx.timeline()?;
    let mut cues = formats::parse(format, text).map_err(invalid_subtitles)?;
    by_start(&mut cues);
    Ok(place(ctx, &cues, style, position)?.into())
}
