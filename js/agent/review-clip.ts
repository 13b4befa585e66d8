// review_clip: a short, small render of a span of the timeline with its sound, uploaded to Gemini
// (with the user's consent, as any upload) and attached to the model's next turn, so it can judge
// motion, timing and the mix of what it edited: render_preview shows stills only. The clip is
// drawn and muxed by neuralcut/export in the page (imported on first use); it is offered only
// where the page can encode video (WebCodecs' VideoEncoder).
import type { NeuralCutEditor } from "../editor.js";
import type { ReviewClipArgs } from "../generated/tools.js";
import { NeuralCutError } from "../errors.js";
import { defineHostTool, toolError, type HostTool } from "../host-tools.js";
import type { ProxyClient } from "./client.js";
import { UploadRefusedError, type UploadConsentRequest } from "./context.js";
import { timelineEnd } from "../timeline-end.js";
import { formatTime } from "./summary.js";

/** The longest span one clip may cover, in seconds (the schema says so to the model too). */
export const MAX_REVIEW_SECONDS = 30;
export const DEFAULT_REVIEW_WIDTH = 320;

/** Renders `[start, end)` of the timeline `width` wide, with its sound: the file and its size. */
export type ClipExporter = (
  span: { start: number; end: number; width: number },
  signal?: AbortSignal,
) => Promise<{ blob: Blob; width: number; height: number; mimeType: string }>;

export interface ReviewClipOptions {
  editor: NeuralCutEditor;
  client: ProxyClient;
  consent: (request: UploadConsentRequest) => Promise<boolean>;
  /** Default: neuralcut/export's exportVideo of the editor, MP4 at a low bitrate. */
  exportClip?: ClipExporter;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Status polls while Gemini processes the upload (default 30, a second apart). */
  maxPolls?: number;
}

/** Whether this runtime can render a clip (a page with WebCodecs' encoder). */
export const canReviewClips = () => typeof (globalThis as { VideoEncoder?: unknown }).VideoEncoder === "function";

const defaultExporter =
  (editor: NeuralCutEditor): ClipExporter =>
  async ({ start, end, width }, signal) => {
    const { exportVideo } = await import("../export.js");
    const out = await exportVideo(editor, { format: "mp4", range: { start, end }, width, quality: 250_000, signal });
    if (!out.blob) throw new NeuralCutError("EXPORT_FAILED", "the export gave no file");
    return { blob: out.blob, width: out.width, height: out.height, mimeType: out.mimeType };
  };

export function createReviewClipTool(options: ReviewClipOptions): HostTool {
  const { editor, client, consent } = options;
  const exportClip = options.exportClip ?? defaultExporter(editor);
  const wait = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  return defineHostTool("review_clip", async (args: Partial<ReviewClipArgs> & Record<string, unknown>, { signal }) => {
    const { start, end } = args as { start?: unknown; end?: unknown };
    if (typeof start !== "number" || !Number.isFinite(start) || start < 0)
      return toolError("start must be a number of seconds >= 0", "INVALID_ARGUMENT", { argument: "start" });
    if (typeof end !== "number" || !Number.isFinite(end) || end <= start || end - start > MAX_REVIEW_SECONDS)
      return toolError(`end must be after start, at most ${MAX_REVIEW_SECONDS} s later`, "INVALID_ARGUMENT", { argument: "end" });
    const width = args.width ?? DEFAULT_REVIEW_WIDTH;
    if (typeof width !== "number" || !Number.isInteger(width) || width < 160 || width > 640)
      return toolError("width must be a whole number from 160 to 640", "INVALID_ARGUMENT", { argument: "width" });
    const last = timelineEnd(editor.project());
    if (start >= last) return toolError("Nothing to review: the span is past the timeline's end", "INVALID_ARGUMENT", { argument: "start" });
    const to = Math.min(end, last);
    try {
      const clip = await exportClip({ start, end: to, width }, signal);
      const { blob } = clip;
      const mimeType = clip.mimeType.split(";")[0] || "video/mp4";
      const name = `timeline ${formatTime(start)}–${formatTime(to)}.mp4`;
      const allowed = await consent({
        asset: { id: "review_clip", name, type: "video" } as UploadConsentRequest["asset"],
        sizeBytes: blob.size,
        mimeType,
        signal,
      });
      if (!allowed) return toolError("The user declined the upload", "DECLINED", { hint: "Use render_preview to look at stills instead." });
      let st = await client.upload(blob, { name, mimeType, signal });
      for (let i = 0; st.state === "PROCESSING" && i < (options.maxPolls ?? 30); i++) {
        await wait(1000, signal);
        st = { ...st, ...(await client.status(st.handle, signal)) };
      }
      if (st.state !== "ACTIVE")
        return toolError("Failed to review the clip", "CONTEXT_LOAD_FAILED", { details: `Gemini left the clip ${st.state.toLowerCase()}` });
      return { start, end: to, width: clip.width, height: clip.height, sizeBytes: blob.size, mimeType: st.mimeType ?? mimeType, fileUri: st.handle };
    } catch (e) {
      if (signal?.aborted) return toolError("Cancelled by the user", "CANCELLED");
      if (e instanceof UploadRefusedError) return toolError("The user declined the upload", e.code, { details: e.message });
      return toolError("Failed to review the clip", "CONTEXT_LOAD_FAILED", { details: e instanceof Error ? e.message.slice(0, 300) : String(e) });
    }
  });
}
