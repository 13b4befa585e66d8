// `render_preview`: the agent tool that shows a frame. One descriptor and one description for
// every surface (WebMCP, MCP, headless MCP, the in-page agent); the picture comes from
// `neuralcut/render`, in the page or in headless Chromium (js/render-headless.ts).
import type { Frame, RenderPreviewArgs } from "./generated/tools.js";
import { hostToolArgs, hostToolInfo, outcomeOf, toolError, toolResultOf, type HostTool, type InlineImage } from "./host-tools.js";
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
  if (typeof time !== "number" || !Number.isFinite(time) || time < 0)
    return { error: "time must be a number of seconds >= 0", code: "INVALID_ARGUMENT", argument: "time" };
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

/** A frame renderer as `neuralcut/render` makes it (only what the tool needs). */
export interface PreviewRenderer {
  render(
    seconds: number,
    options?: { width?: number },
  ): Promise<{ frame: Frame; width: number; height: number; missing: { elementId: string; reason: string }[] }>;
  toBlob(type?: string): Promise<Blob>;
}

export type { InlineImage };

/**
 * render_preview drawn by an in-page renderer, as a host tool (js/host-tools.ts): the in-page
 * agent takes it as is (`createAgent({ tools: [renderPreviewTool(renderer)] })`) and moves
 * `inlineImage` into an `inlineData` part of the next request so the model sees the frame;
 * WebMCP and the bridge's page answer with it through renderPreviewInPage.
 */
export function renderPreviewTool(renderer: PreviewRenderer): HostTool {
  return {
    ...RENDER_PREVIEW_TOOL,
    async call(input: unknown): Promise<Record<string, unknown>> {
      const args = previewArgs(input);
      if ("error" in args) return args;
      try {
        const out = await renderer.render(args.time, { width: args.width });
        const png = new Uint8Array(await (await renderer.toBlob("image/png")).arrayBuffer());
        const image: InlineImage = { mimeType: "image/png", data: base64(png) };
        return { ...describePreview(out.frame, out.width, out.height, out.missing), inlineImage: image };
      } catch (e) {
        return toolError(`render_preview failed: ${e instanceof Error ? e.message : String(e)}`, "RENDER_FAILED");
      }
    },
  };
}

/** Runs render_preview with an in-page renderer: the MCP result (the PNG as an image block), or an error result. */
export async function renderPreviewInPage(renderer: PreviewRenderer, input: unknown) {
  return toolResultOf(outcomeOf(await renderPreviewTool(renderer).call(input)));
}
