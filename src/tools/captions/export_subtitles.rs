//! export_subtitles (Export subtitles): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "export_subtitles",
    title: text!("Export subtitles"),
    summary: text!("Export {format} subtitles"),
    description: text!("Write the timeline's captions as a subtitle file: srt, vtt or ass. The captions are the text elements named Caption <n> (what add_captions and import_subtitles make, and OpenCut's own caption flow) that are shown (not hidden, nor on a hidden track), as they are now after any edit, in time order: each cue is one caption's text and times, to the millisecond (ASS holds hundredths of a second). Returns the file's text; changes nothing."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: LISTING,
    errors: list!(&["No captions to export", "Argument \"<name>\" must be <rule>"]),
    example: text!(r#"{"format":"srt"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// The file format
        format: Arg<Choice<Formats>>,
    }
}

returns! {
    pub struct Returns {
        format: String,
        /// Cues written
        count: u32,
        /// The file's text
        text: String,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let format = args.format.choice("format")?;
    let canvas = ctx.settings().canvas;
    let tl = ctx.timeline()?;
    let mut cues: Vec<formats::Cue> = Vec::new();
    for track in tl.tracks.iter().filter(|t| t.hidden != Some(true)) {
        for e in track.elements.iter().filter(|e| is_caption(e) && e.hidden != Some(true)) {
            let text = formats::clean(e.content.as_deref().unwrap_or(""));
            if !text.is_empty() {
                cues.push(formats::Cue { start: e.start, end: e.end(), text });
            }
        }
    }
    if cues.is_empty() {
        return Err(ToolError::new(ErrorCode::NoCaptions, "No captions to export")
            .with_hint("Captions are the text elements named Caption <n>: add_captions and import_subtitles make them."));
    }
    by_start(&mut cues);
    let text = formats::write(format, &cues, canvas.width, canvas.height);
    Ok(json!({ "format": format, "count": cues.len(), "text": text }).into())
}
