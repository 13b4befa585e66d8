//! The one error type of a tool call: the spec's exact message, a stable code, and where useful a
//! hint that tells the caller how to fix the call.

use std::fmt;

use serde_json::{Map, Value};

pub use crate::error_code::ErrorCode;

/// What a tool call resolves to when it fails: the spec's message, a stable code, maybe a hint,
/// and structured details beside them.
// The type of `ToolError::to_json`'s JSON, generated into the typings as `ToolErrorResult`;
// tools::typescript's tests hold the two together.
#[derive(schemars::JsonSchema)]
#[schemars(rename = "ToolErrorResult")]
#[allow(dead_code)] // read for its schema only
pub struct ToolErrorJson {
    /// The tool spec's message.
    pub error: String,
    /// A code of `ERROR_CODES` (typed as text: codes from a bridge or a proxy pass through).
    pub code: String,
    /// How to fix the call, where there is a way.
    pub hint: Option<String>,
    /// Structured details beside `error` (e.g. `step` for batch, `details` for providers).
    #[serde(flatten)]
    pub data: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolError {
    /// Stable; its string never changes once published.
    pub code: ErrorCode,
    /// The tool spec's string where it names one.
    pub message: String,
    pub hint: Option<String>,
    /// Structured details placed beside `error` (e.g. `step` for batch, `details` for providers).
    pub data: Map<String, Value>,
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl crate::error_code::CodedError for ToolError {
    fn code(&self) -> ErrorCode {
        self.code
    }
}

macro_rules! spec_errors {
    ($($fn_name:ident => $code:ident, $msg:literal;)*) => {
        impl ToolError {
            $(pub fn $fn_name() -> ToolError { ToolError::new(ErrorCode::$code, $msg) })*
        }
        /// Every fixed message of the tool spec with its code, for documentation and tests.
        pub const SPEC_MESSAGES: &[(&str, &str)] = &[$((ErrorCode::$code.as_str(), $msg)),*];
    };
}

spec_errors! {
    no_active_project => NoActiveProject, "No active project";
    no_active_timeline => NoActiveTimeline, "No active timeline";
    asset_not_found => AssetNotFound, "Asset not found";
    unsupported_asset_type => UnsupportedAssetType, "Unsupported asset type";
    context_failed => ContextLoadFailed, "Failed to load asset context";
    invalid_split_times => InvalidSplitTimes, "Invalid split times";
    no_timeline_content => NoTimelineContent, "No timeline content";
    invalid_element_ids => InvalidElementIds, "Invalid element ids";
    invalid_element_id => InvalidElementId, "Invalid element id";
    invalid_start => InvalidStartTime, "Invalid start time";
    invalid_end => InvalidEndTime, "Invalid end time";
    invalid_duration => InvalidDuration, "Invalid duration";
    invalid_range => InvalidTimeRange, "Invalid time range";
    invalid_timing_update => InvalidTimingUpdate, "Invalid timing update";
    conflicting_timing => ConflictingTimingValues, "Conflicting timing values";
    duration_exceeds_source => DurationExceedsSource, "Duration exceeds source duration";
    text_required => TextRequired, "Text is required";
    text_element_not_found => TextElementNotFound, "Text element not found";
    not_text => ElementNotText, "Element is not text";
    invalid_track_type => InvalidTrackType, "Invalid track type for asset";
    element_not_found => ElementNotFound, "Element not found";
    invalid_volume => InvalidVolume, "Volume must be between 0 and 1";
    no_volume => VolumeNotSupported, "Element does not support volume";
    sticker_not_found => StickerNotFound, "Sticker not found";
    invalid_effect_type => InvalidEffectType, "Invalid effect type";
    invalid_effect_params => InvalidEffectParameters, "Invalid effect parameters";
    placement_failed => PlacementFailed, "Failed to place effect element";
    params_required => ParamsRequired, "params is required and must be a non-empty object";
    not_effect => ElementNotEffect, "Element is not an effect";
}

/// "a" or "an" before a track type (an overlay, an effect, an audio track).
pub(crate) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ToolError {
        ToolError { code, message: message.into(), hint: None, data: Map::new() }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> ToolError {
        self.hint = Some(hint.into());
        self
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> ToolError {
        crate::text::put(&mut self.data, key, value.into());
        self
    }

    pub fn elements_not_found(ids: &[String]) -> ToolError {
        ToolError::new(ErrorCode::ElementsNotFound, format!("Timeline elements not found: {}", ids.join(", ")))
            .with("missing", ids.to_vec())
            .with_hint("Call list_timeline to get the current element ids.")
    }

    pub fn timeline_element_not_found(id: &str) -> ToolError {
        ToolError::new(ErrorCode::TimelineElementNotFound, format!("Timeline element not found: {id}"))
            .with_hint("Call list_timeline to get the current element ids.")
    }

    pub fn target_track_not_found(id: &str) -> ToolError {
        ToolError::new(ErrorCode::TargetTrackNotFound, format!("Target track not found: {id}")).with_hint("Call list_timeline to get the current track ids.")
    }

    pub fn effect_not_found(kind: &str) -> ToolError {
        ToolError::new(ErrorCode::EffectNotFound, format!("Effect not found: {kind}")).with_hint("Call list_effects to see the registered effect ids.")
    }

    pub fn unknown_parameter(key: &str) -> ToolError {
        ToolError::new(ErrorCode::UnknownParameter, format!("Unknown parameter: {key}")).with_hint("Call get_effect to see the effect's parameters.")
    }

    pub fn parameter_below(key: &str, min: f64) -> ToolError {
        ToolError::new(ErrorCode::ParameterOutOfRange, format!("Parameter '{key}' must be >= {}", crate::text::Num(min)))
    }

    pub fn parameter_above(key: &str, max: f64) -> ToolError {
        ToolError::new(ErrorCode::ParameterOutOfRange, format!("Parameter '{key}' must be <= {}", crate::text::Num(max)))
    }

    /// An element on `track` is in the way of the requested placement.
    pub fn overlap(track_id: &str, element_id: &str, start: f64, end: f64) -> ToolError {
        ToolError::new(
            ErrorCode::Overlap,
            format!("Element {element_id} on track {track_id} is in the way ({}s to {}s)", crate::text::Num(start), crate::text::Num(end)),
        )
        // Not trackId/elementId: those name what a call created or changed when it succeeds.
        .with("blockingTrackId", track_id)
        .with("blockingElementId", element_id)
        .with_hint("Choose a free time range (see list_timeline), or move or delete the element first.")
    }

    pub fn incompatible_track(track_id: &str, track_type: &str, element_type: &str) -> ToolError {
        ToolError::new(
            ErrorCode::IncompatibleTrack,
            format!("Target track {track_id} is {} {track_type} track and cannot hold {element_type} elements", article(track_type)),
        )
        .with_hint("Video and image go on main or overlay tracks, stickers on overlay, audio on audio.")
    }

    /// The host declared it does not draw elements of `kind` (`createEditor({ elementKinds })`).
    pub fn not_drawn(kind: &str, drawn: &[&str]) -> ToolError {
        ToolError::new(ErrorCode::ElementKindNotDrawn, format!("This host does not draw {kind} elements"))
            .with("elementType", kind)
            .with_hint(format!("Its preview shows only: {}. list_timeline's notDrawn names the rest.", drawn.join(", ")))
    }

    /// An overlay track of one OpenCut kind asked to take an element of the other: OpenCut keeps
    /// stickers on graphic tracks and video and images on video tracks, never together.
    pub fn other_overlay_kind(track_id: &str, stickers: bool, element_type: &str) -> ToolError {
        let kind = if stickers { "graphic overlay" } else { "video overlay" };
        ToolError::incompatible_track(track_id, kind, element_type)
            .with_hint("An overlay track holds stickers and graphics or video and images, never both, as OpenCut's graphic and video tracks do: choose an overlay track of the element's kind, or leave out targetTrackId.")
    }

    pub fn unknown_tool(name: &str, known: &[&str]) -> ToolError {
        ToolError::new(ErrorCode::UnknownTool, format!("Unknown tool \"{name}\"")).with_hint(format!("Known tools: {}", known.join(", ")))
    }

    pub fn unknown_argument(tool: &str, arg: &str, accepted: &[&str]) -> ToolError {
        let expected = if accepted.is_empty() { "no arguments".to_string() } else { accepted.join(", ") };
        ToolError::new(ErrorCode::UnknownArgument, format!("unknown argument \"{arg}\" for {tool}; expected: {expected}"))
            .with("argument", arg)
            .with("accepted", accepted.iter().map(|s| Value::from(*s)).collect::<Vec<_>>())
    }

    /// A wrong type or value for an argument the spec gives no message for.
    pub fn invalid_argument(arg: &str, expected: &str) -> ToolError {
        ToolError::new(ErrorCode::InvalidArgument, format!("Argument \"{arg}\" must be {expected}")).with("argument", arg)
    }

    pub fn arguments_not_object() -> ToolError {
        ToolError::new(ErrorCode::InvalidArguments, "Arguments must be a JSON object")
    }

    /// The JSON form returned to callers: `{ error, code, hint?, ...data }`.
    pub fn to_json(&self) -> Value {
        let mut obj = Map::new();
        crate::text::put(&mut obj, "error", Value::from(self.message.clone()));
        crate::text::put(&mut obj, "code", Value::from(self.code.as_str()));
        if let Some(h) = &self.hint {
            crate::text::put(&mut obj, "hint", Value::from(h.clone()));
        }
        for (k, v) in &self.data {
            obj.insert(k.clone(), v.clone());
        }
        Value::Object(obj)
    }
}

#[cfg(test)]
mod tests {
    /// A Rust caller (`?` into `Box<dyn Error>`, a log line) reads the spec's message, nothing
    /// more: the code and hint travel in the JSON form.
    #[test]
    fn display_is_the_message() {
        let e = super::ToolError::invalid_split_times().with_hint("Pass seconds");
        assert_eq!(e.to_string(), "Invalid split times");
        let boxed: Box<dyn std::error::Error> = Box::new(super::ToolError::no_timeline_content());
        assert_eq!(boxed.to_string(), "No timeline content");
    }
}
