// The tools a headless session serves beside the engine's own, and the one place that runs a
// tool by name for both `neuralcut mcp` and the CLI verbs:
// - media_import: probes files and adds them as assets (all or nothing);
// - the seed's core tools (seeds/004): command_list, command_run, command_batch, doc_inspect;
// - host tools the Node side answers itself (render_preview, through headless Chromium).
// Their metadata is written here once, in the catalog's own shape; the engine tools' metadata
// comes from `editor.tools()` (the Rust registry) and is never copied.
import { setImmediate } from "node:timers/promises";
import { pathToFileURL } from "node:url";

import { isToolError, type NeuralCutEditor } from "../editor.js";
import { TOOL_ERRORS } from "../generated/tools.js";
import type { ToolInfo } from "../types.js";
import {
  HOST_TOOL_ERRORS,
  hostToolArgs,
  hostToolInfo,
  withHostTools,
  outcomeOf,
  strictArguments,
  toolError,
  type HostTool,
  type HostToolContext,
  type Outcome,
  type ResultImage,
} from "../host-tools.js";
import { MediaProbeError, probeMedia, type MediaInfo } from "../media/probe.js";
import type { Session } from "./session.js";

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  $schema: SCHEMA,
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});
/** Any JSON object (the output of a tool chosen at run time). */
const ANY_OBJECT = { $schema: SCHEMA, type: "object" };

const tool = (t: Omit<ToolInfo, "name"> & { name: string }) => t as ToolInfo;

/** The catalog entry of media_import (registry::HOST_TOOLS). */
export const MEDIA_IMPORT_TOOL: ToolInfo = hostToolInfo("media_import");

const COMMAND_ENTRY = {
  type: "object",
  properties: {
    id: { type: "string", description: "The tool name, for command_run and command_batch" },
    title: { type: "string" },
    description: { type: "string" },
    parameters: { type: "object", description: "JSON Schema of the arguments (params)" },
    annotations: { type: "object" },
    enabled: { type: "boolean", description: "Whether the command can do something now" },
    reason: { type: "string", description: "Why not, when enabled is false" },
  },
  required: ["id", "title", "description", "parameters", "annotations", "enabled"],
};

const STEP_RESULT = {
  type: "object",
  properties: {
    step: { type: "integer" },
    id: { type: "string" },
    ok: { type: "boolean" },
    result: { type: "object" },
    error: { type: "object", description: "The tool's error value: error, code, hint, ..." },
  },
  required: ["step", "id", "ok"],
};

export const COMMAND_LIST_TOOL: ToolInfo = tool({
  name: "command_list",
  title: "List commands",
  description:
    "Every command (tool) with its id, title, description, parameters (JSON Schema), annotations, and whether it is enabled now; a disabled one says why (nothing to undo, no timeline, no elements, ...). filter keeps the ids and titles that contain it (case-insensitive); enabled_only keeps the enabled ones. Reads only.",
  inputSchema: object({
    filter: { type: "string", description: "Keep commands whose id or title contains this (case-insensitive)" },
    enabled_only: { type: "boolean", description: "Keep only the commands enabled now (default false)" },
  }),
  outputSchema: { $schema: SCHEMA, type: "object", properties: { commands: { type: "array", items: COMMAND_ENTRY } }, required: ["commands"] },
  annotations: READ_ONLY,
});

export const COMMAND_RUN_TOOL: ToolInfo = tool({
  name: "command_run",
  title: "Run a command",
  description:
    "Run one command by id with params passed to it unchanged; the result is the command's own result, its errors are the command's own (an unknown parameter is a -32602 error naming the accepted ones). Every edit is one undoable step.",
  inputSchema: object(
    {
      id: { type: "string", description: "Command id from command_list (a tool name)" },
      params: { type: "object", description: "The command's arguments (default {})" },
    },
    ["id"],
  ),
  outputSchema: ANY_OBJECT,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
});

