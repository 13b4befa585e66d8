//! add_captions (Add captions): its definition, argument and result types, and run function.

use super::*;
use crate::time::{seconds_to_ticks, TICKS_PER_SECOND};
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "add_captions",
    title: text!("Add captions"),
    summary: text!("Caption[ {elementId}][ {assetId}]"),
    description: text!("Caption speech in one step: the words of a transcript become caption text elements (named Caption 1, 2, ...) on a new captions track on top of the picture, one undo step. Each caption runs from its first word's start to its last word's end (at least minDuration, never into the next caption), holds at most maxLines lines of at most maxCharsPerLine characters broken at word boundaries, and ends at a sentence's end or a pause of 1 s. Give elementId (a video or audio element) or assetId; words are transcribe_video's segments' words in timeline seconds: the in-page agent fills them from transcribe_video when you leave them out, so call add_captions { elementId } alone. Edit one caption later with update_text; export_subtitles writes them as SRT, VTT or ASS."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&[
        "Give assetId or elementId, not both",
        "Element not found",
        "Asset not found",
        "Unsupported asset type",
        "No words to caption",
        "Invalid words: word <n> <why>",
        "Asset is not on the timeline",
        "Argument \"<name>\" must be <rule>"
    ]),
    example: text!(
        r#"{"elementId":"e5","words":[{"start":0.2,"end":0.5,"text":"Welcome"},{"start":0.5,"end":0.7,"text":"to"},{"start":0.7,"end":1.1,"text":"the"},{"start":1.1,"end":1.6,"text":"show."}],"maxCharsPerLine":12}"#
    ),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// The video or audio element whose speech it is (from list_timeline); words outside it are left out
        element_id: Arg<Option<NonEmpty>>,
        /// The video or audio asset whose speech it is, for every placement of it
        asset_id: Arg<Option<NonEmpty>>,
        /// The words, timeline seconds, in spoken order: transcribe_video's segments[].words. Left out, the in-page agent fills them from transcribe_video
        #[schemars(length(max = 100000))]
        words: Arg<Option<Vec<Word>>>,
        /// Most characters on one line (default 42)
        #[schemars(range(min = 1, max = 200))]
        max_chars_per_line: Arg<Option<i64>>,
        /// Most lines in one caption (default 2)
        #[schemars(range(min = 1, max = 10))]
        max_lines: Arg<Option<i64>>,
        /// Shortest a caption stays, seconds, unless the next one starts (default 0.8, OpenCut's)
        #[schemars(range(min = 0, max = 10))]
        min_duration: Arg<Option<f64>>,
        /// Style preset (default subtitle)
        style: Arg<Option<Choice<TextStyles>>>,
        /// Where in the frame (default bottom)
        position: Arg<Option<Choice<TextPositions>>>,
    }
}

/// One spoken word.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Word {
    #[schemars(range(min = 0))]
    start: f64,
    #[schemars(range(min = 0))]
    end: f64,
    text: String,
}

// Parsed word by word by `words`; `read` checks only that each is an object.
impl Read for Word {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        v.is_object().then_some(v)
    }
}

returns! {
    pub struct Returns {
        /// The captions tracks, top first (more than one when cues overlap)
        track_ids: Vec<String>,
        /// Captions added
        count: u32,
        /// The first caption's start, seconds
        start: f64,
        /// The last caption's end, seconds
        end: f64,
    }
}

/// A caption ends at a gap between words this long.
const PAUSE: i64 = TICKS_PER_SECOND;

struct W<'a> {
    start: i64,
    end: i64,
    text: &'a str,
}

fn invalid(n: usize, why: &str) -> ToolError {
    ToolError::new(ErrorCode::InvalidWords, format!("Invalid words: word {n} {why}"))
        .with_hint("words is a list of {\"start\": s, \"end\": e, \"text\": \"...\"} in timeline seconds, in spoken order, as transcribe_video gives them.")
}

fn no_words() -> ToolError {
    ToolError::new(ErrorCode::NoWords, "No words to caption")
        .with_hint("Call transcribe_video with this elementId or assetId and pass its segments' words (the in-page agent does this when words are left out).")
}

/// The words heard in `[from, to)`, checked one by one.
fn words(raw: &Value, from: i64, to: i64) -> Result<Vec<W<'_>>, ToolError> {
    let items = raw.as_array().ok_or_else(|| ToolError::invalid_argument("words", "a list of words"))?;
    let (mut out, mut last): (Vec<W>, i64) = (Vec::with_capacity(items.len()), 0);
    for (i, item) in items.iter().enumerate() {
        let n = i + 1;
        let o = item
            .as_object()
            .filter(|o| o.keys().all(|k| matches!(k.as_str(), "start" | "end" | "text")))
            .ok_or_else(|| invalid(n, "is not { start, end, text }"))?;
        let tick = |k: &str| o.get(k).and_then(Value::as_f64).and_then(seconds_to_ticks).filter(|t| *t >= 0);
        let (Some(start), Some(end)) = (tick("start"), tick("end")) else { return Err(invalid(n, "needs a start and an end of 0 s or more")) };
        let text = o.get("text").and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty()).ok_or_else(|| invalid(n, "has no text"))?;
        if end < start {
            return Err(invalid(n, "ends before it starts"));
        }
        if start < last {
            return Err(invalid(n, "starts before the word before it"));
        }
        last = start;
        if start < to && (end > from || start >= from) {
            out.push(W { start, end, text });
        }
    }
    Ok(out)
}

