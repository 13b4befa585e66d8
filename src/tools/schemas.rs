//! JSON Schemas (2020-12) of every tool's input and output. Inputs are closed
//! (`additionalProperties: false`); outputs describe what the tools return.

use serde_json::{json, Value};

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

fn object(properties: Value, required: &[&str]) -> Value {
    json!({
        "$schema": DIALECT,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// An output object: open, since fields may be added beside the documented ones.
fn result(properties: Value, required: &[&str]) -> Value {
    json!({ "$schema": DIALECT, "type": "object", "properties": properties, "required": required })
}

fn seconds(what: &str) -> Value {
    json!({ "type": "number", "minimum": 0, "description": format!("{what}, in timeline seconds") })
}

fn id(what: &str) -> Value {
    json!({ "type": "string", "minLength": 1, "description": what })
}

fn ids(what: &str) -> Value {
    json!({ "type": "array", "items": { "type": "string", "minLength": 1 }, "minItems": 1, "description": what })
}

fn choice(values: &[&str], what: &str) -> Value {
    json!({ "type": "string", "enum": values, "description": what })
}

fn params() -> Value {
    json!({
        "type": "object",
        "additionalProperties": { "type": ["number", "string", "boolean"] },
        "description": "Effect parameters by key (see get_effect)",
    })
}

fn placed() -> Value {
    result(json!({ "elementId": { "type": "string" }, "trackId": { "type": "string" } }), &["elementId", "trackId"])
}

fn success(extra: Value, required: &[&str]) -> Value {
    let mut props = json!({ "success": { "type": "boolean" } });
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        props[k] = v;
    }
    let mut req = vec!["success"];
    req.extend_from_slice(required);
    result(props, &req)
}

pub fn input(tool: &str) -> Value {
    match tool {
        "list_project_assets" => object(
            json!({
                "filter": choice(&["all", "used", "unused"], "Which assets by timeline usage (default all)"),
                "type": choice(&["all", "video", "audio", "image"], "Which asset type (default all)"),
            }),
            &[],
        ),
        "list_timeline" | "undo" | "redo" => object(json!({}), &[]),
        "load_asset_context" => object(json!({ "assetId": id("Asset id from list_project_assets") }), &["assetId"]),
        "split" => object(
            json!({ "times": { "type": "array", "items": { "type": "number", "minimum": 0 }, "minItems": 1, "description": "Timeline seconds to cut at" } }),
            &["times"],
        ),
        "delete_timeline_elements" => object(json!({ "elementIds": ids("Element ids from list_timeline") }), &["elementIds"]),
        "move_timeline_elements" => object(
            json!({
                "elementIds": ids("Element ids from list_timeline"),
                "start": seconds("New start of the earliest element"),
                "targetTrackId": id("Track to move them all to (default: each stays on its track)"),
            }),
            &["elementIds", "start"],
        ),
        "add_text" => object(
            json!({
                "text": { "type": "string", "minLength": 1, "description": "The text to show" },
                "start": seconds("When it appears"),
                "end": seconds("When it disappears"),
                "position": choice(&["top", "center", "bottom"], "Where in the frame"),
                "style": choice(&["plain", "subtitle", "hook", "label"], "Style preset (default plain)"),
            }),
            &["text", "start", "end", "position"],
        ),
        "update_text" => object(
            json!({
                "trackId": id("Track id from list_timeline"),
                "elementId": id("Text element id from list_timeline"),
                "text": { "type": "string", "minLength": 1, "description": "New text" },
                "start": seconds("New start"),
                "end": seconds("New end"),
                "position": choice(&["top", "center", "bottom"], "New position"),
            }),
            &["trackId", "elementId"],
        ),
        "add_media_to_timeline" => object(
            json!({
                "assetId": id("Asset id from list_project_assets"),
                "startTime": seconds("Where it starts"),
                "trackType": choice(&["main", "overlay", "audio"], "main or overlay for video and image, audio for audio"),
                "duration": { "type": "number", "exclusiveMinimum": 0, "description": "Length in seconds (default: the full source, or 5 s for images)" },
            }),
            &["assetId", "startTime", "trackType"],
        ),
        "update_timeline_element_timing" => object(
            json!({
                "elementId": id("Element id from list_timeline"),
                "start": seconds("New start (moves the element)"),
                "end": seconds("New end (resizes it)"),
                "duration": { "type": "number", "exclusiveMinimum": 0, "description": "New length in seconds (resizes it)" },
            }),
            &["elementId"],
        ),
        "delete_element" => object(
            json!({ "trackId": id("Track id from list_timeline"), "elementId": id("Element id from list_timeline") }),
            &["trackId", "elementId"],
        ),
        "set_volume" => object(
            json!({
                "trackId": id("Track id from list_timeline"),
                "elementId": id("Video or audio element id"),
                "volume": { "type": "number", "minimum": 0, "maximum": 1, "description": "0 is silent, 1 is full volume" },
            }),
            &["trackId", "elementId", "volume"],
        ),
        "add_sticker" => object(
            json!({
                "stickerId": id("Sticker id from list_stickers, such as flags:US"),
                "start": seconds("When it appears"),
                "end": seconds("When it disappears"),
                "position": choice(&["top-left", "top-right", "center", "bottom-left", "bottom-right"], "Where in the frame"),
            }),
            &["stickerId", "start", "end", "position"],
        ),
        "list_stickers" => object(
            json!({
                "query": { "type": "string", "description": "Filter by name, id, country code or region (default: all)" },
                "limit": { "type": "integer", "minimum": 1, "maximum": 500, "description": "Most stickers to return (default 50)" },
            }),
            &[],
        ),
        "list_effects" => object(json!({ "query": { "type": "string", "description": "Filter by name or keyword" } }), &[]),
        "get_effect" => object(json!({ "effectType": id("Effect id from list_effects") }), &["effectType"]),
        "apply_effect" => object(
            json!({
                "effectType": id("Effect id from list_effects"),
                "start": seconds("Effect start"),
                "end": seconds("Effect end"),
                "params": params(),
            }),
            &["effectType", "start", "end"],
        ),
        "update_effect" => object(
            json!({ "elementId": id("Effect element id from list_timeline"), "params": params() }),
            &["elementId", "params"],
        ),
        "get_element" | "list_animatable_properties" => object(json!({ "elementId": id("Element id or ref (clip-1) from list_timeline") }), &["elementId"]),
        "list_keyframes" => object(
            json!({
                "elementId": id("Element id or ref from list_timeline"),
                "property": { "type": "string", "description": "Only this property (default: every animated one)" },
            }),
            &["elementId"],
        ),
        "update_clip" => object(
            json!({
                "elementIds": ids("Element ids or refs from list_timeline"),
                "position": {
                    "description": "An anchor name, {anchor, margin} (margin in pixels from the canvas edges; default 5% of the shorter side), or {x, y} in canvas pixels from the centre (+y down)",
                    "oneOf": [
                        { "type": "string", "enum": crate::tools::element_tools::ANCHORS },
                        { "type": "object", "properties": { "anchor": { "type": "string", "enum": crate::tools::element_tools::ANCHORS }, "margin": { "type": "number", "minimum": 0 } }, "required": ["anchor"], "additionalProperties": false },
                        { "type": "object", "properties": { "x": { "type": "number", "minimum": -100000 }, "y": { "type": "number", "minimum": -100000 } }, "additionalProperties": false, "minProperties": 1 },
                    ],
                },
                "scale": {
                    "description": "Factor over the size fitted to the canvas: one number for both axes, or {x, y}",
                    "oneOf": [
                        { "type": "number", "minimum": 0.01 },
                        { "type": "object", "properties": { "x": { "type": "number", "minimum": 0.01 }, "y": { "type": "number", "minimum": 0.01 } }, "additionalProperties": false, "minProperties": 1 },
                    ],
                },
                "rotation": { "type": "number", "minimum": -360, "maximum": 360, "description": "Degrees, clockwise" },
                "opacity": { "type": "number", "minimum": 0, "maximum": 1, "description": "0 invisible, 1 opaque" },
                "blendMode": choice(&crate::tools::element_tools::BLEND_MODES, "How it mixes with what is below"),
                "volume": { "type": "number", "minimum": -60, "maximum": 20, "description": "Decibels; 0 plays as recorded, -60 is silent" },
                "muted": { "type": "boolean", "description": "Silence a video or audio element" },
                "hidden": { "type": "boolean", "description": "Stop drawing a visual element" },
            }),
            &["elementIds"],
        ),
        "duplicate_elements" => object(
            json!({
                "elementIds": ids("Element ids or refs from list_timeline"),
                "offset": { "type": "number", "description": "Seconds added to each copy's start (default: right after the originals)" },
                "startTime": seconds("Where the earliest copy starts"),
                "trackId": id("Put every copy on this track"),
            }),
            &["elementIds"],
        ),
        "update_track" => object(
            json!({
                "trackId": id("Track id from list_timeline"),
                "muted": { "type": "boolean", "description": "Silence the track (main, overlay, audio)" },
                "hidden": { "type": "boolean", "description": "Stop drawing the track (not audio)" },
                "name": { "type": "string", "minLength": 1, "maxLength": 100, "description": "New name" },
            }),
            &["trackId"],
        ),
        "move_track" => object(
            json!({
                "trackId": id("Track id from list_timeline"),
                "index": { "type": "integer", "minimum": 0, "description": "New position in list_timeline's track order (0 is in front)" },
                "above": id("Put it just above this track"),
                "below": id("Put it just below this track"),
            }),
            &["trackId"],
        ),
        "upsert_keyframe" => object(
            json!({
                "elementId": id("Element id or ref from list_timeline"),
                "property": { "type": "string", "minLength": 1, "description": "Property path from list_animatable_properties, such as opacity or transform.positionX" },
                "time": { "type": "number", "minimum": 0, "description": "Seconds from the element's start (0 to its duration)" },
                "value": { "type": ["number", "string"], "description": "The value there, in the property's unit; colours as #rrggbb" },
                "interpolation": choice(&crate::tools::keyframe_tools::INTERPOLATIONS, "How the value moves to the next keyframe (default linear)"),
            }),
            &["elementId", "property", "time", "value"],
        ),
        "remove_keyframe" => object(
            json!({
                "elementId": id("Element id or ref from list_timeline"),
                "property": { "type": "string", "minLength": 1, "description": "Property path" },
                "keyframeId": id("Keyframe id from list_keyframes"),
                "time": { "type": "number", "minimum": 0, "description": "Or the keyframe's time, seconds from the element's start" },
            }),
            &["elementId", "property"],
        ),
        "update_keyframe_curve" => {
            let handle = |what: &str| json!({ "type": "object", "properties": { "dt": { "type": "number", "description": "Seconds" }, "dv": { "type": "number", "description": "Value change" } }, "required": ["dt", "dv"], "additionalProperties": false, "description": what });
            object(
                json!({
                    "elementId": id("Element id or ref from list_timeline"),
                    "property": { "type": "string", "minLength": 1, "description": "Property path" },
                    "keyframeId": id("Keyframe id from list_keyframes"),
                    "time": { "type": "number", "minimum": 0, "description": "Or the keyframe's time, seconds from the element's start" },
                    "interpolation": choice(&crate::tools::keyframe_tools::INTERPOLATIONS, "How the value moves to the next keyframe"),
                    "easing": choice(&crate::tools::keyframe_tools::EASINGS, "A ready-made curve to the next keyframe"),
                    "rightHandle": handle("Bezier handle towards the next keyframe (dt 0 to the gap)"),
                    "leftHandle": handle("Bezier handle from the previous keyframe (dt minus the gap to 0)"),
                }),
                &["elementId", "property"],
            )
        }
        "batch" => object(
            json!({
                "steps": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "properties": {
                            "tool": { "type": "string", "description": "Tool name" },
                            "args": { "type": "object", "description": "That tool's arguments" },
                        },
                        "required": ["tool"],
                        "additionalProperties": false,
                    },
                    "description": "Tool calls to run in order",
                },
            }),
            &["steps"],
        ),
        // Host tools (registry::HOST_TOOLS): answered by the JS side, declared here like the rest.
        "media_import" => object(
            json!({ "paths": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Absolute paths of the files to import" } }),
            &["paths"],
        ),
        "transcribe_video" => object(
            json!({
                "assetId": id("Video or audio asset id from list_project_assets; optional when the timeline uses exactly one"),
                "language": id("Spoken language as a BCP 47 tag (e.g. en, es-AR); detected when omitted"),
                "modelId": id("Transcription model: a Gemini model the proxy allows, or the local transcriber's model"),
            }),
            &[],
        ),
        "export_video" => object(
            json!({
                "path": { "type": "string", "description": "Absolute path of the file to write (.mp4 or .webm); an existing file is replaced" },
                "format": { "type": "string", "enum": ["mp4", "webm"], "description": "Default: from the path's extension" },
                "start": { "type": "number", "minimum": 0, "description": "Seconds; default 0" },
                "end": { "type": "number", "minimum": 0, "description": "Seconds; default the end of the timeline" },
                "width": { "type": "integer", "minimum": 16, "maximum": 7680, "description": "Output width in pixels (default the project's); the height keeps the aspect" },
                "wait": { "type": "boolean", "description": "Answer when the file is written (default false: answer with the job at once)" },
            }),
            &["path"],
        ),
        "submit_plan" => object(
            json!({
                "steps": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "The steps, in order: short imperative sentences" },
                "summary": { "type": "string", "description": "The plan in one line" },
            }),
            &["steps"],
        ),
        "ask_user" => object(
            json!({
                "question": { "type": "string", "minLength": 1, "description": "One short question" },
                "options": { "type": "array", "items": { "type": "string" }, "description": "Likely answers to pick from; the user may type another" },
            }),
            &["question"],
        ),
        "list_skills" => object(json!({}), &[]),
        "load_skill" => object(json!({ "name": { "type": "string", "minLength": 1, "description": "A skill name from list_skills" } }), &["name"]),
        "jobs_list" => object(json!({}), &[]),
        "jobs_cancel" => object(json!({ "job": { "type": "string", "description": "The job id from export_video or jobs_list" } }), &["job"]),
        // The bridge's ui_* tools (js/bridge/mcp.ts): page pixels are CSS pixels of the viewport.
        "ui_inspect" => object(json!({}), &[]),
        "ui_elements" => object(json!({ "prefix": { "type": "string", "description": "Keep ids starting with this" } }), &[]),
        "ui_click" => object(
            json!({
                "id": { "type": "string", "description": "Automation id from ui_elements" },
                "x": { "type": "number" },
                "y": { "type": "number" },
                "button": { "type": "string", "enum": ["left", "middle", "right"] },
                "count": { "type": "integer", "minimum": 1, "maximum": 3 },
                "modifiers": ui_modifiers(),
            }),
            &[],
        ),
        "ui_drag" => object(
            json!({
                "from": ui_where(),
                "to": ui_where(),
                "dx": { "type": "number", "description": "Pixels right (instead of to)" },
                "dy": { "type": "number", "description": "Pixels down (instead of to)" },
                "steps": { "type": "integer", "minimum": 1, "maximum": 100 },
                "modifiers": ui_modifiers(),
            }),
            &["from"],
        ),
        "ui_key" => object(json!({ "key": { "type": "string" } }), &["key"]),
        "ui_type" => object(json!({ "text": { "type": "string" }, "id": { "type": "string", "description": "Focus this field first" } }), &["text"]),
        "ui_screenshot" => object(json!({ "panel": { "type": "string", "description": "A panel name from ui_inspect, or an automation id" } }), &[]),
        "ui_control" => object(json!({ "method": { "type": "string" }, "params": { "type": "object" } }), &["method"]),
        "render_preview" => object(
            json!({
                "time": { "type": "number", "minimum": 0, "description": "Timeline time in seconds" },
                "width": { "type": "integer", "minimum": 16, "maximum": 1920, "description": "Image width in pixels (default 960; height keeps the project's aspect)" },
            }),
            &["time"],
        ),
        _ => Value::Null,
    }
}

pub fn output(tool: &str) -> Value {
    let num = json!({ "type": "number" });
    let string = json!({ "type": "string" });
    match tool {
        "list_project_assets" => result(
            json!({ "assets": { "type": "array", "items": {
                "type": "object",
                "properties": {
                    "id": string, "name": string,
                    "type": { "enum": ["video", "audio", "image"] },
                    "duration": num, "usedInTimeline": { "type": "boolean" },
                },
                "required": ["id", "name", "type", "usedInTimeline"],
            } } }),
            &["assets"],
        ),
        "list_timeline" => {
            let text_style = json!({
                "type": "object",
                "description": "The text's look; absent fields are the host's defaults",
                "properties": {
                    "fontSize": { "type": "number", "description": "Pixels at the project canvas" },
                    "fontFamily": string, "color": string, "fontWeight": string, "fontStyle": string,
                    "textAlign": string, "textDecoration": string,
                    "background": { "type": "string", "description": "Box colour behind the text; absent when none" },
                },
            });
            result(
            json!({
                "tracks": { "type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "trackId": string,
                        "type": { "enum": ["main", "overlay", "audio", "text", "effect"] },
                        "name": string,
                        "hidden": { "const": true, "description": "The host does not draw this track" },
                        "muted": { "const": true, "description": "The host plays this track silent" },
                        "elements": { "type": "array", "items": {
                            "type": "object",
                            "properties": {
                                "elementId": string,
                                "ref": { "type": "string", "description": "Short stable name (clip-1, text-3, sticker-2, effect-1) that every tool takes in place of the elementId" },
                                "type": string, "assetId": string, "name": string,
                                "start": num, "end": num, "duration": num,
                                "trimStart": { "type": "number", "description": "Source seconds skipped at the head; absent when 0" },
                                "rate": { "type": "number", "description": "Playback speed of a retimed video or audio clip (source seconds per timeline second); absent when 1" },
                                "volume": { "type": "number", "description": "Linear gain, 1 is unchanged; absent when 1. Above 1 is a host boost (up to 10, +20 dB)" },
                                "hidden": { "const": true, "description": "Not drawn; absent when shown" },
                                "muted": { "const": true, "description": "Silent; absent when audible" },
                                "text": string, "position": string, "stickerId": string, "effectType": string,
                                "textStyle": text_style,
                                "params": { "type": "object" },
                            },
                            "required": ["elementId", "type", "start", "end", "duration"],
                        } },
                    },
                    "required": ["trackId", "type", "elements"],
                } },
                "duration": { "type": "number", "description": "End of the last element, seconds" },
            }),
            &["tracks", "duration"],
        )
        }
        "load_asset_context" => result(
            json!({
                "assetId": string,
                "status": { "enum": ["loaded", "processing"] },
                "cached": { "type": "boolean" },
                "provider": { "const": "gemini" },
                "fileUri": string,
                "summary": string,
            }),
            &["assetId", "status", "cached", "provider"],
        ),
        "split" => success(
            json!({
                "affectedElements": { "type": "array", "items": string },
                "newElements": { "type": "array", "items": {
                    "type": "object",
                    "properties": { "elementId": string, "splitFrom": string, "trackId": string, "start": num, "end": num },
                    "required": ["elementId", "splitFrom", "trackId", "start", "end"],
                } },
            }),
            &["affectedElements"],
        ),
        "delete_timeline_elements" => success(json!({ "deletedElements": { "type": "array", "items": string } }), &["deletedElements"]),
        "move_timeline_elements" => success(
            json!({ "movedElements": { "type": "array", "items": {
                "type": "object",
                "properties": { "elementId": string, "trackId": string, "start": num, "end": num },
                "required": ["elementId", "trackId", "start", "end"],
            } } }),
            &["movedElements"],
        ),
        "add_text" | "add_media_to_timeline" | "add_sticker" => placed(),
        "update_text" => success(json!({ "elementId": string }), &["elementId"]),
        "update_timeline_element_timing" => success(
            json!({ "elementId": string, "trackId": string, "start": num, "end": num, "duration": num }),
            &["elementId", "trackId", "start", "end", "duration"],
        ),
        "delete_element" => success(json!({}), &[]),
        "set_volume" => success(json!({ "volume": num }), &["volume"]),
        "list_stickers" => result(
            json!({
                "stickers": { "type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "The stickerId add_sticker takes" },
                        "name": string,
                        "provider": { "type": "string", "description": "flags or shapes (OpenCut's), or the catalog id's prefix" },
                    },
                    "required": ["id", "name", "provider"],
                } },
                "total": { "type": "integer", "description": "Every match, before limit" },
            }),
            &["stickers", "total"],
        ),
        "list_effects" => result(
            json!({ "effects": { "type": "array", "items": {
                "type": "object",
                "properties": { "id": string, "name": string, "description": string },
                "required": ["id", "name", "description"],
            } } }),
            &["effects"],
        ),
        "get_effect" => result(
            json!({
                "id": string, "name": string, "description": string,
                "params": { "type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "key": string, "label": string,
                        "type": { "enum": ["number", "boolean", "color", "select"] },
                        "default": { "type": ["number", "string", "boolean"] },
                        "min": num, "max": num, "step": num,
                        "options": { "type": "array", "items": { "type": "object", "properties": { "value": string, "label": string } } },
                        "description": string,
                    },
                    "required": ["key", "label", "type", "default", "description"],
                } },
            }),
            &["id", "name", "description", "params"],
        ),
        "apply_effect" => result(
            json!({ "elementId": string, "trackId": string, "appliedParams": { "type": "object" } }),
            &["elementId", "trackId", "appliedParams"],
        ),
        "update_effect" => success(json!({ "elementId": string, "appliedParams": { "type": "object" } }), &["elementId", "appliedParams"]),
        "undo" => success(json!({ "undone": string, "canUndo": { "type": "boolean" }, "canRedo": { "type": "boolean" } }), &["undone"]),
        "redo" => success(json!({ "redone": string, "canUndo": { "type": "boolean" }, "canRedo": { "type": "boolean" } }), &["redone"]),
        "get_element" => result(
            json!({
                "elementId": string, "ref": string, "trackId": string, "type": string, "name": string,
                "start": num, "end": num, "duration": num,
                "source": { "type": "object", "description": "Video and audio: the source seconds played (start, end), trims and rate" },
                "properties": { "type": "object", "description": "Property path → {value, unit}" },
                "text": string, "textStyle": { "type": "object" }, "params": { "type": "object" },
                "keyframes": { "type": "array", "items": { "type": "object" } },
            }),
            &["elementId", "ref", "trackId", "type", "start", "end", "duration", "keyframes"],
        ),
        "update_clip" => success(
            json!({
                "elements": { "type": "array", "items": { "type": "object", "properties": { "elementId": string }, "required": ["elementId"] } },
                "warnings": { "type": "array", "items": string },
            }),
            &["elements"],
        ),
        "duplicate_elements" => success(
            json!({ "elements": { "type": "array", "items": {
                "type": "object",
                "properties": { "elementId": string, "sourceId": string, "trackId": string, "start": num, "end": num },
                "required": ["elementId", "sourceId", "trackId", "start", "end"],
            } } }),
            &["elements"],
        ),
        "update_track" => success(
            json!({ "trackId": string, "type": string, "name": string, "hidden": { "type": "boolean" }, "muted": { "type": "boolean" } }),
            &["trackId", "type"],
        ),
        "move_track" => success(json!({ "trackId": string, "index": num, "tracks": { "type": "array", "items": string } }), &["trackId", "index", "tracks"]),
        "list_animatable_properties" => result(
            json!({ "elementId": string, "type": string, "properties": { "type": "array", "items": {
                "type": "object",
                "properties": { "property": string, "type": string, "unit": string, "value": {}, "animated": { "type": "boolean" }, "min": num, "max": num, "description": string },
                "required": ["property", "type", "unit", "value", "animated"],
            } } }),
            &["elementId", "type", "properties"],
        ),
        "list_keyframes" => result(
            json!({ "elementId": string, "duration": num, "properties": { "type": "array", "items": { "type": "object" } } }),
            &["elementId", "duration", "properties"],
        ),
        "upsert_keyframe" => success(json!({ "elementId": string, "property": string, "keyframe": { "type": "object" }, "keyframes": { "type": "array" } }), &["elementId", "property", "keyframe", "keyframes"]),
        "remove_keyframe" => success(json!({ "elementId": string, "property": string, "removedTime": num, "keyframes": { "type": "array" } }), &["elementId", "property", "removedTime", "keyframes"]),
        "update_keyframe_curve" => success(json!({ "elementId": string, "property": string, "keyframes": { "type": "array" } }), &["elementId", "property", "keyframes"]),
        "batch" => success(
            json!({ "results": { "type": "array", "items": {
                "type": "object",
                "properties": { "tool": string, "result": { "type": "object" } },
                "required": ["tool", "result"],
            } } }),
            &["results"],
        ),
        "media_import" => result(
            json!({ "assets": { "type": "array", "items": {
                "type": "object",
                "properties": {
                    "id": string, "name": string,
                    "type": { "type": "string", "enum": ["video", "audio", "image"] },
                    "format": string, "path": string, "duration": num,
                    "width": { "type": "integer" }, "height": { "type": "integer" },
                    "fps": {
                        "type": "object",
                        "properties": { "numerator": { "type": "integer" }, "denominator": { "type": "integer" } },
                        "required": ["numerator", "denominator"],
                    },
                },
                "required": ["id", "name", "type", "format", "path"],
            } } }),
            &["assets"],
        ),
        "transcribe_video" => result(
            json!({
                "assetId": string,
                "provider": { "enum": ["gemini", "local"] },
                "timeBase": { "enum": ["timeline", "source"], "description": "timeline: seconds on the timeline, per placement; source: seconds into the asset (it is not on the timeline)" },
                "language": string,
                "segments": { "type": "array", "items": {
                    "type": "object",
                    "properties": { "start": num, "end": num, "text": string, "elementId": string },
                    "required": ["start", "end", "text"],
                } },
            }),
            &["assetId", "provider", "timeBase", "segments"],
        ),
        "export_video" => {
            let mut job = export_job();
            job["required"] = json!(["job", "path", "format", "state"]);
            job
        }
        "submit_plan" => result(
            json!({
                "decision": { "enum": ["approve", "reject", "edit"] },
                "steps": { "type": "array", "items": { "type": "string" }, "description": "The steps to carry out (the user's edit, when edited)" },
                "feedback": { "type": "string", "description": "What the user said about the plan" },
            }),
            &["decision"],
        ),
        "ask_user" => result(json!({ "answer": { "type": "string", "description": "The user's answer, in their words" } }), &["answer"]),
        "list_skills" => result(
            json!({ "skills": { "type": "array", "items": {
                "type": "object",
                "properties": { "name": string, "description": string },
                "required": ["name", "description"],
            } } }),
            &["skills"],
        ),
        "load_skill" => result(json!({ "name": string, "description": string, "body": { "type": "string", "description": "The recipe, in markdown" } }), &["name", "body"]),
        "jobs_list" => result(json!({ "jobs": { "type": "array", "items": export_job() } }), &["jobs"]),
        "jobs_cancel" => export_job(),
        // The host's UI state: the demo's fields below; another host's adapter may add or leave out some.
        "ui_inspect" => result(
            json!({
                "playhead": { "type": "number", "description": "Seconds" },
                "selection": { "type": "array", "items": string, "description": "Selected element ids" },
                "zoom": { "type": "number", "description": "Timeline pixels per second" },
                "playing": { "type": "boolean" },
                "panels": { "type": "array", "items": string, "description": "Visible panels, for ui_screenshot" },
            }),
            &[],
        ),
        "ui_elements" => result(
            json!({ "elements": { "type": "array", "items": {
                "type": "object",
                "properties": {
                    "id": { "type": "string", "description": "Automation id" },
                    "label": string, "role": string,
                    "rect": { "type": "object", "description": "Page pixels", "properties": { "x": num, "y": num, "width": num, "height": num }, "required": ["x", "y", "width", "height"] },
                    "selected": { "const": true }, "disabled": { "const": true },
                },
                "required": ["id", "label", "role", "rect"],
            } } }),
            &["elements"],
        ),
        "ui_click" => result(json!({ "clicked": { "type": "string", "description": "The automation id (or tag) clicked" }, "x": num, "y": num }), &["clicked", "x", "y"]),
        "ui_drag" => result(
            json!({
                "from": { "type": "object", "description": "Where the press was: x, y and the automation id under it", "properties": { "x": num, "y": num, "id": { "type": ["string", "null"] } }, "required": ["x", "y"] },
                "to": { "type": "object", "description": "Where the release was", "properties": { "x": num, "y": num }, "required": ["x", "y"] },
            }),
            &["from", "to"],
        ),
        "ui_key" => result(
            json!({ "key": string, "handled": { "type": "boolean", "description": "Whether the page acted on it" }, "target": { "type": "string", "description": "The automation id (or tag) of the focused element" } }),
            &["key", "handled", "target"],
        ),
        "ui_type" => result(json!({ "typed": { "type": "integer", "description": "Characters typed" }, "into": { "type": ["string", "null"] }, "value": { "type": "string", "description": "The field's value after" } }), &["typed"]),
        "ui_control" => result(json!({}), &[]),
        "ui_screenshot" => result(json!({ "width": { "type": "integer" }, "height": { "type": "integer" } }), &["width", "height"]),
        "render_preview" => result(
            json!({
                "time": num,
                "width": { "type": "integer" },
                "height": { "type": "integer" },
                "canvas": { "type": "object", "properties": { "width": { "type": "integer" }, "height": { "type": "integer" } } },
                "layers": { "type": "array", "items": {
                    "type": "object",
                    "properties": { "elementId": string, "kind": string },
                    "required": ["elementId", "kind"],
                } },
                "notDrawn": { "type": "array", "items": {
                    "type": "object",
                    "properties": { "elementId": string, "reason": string },
                } },
            }),
            &["time", "width", "height", "layers"],
        ),
        _ => Value::Null,
    }
}

