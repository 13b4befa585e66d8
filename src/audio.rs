//! What is heard over a span of the timeline, as data: the clips that sound, where their source
//! starts, how fast it plays and how loud it is. The export mixes this (js/export.ts); the rules
//! are OpenCut's (shared/opencut-format.md): video and audio elements sound, a muted track or
//! element is silent, a video whose own sound is off (`isSourceAudioEnabled: false`) is silent,
//! `hidden` only stops drawing, and `volume` (dB, keyframable) is gain `10^(dB/20)` as OpenCut
//! maps it (−60 dB, its quietest, plays at 0.001); a volume of 0 (set_volume 0) is silent.

use crate::model::{Element, ElementType, Project};
use crate::properties::db_to_gain;
use crate::text::Num;
use crate::time::{seconds_to_ticks, ticks_to_seconds};
use schemars::JsonSchema;
use serde::Serialize;

/// The audible clips over `[from, to)`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AudioPlan {
    pub from: f64,
    pub to: f64,
    /// Seconds between two entries of a clip's `gains`.
    pub step: f64,
    pub clips: Vec<AudioClip>,
}

/// One clip that sounds somewhere in the span.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "AudioPlanClip")]
pub struct AudioClip {
    pub element_id: String,
    pub track_id: String,
    pub asset_id: String,
    /// Timeline seconds where the clip starts and ends (the whole clip, not cut to the span).
    pub start: f64,
    pub end: f64,
    /// Source seconds at the clip's start (`trimStart`).
    pub source_start: f64,
    /// Source seconds per timeline second (OpenCut's `retime.rate`, 1 without).
    pub rate: f64,
    /// Keep the sound's pitch at that rate (OpenCut's `retime.maintainPitch`): the export
    /// stretches it in time instead of playing it faster or slower.
    pub maintain_pitch: bool,
    /// Linear gain at `gainsFrom + i × step`; one entry when the volume is not animated.
    pub gains: Vec<f64>,
    /// Timeline seconds of `gains[0]`: the later of the span's and the clip's start.
    pub gains_from: f64,
}

/// Whether a video element's own sound is on (OpenCut's `isSourceAudioEnabled`, absent = on).
fn source_audio(el: &Element) -> bool {
    el.source_audio != Some(false)
}

/// The linear gain of `el` at `local` ticks from its start.
fn gain(el: &Element, local: i64) -> f64 {
    let db = crate::animation::value_at(el, "volume", local).and_then(|v| v.as_f64()).filter(|v| v.is_finite()).unwrap_or(0.0);
    db_to_gain(db)
}

/// The clips of `project` heard over ticks `[from, to)`, gains sampled every `step` ticks.
pub fn audio_plan(project: &Project, from: i64, to: i64, step: i64) -> AudioPlan {
    let step = step.max(1);
    let mut plan = AudioPlan { from: ticks_to_seconds(from), to: ticks_to_seconds(to), step: ticks_to_seconds(step), clips: Vec::new() };
    let Some(timeline) = &project.timeline else { return plan };
    for track in &timeline.tracks {
        if track.muted == Some(true) {
            continue;
        }
        for el in &track.elements {
            if !el.kind.has_volume() || el.muted == Some(true) || el.end() <= from || el.start >= to {
                continue;
            }
            if el.kind == ElementType::Video && !source_audio(el) {
                continue;
            }
            let Some(asset_id) = el.asset_id.as_deref() else { continue };
            let first = from.max(el.start);
            let last = to.min(el.end());
            let animated = el.animations.as_ref().is_some_and(|a| a.contains("volume"));
            // Volume 0 (set_volume 0) is silence, written to OpenCut as `muted`; OpenCut's
            // quietest dB, −60, still plays at gain 0.001.
            if el.volume == Some(0.0) && !animated {
                continue;
            }
            let gains = if animated {
                let n = (last - first + step - 1) / step + 1;
                (0..n).map(|i| gain(el, (first + i * step).min(last) - el.start)).collect()
            } else {
                vec![gain(el, 0)]
            };
            if gains.iter().all(|g| *g == 0.0) {
                continue;
            }
            plan.clips.push(AudioClip {
                element_id: el.id.to_string(),
                track_id: track.id.clone(),
                asset_id: asset_id.to_string(),
                start: ticks_to_seconds(el.start),
                end: ticks_to_seconds(el.end()),
                source_start: ticks_to_seconds(el.trim_start),
                rate: el.rate(),
                maintain_pitch: el.retime.as_ref().and_then(|r| r.maintain_pitch) == Some(true) && el.rate() != 1.0,
                gains,
                gains_from: ticks_to_seconds(first),
            });
        }
    }
    plan
}

impl crate::editor::Document {
    /// The audio plan over `[from, to)` seconds, gains every `step` seconds; `None` without a
    /// project. A non-finite time, `to` before `from` or a step that is not positive is an error.
    pub fn audio_plan(&self, from: f64, to: f64, step: f64) -> Result<Option<AudioPlan>, crate::ApiError> {
        let bad = || {
            crate::ApiError::new(
                crate::ErrorCode::InvalidSeconds,
                format!("from, to and step must be finite seconds with 0 <= from <= to and step > 0, got {}, {}, {}", Num(from), Num(to), Num(step)),
            )
        };
        let (a, b, s) = (seconds_to_ticks(from).ok_or_else(bad)?, seconds_to_ticks(to).ok_or_else(bad)?, seconds_to_ticks(step).ok_or_else(bad)?);
        if a < 0 || b < a || s <= 0 {
            return Err(bad());
        }
        Ok(self.project().map(|p| audio_plan(p, a, b, s)))
    }
}
