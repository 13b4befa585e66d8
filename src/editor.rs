//! The document an editor works on: one project, its undo history, the effect types the host
//! renders and a revision counter. Tool calls reach it through [`crate::Editor`] (the tools
//! layer), which runs a tool on a working copy and [`Document::commit`]s it as one history entry
//! only when the call succeeds.

use crate::error_code::ErrorCode;
use std::fmt;

use serde_json::Map;

use crate::effects::EffectSet;
use crate::history::History;
use crate::model::fields::Field;
use crate::model::{Asset, AssetType, ElementKinds, Project, Sticker};
use crate::time::FrameRate;

/// Misuse of the editor API itself (not a tool call): a bad asset or sticker description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ApiError {}

impl crate::error_code::CodedError for ApiError {
    fn code(&self) -> ErrorCode {
        self.code
    }
}

fn api_error(code: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::new(code, message)
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError { code, message: message.into() }
    }
}

// Written once here: the wasm boundary reads it and `npm run typings` generates its TypeScript.
/// What `addAsset` takes (the media bytes stay with the host).
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssetOptions {
    /// Your own id; one is generated when absent.
    pub id: Option<String>,
    pub name: String,
    #[serde(rename = "type")]
    #[schemars(extend("enum" = ["video", "audio", "image"]))]
    pub kind: String,
    /// Seconds; required in practice for video and audio.
    pub duration: Option<f64>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// `30`, or `{ numerator: 30000, denominator: 1001 }`.
    pub fps: Option<FpsOption>,
}

/// A frame rate: `30`, or `{ numerator: 30000, denominator: 1001 }`.
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
pub enum FpsOption {
    Whole(u32),
    Rational { numerator: u32, denominator: u32 },
}

/// What `#[serde(untagged)]` derived (a whole `u32`, else an object of the two fields, else its
/// one message) without buffering the value through serde's `Content`, the last user of it in
/// the engine wasm: 5.9 KB raw, 2.5 KB gzipped.
impl<'de> serde::Deserialize<'de> for FpsOption {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        FpsOption::read(v).map_err(serde::de::Error::custom)
    }
}

impl Field for FpsOption {
    fn read(v: serde_json::Value) -> Result<Self, serde_json::Error> {
        if let Some(n) = v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            return Ok(FpsOption::Whole(n));
        }
        match v.is_object().then(|| FrameRate::read(v)) {
            Some(Ok(FrameRate { numerator, denominator })) => Ok(FpsOption::Rational { numerator, denominator }),
            _ => Err(serde::de::Error::custom("data did not match any variant of untagged enum FpsOption")),
        }
    }
}

impl AssetOptions {
    /// What `serde_json::from_value::<AssetOptions>` makes of an object, the same values and
    /// messages (the test below compares them), read key by key through `model::fields`: the
    /// derive's visitor, with its sequence form, weighs more in the engine wasm, and serde's typed
    /// visitors keep core's float printing.
    pub fn from_map(map: Map<String, serde_json::Value>) -> Result<AssetOptions, serde_json::Error> {
        use serde::de::Error;
        const FIELDS: &[&str] = &["id", "name", "type", "duration", "width", "height", "fps"];
        let (mut id, mut name, mut kind, mut duration, mut width, mut height, mut fps) = (None, None, None, None, None, None, None);
        for (key, v) in map {
            match key.as_str() {
                "id" => id = Field::read(v)?,
                "name" => name = Some(Field::read(v)?),
                "type" => kind = Some(Field::read(v)?),
                "duration" => duration = Field::read(v)?,
                "width" => width = Field::read(v)?,
                "height" => height = Field::read(v)?,
                "fps" => fps = Field::read(v)?,
                other => return Err(Error::unknown_field(other, FIELDS)),
            }
        }
        let name = name.ok_or_else(|| Error::missing_field("name"))?;
        let kind = kind.ok_or_else(|| Error::missing_field("type"))?;
        Ok(AssetOptions { id, name, kind, duration, width, height, fps })
    }
}

