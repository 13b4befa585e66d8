//! OpenCut's timeline, read and written losslessly, so OpenCut can hand its active scene to the
//! engine and take the result back (see docs/opencut.md).
//!
//! # Mapping
//!
//! | OpenCut (`scene.tracks`) | NeuralCut track |
//! |---|---|
//! | `main` (video) | `main` |
//! | `overlay[i]` video / graphic | `overlay` (graphic remembered) |
//! | `overlay[i]` text / effect | `text` / `effect` |
//! | `audio[i]` | `audio` |
//!
//! NeuralCut's track list is OpenCut's rendering order: the overlay tracks (first is top), then
//! main, then the audio tracks; tracks are written back in the engine's order.
//!
//! OpenCut classic stores storage v31 (checked against opencut-classic cf5e79e): transform,
//! opacity, blend mode, volume (dB), muted and every text field live in each element's flat
//! `params`. Elements: `startTime`↔`start`, `mediaId`↔`assetId`, `duration`/`trimStart`/`trimEnd`
//! as they are (ticks on both sides), `stickerId`, `effectType`, an effect's `params`, `hidden` and
//! `retime` as they are. The params NeuralCut models ([`params`]: position, volume, muted, text
//! content and style) are read as OpenCut's renderers read them and rewritten only when a tool
//! changed them, so untouched keys come back byte for byte; the rest of `params` passes through.
//! Top-level copies left by OpenCut's v28→v29 migration are never read. A `graphic` element is
//! NeuralCut's graphic, its `definitionId` kept and its definition params in `params`
//! (crate::graphics); library audio (`sourceType: "library"`) is given an audio asset
//! `library:<url>`; extracted audio plays its video's asset.
//!
//! Every other field, known or not, waits in the element's (track's) `extra` map and is written
//! back unchanged; an element made by a split is a copy of its parent, so it carries them too.
//! Adapter bookkeeping (the element's own `params`, OpenCut fields whose names NeuralCut uses for
//! its own, the mark of an element read from OpenCut) lives under the `opencut` key of `extra`
//! and never reaches OpenCut. Elements the tools create have no such mark and are written as
//! OpenCut's builders make a new element of their type.

mod params;
mod read;
mod units;
mod write;

use crate::error_code::ErrorCode;
use std::fmt::Display;

use serde_json::Value;

use crate::editor::ApiError;
use crate::model::ProjectError;
use crate::tools::context::{ContextRequest, ContextStatus, ProviderReport};
use crate::Editor;

pub use read::read_scene;
pub use units::{db_to_linear, font_opencut, font_px, linear_to_db, FONT_SIZE_SCALE_REFERENCE};
pub use write::write_scene;

/// The `extra` key that holds the adapter's bookkeeping.
pub const STASH: &str = "opencut";
/// Id prefix of the assets that stand for OpenCut library audio.
pub const LIBRARY_ASSET_PREFIX: &str = "library:";
/// A refused scene: where in it and what is wrong.
fn scene_error(path: &str, what: impl Display) -> ProjectError {
    ProjectError { code: ErrorCode::InvalidScene, message: format!("Invalid OpenCut scene at {path}: {what}") }
}

// The adapter works on an editor from outside: the editor knows nothing of OpenCut.

/// Replaces the timeline and media library with an OpenCut scene `{ tracks, assets, settings? }`.
///
/// Not an undo step: like [`Editor::load`] it starts a fresh history (NeuralCut's earlier
/// steps belong to a timeline OpenCut may since have changed; OpenCut's own snapshot undo spans
/// loads). Every tool call after it is one step, as usual. The sticker catalog stays, and so
/// does the asset-context cache for assets the scene still has. Without `settings` the
/// current fps and canvas stay.
///
/// A scene that breaks NeuralCut's invariants is refused with an `INVALID_SCENE` error that
/// names the place (`tracks.main.elements[2] ("el-3"): overlaps element "el-2" …`), and the
/// editor is left exactly as it was.
pub fn load_scene(editor: &mut Editor, scene: &Value) -> Result<(), ProjectError> {
    let project = read_scene(scene, editor.project())?;
    // Provider uploads (load_asset_context) stay valid for the same media.
    let keep: Vec<_> = editor
        .context_cache()
        .values()
        .filter(|r| r.status != ContextStatus::Failed)
        .filter_map(|r| {
            let old = editor.project()?.asset(&r.asset_id)?;
            let new = project.asset(&r.asset_id)?;
            (old.kind == new.kind).then(|| (new.clone(), r.clone()))
        })
        .collect();
    editor.load(project);
    for (asset, record) in keep {
        let report =
            ProviderReport { file_uri: record.file_uri.clone(), status: record.status, expires_at: record.expires_at, summary: record.summary.clone() };
        let now = record.created_at;
        let request = ContextRequest { asset, previous: Some(record) };
        // Re-recording a usable record cannot fail; if it somehow did, the asset is simply
        // uploaded again when next asked for.
        let _ = editor.finish_context(&request, Ok(report), now);
    }
    Ok(())
}

/// Takes OpenCut's normalised copy of the timeline this editor wrote (OpenCut prunes emptied
/// overlay and audio tracks after every command, and ripples when its ripple toggle is on),
/// keeping the undo history: undo still steps back through NeuralCut's own edits. The host
/// decides that the scene is such a copy (`neuralcut/opencut` compares it with what it wrote);
/// anything else belongs in [`load_scene`]. Refused like a load, and then
/// nothing changed.
pub fn adopt_scene(editor: &mut Editor, scene: &Value) -> Result<(), ProjectError> {
    let project = read_scene(scene, editor.project())?;
    editor.adopt(project);
    Ok(())
}

/// The timeline as OpenCut's `{ tracks: { overlay, main, audio }, settings? }`, for OpenCut's
/// snapshot command; `settings` holds the `background` when the project has one (the one
/// setting a tool changes, update_project). Fails only when no timeline is loaded.
pub fn scene(editor: &Editor) -> Result<Value, ApiError> {
    let project = editor.project().ok_or_else(|| ApiError { code: ErrorCode::NoActiveProject, message: "No active project".into() })?;
    let tl = project.timeline.as_ref().ok_or_else(|| ApiError { code: ErrorCode::NoActiveTimeline, message: "No active timeline".into() })?;
    let mut scene = write_scene(project, tl);
    if let Some(bg) = project.settings.extra.get("background") {
        scene["settings"] = serde_json::json!({ "background": bg });
    }
    Ok(scene)
}
