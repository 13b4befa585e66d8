// detect_silences: the pauses in an asset's sound, measured from its decoded audio. mediabunny
// decodes (WebCodecs in a page; PCM anywhere, Node included) and the engine's meter
// (src/silence.rs, `SilenceMeter`) measures each chunk as it comes, so an hour of audio is never
// held at once. One tool for every surface: the in-page agent, WebMCP and headless MCP differ
// only in how an asset's bytes are opened (`openAudio`). mediabunny is imported on first use, so
// the surfaces that list the tool (WebMCP, the agent) load without it. docs/silences.md.
import type { Source } from "mediabunny";
import { TICKS_PER_SECOND, type DetectSilencesArgs, type DetectSilencesResult, type ProjectJson } from "./generated/tools.js";
import { defineHostTool, toolError, type HostTool } from "./host-tools.js";
import { URL_SOURCE_OPTIONS } from "./media/url-options.js";
import { SilenceMeter } from "./wasm/neuralcut_engine.js";

export const DEFAULT_MIN_DURATION = 0.5;
export const DEFAULT_THRESHOLD_DB = -40;

/** What the tool reads of an editor. */
export interface SilenceEditor {
  project(): ProjectJson;
  assetSource(id: string): { file?: Blob; url?: string } | undefined;
}

/** Opens an asset's bytes for mediabunny, or says why it cannot. */
export type OpenAudio = (assetId: string, mediabunny: Mediabunny) => Source | string;

type Mediabunny = typeof import("mediabunny");

/** The page's opener: the asset's File, else its URL. */
export function pageAudio(editor: SilenceEditor): OpenAudio {
  return (id, { BlobSource, UrlSource }) => {
    const src = editor.assetSource(id);
    if (src?.file) return new BlobSource(src.file);
    if (src?.url) return new UrlSource(src.url, URL_SOURCE_OPTIONS);
    return `no source for asset ${id}`;
  };
}

/** A Node session's opener (`neuralcut mcp`, the CLI): the asset's local file (a path or a
 * file:// URL, as `mediaLocations` gives them). Node decodes PCM (WAV) itself; other codecs
 * need WebCodecs, which Node lacks, and get a clear DECODE_FAILED. */
export function fileAudio(locate: (assetId: string) => string | undefined): OpenAudio {
  return (id, { FilePathSource }) => {
    const where = locate(id);
    if (!where) return `no file for asset ${id}`;
    if (where.startsWith("file://")) return new FilePathSource(decodeURIComponent(new URL(where).pathname));
    if (where.startsWith("/")) return new FilePathSource(where);
    return `asset ${id} is not a local file (${where.slice(0, 80)})`;
  };
}

interface PlacedElement {
  id: string;
  type: string;
  assetId?: string;
  start: number;
  duration: number;
  trimStart?: number;
  retime?: { rate?: number };
}

/** The source span an element plays and how its source seconds map to timeline seconds
 * (OpenCut's retime: source = trimStart + clipTime × rate). */
function elementSpan(e: PlacedElement) {
  const rate = e.retime?.rate && e.retime.rate > 0 ? e.retime.rate : 1;
  const from = (e.trimStart ?? 0) / TICKS_PER_SECOND;
  const start = e.start / TICKS_PER_SECOND;
  const end = (e.start + e.duration) / TICKS_PER_SECOND;
  const to = from + Math.round(e.duration * rate) / TICKS_PER_SECOND;
  const toTimeline = (s: number) => Math.min(end, Math.max(start, start + (s - from) / rate));
  return { from, to, rate, toTimeline };
}

const round = (s: number) => Math.round(s * 1000) / 1000;
const fail = toolError;

