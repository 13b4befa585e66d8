//! The editor: a [`Document`] and the tool layer's caches (list_timeline's text and readable
//! references, the asset-context cache). Every tool call goes through [`Editor::call_tool`],
//! which runs the tool on a working copy and commits it as one history entry only when the call
//! succeeds. The document's own API (assets, undo, frames) is reached through `Deref`.

use std::ops::{Deref, DerefMut};

use serde_json::Value;

use super::context::{self, ContextCache, ContextProvider, ContextRequest, ContextStep, ProviderReport};
use super::history::batch;
use super::registry::{self, Kind, ToolDef};
use super::{Args, Ctx, ListingCache, Output, ToolError};
use crate::editor::Document;
use crate::error_code::ErrorCode;
use crate::model::{AssetType, Project, ProjectError};

#[derive(Clone, Debug, Default)]
pub struct Editor {
    doc: Document,
    contexts: ContextCache,
    listing: ListingCache,
}

impl Deref for Editor {
    type Target = Document;

    fn deref(&self) -> &Document {
        &self.doc
    }
}

impl DerefMut for Editor {
    fn deref_mut(&mut self) -> &mut Document {
        &mut self.doc
    }
}

impl Editor {
    /// An editor with an empty project.
    pub fn new() -> Editor {
        Editor::with_project(Project::new())
    }

    pub fn with_project(project: Project) -> Editor {
        Editor { doc: Document::with_project(project), ..Editor::default() }
    }

    /// An editor with no project loaded (tools answer "No active project"/"No active timeline").
    pub fn empty() -> Editor {
        Editor::default()
    }

    pub fn from_json(json: &str) -> Result<Editor, ProjectError> {
        Project::from_json(json).map(Editor::with_project)
    }

    /// Replaces the project. Not an undo step: history and the caches start afresh.
    pub fn load(&mut self, project: Project) {
        self.doc.load(project);
        self.contexts.clear();
        // References are per loaded timeline: a new one is numbered afresh.
        self.listing = ListingCache::default();
    }

    pub fn context_cache(&self) -> &ContextCache {
        &self.contexts
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
            Err(_) => return crate::text::json(&ToolError::arguments_not_object().to_json()),
        };
        match self.call_tool_output(name, &args) {
            Ok(out) => out.into_string(),
            Err(err) => crate::text::json(&err.to_json()),
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
                let mut ctx =
                    Ctx::new(self.doc.project()).with_listing(&mut self.listing).with_effects(self.doc.effects()).with_element_kinds(self.doc.element_kinds());
                let out = run_in(&mut ctx, def, args)?;
                let label = match def.kind {
                    Kind::Batch => batch_label(raw),
                    _ => def.name.to_string(),
                };
                let (timeline, settings, next_id) = (ctx.timeline, ctx.settings, ctx.ids.next);
                self.doc.commit(timeline, settings, next_id, label);
                Ok(out)
            }
        }
    }

    fn undo_tool(&mut self) -> Result<Value, ToolError> {
        let label = self.undo().ok_or_else(|| ToolError::new(ErrorCode::NothingToUndo, "Nothing to undo"))?;
        Ok(crate::text::obj([
            ("success", serde_json::Value::from(true)),
            ("undone", serde_json::Value::from(label)),
            ("canUndo", serde_json::Value::from(self.can_undo())),
            ("canRedo", serde_json::Value::from(self.can_redo())),
        ]))
    }

    fn redo_tool(&mut self) -> Result<Value, ToolError> {
        let label = self.redo().ok_or_else(|| ToolError::new(ErrorCode::NothingToRedo, "Nothing to redo"))?;
        Ok(crate::text::obj([
            ("success", serde_json::Value::from(true)),
            ("redone", serde_json::Value::from(label)),
            ("canUndo", serde_json::Value::from(self.can_undo())),
            ("canRedo", serde_json::Value::from(self.can_redo())),
        ]))
    }

    /// load_asset_context, step one: validate and answer from the cache, or return the request
    /// the host's provider must serve. `now` is the host's clock in milliseconds.
    pub fn begin_context(&self, args: &Value, supported: &[AssetType], now: f64) -> Result<ContextStep, ToolError> {
        let def = registry::find("load_asset_context").expect("registered");
        let args = Args::strict(def.name, def.args(), args)?;
        let ctx = Ctx::new(self.doc.project());
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
            let resolved = refs.resolve_args(ctx.timeline.as_ref(), args.map())?;
            let before = crate::main_start::PLACING.contains(&def.name).then(|| ctx.timeline.clone()).flatten();
            let out = match resolved {
                Some(resolved) => run(ctx, Args::strict(def.name, def.args(), &resolved)?),
                None => run(ctx, args),
            }?;
            // OpenCut's front of the main track, after every edit that places (src/main_start.rs);
            // the output then reports where the elements ended up.
            match (before, ctx.timeline.as_mut()) {
                (Some(before), Some(after)) => match crate::main_start::settle(&before, after) {
                    Some(settled) => Ok(settled_output(out, &settled, after)),
                    None => Ok(out),
                },
                _ => Ok(out),
            }
        }
        _ => Err(ToolError::new(ErrorCode::NotInBatch, format!("Tool {} cannot run inside batch", def.name))),
    }
}

/// `out` with the `start` and `end` of every entry naming a settled element (`elementId`) as
/// the timeline now holds them.
fn settled_output(out: Output, settled: &crate::main_start::Settled, tl: &crate::model::Timeline) -> Output {
    fn walk(v: &mut Value, settled: &crate::main_start::Settled, tl: &crate::model::Timeline) {
        match v {
            Value::Array(a) => a.iter_mut().for_each(|x| walk(x, settled, tl)),
            Value::Object(o) => {
                let id = o.get("elementId").and_then(Value::as_str).filter(|id| settled.ids.iter().any(|s| s == id)).map(str::to_string);
                if let Some((ti, ei)) = id.and_then(|id| tl.find(&id)) {
                    let e = &tl.tracks[ti].elements[ei];
                    for (key, ticks) in [("start", e.start), ("end", e.end())] {
                        if o.contains_key(key) {
                            o.insert(key.into(), super::seconds(ticks));
                        }
                    }
                }
                o.values_mut().for_each(|x| walk(x, settled, tl));
            }
            _ => {}
        }
    }
    let mut v = out.to_value();
    walk(&mut v, settled, tl);
    Output::from_serialize(&v)
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
        let name = step.tool.read().unwrap_or("");
        let def = registry::find(name).ok_or_else(|| fail(ToolError::unknown_tool(name, &registry::names()), name))?;
        if !matches!(def.kind, Kind::Read | Kind::Edit) {
            return Err(fail(ToolError::new(ErrorCode::NotInBatch, format!("Tool {name} cannot run inside batch")), name));
        }
        // As given: `Args::strict` refuses a non-object with the shared message.
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
