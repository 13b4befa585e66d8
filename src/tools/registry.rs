//! The tool registry: the list of every tool's definition ([`ToolDef`]). Each engine tool is one
//! module, `src/tools/<family>/<tool>.rs`, holding its definition (name, title, LLM-facing
//! description, MCP annotations, documented errors, an example call), its argument and result
//! types (the JSON Schemas come from them, see `tools::schema`) and its run function. MCP,
//! WebMCP, Gemini function calling, the TypeScript typings and docs/tools.md are all generated
//! from this list.

use std::sync::OnceLock;

use serde_json::{json, Value};

pub use super::schema::Types;
use super::{arrange, captions, check, context, create, cut, effect, element, history, host, inspect, keyframe, project, track, ToolFn};

/// How the editor runs a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Reads; never changes anything.
    Read,
    /// Changes the timeline; one undo step when it succeeds and changes something.
    Edit,
    Undo,
    Redo,
    Batch,
    /// load_asset_context: needs the host's provider (see `tools::context`).
    Context,
    /// Answered by the JS side, never by the engine (`HOST_TOOLS`).
    Host,
}

/// The four MCP tool annotations, plus whether the output carries text made by users or models
/// (asset names, element text, summaries): WebMCP's `untrustedContentHint`, for agents that must
/// not take it as instructions. MCP has no such hint (its SDK drops unknown ones), so it is not in
/// `annotations_json`; the typings export the list (`UNTRUSTED_OUTPUT_TOOLS`) for WebMCP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    pub untrusted_content: bool,
}

pub const READ: Annotations = Annotations { read_only: true, destructive: false, idempotent: true, open_world: false, untrusted_content: false };
pub const LISTING: Annotations = Annotations { untrusted_content: true, ..READ };
pub const ADD: Annotations = Annotations { read_only: false, destructive: false, idempotent: false, open_world: false, untrusted_content: false };
pub const CHANGE: Annotations = Annotations { read_only: false, destructive: true, idempotent: true, open_world: false, untrusted_content: false };
pub const HISTORY: Annotations = Annotations { read_only: false, destructive: true, idempotent: false, open_world: false, untrusted_content: false };
/// batch returns its steps' outputs, listings included.
pub const BATCH: Annotations = Annotations { untrusted_content: true, ..HISTORY };

