// `neuralcut mcp --bridge 127.0.0.1:9876`: the MCP server of headless mode, over the live page.
// The page's editor is reached through the control channel; a RemoteEditor mirrors its state
// (reloaded before every MCP request) so the same server and core tools (js/mcp/) run unchanged,
// and every tool call goes to the page as engine.call. Beside them: the ui_* tools. What each tool
// is (text, schemas, annotations) is the Rust registry's catalog, never the page's word.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import process from "node:process";

import type { NeuralCutEditor } from "../editor.js";
import type { ProjectJson, ToolInfo } from "../types.js";
import { createNeuralCutMcpServer } from "../mcp/server.js";
import { LineTransport } from "../mcp/transport.js";
import { hostToolArgs, hostToolInfo, resultOf, toolError, type HostTool, type Outcome } from "../host-tools.js";
import type { ProbedFile, Session } from "../mcp/session.js";
import { RENDER_PREVIEW_TOOL } from "../render-preview.js";
import { TOOL_CATALOG, type HostToolName } from "../generated/tools.js";
import { BridgeCallError, connectControl, parseAddress, type ControlClient } from "./client.js";
import { BRIDGE_ERRORS, TOKEN_ENV } from "./protocol.js";
import { ARGV_TOKEN_WARNING, readTokenFile } from "./token.js";

/** The control-channel method behind each ui_* tool (ui_control names its own). Their catalog
 * entries (text, schemas, annotations, errors) are the Rust registry's (HOST_TOOLS), generated. */
const UI_METHOD: Record<string, string> = {
  ui_inspect: "ui.inspect",
  ui_elements: "ui.elements",
  ui_click: "ui.click",
  ui_drag: "ui.drag",
  ui_key: "ui.key",
  ui_type: "ui.type",
  ui_screenshot: "ui.screenshot",
  ui_control: "",
};

/** The ui_* tools: each is one control-channel method. */
export const UI_TOOLS: (ToolInfo & { method: string })[] = Object.entries(UI_METHOD).map(([name, method]) => {
  const info = hostToolInfo(name as HostToolName);
  // MCP has no untrusted-content hint (registry.rs, Annotations): its listing carries the four.
  const { untrustedContentHint: _hint, ...annotations } = info.annotations;
  return { ...info, annotations, method };
});

/** playhead and selection as ui_inspect's catalog entry describes them (list_timeline carries them in bridge mode). */
const PAGE_STATE = (() => {
  const { playhead, selection } = (hostToolInfo("ui_inspect").outputSchema as { properties: Record<string, unknown> }).properties;
  return { playhead, selection };
})();

/** engine.inspect's answer. */
interface PageState {
  project: ProjectJson;
  canUndo: boolean;
  canRedo: boolean;
  revision: number;
}

/** The page's editor as js/mcp/ sees one: a copy of its state, reloaded by refresh(). */
export class RemoteEditor {
  #tools: ToolInfo[] = [];
  /** Whether the page renders frames (render_preview). */
  renderPreview = false;
  #state: PageState = { project: {} as ProjectJson, canUndo: false, canRedo: false, revision: 0 };

  constructor(private readonly control: ControlClient) {}

  async refresh(): Promise<void> {
    this.#state = (await this.control.call("engine.inspect")) as PageState;
  }

  get state() {
    return this.#state;
  }

  /** Tools the page listed that the registry does not know: not served (nothing says what they do). */
  unknownTools: string[] = [];

  async loadTools(): Promise<void> {
    const { tools, renderPreview } = (await this.control.call("engine.tools")) as { tools?: unknown; renderPreview?: boolean };
    this.renderPreview = renderPreview === true;
    // The page says which tools it serves; the registry says what each is. A page that labels
    // delete_timeline_elements read-only is not believed: the host would skip its confirmation.
    const served = new Set((Array.isArray(tools) ? tools : []).map((t) => (isObject(t) && typeof t.name === "string" ? t.name : "")));
    this.unknownTools = [...served].filter((name) => name && !TOOL_CATALOG.some((t) => t.name === name));
    const registry = (structuredClone(TOOL_CATALOG) as ToolInfo[]).filter((t) => served.has(t.name));
    // In bridge mode list_timeline also says where the playhead and the selection are.
    this.#tools = registry.map((t) =>
      t.name === "list_timeline"
        ? {
            ...t,
            outputSchema: {
              ...t.outputSchema,
              properties: { ...((t.outputSchema as { properties?: object }).properties ?? {}), ...PAGE_STATE },
            },
          }
        : t,
    );
  }

  tools(): ToolInfo[] {
    return this.#tools;
  }

  async callToolUntyped(name: string, args?: unknown): Promise<Record<string, unknown>> {
    const reply = await this.control.request("engine.call", { tool: name, args: args ?? {} });
    await this.refresh().catch(() => {});
    if (reply.ok) return reply.result as Record<string, unknown>;
    // A tool's own error comes back as the tool's error value; a channel failure as INTERNAL.
    if (reply.details && typeof reply.details.error === "string") return reply.details;
    return { error: reply.error, code: reply.code };
  }

  project(): ProjectJson {
    return structuredClone(this.#state.project);
  }
  canUndo(): boolean {
    return this.#state.canUndo;
  }
  canRedo(): boolean {
    return this.#state.canRedo;
  }
  revision(): number {
    return this.#state.revision;
  }
}

