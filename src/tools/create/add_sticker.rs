//! add_sticker (Add sticker): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "add_sticker",
    title: text!("Add sticker"),
    summary: text!("Add sticker {stickerId} at {start:time}"),
    description: text!("Add a sticker (stickerId from list_stickers, provider:value such as flags:US or shapes:star; flag codes in any case) from start to end (timeline seconds) at a corner or the center of the frame, a fifth of the frame's shorter side tall (scale 0.2; update_clip rescales it). It goes on the first overlay track of stickers and shapes free at that time (never one holding video or images, as OpenCut keeps stickers on graphic tracks), or a new overlay track on top."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&["Sticker not found", "Invalid time range", "This host does not draw <type> elements"]),
    example: text!(r#"{"stickerId":"emoji:star","start":1,"end":3,"position":"top-right"}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Sticker id from list_stickers, such as flags:US
        sticker_id: Arg<NonEmpty>,
        /// When it appears, in timeline seconds
        #[schemars(range(min = 0))]
        start: Arg<f64>,
        /// When it disappears, in timeline seconds
        #[schemars(range(min = 0))]
        end: Arg<f64>,
        /// Where in the frame
        position: Arg<Choice<StickerPositions>>,
    }
}

returns! {
    pub struct Returns {
        element_id: String,
        track_id: String,
    }
}

/// The scale add_sticker gives a sticker: a fifth of the canvas's shorter side for a square one.
pub const STICKER_SCALE: f64 = 0.2;

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let sticker_id = args.sticker_id.id(ToolError::sticker_not_found)?;
    let (start, end) = range(&args.start, &args.end, ToolError::invalid_range)?;
    let position = args.position.choice("position")?;
    // Like add_media_to_timeline: with no project, say so rather than "Sticker not found".
    ctx.project()?;
    ctx.drawn(ElementType::Sticker)?;
    // The host's catalog first (its ids as registered), then OpenCut's built-in providers, which
    // write the id in OpenCut's spelling (`flags:us` becomes `flags:US`).
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), ElementType::Sticker, start, end - start);
    let entry = ctx.sticker(sticker_id);
    let (name, sticker_id) = match entry {
        Some(s) => (s.name.clone(), s.id.clone()),
        None => {
            let s = stickers::resolve(sticker_id)
                .ok_or_else(|| ToolError::sticker_not_found().with_hint("Call list_stickers to find sticker ids (provider:value, such as flags:US)."))?;
            (s.name.to_string(), s.id)
        }
    };
    // A catalog size is stored as OpenCut's own insertion stores the measured one, so OpenCut
    // draws and bounds the sticker from the size it was placed by.
    if let Some((w, h)) = crate::frame::sticker_size(&e, entry) {
        e.extra.insert("intrinsicWidth".into(), w.into());
        e.extra.insert("intrinsicHeight".into(), h.into());
    }
    e.name = Some(name.into());
    e.sticker_id = Some(sticker_id);
    // OpenCut draws a sticker fitted to the whole canvas times its scale; at OpenCut's scale 1 a
    // square one is as tall as the canvas, so a sticker starts a fifth of that, inside the
    // anchor's margins by OpenCut's bounds (preview/element-bounds.ts).
    let canvas = ctx.settings().canvas;
    (e.scale_x, e.scale_y) = (Some(STICKER_SCALE), Some(STICKER_SCALE));
    let half = crate::tools::element::half_extent(ctx, &e, canvas, (STICKER_SCALE, STICKER_SCALE));
    let (x, y) = crate::tools::element::anchored(position, crate::tools::element::default_margin(canvas), half, canvas);
    (e.position, e.x, e.y) = (Some(position.to_string()), Some(x), Some(y));
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, TrackType::Overlay, e, || ids.next('t')).map_err(edit_error)?;
    Ok(placed(ctx, ti, &id).into())
}
