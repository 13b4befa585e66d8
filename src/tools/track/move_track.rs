//! move_track (Move track): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "move_track",
    title: text!("Move track"),
    summary: text!("Move track {trackId}"),
    description: text!("Reorder tracks: a track higher in list_timeline is drawn in front. Give exactly one of index (its new position in list_timeline's track order), above or below (another trackId). Visual tracks stay above the main track and audio tracks below it; the main track does not move. Example, bring the text in front of everything: {\"trackId\":\"t10\",\"index\":0}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: CHANGE,
    errors: list!(&["Invalid track id", "Track not found: <id>", "Give exactly one of index, above or below", "Track <id> can move to index <min> to <max> (<why>)", "Track <id> is the main track, which stays between the visual and the audio tracks", "A track cannot move above or below itself"]),
    example: text!(r#"{"trackId":"t3","above":"t4"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Track id from list_timeline
        track_id: Arg<NonEmpty>,
        /// New position in list_timeline's track order (0 is in front)
        #[schemars(range(min = 0))]
        index: Arg<Option<i64>>,
        /// Put it just above this track
        above: Arg<Option<NonEmpty>>,
        /// Put it just below this track
        below: Arg<Option<NonEmpty>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        track_id: String,
        index: f64,
        tracks: Vec<String>,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.track_id.id(invalid_track_id)?;
    let index = match args.index.read() {
        Ok(None) => None,
        Ok(Some(i)) if i >= 0 => Some(i as usize),
        _ => return Err(ToolError::invalid_argument("index", "a whole number >= 0 (a position in list_timeline's track order)")),
    };
    let above = args.above.string("above")?;
    let below = args.below.string("below")?;
    if [index.is_some(), above.is_some(), below.is_some()].iter().filter(|b| **b).count() != 1 {
        return Err(ToolError::new(ErrorCode::InvalidTrackPosition, "Give exactly one of index, above or below"));
    }
    let tl = timeline_mut(&mut ctx.timeline)?;
    let from = tl.track_index(id).ok_or_else(|| track_not_found(id))?;
    let kind = tl.tracks[from].kind;
    let Some((lo, hi)) = allowed(tl, kind) else {
        return Err(ToolError::new(
            ErrorCode::InvalidTrackPosition,
            format!("Track {id} is the main track, which stays between the visual and the audio tracks"),
        ));
    };
    // The position counted in the list as it is now; the track is then taken out and put there.
    let to = match (index, above, below) {
        (Some(i), _, _) => i,
        (_, Some(other), _) | (_, _, Some(other)) => {
            let at = tl.track_index(other).ok_or_else(|| track_not_found(other))?;
            if at == from {
                return Err(ToolError::new(ErrorCode::InvalidTrackPosition, "A track cannot move above or below itself"));
            }
            let at = if at > from { at - 1 } else { at };
            if above.is_some() {
                at
            } else {
                at + 1
            }
        }
        _ => unreachable!("exactly one was checked"),
    };
    if !(lo..=hi).contains(&to) {
        let group = if kind == TrackType::Audio { "audio tracks stay below the main track" } else { "visual tracks stay above the main track" };
        return Err(ToolError::new(ErrorCode::InvalidTrackPosition, format!("Track {id} can move to index {lo} to {hi} ({group})"))
            .with("min", lo)
            .with("max", hi));
    }
    let track = tl.tracks.remove(from);
    tl.tracks.insert(to, track);
    let order: Vec<&str> = tl.tracks.iter().map(|t| t.id.as_str()).collect();
    Ok(crate::text::obj([
        ("success", serde_json::Value::from(true)),
        ("trackId", serde_json::Value::from(id)),
        ("index", serde_json::Value::from(to)),
        ("tracks", serde_json::Value::from(order)),
    ])
    .into())
}
