//! check_timeline (Check timeline): its definition, argument and result types, and run function.

use super::text::Canvas;
use super::{spans, text, Finding};
use crate::tools::registry::prelude::*;
use crate::tools::{Ctx, Output, ToolError};

pub static DEF: ToolDef = ToolDef {
    name: "check_timeline",
    title: text!("Check timeline"),
    summary: text!("Check the timeline[ from {start:time}][ to {end:time}]"),
    description: text!("Look for problems to fix before export, between start and end (timeline seconds; default the whole timeline): gap (nothing on the main track), offscreen-text (a text's box, estimated from its font size and characters, passes the canvas edge), overlapping-text (two texts on screen at once whose boxes meet), past-source (a video or audio clip plays on after its source ends), effect-without-picture (an effect with nothing drawn under it). Each finding gives kind, start and end in seconds, the elementIds involved and a message saying what to fix; sorted by start, then kind. No findings means none of these. black, frozen and silence need rendered frames and the mixed sound: the engine never reports them, a host that renders may add them to the same list. Reads only."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: READ,
    errors: list!(&["Invalid start time", "Invalid end time", "Invalid time range"]),
    example: text!("{}"),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Check from here, in timeline seconds (default 0)
        #[schemars(range(min = 0))]
        start: Arg<Option<f64>>,
        /// Check up to here, in timeline seconds (default the timeline's end); after start
        #[schemars(range(min = 0))]
        end: Arg<Option<f64>>,
    }
}

returns! {
    pub struct Returns {
        /// Sorted by start, then kind
        findings: List<FindingEntry>,
    }
}

returns! {
    struct FindingEntry {
        /// black, frozen and silence come only from a host that renders
        #[schemars(extend("enum" = ["gap", "black", "frozen", "silence", "offscreen-text", "overlapping-text", "past-source", "effect-without-picture"]))]
        kind: String,
        /// Timeline seconds
        start: f64,
        end: f64,
        /// The elements involved; absent for a gap
        element_ids: Option<List<String>>,
        /// What is wrong and what to do about it
        message: String,
    }
}

/// Every kind, in the order findings that start together are listed (alphabetical).
const KINDS: [&str; 8] = ["black", "effect-without-picture", "frozen", "gap", "offscreen-text", "overlapping-text", "past-source", "silence"];

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let start = args.start.non_negative_seconds(ToolError::invalid_start)?;
    let end = args.end.non_negative_seconds(ToolError::invalid_end)?;
    let from = start.unwrap_or(0);
    if end.is_some_and(|e| e <= from) {
        return Err(ToolError::invalid_range().with_hint("end must be after start (seconds)."));
    }
    let tl = ctx.timeline()?;
    // Nothing plays past the timeline's end, so the window stops there.
    let window = (from, end.unwrap_or(i64::MAX).min(tl.end()));
    let mut findings: Vec<Finding> = Vec::new();
    if window.0 < window.1 {
        let settings = ctx.settings();
        let canvas =
            Canvas { width: settings.canvas.width as f64, height: settings.canvas.height as f64, height_px: settings.canvas.height, fps: settings.fps };
        let source_of = |e: &crate::model::Element| e.asset_id.as_deref().and_then(|id| ctx.asset(id)).and_then(|a| a.duration_ticks());
        spans::gaps(tl, window, &mut findings);
        spans::past_source(tl, window, &source_of, &mut findings);
        spans::effects_without_picture(tl, window, &mut findings);
        text::offscreen(tl, window, canvas, &mut findings);
        text::overlapping(tl, window, canvas, &mut findings);
    }
    // By kind, then stably by start: sorted by start, then kind. Through the engine's one sort
    // (crate::sort): each standard sort would add kilobytes to the wasm.
    crate::sort::stable_sort_by_key(&mut findings, |f| KINDS.iter().position(|k| *k == f.kind).unwrap_or(KINDS.len()) as i64);
    crate::sort::stable_sort_by_key(&mut findings, |f| f.start);
    Ok(crate::text::obj([("findings", serde_json::Value::from(findings.iter().map(Finding::to_json).collect::<Vec<_>>()))]).into())
}
