// `neuralcut mcp --bridge 127.0.0.1:9876`: the MCP server of headless mode, over the live page.
// The page's editor is reached through the control channel; a RemoteEditor mirrors its state
// (reloaded before every MCP request) so the same server and core tools (js/mcp/) run unchanged,
// and every tool call goes to the page as engine.call. Beside them: the ui_* tools.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import process from "node:process";

import type { NeuralCutEditor } from "../editor.js";
import type { ProjectJson, ToolInfo } from "../types.js";
import { createNeuralCutMcpServer } from "../mcp/server.js";
import { LineTransport } from "../mcp/transport.js";
import { MEDIA_IMPORT_TOOL, type HostTool, type Outcome } from "../mcp/core.js";
import { RENDER_PREVIEW_TOOL } from "../render-preview.js";
import { BridgeCallError, connectControl, parseAddress, type ControlClient } from "./client.js";
import { BRIDGE_ERRORS, TOKEN_ENV } from "./protocol.js";

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** A click or key may run any command of the page, an edit included. */
const ACTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  $schema: SCHEMA,
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});
const WHERE = {
  description: "An automation id from ui_elements, or {x, y} in page pixels",
  oneOf: [{ type: "string" }, { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"], additionalProperties: false }],
};
const MODIFIERS = { type: "array", items: { type: "string", enum: ["Ctrl", "Shift", "Alt", "Cmd"] }, description: "Keys held down" };

const tool = (t: ToolInfo & { method: string }) => t;

/** The ui_* tools: each is one control-channel method. */
export const UI_TOOLS = [
  tool({
    name: "ui_inspect" as ToolInfo["name"],
    method: "ui.inspect",
    title: "Inspect the editor's UI",
    description: "The UI state of the page the user has open: playhead (seconds), selection (element ids), zoom (pixels per second), playing, visible panels. Reads only.",
    inputSchema: object({}),
    outputSchema: { $schema: SCHEMA, type: "object" },
    annotations: READ_ONLY,
  }),
  tool({
    name: "ui_elements" as ToolInfo["name"],
    method: "ui.elements",
    title: "List on-screen elements",
    description: "Every visible interactive element with its automation id, label, role and rectangle (page pixels); prefix keeps the ids that start with it (e.g. \"timeline.\"). Use the ids with ui_click and ui_drag. Reads only.",
    inputSchema: object({ prefix: { type: "string", description: "Keep ids starting with this" } }),
    outputSchema: { $schema: SCHEMA, type: "object", properties: { elements: { type: "array", items: { type: "object" } } }, required: ["elements"] },
    annotations: READ_ONLY,
  }),
  tool({
    name: "ui_click" as ToolInfo["name"],
    method: "ui.click",
    title: "Click",
    description: "Click an element by automation id, or a point {x, y}, as a user would: press, release, click (count 2: double click). Clicking a timeline element selects it.",
    inputSchema: object({
      id: { type: "string", description: "Automation id from ui_elements" },
      x: { type: "number" },
      y: { type: "number" },
      button: { type: "string", enum: ["left", "middle", "right"] },
      count: { type: "integer", minimum: 1, maximum: 3 },
      modifiers: MODIFIERS,
    }),
    outputSchema: { $schema: SCHEMA, type: "object" },
    annotations: ACTS,
  }),
  tool({
    name: "ui_drag" as ToolInfo["name"],
    method: "ui.drag",
    title: "Drag",
    description: "Press on from, move to to (or by dx, dy pixels) in steps, release: moves timeline elements, trims their edges (the .trim-start / .trim-end handles), drags the playhead. ui_inspect's zoom gives pixels per second.",
    inputSchema: object(
      {
        from: WHERE,
        to: WHERE,
        dx: { type: "number", description: "Pixels right (instead of to)" },
        dy: { type: "number", description: "Pixels down (instead of to)" },
        steps: { type: "integer", minimum: 1, maximum: 100 },
        modifiers: MODIFIERS,
      },
      ["from"],
    ),
    outputSchema: { $schema: SCHEMA, type: "object" },
    annotations: ACTS,
  }),
  tool({
    name: "ui_key" as ToolInfo["name"],
    method: "ui.key",
    title: "Press a key",
    description: 'A key or shortcut sent to the focused element: "Space" (play/pause), "S" (split at the playhead), "Delete", "Ctrl+Z", "Ctrl+Shift+Z", "Shift+Delete".',
    inputSchema: object({ key: { type: "string" } }, ["key"]),
    outputSchema: { $schema: SCHEMA, type: "object" },
    annotations: ACTS,
  }),
  tool({
    name: "ui_type" as ToolInfo["name"],
    method: "ui.type",
    title: "Type text",
    description: "Type text into the focused field (or the field with automation id id).",
    inputSchema: object({ text: { type: "string" }, id: { type: "string", description: "Focus this field first" } }, ["text"]),
    outputSchema: { $schema: SCHEMA, type: "object" },
    annotations: ACTS,
  }),
  tool({
    name: "ui_screenshot" as ToolInfo["name"],
    method: "ui.screenshot",
    title: "Screenshot the page",
    description: "A PNG of the page as the user sees it, or of one panel (preview, timeline, tools, agent). Reads only.",
    inputSchema: object({ panel: { type: "string", description: "A panel name from ui_inspect, or an automation id" } }),
    outputSchema: { $schema: SCHEMA, type: "object", properties: { width: { type: "integer" }, height: { type: "integer" } }, required: ["width", "height"] },
    annotations: READ_ONLY,
  }),
  tool({
    name: "ui_control" as ToolInfo["name"],
    method: "",
    title: "Call a control-channel method",
    description: "Any control-channel method with its params, e.g. ui.set {playhead: 2}, engine.inspect, engine.undo (docs/bridge.md lists them).",
    inputSchema: object({ method: { type: "string" }, params: { type: "object" } }, ["method"]),
    outputSchema: { $schema: SCHEMA, type: "object" },
    annotations: ACTS,
  }),
];

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

  async loadTools(): Promise<void> {
    const { tools, renderPreview } = (await this.control.call("engine.tools")) as { tools: ToolInfo[]; renderPreview?: boolean };
    this.renderPreview = renderPreview === true;
    // In bridge mode list_timeline also says where the playhead and the selection are.
    this.#tools = tools.map((t) =>
      t.name === "list_timeline"
        ? {
            ...t,
            outputSchema: {
              ...t.outputSchema,
              properties: {
                ...((t.outputSchema as { properties?: object }).properties ?? {}),
                playhead: { type: "number", description: "The page's playhead, in seconds" },
                selection: { type: "array", items: { type: "string" }, description: "Element ids selected in the page" },
              },
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
  addAsset(): string {
    throw new Error("media_import is not available in bridge mode: import media in the page");
  }
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
    info: info as ToolInfo,
    async run(input: unknown): Promise<Outcome> {
      const args = isObject(input) ? input : {};
      const accepted = Object.keys((info.inputSchema as { properties: object }).properties);
      for (const key of Object.keys(args)) {
        if (!accepted.includes(key)) {
          const expected = [...accepted].sort().join(", ") || "no arguments";
          return { ok: false, error: { error: `unknown argument "${key}" for ${info.name}; expected: ${expected}`, code: "UNKNOWN_ARGUMENT", argument: key, accepted } };
        }
      }
      let target = method;
      let params = args;
      if ((info.name as string) === "ui_control") {
        if (typeof args.method !== "string") return { ok: false, error: { error: "method must be a control-channel method name, e.g. ui.set", code: "INVALID_PARAMS" } };
        if (args.params !== undefined && !isObject(args.params)) return { ok: false, error: { error: "params must be a JSON object", code: "INVALID_PARAMS" } };
        target = args.method;
        params = (args.params as Record<string, unknown>) ?? {};
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
    },
  }));
}

/** The MCP server over the page behind `address` (not yet connected to a transport). */
export async function createBridgeMcpServer(options: { address: string; token: string; version?: string }) {
  const { host, port } = parseAddress(options.address);
  const control = await connectControl({ host, port, token: options.token });
  const editor = new RemoteEditor(control);
  await editor.loadTools();
  await editor.refresh();
  const server = createNeuralCutMcpServer(editor as unknown as NeuralCutEditor, {
    version: options.version,
    hostTools: [
      ...uiTools(control),
      // render_preview is drawn in the page, by its own renderer (the playhead stays where it is).
      ...(editor.renderPreview
        ? [
            {
              info: RENDER_PREVIEW_TOOL,
              async run(args: unknown): Promise<Outcome> {
                const reply = await control.request("engine.render_preview", isObject(args) ? args : {});
                return reply.ok ? outcome(reply.result as CallToolResult) : { ok: false, error: { error: reply.error, code: reply.code ?? BRIDGE_ERRORS.INTERNAL } };
              },
            },
          ]
        : []),
    ],
    host: {
      omit: [MEDIA_IMPORT_TOOL.name],
      beforeRequest: () => editor.refresh(),
    },
  });
  return { server, control, editor };
}

/** Runs `neuralcut mcp --bridge` on stdio until stdin closes. */
export async function runBridgeMcp(address: string, token: string | undefined, version: string): Promise<void> {
  const key = token ?? process.env[TOKEN_ENV];
  if (!key) {
    process.stderr.write(`neuralcut mcp: --bridge needs the token the relay printed (--token T or ${TOKEN_ENV})\n`);
    process.exit(2);
  }
  let made: Awaited<ReturnType<typeof createBridgeMcpServer>>;
  try {
    made = await createBridgeMcpServer({ address, token: key, version });
  } catch (e) {
    process.stderr.write(`neuralcut mcp: cannot reach the page through ${address}: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const { server, control } = made;
  server.onerror = (e) => process.stderr.write(`neuralcut mcp: ${e.message}\n`);
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(new LineTransport());
  process.stderr.write(`neuralcut mcp: serving the page behind ${address} on stdio\n`);
  await closed;
  control.close();
}
