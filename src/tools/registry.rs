//! The tool registry: every tool's name, title, LLM-facing description, JSON Schemas, MCP
//! annotations, documented errors and an example call. MCP, WebMCP, Gemini function calling,
//! the TypeScript typings and docs/tools.md are all generated from this one table.

use std::sync::OnceLock;

use serde_json::{json, Value};

use super::{arrange, create, cut, effect_tools, element_tools, inspect, keyframe_tools, schemas, track_tools, ToolFn};

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

const READ: Annotations = Annotations { read_only: true, destructive: false, idempotent: true, open_world: false, untrusted_content: false };
const LISTING: Annotations = Annotations { untrusted_content: true, ..READ };
const ADD: Annotations = Annotations { read_only: false, destructive: false, idempotent: false, open_world: false, untrusted_content: false };
const CHANGE: Annotations = Annotations { read_only: false, destructive: true, idempotent: true, open_world: false, untrusted_content: false };
const HISTORY: Annotations = Annotations { read_only: false, destructive: true, idempotent: false, open_world: false, untrusted_content: false };
/// batch returns its steps' outputs, listings included.
const BATCH: Annotations = Annotations { untrusted_content: true, ..HISTORY };

/// Titles, descriptions, examples and error lists reach agents through the generated catalog
/// (js/generated/tools.ts) and docs; the wasm only dispatches by name, so they are left out of it
/// (18 KB raw, about 6 KB gzipped, measured in docs/package.md).
macro_rules! text {
    ($s:expr) => {
        if cfg!(target_arch = "wasm32") { "" } else { $s }
    };
}
macro_rules! list {
    ($s:expr) => {
        if cfg!(target_arch = "wasm32") { &[] } else { $s }
    };
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
    /// The accepted argument names (the input schema's properties).
    pub args: &'static [&'static str],
    pub kind: Kind,
    pub annotations: Annotations,
    /// The error messages this tool can return (spec strings; `<x>` marks a filled-in part).
    pub errors: &'static [&'static str],
    /// An example call's arguments, run against the demo fixture to document the output.
    pub example: &'static str,
    pub run: Option<ToolFn>,
}

impl ToolDef {
    pub fn input_schema(&self) -> Value {
        schemas::input(self.name)
    }

