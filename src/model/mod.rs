//! The project: settings, the media library (assets, stickers) and one active timeline, with its
//! versioned JSON form.

pub mod fields;
mod read;
mod timeline;
mod validate;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::time::{seconds_to_ticks, FrameRate};
pub use timeline::{Element, ElementKinds, ElementType, Retime, Timeline, Track, TrackType};
pub use validate::{next_free_id, ProjectError};

/// The `format` tag of a saved project.
pub const PROJECT_FORMAT: &str = "neuralcut-project";
/// The version of the saved form this build writes and reads.
pub const PROJECT_VERSION: u32 = 1;
/// The loudest linear volume an element may have: +20 dB, OpenCut's upper bound. The tools set
/// 0 to 1; louder values come from the host (an OpenCut boost) and are kept as they are.
pub const MAX_VOLUME: f64 = 10.0;

/// The canvas size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "ProjectCanvas")]
pub struct Canvas {
    pub width: u32,
    pub height: u32,
}

/// The project's frame rate and canvas, and any other settings the host stores (kept as they are).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "ProjectSettings")]
pub struct Settings {
    #[serde(default)]
    pub fps: FrameRate,
    #[serde(default = "default_canvas")]
    pub canvas: Canvas,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn default_canvas() -> Canvas {
    Canvas { width: 1920, height: 1080 }
}

/// What the canvas shows under every layer: OpenCut's `settings.background`, which NeuralCut's
/// project keeps in the same shape (`{type: "color", color}` or `{type: "blur", blurIntensity}`).
#[derive(Clone, Debug, PartialEq)]
pub enum Background {
    /// A CSS colour; "transparent" draws nothing.
    Color(String),
    /// The main track's picture, blurred, behind everything (OpenCut's blur intensity).
    Blur(f64),
}

impl Background {
    /// OpenCut's colour when a project has none (project-manager.ts).
    pub const DEFAULT_COLOR: &'static str = "#000000";
    /// OpenCut's blur intensity when a blur background has none (background/blur.ts).
    pub const DEFAULT_BLUR: f64 = 10.0;
}

impl Settings {
    /// The canvas background as OpenCut reads it: a blur, else a colour, else black.
    pub fn background(&self) -> Background {
        let bg = self.extra.get("background");
        let field = |k: &str| bg.and_then(|b| b.get(k));
        match field("type").and_then(Value::as_str) {
            Some("blur") => Background::Blur(field("blurIntensity").and_then(Value::as_f64).unwrap_or(Background::DEFAULT_BLUR)),
            Some("color") => Background::Color(field("color").and_then(Value::as_str).unwrap_or(Background::DEFAULT_COLOR).to_string()),
            _ => Background::Color(Background::DEFAULT_COLOR.into()),
        }
    }

    /// Stores `b` as OpenCut's `settings.background`.
    pub fn set_background(&mut self, b: &Background) {
        let v = match b {
            Background::Color(c) => serde_json::json!({ "type": "color", "color": c }),
            Background::Blur(i) => serde_json::json!({ "type": "blur", "blurIntensity": crate::effects::number(*i) }),
        };
        self.extra.insert("background".into(), v);
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings { fps: FrameRate::DEFAULT, canvas: default_canvas(), extra: Map::new() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AssetType {
    Video,
    Audio,
    Image,
}

impl AssetType {
    pub fn as_str(self) -> &'static str {
        match self {
            AssetType::Video => "video",
            AssetType::Audio => "audio",
            AssetType::Image => "image",
        }
    }

    pub fn parse(s: &str) -> Option<AssetType> {
        [AssetType::Video, AssetType::Audio, AssetType::Image].into_iter().find(|t| t.as_str() == s)
    }

    pub fn element_type(self) -> ElementType {
        match self {
            AssetType::Video => ElementType::Video,
            AssetType::Audio => ElementType::Audio,
            AssetType::Image => ElementType::Image,
        }
    }
}

/// A media file known to the project (its bytes stay with the host), as the project stores it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "AssetJson")]
pub struct Asset {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: AssetType,
    /// Seconds (video and audio).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fps: Option<FrameRate>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Asset {
    /// Source duration in ticks, when known.
    pub fn duration_ticks(&self) -> Option<i64> {
        self.duration.and_then(seconds_to_ticks).filter(|t| *t > 0)
    }
}

/// An entry of the sticker catalog (`provider:value` ids such as `flags:us`).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "StickerJson")]
pub struct Sticker {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A saved project, as `editor.project()` returns it and `createEditor({ project })` takes it
/// (times in ticks). `timeline` is null for a project with no active scene.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ProjectJson")]
pub struct Project {
    #[schemars(extend("const" = PROJECT_FORMAT))]
    pub format: String,
    pub version: u32,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub assets: Vec<Asset>,
    #[serde(default)]
    pub stickers: Vec<Sticker>,
    /// The active timeline: tracks top first, elements by start, times in ticks (read it through
    /// the tools, e.g. list_timeline).
    // `default` changes nothing for an `Option`; it marks the field optional in the schema.
    #[serde(default)]
    #[schemars(with = "TimelineJson")]
    pub timeline: Option<Timeline>,
    /// The next number the id allocator hands out. Outside undo history, so ids are never reused.
    #[serde(default)]
    pub next_id: u64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for Project {
    fn default() -> Self {
        Project::new()
    }
}

impl Project {
    /// An empty project: default settings and a timeline with its one main track.
    pub fn new() -> Project {
        let mut p = Project {
            format: PROJECT_FORMAT.to_string(),
            version: PROJECT_VERSION,
            settings: Settings::default(),
            assets: Vec::new(),
            stickers: Vec::new(),
            timeline: None,
            next_id: 1,
            extra: Map::new(),
        };
        let main = p.new_id('t');
        p.timeline = Some(Timeline::with_main(main));
        p
    }

    /// Parses and validates a saved project.
    pub fn from_json(json: &str) -> Result<Project, ProjectError> {
        let value: Value = serde_json::from_str(json).map_err(|e| ProjectError::syntax(e.to_string()))?;
        Project::from_value(value)
    }

    pub fn from_value(value: Value) -> Result<Project, ProjectError> {
        validate::check_header(&value)?;
        let mut project = read::project(value).map_err(|e| ProjectError::shape(e.to_string()))?;
        validate::check_project(&mut project)?;
        project.next_id = project.next_id.max(validate::next_free_id(&project));
        Ok(project)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a project always serialises")
    }

    /// Hands out a fresh id: a one-letter kind prefix and a project-wide counter.
    pub fn new_id(&mut self, prefix: char) -> String {
        let mut ids = IdGen { next: self.next_id };
        let id = ids.next(prefix);
        self.next_id = ids.next;
        id
    }

    pub fn asset(&self, id: &str) -> Option<&Asset> {
        self.assets.iter().find(|a| a.id == id)
    }

    pub fn sticker(&self, id: &str) -> Option<&Sticker> {
        self.stickers.iter().find(|s| s.id == id)
    }
}

/// The schema of a project's `timeline`: an object, or null without an active scene.
pub struct TimelineJson;

impl JsonSchema for TimelineJson {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TimelineJson".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["object", "null"], "x-nullable": true })
    }
}

/// The id counter: ids are a one-letter kind prefix (`e`, `t`, `a`) and a number that only grows.
#[derive(Clone, Copy, Debug)]
pub struct IdGen {
    pub next: u64,
}

impl IdGen {
    pub fn next(&mut self, prefix: char) -> String {
        let id = format!("{prefix}{}", self.next);
        self.next += 1;
        id
    }
}
