//! add_media_to_timeline (Add media to timeline): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "add_media_to_timeline",
    title: text!("Add media to timeline"),
    summary: text!("Add {assetId} to the {trackType} track at {startTime:time}"),
    description: text!("Place a project asset (assetId from list_project_assets) at startTime (timeline seconds) on a track of trackType: main or overlay for video and image, audio for audio. Video and audio use their full source duration unless duration (seconds) is given, which may not exceed it; images last 5 s by default. Overlay and audio go on the first free track of that type (a new one if needed); the one main track must be free at that time."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&["Asset not found", "Invalid track type for asset", "Invalid duration", "Duration exceeds source duration", "Invalid start time", "Element <id> on track <id> is in the way (<start>s to <end>s)", "This host does not draw <type> elements"]),
    example: text!(r#"{"assetId":"a2","startTime":10,"trackType":"overlay","duration":3}"#),
    run: typed!(run),
};

choices! {
    TrackTypes = ["main", "overlay", "audio"];
}

arguments! {
    pub struct Arguments {
        /// Asset id from list_project_assets
        asset_id: Arg<NonEmpty>,
        /// Where it starts, in timeline seconds
        #[schemars(range(min = 0))]
        start_time: Arg<f64>,
        /// main or overlay for video and image, audio for audio
        track_type: Arg<Choice<TrackTypes>>,
        /// Length in seconds (default: the full source, or 5 s for images)
        #[schemars(extend("exclusiveMinimum" = 0))]
        duration: Arg<Option<f64>>,
    }
}

returns! {
    pub struct Returns {
        element_id: String,
        track_id: String,
    }
}

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let asset_id = args.asset_id.id(ToolError::asset_not_found)?;
    let start = match args.start_time.seconds() {
        Ok(t) if t >= 0 => t,
        _ => return Err(ToolError::invalid_start()),
    };
    let track_type = match args.track_type.read() {
        Ok("main") => TrackType::Main,
        Ok("overlay") => TrackType::Overlay,
        Ok("audio") => TrackType::Audio,
        _ => return Err(ToolError::invalid_track_type().with_hint("trackType is main or overlay for video and image, audio for audio.")),
    };
    let duration = match args.duration.seconds() {
        Ok(Some(d)) if d <= 0 => return Err(ToolError::invalid_duration()),
        Ok(d) => d,
        Err(Bad) => return Err(ToolError::invalid_duration()),
    };
    ctx.project()?;
    let asset = ctx.asset(asset_id).ok_or_else(|| ToolError::asset_not_found().with_hint("Call list_project_assets to get asset ids."))?;
    if !track_type.accepts(asset.kind.element_type()) {
        return Err(ToolError::invalid_track_type().with_hint("trackType is main or overlay for video and image, audio for audio."));
    }
    ctx.drawn(asset.kind.element_type())?;
    let source = asset.duration_ticks();
    let length = match (asset.kind, duration, source) {
        (AssetType::Image, d, _) => d.unwrap_or(IMAGE_DEFAULT_TICKS),
        (_, Some(d), Some(s)) if d > s => return Err(ToolError::duration_exceeds_source()),
        (_, Some(d), _) => d,
        (_, None, Some(s)) => s,
        (_, None, None) => return Err(ToolError::invalid_duration().with_hint("The asset's duration is unknown; pass duration in seconds.")),
    };
    let tl = timeline_mut(&mut ctx.timeline)?;
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), asset.kind.element_type(), start, length);
    e.name = Some(asset.name.as_str().into());
    e.asset_id = Some(asset.id.as_str().into());
    if asset.kind != AssetType::Image {
        e.trim_end = source.map_or(0, |s| s - length);
    }
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, track_type, e, || ids.next('t')).map_err(edit_error)?;
    Ok(placed(ctx, ti, &id).into())
}