export const COMMAND_BATCH_TOOL: ToolInfo = tool({
  name: "command_batch",
  title: "Run several commands",
  description:
    "Run commands in order, each as its own undoable step (use the batch tool for one all-or-nothing step). stop_on_error (default true) stops at the first failing step; false runs every step. Returns {completed, failed, results}, one result per step run: {step, id, ok, result | error}. Steps are checked before any runs: an unknown id or step key runs nothing.",
  inputSchema: object(
    {
      steps: {
        type: "array",
        minItems: 1,
        items: object({ id: { type: "string" }, params: { type: "object" } }, ["id"]),
        description: "The commands to run, in order",
      },
      stop_on_error: { type: "boolean", description: "Stop at the first failing step (default true)" },
    },
    ["steps"],
  ),
  outputSchema: {
    $schema: SCHEMA,
    type: "object",
    properties: {
      completed: { type: "integer", description: "Steps that succeeded" },
      failed: { type: "integer", description: "Steps that failed" },
      results: { type: "array", items: STEP_RESULT },
    },
    required: ["completed", "failed", "results"],
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
});

export const DOC_INSPECT_TOOL: ToolInfo = tool({
  name: "doc_inspect",
  title: "Inspect the document",
  description:
    "The whole document in one call: settings (fps, canvas), assets (as list_project_assets, plus the file path when known), stickers, the timeline (as list_timeline; null without one), whether undo and redo are possible, and the revision (bumped by every change). Reads only.",
  inputSchema: object({}),
  outputSchema: {
    $schema: SCHEMA,
    type: "object",
    properties: {
      settings: { type: "object" },
      assets: { type: "array", items: { type: "object" } },
      stickers: { type: "array", items: { type: "object" } },
      timeline: { type: ["object", "null"] },
      canUndo: { type: "boolean" },
      canRedo: { type: "boolean" },
      revision: { type: "integer" },
    },
    required: ["settings", "assets", "stickers", "timeline", "canUndo", "canRedo", "revision"],
  },
  annotations: READ_ONLY,
});

/** The seed's core tools, in listing order. */
export const CORE_TOOLS: readonly ToolInfo[] = [COMMAND_LIST_TOOL, COMMAND_RUN_TOOL, COMMAND_BATCH_TOOL, DOC_INSPECT_TOOL];

const CORE_ERRORS: Record<string, readonly string[]> = {
  command_list: ["filter must be a string", "enabled_only must be a boolean"],
  command_run: ['Unknown tool "<id>"', "the command's own errors"],
  command_batch: ["steps must be a non-empty array of {id, params}", 'Unknown tool "<id>"'],
  doc_inspect: [],
};

/** Everything a session serves, in listing order: engine tools, media_import, core tools, then
 * the session's host tools. A host tool of an engine tool's name (check_timeline with the
 * host's kinds) answers for it, in the engine tool's place. */
export function sessionCatalog(editor: NeuralCutEditor, hostTools: readonly HostTool[] = []): ToolInfo[] {
  return withHostTools(editor.tools(), hostTools, [MEDIA_IMPORT_TOOL, ...CORE_TOOLS]);
}

/** The error messages a tool can return (the registry's for engine tools). */
export function toolErrors(name: string): readonly string[] {
  return (TOOL_ERRORS as Record<string, readonly string[]>)[name] ?? (HOST_TOOL_ERRORS as Record<string, readonly string[]>)[name] ?? CORE_ERRORS[name] ?? [];
}

export { outcomeOf, resultOf, type Outcome, type ResultImage } from "../host-tools.js";

const failure = (error: string, code: string, data: Record<string, unknown> = {}): Outcome => ({ ok: false, error: toolError(error, code, data) });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The engine's strict-argument rule (js/host-tools.ts) as an outcome. */
function strict(name: string, args: unknown, accepted: string[]): Outcome | undefined {
  const checked = strictArguments(name, accepted, args);
  return "error" in checked ? { ok: false, error: checked.error } : undefined;
}

function unknownTool(name: string, catalog: readonly ToolInfo[]): Outcome {
  return failure(`Unknown tool "${name}"`, "UNKNOWN_TOOL", { tool: name, known: catalog.map((t) => t.name) });
}

/** A panic in the engine (already recovered by js/engine.ts) or another unexpected throw. */
function internal(e: unknown): Outcome {
  const text = e instanceof Error ? e.message : String(e);
  return failure(text.startsWith("internal error:") ? text : `internal error: ${text}`, "INTERNAL");
}

/** What the enabled state of each command depends on. */
interface Facts {
  timeline: boolean;
  elements: number;
  assets: number;
  stickers: number;
  canUndo: boolean;
  canRedo: boolean;
}

function facts(editor: NeuralCutEditor): Facts {
  const project = editor.project() as { timeline?: { tracks?: { elements?: unknown[] }[] } | null; assets?: unknown[]; stickers?: unknown[] };
  const tracks = project.timeline?.tracks;
  return {
    timeline: Array.isArray(tracks),
    elements: (tracks ?? []).reduce((n, t) => n + (t.elements?.length ?? 0), 0),
    assets: project.assets?.length ?? 0,
    stickers: project.stickers?.length ?? 0,
    canUndo: editor.canUndo(),
    canRedo: editor.canRedo(),
  };
}

/** Why `t` cannot do anything now, or undefined when it can. Read from the tool's own
 * parameters (what it acts on), so a new tool needs no entry here. */
function disabledReason(t: ToolInfo, f: Facts): string | undefined {
  if (t.name === "undo" && !f.canUndo) return "nothing to undo";
  if (t.name === "redo" && !f.canRedo) return "nothing to redo";
  const params = Object.keys((t.inputSchema as { properties?: object }).properties ?? {});
  const needsTimeline = t.name === "list_timeline" || (!t.annotations.readOnlyHint && t.name !== MEDIA_IMPORT_TOOL.name && !CORE_TOOLS.includes(t));
  if (needsTimeline && !f.timeline) return "no timeline";
  if ((params.includes("elementId") || params.includes("elementIds")) && f.elements === 0) return "the timeline has no elements";
  if (params.includes("assetId") && f.assets === 0) return "the project has no assets (import some with media_import)";
  if (params.includes("stickerId") && f.stickers === 0) return "the sticker catalog is empty (the host adds stickers with addSticker)";
  return undefined;
}

/** command_list's entries. */
export function commandList(session: Session, catalog: readonly ToolInfo[], filter?: string, enabledOnly = false): Record<string, unknown>[] {
  const f = facts(session.editor);
  const needle = filter?.toLowerCase();
  const out = [];
  for (const t of catalog) {
    if (needle && !t.name.toLowerCase().includes(needle) && !t.title.toLowerCase().includes(needle)) continue;
    const reason = disabledReason(t, f);
    if (enabledOnly && reason) continue;
    out.push({
      id: t.name,
      title: t.title,
      description: t.description,
      parameters: t.inputSchema,
      annotations: t.annotations,
      enabled: reason === undefined,
      ...(reason ? { reason } : {}),
    });
  }
  return out;
}

/** doc_inspect's result. */
export async function docInspect(session: Session): Promise<Record<string, unknown>> {
  const { editor, paths } = session;
  const project = editor.project() as { settings?: unknown; stickers?: unknown[] };
  const listed = await editor.callToolUntyped("list_project_assets", {});
  const assets = isToolError(listed) ? [] : (listed.assets as Record<string, unknown>[]);
  const timeline = await editor.callToolUntyped("list_timeline", {});
  return {
    settings: project.settings ?? {},
    assets: assets.map((a) => (paths.has(a.id as string) ? { ...a, path: paths.get(a.id as string) } : a)),
    stickers: project.stickers ?? [],
    timeline: isToolError(timeline) ? null : timeline,
    canUndo: editor.canUndo(),
    canRedo: editor.canRedo(),
    revision: editor.revision(),
  };
}

/** Runs the tool `name` of the session's catalog. Never throws: a panic inside the engine comes
 * back as an INTERNAL error value (the engine has been rebuilt by then). `signal` (the request's
 * cancellation) stops a command_batch before its next step; a host tool gets it with `progress`
 * (the request's progress token and notifier). */
export async function runTool(
  session: Session,
  catalog: readonly ToolInfo[],
  name: string,
  args: unknown,
  signal?: AbortSignal,
  progress?: Omit<HostToolContext, "signal">,
): Promise<Outcome> {
  try {
    switch (name) {
      case COMMAND_LIST_TOOL.name:
        return commandListTool(session, catalog, args);
      case COMMAND_RUN_TOOL.name:
        return await commandRun(session, catalog, args);
      case COMMAND_BATCH_TOOL.name:
        return await commandBatch(session, catalog, args, signal);
      case DOC_INSPECT_TOOL.name:
        return strict(name, args, []) ?? { ok: true, result: await docInspect(session) };
      default:
        return await runCommand(session, catalog, name, args, { signal, ...progress });
    }
  } catch (e) {
    return internal(e);
  }
}

/** A command that command_run and command_batch may run: anything but themselves. */
function runnable(catalog: readonly ToolInfo[], id: string): boolean {
  return id !== COMMAND_RUN_TOOL.name && id !== COMMAND_BATCH_TOOL.name && catalog.some((t) => t.name === id);
}

/** An engine tool, media_import, command_list or doc_inspect. */
async function runCommand(session: Session, catalog: readonly ToolInfo[], name: string, args: unknown, context: HostToolContext = {}): Promise<Outcome> {
  if (CORE_TOOLS.some((t) => t.name === name)) return runTool(session, catalog, name, args);
  if (!catalog.some((t) => t.name === name)) return unknownTool(name, catalog);
  const host = session.hostTools?.find((h) => h.name === name);
  if (host) return outcomeOf(await host.call(args, context));
  try {
    const out = name === MEDIA_IMPORT_TOOL.name ? await mediaImport(session, args) : await session.editor.callToolUntyped(name, args);
    return isToolError(out) ? { ok: false, error: out } : { ok: true, result: out };
  } catch (e) {
    return internal(e);
  }
}

function commandListTool(session: Session, catalog: readonly ToolInfo[], args: unknown): Outcome {
  const bad = strict(COMMAND_LIST_TOOL.name, args, ["filter", "enabled_only"]);
  if (bad) return bad;
  const { filter, enabled_only } = (args ?? {}) as Record<string, unknown>;
  if (filter !== undefined && typeof filter !== "string") return failure("filter must be a string", "INVALID_ARGUMENT", { argument: "filter" });
  if (enabled_only !== undefined && typeof enabled_only !== "boolean") {
    return failure("enabled_only must be a boolean", "INVALID_ARGUMENT", { argument: "enabled_only" });
  }
  return { ok: true, result: { commands: commandList(session, catalog, filter, enabled_only) } };
}

async function commandRun(session: Session, catalog: readonly ToolInfo[], args: unknown): Promise<Outcome> {
  const bad = strict(COMMAND_RUN_TOOL.name, args, ["id", "params"]);
  if (bad) return bad;
  const { id, params } = (args ?? {}) as Record<string, unknown>;
  if (typeof id !== "string") return failure("id must be a command id (a tool name) from command_list", "INVALID_ARGUMENT", { argument: "id" });
  if (!runnable(catalog, id)) return unknownTool(id, catalog);
  return runCommand(session, catalog, id, params === undefined ? {} : params);
}

async function commandBatch(session: Session, catalog: readonly ToolInfo[], args: unknown, signal?: AbortSignal): Promise<Outcome> {
  const bad = strict(COMMAND_BATCH_TOOL.name, args, ["steps", "stop_on_error"]);
  if (bad) return bad;
  const { steps, stop_on_error } = (args ?? {}) as Record<string, unknown>;
  if (!Array.isArray(steps) || steps.length === 0) {
    return failure("steps must be a non-empty array of {id, params}", "INVALID_BATCH_STEPS", { hint: 'steps is a list of {"id": name, "params": {...}}' });
  }
  if (stop_on_error !== undefined && typeof stop_on_error !== "boolean") {
    return failure("stop_on_error must be a boolean", "INVALID_ARGUMENT", { argument: "stop_on_error" });
  }
  // Every step is checked before any runs.
  for (const [i, step] of steps.entries()) {
    if (!isObject(step) || typeof step.id !== "string") {
      return failure("steps must be a non-empty array of {id, params}", "INVALID_BATCH_STEPS", { step: i });
    }
    const stepBad = strict("command_batch step", step, ["id", "params"]);
    if (stepBad && !stepBad.ok) return { ok: false, error: { ...stepBad.error, step: i } };
    if (!runnable(catalog, step.id)) {
      const unknown = unknownTool(step.id, catalog);
      return unknown.ok ? unknown : { ok: false, error: { ...unknown.error, step: i } };
    }
  }
  const results: Record<string, unknown>[] = [];
  const images: ResultImage[] = [];
  let completed = 0;
  let failed = 0;
  for (const [i, step] of (steps as { id: string; params?: unknown }[]).entries()) {
    // Each step is one synchronous engine call; between steps the event loop turns, so requests
    // and cancellations that arrived meanwhile are read (an await alone runs only microtasks).
    if (i > 0) await setImmediate();
    // Cancelled (notifications/cancelled): the steps done stay done, the rest never run.
    if (signal?.aborted) break;
    const out = await runCommand(session, catalog, step.id, step.params === undefined ? {} : step.params);
    if (out.ok) {
      completed++;
      results.push({ step: i, id: step.id, ok: true, result: out.result });
      images.push(...(out.images ?? []));
    } else {
      failed++;
      results.push({ step: i, id: step.id, ok: false, error: out.error });
      if (stop_on_error !== false) break;
    }
  }
  return { ok: true, result: { completed, failed, results }, ...(images.length ? { images } : {}) };
}

/** media_import: probe every path first, then add them all (or nothing). */
async function mediaImport(session: Session, args: unknown): Promise<Record<string, unknown>> {
  const checked = hostToolArgs("media_import", args);
  if ("error" in checked) return checked.error;
  const { paths } = checked.args;
  if (!Array.isArray(paths) || paths.length === 0 || paths.some((p) => typeof p !== "string")) {
    return { error: "paths must be a non-empty array of absolute file paths", code: "INVALID_ARGUMENT" };
  }
  const infos: [string, MediaInfo][] = [];
  for (const path of paths as string[]) {
    try {
      infos.push([path, await probeMedia(path)]);
    } catch (e) {
      if (e instanceof MediaProbeError) return { error: e.message, code: "MEDIA_UNREADABLE", path };
      throw e;
    }
  }
  if (session.addMedia) {
    const added = await session.addMedia(infos.map(([path, { format: _format, ...asset }]) => ({ path, asset })));
    if (isToolError(added)) return added;
    const { ids } = added as { ids: string[] };
    return {
      assets: infos.map(([path, { format, ...asset }], i) => {
        session.paths.set(ids[i], path);
        return { id: ids[i], ...asset, format, path };
      }),
    };
  }
  const assets = [];
  for (const [path, info] of infos) {
    const { format, ...asset } = info;
    let id: string;
    try {
      id = session.editor.addAsset({ ...asset, url: pathToFileURL(path).href });
    } catch (e) {
      if ((e as { code?: unknown }).code === "INTERNAL") throw e;
      const added = assets.map((a) => a.id);
      return { error: `Cannot add ${path}: ${e instanceof Error ? e.message : String(e)}`, code: "MEDIA_UNREADABLE", path, ...(added.length ? { added } : {}) };
    }
    session.paths.set(id, path);
    assets.push({ id, ...asset, format, path });
  }
  return { assets };
}