impl From<AssetOptions> for NewAsset {
    fn from(o: AssetOptions) -> NewAsset {
        NewAsset {
            id: o.id,
            name: o.name,
            kind: o.kind,
            duration: o.duration,
            width: o.width,
            height: o.height,
            fps: o.fps.map(|f| match f {
                FpsOption::Whole(n) => FrameRate { numerator: n, denominator: 1 },
                FpsOption::Rational { numerator, denominator } => FrameRate { numerator, denominator },
            }),
        }
    }
}

/// What `addAsset` takes. Host-side file handles never reach the core.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewAsset {
    pub id: Option<String>,
    pub name: String,
    pub kind: String,
    pub duration: Option<f64>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub fps: Option<FrameRate>,
}

#[derive(Clone, Debug, Default)]
pub struct Document {
    project: Option<Project>,
    history: History,
    /// The effect types the host renders (all by default). A setting of the editor, not of the
    /// project: the same project may be open in hosts that render different effects.
    effects: EffectSet,
    /// The element types the host draws (all by default), a setting of the editor as `effects` is.
    element_kinds: ElementKinds,
    /// Bumped on every committed change; hosts compare it to know when to redraw.
    revision: u64,
}

impl Document {
    pub fn with_project(project: Project) -> Document {
        Document { project: Some(project), ..Document::default() }
    }

    /// Replaces the project. Not an undo step: history starts afresh.
    pub fn load(&mut self, project: Project) {
        self.project = Some(project);
        self.history.clear();
        self.revision += 1;
    }

    /// Replaces the project with a normalised copy of it from the host (a host editor's own
    /// pruning and ripple), keeping the undo history and the asset-context cache. Not an undo step.
    pub(crate) fn adopt(&mut self, project: Project) {
        self.project = Some(project);
        self.revision += 1;
    }

    pub fn project(&self) -> Option<&Project> {
        self.project.as_ref()
    }

