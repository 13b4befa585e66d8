//! The argument and result types of the host tools (`registry::HOST_TOOLS`): the JS side answers
//! them, the registry declares them like the engine's, and their schemas come from these types.

#![allow(dead_code)]

use schemars::JsonSchema;
use serde::Deserialize;

use super::schema::*;

/// media_import.
pub mod media_import {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Absolute paths of the files to import
        #[schemars(length(min = 1))]
        paths: Vec<String>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        assets: List<Imported>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Imported {
        id: String,
        name: String,
        #[schemars(extend("enum" = ["video", "audio", "image"]))]
        r#type: String,
        format: String,
        path: String,
        duration: Option<f64>,
        width: Option<i64>,
        height: Option<i64>,
        fps: Option<Fps>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Fps {
        numerator: i64,
        denominator: i64,
    }
}

/// transcribe_video.
pub mod transcribe_video {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Video or audio asset id from list_project_assets; optional when the timeline uses exactly one
        #[schemars(length(min = 1))]
        asset_id: Option<String>,
        /// A video or audio element id from list_timeline instead: only what it plays, in timeline seconds (through its trim and speed)
        #[schemars(length(min = 1))]
        element_id: Option<String>,
        /// Spoken language as a BCP 47 tag (e.g. en, es-AR); detected when omitted
        #[schemars(length(min = 1))]
        language: Option<String>,
        /// Who transcribes: local (the host's transcriber, e.g. Whisper in a worker) or gemini (through the proxy); the local one when the host has it
        #[schemars(extend("enum" = ["local", "gemini"]))]
        provider: Option<String>,
        /// Transcription model: a Gemini model the proxy allows, or the local transcriber's model
        #[schemars(length(min = 1))]
        model_id: Option<String>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        asset_id: String,
        /// The element transcribed (elementId given)
        element_id: Option<String>,
        #[schemars(extend("enum" = ["gemini", "local"]))]
        provider: String,
        /// timeline: seconds on the timeline, per placement; source: seconds into the asset (it is not on the timeline)
        #[schemars(extend("enum" = ["timeline", "source"]))]
        time_base: String,
        language: Option<String>,
        /// The whole transcript of the asset, segment after segment
        text: String,
        segments: List<Segment>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Segment {
        start: f64,
        end: f64,
        text: String,
        element_id: Option<String>,
        /// Each word's times, when the transcriber gives them (words outside the element's span left out)
        words: Option<List<Word>>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Word {
        start: f64,
        end: f64,
        text: String,
    }
}

/// detect_silences.
pub mod detect_silences {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Video or audio asset id from list_project_assets (source seconds); optional when the project has exactly one
        #[schemars(length(min = 1))]
        asset_id: Option<String>,
        /// A video or audio element id from list_timeline instead (timeline seconds, through its trim and speed)
        #[schemars(length(min = 1))]
        element_id: Option<String>,
        /// The shortest pause to report, in seconds of the time base (default 0.5)
        #[schemars(extend("exclusiveMinimum" = 0))]
        min_duration: Option<f64>,
        /// Loudness at or below which audio counts as silent, in dBFS (default -40)
        #[schemars(range(min = -120, max = 0))]
        threshold_db: Option<f64>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        asset_id: String,
        element_id: Option<String>,
        /// timeline: seconds on the timeline (elementId given); source: seconds into the asset
        #[schemars(extend("enum" = ["timeline", "source"]))]
        time_base: String,
        /// Seconds of audio measured, in the time base
        duration: f64,
        silences: List<Span>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Span {
        start: f64,
        end: f64,
    }
}

/// detect_scenes.
pub mod detect_scenes {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Video asset id from list_project_assets (source seconds); optional when the project has exactly one
        #[schemars(length(min = 1))]
        asset_id: Option<String>,
        /// A video element id from list_timeline instead (timeline seconds, through its trim and speed)
        #[schemars(length(min = 1))]
        element_id: Option<String>,
        /// How different a frame must be from the one before to start a new shot, from 0 to 1 (default 0.1: a tenth of the full range per pixel on average); lower finds subtler cuts
        #[schemars(extend("exclusiveMinimum" = 0), range(max = 1))]
        threshold: Option<f64>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        asset_id: String,
        element_id: Option<String>,
        /// timeline: seconds on the timeline (elementId given); source: seconds into the asset
        #[schemars(extend("enum" = ["timeline", "source"]))]
        time_base: String,
        /// The video's frame rate (frames per second of the source)
        fps: f64,
        /// Seconds measured, in the time base
        duration: f64,
        /// Where each new shot starts: the time of its first frame
        cuts: Vec<f64>,
    }
}

/// review_clip.
pub mod review_clip {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Timeline time in seconds where the clip starts
        #[schemars(range(min = 0))]
        start: f64,
        /// Where it ends: after start, at most 30 seconds later
        #[schemars(extend("exclusiveMinimum" = 0))]
        end: f64,
        /// Picture width in pixels (default 320; the height keeps the project's aspect)
        #[schemars(range(min = 160, max = 640))]
        width: Option<i64>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        start: f64,
        end: f64,
        width: i64,
        height: i64,
        /// The uploaded file's size
        size_bytes: i64,
        mime_type: String,
        /// Gemini's handle of the clip, attached to the next request
        file_uri: String,
    }
}

