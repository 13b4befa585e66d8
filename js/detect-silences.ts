// detect_silences: the pauses in an asset's sound, measured from its decoded audio. mediabunny
// decodes (WebCodecs in a page; PCM anywhere, Node included) and the media module's meter
// (src/silence.rs, `SilenceMeter`) measures each chunk as it comes, so an hour of audio is never
// held at once. One tool for every surface: the in-page agent, WebMCP and headless MCP differ
// only in how an asset's bytes are opened (js/media/target.ts). mediabunny is imported on first
// use, so the surfaces that list the tool load without it. docs/silences.md.
import type { Source } from "mediabunny";
import type { DetectSilencesArgs, DetectSilencesResult } from "./generated/tools.js";
import { defineHostTool, toolError, type HostTool } from "./host-tools.js";
import { mediaTarget, pageMedia, round, type MediaEditor, type Mediabunny, type OpenMedia } from "./media/target.js";
import { mediaMeters } from "./media-wasm.js";
import type { SilenceMeter } from "./wasm/neuralcut_media.js";

export const DEFAULT_MIN_DURATION = 0.5;
export const DEFAULT_THRESHOLD_DB = -40;

/** Measures `[from, to)` seconds of the source's primary audio track: the silences in source seconds. */
export async function measureSilences(
  mediabunny: Mediabunny,
  source: Source,
  span: { from: number; to: number },
  settings: { minDuration: number; thresholdDb: number },
  signal?: AbortSignal,
): Promise<{ silences: { start: number; end: number }[]; duration: number } | { failed: string; undecodable?: true } | { cancelled: true }> {
  const { ALL_FORMATS, AudioSampleSink, Input } = mediabunny;
  const input = new Input({ source, formats: ALL_FORMATS });
  let meter: SilenceMeter | undefined;
  try {
    const meters = await mediaMeters();
    const track = await input.getPrimaryAudioTrack();
    if (!track) return { failed: "the media has no audio track" };
    if (!(await track.canDecode())) return { failed: `this runtime cannot decode its ${track.codec ?? "unknown"} audio`, undecodable: true };
    let first: number | undefined;
    let buffer = new Float32Array(0);
    for await (const sample of new AudioSampleSink(track).samples(span.from, span.to)) {
      try {
        if (signal?.aborted) return { cancelled: true };
        const rate = sample.sampleRate;
        const channels = Math.min(sample.numberOfChannels, 32);
        // The first and last chunks can reach past the span: count only its frames.
        const skip = Math.max(0, Math.round((span.from - sample.timestamp) * rate));
        const keep = Math.min(sample.numberOfFrames, Math.round((span.to - sample.timestamp) * rate)) - skip;
        if (keep <= 0) continue;
        if (!meter) {
          meter = new meters.SilenceMeter(rate, channels, settings.thresholdDb);
          first = sample.timestamp + skip / rate;
        }
        if (buffer.length < keep * channels) buffer = new Float32Array(keep * channels);
        for (let c = 0; c < channels; c++) {
          sample.copyTo(buffer.subarray(c * keep, (c + 1) * keep), { planeIndex: c, format: "f32-planar", frameOffset: skip, frameCount: keep });
        }
        meter.push(buffer.subarray(0, keep * channels));
      } finally {
        sample.close();
      }
    }
    if (!meter || first === undefined) return { silences: [], duration: 0 };
    const flat = meter.silences(settings.minDuration);
    const silences: { start: number; end: number }[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) silences.push({ start: first + flat[i], end: first + flat[i + 1] });
    return { silences, duration: meter.duration() };
  } catch (e) {
    return { failed: e instanceof Error ? e.message.slice(0, 300) : String(e) };
  } finally {
    meter?.free();
    input.dispose();
  }
}

/** A checked detect_silences call: what to measure and how, or the tool's error value. */
export function silencesRequest(editor: MediaEditor, args: Partial<DetectSilencesArgs> & Record<string, unknown>) {
  const target = mediaTarget(editor, args, "detect_silences", ["video", "audio"]);
  if ("error" in target) return target;
  const minDuration = args.minDuration ?? DEFAULT_MIN_DURATION;
  if (typeof minDuration !== "number" || !Number.isFinite(minDuration) || minDuration <= 0)
    return toolError("minDuration must be a number of seconds > 0", "INVALID_ARGUMENT", { argument: "minDuration" });
  const thresholdDb = args.thresholdDb ?? DEFAULT_THRESHOLD_DB;
  if (typeof thresholdDb !== "number" || !Number.isFinite(thresholdDb) || thresholdDb < -120 || thresholdDb > 0)
    return toolError("thresholdDb must be a number from -120 to 0", "INVALID_ARGUMENT", { argument: "thresholdDb" });
  return { ...target, minDuration, thresholdDb };
}

/** detect_silences as a host tool over an editor; `open` defaults to the page's sources. */
export function detectSilencesTool(editor: MediaEditor, open: OpenMedia = pageMedia(editor)): HostTool {
  return defineHostTool("detect_silences", async (args: Partial<DetectSilencesArgs> & Record<string, unknown>, { signal }) => {
    const request = silencesRequest(editor, args);
    if ("error" in request) return request;
    const { asset, elementId, span, minDuration, thresholdDb } = request;
    const mediabunny = await import("mediabunny");
    const source = open(asset.id, mediabunny);
    if (typeof source === "string") return toolError("Failed to decode audio", "DECODE_FAILED", { details: source });
    // For an element, minDuration is timeline seconds: a pause played at 2x lasts half as long.
    const rate = span?.rate ?? 1;
    const measured = await measureSilences(
      mediabunny,
      source,
      span ?? { from: 0, to: Number.POSITIVE_INFINITY },
      { minDuration: minDuration * rate, thresholdDb },
      signal,
    );
    if ("cancelled" in measured) return toolError("Cancelled by the user", "CANCELLED");
    if ("failed" in measured)
      return toolError("Failed to decode audio", "DECODE_FAILED", { details: measured.failed, ...(measured.undecodable ? { undecodable: true } : {}) });
    const silences = measured.silences
      .map((s) => (span ? { start: span.toTimeline(s.start), end: span.toTimeline(s.end) } : s))
      .map((s) => ({ start: round(s.start), end: round(s.end) }))
      .filter((s) => s.end > s.start);
    const result: DetectSilencesResult = {
      assetId: asset.id,
      ...(elementId ? { elementId } : {}),
      timeBase: span ? "timeline" : "source",
      duration: round(measured.duration / rate),
      silences,
    };
    return result;
  });
}
