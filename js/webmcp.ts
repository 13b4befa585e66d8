// `neuralcut/webmcp`: the editor's tools registered with the page's WebMCP model context
// (`document.modelContext`, or `navigator.modelContext` where only that exists), so an agent in
// the browser calls the same tools, with the same schemas, as MCP clients do. The annotations
// carry WebMCP's own hints next to MCP's, derived from the registry (see webMcpAnnotations).
import { isToolError, type NeuralCutEditor } from "./editor.js";
import { asNeuralCutError, NeuralCutError } from "./errors.js";
import { UNTRUSTED_OUTPUT_TOOLS } from "./generated/tools.js";
import { errorResult, successResult, type ToolResult } from "./tool-result.js";
import type { ToolInfo } from "./types.js";
import { renderPreviewTool, type PreviewRenderer } from "./render-preview.js";
import { type CheckRenderer, checkTimelineTool } from "./check/index.js";
import { detectSilencesTool } from "./detect-silences.js";
import { detectScenesTool } from "./detect-scenes.js";
import { outcomeOf, toolResultOf, type HostTool, withHostTools } from "./host-tools.js";

/** What a WebMCP tool's `execute` resolves to: an MCP CallToolResult. */
export type WebMcpToolResult = ToolResult;

/** The tool descriptor handed to `registerTool`. */
export interface WebMcpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Read by runtimes that understand it (the MCP-B polyfill); others ignore it. */
  outputSchema?: Record<string, unknown>;
  annotations: WebMcpAnnotations;
  execute(input: Record<string, unknown> | undefined): Promise<WebMcpToolResult>;
}