/// Where a drag starts or ends: an automation id, or a point in page pixels.
fn ui_where() -> Value {
    json!({
        "type": ["string", "object"],
        "description": "An automation id from ui_elements, or {x, y} in page pixels",
        "properties": { "x": { "type": "number" }, "y": { "type": "number" } },
        "required": ["x", "y"],
        "additionalProperties": false,
    })
}

fn ui_modifiers() -> Value {
    json!({ "type": "array", "items": { "type": "string", "enum": ["Ctrl", "Shift", "Alt", "Cmd"] }, "description": "Keys held down" })
}

/// An export job as export_video, jobs_list and jobs_cancel report it.
fn export_job() -> Value {
    result(
        json!({
            "job": { "type": "string" },
            "path": { "type": "string" },
            "format": { "type": "string", "enum": ["mp4", "webm"] },
            "state": { "type": "string", "enum": ["running", "done", "failed", "cancelled"] },
            "framesDone": { "type": "integer" },
            "totalFrames": { "type": "integer" },
            "progress": { "type": "number", "description": "0 to 1" },
            "error": { "type": "string" },
            "result": { "type": "object", "description": "When done: codecs, width, height, fps, frames, duration, bytes, missing" },
        }),
        &["job", "path", "format", "state", "framesDone", "totalFrames", "progress"],
    )
}
