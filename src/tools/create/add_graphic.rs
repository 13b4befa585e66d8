//! add_graphic (Add shape): its definition, argument and result types, and run function.

use super::*;
use crate::graphics;
use crate::tools::element::graphic::{self, GraphicStroke};
use crate::tools::registry::prelude::*;

pub static DEF: ToolDef = ToolDef {
    name: "add_graphic",
    title: text!("Add shape"),
    summary: text!("Add a {shape} at {start:time}"),
    description: text!("Add one of OpenCut's shapes (rectangle, ellipse, polygon or star) from start to end (timeline seconds): fill colour, an outline (stroke {color, width, align}), and the shape's own settings (cornerRadius for a rectangle or polygon, sides for a polygon, points and depth for a star). size is its drawn size in canvas pixels, one number for a square or {width, height} (default a fifth of the frame's shorter side); position is a corner or the center (default center). It goes on the first overlay track of stickers and shapes free at that time, or a new overlay track on top, as OpenCut's graphic tracks. update_clip moves, scales, masks or restyles it (its graphic argument); the keyframe tools animate params.fill, params.stroke, params.strokeWidth and the shape's numbers."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: ADD,
    errors: list!(&["Invalid time range", "Argument \"<name>\" must be <rule>", "<A shape> has no <param>; it takes <params>", "This host does not draw <type> elements"]),
    example: text!(r##"{"shape":"rectangle","start":0,"end":4,"fill":"#1e88e5","cornerRadius":20,"size":{"width":600,"height":120},"position":"bottom-left"}"##),
    run: typed!(run),
};

choices! {
    Shapes = graphics::IDS;
}

arguments! {
    pub struct Arguments {
        /// Which of OpenCut's shapes
        shape: Arg<Choice<Shapes>>,
        /// When it appears, in timeline seconds
        #[schemars(range(min = 0))]
        start: Arg<f64>,
        /// When it disappears, in timeline seconds
        #[schemars(range(min = 0))]
        end: Arg<f64>,
        /// Where in the frame (default center)
        position: Arg<Option<Choice<StickerPositions>>>,
        /// Drawn size in canvas pixels: one number for a square, or {width, height}
        size: Arg<Option<GraphicSize>>,
        /// Fill colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #ffffff)
        fill: Arg<Option<String>>,
        /// An outline (default none)
        stroke: Arg<Option<GraphicStroke>>,
        /// Rectangle or polygon: corner rounding 0 to 50 (50 fully round; default 0)
        #[schemars(range(min = 0, max = 50))]
        corner_radius: Arg<Option<f64>>,
        /// Polygon: sides, 3 to 12 (default 5)
        #[schemars(range(min = 3, max = 12))]
        sides: Arg<Option<f64>>,
        /// Star: points, 3 to 12 (default 5)
        #[schemars(range(min = 3, max = 12))]
        points: Arg<Option<f64>>,
        /// Star: inner radius, percent of the outer, 1 to 99 (default 45)
        #[schemars(range(min = 1, max = 99))]
        depth: Arg<Option<f64>>,
    }
}

returns! {
    pub struct Returns {
        element_id: String,
        track_id: String,
    }
}

/// A size in canvas pixels: one side, or each.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[schemars(transform = one_of)]
#[allow(dead_code)]
enum GraphicSize {
    Side(#[schemars(extend("exclusiveMinimum" = 0))] f64),
    Box {
        #[schemars(extend("exclusiveMinimum" = 0))]
        width: f64,
        #[schemars(extend("exclusiveMinimum" = 0))]
        height: f64,
    },
}

impl Read for GraphicSize {
    type Out<'a> = &'a Value;
    fn of(v: &Value) -> Option<&Value> {
        (v.is_number() || v.is_object()).then_some(v)
    }
}

const SIZE_RULE: &str = "a size in pixels > 0, or {\"width\": pixels, \"height\": pixels}";

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let shape = graphics::shape(args.shape.choice("shape")?).expect("a choice of graphics::IDS");
    let (start, end) = range(&args.start, &args.end, ToolError::invalid_range)?;
    let position = args.position.choice("position")?.unwrap_or("center");
    ctx.drawn(ElementType::Graphic)?;
    let canvas = ctx.settings().canvas;
    // OpenCut fits the 512-pixel square to the canvas: at scale 1 it is the shorter side tall.
    let side = canvas.width.min(canvas.height) as f64;
    let (w, h) = match args.size.read() {
        Ok(None) => (side * add_sticker::STICKER_SCALE, side * add_sticker::STICKER_SCALE),
        Ok(Some(v)) => size(v).ok_or_else(|| ToolError::invalid_argument("size", SIZE_RULE))?,
        Err(Bad) => return Err(ToolError::invalid_argument("size", SIZE_RULE)),
    };
    let (sx, sy) = (w / side, h / side);
    let scale = crate::properties::find("transform.scaleX").and_then(|p| p.min).unwrap_or(0.01);
    if sx < scale || sy < scale {
        return Err(ToolError::invalid_argument("size", &format!("at least {} pixels a side on this canvas", crate::text::Num(scale * side))));
    }
    let id = ctx.ids.next('e');
    let mut e = Element::new(id.clone(), ElementType::Graphic, start, end - start);
    e.name = Some(shape.name.into());
    e.definition_id = Some(shape.id.to_string());
    // Every definition param at its default, as OpenCut's buildGraphicElement writes them.
    e.params = Some(graphics::defaults(shape));
    let mut look = Map::new();
    let stroke = args.stroke.read().map_err(|_| ToolError::invalid_argument("stroke", "an object of color, width, align"))?;
    if let Some(s) = stroke {
        look.insert("stroke".into(), Value::Object(s.clone()));
    }
    let given = [
        ("fill", args.fill.get()),
        ("cornerRadius", args.corner_radius.get()),
        ("sides", args.sides.get()),
        ("points", args.points.get()),
        ("depth", args.depth.get()),
    ];
    for (key, v) in given {
        if let Some(v) = v {
            look.insert(key.into(), v.clone());
        }
    }
    graphic::set(&mut e, &look, "")?;
    (e.scale_x, e.scale_y) = (Some(sx), Some(sy));
    let half = crate::tools::element::half_extent(ctx, &e, canvas, (sx, sy));
    let (x, y) = crate::tools::element::anchored(position, crate::tools::element::default_margin(canvas), half, canvas);
    (e.position, e.x, e.y) = (Some(position.to_string()), Some(x), Some(y));
    let tl = timeline_mut(&mut ctx.timeline)?;
    let ids = &mut ctx.ids;
    let ti = edits::place(tl, TrackType::Overlay, e, || ids.next('t')).map_err(edit_error)?;
    Ok(placed(ctx, ti, &id).into())
}

/// Width and height from a number or `{width, height}`, each finite and > 0.
fn size(v: &Value) -> Option<(f64, f64)> {
    let px = |v: Option<&Value>| v.and_then(Value::as_f64).filter(|n| n.is_finite() && *n > 0.0);
    match v {
        Value::Object(o) if o.keys().all(|k| k == "width" || k == "height") => Some((px(o.get("width"))?, px(o.get("height"))?)),
        Value::Object(_) => None,
        v => px(Some(v)).map(|n| (n, n)),
    }
}
