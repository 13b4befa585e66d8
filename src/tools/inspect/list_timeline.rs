//! list_timeline (List timeline): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "list_timeline",
    title: text!("List timeline"),
    summary: text!("List the timeline"),
    description: text!("Summarise the timeline: every track (trackId, type: main, overlay, text, effect or audio; listed from the top of the picture down, audio last) and its elements (elementId; ref, a short stable name such as clip-1, text-3, sticker-2 or effect-1 that every tool accepts in place of the elementId; type, assetId, name, start, end and duration in timeline seconds, plus text content and textStyle, effect params or sticker id; video and audio show trimStart, the source seconds skipped, when not 0, rate, the playback speed of a retimed clip, when not 1, volume when not 1 (above 1 is a host boost) and muted when silent; hidden tracks and elements say hidden, muted tracks muted; a masked element names its mask's shape; notDrawn names element types the host cannot show, which the tools do not add), and the canvas background when it is not black. Call this before editing whenever you do not have exact ids. Reads only."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Read,
    annotations: LISTING,
    errors: list!(&["No active timeline"]),
    example: text!("{}"),
    run: typed!(run),
};

pub type Arguments = NoArgs;

returns! {
    pub struct Returns {
        tracks: List<TrackEntry>,
        /// End of the last element, seconds
        duration: f64,
        /// Element types the host does not draw (its elementKinds): the tools add none of them; absent when it draws all
        not_drawn: Option<Vec<String>>,
        /// The canvas background (update_project), when it is not black
        background: Option<AnyObject>,
    }
}

returns! {
    struct TrackEntry {
        track_id: String,
        #[schemars(extend("enum" = ["main", "overlay", "audio", "text", "effect"]))]
        r#type: String,
        name: Option<String>,
        /// The host does not draw this track
        #[schemars(extend("const" = true))]
        hidden: Option<bool>,
        /// The host plays this track silent
        #[schemars(extend("const" = true))]
        muted: Option<bool>,
        elements: List<ElementEntry>,
    }
}

returns! {
    struct ElementEntry {
        element_id: String,
        /// Short stable name (clip-1, text-3, sticker-2, effect-1) that every tool takes in place of the elementId
        r#ref: Option<String>,
        r#type: String,
        asset_id: Option<String>,
        name: Option<String>,
        start: f64,
        end: f64,
        duration: f64,
        /// Source seconds skipped at the head; absent when 0
        trim_start: Option<f64>,
        /// Playback speed of a retimed video or audio clip (source seconds per timeline second); absent when 1
        rate: Option<f64>,
        /// Linear gain, 1 is unchanged; absent when 1. Above 1 is a host boost (up to 10, +20 dB)
        volume: Option<f64>,
        /// Not drawn; absent when shown
        #[schemars(extend("const" = true))]
        hidden: Option<bool>,
        /// Silent; absent when audible
        #[schemars(extend("const" = true))]
        muted: Option<bool>,
        /// The mask's shape (update_clip's mask), when it has one
        mask: Option<String>,
        text: Option<String>,
        position: Option<String>,
        sticker_id: Option<String>,
        effect_type: Option<String>,
        /// The text's look; absent fields are the host's defaults
        text_style: Option<TextStyle>,
        params: Option<AnyObject>,
    }
}

returns! {
    struct TextStyle {
        /// Pixels at the project canvas
        font_size: Option<f64>,
        font_family: Option<String>,
        color: Option<String>,
        font_weight: Option<String>,
        font_style: Option<String>,
        text_align: Option<String>,
        text_decoration: Option<String>,
        /// Box colour behind the text; absent when none
        background: Option<String>,
        letter_spacing: Option<f64>,
        line_height: Option<f64>,
        /// The box's geometry (update_text's background), each when set
        #[serde(rename = "background.paddingX")]
        background_padding_x: Option<f64>,
        #[serde(rename = "background.paddingY")]
        background_padding_y: Option<f64>,
        #[serde(rename = "background.offsetX")]
        background_offset_x: Option<f64>,
        #[serde(rename = "background.offsetY")]
        background_offset_y: Option<f64>,
        #[serde(rename = "background.cornerRadius")]
        background_corner_radius: Option<f64>,
    }
}

pub fn run(ctx: &mut Ctx, _args: Arguments) -> Result<Output, ToolError> {
    let tl = ctx.timeline.as_ref().ok_or_else(ToolError::no_active_timeline)?;
    let out = listing::list(tl, ctx.listing.as_deref_mut());
    let not_drawn = ctx.element_kinds.names(false);
    let settings = ctx.settings();
    let background = settings.background() != crate::model::Background::Color(crate::model::Background::DEFAULT_COLOR.into());
    if not_drawn.is_empty() && !background {
        return Ok(out);
    }
    // `…}` becomes `…,"notDrawn":[…],"background":{…}}`: after the cached listing (which stays
    // per track), the kinds the host's preview cannot show and a canvas that is not black.
    let mut text = out.into_string();
    text.pop();
    if !not_drawn.is_empty() {
        text.push_str(r#","notDrawn":"#);
        text.push_str(&crate::text::json(&serde_json::json!(not_drawn)));
    }
    if background {
        text.push_str(r#","background":"#);
        text.push_str(&crate::text::json(&settings.extra["background"]));
    }
    text.push('}');
    Ok(Output::from_json_text(text))
}
