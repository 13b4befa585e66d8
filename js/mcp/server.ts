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
import { renameSync, rmSync, writeFileSync } from "node:fs";
import process from "node:process";
import { pathToFileURL } from "node:url";

import { isToolError, type NeuralCutEditor } from "../editor.js";
import type { ToolInfo } from "../types.js";
import { RENDER_PREVIEW, RENDER_PREVIEW_TOOL } from "../render-preview.js";
import { MediaProbeError, probeMedia, SUPPORTED_FORMATS, type MediaInfo } from "./media.js";

export const PROJECT_URI = "neuralcut://project";
export const TOOLS_URI = "neuralcut://tools";
/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

export interface NeuralCutMcpOptions {
  /** Write the project here (temporary file, then rename) after every change. */
  savePath?: string;
  /** Reported in `initialize` (default: the package version). */
  version?: string;
  /** Adds the read-only render_preview tool, answered by this function (js/render-preview.ts). */
  renderPreview?: (input: Record<string, unknown>) => Promise<CallToolResult>;
}

/** The catalog entry of the server's own tool. */
export const MEDIA_IMPORT_TOOL: ToolInfo = {
  name: "media_import" as ToolInfo["name"],
  title: "Import media files",
  description:
    `Add media files to the project's assets by absolute path. Name, type (video, audio, image), duration, size and frame rate come from the file's headers, without decoding it. Supported: ${SUPPORTED_FORMATS}; an MP3 without a VBR header gets an estimated duration (durationEstimated). ` +
    "All or nothing: if one path cannot be read, nothing is added and the error names it. Then place the new assets with add_media_to_timeline.",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      paths: { type: "array", items: { type: "string" }, minItems: 1, description: "Absolute paths of the files to import" },
    },
    required: ["paths"],
    additionalProperties: false,
  },
  outputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      assets: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            type: { type: "string", enum: ["video", "audio", "image"] },
            format: { type: "string" },
            path: { type: "string" },
            duration: { type: "number" },
            durationEstimated: { type: "boolean" },
            width: { type: "integer" },
            height: { type: "integer" },
            fps: {
              type: "object",
              properties: { numerator: { type: "integer" }, denominator: { type: "integer" } },
              required: ["numerator", "denominator"],
            },
          },
          required: ["id", "name", "type", "format", "path"],
        },
      },
    },
    required: ["assets"],
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

const INSTRUCTIONS =
  "NeuralCut video timeline. Times are in seconds. Start with list_timeline and list_project_assets to get ids; " +
  "every edit is one undoable step (undo / redo tools); batch runs several calls as one step. " +
  `The project document is the resource ${PROJECT_URI}, the tool catalog ${TOOLS_URI}.`;

/** A JSON-RPC error the SDK sends as is: `{ code, message, data }`. */
function rpcError(code: number, message: string, data?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code, data });
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

function ok(out: Record<string, unknown>, warnings: string[] = []): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(out) }, ...warnings.map((text) => ({ type: "text" as const, text }))],
    structuredContent: out,
  };
}

/** A tool's own failure: the engine's message as the first text block, the whole error value
 * (code, hint, ...) as JSON in a second. No structuredContent: clients check it against the
 * tool's outputSchema, which describes success. */
function failed(error: Record<string, unknown> & { error: string }): CallToolResult {
  return {
    content: [
      { type: "text", text: error.error },
      { type: "text", text: JSON.stringify(error) },
    ],
    isError: true,
  };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Writes `text` to `path` atomically: a temporary file beside it, then a rename. */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** An MCP server (not yet connected) that drives `editor`. */
export function createNeuralCutMcpServer(editor: NeuralCutEditor, options: NeuralCutMcpOptions = {}): Server {
  const catalog = [...editor.tools(), MEDIA_IMPORT_TOOL, ...(options.renderPreview ? [RENDER_PREVIEW_TOOL] : [])];
  const tools = catalog.map(toMcpTool);
  const byName = new Map(catalog.map((t) => [t.name as string, t]));
  const subscribed = new Set<string>();

  const server = new Server(
    { name: "neuralcut", title: "NeuralCut", version: options.version ?? "0.0.0" },
    {
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: false } },
      instructions: INSTRUCTIONS,
    },
  );

  /** After a call: save and notify subscribers if the project changed. Returns warnings. */
  function committed(before: number): string[] {
    if (editor.revision() === before) return [];
    const warnings: string[] = [];
    if (options.savePath) {
      try {
        writeAtomic(options.savePath, `${JSON.stringify(editor.project(), null, 2)}\n`);
      } catch (e) {
        warnings.push(`warning: the change was made but could not be saved to ${options.savePath}: ${message(e)}`);
        process.stderr.write(`neuralcut mcp: ${warnings[0]}\n`);
      }
    }
    if (subscribed.has(PROJECT_URI)) {
      server.sendResourceUpdated({ uri: PROJECT_URI }).catch(() => {});
    }
    return warnings;
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tool = byName.get(name);
    if (!tool) {
      throw rpcError(ErrorCode.InvalidParams, `Unknown tool "${name}"`, { tool: name, known: catalog.map((t) => t.name) });
    }
    if (name === RENDER_PREVIEW && options.renderPreview) return options.renderPreview(args);
    const before = editor.revision();
    let out: Record<string, unknown>;
    try {
      out = name === MEDIA_IMPORT_TOOL.name ? await mediaImport(editor, args) : await editor.callToolUntyped(name, args);
    } catch (e) {
      // A broken invariant inside the engine: reported, and the session stays up.
      return failed({ error: `internal error: ${message(e)}`, code: "INTERNAL" });
    }
    if (isToolError(out)) {
      if (out.code === "UNKNOWN_ARGUMENT") {
        const { error, code, ...data } = out;
        throw rpcError(ErrorCode.InvalidParams, error, { code, ...data });
      }
      return failed(out);
    }
    return ok(out, committed(before));
  });

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
  ];

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    let text: string;
    if (uri === PROJECT_URI) text = JSON.stringify(editor.project());
    else if (uri === TOOLS_URI) text = JSON.stringify({ tools: catalog });
    else throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri, known: resources.map((r) => r.uri) });
    return { contents: [{ uri, mimeType: "application/json", text }] };
  });
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

/** media_import: probe every path first, then add them all (or nothing). */
async function mediaImport(editor: NeuralCutEditor, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const accepted = ["paths"];
  for (const key of Object.keys(args)) {
    if (!accepted.includes(key)) {
      return { error: `unknown argument "${key}" for media_import; expected: ${accepted.join(", ")}`, code: "UNKNOWN_ARGUMENT", argument: key, accepted };
    }
  }
  const { paths } = args;
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
  const assets = [];
  for (const [path, info] of infos) {
    const { format, durationEstimated, ...asset } = info;
    let id: string;
    try {
      id = editor.addAsset({ ...asset, url: pathToFileURL(path).href });
    } catch (e) {
      const added = assets.map((a) => a.id);
      return { error: `Cannot add ${path}: ${message(e)}`, code: "MEDIA_UNREADABLE", path, ...(added.length ? { added } : {}) };
    }
    assets.push({ id, ...asset, format, path, ...(durationEstimated ? { durationEstimated } : {}) });
  }
  return { assets };
}