/** Measures `[from, to)` seconds of the source's primary audio track: the silences in source seconds. */
export async function measureSilences(
  mediabunny: Mediabunny,
  source: Source,
  span: { from: number; to: number },
  settings: { minDuration: number; thresholdDb: number },
  signal?: AbortSignal,
): Promise<{ silences: { start: number; end: number }[]; duration: number } | { failed: string } | { cancelled: true }> {
  const { ALL_FORMATS, AudioSampleSink, Input } = mediabunny;
  const input = new Input({ source, formats: ALL_FORMATS });
  let meter: SilenceMeter | undefined;
  try {
    const track = await input.getPrimaryAudioTrack();
    if (!track) return { failed: "the media has no audio track" };
    if (!(await track.canDecode())) return { failed: `this runtime cannot decode its ${track.codec ?? "unknown"} audio` };
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
          meter = new SilenceMeter(rate, channels, settings.thresholdDb);
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

/** detect_silences as a host tool over an editor; `openAudio` defaults to the page's sources. */
export function detectSilencesTool(editor: SilenceEditor, openAudio: OpenAudio = pageAudio(editor)): HostTool {
  return defineHostTool("detect_silences", async (args: Partial<DetectSilencesArgs> & Record<string, unknown>, { signal }) => {
    const { assetId, elementId } = args as Record<string, unknown>;
    for (const [k, v] of Object.entries({ assetId, elementId })) {
      if (v !== undefined && (typeof v !== "string" || v.trim() === "")) return fail(`${k} must be a non-empty string`, "INVALID_ARGUMENT", { argument: k });
    }
    if (assetId !== undefined && elementId !== undefined) return fail("Give assetId or elementId, not both", "INVALID_ARGUMENTS");
    const minDuration = args.minDuration ?? DEFAULT_MIN_DURATION;
    if (typeof minDuration !== "number" || !Number.isFinite(minDuration) || minDuration <= 0)
      return fail("minDuration must be a number of seconds > 0", "INVALID_ARGUMENT", { argument: "minDuration" });
    const thresholdDb = args.thresholdDb ?? DEFAULT_THRESHOLD_DB;
    if (typeof thresholdDb !== "number" || !Number.isFinite(thresholdDb) || thresholdDb < -120 || thresholdDb > 0)
      return fail("thresholdDb must be a number from -120 to 0", "INVALID_ARGUMENT", { argument: "thresholdDb" });

    let project: ProjectJson;
    try {
      project = editor.project();
    } catch {
      return fail("No active project", "NO_ACTIVE_PROJECT");
    }
    const assets = project.assets ?? [];
    const tracks = ((project.timeline as { tracks?: { elements?: PlacedElement[] }[] } | null)?.tracks ?? []) as { elements?: PlacedElement[] }[];
    let element: PlacedElement | undefined;
    let id = assetId as string | undefined;
    if (typeof elementId === "string") {
      element = tracks.flatMap((t) => t.elements ?? []).find((e) => e.id === elementId);
      if (!element) return fail("Element not found", "ELEMENT_NOT_FOUND", { hint: "Call list_timeline to get element ids." });
      if ((element.type !== "video" && element.type !== "audio") || !element.assetId)
        return fail("Unsupported asset type", "UNSUPPORTED_ASSET_TYPE", { hint: "detect_silences takes a video or audio element." });
      id = element.assetId;
    } else if (id === undefined) {
      const media = assets.filter((a) => a.type === "video" || a.type === "audio");
      if (media.length !== 1)
        return fail("assetId or elementId is required", "ASSET_REQUIRED", {
          hint: `${media.length === 0 ? "There is no video or audio asset." : "Several video or audio assets qualify."} Call list_project_assets and pass assetId, or list_timeline and pass elementId.`,
        });
      id = media[0].id;
    }
    const asset = assets.find((a) => a.id === id);
    if (!asset) return fail("Asset not found", "ASSET_NOT_FOUND", { hint: "Call list_project_assets to get asset ids." });
    if (asset.type !== "video" && asset.type !== "audio")
      return fail("Unsupported asset type", "UNSUPPORTED_ASSET_TYPE", { hint: "detect_silences takes a video or audio asset." });

    const mediabunny = await import("mediabunny");
    const source = openAudio(asset.id, mediabunny);
    if (typeof source === "string") return fail("Failed to decode audio", "DECODE_FAILED", { details: source });
    const span = element ? elementSpan(element) : undefined;
    // For an element, minDuration is timeline seconds: a pause played at 2x lasts half as long.
    const rate = span?.rate ?? 1;
    const measured = await measureSilences(
      mediabunny,
      source,
      span ?? { from: 0, to: Number.POSITIVE_INFINITY },
      { minDuration: minDuration * rate, thresholdDb },
      signal,
    );
    if ("cancelled" in measured) return fail("Cancelled by the user", "CANCELLED");
    if ("failed" in measured) return fail("Failed to decode audio", "DECODE_FAILED", { details: measured.failed });
    const silences = measured.silences
      .map((s) => (span ? { start: span.toTimeline(s.start), end: span.toTimeline(s.end) } : s))
      .map((s) => ({ start: round(s.start), end: round(s.end) }))
      .filter((s) => s.end > s.start);
    const result: DetectSilencesResult = {
      assetId: asset.id,
      ...(element ? { elementId: element.id } : {}),
      timeBase: element ? "timeline" : "source",
      duration: round(measured.duration / rate),
      silences,
    };
    return result;
  });
}
