// The MCP server over an editor: every engine tool (plus media_import) with its title,
// description, schemas and the four annotations; results as structuredContent plus the same JSON
// as text; a tool's own error as an isError result carrying the engine's message; an unknown
// argument or tool as a JSON-RPC -32602 error; the project and the tool catalog as resources.
// Built on the SDK's low-level Server so the engine's JSON Schemas go out unchanged.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import process from "node:process";

import type { NeuralCutEditor } from "../editor.js";
import type { ToolErrorResult, ToolInfo } from "../types.js";
import { commandList, docInspect, MEDIA_IMPORT_TOOL, runTool, sessionCatalog } from "./core.js";
import { resultOf, type HostTool, type Outcome, type ResultImage } from "../host-tools.js";
import { saveSession, writeAtomic, type Session } from "./session.js";
import { errorResult, successResult } from "../tool-result.js";
import type { ExportJobs } from "./export-tools.js";

/** The project as saved (kept from before the core tools). */
export const PROJECT_URI = "neuralcut://project";
/** The catalog with schemas (kept from before the core tools). */
export const TOOLS_URI = "neuralcut://tools";
/** The document as doc_inspect returns it. */
export const DOCUMENT_URI = "neuralcut://document";
/** The commands as command_list returns them (with enabled now). */
export const COMMANDS_URI = "neuralcut://commands";
/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;
/** The first MCP revision whose cacheable results carry ttlMs and cacheScope. */
export const CACHE_HINTS_REVISION = "2026-07-28";
/** Where a 2026-07-28 request names its revision (it has no initialize handshake). */
const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";
/** The unlisted test-only tool, served only when NEURALCUT_TEST_ONLY_PANIC=1 (docs/mcp.md). */
export const TEST_ONLY_PANIC_TOOL = "__test_only_panic";

export { MEDIA_IMPORT_TOOL, writeAtomic };

export interface NeuralCutMcpOptions {
  /** Write the project here (temporary file, then rename) after every change. */
  savePath?: string;
  /** Reported in `initialize` (default: the package version). */
  version?: string;
  /** Absolute media path of each asset id (from the opened project); media_import adds to it. */
  paths?: Map<string, string>;
  /** Serve the unlisted __test_only_panic tool (tests only). */
  testOnlyPanic?: boolean;
  /** Tools the Node side answers (render_preview from js/render-headless.ts, the bridge's ui_*
   * tools): listed after the core tools and run directly or through command_run and command_batch. */
  hostTools?: readonly HostTool[];
  /** Bridge mode (js/bridge/mcp.ts): tools the session cannot serve, a hook run before every
   * call and read, where media_import adds its files, and changes made elsewhere (the user's
   * hand edits in the page), told with the new revision so subscribers hear of them too. */
  host?: {
    omit?: readonly string[];
    beforeRequest?: () => Promise<void>;
    addMedia?: Session["addMedia"];
    watch?: (changed: (revision: number) => void) => void;
  };
  /** Adds export_video, jobs_list and jobs_cancel (js/mcp/export-tools.ts): answered with the
   * request's progress token and cancellation when called directly, and as host tools (without
   * progress) through command_run and command_batch. */
  exportJobs?: Pick<ExportJobs, "tools" | "handles" | "call">;
}

const INSTRUCTIONS =
  "NeuralCut video timeline. Times are in seconds. Start with doc_inspect (or list_timeline and list_project_assets) to get ids; " +
  "every edit is one undoable step (undo / redo tools); batch runs several calls as one step, command_batch runs them as separate steps. " +
  `The document is the resource ${DOCUMENT_URI}, the command catalog ${COMMANDS_URI}.`;

/** A JSON-RPC error the SDK sends as is: `{ code, message, data }`. */
function rpcError(code: number, message: string, data?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code, data });
}

/** A handler whose unexpected throws reach the client as -32603 `internal error: …` (the SDK
 * would send the bare message), and whose JSON-RPC errors go out as they are. */
