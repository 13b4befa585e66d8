//! Which effect elements act on the picture at a given time.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::{ElementType, Timeline, TrackType};
use crate::time::ticks_to_seconds;

/// An effect element active at a time, as `effectsAt` returns it and a host renders it.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveEffect {
    pub element_id: String,
    pub track_id: String,
    pub effect_type: String,
    /// Every parameter of the effect, defaults filled in for any the element lacks.
    #[schemars(with = "std::collections::BTreeMap<String, f64>")]
    pub params: Map<String, Value>,
    /// The element's time range, in seconds.
    pub start: f64,
    pub end: f64,
}

/// The effect elements whose `[start, end)` contains `tick`, bottom track first (tracks are
/// stored top first, so this walks them in reverse): the order in which to apply them.
pub fn effects_at(timeline: &Timeline, tick: i64) -> Vec<ActiveEffect> {
    let mut out = Vec::new();
    for track in timeline.tracks.iter().rev().filter(|t| t.kind == TrackType::Effect) {
        let from = track.elements.partition_point(|e| e.end() <= tick);
        for e in track.elements[from..].iter().take_while(|e| e.start <= tick) {
            if e.kind != ElementType::Effect || tick < e.start {
                continue;
            }
            let effect_type = e.effect_type.clone().unwrap_or_default();
            let stored = e.params.clone().unwrap_or_default();
            let mut params = super::find(&effect_type).map(|def| def.defaults()).unwrap_or_default();
            for (k, v) in stored {
                params.insert(k, v);
            }
            out.push(ActiveEffect {
                element_id: e.id.to_string(),
                track_id: track.id.clone(),
                effect_type,
                params,
                start: ticks_to_seconds(e.start),
                end: ticks_to_seconds(e.end()),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Element, Track};
    use serde_json::json;
    use std::sync::Arc;

    fn effect(id: &str, kind: &str, start: i64, end: i64, params: Value) -> Arc<Element> {
        let mut e = Element::new(id.into(), ElementType::Effect, start, end - start);
        e.effect_type = Some(kind.into());
        e.params = Some(params.as_object().unwrap().clone());
        Arc::new(e)
    }

    #[test]
    fn active_effects_bottom_to_top_with_half_open_ranges() {
        let mut top = Track::new("t-top".into(), TrackType::Effect);
        top.elements = vec![effect("e1", "invert", 0, 100, json!({"intensity": 50}))];
        let mut bottom = Track::new("t-bottom".into(), TrackType::Effect);
        bottom.elements = vec![effect("e2", "blur", 0, 50, json!({"intensity": 30})), effect("e3", "vignette", 50, 120, json!({"radius": 40}))];
        let main = Track::new("t-main".into(), TrackType::Main);
        let tl = Timeline { tracks: vec![Arc::new(top), Arc::new(main), Arc::new(bottom)], extra: Map::new() };

        let ids = |t| effects_at(&tl, t).into_iter().map(|a| a.element_id).collect::<Vec<_>>();
        assert_eq!(ids(0), ["e2", "e1"]);
        assert_eq!(ids(49), ["e2", "e1"]);
        assert_eq!(ids(50), ["e3", "e1"]);
        assert_eq!(ids(100), ["e3"]);
        assert!(ids(120).is_empty());
        assert!(ids(-1).is_empty());

        let at = effects_at(&tl, 60);
        assert_eq!(at[0].track_id, "t-bottom");
        assert_eq!(at[0].effect_type, "vignette");
        // Missing params take their defaults, in declaration order.
        assert_eq!(Value::Object(at[0].params.clone()), json!({"radius": 40, "softness": 35}));
        assert_eq!(at[0].start, ticks_to_seconds(50));
    }
}
