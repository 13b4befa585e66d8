//! Checks of the timeline for problems an agent should fix: check_timeline. The kinds judged
//! from the timeline alone live here (`spans`: gaps, clips past their source, effects over
//! nothing; `text`: text off the canvas or over other text); black and frozen pictures and
//! silence need rendered frames and the mix, which only a host has, so a host appends those
//! findings in the same shape.

pub mod check_timeline;
mod spans;
mod text;

use serde_json::{json, Value};

use super::seconds;
use crate::time::ticks_to_seconds;

/// One problem over `[start, end)` ticks.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub kind: &'static str,
    pub start: i64,
    pub end: i64,
    pub element_ids: Vec<String>,
    pub message: String,
}

impl Finding {
    fn to_json(&self) -> Value {
        let mut v = serde_json::Map::new();
        v.insert("kind".into(), self.kind.into());
        v.insert("start".into(), seconds(self.start));
        v.insert("end".into(), seconds(self.end));
        if !self.element_ids.is_empty() {
            v.insert("elementIds".into(), json!(self.element_ids));
        }
        v.insert("message".into(), self.message.clone().into());
        Value::Object(v)
    }
}

/// The part of `[start, end)` inside the window, `None` when nothing is.
fn clip((start, end): (i64, i64), (from, to): (i64, i64)) -> Option<(i64, i64)> {
    let (s, e) = (start.max(from), end.min(to));
    (s < e).then_some((s, e))
}

/// Seconds for a message: at most four decimals (a 1 ms overrun still shows), no trailing zeros.
fn secs(ticks: i64) -> String {
    let rounded = (ticks_to_seconds(ticks) * 10_000.0).round() / 10_000.0;
    format!("{rounded}")
}