/** MCP's four hints plus WebMCP's: what an agent browser confirms, and what it distrusts. */
export interface WebMcpAnnotations {
  /** Only reads, and nothing leaves the page: false for tools that upload media. */
  readOnlyHint: boolean;
  /** Deletes or replaces the user's work, or sends their media to a third party: confirm first. */
  consequentialHint: boolean;
  /** The output carries text made by users or models (names, element text, summaries, transcripts). */
  untrustedContentHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Tools whose output carries text made by users or models, from the registry (`untrusted_content`).
 * tests/js/webmcp.test.mjs runs every tool on a project whose names and texts are crafted and checks
 * that each answer carrying them is marked. */
const UNTRUSTED = new Set<string>(UNTRUSTED_OUTPUT_TOOLS);

/**
 * WebMCP annotations of a catalog entry, from the registry. Chromium's WebMCP reads readOnlyHint,
 * consequentialHint and untrustedContentHint; the MCP-B polyfill keeps readOnlyHint,
 * untrustedContentHint and MCP's four (it has no consequentialHint: destructiveHint says it there).
 * A tool that reaches outside the page (openWorldHint: load_asset_context uploads the asset to
 * Gemini) is consequential and not a plain read, even though it changes nothing in the project.
 */
export function webMcpAnnotations(tool: { name: string; annotations: ToolInfo["annotations"] & { untrustedContentHint?: boolean } }): WebMcpAnnotations {
  const a = tool.annotations;
  return {
    readOnlyHint: a.readOnlyHint && !a.openWorldHint,
    consequentialHint: a.destructiveHint || a.openWorldHint,
    untrustedContentHint: a.untrustedContentHint === true || UNTRUSTED.has(tool.name),
    destructiveHint: a.destructiveHint,
    idempotentHint: a.idempotentHint,
    openWorldHint: a.openWorldHint,
  };
}

/** The part of a WebMCP model context this module uses. Current drafts take `{ signal }` to
 * unregister; older runtimes return `{ unregister() }` or offer `unregisterTool(name)`. */
export interface WebMcpModelContext {
  registerTool(tool: WebMcpTool, options?: { signal?: AbortSignal }): unknown;
  unregisterTool?(name: string): unknown;
}

export interface RegisterWebMcpToolsOptions {
  /** The model context (default: `document.modelContext`, else `navigator.modelContext`). */
  modelContext?: WebMcpModelContext;
  /** Aborting it unregisters every tool registered here. */
  signal?: AbortSignal;
  /** Register only these tools (default: all of `editor.tools()`, plus render_preview with a renderer). */
  tools?: string[];
  /**
   * A `neuralcut/render` frame renderer (`createFrameRenderer({ editor })`): adds the read-only
   * `render_preview { time, width? }` tool, which returns the frame as an image/png block plus a
   * short JSON description.
   */
  renderer?: PreviewRenderer;
}

export interface WebMcpRegistration {
  /** The registered tool names, in catalog order. */
  names: string[];
  /** Unregisters them (the same as aborting `signal`); safe to call twice. */
  unregister(): void;
}

/** `document.modelContext`, else `navigator.modelContext`, else undefined. */
export function findModelContext(): WebMcpModelContext | undefined {
  const g = globalThis as { document?: { modelContext?: WebMcpModelContext }; navigator?: { modelContext?: WebMcpModelContext } };
  return g.document?.modelContext ?? g.navigator?.modelContext;
}

/** Runs one tool for WebMCP: the output as structuredContent plus its JSON as text, or an
 * isError result whose first text block is the engine's message and second the whole error
 * value as JSON. */
export async function runToolForWebMcp(editor: NeuralCutEditor, name: string, input: unknown): Promise<WebMcpToolResult> {
  let out: Record<string, unknown>;
  try {
    out = await editor.callToolUntyped(name, input ?? {});
  } catch (e) {
    out = { error: `internal error: ${e instanceof Error ? e.message : String(e)}`, code: "INTERNAL" };
  }
  return isToolError(out) ? errorResult(out) : successResult(out);
}

/** Registers the editor's tools with the page's WebMCP model context. Resolves once every tool
 * is registered; if one registration fails, the ones before it are unregistered and the error is
 * thrown. Throws NeuralCutError WEBMCP_UNAVAILABLE when there is no model context. */
export async function registerWebMcpTools(editor: NeuralCutEditor, options: RegisterWebMcpToolsOptions = {}): Promise<WebMcpRegistration> {
  const modelContext = options.modelContext ?? findModelContext();
  if (!modelContext || typeof modelContext.registerTool !== "function") {
    throw new NeuralCutError(
      "WEBMCP_UNAVAILABLE",
      "No WebMCP model context: neither document.modelContext nor navigator.modelContext exists (load a polyfill such as @mcp-b/global, or pass options.modelContext)",
    );
  }
  // Tools answered in the page go through the one host-tool contract (js/host-tools.ts).
  // check_timeline with the host's kinds (js/check/): black and frozen where the renderer reads pixels back.
  const renderer = options.renderer;
  const check = checkTimelineTool(editor, renderer && "readPixels" in renderer ? async () => renderer as unknown as CheckRenderer : undefined);
  const hostTools: HostTool[] = [
    detectSilencesTool(editor),
    detectScenesTool(editor),
    ...(renderer ? [renderPreviewTool(renderer)] : []),
    ...(check ? [check] : []),
  ];
  let catalog: ToolInfo[] = withHostTools(editor.tools(), hostTools);
  if (options.tools) {
    const wanted = new Set(options.tools);
    const unknown = options.tools.filter((n) => !catalog.some((t) => t.name === n));
    if (unknown.length) throw new NeuralCutError("UNKNOWN_TOOL", `Unknown tool ${unknown.map((n) => JSON.stringify(n)).join(", ")}`);
    catalog = catalog.filter((t) => wanted.has(t.name));
  }

  // One controller for everything registered here: it fires on the caller's signal or unregister().
  const controller = new AbortController();
  const undo: (() => void)[] = [];
  const unregister = () => {
    if (controller.signal.aborted) return;
    controller.abort();
    for (const u of undo.splice(0).reverse()) {
      try {
        u();
      } catch {
        // already gone (the runtime honoured the signal first)
      }
    }
  };
  const outer = options.signal;
  if (outer?.aborted) return { names: [], unregister };
  outer?.addEventListener("abort", unregister, { once: true });

  const names: string[] = [];
  try {
    for (const t of catalog) {
      const tool: WebMcpTool = {
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
        annotations: webMcpAnnotations(t),
        execute: async (input) => {
          const host = hostTools.find((h) => h.name === t.name);
          return host ? toolResultOf(outcomeOf(await host.call(input))) : runToolForWebMcp(editor, t.name, input);
        },
      };
      const handle = await modelContext.registerTool(tool, { signal: controller.signal });
      names.push(t.name);
      if (handle && typeof (handle as { unregister?: unknown }).unregister === "function") {
        undo.push(() => (handle as { unregister(): void }).unregister());
      } else if (typeof modelContext.unregisterTool === "function") {
        undo.push(() => {
          void Promise.resolve(modelContext.unregisterTool!(t.name)).catch(() => {});
        });
      }
      if (controller.signal.aborted) break; // aborted while registering
    }
  } catch (e) {
    unregister();
    outer?.removeEventListener("abort", unregister);
    // The page's model context refused a tool: the whole registration is undone.
    throw asNeuralCutError(e, "WEBMCP_UNAVAILABLE", "the page's model context refused a tool: ");
  }
  return { names, unregister };
}