/** media_import's last step in bridge mode: the files it probed go to the page as
 * engine.addAssets; the relay grants the page each file under a one-time URL. The errors are
 * headless mode's: `Cannot add <path>: <why>` (MEDIA_UNREADABLE) naming the file. */
export function pageMediaAdder(control: ControlClient, editor: RemoteEditor): NonNullable<Session["addMedia"]> {
  return async (files: ProbedFile[]) => {
    const reply = await control.request("engine.addAssets", { assets: files.map(({ path, asset }) => ({ path, ...asset })) });
    await editor.refresh().catch(() => {});
    if (reply.ok) {
      const ids = (reply.result as { ids?: unknown }).ids;
      if (Array.isArray(ids) && ids.length === files.length && ids.every((id) => typeof id === "string")) return { ids };
      return { error: "the page answered engine.addAssets without the new asset ids", code: BRIDGE_ERRORS.INTERNAL };
    }
    const index = reply.details?.index;
    const path = typeof index === "number" ? files[index]?.path : undefined;
    if (path === undefined) return { error: reply.error, code: reply.code };
    const added = reply.details?.added;
    return { error: `Cannot add ${path}: ${reply.error}`, code: "MEDIA_UNREADABLE", path, ...(Array.isArray(added) && added.length ? { added } : {}) };
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A page's MCP-shaped answer as a session outcome: pictures ride beside the result. */
function outcome(r: CallToolResult): Outcome {
  const blocks = (r.content ?? []) as { type: string; text?: string; data?: string; mimeType?: string }[];
  if (r.isError) {
    const detail = blocks.find((b, i) => i > 0 && b.type === "text" && b.text?.startsWith("{"));
    if (detail?.text) {
      try {
        return { ok: false, error: JSON.parse(detail.text) };
      } catch {
        // fall through to the plain message
      }
    }
    return { ok: false, error: { error: blocks[0]?.text ?? "the page failed", code: BRIDGE_ERRORS.INTERNAL } };
  }
  const images = blocks.filter((b) => b.type === "image").map((b) => ({ type: "image" as const, data: b.data!, mimeType: b.mimeType! }));
  const result = (r.structuredContent as Record<string, unknown> | undefined) ?? {};
  return { ok: true, result, ...(images.length ? { images } : {}) };
}

function failed(e: unknown): Outcome {
  const message = e instanceof Error ? e.message : String(e);
  const code = e instanceof BridgeCallError ? e.code : BRIDGE_ERRORS.INTERNAL;
  return { ok: false, error: { error: message, code } };
}

/** The ui_* tools, as host tools of the MCP session (so command_run and command_batch reach them). */
export function uiTools(control: ControlClient): HostTool[] {
  return UI_TOOLS.map(({ method, ...info }) => ({
    ...info,
    call: async (input: unknown) => resultOf(await uiCall(control, info.name as HostToolName, method, input)),
  }));
}

/** One ui_* call: the engine's strict rule from the tool's catalog schema, then its method. */
async function uiCall(control: ControlClient, name: HostToolName, method: string, input: unknown): Promise<Outcome> {
  const checked = hostToolArgs(name, input);
  if ("error" in checked) return { ok: false, error: checked.error };
  const args = checked.args;
  let target = method;
  let params = args;
  if (name === "ui_control") {
    if (typeof args.method !== "string") return { ok: false, error: toolError("method must be a control-channel method name, e.g. ui.set", "INVALID_PARAMS") };
    if (args.params !== undefined && !isObject(args.params)) return { ok: false, error: toolError("params must be a JSON object", "INVALID_PARAMS") };
    target = args.method;
    params = (args.params as Record<string, unknown>) ?? {};
    // The generic route reaches no more than the named tools: the channel's own plumbing
    // stays the server's, and the server writes no file (ui_screenshot returns the PNG).
    if (target === "auth" || target === "relay.subscribe") {
      return {
        ok: false,
        error: toolError(`ui_control cannot call ${target}: the server holds the channel's token and subscription`, "INVALID_PARAMS", { argument: "method" }),
      };
    }
    if (target === "ui.screenshot" && params.path !== undefined) {
      return {
        ok: false,
        error: toolError(
          "ui_control writes no file: ui.screenshot's path is for plain control-channel clients; the PNG comes back as an image block (or use ui_screenshot)",
          "INVALID_PARAMS",
          { argument: "params.path" },
        ),
      };
    }
  }
  try {
    const result = await control.call(target, params);
    if (target === "ui.screenshot" && isObject(result) && typeof result.png === "string") {
      const { png, ...rest } = result;
      return { ok: true, result: rest, images: [{ type: "image", data: png, mimeType: "image/png" }] };
    }
    return { ok: true, result: isObject(result) ? result : { result } };
  } catch (e) {
    return failed(e);
  }
}

/** The MCP server over the page behind `address` (not yet connected to a transport). */
export async function createBridgeMcpServer(options: { address: string; token: string; version?: string }) {
  const { host, port } = parseAddress(options.address);
  const control = await connectControl({ host, port, token: options.token });
  const editor = new RemoteEditor(control);
  await control.call("relay.subscribe", { events: ["engine.changed"] });
  await editor.loadTools();
  await editor.refresh();
  const server = createNeuralCutMcpServer(editor as unknown as NeuralCutEditor, {
    version: options.version,
    hostTools: [
      ...uiTools(control),
      // detect_silences and detect_scenes measure in the page: it holds the bytes and WebCodecs.
      ...(["detect_silences", "detect_scenes"] as const).map((name) => measuredInPage(control, name)),
      // render_preview is drawn in the page, by its own renderer (the playhead stays where it is).
      ...(editor.renderPreview
        ? [
            {
              ...RENDER_PREVIEW_TOOL,
              async call(input: unknown): Promise<Record<string, unknown>> {
                // The strict rule here too, so a bad call gets the engine's message whichever side draws.
                const checked = hostToolArgs("render_preview", input);
                if ("error" in checked) return checked.error;
                const reply = await control.request("engine.render_preview", checked.args);
                return resultOf(
                  reply.ok ? outcome(reply.result as CallToolResult) : { ok: false, error: toolError(reply.error, reply.code ?? BRIDGE_ERRORS.INTERNAL) },
                );
              },
            },
          ]
        : []),
    ],
    host: {
      beforeRequest: () => editor.refresh(),
      addMedia: pageMediaAdder(control, editor),
      // The user's own edits in the page (and undo, redo there) reach subscribers too.
      watch: (changed) =>
        control.onEvent((event, params) => {
          if (event === "engine.changed" && typeof params.revision === "number") changed(params.revision);
        }),
    },
  });
  return { server, control, editor };
}

/** A media-measuring host tool answered by the page (engine.measure): the strict rule here first,
 * so a bad call gets the engine's words without a round trip; the page's tool error as it is. */
function measuredInPage(control: ControlClient, name: "detect_silences" | "detect_scenes"): HostTool {
  return {
    ...(hostToolInfo(name) as unknown as HostTool),
    async call(input: unknown): Promise<Record<string, unknown>> {
      const checked = hostToolArgs(name, input);
      if ("error" in checked) return checked.error;
      const reply = await control.request("engine.measure", { tool: name, args: checked.args });
      if (reply.ok) return reply.result as Record<string, unknown>;
      // The page's refusal carries the tool's whole error value (its hint and data) as details.
      const value = reply.details;
      return value && typeof value.error === "string" ? value : toolError(reply.error, reply.code ?? BRIDGE_ERRORS.INTERNAL);
    },
  };
}

/** Runs `neuralcut mcp --bridge` on stdio until stdin closes. The token: --token-file, else
 * --token (with a warning: other users can read a process's arguments), else $NEURALCUT_BRIDGE_TOKEN. */
export async function runBridgeMcp(address: string, given: { token?: string; tokenFile?: string }, version: string): Promise<void> {
  let key = given.token ?? process.env[TOKEN_ENV];
  if (given.token !== undefined) process.stderr.write(`neuralcut mcp: ${ARGV_TOKEN_WARNING}\n`);
  if (given.tokenFile !== undefined) {
    try {
      key = await readTokenFile(given.tokenFile);
    } catch (e) {
      process.stderr.write(`neuralcut mcp: ${(e as Error).message}\n`);
      process.exit(2);
    }
  }
  if (!key) {
    process.stderr.write(`neuralcut mcp: --bridge needs the token the relay printed (--token-file <path> or ${TOKEN_ENV})\n`);
    process.exit(2);
  }
  let made: Awaited<ReturnType<typeof createBridgeMcpServer>>;
  try {
    made = await createBridgeMcpServer({ address, token: key, version });
  } catch (e) {
    process.stderr.write(`neuralcut mcp: cannot reach the page through ${address}: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const { server, control, editor } = made;
  if (editor.unknownTools.length)
    process.stderr.write(`neuralcut mcp: not serving the page's tools ${editor.unknownTools.join(", ")}: the registry does not know them\n`);
  server.onerror = (e) => process.stderr.write(`neuralcut mcp: ${e.message}\n`);
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(new LineTransport());
  process.stderr.write(`neuralcut mcp: serving the page behind ${address} on stdio\n`);
  await closed;
  control.close();
}
