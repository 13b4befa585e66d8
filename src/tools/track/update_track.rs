//! update_track (Update track): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "update_track",
    title: text!("Update track"),
    summary: text!("Change track {trackId}"),
    description: text!("Switch a track (trackId from list_timeline) on or off, or rename it: muted silences every element on it (main, overlay and audio tracks), hidden stops drawing it (every track but audio), name is shown in the host's timeline. Only the fields given change. Example, mute the music: {\"trackId\":\"t14\",\"muted\":true}."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    // Its answer names the track, a name the project chose.
    annotations: Annotations { untrusted_content: true, ..CHANGE },
    errors: list!(&["Invalid track id", "Track not found: <id>", "update_track needs muted, hidden or name", "Track <id> is <a type> track, which cannot be muted (it makes no sound)", "Track <id> is an audio track, which cannot be hidden (mute it instead)"]),
    example: text!(r#"{"trackId":"t2","muted":true}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Track id from list_timeline
        track_id: Arg<NonEmpty>,
        /// Silence the track (main, overlay, audio)
        muted: Arg<Option<bool>>,
        /// Stop drawing the track (not audio)
        hidden: Arg<Option<bool>>,
        /// New name
        #[schemars(length(min = 1, max = 100))]
        name: Arg<Option<String>>,
    }
}

returns! {
    pub struct Returns {
        success: bool,
        track_id: String,
        r#type: String,
        name: Option<String>,
        hidden: Option<bool>,
        muted: Option<bool>,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let id = args.track_id.id(invalid_track_id)?;
    let flag = |arg: &Arg<Option<bool>>, key: &str| arg.read().map_err(|_| ToolError::invalid_argument(key, "true or false"));
    let (muted, hidden) = (flag(&args.muted, "muted")?, flag(&args.hidden, "hidden")?);
    let name = match args.name.read() {
        Ok(None) => None,
        Ok(Some(s)) if !s.trim().is_empty() && s.chars().count() <= 100 => Some(s.trim().to_string()),
        _ => return Err(ToolError::invalid_argument("name", "a non-empty string of at most 100 characters")),
    };
    if muted.is_none() && hidden.is_none() && name.is_none() {
        return Err(ToolError::new(ErrorCode::NoTrackChange, "update_track needs muted, hidden or name"));
    }
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ti = tl.track_index(id).ok_or_else(|| track_not_found(id))?;
    let kind = tl.tracks[ti].kind;
    // OpenCut's track flags: video tracks have both, audio only muted, the others only hidden.
    if muted.is_some() && !matches!(kind, TrackType::Main | TrackType::Overlay | TrackType::Audio) {
        return Err(ToolError::new(
            ErrorCode::TrackFlagNotSupported,
            format!("Track {id} is {} {} track, which cannot be muted (it makes no sound)", article(kind.as_str()), kind.as_str()),
        ));
    }
    if hidden.is_some() && kind == TrackType::Audio {
        return Err(ToolError::new(ErrorCode::TrackFlagNotSupported, format!("Track {id} is an audio track, which cannot be hidden (mute it instead)")));
    }
    let track = tl.track_mut(ti);
    if let Some(m) = muted {
        track.muted = Some(m);
    }
    if let Some(h) = hidden {
        track.hidden = Some(h);
    }
    if let Some(n) = name {
        track.name = Some(n);
    }
    let mut out = crate::text::obj([
        ("success", serde_json::Value::from(true)),
        ("trackId", serde_json::Value::from(track.id.as_str())),
        ("type", serde_json::Value::from(track.kind.as_str())),
    ]);
    if let Some(n) = &track.name {
        out["name"] = n.as_str().into();
    }
    if kind != TrackType::Audio {
        out["hidden"] = track.hidden.unwrap_or(false).into();
    }
    if matches!(kind, TrackType::Main | TrackType::Overlay | TrackType::Audio) {
        out["muted"] = track.muted.unwrap_or(false).into();
    }
    Ok(out.into())
}