    pub fn output_schema(&self) -> Value {
        schemas::output(self.name)
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

const NOT_FOUND_IDS: &str = "Timeline elements not found: <ids>";
const ARG_ERRORS: &str = "unknown argument \"<name>\" for <tool>; expected: <names>";

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
pub static TOOLS: &[ToolDef] = &[
    ToolDef {
        name: "list_project_assets",
        title: text!("List project assets"),
        summary: text!("List project assets[ ({type})]"),
        description: text!("List the media assets (video, audio, image) loaded in the project, with their stable ids, durations in seconds and whether the timeline uses them. Call this first when you need an assetId. Filter by usage (all, used, unused) and by type. Reads only."),
        args: &["filter", "type"],
        kind: Kind::Read,
        annotations: LISTING,
        errors: list!(&["No active project"]),
        example: text!(r#"{"filter":"unused","type":"all"}"#),
        run: Some(inspect::list_project_assets),
    },
    ToolDef {
        name: "list_timeline",
        title: text!("List timeline"),
        summary: text!("List the timeline"),
        description: text!("Summarise the timeline: every track (trackId, type: main, overlay, text, effect or audio; listed from the top of the picture down, audio last) and its elements (elementId; ref, a short stable name such as clip-1, text-3, sticker-2 or effect-1 that every tool accepts in place of the elementId; type, assetId, name, start, end and duration in timeline seconds, plus text content and textStyle, effect params or sticker id; video and audio show trimStart, the source seconds skipped, when not 0, rate, the playback speed of a retimed clip, when not 1, volume when not 1 (above 1 is a host boost) and muted when silent; hidden tracks and elements say hidden, muted tracks muted). Call this before editing whenever you do not have exact ids. Reads only."),
        args: &[],
        kind: Kind::Read,
        annotations: LISTING,
        errors: list!(&["No active timeline"]),
        example: text!("{}"),
        run: Some(inspect::list_timeline),
    },
    ToolDef {
        name: "load_asset_context",
        title: text!("Load asset into context"),
        summary: text!("Watch asset {assetId}"),
        description: text!("Make a project asset (video first; audio and image too) available to the multimodal model by uploading it to Gemini once; later calls reuse the cached file. Returns status loaded, or processing if the file is not ready yet (call again later). Does not edit the timeline. assetId comes from list_project_assets; an unambiguous file name also works."),
        args: &["assetId"],
        kind: Kind::Context,
        annotations: Annotations { read_only: true, destructive: false, idempotent: true, open_world: true, untrusted_content: true },
        errors: list!(&["Asset not found", "Unsupported asset type", "Failed to load asset context"]),
        example: text!(r#"{"assetId":"a1"}"#),
        run: None,
    },
    ToolDef {
        name: "split",
        title: text!("Split at times"),
        summary: text!("Split at {times:time}"),
        description: text!("Cut every element of every track at each given timeline time (seconds) that falls strictly inside it; deletes nothing. The left part keeps its elementId, each right part gets a new one (listed in newElements with the element it was split from). Times on an existing boundary make no cut, so repeating a split is harmless. To remove a range, split at its start and end, then delete_timeline_elements the pieces inside."),
        args: &["times"],
        kind: Kind::Edit,
        annotations: Annotations { read_only: false, destructive: false, idempotent: true, open_world: false, untrusted_content: false },
        errors: list!(&["Invalid split times", "No timeline content"]),
        example: text!(r#"{"times":[2.5]}"#),
        run: Some(cut::split),
    },
    ToolDef {
        name: "delete_timeline_elements",
        title: text!("Delete timeline elements"),
        summary: text!("Delete {elementIds:n element}"),
        description: text!("Delete the given elements (elementIds from list_timeline) and nothing else; other elements do not move. All ids must exist or nothing is deleted. To delete a time range, split at its edges first."),
        args: &["elementIds"],
        kind: Kind::Edit,
        annotations: Annotations { read_only: false, destructive: true, idempotent: true, open_world: false, untrusted_content: false },
        errors: list!(&["Invalid element ids", NOT_FOUND_IDS, "No timeline content"]),
        example: text!(r#"{"elementIds":["e5"]}"#),
        run: Some(cut::delete_timeline_elements),
    },
    ToolDef {
        name: "move_timeline_elements",
        title: text!("Move timeline elements"),
        summary: text!("Move {elementIds:n element} to {start:time}[ on track {targetTrackId}]"),
        description: text!("Move elements so the earliest one starts at start (timeline seconds); the others keep their offsets relative to it. With targetTrackId (from list_timeline) they all move to that track, which must accept them (video and image: main or overlay; stickers: overlay; text: text; effects: effect; audio: audio). Fails without changing anything if an element is missing or the destination overlaps another element."),
        args: &["elementIds", "start", "targetTrackId"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid element ids", "Invalid start time", NOT_FOUND_IDS, "Target track not found: <id>", "Target track <id> is <a type> track and cannot hold <type> elements", "Element <id> on track <id> is in the way (<start>s to <end>s)", "No timeline content"]),
        example: text!(r#"{"elementIds":["e6"],"start":12}"#),
        run: Some(arrange::move_timeline_elements),
    },
    ToolDef {
        name: "add_text",
        title: text!("Add text"),
        summary: text!("Add text {text:q} at {start:time}"),
        description: text!("Add a text element (title, hook, label or one subtitle line) from start to end (timeline seconds) at the top, center or bottom of the frame, with an optional style preset (plain, subtitle, hook, label). It goes on the first text track free at that time; a new text track is created when none is. For subtitles, call it once per line."),
        args: &["text", "start", "end", "position", "style"],
        kind: Kind::Edit,
        annotations: ADD,
        errors: list!(&["Text is required", "Invalid time range"]),
        example: text!(r#"{"text":"Day one","start":0,"end":2,"position":"top","style":"hook"}"#),
        run: Some(create::add_text),
    },
    ToolDef {
        name: "update_text",
        title: text!("Update text"),
        summary: text!("Edit text {elementId}[ to {text:q}]"),
        description: text!("Change a text element found by trackId and elementId (from list_timeline). Only the fields given change: text, start or end (timeline seconds; each moves that edge only), position."),
        args: &["trackId", "elementId", "text", "start", "end", "position"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Text element not found", "Element is not text", "Invalid time range", "Text is required", "Element <id> on track <id> is in the way (<start>s to <end>s)"]),
        example: text!(r#"{"trackId":"t3","elementId":"e7","text":"Day two"}"#),
        run: Some(create::update_text),
    },
    ToolDef {
        name: "add_media_to_timeline",
        title: text!("Add media to timeline"),
        summary: text!("Add {assetId} to the {trackType} track at {startTime:time}"),
        description: text!("Place a project asset (assetId from list_project_assets) at startTime (timeline seconds) on a track of trackType: main or overlay for video and image, audio for audio. Video and audio use their full source duration unless duration (seconds) is given, which may not exceed it; images last 5 s by default. Overlay and audio go on the first free track of that type (a new one if needed); the one main track must be free at that time."),
        args: &["assetId", "startTime", "trackType", "duration"],
        kind: Kind::Edit,
        annotations: ADD,
        errors: list!(&["Asset not found", "Invalid track type for asset", "Invalid duration", "Duration exceeds source duration", "Invalid start time", "Element <id> on track <id> is in the way (<start>s to <end>s)"]),
        example: text!(r#"{"assetId":"a2","startTime":10,"trackType":"overlay","duration":3}"#),
        run: Some(create::add_media_to_timeline),
    },
    ToolDef {
        name: "update_timeline_element_timing",
        title: text!("Update element timing"),
        summary: text!("Retime {elementId}[ from {start:time}][ to {end:time}][ for {duration:time}]"),
        description: text!("Change when an element (elementId from list_timeline) starts, ends or how long it lasts, in timeline seconds. start alone moves it; end or duration resizes it from its end; end and duration together must agree. Video and audio cannot last longer than their source allows. The asset itself never changes."),
        args: &["elementId", "start", "end", "duration"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid element id", "Invalid timing update", "Invalid start time", "Invalid end time", "Invalid duration", "Invalid time range", "Conflicting timing values", "Timeline element not found: <id>", "Duration exceeds source duration", "Element <id> on track <id> is in the way (<start>s to <end>s)"]),
        example: text!(r#"{"elementId":"e6","duration":3}"#),
        run: Some(arrange::update_timeline_element_timing),
    },
    ToolDef {
        name: "delete_element",
        title: text!("Delete element (deprecated)"),
        summary: text!("Delete element {elementId}"),
        description: text!("Deprecated: prefer delete_timeline_elements. Deletes one element found by trackId and elementId."),
        args: &["trackId", "elementId"],
        kind: Kind::Edit,
        annotations: Annotations { read_only: false, destructive: true, idempotent: true, open_world: false, untrusted_content: false },
        errors: list!(&["Element not found"]),
        example: text!(r#"{"trackId":"t1","elementId":"e5"}"#),
        run: Some(cut::delete_element),
    },
    ToolDef {
        name: "set_volume",
        title: text!("Set volume"),
        summary: text!("Set the volume of {elementId} to {volume}"),
        description: text!("Set the volume of a video or audio element (trackId and elementId from list_timeline) from 0 (silent) to 1 (full)."),
        args: &["trackId", "elementId", "volume"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Volume must be between 0 and 1", "Element does not support volume", "Element not found"]),
        example: text!(r#"{"trackId":"t2","elementId":"e8","volume":0.5}"#),
        run: Some(create::set_volume),
    },
    ToolDef {
        name: "list_stickers",
        title: text!("List stickers"),
        summary: text!("Find stickers[ for {query:q}]"),
        description: text!("Find sticker ids for add_sticker: the host's catalog, then OpenCut's stickers (flags such as flags:US, by country name, code or region; shapes such as shapes:star). query filters case-insensitively; limit (default 50, at most 500) caps the list, total counts every match. Reads only."),
        args: &["query", "limit"],
        kind: Kind::Read,
        annotations: READ,
        errors: list!(&["No active project", "Argument \"limit\" must be a whole number from 1 to 500"]),
        example: text!(r#"{"query":"france"}"#),
        run: Some(inspect::list_stickers),
    },
    ToolDef {
        name: "add_sticker",
        title: text!("Add sticker"),
        summary: text!("Add sticker {stickerId} at {start:time}"),
        description: text!("Add a sticker (stickerId from list_stickers, provider:value such as flags:US or shapes:star; flag codes in any case) from start to end (timeline seconds) at a corner or the center of the frame. It goes on the first overlay track free at that time, or a new overlay track on top."),
        args: &["stickerId", "start", "end", "position"],
        kind: Kind::Edit,
        annotations: ADD,
        errors: list!(&["Sticker not found", "Invalid time range"]),
        example: text!(r#"{"stickerId":"emoji:star","start":1,"end":3,"position":"top-right"}"#),
        run: Some(create::add_sticker),
    },
    ToolDef {
        name: "list_effects",
        title: text!("List effects"),
        summary: text!("List effects[ for {query:q}]"),
        description: text!("List the available visual effects (id, name, description). Optional query filters by name or keyword, case-insensitively. First step of list_effects, get_effect, apply_effect. Reads only."),
        args: &["query"],
        kind: Kind::Read,
        annotations: READ,
        errors: list!(&[]),
        example: text!(r#"{"query":"vintage"}"#),
        run: Some(inspect::list_effects),
    },
    ToolDef {
        name: "get_effect",
        title: text!("Get effect"),
        summary: text!("Look up effect {effectType}"),
        description: text!("Describe one effect (effectType from list_effects): each parameter's key, type, default, min, max, step and a readable description. Call before apply_effect to choose params. Reads only."),
        args: &["effectType"],
        kind: Kind::Read,
        annotations: READ,
        errors: list!(&["Invalid effect type", "Effect not found: <type>"]),
        example: text!(r#"{"effectType":"blur"}"#),
        run: Some(inspect::get_effect),
    },
    ToolDef {
        name: "apply_effect",
        title: text!("Apply effect"),
        summary: text!("Apply {effectType} from {start:time} to {end:time}"),
        description: text!("Add an effect from start to end (timeline seconds) on an effect track; it changes the picture of every track below it. params override the defaults (see get_effect) and are checked against their ranges; the applied values are returned. Change them later with update_effect."),
        args: &["effectType", "start", "end", "params"],
        kind: Kind::Edit,
        annotations: ADD,
        errors: list!(&["Invalid effect type", "Effect not found: <type>", "Invalid start time", "Invalid end time", "Invalid time range", "Invalid effect parameters", "Unknown parameter: <key>", "Parameter '<key>' must be >= <min>", "Parameter '<key>' must be <= <max>", "No active timeline", "Failed to place effect element"]),
        example: text!(r#"{"effectType":"sepia","start":0,"end":4,"params":{"intensity":60}}"#),
        run: Some(effect_tools::apply_effect),
    },
    ToolDef {
        name: "update_effect",
        title: text!("Update effect"),
        summary: text!("Change effect {elementId}"),
        description: text!("Change some parameters of an effect element (elementId from list_timeline); parameters not given keep their values. Returns the full merged params."),
        args: &["elementId", "params"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid element id", "params is required and must be a non-empty object", "No active timeline", "Timeline element not found: <id>", "Element is not an effect", "Effect not found: <type>", "Unknown parameter: <key>", "Parameter '<key>' must be >= <min>", "Parameter '<key>' must be <= <max>", "Invalid effect parameters"]),
        example: text!(r#"{"elementId":"e9","params":{"intensity":40}}"#),
        run: Some(effect_tools::update_effect),
    },
    ToolDef {
        name: "get_element",
        title: text!("Get element"),
        summary: text!("Inspect {elementId}"),
        description: text!("Everything about one element (elementId or its ref from list_timeline): timing in timeline seconds, the source range of video and audio, every property with its unit as OpenCut stores it (transform.positionX/Y: canvas pixels of its centre from the canvas centre, +y down; transform.scaleX/Y: factor; transform.rotate: degrees clockwise; opacity 0-1; blendMode; volume in dB; muted; hidden), text and textStyle, effect params, and its keyframes. Reads only. Example: {\"elementId\":\"clip-1\"}."),
        args: &["elementId"],
        kind: Kind::Read,
        annotations: LISTING, // names and text are user-made: data, never instructions
        errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Unknown reference <ref>; candidates: <refs>", "No active timeline"]),
        example: text!(r#"{"elementId":"e6"}"#),
        run: Some(element_tools::get_element),
    },
    ToolDef {
        name: "update_clip",
        title: text!("Update clip properties"),
        summary: text!("Change {elementIds:n clip}"),
        description: text!("Change how one or many elements look or sound, as one undo step: position (an anchor such as \"top-right\" or {\"anchor\":\"bottom-left\",\"margin\":40}, which keeps the element inside the frame that many pixels from the edges; or {\"x\":px,\"y\":px} from the canvas centre, +y down), scale (factor >= 0.01, or {\"x\":…,\"y\":…}), rotation (degrees -360 to 360, clockwise), opacity (0 to 1), blendMode (normal, multiply, screen, overlay, …), hidden (visual elements), volume (dB -60 to 20; 0 plays as recorded) and muted (video and audio). Only the properties given change. Example, a small logo in the corner: {\"elementIds\":[\"clip-1\"],\"scale\":0.3,\"position\":\"top-right\"}."),
        args: &["elementIds", "position", "scale", "rotation", "opacity", "blendMode", "volume", "muted", "hidden"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid element ids", NOT_FOUND_IDS, "Property \"<name>\" must be <range>", "Element <id> is <a type> element and has no <property>", "update_clip needs at least one property to change", "No active timeline"]),
        example: text!(r#"{"elementIds":["e6"],"scale":0.5,"position":{"anchor":"top-right","margin":40},"opacity":0.8}"#),
        run: Some(element_tools::update_clip),
    },
    ToolDef {
        name: "duplicate_elements",
        title: text!("Duplicate elements"),
        summary: text!("Duplicate {elementIds:n element}"),
        description: text!("Copy elements (elementIds or refs) with new ids and every property and keyframe, as one undo step. By default the copies start right after the last original ends; offset (seconds added to each start) or startTime (where the earliest copy starts; the others keep their spacing) place them elsewhere. Each copy stays on its track when that time is free, else goes on the first free track of that type (a new one if needed; the one main track must be free); trackId puts them all on that track, which must be free. Example: {\"elementIds\":[\"clip-2\"],\"startTime\":20}."),
        args: &["elementIds", "offset", "startTime", "trackId"],
        kind: Kind::Edit,
        annotations: ADD,
        errors: list!(&["Invalid element ids", NOT_FOUND_IDS, "Invalid start time", "Give offset or startTime, not both", "Target track not found: <id>", "Target track <id> is <a type> track and cannot hold <type> elements", "Element <id> on track <id> is in the way (<start>s to <end>s)"]),
        example: text!(r#"{"elementIds":["e7"],"offset":3}"#),
        run: Some(track_tools::duplicate_elements),
    },
    ToolDef {
        name: "update_track",
        title: text!("Update track"),
        summary: text!("Change track {trackId}"),
        description: text!("Switch a track (trackId from list_timeline) on or off, or rename it: muted silences every element on it (main, overlay and audio tracks), hidden stops drawing it (every track but audio), name is shown in the host's timeline. Only the fields given change. Example, mute the music: {\"trackId\":\"t14\",\"muted\":true}."),
        args: &["trackId", "muted", "hidden", "name"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid track id", "Track not found: <id>", "update_track needs muted, hidden or name", "Track <id> is <a type> track, which cannot be muted (it makes no sound)", "Track <id> is an audio track, which cannot be hidden (mute it instead)"]),
        example: text!(r#"{"trackId":"t2","muted":true}"#),
        run: Some(track_tools::update_track),
    },
    ToolDef {
        name: "move_track",
        title: text!("Move track"),
        summary: text!("Move track {trackId}"),
        description: text!("Reorder tracks: a track higher in list_timeline is drawn in front. Give exactly one of index (its new position in list_timeline's track order), above or below (another trackId). Visual tracks stay above the main track and audio tracks below it; the main track does not move. Example, bring the text in front of everything: {\"trackId\":\"t10\",\"index\":0}."),
        args: &["trackId", "index", "above", "below"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid track id", "Track not found: <id>", "Give exactly one of index, above or below", "Track <id> can move to index <min> to <max> (<why>)", "Track <id> is the main track, which stays between the visual and the audio tracks", "A track cannot move above or below itself"]),
        example: text!(r#"{"trackId":"t3","above":"t4"}"#),
        run: Some(track_tools::move_track),
    },
    ToolDef {
        name: "list_animatable_properties",
        title: text!("List animatable properties"),
        summary: text!("List what {elementId} can animate"),
        description: text!("The properties of an element (elementId or ref) that keyframes can animate, as OpenCut names them (transform.positionX, transform.positionY, transform.scaleX, transform.scaleY, transform.rotate, opacity; volume for video and audio; color and background.* for text), each with its unit, range, current value and whether it is animated. Reads only. Example: {\"elementId\":\"text-1\"}."),
        args: &["elementId"],
        kind: Kind::Read,
        annotations: READ,
        errors: list!(&["Invalid element id", "Timeline element not found: <id>", "No active timeline"]),
        example: text!(r#"{"elementId":"e7"}"#),
        run: Some(keyframe_tools::list_animatable_properties),
    },
    ToolDef {
        name: "list_keyframes",
        title: text!("List keyframes"),
        summary: text!("List keyframes of {elementId}"),
        description: text!("The keyframes of an element (elementId or ref), by property (optional property limits the list): keyframeId, time in seconds from the element's start, value and interpolation to the next keyframe (linear, hold or bezier). Reads only. Example: {\"elementId\":\"clip-1\",\"property\":\"opacity\"}."),
        args: &["elementId", "property"],
        kind: Kind::Read,
        annotations: READ,
        errors: list!(&["Invalid element id", "Timeline element not found: <id>", "No active timeline"]),
        example: text!(r#"{"elementId":"e7"}"#),
        run: Some(keyframe_tools::list_keyframes),
    },
    ToolDef {
        name: "upsert_keyframe",
        title: text!("Add or change keyframe"),
        summary: text!("Set a {property} keyframe at {time:time}"),
        description: text!("Set a property's value at a time (seconds from the element's start, 0 to its duration); between keyframes the value moves smoothly (interpolation linear, the default; hold jumps at the next keyframe; bezier eases, see update_keyframe_curve). A keyframe already at that time takes the new value. A fade in over 0.5 s is two calls: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0,\"value\":0} then {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0.5,\"value\":1}. Colours take #rrggbb. Properties and ranges: list_animatable_properties."),
        args: &["elementId", "property", "time", "value", "interpolation"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Property \"<p>\" cannot be animated on <type> element; animatable: <list>", "Property \"<p>\" cannot be animated: <type> elements have no animatable properties", "Keyframe time must be from 0 to <duration> (seconds from the element's start)", "Property \"<p>\" must be <range>"]),
        example: text!(r#"{"elementId":"e7","property":"opacity","time":0,"value":0}"#),
        run: Some(keyframe_tools::upsert_keyframe),
    },
    ToolDef {
        name: "remove_keyframe",
        title: text!("Remove keyframe"),
        summary: text!("Remove a {property} keyframe[ at {time:time}]"),
        description: text!("Remove one keyframe of a property, named by keyframeId (from list_keyframes) or by its time (seconds from the element's start). A property left with no keyframes goes back to its plain value. Example: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0}."),
        args: &["elementId", "property", "keyframeId", "time"],
        kind: Kind::Edit,
        annotations: Annotations { read_only: false, destructive: true, idempotent: false, open_world: false, untrusted_content: false },
        errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Property \"<p>\" cannot be animated on <type> element; animatable: <list>", "Property \"<p>\" cannot be animated: <type> elements have no animatable properties", "Keyframe not found: <id>", "Give exactly one of keyframeId (from list_keyframes) or time (seconds from the element's start)"]),
        example: text!(r#"{"elementId":"e7","property":"opacity","time":0}"#),
        run: Some(keyframe_tools::remove_keyframe),
    },
    ToolDef {
        name: "update_keyframe_curve",
        title: text!("Update keyframe curve"),
        summary: text!("Change the {property} curve[ at {time:time}]"),
        description: text!("Shape how a property moves from one keyframe (keyframeId or time) to the next: easing ease-in, ease-out, ease-in-out or linear (the simple way); or interpolation (linear, hold, bezier) and bezier handles rightHandle (towards the next keyframe) and leftHandle (from the previous one), each {dt: seconds, dv: value change}. Example: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0,\"easing\":\"ease-out\"}."),
        args: &["elementId", "property", "keyframeId", "time", "interpolation", "easing", "rightHandle", "leftHandle"],
        kind: Kind::Edit,
        annotations: CHANGE,
        errors: list!(&["Invalid element id", "Timeline element not found: <id>", "Keyframe not found: <id>", "update_keyframe_curve needs interpolation, easing, rightHandle or leftHandle", "The keyframe at <t>s is the last of <property>: easing and rightHandle shape the curve to the next keyframe"]),
        example: text!(r#"{"elementId":"e7","property":"opacity","time":0,"easing":"ease-out"}"#),
        run: Some(keyframe_tools::update_keyframe_curve),
    },
    ToolDef {
        name: "undo",
        title: text!("Undo"),
        summary: text!("Undo"),
        description: text!("Undo the last successful editing call (a batch counts as one). Reports which tool was undone. Use it to correct a mistake, then call list_timeline to see the state."),
        args: &[],
        kind: Kind::Undo,
        annotations: HISTORY,
        errors: list!(&["Nothing to undo"]),
        example: text!("{}"),
        run: None,
    },
    ToolDef {
        name: "redo",
        title: text!("Redo"),
        summary: text!("Redo"),
        description: text!("Redo the last undone call. Reports which tool was redone. Any new edit after an undo clears what can be redone."),
        args: &[],
        kind: Kind::Redo,
        annotations: HISTORY,
        errors: list!(&["Nothing to redo"]),
        example: text!("{}"),
        run: None,
    },
    ToolDef {
        name: "batch",
        title: text!("Batch"),
        summary: text!("Run {steps:n step}"),
        description: text!("Run several tool calls in order as one all-or-nothing step: steps is a list of {tool, args}. Later steps see the results of earlier ones. If any step fails, nothing changes and the error names the failing step's index and tool. A successful batch is one undo step. undo, redo, batch and load_asset_context cannot be steps."),
        args: &["steps"],
        kind: Kind::Batch,
        annotations: BATCH,
        errors: list!(&["Invalid batch steps", "Tool <name> cannot run inside batch", "<the failing step's own error>"]),
        example: text!(r#"{"steps":[{"tool":"split","args":{"times":[4,6]}},{"tool":"list_timeline","args":{}}]}"#),
        run: None,
    },
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
        args: &["paths"],
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
        description: text!("Transcribe the speech of a video or audio asset into timed segments { start, end, text }. Times are timeline seconds for each placement of the asset (with its elementId), or source seconds when the asset is not on the timeline. Edits nothing: to caption, call add_text per segment. Secondary to load_asset_context for understanding content."),
        args: &["assetId", "language", "modelId"],
        kind: Kind::Host,
        // Like load_asset_context: reads the project, may upload the media, returns speech (untrusted text).
        annotations: Annotations { open_world: true, ..LISTING },
        errors: list!(&["assetId is required", "Asset not found", "Unsupported asset type", "Asset is still processing", "Failed to transcribe", "Cancelled by the user", "<key> must be a non-empty string"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "render_preview",
        title: text!("Render a preview frame"),
        summary: text!("Preview the frame at {time:time}"),
        description: text!("Render the picture at a time (timeline seconds) and return it as a PNG image, with a short JSON description of what was drawn (layers bottom first, anything that could not be drawn). Read-only. Use it after an edit to check the result; undo if it looks wrong."),
        args: &["time", "width"],
        kind: Kind::Host,
        annotations: READ,
        errors: list!(&["time must be a number of seconds >= 0", "width must be a whole number from 16 to 1920", "render_preview takes { time, width? }", "Unknown argument \"<key>\": render_preview takes time and width", "no Chromium at <path> (set NEURALCUT_CHROMIUM ...)", "render_preview failed: <why>"]),
        example: "",
        run: None,
    },
    ToolDef {
        name: "export_video",
        title: text!("Export the timeline to a video file"),
        summary: text!("Export to {path}"),
        description: text!("Render the timeline to a video file at an absolute path: mp4 (H.264; AAC or Opus audio) or webm (VP9, AV1 or VP8; Opus), at the project's size and frame rate, with the timeline's sound mixed in (volumes, trims, speed, muted tracks and clips). format defaults to the file's extension; start and end (seconds) export part of the timeline. With wait true the call answers when the file is written (send a progressToken to get progress notifications; cancelling the request deletes the partial file); without wait it answers {job, path} at once: follow it with jobs_list, stop it with jobs_cancel. The file appears at path only when complete."),
        args: &["path", "format", "start", "end", "width", "wait"],
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
        args: &[],
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
        args: &["job"],
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
        args: &["steps", "summary"],
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
        args: &["question", "options"],
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
        description: text!("List the editing recipes (skills) available here, with a one-line description each: captions from a transcript, removing silences, vertical shorts, talking-head edits, b-roll, and any the app adds. Load one with load_skill before a task it covers."),
        args: &[],
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
        args: &["name"],
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
        args: &[],
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
        args: &["prefix"],
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
        args: &["id", "x", "y", "button", "count", "modifiers"],
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
        args: &["from", "to", "dx", "dy", "steps", "modifiers"],
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
        args: &["key"],
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
        args: &["text", "id"],
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
        args: &["panel"],
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
        args: &["method", "params"],
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
    TOOLS.iter().find(|t| t.name == name)
}

pub fn names() -> Vec<&'static str> {
    TOOLS.iter().map(|t| t.name).collect()
}

/// The whole catalog as a JSON array, built once.
pub fn catalog() -> &'static Value {
    static CATALOG: OnceLock<Value> = OnceLock::new();
    CATALOG.get_or_init(|| Value::Array(TOOLS.iter().map(ToolDef::info).collect()))
}
