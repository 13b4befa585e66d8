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
use crate::time::TICKS_PER_SECOND;

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
        crate::text::put(&mut v, "kind", self.kind.into());
        crate::text::put(&mut v, "start", seconds(self.start));
        crate::text::put(&mut v, "end", seconds(self.end));
        if !self.element_ids.is_empty() {
            crate::text::put(&mut v, "elementIds", json!(self.element_ids));
        }
        crate::text::put(&mut v, "message", self.message.clone().into());
        Value::Object(v)
    }
}

/// The part of `[start, end)` inside the window, `None` when nothing is.
fn clip((start, end): (i64, i64), (from, to): (i64, i64)) -> Option<(i64, i64)> {
    let (s, e) = (start.max(from), end.min(to));
    (s < e).then_some((s, e))
}

/// Seconds for a message: at most four decimals (a 1 ms overrun still shows), no trailing zeros.
/// Integer arithmetic: formatting an `f64` would add core's float printer to the wasm.
fn secs(ticks: i64) -> String {
    const TENTHS_OF_MS: i64 = TICKS_PER_SECOND / 10_000;
    let q = (ticks + TENTHS_OF_MS / 2).div_euclid(TENTHS_OF_MS);
    let (whole, frac) = (q.div_euclid(10_000), q.rem_euclid(10_000));
    if frac == 0 {
        return format!("{whole}");
    }
    let digits = format!("{frac:04}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// Timelines for the checks' unit tests.
#[cfg(test)]
mod fixtures {
    use crate::model::{Element, Timeline, Track, TrackType};
    use std::sync::Arc;

    /// A track of `kind` holding `elements`.
    pub fn track(id: &str, kind: TrackType, elements: Vec<Element>) -> Track {
        let mut t = Track::new(id.into(), kind);
        t.elements = elements.into_iter().map(Arc::new).collect();
        t
    }

    /// The main track `t0` holding `main`, with `above` on top of it (in list order, top first).
    pub fn timeline(above: Vec<Track>, main: Vec<Element>) -> Timeline {
        let mut tl = Timeline::with_main("t0".into());
        tl.track_mut(0).elements = main.into_iter().map(Arc::new).collect();
        tl.tracks.splice(0..0, above.into_iter().map(Arc::new));
        tl
    }
}

#[cfg(test)]
mod tests {
    use super::secs;

    #[test]
    fn message_seconds_round_to_four_decimals() {
        assert_eq!([secs(0), secs(600_000), secs(540_000), secs(600_050), secs(920_000), secs(6)], ["0", "5", "4.5", "5.0004", "7.6667", "0.0001"]);
    }
}
