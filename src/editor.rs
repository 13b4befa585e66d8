//! The editor: one project, its undo history and the asset-context cache. Every tool call goes
//! through [`Editor::call_tool`], which runs the tool on a working copy and commits it as one
//! history entry only when the call succeeds.

use crate::error_code::ErrorCode;
use std::fmt;

use serde_json::{json, Map, Value};

use crate::effects::EffectSet;
use crate::history::History;
use crate::model::{Asset, AssetType, Project, ProjectError, Sticker};
use crate::time::FrameRate;
use crate::tools::context::{self, ContextCache, ContextProvider, ContextRequest, ContextStep, ProviderReport};
use crate::tools::history::batch;
use crate::tools::registry::{self, Kind, ToolDef};
use crate::tools::{Args, Ctx, ListingCache, Output, ToolError};

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
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
pub enum FpsOption {
    Whole(u32),
    Rational { numerator: u32, denominator: u32 },
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
pub struct Editor {
    project: Option<Project>,
    history: History,
    contexts: ContextCache,
    listing: ListingCache,
    /// The effect types the host renders (all by default). A setting of the editor, not of the
    /// project: the same project may be open in hosts that render different effects.
    effects: EffectSet,
    /// Bumped on every committed change; hosts compare it to know when to redraw.
    revision: u64,
}

impl Editor {
    /// An editor with an empty project.
    pub fn new() -> Editor {
        Editor::with_project(Project::new())
    }

    pub fn with_project(project: Project) -> Editor {
        Editor { project: Some(project), ..Editor::default() }
    }

    /// An editor with no project loaded (tools answer "No active project"/"No active timeline").
    pub fn empty() -> Editor {
        Editor::default()
    }

    pub fn from_json(json: &str) -> Result<Editor, ProjectError> {
        Project::from_json(json).map(Editor::with_project)
    }

