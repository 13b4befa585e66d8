//! Checks a loaded project against the model's invariants, so every later edit starts from a
//! valid timeline. A project that fails is refused whole, with what and where.

use crate::error_code::ErrorCode;
use crate::text::Num;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::{ElementType, Project, TrackType, PROJECT_FORMAT, PROJECT_VERSION};

/// Why a project could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectError {
    /// InvalidJson, UnsupportedProject or InvalidProject.
    pub code: ErrorCode,
    pub message: String,
}

impl ProjectError {
    pub fn syntax(detail: String) -> ProjectError {
        ProjectError { code: ErrorCode::InvalidJson, message: format!("Project is not valid JSON: {detail}") }
    }
    pub fn shape(detail: String) -> ProjectError {
        ProjectError { code: ErrorCode::InvalidProject, message: format!("Invalid project: {detail}") }
    }
    fn at(path: String, what: String) -> ProjectError {
        ProjectError { code: ErrorCode::InvalidProject, message: format!("Invalid project at {path}: {what}") }
    }
}

impl fmt::Display for ProjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProjectError {}

impl crate::error_code::CodedError for ProjectError {
    fn code(&self) -> ErrorCode {
        self.code
    }
}

pub(super) fn check_header(value: &Value) -> Result<(), ProjectError> {
    let Some(obj) = value.as_object() else {
        return Err(ProjectError::shape("a project is a JSON object".into()));
    };
    if obj.get("format").and_then(Value::as_str) != Some(PROJECT_FORMAT) {
        return Err(ProjectError { code: ErrorCode::UnsupportedProject, message: format!("Not a NeuralCut project: \"format\" must be \"{PROJECT_FORMAT}\"") });
    }
    match obj.get("version").and_then(Value::as_u64) {
        Some(v) if v == PROJECT_VERSION as u64 => Ok(()),
        other => Err(ProjectError {
            code: ErrorCode::UnsupportedProject,
            message: format!(
                "Unsupported project version {}; this build reads version {PROJECT_VERSION}",
                other.map_or("(missing)".to_string(), |v| v.to_string())
            ),
        }),
    }
}

pub(super) fn check_project(project: &mut Project) -> Result<(), ProjectError> {
    if !project.settings.fps.is_valid() {
        return Err(ProjectError::at("settings.fps".into(), "numerator and denominator must be positive".into()));
    }
    let mut ids = HashSet::new();
    for (i, a) in project.assets.iter().enumerate() {
        if a.id.is_empty() || !ids.insert(a.id.clone()) {
            return Err(ProjectError::at(format!("assets[{i}]"), format!("duplicate or empty id \"{}\"", a.id)));
        }
        if a.duration.is_some_and(|d| !(d.is_finite() && d >= 0.0)) {
            return Err(ProjectError::at(format!("assets[{i}].duration"), "must be a non-negative number".into()));
        }
    }
    let mut sticker_ids = HashSet::new();
    for (i, s) in project.stickers.iter().enumerate() {
        if s.id.is_empty() || !sticker_ids.insert(s.id.as_str()) {
            return Err(ProjectError::at(format!("stickers[{i}]"), format!("duplicate or empty id \"{}\"", s.id)));
        }
    }
    let Some(timeline) = project.timeline.as_mut() else { return Ok(()) };
    let mains = timeline.tracks.iter().filter(|t| t.kind == TrackType::Main).count();
    if mains != 1 {
        return Err(ProjectError::at("timeline.tracks".into(), format!("needs exactly one main track, found {mains}")));
    }
    for ti in 0..timeline.tracks.len() {
        let path = format!("timeline.tracks[{ti}]");
        let track = Arc::make_mut(&mut timeline.tracks[ti]);
        if track.id.is_empty() || !ids.insert(track.id.clone()) {
            return Err(ProjectError::at(path, format!("duplicate or empty id \"{}\"", track.id)));
        }
        // Saved projects are sorted already; sorting here only tidies hand-written ones.
        crate::sort::stable_sort_by_key(&mut track.elements, |e| e.start);
        for (ei, e) in track.elements.iter().enumerate() {
            let path = format!("{path}.elements[{ei}] (\"{}\")", e.id);
            if e.id.is_empty() || !ids.insert(e.id.to_string()) {
                return Err(ProjectError::at(path, "duplicate or empty id".into()));
            }
            if !track.kind.accepts(e.kind) {
                return Err(ProjectError::at(
                    path,
                    format!("{} track cannot hold {} element", with_article(track.kind.as_str()), with_article(e.kind.as_str())),
                ));
            }
            if e.start < 0 || e.duration <= 0 || e.trim_start < 0 || e.trim_end < 0 {
                return Err(ProjectError::at(path, "start and trims must be >= 0 and duration > 0".into()));
            }
            if ei > 0 && track.elements[ei - 1].end() > e.start {
                return Err(ProjectError::at(path, format!("overlaps element \"{}\"", track.elements[ei - 1].id)));
            }
            check_element_fields(&project.assets, e).map_err(|what| ProjectError::at(path, what))?;
        }
    }
    Ok(())
}

