// `render_preview`: the agent tool that shows a frame, or a contact sheet of up to 16. One
// descriptor and one description for every surface (WebMCP, MCP, headless MCP, the in-page
// agent); the picture comes from `neuralcut/render`, in the page or in headless Chromium
// (js/render-headless.ts), composed by `renderPreviewImage` in either.
import { NeuralCutError } from "./errors.js";
import type { Frame } from "./generated/tools.js";
import { hostToolArgs, hostToolInfo, outcomeOf, toolError, toolResultOf, type HostTool, type InlineImage } from "./host-tools.js";
import type { ToolInfo } from "./types.js";

export const RENDER_PREVIEW = "render_preview" as const;
/** The largest preview width an agent may ask for (the schema's maximum); the default is 960. */
export const MAX_PREVIEW_WIDTH: number = (hostToolInfo(RENDER_PREVIEW).inputSchema as { properties: { width: { maximum: number } } }).properties.width.maximum;
export const DEFAULT_PREVIEW_WIDTH = 960;

/** The catalog entry (registry::HOST_TOOLS, generated). */
export const RENDER_PREVIEW_TOOL: ToolInfo = hostToolInfo(RENDER_PREVIEW);

/** render_preview's arguments once checked: one `time` or a contact sheet's `times`, the width defaulted. */
export type PreviewArgs = { time: number; times?: undefined; width: number } | { time?: undefined; times: number[]; width: number };

/** The most frames one contact sheet holds (the schema's maximum). */
export const MAX_SHEET_FRAMES: number = (hostToolInfo(RENDER_PREVIEW).inputSchema as { properties: { times: { maxItems: number } } }).properties.times.maxItems;

/** A bad render_preview call: the tool error value (UNKNOWN_ARGUMENT is MCP's -32602). */
export interface PreviewArgsError {
  error: string;
  code: string;
  argument?: string;
  [key: string]: unknown;
}

const isTime = (t: unknown): t is number => typeof t === "number" && Number.isFinite(t) && t >= 0;

/** Checks `{ time | times, width? }` (the engine's strict rule first); the arguments, or what is wrong with them. */
export function previewArgs(input: unknown): PreviewArgs | PreviewArgsError {
  const checked = hostToolArgs(RENDER_PREVIEW, input);
  if ("error" in checked) return checked.error;
  const { time, times } = checked.args as { time?: unknown; times?: unknown };
  if (time !== undefined && times !== undefined) return { error: "Give time or times, not both", code: "INVALID_ARGUMENTS" };
  if (times !== undefined) {
    if (!Array.isArray(times) || times.length === 0 || times.length > MAX_SHEET_FRAMES || !times.every(isTime))
      return { error: `times must be 1 to ${MAX_SHEET_FRAMES} numbers of seconds >= 0`, code: "INVALID_ARGUMENT", argument: "times" };
  } else if (!isTime(time)) return { error: "time must be a number of seconds >= 0", code: "INVALID_ARGUMENT", argument: "time" };
  const width = checked.args.width ?? DEFAULT_PREVIEW_WIDTH;
  if (typeof width !== "number" || !Number.isInteger(width) || width < 16 || width > MAX_PREVIEW_WIDTH) {
    return { error: `width must be a whole number from 16 to ${MAX_PREVIEW_WIDTH}`, code: "INVALID_ARGUMENT", argument: "width" };
  }
  return times !== undefined ? { times: [...(times as number[])], width } : { time: time as number, width };
}

type Missing = { elementId: string; reason: string }[];