    /// Replaces the project. Not an undo step: history starts afresh.
    pub fn load(&mut self, project: Project) {
        self.project = Some(project);
        self.history.clear();
        self.contexts.clear();
        // References are per loaded timeline: a new one is numbered afresh.
        self.listing = ListingCache::default();
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

    pub fn context_cache(&self) -> &ContextCache {
        &self.contexts
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

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Undoes one step; returns its label.
    pub fn undo(&mut self) -> Option<String> {
        let tl = self.project.as_mut()?.timeline.as_mut()?;
        let label = self.history.undo(tl)?;
        self.revision += 1;
        Some(label)
    }

    pub fn redo(&mut self) -> Option<String> {
        let tl = self.project.as_mut()?.timeline.as_mut()?;
        let label = self.history.redo(tl)?;
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
        let current = self.project.as_ref().and_then(|p| p.timeline.as_ref());
        self.history.end_group(current)
    }

    /// Runs a tool by name. A failed call changes nothing; a successful edit that changes the
    /// timeline is one undo step.
    pub fn call_tool(&mut self, name: &str, args: &Value) -> Result<Value, ToolError> {
        self.call_tool_output(name, args).map(|o| o.to_value())
    }

    /// Like [`Editor::call_tool`], with JSON text in and out: the form the JS boundary uses.
    /// The result is the tool's output, or its error as `{ error, code, ... }`.
    pub fn call_tool_json(&mut self, name: &str, args_json: &str) -> String {
        let args = match serde_json::from_str::<Value>(args_json) {
            Ok(v) => v,
            Err(_) => return ToolError::arguments_not_object().to_json().to_string(),
        };
        match self.call_tool_output(name, &args) {
            Ok(out) => out.into_string(),
            Err(err) => err.to_json().to_string(),
        }
    }

    pub fn call_tool_output(&mut self, name: &str, raw: &Value) -> Result<Output, ToolError> {
        let def = registry::find(name).ok_or_else(|| ToolError::unknown_tool(name, &registry::names()))?;
        let args = Args::strict(def.name, def.args(), raw)?;
        match def.kind {
            Kind::Undo => self.undo_tool().map(Output::from),
            Kind::Redo => self.redo_tool().map(Output::from),
            // Never found: registry::find searches TOOLS only.
            Kind::Host => Err(ToolError::unknown_tool(name, &registry::names())),
            Kind::Context => {
                // Without a provider only the cache can answer (the host's clock is unknown here,
                // so expiry is not checked: the JS package always passes its clock).
                match self.begin_context(raw, &[AssetType::Video, AssetType::Audio, AssetType::Image], 0.0)? {
                    ContextStep::Done(out) => Ok(out.into()),
                    ContextStep::Fetch(_) => Err(ToolError::context_failed().with("details", "No context provider is configured")),
                }
            }
            Kind::Read | Kind::Edit | Kind::Batch => {
                let mut ctx = Ctx::new(self.project.as_ref()).with_listing(&mut self.listing).with_effects(self.effects);
                let out = run_in(&mut ctx, def, args)?;
                let label = match def.kind {
                    Kind::Batch => batch_label(raw),
                    _ => def.name.to_string(),
                };
                let (timeline, next_id) = (ctx.timeline, ctx.ids.next);
                self.commit(timeline, next_id, label);
                Ok(out)
            }
        }
    }

    /// Stores a successful call's working copy: one history entry if the timeline changed.
    fn commit(&mut self, timeline: Option<crate::model::Timeline>, next_id: u64, label: String) {
        let Some(project) = self.project.as_mut() else { return };
        project.next_id = project.next_id.max(next_id);
        let (Some(new), Some(old)) = (timeline, project.timeline.as_ref()) else { return };
        if new.same_as(old) {
            return;
        }
        let before = std::mem::replace(project.timeline.as_mut().expect("checked above"), new);
        self.history.record(before, label);
        self.revision += 1;
    }

    fn undo_tool(&mut self) -> Result<Value, ToolError> {
        let label = self.undo().ok_or_else(|| ToolError::new(ErrorCode::NothingToUndo, "Nothing to undo"))?;
        Ok(json!({ "success": true, "undone": label, "canUndo": self.can_undo(), "canRedo": self.can_redo() }))
    }

    fn redo_tool(&mut self) -> Result<Value, ToolError> {
        let label = self.redo().ok_or_else(|| ToolError::new(ErrorCode::NothingToRedo, "Nothing to redo"))?;
        Ok(json!({ "success": true, "redone": label, "canUndo": self.can_undo(), "canRedo": self.can_redo() }))
    }

    /// load_asset_context, step one: validate and answer from the cache, or return the request
    /// the host's provider must serve. `now` is the host's clock in milliseconds.
    pub fn begin_context(&self, args: &Value, supported: &[AssetType], now: f64) -> Result<ContextStep, ToolError> {
        let def = registry::find("load_asset_context").expect("registered");
        let args = Args::strict(def.name, def.args(), args)?;
        let ctx = Ctx::new(self.project.as_ref());
        context::begin(&ctx, args.parse()?, &self.contexts, supported, now)
    }

    /// load_asset_context, step two: record what the provider reported.
    pub fn finish_context(&mut self, request: &ContextRequest, result: Result<ProviderReport, String>, now: f64) -> Result<Value, ToolError> {
        context::finish(&mut self.contexts, request, result, now)
    }

    /// Drops an asset's cached provider file (e.g. Gemini reported it expired), so the next
    /// load_asset_context uploads again. False when nothing was cached.
    pub fn forget_context(&mut self, asset_id: &str) -> bool {
        self.contexts.remove(asset_id).is_some()
    }

    /// load_asset_context with a Rust provider, both steps.
    pub async fn load_asset_context<P: ContextProvider>(&mut self, provider: &mut P, args: &Value, now: f64) -> Result<Value, ToolError> {
        match self.begin_context(args, provider.supported_types(), now)? {
            ContextStep::Done(out) => Ok(out),
            ContextStep::Fetch(request) => {
                let result = provider.load(&request).await;
                self.finish_context(&request, result, now)
            }
        }
    }
}

/// Runs one tool (or a batch) against a working context.
fn run_in(ctx: &mut Ctx, def: &ToolDef, args: Args) -> Result<Output, ToolError> {
    match (def.kind, def.run) {
        (Kind::Batch, _) => run_batch(ctx, args),
        (_, Some(run)) => {
            // Readable references (`clip-2`) become element ids before the tool sees them.
            let mut own = crate::tools::refs::Refs::default();
            let refs = match ctx.listing.as_deref_mut() {
                Some(cache) => &mut cache.refs,
                None => &mut own,
            };
            match refs.resolve_args(ctx.timeline.as_ref(), args.map())? {
                Some(resolved) => run(ctx, Args::strict(def.name, def.args(), &resolved)?),
                None => run(ctx, args),
            }
        }
        _ => Err(ToolError::new(ErrorCode::NotInBatch, format!("Tool {} cannot run inside batch", def.name))),
    }
}

const INVALID_STEPS: &str = "Invalid batch steps";

fn run_batch(ctx: &mut Ctx, args: Args) -> Result<Output, ToolError> {
    let invalid = || ToolError::new(ErrorCode::InvalidBatchSteps, INVALID_STEPS).with_hint("steps is a non-empty list of {\"tool\": name, \"args\": {...}}.");
    let batch: batch::Arguments = args.parse()?;
    let Some(Value::Array(steps)) = batch.steps.get() else { return Err(invalid()) };
    if steps.is_empty() {
        return Err(invalid());
    }
    let mut outputs = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let fail = |e: ToolError, tool: &str| e.with("step", i).with("tool", tool.to_string());
        if !step.is_object() {
            return Err(fail(invalid(), ""));
        }
        let step: batch::Step = Args::strict("batch step", &["tool", "args"], step).and_then(|a| a.parse()).map_err(|e| fail(e, ""))?;
        let name = step.tool.get().and_then(Value::as_str).unwrap_or("");
        let def = registry::find(name).ok_or_else(|| fail(ToolError::unknown_tool(name, &registry::names()), name))?;
        if !matches!(def.kind, Kind::Read | Kind::Edit) {
            return Err(fail(ToolError::new(ErrorCode::NotInBatch, format!("Tool {name} cannot run inside batch")), name));
        }
        let raw = step.args.get().unwrap_or(&Value::Null);
        let tool_args = Args::strict(def.name, def.args(), raw).map_err(|e| fail(e, name))?;
        outputs.push((def.name, run_in(ctx, def, tool_args).map_err(|e| fail(e, name))?));
    }
    // {"success":true,"results":[{"tool":…,"result":…},…]}, with each step's text copied verbatim.
    let mut text = String::from(r#"{"success":true,"results":["#);
    for (i, (tool, out)) in outputs.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(r#"{"tool":"#);
        text.push_str(&serde_json::to_string(tool).expect("a tool name serialises"));
        text.push_str(r#","result":"#);
        text.push_str(out.as_str());
        text.push('}');
    }
    text.push_str("]}");
    Ok(Output::from_json_text(text))
}

/// "batch: split, delete_timeline_elements" — the steps' tool names.
fn batch_label(args: &Value) -> String {
    let steps = args["steps"].as_array().into_iter().flatten();
    let tools: Vec<&str> = steps.filter_map(|s| s["tool"].as_str()).collect();
    format!("batch: {}", tools.join(", "))
}
