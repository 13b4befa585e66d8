//! move_timeline_elements (Move timeline elements): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "move_timeline_elements",
    title: text!("Move timeline elements"),
    summary: text!("Move {elementIds:n element} to {start:time}[ on track {targetTrackId}]"),
    description: text!("Move elements so the earliest one starts at start (timeline seconds); the others keep their offsets relative to it. With targetTrackId (from list_timeline) they all move to that track, which must accept them (video and image: main or overlay; stickers: overlay; text: text; effects: effect; audio: audio). Fails without changing anything if an element is missing or the destination overlaps another element."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Invalid element ids", "Invalid start time", NOT_FOUND_IDS, "Target track not found: <id>", "Target track <id> is <a type> track and cannot hold <type> elements", "Element <id> on track <id> is in the way (<start>s to <end>s)", "No timeline content"]),
    example: text!(r#"{"elementIds":["e6"],"start":12}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Element ids from list_timeline
        #[schemars(length(min = 1))]
        element_ids: Arg<Vec<NonEmpty>>,
        /// New start of the earliest element, in timeline seconds
        #[schemars(range(min = 0))]
        start: Arg<f64>,
        /// Track to move them all to (default: each stays on its track)
        target_track_id: Arg<Option<NonEmpty>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        moved_elements: List<Moved>,
    }
}

returns! {
    struct Moved {
        element_id: String,
        track_id: String,
        start: f64,
        end: f64,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let ids = args.element_ids.id_list(ToolError::invalid_element_ids)?;
    let start = match args.start.seconds() {
        Ok(t) if t >= 0 => t,
        _ => return Err(ToolError::invalid_start()),
    };
    let target = args.target_track_id.string_as("targetTrackId", "a track id string")?;
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let found = locate_all(tl, &ids)?;
    let element = |&(ti, ei): &(usize, usize)| -> &Element { &tl.tracks[ti].elements[ei] };
    let target_index = match target {
        None => None,
        Some(id) => Some(tl.track_index(id).ok_or_else(|| ToolError::target_track_not_found(id))?),
    };
    if let Some(ti) = target_index {
        let track = &tl.tracks[ti];
        if let Some(e) = found.iter().map(element).find(|e| !track.kind.accepts(e.kind)) {
            return Err(ToolError::incompatible_track(&track.id, track.kind.as_str(), e.kind.as_str()));
        }
        if track.kind == TrackType::Overlay {
            // The group the target holds after the move: that of its first element that stays,
            // else of the first moved one; every moved element must belong to it.
            let mut moved_here = vec![false; track.elements.len()];
            found.iter().filter(|p| p.0 == ti).for_each(|p| moved_here[p.1] = true);
            let first_staying = moved_here.iter().position(|m| !m).unwrap_or(moved_here.len());
            let sticker = |e: &Element| e.kind.is_graphic();
            let group = track.elements.get(first_staying).map(|e| sticker(e)).or_else(|| found.first().map(|p| sticker(element(p))));
            if let Some(e) = group.and_then(|g| found.iter().map(element).find(|e| sticker(e) != g)) {
                return Err(ToolError::other_overlay_kind(&track.id, group == Some(true), e.kind.as_str()));
            }
        }
    }
    let earliest = found.iter().map(|p| element(p).start).min().unwrap_or(0);
    let offset = start - earliest;
    let moves: Vec<Move> = found
        .iter()
        .map(|&(ti, ei)| {
            let mut e = element(&(ti, ei)).clone();
            e.start += offset;
            Move { element: e, from: (ti, ei), track: target_index.unwrap_or(ti) }
        })
        .collect();
    let summary: Vec<Value> = moves
        .iter()
        .map(|m| {
            crate::text::obj([
                ("elementId", m.element.id.as_str().into()),
                ("trackId", tl.tracks[m.track].id.as_str().into()),
                ("start", seconds(m.element.start)),
                ("end", seconds(m.element.end())),
            ])
        })
        .collect();
    edits::relocate(tl, moves).map_err(edit_error)?;
    Ok(crate::text::obj([("success", serde_json::Value::from(true)), ("movedElements", serde_json::Value::from(summary))]).into())
}
