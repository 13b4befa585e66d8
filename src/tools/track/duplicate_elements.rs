//! duplicate_elements (Duplicate elements): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "duplicate_elements",
    title: text!("Duplicate elements"),
    summary: text!("Duplicate {elementIds:n element}"),
    description: text!("Copy elements (elementIds or refs) with new ids and every property and keyframe, as one undo step. By default the copies start right after the last original ends; offset (seconds added to each start) or startTime (where the earliest copy starts; the others keep their spacing) place them elsewhere. Each copy stays on its track when that time is free, else goes on the first free track of that type (a new one if needed; the one main track must be free); trackId puts them all on that track, which must be free. Example: {\"elementIds\":[\"clip-2\"],\"startTime\":20}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&["Invalid element ids", NOT_FOUND_IDS, "Invalid start time", "Give offset or startTime, not both", "Target track not found: <id>", "Target track <id> is <a type> track and cannot hold <type> elements", "Element <id> on track <id> is in the way (<start>s to <end>s)", "This host does not draw <type> elements"]),
    example: text!(r#"{"elementIds":["e7"],"offset":3}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element ids or refs from list_timeline
        #[schemars(length(min = 1))]
        element_ids: Arg<Vec<NonEmpty>>,
        /// Seconds added to each copy's start (default: right after the originals)
        offset: Arg<Option<f64>>,
        /// Where the earliest copy starts, in timeline seconds
        #[schemars(range(min = 0))]
        start_time: Arg<Option<f64>>,
        /// Put every copy on this track
        track_id: Arg<Option<NonEmpty>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        elements: List<Copy>,
    }
}

returns! {
    struct Copy {
        element_id: String,
        source_id: String,
        track_id: String,
        start: f64,
        end: f64,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let ids = args.element_ids.id_list(ToolError::invalid_element_ids)?;
    let offset = match args.offset.read() {
        Ok(None) => None,
        Ok(Some(s)) => Some(
            crate::time::seconds_to_ticks(s.abs())
                .map(|t| if s < 0.0 { -t } else { t })
                .ok_or_else(|| ToolError::invalid_argument("offset", "a number of seconds"))?,
        ),
        Err(Bad) => return Err(ToolError::invalid_argument("offset", "a number of seconds")),
    };
    let start = match args.start_time.seconds() {
        Ok(s) => s,
        Err(Bad) => return Err(ToolError::invalid_start()),
    };
    if offset.is_some() && start.is_some() {
        return Err(ToolError::new(ErrorCode::ConflictingPlacement, "Give offset or startTime, not both"));
    }
    let target = args.track_id.string("trackId")?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    let found = locate_all(tl, &ids)?;
    let originals: Vec<(usize, crate::model::Element)> = found.iter().map(|&(ti, ei)| (ti, tl.tracks[ti].elements[ei].as_ref().clone())).collect();
    if let Some((_, e)) = originals.iter().find(|(_, e)| !ctx.element_kinds.has(e.kind)) {
        return Err(ToolError::not_drawn(e.kind.as_str(), &ctx.element_kinds.names(true)));
    }
    let earliest = originals.iter().map(|(_, e)| e.start).min().unwrap_or(0);
    let latest = originals.iter().map(|(_, e)| e.end()).max().unwrap_or(0);
    // By default the copies follow the originals, as a paste after the selection would.
    let shift = match (offset, start) {
        (Some(o), _) => o,
        (_, Some(s)) => s - earliest,
        _ => latest - earliest,
    };
    if earliest + shift < 0 {
        return Err(ToolError::invalid_start().with_hint("The copies would start before 0 s."));
    }
    let target_track = match target {
        None => None,
        Some(t) => Some(tl.tracks[tl.track_index(t).ok_or_else(|| ToolError::target_track_not_found(t))?].id.clone()),
    };
    let report = |copy: &str, source: &str, track: &str, (cs, ce): (i64, i64)| {
        crate::text::obj([
            ("elementId", serde_json::Value::from(copy)),
            ("sourceId", serde_json::Value::from(source)),
            ("trackId", serde_json::Value::from(track)),
            ("start", seconds(cs)),
            ("end", seconds(ce)),
        ])
    };
    let mut out: Vec<Option<Value>> = vec![None; originals.len()];
    // Copies whose own track is busy are placed after every copy that stays: in list order, one
    // could take the free slot of a later copy's own track.
    let mut displaced = Vec::new();
    for (n, (ti, original)) in originals.into_iter().enumerate() {
        let mut copy = original.clone();
        copy.id = ctx.ids.next('e').into();
        copy.start = original.start + shift;
        // Keyframes get ids of their own, as OpenCut's duplicate gives them.
        if let Some(anims) = copy.animations.as_mut() {
            for data in anims.iter_mut() {
                renumber_keys(data, &mut || ctx.ids.next('k'));
            }
        }
        let new_id = copy.id.clone();
        let span = (copy.start, copy.end());
        let placed = match &target_track {
            Some(t) => {
                let at = tl.track_index(t).expect("found above");
                let track = &tl.tracks[at];
                if !track.kind.accepts(copy.kind) {
                    return Err(ToolError::incompatible_track(&track.id, track.kind.as_str(), copy.kind.as_str()));
                }
                if let Some(stickers) = track.overlay_group().filter(|_| !track.takes(copy.kind)) {
                    return Err(ToolError::other_overlay_kind(&track.id, stickers, copy.kind.as_str()));
                }
                edits::insert(tl, at, copy).map_err(super::edit_error)?;
                at
            }
            None => {
                // Its own track. No track is added before the displaced copies are placed, so `ti`
                // still holds.
                if tl.tracks[ti].first_overlap(span.0, span.1, &|_| false).is_some() {
                    displaced.push((n, tl.tracks[ti].kind, copy, original.id));
                    continue;
                }
                edits::insert(tl, ti, copy).map_err(edit_error)?;
                ti
            }
        };
        out[n] = Some(report(new_id.as_str(), original.id.as_str(), &tl.tracks[placed].id, span));
    }
    for (n, kind, copy, source) in displaced {
        let (new_id, span) = (copy.id.clone(), (copy.start, copy.end()));
        let ids = &mut ctx.ids;
        let placed = edits::place(tl, kind, copy, || ids.next('t')).map_err(edit_error)?;
        out[n] = Some(report(new_id.as_str(), source.as_str(), &tl.tracks[placed].id, span));
    }
    let out: Vec<Value> = out.into_iter().flatten().collect();
    Ok(crate::text::obj([("success", serde_json::Value::from(true)), ("elements", serde_json::Value::from(out))]).into())
}