/// Titles, descriptions, examples and error lists reach agents through the generated catalog
/// (js/generated/tools.ts) and docs; the wasm only dispatches by name, so they are left out of it
/// (18 KB raw, about 6 KB gzipped, measured in docs/package.md).
macro_rules! text {
    ($s:expr) => {
        if cfg!(target_arch = "wasm32") {
            ""
        } else {
            $s
        }
    };
}
macro_rules! list {
    ($s:expr) => {
        if cfg!(target_arch = "wasm32") {
            &[]
        } else {
            $s
        }
    };
}
/// A tool's run function as the registry calls it: the checked arguments are deserialized into
/// the tool's own argument type, the one its schema comes from (`tools::args`).
macro_rules! typed {
    ($run:path) => {
        Some(|ctx, args| crate::tools::args::call(ctx, args, $run))
    };
}
/// A tool's argument type, `pub struct Arguments { ... }`, with what every one has: camelCase
/// names, and a closed schema (`deny_unknown_fields`: `additionalProperties: false`), as
/// `Args::strict` refuses any other key.
///
/// Each field is an `Arg<T>`: `T` gives its schema and the type `run` reads. In tests the macro
/// adds one that reads the tool's example and every case's arguments through those fields and
/// checks each against the schema's declared type (`tools::reads`).
macro_rules! arguments {
    ($(#[$meta:meta])* pub struct Arguments { $($(#[$fmeta:meta])* $fvis:vis $field:ident: $ty:ty),* $(,)? }) => {
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        $(#[$meta])*
        pub struct Arguments { $($(#[$fmeta])* $fvis $field: $ty),* }

        #[cfg(test)]
        impl crate::tools::reads::Fields for Arguments {
            fn reads(&self) -> Vec<bool> {
                vec![$(self.$field.read().is_ok()),*]
            }
        }

        #[cfg(test)]
        #[test]
        fn arguments_read_as_their_schema_says() {
            crate::tools::reads::check::<Arguments>(&DEF);
        }
    };
}
/// A tool's result type (`pub struct Returns { ... }`) or a part of one: camelCase names, read
/// only for its schema, never built (`run` writes its output with `json!`, and
/// tests/tool_cases.rs checks that output against this schema).
macro_rules! returns {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($fields:tt)* }) => {
        #[derive(schemars::JsonSchema)]
        #[serde(rename_all = "camelCase")]
        #[allow(dead_code)]
        $(#[$meta])*
        $vis struct $name { $($fields)* }
    };
}
pub(crate) use {arguments, list, returns, text, typed};

/// What a tool module needs to write its definition and types.
pub mod prelude {
    pub(crate) use super::{arguments, list, returns, text, typed};
    pub use super::{Annotations, Kind, ToolDef, Types, ADD, BATCH, CHANGE, HISTORY, LISTING, NOT_FOUND_IDS, READ};
    pub(crate) use crate::tools::args::choices;
    pub use crate::tools::args::{Arg, Bad, Choice, NonEmpty, Read};
    pub use crate::tools::schema::*;
    pub use schemars::JsonSchema;
    pub use serde::Deserialize;
}

pub struct ToolDef {
    pub name: &'static str,
    pub title: &'static str,
    /// A one-line summary of a call for people (a tool card): `{arg}` placeholders, `{arg:time}`
    /// (seconds as mm:ss.cc), `{arg:q}` (quoted text), `{arg:n noun}` (an array's length and the
    /// noun, plural when not 1), `[...]` a part left out when an argument in it is missing.
    /// Rendered by `summarizeCall` in `neuralcut/agent` from the generated `TOOL_SUMMARIES`.
    pub summary: &'static str,
    pub description: &'static str,
    /// The argument and result types: the accepted argument names and both JSON Schemas.
    pub types: Types,
    pub kind: Kind,
    pub annotations: Annotations,
    /// The error messages this tool can return (spec strings; `<x>` marks a filled-in part).
    pub errors: &'static [&'static str],
    /// An example call's arguments, run against the demo fixture to document the output.
    pub example: &'static str,
    pub run: Option<ToolFn>,
}

impl ToolDef {
    /// The accepted argument names: the argument type's fields.
    pub fn args(&self) -> &'static [&'static str] {
        (self.types.args)()
    }

    pub fn input_schema(&self) -> Value {
        (self.types.input)()
    }

    pub fn output_schema(&self) -> Value {
        (self.types.output)()
    }

    pub fn annotations_json(&self) -> Value {
        let a = self.annotations;
        json!({
            "readOnlyHint": a.read_only,
            "destructiveHint": a.destructive,
            "idempotentHint": a.idempotent,
            "openWorldHint": a.open_world,
        })
    }

    /// The catalog entry: name, title, description, inputSchema, outputSchema, annotations.
    pub fn info(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema(),
            "outputSchema": self.output_schema(),
            "annotations": self.annotations_json(),
        })
    }
}

pub const NOT_FOUND_IDS: &str = "Timeline elements not found: <ids>";
pub const ARG_ERRORS: &str = "unknown argument \"<name>\" for <tool>; expected: <names>";

/// Errors any tool can return, beside its own list: the argument checks every tool shares
/// (`tools::args`), readable references (`tools::refs`) and a project without a timeline.
/// docs/tools.md lists them once; `tests/tool_cases.rs` checks every expected error against them
/// and the tool's own list.
pub const COMMON_ERRORS: &[&str] = &[
    "Arguments must be a JSON object",
    ARG_ERRORS,
    "Argument \"<name>\" must be <rule>",
    "Unknown reference <ref>; <the references there are>",
    "No active project",
    "No active timeline",
];