/// render_preview.
pub mod render_preview {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Timeline time in seconds (or give times)
        #[schemars(range(min = 0))]
        time: Option<f64>,
        /// Up to 16 timeline times in seconds: one contact sheet, the frames in a grid in this order, each labelled with its timecode
        #[schemars(length(min = 1, max = 16), inner(range(min = 0)))]
        times: Option<Vec<f64>>,
        /// Image width in pixels, of the frame or the whole sheet (default 960; height keeps the project's aspect)
        #[schemars(range(min = 16, max = 1920))]
        width: Option<i64>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        /// The frame's time (time given)
        time: Option<f64>,
        /// The sheet's times (times given)
        times: Option<Vec<f64>>,
        width: i64,
        height: i64,
        canvas: Option<Canvas>,
        /// What the frame draws, bottom first (time given)
        layers: Option<List<Layer>>,
        not_drawn: Option<List<NotDrawn>>,
        /// Each sheet cell: its time, where it is on the sheet, and what it draws (times given)
        frames: Option<List<SheetFrame>>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct SheetFrame {
        time: f64,
        x: i64,
        y: i64,
        width: i64,
        height: i64,
        layers: List<Layer>,
        not_drawn: Option<List<NotDrawn>>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Canvas {
        width: Option<i64>,
        height: Option<i64>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Layer {
        element_id: String,
        kind: String,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct NotDrawn {
        element_id: Option<String>,
        reason: Option<String>,
    }
}

/// export_video.
pub mod export_video {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Absolute path of the file to write (.mp4 or .webm); an existing file is replaced
        path: String,
        /// Default: from the path's extension
        #[schemars(extend("enum" = ["mp4", "webm"]))]
        format: Option<String>,
        /// Seconds; default 0
        #[schemars(range(min = 0))]
        start: Option<f64>,
        /// Seconds; default the end of the timeline
        #[schemars(range(min = 0))]
        end: Option<f64>,
        /// Output width in pixels (default the project's); the height keeps the aspect
        #[schemars(range(min = 16, max = 7680))]
        width: Option<i64>,
        /// Answer when the file is written (default false: answer with the job at once)
        wait: Option<bool>,
    }

    // What export_video answers: the job, its counters present once it is running.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        job: String,
        path: String,
        #[schemars(extend("enum" = ["mp4", "webm"]))]
        format: String,
        #[schemars(extend("enum" = ["running", "done", "failed", "cancelled"]))]
        state: String,
        frames_done: Option<i64>,
        total_frames: Option<i64>,
        /// 0 to 1
        progress: Option<f64>,
        error: Option<String>,
        /// When done: codecs, width, height, fps, frames, duration, bytes, missing
        result: Option<AnyObject>,
    }
}

/// jobs_list.
pub mod jobs_list {
    use super::*;

    pub type Arguments = NoArgs;

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        jobs: List<super::Job>,
    }
}

/// jobs_cancel.
pub mod jobs_cancel {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// The job id from export_video or jobs_list
        job: String,
    }

    pub type Returns = super::Job;
}

// An export job as export_video, jobs_list and jobs_cancel report it.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    job: String,
    path: String,
    #[schemars(extend("enum" = ["mp4", "webm"]))]
    format: String,
    #[schemars(extend("enum" = ["running", "done", "failed", "cancelled"]))]
    state: String,
    frames_done: i64,
    total_frames: i64,
    /// 0 to 1
    progress: f64,
    error: Option<String>,
    /// When done: codecs, width, height, fps, frames, duration, bytes, missing
    result: Option<AnyObject>,
}