function guarded<A extends unknown[], R>(handler: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (e) {
      if (Number.isSafeInteger((e as { code?: unknown })?.code)) throw e;
      const text = message(e);
      throw rpcError(ErrorCode.InternalError, text.startsWith("internal error:") ? text : `internal error: ${text}`);
    }
  };
}

function toMcpTool(t: ToolInfo): Tool {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as Tool["inputSchema"],
    outputSchema: t.outputSchema as Tool["outputSchema"],
    annotations: { title: t.title, ...t.annotations },
  };
}

function ok(out: Record<string, unknown>, warnings: string[] = [], images: ResultImage[] = []): CallToolResult {
  return successResult(out, images, warnings) as CallToolResult;
}

function failed(error: Record<string, unknown> & { error: string }): CallToolResult {
  return errorResult(error) as CallToolResult;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The cache hints of a 2026-07-28 cacheable result, only for a request of that revision or
 * later (older revisions do not define the fields). */
function cacheHints(request: { params?: { _meta?: Record<string, unknown> } }, ttlMs: number, cacheScope: "public" | "private"): Record<string, unknown> {
  const version = request.params?._meta?.[PROTOCOL_VERSION_META];
  return typeof version === "string" && version >= CACHE_HINTS_REVISION ? { ttlMs, cacheScope } : {};
}

/** A fixed listing stays fresh for an hour; a document changes with every edit. */
const STATIC_TTL_MS = 3_600_000;

/** MCP's shape of a tool outcome: the error codes that mean a bad call become -32602. */
function shaped(out: Outcome, warnings: string[] = []): CallToolResult {
  if (out.ok) return ok(out.result, warnings, out.images);
  const { error, code, ...data } = out.error as ToolErrorResult;
  if (code === "UNKNOWN_ARGUMENT" || code === "UNKNOWN_TOOL" || code === "INVALID_PARAMS") throw rpcError(ErrorCode.InvalidParams, error, { code, ...data });
  return failed(out.error);
}

/** An MCP server (not yet connected) that drives `editor`. */
export function createNeuralCutMcpServer(editor: NeuralCutEditor, options: NeuralCutMcpOptions = {}): Server {
  // The export tools are commands too (command_run runs them without progress); a direct call
  // below passes the request's progress token and cancellation.
  const exportTools: HostTool[] = (options.exportJobs?.tools ?? []).map((info) => ({
    ...info,
    call: async (args, context) => resultOf(await options.exportJobs!.call(info.name, args, context)),
  }));
  const session: Session = {
    editor,
    paths: options.paths ?? new Map(),
    hostTools: [...(options.hostTools ?? []), ...exportTools],
    addMedia: options.host?.addMedia,
  };
  const omit = new Set(options.host?.omit ?? []);
  const catalog = sessionCatalog(editor, session.hostTools).filter((t) => !omit.has(t.name));
  const tools = catalog.map(toMcpTool);
  const subscribed = new Set<string>();

  const server = new Server(
    { name: "neuralcut", title: "NeuralCut", version: options.version ?? "0.0.0" },
    {
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: false } },
      instructions: INSTRUCTIONS,
    },
  );

  /** Tells subscribers that the project is now at `revision`, once per revision (a change made
   * through this server and seen again as the page's event is told once). */
  let told = editor.revision();
  function notify(revision: number): void {
    if (revision === told) return;
    told = revision;
    for (const uri of [PROJECT_URI, DOCUMENT_URI, COMMANDS_URI]) {
      if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
    }
  }
  options.host?.watch?.(notify);

  /** After a call: save and notify subscribers if the project changed. Returns warnings. */
  function committed(before: number): string[] {
    if (editor.revision() === before) return [];
    const warnings: string[] = [];
    if (options.savePath) {
      try {
        saveSession(session, options.savePath);
      } catch (e) {
        warnings.push(`warning: the change was made but could not be saved to ${options.savePath}: ${message(e)}`);
        process.stderr.write(`neuralcut mcp: ${warnings[0]}\n`);
      }
    }
    notify(editor.revision());
    return warnings;
  }

  server.setRequestHandler(ListToolsRequestSchema, (request) => ({ tools, ...cacheHints(request, STATIC_TTL_MS, "public") }));

  server.setRequestHandler(
    CallToolRequestSchema,
    guarded(async (request, extra) => {
      const { name } = request.params;
      const args = request.params.arguments ?? {};
      await options.host?.beforeRequest?.();
      const before = editor.revision();
      if (options.testOnlyPanic && name === TEST_ONLY_PANIC_TOOL) return shaped(testOnlyPanic(editor, args));
      if (options.exportJobs?.handles(name)) {
        const progressToken = request.params._meta?.progressToken;
        return shaped(await options.exportJobs.call(name, args, { signal: extra.signal, progressToken, notify: (n) => extra.sendNotification(n) }));
      }
      const progressToken = request.params._meta?.progressToken;
      const out = await runTool(session, catalog, name, args, extra.signal, { progressToken, notify: (n) => extra.sendNotification(n) });
      return shaped(out, out.ok ? committed(before) : []);
    }),
  );

  const resources = [
    {
      uri: PROJECT_URI,
      name: "project",
      title: "Project document",
      description: "The whole project (settings, assets, stickers, timeline; times in ticks of 1/120000 s), as saved and loaded by the engine.",
      mimeType: "application/json",
    },
    {
      uri: TOOLS_URI,
      name: "tools",
      title: "Tool catalog",
      description: "Every tool with its title, description, input and output JSON Schemas and annotations, in listing order.",
      mimeType: "application/json",
    },
    {
      uri: DOCUMENT_URI,
      name: "document",
      title: "Document",
      description: "Settings, assets (with file paths when known), stickers and the timeline in one JSON value, as doc_inspect returns it.",
      mimeType: "application/json",
    },
    {
      uri: COMMANDS_URI,
      name: "commands",
      title: "Command catalog",
      description: "Every command with its parameters and whether it is enabled now, as command_list returns it.",
      mimeType: "application/json",
    },
  ];

  server.setRequestHandler(ListResourcesRequestSchema, (request) => ({ resources, ...cacheHints(request, STATIC_TTL_MS, "public") }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => ({ resourceTemplates: [], ...cacheHints(request, STATIC_TTL_MS, "public") }));
  server.setRequestHandler(
    ReadResourceRequestSchema,
    guarded(async (request) => {
      const { uri } = request.params;
      await options.host?.beforeRequest?.();
      let text: string;
      // The catalog is fixed for the process; everything else changes with the next edit.
      let hints = cacheHints(request, 0, "private");
      if (uri === DOCUMENT_URI) text = JSON.stringify(await docInspect(session));
      else if (uri === COMMANDS_URI) text = JSON.stringify({ commands: commandList(session, catalog) });
      else if (uri === PROJECT_URI) text = JSON.stringify(editor.project());
      else if (uri === TOOLS_URI) {
        text = JSON.stringify({ tools: catalog });
        hints = cacheHints(request, STATIC_TTL_MS, "public");
      } else throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri, known: resources.map((r) => r.uri) });
      return { contents: [{ uri, mimeType: "application/json", text }], ...hints };
    }),
  );
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    const { uri } = request.params;
    if (!resources.some((r) => r.uri === uri)) throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    subscribed.add(uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  return server;
}

/** __test_only_panic {tool, args?, message?}: runs the tool inside the engine, then panics there. */
function testOnlyPanic(editor: NeuralCutEditor, args: Record<string, unknown>): Outcome {
  const tool = typeof args.tool === "string" ? args.tool : "list_timeline";
  const text = typeof args.message === "string" ? args.message : "test-only panic";
  const provoke = (editor as unknown as Record<symbol, (t: string, a: unknown, m: string) => void>)[Symbol.for("neuralcut.testOnlyPanic")];
  try {
    provoke.call(editor, tool, args.args ?? {}, text);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { ok: false, error: { error: e instanceof Error ? e.message : String(e), code: typeof code === "string" ? code : "INTERNAL" } };
  }
  return { ok: false, error: { error: "the test-only panic did not panic", code: "INTERNAL" } };
}