/// Every tool, in the stable order they are listed.
pub static TOOLS: &[&ToolDef] = &[
    &inspect::list_project_assets::DEF,
    &inspect::list_timeline::DEF,
    &context::load_asset_context::DEF,
    &cut::split::DEF,
    &cut::delete_timeline_elements::DEF,
    &cut::cut_ranges::DEF,
    &arrange::move_timeline_elements::DEF,
    &create::add_text::DEF,
    &create::update_text::DEF,
    &create::add_media_to_timeline::DEF,
    &arrange::update_timeline_element_timing::DEF,
    &cut::delete_element::DEF,
    &create::set_volume::DEF,
    &inspect::list_stickers::DEF,
    &create::add_sticker::DEF,
    &create::add_graphic::DEF,
    &inspect::list_effects::DEF,
    &inspect::get_effect::DEF,
    &effect::apply_effect::DEF,
    &effect::update_effect::DEF,
    &element::get_element::DEF,
    &element::update_clip::DEF,
    &project::update_project::DEF,
    &track::duplicate_elements::DEF,
    &track::update_track::DEF,
    &track::move_track::DEF,
    &keyframe::list_animatable_properties::DEF,
    &keyframe::list_keyframes::DEF,
    &keyframe::upsert_keyframe::DEF,
    &keyframe::remove_keyframe::DEF,
    &keyframe::update_keyframe_curve::DEF,
    &check::check_timeline::DEF,
    &captions::add_captions::DEF,
    &captions::import_subtitles::DEF,
    &captions::export_subtitles::DEF,
    &history::undo::DEF,
    &history::redo::DEF,
    &history::batch::DEF,
];