/** The short description that goes with the image. */
export function describePreview(frame: Frame, width: number, height: number, missing: Missing) {
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

/** What render_preview answers beside its PNG: one frame's description, or a sheet's. */
export type PreviewDescription =
  | ReturnType<typeof describePreview>
  | {
      times: number[];
      width: number;
      height: number;
      canvas: { width: number; height: number };
      frames: (Omit<ReturnType<typeof describePreview>, "width" | "height" | "canvas"> & { x: number; y: number; width: number; height: number })[];
    };

/** Each `notDrawn` list of a description, rewritten by `explain` (the headless gate's reasons). */
export function explainMissing(d: PreviewDescription, explain: (m: Missing) => Missing): PreviewDescription {
  const one = <T extends { notDrawn?: Missing }>(x: T): T => (x.notDrawn ? { ...x, notDrawn: explain(x.notDrawn) } : x);
  return "frames" in d ? { ...d, frames: d.frames.map(one) } : one(d);
}

/** Seconds as a sheet cell's label, `mm:ss.cc` (or `h:mm:ss.cc`). */
function timecode(seconds: number): string {
  const cs = Math.round(seconds * 100);
  const two = (n: number) => String(n).padStart(2, "0");
  const [h, m, s, c] = [Math.floor(cs / 360000), Math.floor((cs % 360000) / 6000), Math.floor((cs % 6000) / 100), cs % 100];
  return `${h ? `${h}:` : ""}${two(m)}:${two(s)}.${two(c)}`;
}

/**
 * The picture render_preview answers with, drawn by `renderer` (in the page, or in headless
 * Chromium's page): one frame `width` wide, or for `times` one contact sheet `width` wide, the
 * frames in a near-square grid in the order given, each labelled with its timecode.
 */
export async function renderPreviewImage(renderer: PreviewRenderer, args: PreviewArgs): Promise<{ description: PreviewDescription; png: Uint8Array }> {
  const bytes = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
  if (args.times === undefined) {
    const out = await renderer.render(args.time, { width: args.width });
    return { description: describePreview(out.frame, out.width, out.height, out.missing), png: await bytes(await renderer.toBlob("image/png")) };
  }
  const n = args.times.length;
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const cellWidth = Math.max(16, Math.floor(args.width / cols));
  let sheet: OffscreenCanvas | undefined;
  let ctx: OffscreenCanvasRenderingContext2D | null = null;
  let canvas = { width: 0, height: 0 };
  const frames: Extract<PreviewDescription, { frames: unknown }>["frames"] = [];
  for (const [i, time] of args.times.entries()) {
    const out = await renderer.render(time, { width: cellWidth });
    const picture = await createImageBitmap(await renderer.toBlob("image/png"));
    if (!sheet) {
      sheet = new OffscreenCanvas(cols * out.width, rows * out.height);
      ctx = sheet.getContext("2d");
      if (!ctx) throw new NeuralCutError("RENDER_FAILED", "no 2D canvas for the contact sheet");
      ctx.fillStyle = "#000";
      ctx.fillRect(0, 0, sheet.width, sheet.height);
      canvas = { width: out.frame.width, height: out.frame.height };
    }
    const c = ctx as OffscreenCanvasRenderingContext2D;
    const [x, y] = [(i % cols) * out.width, Math.floor(i / cols) * out.height];
    c.drawImage(picture, x, y);
    picture.close();
    // The label: a dark strip along the cell's bottom edge, the timecode on it.
    const size = Math.max(10, Math.round(out.height * 0.09));
    c.fillStyle = "rgba(0, 0, 0, 0.65)";
    c.fillRect(x, y + out.height - size - 6, out.width, size + 6);
    c.fillStyle = "#fff";
    c.font = `${size}px sans-serif`;
    c.textBaseline = "bottom";
    c.fillText(timecode(time), x + 4, y + out.height - 3);
    const { width: _w, height: _h, canvas: _c, ...rest } = describePreview(out.frame, out.width, out.height, out.missing);
    frames.push({ ...rest, x, y, width: out.width, height: out.height });
  }
  const png = await bytes(await (sheet as OffscreenCanvas).convertToBlob({ type: "image/png" }));
  return { description: { times: [...args.times], width: (sheet as OffscreenCanvas).width, height: (sheet as OffscreenCanvas).height, canvas, frames }, png };
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
        const { description, png } = await renderPreviewImage(renderer, args);
        const image: InlineImage = { mimeType: "image/png", data: base64(png) };
        return { ...description, inlineImage: image };
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