/// submit_plan.
pub mod submit_plan {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// The steps, in order: short imperative sentences
        #[schemars(length(min = 1))]
        steps: Vec<String>,
        /// The plan in one line
        summary: Option<String>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        #[schemars(extend("enum" = ["approve", "reject", "edit"]))]
        decision: String,
        /// The steps to carry out (the user's edit, when edited)
        steps: Option<Vec<String>>,
        /// What the user said about the plan
        feedback: Option<String>,
    }
}

/// ask_user.
pub mod ask_user {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// One short question
        #[schemars(length(min = 1))]
        question: String,
        /// Likely answers to pick from; the user may type another
        options: Option<Vec<String>>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        /// The user's answer, in their words
        answer: String,
    }
}

/// list_skills.
pub mod list_skills {
    use super::*;

    pub type Arguments = NoArgs;

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        skills: List<Skill>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Skill {
        name: String,
        description: String,
    }
}

/// load_skill.
pub mod load_skill {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// A skill name from list_skills
        #[schemars(length(min = 1))]
        name: String,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        name: String,
        description: Option<String>,
        /// The recipe, in markdown
        body: String,
    }
}

// The bridge's ui_* tools (js/bridge/mcp.ts): page pixels are CSS pixels of the viewport.

// A key held down during a click or drag (a plain comment: a doc comment would become the items' description).
#[derive(Deserialize, JsonSchema)]
pub enum Modifier {
    Ctrl,
    Shift,
    Alt,
    Cmd,
}

/// ui_inspect.
pub mod ui_inspect {
    use super::*;

    pub type Arguments = NoArgs;

    // The host's UI state: the demo's fields; another host's adapter may add or leave out some.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        /// Seconds
        playhead: Option<f64>,
        /// Selected element ids
        selection: Option<Vec<String>>,
        /// Timeline pixels per second
        zoom: Option<f64>,
        playing: Option<bool>,
        /// Visible panels, for ui_screenshot
        panels: Option<Vec<String>>,
    }
}

/// ui_elements.
pub mod ui_elements {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Keep ids starting with this
        prefix: Option<String>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        elements: List<Element>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Element {
        /// Automation id
        id: String,
        label: String,
        role: String,
        /// Page pixels
        rect: Rect,
        selected: Option<True>,
        disabled: Option<True>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Rect {
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    }
}

/// ui_click.
pub mod ui_click {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// Automation id from ui_elements
        id: Option<String>,
        x: Option<f64>,
        y: Option<f64>,
        #[schemars(extend("enum" = ["left", "middle", "right"]))]
        button: Option<String>,
        #[schemars(range(min = 1, max = 3))]
        count: Option<i64>,
        /// Keys held down
        modifiers: Option<Vec<Modifier>>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        /// The automation id (or tag) clicked
        clicked: String,
        x: f64,
        y: f64,
    }
}

/// ui_drag.
pub mod ui_drag {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        from: Where,
        to: Option<Where>,
        /// Pixels right (instead of to)
        dx: Option<f64>,
        /// Pixels down (instead of to)
        dy: Option<f64>,
        #[schemars(range(min = 1, max = 100))]
        steps: Option<i64>,
        /// Keys held down
        modifiers: Option<Vec<Modifier>>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        /// Where the press was: x, y and the automation id under it
        from: Pressed,
        /// Where the release was
        to: Point,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Pressed {
        x: f64,
        y: f64,
        id: Option<NullableString>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Point {
        x: f64,
        y: f64,
    }
}

/// ui_key.
pub mod ui_key {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        key: String,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        key: String,
        /// Whether the page acted on it
        handled: bool,
        /// The automation id (or tag) of the focused element
        target: String,
    }
}

/// ui_type.
pub mod ui_type {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        text: String,
        /// Focus this field first
        id: Option<String>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        /// Characters typed
        typed: i64,
        into: Option<NullableString>,
        /// The field's value after
        value: Option<String>,
    }
}

/// ui_screenshot.
pub mod ui_screenshot {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        /// A panel name from ui_inspect, or an automation id
        panel: Option<String>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Returns {
        width: i64,
        height: i64,
    }
}

/// ui_control.
pub mod ui_control {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Arguments {
        method: String,
        params: Option<AnyObject>,
    }

    // Whatever the method answers.
    #[derive(JsonSchema)]
    pub struct Returns {}
}