/// Tools the JS side answers, declared in the same shape so that their text, schemas and errors
/// live beside the engine's and reach MCP, the typings and docs/tools.md the same way. Each is
/// offered only where it can run: `media_import` in Node sessions (`neuralcut mcp`, also with
/// `--bridge`, and the CLI),
/// `transcribe_video` by the in-page agent, `render_preview` wherever a compositor is at hand,
/// the export tools in `neuralcut mcp`, the `ui_*` tools in `neuralcut mcp --bridge`.
/// `editor.tools()` does not list them; the generated `HOST_TOOL_CATALOG` does.
pub static HOST_TOOLS: &[ToolDef] = &[
    ToolDef {
        name: "media_import",
        title: text!("Import media files"),
        summary: text!("Import {paths:n file}"),
        description: text!("Add media files to the project's assets by absolute path. Name, type (video, audio, image), duration, size and frame rate come from the file's headers, without decoding it. Supported: MP4/MOV/M4A, WebM/MKV, Ogg, WAV, MP3, AAC, FLAC; PNG, JPEG, GIF, WebP, AVIF, BMP, SVG. All or nothing: if one path cannot be read, nothing is added and the error names it. Then place the new assets with add_media_to_timeline."),
        types: Types::of::<host::media_import::Arguments, host::media_import::Returns>(),
        kind: Kind::Host,
        annotations: ADD,
        errors: list!(&["paths must be a non-empty array of absolute file paths", "Path must be absolute: <path>", "File not found: <path>", "Unsupported media format: <path> (supported: <formats>)", "Cannot add <path>: <why>"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "transcribe_video",
        title: text!("Transcribe video"),
        summary: text!("Transcribe[ {assetId}]"),
        description: text!("Transcribe the speech of a video or audio asset into timed segments { start, end, text, words? }, words with their own times when the transcriber gives them (Gemini is asked for them). Times are timeline seconds for each placement of the asset (with its elementId), or for one element with elementId (only what it plays, through its trim and speed), or source seconds when the asset is not on the timeline. Edits nothing: to caption the speech, call add_captions with the same elementId or assetId. Secondary to load_asset_context for understanding content."),
        types: Types::of::<host::transcribe_video::Arguments, host::transcribe_video::Returns>(),
        kind: Kind::Host,
        // Like load_asset_context: reads the project, may upload the media, returns speech (untrusted text).
        annotations: Annotations { open_world: true, ..LISTING },
        errors: list!(&["assetId is required", "Give assetId or elementId, not both", "Asset not found", "Element not found", "Unsupported asset type", "provider must be one of: local, gemini", "Asset is still processing", "Failed to transcribe", "Cancelled by the user", "<key> must be a non-empty string"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "detect_silences",
        title: text!("Detect silences"),
        summary: text!("Find silences[ in {elementId}][ in {assetId}]"),
        description: text!("Find the pauses in a video or audio asset's sound, measured from its decoded audio (every channel's loudness in 10 ms windows, at or below thresholdDb for at least minDuration seconds). Give assetId for source seconds, or elementId for timeline seconds (the part the element plays, through its trim and speed). Edits nothing: to remove the pauses, pass them to cut_ranges."),
        types: Types::of::<host::detect_silences::Arguments, host::detect_silences::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&["assetId or elementId is required", "Give assetId or elementId, not both", "Asset not found", "Element not found", "Unsupported asset type", "<key> must be a non-empty string", "minDuration must be a number of seconds > 0", "thresholdDb must be a number from -120 to 0", "Failed to decode audio", "Cancelled by the user"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "detect_scenes",
        title: text!("Detect scene cuts"),
        summary: text!("Find scene cuts[ in {elementId}][ in {assetId}]"),
        description: text!("Find the hard cuts in a video asset, measured from its decoded frames: a cut is a frame that differs from the one before by at least threshold and far more than the frames before it did, so fades, pans and motion inside a shot are not cuts. Give assetId for source seconds, or elementId for timeline seconds (the part the element plays, through its trim and speed). Each cut is the time of the new shot's first frame. Edits nothing: to cut there, call split."),
        types: Types::of::<host::detect_scenes::Arguments, host::detect_scenes::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&["assetId or elementId is required", "Give assetId or elementId, not both", "Asset not found", "Element not found", "Unsupported asset type", "<key> must be a non-empty string", "threshold must be a number above 0, at most 1", "Failed to decode video", "Cancelled by the user"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "review_clip",
        title: text!("Review a clip of the timeline"),
        summary: text!("Review {start:time} to {end:time} as a clip"),
        description: text!("Render a span of the timeline (at most 30 s) as a small video with its sound and upload it to Gemini (asking the user first, as any upload), so you can watch the motion and hear the mix of what you edited. The clip is attached to your next turn. Read-only. Use render_preview for a still or a contact sheet; this for timing, motion and sound."),
        types: Types::of::<host::review_clip::Arguments, host::review_clip::Returns>(),
        kind: Kind::Host,
        // Sends the user's media (rendered) to Gemini, like load_asset_context.
        annotations: Annotations { open_world: true, ..READ },
        errors: list!(&["start must be a number of seconds >= 0", "end must be after start, at most 30 s later", "width must be a whole number from 160 to 640", "Nothing to review: the span is past the timeline's end", "The user declined the upload", "Failed to review the clip", "Cancelled by the user"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "render_preview",
        title: text!("Render a preview frame"),
        summary: text!("Preview[ the frame at {time:time}][ {times:n frame} as a contact sheet]"),
        description: text!("Render the picture at a time (timeline seconds) and return it as a PNG image, with a short JSON description of what was drawn (layers bottom first, anything that could not be drawn). With times (up to 16) instead, return one contact sheet: the frames in a grid, each labelled with its timecode, and where each sits on the sheet. Read-only. Use it after an edit to check the result (a sheet to see a whole sequence at once); undo if it looks wrong."),
        types: Types::of::<host::render_preview::Arguments, host::render_preview::Returns>(),
        kind: Kind::Host,
        // A picture of the user's media and text.
        annotations: LISTING,
        errors: list!(&["time must be a number of seconds >= 0", "Give time or times, not both", "times must be 1 to 16 numbers of seconds >= 0", "width must be a whole number from 16 to 1920", "no Chromium at <path> (set NEURALCUT_CHROMIUM ...)", "render_preview failed: <why>"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "export_video",
        title: text!("Export the timeline to a video file"),
        summary: text!("Export to {path}"),
        description: text!("Render the timeline to a video file at an absolute path: mp4 (H.264; AAC or Opus audio) or webm (VP9, AV1 or VP8; Opus), at the project's size and frame rate, with the timeline's sound mixed in (volumes, trims, speed, muted tracks and clips). format defaults to the file's extension; start and end (seconds) export part of the timeline. With wait true the call answers when the file is written (send a progressToken to get progress notifications; cancelling the request deletes the partial file); without wait it answers {job, path} at once: follow it with jobs_list, stop it with jobs_cancel. The file appears at path only when complete."),
        types: Types::of::<host::export_video::Arguments, host::export_video::Returns>(),
        kind: Kind::Host,
        annotations: Annotations { idempotent: true, ..HISTORY },
        errors: list!(&["path must be an absolute file path", "Path must be absolute: <path>", "Folder not found: <folder>", "format must be \"mp4\" or \"webm\", got <format>", "Cannot tell the format from <path>: name it .mp4 or .webm, or give format", "<start|end> must be a number of seconds, 0 or more", "end (<end>) must be after start (<start>)", "width must be a whole number of pixels from 16 to 7680", "wait must be a boolean", "Job <job> is already exporting to <path>", "<why the export failed>", "The export was cancelled"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "jobs_list",
        title: text!("List export jobs"),
        summary: text!("List export jobs"),
        description: text!("The session's export jobs, oldest first: state (running, done, failed, cancelled), frames done of the total, and the result or error once finished. Reads only."),
        types: Types::of::<host::jobs_list::Arguments, host::jobs_list::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&[]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "jobs_cancel",
        title: text!("Cancel an export job"),
        summary: text!("Cancel export {job}"),
        description: text!("Stop a running export job; its partial file is deleted. Answers when it has stopped."),
        types: Types::of::<host::jobs_cancel::Arguments, host::jobs_cancel::Returns>(),
        kind: Kind::Host,
        annotations: Annotations { idempotent: true, ..HISTORY },
        errors: list!(&["job must be a job id from jobs_list", "Job not found: <job>", "Job <job> is not running (<state>)"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "submit_plan",
        title: text!("Submit a plan"),
        summary: text!("Plan {steps:n step}"),
        description: text!("Before a larger or riskier change (several edits, deleting content), show the user your plan and wait: steps are short imperative sentences in order, summary one line. The answer says whether the user approved it (then carry it out), edited it (carry out the steps they returned) or rejected it (do not edit; read their feedback and answer them). Changes nothing itself."),
        types: Types::of::<host::submit_plan::Arguments, host::submit_plan::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&["steps must be a non-empty array of strings", "summary must be a string", "The user did not answer"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ask_user",
        title: text!("Ask the user"),
        summary: text!("Ask {question:q}"),
        description: text!("Ask the user one short question and wait for the answer, when the request is ambiguous and a wrong guess would waste their time (which clip, what wording, how long). Give options when there are a few obvious answers; the user may still type another. Changes nothing."),
        types: Types::of::<host::ask_user::Arguments, host::ask_user::Returns>(),
        kind: Kind::Host,
        // The answer is the user's own words; it reaches the model as a tool result.
        annotations: READ,
        errors: list!(&["question must be a non-empty string", "options must be an array of strings", "The user did not answer"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "list_skills",
        title: text!("List skills"),
        summary: text!("List skills"),
        description: text!("List the editing recipes (skills) available here, with a one-line description each: captions from a transcript, removing silences, cutting at scene changes, speed, vertical shorts, talking-head edits, b-roll, masks, text styling, the canvas background, shapes, and any the app adds. Load one with load_skill before a task it covers."),
        types: Types::of::<host::list_skills::Arguments, host::list_skills::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&[]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "load_skill",
        title: text!("Load a skill"),
        summary: text!("Load the {name:q} skill"),
        description: text!("Load one skill by name (from list_skills): a step-by-step recipe naming the tools and arguments to use. Follow it for the task it covers."),
        types: Types::of::<host::load_skill::Arguments, host::load_skill::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&["name must be a non-empty string", "Skill not found: <name> (available: <names>)"]),
        example: "",
        run: None,
    },
    // The bridge's tools (`neuralcut mcp --bridge`, docs/bridge.md): each is one control-channel
    // method answered by the page the user has open. Besides their own errors, each can fail with
    // the channel's: no page connected, the page did not answer, no UI adapter.
    ToolDef {
        name: "ui_inspect",
        title: text!("Inspect the editor's UI"),
        summary: text!("Look at the editor's state"),
        description: text!("The UI state of the page the user has open: playhead (seconds), selection (element ids), zoom (pixels per second), playing, visible panels. Reads only."),
        types: Types::of::<host::ui_inspect::Arguments, host::ui_inspect::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&[UI_NO_ADAPTER, NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ui_elements",
        title: text!("List on-screen elements"),
        summary: text!("List on-screen controls[ under {prefix:q}]"),
        description: text!("Every visible interactive element with its automation id, label, role and rectangle (page pixels); prefix keeps the ids that start with it (e.g. \"timeline.\"). Use the ids with ui_click and ui_drag. Reads only."),
        types: Types::of::<host::ui_elements::Arguments, host::ui_elements::Returns>(),
        kind: Kind::Host,
        annotations: LISTING,
        errors: list!(&["prefix must be a string", NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ui_click",
        title: text!("Click"),
        summary: text!("Click[ {id}]"),
        description: text!("Click an element by automation id, or a point {x, y}, as a user would: press, release, click (count 2: double click). Clicking a timeline element selects it."),
        types: Types::of::<host::ui_click::Arguments, host::ui_click::Returns>(),
        kind: Kind::Host,
        annotations: UI_ACTS,
        errors: list!(&["no element <id>", "element <id> is not visible", "no element at (<x>, <y>)", "the click target must be an automation id or {x, y}", "button must be left, middle or right", "count must be 1, 2 or 3", "modifiers must be a list of Ctrl, Shift, Alt, Cmd", NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ui_drag",
        title: text!("Drag"),
        summary: text!("Drag in the page"),
        description: text!("Press on from, move to to (or by dx, dy pixels) in steps, release: moves timeline elements, trims their edges (the .trim-start / .trim-end handles), drags the playhead. ui_inspect's zoom gives pixels per second."),
        types: Types::of::<host::ui_drag::Arguments, host::ui_drag::Returns>(),
        kind: Kind::Host,
        annotations: UI_ACTS,
        errors: list!(&["no element <id>", "element <id> is not visible", "<from|to> must be an automation id or {x, y}", "give either to or dx/dy", "give to (an automation id or {x, y}) or dx/dy in pixels", "steps must be a whole number from 1 to 100", "modifiers must be a list of Ctrl, Shift, Alt, Cmd", NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ui_key",
        title: text!("Press a key"),
        summary: text!("Press {key}"),
        description: text!("A key or shortcut sent to the focused element: \"Space\" (play/pause), \"S\" (split at the playhead), \"Delete\", \"Ctrl+Z\", \"Ctrl+Shift+Z\", \"Shift+Delete\"."),
        types: Types::of::<host::ui_key::Arguments, host::ui_key::Returns>(),
        kind: Kind::Host,
        annotations: UI_ACTS,
        errors: list!(&["key must be a key or shortcut such as \"Space\", \"S\", \"Ctrl+Z\", \"Shift+Delete\"", "unknown modifier \"<m>\" in \"<key>\": use Ctrl, Shift, Alt or Cmd", "unknown key \"<name>\" in \"<key>\": <the keys it knows>", NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ui_type",
        title: text!("Type text"),
        summary: text!("Type {text:q}"),
        description: text!("Type text into the focused field (or the field with automation id id)."),
        types: Types::of::<host::ui_type::Arguments, host::ui_type::Returns>(),
        kind: Kind::Host,
        annotations: UI_ACTS,
        errors: list!(&["text must be a string", "no element <id>", "element <id> is not visible", "no focused text field: click one first (or pass its id)", NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ui_screenshot",
        title: text!("Screenshot the page"),
        summary: text!("Screenshot[ of {panel}]"),
        description: text!("A PNG of the page as the user sees it, or of one panel (preview, timeline, tools, agent). Reads only."),
        types: Types::of::<host::ui_screenshot::Arguments, host::ui_screenshot::Returns>(),
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&["no panel <name>", "panel must be a panel name (ui.inspect lists them) or an automation id", NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "ui_control",
        title: text!("Call a control-channel method"),
        summary: text!("Run {method} in the page"),
        description: text!("Any control-channel method with its params, e.g. ui.set {playhead: 2}, engine.inspect, engine.undo (docs/bridge.md lists them)."),
        types: Types::of::<host::ui_control::Arguments, host::ui_control::Returns>(),
        kind: Kind::Host,
        annotations: UI_ACTS,
        errors: list!(&["method must be a control-channel method name, e.g. ui.set", "params must be a JSON object", "unknown method <method>: <the methods>", "<the method's own errors>", NO_PAGE, PAGE_TIMEOUT]),
        example: "",
        run: None,
    },
];

/// A click, drag, key or typing may run any command of the page, an edit included.
const UI_ACTS: Annotations = HISTORY;
/// The control channel's own failures, which every ui_* tool can return (js/bridge/relay.ts).
const NO_PAGE: &str = "no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)";
const PAGE_TIMEOUT: &str = "the page did not answer <method> within <n> s";
const UI_NO_ADAPTER: &str = "<method>: this page has no UI adapter (connectBridge({ui}))";

pub fn find(name: &str) -> Option<&'static ToolDef> {
    TOOLS.iter().copied().find(|t| t.name == name)
}

pub fn names() -> Vec<&'static str> {
    TOOLS.iter().map(|t| t.name).collect()
}

/// The whole catalog as a JSON array, built once.
pub fn catalog() -> &'static Value {
    static CATALOG: OnceLock<Value> = OnceLock::new();
    CATALOG.get_or_init(|| Value::Array(TOOLS.iter().map(|t| t.info()).collect()))
}