    pub fn project_json(&self) -> Option<String> {
        self.project.as_ref().map(Project::to_json)
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Adds an asset to the library. Not an undo step: the library is not part of the timeline.
    pub fn add_asset(&mut self, new: NewAsset) -> Result<String, ApiError> {
        let project = self.project.as_mut().ok_or_else(|| api_error(ErrorCode::NoActiveProject, "No active project"))?;
        if new.name.trim().is_empty() {
            return Err(api_error(ErrorCode::InvalidAsset, "addAsset needs a non-empty name"));
        }
        let kind = AssetType::parse(&new.kind)
            .ok_or_else(|| api_error(ErrorCode::InvalidAsset, format!("addAsset type must be video, audio or image, not \"{}\"", new.kind)))?;
        if let Some(d) = new.duration {
            if !(d.is_finite() && d > 0.0 && d <= crate::time::MAX_SECONDS) {
                return Err(api_error(ErrorCode::InvalidAsset, "addAsset duration must be a positive number of seconds"));
            }
        }
        if new.fps.is_some_and(|f| !f.is_valid()) {
            return Err(api_error(ErrorCode::InvalidAsset, "addAsset fps needs a positive numerator and denominator"));
        }
        let id = match new.id {
            Some(id) if id.trim().is_empty() => return Err(api_error(ErrorCode::InvalidAsset, "addAsset id must not be empty")),
            Some(id) if project.asset(&id).is_some() => return Err(api_error(ErrorCode::DuplicateId, format!("An asset with id \"{id}\" already exists"))),
            Some(id) => id,
            None => project.new_id('a'),
        };
        project.assets.push(Asset {
            id: id.clone(),
            name: new.name,
            kind,
            duration: new.duration,
            width: new.width,
            height: new.height,
            fps: new.fps,
            extra: Map::new(),
        });
        self.revision += 1;
        Ok(id)
    }

    /// Adds a sticker to the catalog add_sticker draws from.
    pub fn add_sticker(&mut self, id: &str, name: &str, url: Option<String>) -> Result<String, ApiError> {
        let project = self.project.as_mut().ok_or_else(|| api_error(ErrorCode::NoActiveProject, "No active project"))?;
        if id.trim().is_empty() || name.trim().is_empty() {
            return Err(api_error(ErrorCode::InvalidSticker, "addSticker needs a non-empty id and name"));
        }
        if project.sticker(id).is_some() {
            return Err(api_error(ErrorCode::DuplicateId, format!("A sticker with id \"{id}\" already exists")));
        }
        project.stickers.push(Sticker { id: id.to_string(), name: name.to_string(), url, extra: Map::new() });
        self.revision += 1;
        Ok(id.to_string())
    }

    /// Restricts the effect tools to the effect types the host can render (`list_effects`,
    /// `get_effect`, `apply_effect` and `update_effect` treat every other type as not found).
    /// Not an undo step, and not saved with the project. Throws `INVALID_EFFECTS` for an id that
    /// is not a registered effect, and changes nothing then.
    pub fn set_effects<S: AsRef<str>>(&mut self, ids: &[S]) -> Result<(), ApiError> {
        self.effects = EffectSet::from_ids(ids).map_err(|id| {
            let known = EffectSet::ALL.ids().join(", ");
            api_error(ErrorCode::InvalidEffects, format!("Unknown effect type \"{id}\" in effects; registered types: {known}"))
        })?;
        Ok(())
    }

    /// The effect types the effect tools offer, in registry order.
    pub fn effects(&self) -> EffectSet {
        self.effects
    }

    /// Declares the element types the host draws: the tools that add an element of another type
    /// refuse with `ELEMENT_KIND_NOT_DRAWN`, and list_timeline names the others in `notDrawn`.
    /// Not an undo step, not saved with the project. Throws `INVALID_ELEMENT_KINDS` for a name that
    /// is not an element type, and changes nothing then.
    pub fn set_element_kinds<S: AsRef<str>>(&mut self, names: &[S]) -> Result<(), ApiError> {
        self.element_kinds = ElementKinds::from_names(names).map_err(|name| {
            let known = ElementKinds::ALL.names(true).join(", ");
            api_error(ErrorCode::InvalidElementKinds, format!("Unknown element type \"{name}\" in elementKinds; element types: {known}"))
        })?;
        Ok(())
    }

    /// The element types the host draws.
    pub fn element_kinds(&self) -> ElementKinds {
        self.element_kinds
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Undoes one step; returns its label.
    pub fn undo(&mut self) -> Option<String> {
        let p = self.project.as_mut()?;
        let label = self.history.undo(p.timeline.as_mut()?, &mut p.settings)?;
        self.revision += 1;
        Some(label)
    }

    pub fn redo(&mut self) -> Option<String> {
        let p = self.project.as_mut()?;
        let label = self.history.redo(p.timeline.as_mut()?, &mut p.settings)?;
        self.revision += 1;
        Some(label)
    }

    /// Opens an undo group: the steps recorded until `end_group` undo and redo as one, named
    /// `label` (an agent's run, a host's compound gesture). Groups nest; the outermost counts.
    pub fn begin_group(&mut self, label: &str) {
        self.history.begin_group(label.to_string());
    }

    /// Closes the innermost undo group; false when none is open. An empty group records nothing.
    pub fn end_group(&mut self) -> bool {
        let current = self.project.as_ref().and_then(|p| Some((p.timeline.as_ref()?, &p.settings)));
        self.history.end_group(current)
    }

    /// Stores a successful call's working copy (its timeline, and its settings when it changed
    /// them): one history entry if either changed.
    pub(crate) fn commit(&mut self, timeline: Option<crate::model::Timeline>, settings: Option<crate::model::Settings>, next_id: u64, label: String) {
        let Some(project) = self.project.as_mut() else { return };
        project.next_id = project.next_id.max(next_id);
        let (Some(new), Some(old)) = (timeline, project.timeline.as_ref()) else { return };
        let settings = settings.filter(|s| *s != project.settings);
        if new.same_as(old) && settings.is_none() {
            return;
        }
        let before = std::mem::replace(project.timeline.as_mut().expect("checked above"), new);
        let settings_before = settings.map(|s| std::mem::replace(&mut project.settings, s));
        self.history.record(before, settings_before, label);
        self.revision += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{AssetOptions, FpsOption};
    use serde_json::{json, Value};

    #[test]
    fn asset_options_read_by_key_as_the_derive_reads_them() {
        fn show(o: &AssetOptions) -> String {
            let fps = o.fps.as_ref().map(|f| match f {
                FpsOption::Whole(n) => format!("{n}"),
                FpsOption::Rational { numerator, denominator } => format!("{numerator}/{denominator}"),
            });
            format!("{:?} {:?} {:?} {:?} {:?} {:?} {fps:?}", o.id, o.name, o.kind, o.duration.map(f64::to_bits), o.width, o.height)
        }
        let inputs = [
            json!({ "name": "a", "type": "video" }),
            json!({ "id": "x", "name": "a", "type": "video", "duration": 1.5, "width": 1920, "height": 1080, "fps": 30 }),
            json!({ "id": null, "name": "a", "type": "image", "duration": null, "width": null, "height": null, "fps": null }),
            json!({ "fps": { "numerator": 30000, "denominator": 1001 }, "type": "video", "name": "a" }),
            json!({}),
            json!({ "name": "a" }),
            json!({ "type": "video" }),
            json!({ "name": null, "type": "video" }),
            json!({ "name": 5, "type": "video" }),
            json!({ "name": "a", "type": "video", "durations": 3 }),
            json!({ "colour": 1, "name": 5 }),
            json!({ "name": 5, "colour": 1 }),
            json!({ "name": "a", "type": "video", "duration": "5" }),
            json!({ "name": "a", "type": "video", "duration": {} }),
            json!({ "name": "a", "type": "video", "width": 1.5 }),
            json!({ "name": "a", "type": "video", "width": -1 }),
            json!({ "name": "a", "type": "video", "width": 4294967296u64 }),
            json!({ "name": "a", "type": "video", "width": 1e300 }),
            json!({ "name": "a", "type": "video", "fps": "fast" }),
            json!({ "name": "a", "type": "video", "fps": [30, 1] }),
            json!({ "name": "a", "type": "video", "id": 3 }),
            json!({ "name": "a", "type": "video", "": 1 }),
        ];
        for v in inputs {
            let Value::Object(map) = v.clone() else { unreachable!() };
            let ours = AssetOptions::from_map(map).map(|o| show(&o)).map_err(|e| e.to_string());
            let derived = serde_json::from_value::<AssetOptions>(v.clone()).map(|o| show(&o)).map_err(|e| e.to_string());
            assert_eq!(ours, derived, "{v}");
        }
    }

    /// The derive FpsOption's hand-written `Deserialize` replaced, as it was.
    mod derived {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        #[serde(untagged)]
        pub enum FpsOption {
            Whole(u32),
            Rational { numerator: u32, denominator: u32 },
        }
    }
    use derived::FpsOption as Derived;

    #[test]
    fn fps_option_reads_as_the_untagged_derive_did() {
        let inputs = [
            json!(30),
            json!(0),
            json!(4294967295u64),
            json!(4294967296u64),
            json!(-1),
            json!(30.0),
            json!(29.97),
            json!("30"),
            json!(null),
            json!(true),
            json!({ "numerator": 30000, "denominator": 1001 }),
            json!({ "numerator": 1, "denominator": 2, "extra": 3 }),
            json!({ "numerator": 30 }),
            json!({ "numerator": -1, "denominator": 1 }),
            json!({ "numerator": 1.5, "denominator": 1 }),
            json!({}),
            json!([30000, 1001]),
            json!([1]),
            json!([1, 2, 3]),
        ];
        for v in inputs {
            let ours = serde_json::from_value::<FpsOption>(v.clone()).map(|f| match f {
                FpsOption::Whole(n) => Derived::Whole(n),
                FpsOption::Rational { numerator, denominator } => Derived::Rational { numerator, denominator },
            });
            let derived = serde_json::from_value::<Derived>(v.clone());
            assert_eq!(ours.map_err(|e| e.to_string()), derived.map_err(|e| e.to_string()), "{v}");
            // And through a JSON text, as a native caller may read it.
            let text = v.to_string();
            let ours: Result<Value, String> = serde_json::from_str::<FpsOption>(&text).map(|_| Value::Null).map_err(|e| e.to_string());
            let derived: Result<Value, String> = serde_json::from_str::<Derived>(&text).map(|_| Value::Null).map_err(|e| e.to_string());
            assert_eq!(ours.is_ok(), derived.is_ok(), "{text}");
        }
    }
}