/// A read count in `1..=max`, or `default`.
fn count(arg: &Arg<Option<i64>>, key: &str, what: &str, max: i64, default: i64) -> Result<usize, ToolError> {
    match arg.read() {
        Ok(v) if v.is_none_or(|v| (1..=max).contains(&v)) => Ok(v.unwrap_or(default) as usize),
        _ => Err(ToolError::invalid_argument(key, what)),
    }
}

/// The words as captions. Lines fill greedily up to `chars` characters (a longer word alone on its
/// line), at most `lines` of them; a caption ends after a sentence's end or before a pause. It
/// runs from its first word's start (or the previous caption's end, when words overlap) to its
/// last word's end, lengthened to `min` unless that runs into the next caption's first word, and
/// lasts at least a tick.
fn captions(words: &[W], chars: usize, lines: usize, min: i64) -> Vec<Cue> {
    let mut out: Vec<Cue> = Vec::new();
    let (mut first, mut text, mut line_len, mut line_count) = (0, String::new(), 0, 1);
    // Ends the caption of words[first..upto], the next one starting at words[upto] if any.
    let flush = |out: &mut Vec<Cue>, first: usize, upto: usize, text: String| {
        let start = words[first].start.max(out.last().map_or(0, |c| c.end));
        let last = words[first..upto].iter().map(|w| w.end).max().unwrap_or(start);
        let mut end = last.max(start + min);
        if let Some(next) = words.get(upto) {
            end = end.min(next.start.max(last));
        }
        out.push(Cue { start, end: end.max(start + 1), text });
    };
    for (i, w) in words.iter().enumerate() {
        let len = w.text.chars().count();
        let after = i.checked_sub(1).map(|p| &words[p]);
        let breaks = after.is_some_and(|p| matches!(p.text.chars().last(), Some('.' | '?' | '!' | '…')) || w.start - p.end >= PAUSE);
        let fits = line_len + 1 + len <= chars;
        if i > first && (breaks || (!fits && line_count == lines)) {
            flush(&mut out, first, i, std::mem::take(&mut text));
            (first, line_len, line_count) = (i, 0, 1);
        }
        if line_len == 0 {
        } else if fits {
            text.push(' ');
            line_len += 1;
        } else {
            text.push('\n');
            (line_len, line_count) = (0, line_count + 1);
        }
        text.push_str(w.text);
        line_len += len;
    }
    if first < words.len() {
        flush(&mut out, first, words.len(), text);
    }
    out
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let element_id = args.element_id.string("elementId")?;
    let asset_id = args.asset_id.string("assetId")?;
    let chars = count(&args.max_chars_per_line, "maxCharsPerLine", "a whole number from 1 to 200", 200, 42)?;
    let lines = count(&args.max_lines, "maxLines", "a whole number from 1 to 10", 10, 2)?;
    let min = match args.min_duration.read() {
        Ok(v) if v.is_none_or(|s| (0.0..=10.0).contains(&s)) => v.and_then(seconds_to_ticks).unwrap_or(TICKS_PER_SECOND * 4 / 5),
        _ => return Err(ToolError::invalid_argument("minDuration", "a number of seconds from 0 to 10")),
    };
    let style = args.style.choice("style")?;
    let position = args.position.choice("position")?;
    let raw = args.words.get().ok_or_else(no_words)?;
    let tl = ctx.timeline()?;
    // Only what the element plays is heard.
    let (mut from, mut to) = (0, i64::MAX);
    match (element_id, asset_id) {
        (Some(_), Some(_)) => return Err(ToolError::new(ErrorCode::InvalidArguments, "Give assetId or elementId, not both")),
        (Some(id), None) => {
            let e = tl.tracks.iter().flat_map(|t| t.elements.iter()).find(|e| e.id == id).ok_or_else(ToolError::element_not_found)?;
            if !e.kind.is_timed_media() {
                return Err(ToolError::unsupported_asset_type().with_hint("add_captions takes a video or audio element."));
            }
            (from, to) = (e.start, e.end());
        }
        (None, Some(id)) => {
            let a = ctx.asset(id).ok_or_else(ToolError::asset_not_found)?;
            if !matches!(a.kind, crate::model::AssetType::Video | crate::model::AssetType::Audio) {
                return Err(ToolError::unsupported_asset_type().with_hint("add_captions takes a video or audio asset."));
            }
        }
        (None, None) => {}
    }
    let words = words(raw, from, to)?;
    if words.is_empty() {
        return Err(no_words());
    }
    let captions = captions(&words, chars, lines, min);
    Ok(place(ctx, &captions, style, position)?.into())
}
