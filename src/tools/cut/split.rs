//! split (Split at times): its definition, argument and result types, and run function.

use super::*;
use crate::tools::registry::prelude::*;
use serde::Serialize;

pub static DEF: ToolDef = ToolDef {
    name: "split",
    title: text!("Split at times"),
    summary: text!("Split at {times:time}"),
    description: text!("Cut every element of every track at each given timeline time (seconds) that falls strictly inside it; deletes nothing. The left part keeps its elementId, each right part gets a new one (listed in newElements with the element it was split from). Times on an existing boundary make no cut, so repeating a split is harmless. To remove a range, split at its start and end, then delete_timeline_elements the pieces inside."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Edit,
    annotations: Annotations { read_only: false, destructive: false, idempotent: true, open_world: false, untrusted_content: false },
    errors: list!(&["Invalid split times", "No timeline content"]),
    example: text!(r#"{"times":[2.5]}"#),
    run: typed!(run),
};

arguments! {
    pub struct Arguments {
        /// Timeline seconds to cut at
        #[schemars(length(min = 1), inner(range(min = 0)))]
        times: Arg<Vec<f64>>,
    }
}

pub type Returns = SplitOutput<'static>;

pub fn run(ctx: &mut Ctx, args: Arguments) -> Result<Output, ToolError> {
    let mut times = Vec::new();
    for s in args.times.items().map_err(|_| ToolError::invalid_split_times())? {
        times.push(s.and_then(seconds_to_ticks).filter(|t| *t >= 0).ok_or_else(ToolError::invalid_split_times)?);
    }
    if times.is_empty() {
        return Err(ToolError::invalid_split_times());
    }
    let tl = timeline_mut(&mut ctx.timeline)?;
    if tl.is_empty() {
        return Err(ToolError::no_timeline_content());
    }
    let ids = &mut ctx.ids;
    let cuts = edits::split(tl, &times, |prefix| ids.next(prefix));
    let mut affected: Vec<&str> = Vec::new();
    for c in &cuts {
        if !affected.contains(&c.original.as_str()) {
            affected.push(&c.original);
        }
    }
    let new_elements = cuts
        .iter()
        .map(|c| Piece { element_id: &c.piece, split_from: &c.original, track_id: &c.track, start: seconds(c.start), end: seconds(c.end) })
        .collect();
    Ok(Output::from_serialize(&SplitOutput { success: true, affected_elements: affected, new_elements }))
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SplitOutput<'a> {
    success: bool,
    affected_elements: Vec<&'a str>,
    // `List` keeps the items' keys in field order (see `schema::List`); serde writes the `Vec`.
    #[schemars(with = "List<Piece<'static>>")]
    new_elements: Vec<Piece<'a>>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Piece<'a> {
    element_id: &'a str,
    split_from: &'a str,
    track_id: &'a str,
    // Seconds as `seconds` writes them (a whole number without `.0`): a JSON number, a `Value` here.
    #[schemars(with = "f64")]
    start: Value,
    #[schemars(with = "f64")]
    end: Value,
}