/// "an overlay", "a main": the type name with its article.
fn with_article(word: &str) -> String {
    let article = if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {word}")
}

fn check_element_fields(assets: &[super::Asset], e: &super::Element) -> Result<(), String> {
    match e.kind {
        ElementType::Video | ElementType::Image | ElementType::Audio => {
            let id = e.asset_id.as_deref().ok_or("media element without assetId")?;
            let asset = assets.iter().find(|a| a.id == id).ok_or(format!("unknown asset \"{id}\""))?;
            // An audio element may play a video's sound (OpenCut's "Extract audio").
            let extracted = e.kind == ElementType::Audio && asset.kind == super::AssetType::Video;
            if asset.kind.element_type() != e.kind && !extracted {
                return Err(format!("asset \"{id}\" is {}, element is {}", asset.kind.as_str(), e.kind.as_str()));
            }
            if let (true, Some(source)) = (e.kind.is_timed_media(), asset.duration_ticks()) {
                if e.plays_past(source) {
                    return Err(format!("plays past the end of asset \"{id}\""));
                }
            }
        }
        ElementType::Text if e.content.is_none() => return Err("text element without content".into()),
        ElementType::Sticker if e.sticker_id.is_none() => return Err("sticker element without stickerId".into()),
        ElementType::Graphic if e.definition_id.is_none() => return Err("graphic element without definitionId".into()),
        ElementType::Effect if e.effect_type.is_none() => return Err("effect element without effectType".into()),
        _ => {}
    }
    if let Some(r) = &e.retime {
        if !e.kind.is_timed_media() {
            return Err(format!("a {} element cannot have a retime", e.kind.as_str()));
        }
        if !r.is_valid() {
            return Err(format!("retime.rate must be a number from {} to {}", Num(super::timeline::Retime::MIN_RATE), Num(super::timeline::Retime::MAX_RATE)));
        }
    }
    if e.volume.is_some_and(|v| !(0.0..=super::MAX_VOLUME).contains(&v)) {
        return Err(format!("volume must be between 0 and {}", Num(super::MAX_VOLUME)));
    }
    Ok(())
}

/// One more than the largest counter in any id this engine could have made (`t12`, `e40`, …).
pub fn next_free_id(project: &Project) -> u64 {
    let numbered = |id: &str| -> Option<u64> {
        let mut chars = id.chars();
        chars.next().filter(char::is_ascii_lowercase)?;
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        rest.parse().ok()
    };
    let mut max = 0;
    let mut see = |id: &str| max = max.max(numbered(id).unwrap_or(0));
    project.assets.iter().for_each(|a| see(&a.id));
    if let Some(t) = &project.timeline {
        for track in &t.tracks {
            see(&track.id);
            track.elements.iter().for_each(|e| see(&e.id));
        }
    }
    max.saturating_add(1)
}
