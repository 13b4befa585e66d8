// `render_preview`: the agent tool that shows a frame. One descriptor and one description for
// every surface (WebMCP, MCP, headless MCP, the in-page agent); the picture comes from
// `neuralcut/render`, in the page or in headless Chromium (js/render-headless.ts).
import type { Frame } from "./render-types.js";
import type { RenderPreviewArgs } from "./generated/tools.js";
import { hostToolArgs, hostToolInfo, type HostTool, type InlineImage } from "./host-tools.js";
import { errorResult, successResult } from "./tool-result.js";
import type { ToolInfo } from "./types.js";

export const RENDER_PREVIEW = "render_preview" as const;
/** The largest preview width an agent may ask for (the schema's maximum); the default is 960. */
export const MAX_PREVIEW_WIDTH: number = (hostToolInfo(RENDER_PREVIEW).inputSchema as { properties: { width: { maximum: number } } }).properties.width.maximum;
export const DEFAULT_PREVIEW_WIDTH = 960;

/** The catalog entry (registry::HOST_TOOLS, generated). */
export const RENDER_PREVIEW_TOOL: ToolInfo = hostToolInfo(RENDER_PREVIEW);

/** render_preview's arguments (the generated type) once checked: the width defaulted. */
export type PreviewArgs = Required<RenderPreviewArgs>;

/** A bad render_preview call: the tool error value (UNKNOWN_ARGUMENT is MCP's -32602). */
export interface PreviewArgsError {
  error: string;
  code: string;
  argument?: string;
  [key: string]: unknown;
}

/** Checks `{ time, width? }` (the engine's strict rule first); the arguments, or what is wrong with them. */
export function previewArgs(input: unknown): PreviewArgs | PreviewArgsError {
  const checked = hostToolArgs(RENDER_PREVIEW, input);
  if ("error" in checked) return checked.error;
  const o = checked.args;
  const time = o.time;
  if (typeof time !== "number" || !Number.isFinite(time) || time < 0) return { error: "time must be a number of seconds >= 0", code: "INVALID_ARGUMENT", argument: "time" };
  const width = o.width ?? DEFAULT_PREVIEW_WIDTH;
  if (typeof width !== "number" || !Number.isInteger(width) || width < 16 || width > MAX_PREVIEW_WIDTH) {
    return { error: `width must be a whole number from 16 to ${MAX_PREVIEW_WIDTH}`, code: "INVALID_ARGUMENT", argument: "width" };
  }
  return { time, width };
}

/** The short description that goes with the image. */
export function describePreview(frame: Frame, width: number, height: number, missing: { elementId: string; reason: string }[]) {
  return {
    time: frame.time,
    width,
    height,
    canvas: { width: frame.width, height: frame.height },
    layers: frame.layers.map((l) =>
      l.kind === "media"
        ? { elementId: l.elementId, kind: l.mediaType, ...(l.sourceTime !== undefined ? { sourceTime: l.sourceTime } : {}) }
        : l.kind === "text"
          ? { elementId: l.elementId, kind: "text", text: l.content.length > 40 ? `${l.content.slice(0, 40)}…` : l.content }
          : { elementId: l.elementId, kind: "effect", effectType: l.effectType },
    ),
    ...(missing.length ? { notDrawn: missing } : {}),
  };
}

/** Base64 of bytes (browser and Node). */
export function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** An MCP CallToolResult: the PNG as an image block, the description as JSON text. */
export function previewResult(png: Uint8Array, description: Record<string, unknown>) {
  return successResult(description, [{ type: "image", data: base64(png), mimeType: "image/png" }]);
}

export function previewError(message: string, code = "RENDER_FAILED") {
  return errorResult({ error: message, code });
}

/** A frame renderer as `neuralcut/render` makes it (only what the tool needs). */
export interface PreviewRenderer {
  render(seconds: number, options?: { width?: number }): Promise<{ frame: Frame; width: number; height: number; missing: { elementId: string; reason: string }[] }>;
  toBlob(type?: string): Promise<Blob>;
}

/** Runs render_preview with an in-page renderer: the MCP result, or an error result. */
export async function renderPreviewInPage(renderer: PreviewRenderer, input: unknown) {
  const args = previewArgs(input);
  // The whole error value (argument, accepted...), as every other tool gives it.
  if ("error" in args) return errorResult(args);
  try {
    const out = await renderer.render(args.time, { width: args.width });
    const png = new Uint8Array(await (await renderer.toBlob("image/png")).arrayBuffer());
    return previewResult(png, describePreview(out.frame, out.width, out.height, out.missing));
  } catch (e) {
    return previewError(`render_preview failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export type { InlineImage };

/**
 * render_preview as a host tool of the in-page agent (`createAgent({ tools: [renderPreviewTool(renderer)] })`):
 * the result is the description plus `inlineImage`, which the agent moves into an `inlineData`
 * part of the next request so the model sees the frame.
 */
export function renderPreviewTool(renderer: PreviewRenderer): HostTool {
  return {
    ...RENDER_PREVIEW_TOOL,
    async call(input: unknown): Promise<Record<string, unknown>> {
      const r = await renderPreviewInPage(renderer, input);
      // The whole error value (message, code) is the second block.
      if (r.isError) return JSON.parse((r.content[1] as { text: string }).text) as Record<string, unknown>;
      const image = r.content[0] as { data: string };
      return { ...r.structuredContent, inlineImage: { mimeType: "image/png", data: image.data } satisfies InlineImage };
    },
  };
}
