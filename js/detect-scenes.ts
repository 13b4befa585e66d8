// detect_scenes: the hard cuts in a video asset, measured from its decoded frames. mediabunny
// decodes (WebCodecs), each frame goes to the media module's meter (src/scenes.rs, `SceneMeter`) in the
// decoder's own layout, which shrinks it to 64 × 36 and compares it with the frame before. It
// needs WebCodecs: the in-page agent and WebMCP run it in their page, `neuralcut mcp` and the CLI
// in their headless Chromium (js/media-tools-node.ts). docs/scenes.md.
import type { Source } from "mediabunny";
import type { DetectScenesArgs, DetectScenesResult } from "./generated/tools.js";
import { defineHostTool, toolError, type HostTool } from "./host-tools.js";
import { mediaTarget, pageMedia, round, type MediaEditor, type Mediabunny, type OpenMedia } from "./media/target.js";
import { mediaMeters } from "./media-wasm.js";
import type { SceneMeter } from "./wasm/neuralcut_media.js";

export const DEFAULT_SCENE_THRESHOLD = 0.1;
/** The size a frame of a layout the meter does not read is drawn at (its grid, src/scenes.rs). */
export const SCENE_FRAME = { width: 64, height: 36 } as const;

/** Measures `[from, to)` seconds of the source's primary video track: the cuts in source seconds. */
export async function measureScenes(
  mediabunny: Mediabunny,
  source: Source,
  span: { from: number; to: number },
  threshold: number,
  signal?: AbortSignal,
): Promise<{ cuts: number[]; fps: number; duration: number } | { failed: string } | { cancelled: true }> {
  const { ALL_FORMATS, Input, VideoSampleSink } = mediabunny;
  const input = new Input({ source, formats: ALL_FORMATS });
  let meter: SceneMeter | undefined;
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) return { failed: "the media has no video track" };
    if (!(await track.canDecode())) return { failed: `this runtime cannot decode its ${track.codec ?? "unknown"} video` };
    const meters = await mediaMeters();
    meter = new meters.SceneMeter(threshold);
    // The decoder's own pixels when the meter reads their layout, copied once, straight into
    // the meter's memory (copying them costs about nothing: 494 ms for 150 720p frames against
    // 505 ms decoding alone); else each frame is drawn small on a canvas (1,549 ms for the same
    // frames), e.g. for a layout like I444.
    let ctx: OffscreenCanvasRenderingContext2D | null | undefined;
    let first: number | undefined;
    let last = 0;
    for await (const sample of new VideoSampleSink(track).samples(span.from, span.to)) {
      try {
        if (signal?.aborted) return { cancelled: true };
        // A frame that began before the span still shows at its start.
        const at = Math.max(span.from, sample.timestamp);
        first ??= at;
        last = Math.min(span.to, sample.timestamp + sample.duration);
        const format = sample.format;
        if (format && meters.SceneMeter.reads(format)) {
          // Without a layout, copyTo packs the visible rectangle's planes tightly (WebCodecs).
          const { width, height } = sample.visibleRect;
          const size = sample.allocationSize();
          let pushed: boolean;
          try {
            await sample.copyTo(meters.view(meter.frameBuffer(size), size));
            pushed = meter.pushBuffered(at, format, width, height);
          } catch {
            // The module's memory grew under the view (another meter in this page): once more,
            // through a buffer of the page's own.
            const bytes = new Uint8Array(size);
            await sample.copyTo(bytes);
            pushed = meter.push(at, format, width, height, bytes);
          }
          if (!pushed) return { failed: `a ${format} frame of ${width}x${height} did not fit its layout` };
        } else {
          if (typeof OffscreenCanvas === "undefined") return { failed: `this runtime cannot read ${format ?? "unknown"} frames` };
          ctx ??= new OffscreenCanvas(SCENE_FRAME.width, SCENE_FRAME.height).getContext("2d", { willReadFrequently: true });
          if (!ctx) return { failed: "no 2D canvas context" };
          sample.draw(ctx, 0, 0, SCENE_FRAME.width, SCENE_FRAME.height);
          const pixels = ctx.getImageData(0, 0, SCENE_FRAME.width, SCENE_FRAME.height).data;
          meter.push(at, "RGBA", SCENE_FRAME.width, SCENE_FRAME.height, new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength));
        }
      } finally {
        sample.close();
      }
    }
    const stats = await track.computePacketStats(240);
    // The first frame starts the first shot: it is never a cut.
    const cuts = Array.from(meter.cuts()).filter((t) => t > (first ?? 0));
    return { cuts, fps: stats.averagePacketRate, duration: first === undefined ? 0 : last - first };
  } catch (e) {
    return { failed: e instanceof Error ? e.message.slice(0, 300) : String(e) };
  } finally {
    meter?.free();
    input.dispose();
  }
}

/** A checked detect_scenes call: what to measure and the threshold, or the tool's error value. */
export function scenesRequest(editor: MediaEditor, args: Partial<DetectScenesArgs> & Record<string, unknown>) {
  const target = mediaTarget(editor, args, "detect_scenes", ["video"]);
  if ("error" in target) return target;
  const threshold = args.threshold ?? DEFAULT_SCENE_THRESHOLD;
  if (typeof threshold !== "number" || !Number.isFinite(threshold) || threshold <= 0 || threshold > 1)
    return toolError("threshold must be a number above 0, at most 1", "INVALID_ARGUMENT", { argument: "threshold" });
  return { ...target, threshold };
}

/** detect_scenes as a host tool over an editor; `open` defaults to the page's sources. */
export function detectScenesTool(editor: MediaEditor, open: OpenMedia = pageMedia(editor)): HostTool {
  return defineHostTool("detect_scenes", async (args: Partial<DetectScenesArgs> & Record<string, unknown>, { signal }) => {
    const request = scenesRequest(editor, args);
    if ("error" in request) return request;
    const { asset, elementId, span, threshold } = request;
    const mediabunny = await import("mediabunny");
    const source = open(asset.id, mediabunny);
    if (typeof source === "string") return toolError("Failed to decode video", "DECODE_FAILED", { details: source });
    const measured = await measureScenes(mediabunny, source, span ?? { from: 0, to: Number.POSITIVE_INFINITY }, threshold, signal);
    if ("cancelled" in measured) return toolError("Cancelled by the user", "CANCELLED");
    if ("failed" in measured) return toolError("Failed to decode video", "DECODE_FAILED", { details: measured.failed });
    const rate = span?.rate ?? 1;
    const result: DetectScenesResult = {
      assetId: asset.id,
      ...(elementId ? { elementId } : {}),
      timeBase: span ? "timeline" : "source",
      // Two decimals: WebM's millisecond timestamps make 30 fps read 29.997; 29.97 stays 29.97.
      fps: Math.round(measured.fps * 100) / 100,
      duration: round(measured.duration / rate),
      cuts: measured.cuts.map((t) => round(span ? span.toTimeline(t) : t)),
    };
    return result;
  });
}
