//! update_timeline_element_timing (Update element timing): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "update_timeline_element_timing",
    title: text!("Update element timing"),
    summary: text!("Retime {elementId}[ from {start:time}][ to {end:time}][ for {duration:time}]"),
    description: text!("Change when an element (elementId from list_timeline) starts, ends or how long it lasts, in timeline seconds. start alone moves it; end or duration resizes it from its end; end and duration together must agree. Video and audio cannot last longer than their source allows. The asset itself never changes."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Invalid element id", "Invalid timing update", "Invalid start time", "Invalid end time", "Invalid duration", "Invalid time range", "Conflicting timing values", "Timeline element not found: <id>", "Duration exceeds source duration", "Element <id> on track <id> is in the way (<start>s to <end>s)"]),
    example: text!(r#"{"elementId":"e6","duration":3}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element id from list_timeline
        element_id: Arg<NonEmpty>,
        /// New start (moves the element), in timeline seconds
        #[schemars(range(min = 0))]
        start: Arg<Option<f64>>,
        /// New end (resizes it), in timeline seconds
        #[schemars(range(min = 0))]
        end: Arg<Option<f64>>,
        /// New length in seconds (resizes it)
        #[schemars(extend("exclusiveMinimum" = 0))]
        duration: Arg<Option<f64>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        element_id: String,
        track_id: String,
        start: f64,
        end: f64,
        duration: f64,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.element_id.id(ToolError::invalid_element_id)?;
    if !(args.start.is_some() || args.end.is_some() || args.duration.is_some()) {
        return Err(ToolError::invalid_timing_update().with_hint("Pass at least one of start, end or duration (seconds)."));
    }
    let start = args.start.non_negative_seconds(ToolError::invalid_start)?;
    let end = args.end.non_negative_seconds(ToolError::invalid_end)?;
    let duration = match args.duration.seconds() {
        Ok(Some(t)) if t <= 0 => return Err(ToolError::invalid_duration()),
        Ok(v) => v,
        Err(Bad) => return Err(ToolError::invalid_duration()),
    };
    let project_assets = ctx.project().ok();
    let tl = timeline_mut(&mut ctx.timeline)?;
    let (ti, ei) = tl.find(id).ok_or_else(|| ToolError::timeline_element_not_found(id))?;
    let mut e = (*tl.tracks[ti].elements[ei]).clone();
    let new_start = start.unwrap_or(e.start);
    let new_duration = match (end, duration) {
        (Some(end), Some(d)) if new_start + d != end => return Err(ToolError::conflicting_timing()),
        (_, Some(d)) => d,
        (Some(end), None) => end - new_start,
        (None, None) => e.duration,
    };
    if new_duration <= 0 {
        return Err(ToolError::invalid_range());
    }
    // A retimed clip moved without a new length keeps its trims as they are: they may carry the
    // tick or two of rounding OpenCut leaves (Element::plays_past), which a move must not refuse.
    let pure_move = e.rate() != 1.0 && new_duration == e.duration;
    if e.kind.is_timed_media() && !pure_move {
        let known = e.asset_id.as_deref().and_then(|a| project_assets.and_then(|p| p.asset(a))).and_then(|a| a.duration_ticks());
        let source = known.unwrap_or_else(|| e.source_span());
        // A retimed clip plays `duration · rate` of source; the head stays where it was.
        let played = e.source_ticks(new_duration);
        if e.trim_start.saturating_add(played) > source {
            return Err(ToolError::duration_exceeds_source());
        }
        e.trim_end = source - e.trim_start - played;
    }
    e.start = new_start;
    let old_duration = e.duration;
    e.duration = new_duration;
    let ids = &mut ctx.ids;
    edits::fit_animations(&mut e, old_duration, || ids.next('k'));
    let track_id = tl.tracks[ti].id.clone();
    let out = crate::text::obj([
        ("success", serde_json::Value::from(true)),
        ("elementId", serde_json::Value::from(e.id.as_str())),
        ("trackId", serde_json::Value::from(track_id)),
        ("start", seconds(e.start)),
        ("end", seconds(e.end())),
        ("duration", seconds(e.duration)),
    ]);
    edits::replace(tl, ti, e).map_err(edit_error)?;
    Ok(out.into())
}
