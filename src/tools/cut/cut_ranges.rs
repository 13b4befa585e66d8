//! cut_ranges (Cut out time ranges): its definition, argument and result types, and run function.

use super::*;
use crate::error_code::ErrorCode;
use crate::ranges::{self, Span};
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "cut_ranges",
    title: text!("Cut out time ranges"),
    summary: text!("Cut out {ranges:n range}"),
    description: text!("Remove spans of timeline time (seconds) from every track, or from the tracks in trackIds, in one undo step: elements a span cuts through are divided at its edges as split divides them and the parts inside go; the first part left keeps the element's id. With ripple (the default) everything after a span moves left by its length on those tracks, so no gap is left and picture, sound, captions and effects stay in sync; ripple false leaves the gaps. Overlapping or touching ranges are joined. This is how silences or filler words are removed: find them (detect_silences, a transcript), then cut them. Example: {\"ranges\":[{\"start\":4.2,\"end\":5.0},{\"start\":9,\"end\":9.6}]}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: Annotations { read_only: false, destructive: true, idempotent: false, open_world: false, untrusted_content: false },
    errors: list!(&[INVALID_RANGES, "Track not found: <id>", "Invalid track id", "No timeline content"]),
    example: text!(r#"{"ranges":[{"start":4.2,"end":5.0}]}"#),
    run: typed!(run),
};

const INVALID_RANGES: &str = "Invalid ranges";

arguments! {
    pub struct Arguments {
        /// Timeline spans to remove, seconds, each start < end
        #[schemars(length(min = 1))]
        ranges: Arg<Vec<Range>>,
        /// Close the gaps by moving later elements left (default true)
        ripple: Arg<Option<bool>>,
        /// Only these tracks (ids from list_timeline); default every track
        #[schemars(length(min = 1))]
        track_ids: Arg<Option<Vec<NonEmpty>>>,
    }
}

/// One span of timeline time.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Range {
    #[schemars(range(min = 0))]
    start: f64,
    #[schemars(range(min = 0))]
    end: f64,
}

returns! {
    pub struct Returns {
    success: bool,
    /// The spans removed, joined and in order, seconds
    ranges: Vec<ReportedRange>,
    /// Seconds of timeline time removed
    removed_duration: f64,
    /// Elements removed whole
    removed_elements: Vec<String>,
    /// Elements that lost part of their time (they keep their id)
    shortened_elements: Vec<String>,
    /// New elements: the parts after the first of an element a span cut through
    new_elements: Vec<NewPiece>,
    /// How many elements moved left (ripple)
    shifted_elements: u32,
    }
}

returns! {
    #[schemars(rename = "CutRangesRange")]
    struct ReportedRange {
        start: f64,
        end: f64,
    }
}

returns! {
    #[schemars(rename = "CutRangesPiece")]
    struct NewPiece {
        element_id: String,
        split_from: String,
        track_id: String,
    }
}

fn invalid_ranges() -> ToolError {
    ToolError::new(ErrorCode::InvalidRanges, INVALID_RANGES)
        .with_hint("ranges is a non-empty list of {\"start\": s, \"end\": e} in timeline seconds, start < end (at least 1/120000 s apart).")
}

// Parsed item by item by `spans`; `read` checks only that each is an object.
impl Read for Range {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        v.is_object().then_some(v)
    }
}

/// The ranges as ticks, each at least one tick long.
fn spans(raw: Option<&Value>) -> Result<Vec<Span>, ToolError> {
    let Some(Value::Array(items)) = raw else { return Err(invalid_ranges()) };
    if items.is_empty() {
        return Err(invalid_ranges());
    }
    let tick = |v: Option<&Value>| v.and_then(Value::as_f64).and_then(seconds_to_ticks).filter(|t| *t >= 0);
    items
        .iter()
        .map(|item| {
            let o = item.as_object().filter(|o| o.keys().all(|k| k == "start" || k == "end")).ok_or_else(invalid_ranges)?;
            match (tick(o.get("start")), tick(o.get("end"))) {
                (Some(start), Some(end)) if start < end => Ok(Span { start, end }),
                _ => Err(invalid_ranges()),
            }
        })
        .collect()
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let spans = ranges::merge(spans(args.ranges.get())?);
    let ripple = match args.ripple.read() {
        Ok(ripple) => ripple.unwrap_or(true),
        Err(Bad) => return Err(ToolError::invalid_argument("ripple", "true or false")),
    };
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let tracks: Vec<usize> = match args.track_ids.id_list(crate::tools::track::invalid_track_id)? {
        None => (0..tl.tracks.len()).collect(),
        Some(ids) => ids.iter().map(|id| tl.track_index(id).ok_or_else(|| crate::tools::track::track_not_found(id))).collect::<Result<_, _>>()?,
    };
    let ids = &mut ctx.ids;
    let report = ranges::cut(tl, &spans, &tracks, ripple, |prefix| ids.next(prefix));
    let pieces: Vec<Value> = report
        .pieces
        .iter()
        .map(|(id, from, track)| {
            crate::text::obj([
                ("elementId", serde_json::Value::from(id.as_str())),
                ("splitFrom", serde_json::Value::from(from.as_str())),
                ("trackId", serde_json::Value::from(track.as_str())),
            ])
        })
        .collect();
    Ok(crate::text::obj([
        ("success", true.into()),
        ("ranges", spans.iter().map(|s| crate::text::obj([("start", seconds(s.start)), ("end", seconds(s.end))])).collect()),
        ("removedDuration", seconds(spans.iter().map(|s| s.ticks()).sum())),
        ("removedElements", report.removed.into()),
        ("shortenedElements", report.shortened.into()),
        ("newElements", pieces.into()),
        ("shiftedElements", report.shifted.into()),
    ])
    .into())
}
