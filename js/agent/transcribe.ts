// transcribe_video: the spec's secondary tool, served host-side. It transcribes an asset's speech
// (a host-provided local transcriber such as Whisper in a worker, or Gemini audio understanding
// through the proxy) and returns segments, with word times when the transcriber gives them, in
// timeline seconds for each placement of the asset or for one element (through trim and speed).
// Word times are checked (in order, inside the media) before anyone sees them. It edits nothing;
// add_captions makes captions of its words (the agent passes them on: captionWords).

import type { TranscribeRequest } from "../transcribe-request.js";
import { elementSpan, type PlacedElement } from "../media/target.js";
import { defineHostTool, hostToolInfo, toolError, type HostTool, type HostToolContext } from "../host-tools.js";
import type { TranscribeVideoArgs, TranscribeVideoResult } from "../generated/tools.js";
import type { NeuralCutEditor } from "../editor.js";
import type { AssetJson, ToolErrorResult } from "../types.js";
import { responseText, type GenerateResponse, type ProxyClient } from "./client.js";
import { taskConfig } from "./models.js";

/** A word in source seconds. */
export interface SourceWord {
  start: number;
  end: number;
  text: string;
}

/** A segment in source seconds (what a transcriber returns), its words when it has them. */
export interface SourceSegment {
  start: number;
  end: number;
  text: string;
  words?: SourceWord[];
}

/** A host-provided transcriber, e.g. Whisper running in a worker. */
export type LocalTranscriber = (request: TranscribeRequest) => Promise<{ segments: SourceSegment[]; language?: string }>;

/** The one host-tool contract (js/host-tools.ts); re-exported for the agent's hosts. */
export type { HostTool } from "../host-tools.js";

export interface TranscribeToolOptions {
  editor: NeuralCutEditor;
  /** Gemini through the proxy; not needed when `transcriber` serves every call. */
  client?: ProxyClient;
  /** Default Gemini model. */
  model: string;
  transcriber?: LocalTranscriber;
  /** Bound on returned segments. 2 000. */
  maxSegments?: number;
  /** Runs load_asset_context (the agent passes its own: consent, cancel, dead handles healed). */
  loadContext?: (assetId: string, signal?: AbortSignal) => Promise<Record<string, unknown>>;
  /** Replaces a file handle Gemini no longer knows; resolves the new handle, or undefined. */
  heal?: (assetId: string, fileUri: string, signal?: AbortSignal) => Promise<string | undefined>;
  /** Whether a failed request means the file handle is gone (the agent checks with the proxy). */
  isDeadFile?: (error: unknown, fileUri: string, signal?: AbortSignal) => Promise<boolean>;
  /** The proxy's bound on maxOutputTokens, when it has one. */
  maxOutputTokens?: () => number | undefined;
  /** The local transcriber's progress on an asset, 0..1 ("loading" while its model loads). */
  onProgress?: (assetId: string, fraction: number, phase?: "loading") => void;
}

/** transcribe_video's catalog entry (registry::HOST_TOOLS, generated). */
const INFO = hostToolInfo("transcribe_video");
export const TRANSCRIBE_INPUT_SCHEMA = INFO.inputSchema;
export const TRANSCRIBE_OUTPUT_SCHEMA = INFO.outputSchema;

const GEMINI_RESPONSE_SCHEMA = {
  type: "object",
  properties: {
    language: { type: "string" },
    segments: {
      type: "array",
      items: {
        type: "object",
        properties: {
          start: { type: "number" },
          end: { type: "number" },
          text: { type: "string" },
          words: {
            type: "array",
            items: {
              type: "object",
              properties: { start: { type: "number" }, end: { type: "number" }, text: { type: "string" } },
              required: ["start", "end", "text"],
            },
          },
        },
        required: ["start", "end", "text", "words"],
      },
    },
  },
  required: ["segments"],
};

const fail = toolError;

type ElementJson = PlacedElement;

function placements(project: Record<string, unknown>, assetId: string): ElementJson[] {
  const tracks = ((project.timeline as { tracks?: Array<{ elements?: ElementJson[] }> } | null)?.tracks ?? []) as Array<{ elements?: ElementJson[] }>;
  return tracks.flatMap((t) => t.elements ?? []).filter((e) => e.assetId === assetId && (e.type === "video" || e.type === "audio"));
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/** A timed piece of text (segment or word) inside the media: finite, non-empty, clamped to
 * [0, duration]; undefined when it is none of that. */
function timed(raw: unknown, duration: number | undefined, strict: boolean): SourceWord | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  let { start, end, text } = raw as Record<string, unknown>;
  if (typeof start !== "number" || typeof end !== "number" || typeof text !== "string" || !Number.isFinite(start) || !Number.isFinite(end)) return undefined;
  start = Math.max(0, start);
  if (duration !== undefined) end = Math.min(end as number, duration);
  text = text.trim();
  // A word may be instantaneous; a segment must last.
  if ((strict ? (end as number) <= (start as number) : (end as number) < (start as number)) || text === "") return undefined;
  return { start: start as number, end: end as number, text: text as string };
}

/** Cleans a transcriber's segments: finite, ordered, inside the asset, bounded in number; their
 * words the same, in the order given (wordsInOrder says whether that order holds). */
export function cleanSegments(raw: unknown, duration: number | undefined, max: number): SourceSegment[] {
  if (!Array.isArray(raw)) return [];
  const out: SourceSegment[] = [];
  for (const s of raw) {
    const segment: SourceSegment | undefined = timed(s, duration, true);
    if (!segment) continue;
    const words = (s as { words?: unknown }).words;
    if (Array.isArray(words)) segment.words = words.map((w) => timed(w, duration, false)).filter((w): w is SourceWord => w !== undefined);
    out.push(segment);
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return out.slice(0, max);
}

/** Whether each segment's words start in order (a transcriber whose words run backwards is not
 * usable for captions: the tool refuses its answer). The index of the first bad segment, or -1. */
export function wordsOutOfOrder(segments: SourceSegment[]): number {
  return segments.findIndex((s) => s.words?.some((w, i) => i > 0 && w.start < s.words![i - 1].start));
}

/** Maps source-time segments (and their words) onto each placement's visible window, in
 * timeline seconds, through its trim and speed (OpenCut's retime: source = trimStart + clip ×
 * rate); words outside the window are left out. */
export function toTimeline(segments: SourceSegment[], elements: ElementJson[]): Array<SourceSegment & { elementId: string }> {
  const out: Array<SourceSegment & { elementId: string }> = [];
  for (const el of elements) {
    const { from, to, toTimeline: map } = elementSpan(el);
    const place = (t: number) => round(map(t));
    const clip = <T extends SourceWord>(x: T) => ({ ...x, start: Math.max(x.start, from), end: Math.min(x.end, to) });
    for (const s of segments) {
      const { start: a, end: b } = clip(s);
      if (b <= a) continue;
      const mapped: SourceSegment & { elementId: string } = { start: place(a), end: place(b), text: s.text, elementId: el.id };
      if (s.words) {
        mapped.words = s.words
          .filter((w) => w.end > from && w.start < to)
          .map(clip)
          .map((w) => ({ start: place(w.start), end: place(w.end), text: w.text }));
      }
      out.push(mapped);
    }
  }
  return out.sort((x, y) => x.start - y.start || x.end - y.end);
}

/** transcribe_video's segments as add_captions's words, in spoken order: each segment's own
 * words, or, for a segment without them, its text's words spread evenly over it (as OpenCut's
 * transcription/caption.ts times a chunk by its segment's words per second). */
export function captionWords(segments: SourceSegment[]): SourceWord[] {
  const words = segments.flatMap((s) => {
    if (s.words?.length) return s.words.map(({ start, end, text }) => ({ start, end, text }));
    const texts = s.text.split(/\s+/).filter((t) => t !== "");
    const step = (s.end - s.start) / texts.length;
    return texts.map((text, i) => ({ start: round(s.start + i * step), end: round(s.start + (i + 1) * step), text }));
  });
  // Placements that overlap in time interleave their words.
  return words.sort((a, b) => a.start - b.start);
}

/** Source-time segments as the tool answers them: times to the millisecond. */
const inSource = (segments: SourceSegment[]) =>
  segments.map((s) => ({
    start: round(s.start),
    end: round(s.end),
    text: s.text,
    ...(s.words ? { words: s.words.map((w) => ({ start: round(w.start), end: round(w.end), text: w.text })) } : {}),
  }));

/** Transcripts one tool keeps (per asset, provider, language and model), oldest dropped first. */
const MAX_TRANSCRIPTS = 32;

export function createTranscribeTool(options: TranscribeToolOptions): HostTool {
  const { editor, client, transcriber } = options;
  const maxSegments = options.maxSegments ?? 2000;
  const transcripts = new Map<string, Record<string, unknown>>();

  const loadContext = options.loadContext ?? ((assetId: string) => editor.callToolUntyped("load_asset_context", { assetId }));

  async function viaGemini(
    asset: AssetJson,
    language: string | undefined,
    modelId: string | undefined,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (!client) return fail("Failed to transcribe", "TRANSCRIBE_FAILED", { details: "no Gemini proxy and no local transcriber configured" });
    const ctx = await loadContext(asset.id, signal);
    if (signal?.aborted) return fail("Cancelled by the user", "CANCELLED");
    if (typeof ctx.error === "string")
      return fail("Failed to transcribe", "TRANSCRIBE_FAILED", {
        details: `load_asset_context: ${ctx.error}${typeof ctx.details === "string" ? ` (${ctx.details})` : ""}`,
      });
    if (ctx.status !== "loaded") {
      return fail("Asset is still processing", "ASSET_PROCESSING", {
        hint: "Gemini is still processing this asset; call transcribe_video again in a little while.",
      });
    }
    const prompt =
      `Transcribe all speech in this ${asset.type}. Return JSON: { "language": BCP 47 tag, "segments": [{ "start": seconds, "end": seconds, "text": string, "words": [{ "start": seconds, "end": seconds, "text": string }] }] }. ` +
      `Times are seconds from the start of the file, as decimal numbers. One segment per sentence or short phrase, at most about 12 seconds each; each word of it with its own start and end, in spoken order. ` +
      // The language is the caller's argument, not our words: quoted.
      (language
        ? `The speech is in the language ${JSON.stringify(language.slice(0, 64))}; transcribe it in that language. `
        : "Transcribe in the spoken language. ") +
      "If there is no speech, return an empty segments list.";
    const model = modelId ?? options.model;
    let fileUri = String(ctx.fileUri);
    let healed = false;
    let res: GenerateResponse | undefined;
    for (let boost = 1; boost <= 2; ) {
      try {
        res = await client.generate(
          {
            model,
            contents: [{ role: "user", parts: [{ fileData: { fileUri } }, { text: prompt }] }],
            generationConfig: taskConfig(model, "transcript", {
              temperature: 0,
              maxOutputTokens: options.maxOutputTokens?.(),
              boost,
              extra: { responseMimeType: "application/json", responseJsonSchema: GEMINI_RESPONSE_SCHEMA },
            }),
          },
          signal,
        );
      } catch (e) {
        if (signal?.aborted) return fail("Cancelled by the user", "CANCELLED");
        if (!healed && options.heal && (await options.isDeadFile?.(e, fileUri, signal))) {
          healed = true;
          const fresh = await options.heal(asset.id, fileUri, signal);
          if (fresh) {
            fileUri = fresh;
            continue;
          }
        }
        return fail("Failed to transcribe", "TRANSCRIBE_FAILED", { details: e instanceof Error ? e.message.slice(0, 300) : "unknown error" });
      }
      // Thinking used the whole budget: once more with twice the room.
      if (responseText(res).trim() === "" && res.candidates?.[0]?.finishReason === "MAX_TOKENS") {
        boost++;
        continue;
      }
      break;
    }
    let parsed: { segments?: unknown; language?: unknown };
    try {
      parsed = JSON.parse(responseText(res!));
    } catch {
      return fail("Failed to transcribe", "TRANSCRIBE_FAILED", { details: "the model did not return the transcript as JSON" });
    }
    return { segments: parsed?.segments, language: typeof parsed?.language === "string" ? parsed.language : language };
  }

  // The strict check is the contract's (js/host-tools.ts); the values are checked here.
  async function run(
    args: Partial<TranscribeVideoArgs> & Record<string, unknown>,
    callOptions: HostToolContext,
  ): Promise<TranscribeVideoResult | ToolErrorResult> {
    const { assetId, elementId, language, modelId, provider } = args as Record<string, unknown>;
    for (const [k, v] of Object.entries({ assetId, elementId, language, modelId })) {
      if (v !== undefined && (typeof v !== "string" || v.trim() === "")) return fail(`${k} must be a non-empty string`, "INVALID_ARGUMENT", { argument: k });
    }
    if (provider !== undefined && provider !== "local" && provider !== "gemini")
      return fail("provider must be one of: local, gemini", "INVALID_ARGUMENT", { argument: "provider" });
    if (assetId !== undefined && elementId !== undefined) return fail("Give assetId or elementId, not both", "INVALID_ARGUMENTS");
    let project: Record<string, unknown>;
    try {
      project = editor.project() as Record<string, unknown>;
    } catch {
      return fail("No active project", "NO_ACTIVE_PROJECT");
    }
    const assets = (project.assets ?? []) as AssetJson[];
    let asset: AssetJson | undefined;
    let element: ElementJson | undefined;
    if (typeof elementId === "string") {
      const tracks = ((project.timeline as { tracks?: Array<{ elements?: ElementJson[] }> } | null)?.tracks ?? []) as Array<{ elements?: ElementJson[] }>;
      element = tracks.flatMap((t) => t.elements ?? []).find((e) => e.id === elementId);
      if (!element) return fail("Element not found", "ELEMENT_NOT_FOUND", { hint: "Call list_timeline to get element ids." });
      if ((element.type !== "video" && element.type !== "audio") || !element.assetId)
        return fail("Unsupported asset type", "UNSUPPORTED_ASSET_TYPE", { hint: "transcribe_video takes a video or audio element." });
      asset = assets.find((a) => a.id === element!.assetId);
      if (!asset) return fail("Asset not found", "ASSET_NOT_FOUND", { hint: "Call list_project_assets to get asset ids." });
    } else if (typeof assetId === "string") {
      asset = assets.find((a) => a.id === assetId);
      if (!asset) {
        const named = assets.filter((a) => a.name === assetId);
        if (named.length === 1) asset = named[0];
      }
      if (!asset) return fail("Asset not found", "ASSET_NOT_FOUND", { hint: "Call list_project_assets to get asset ids." });
    } else {
      const media = assets.filter((a) => a.type === "video" || a.type === "audio");
      const placed = media.filter((a) => placements(project, a.id).length > 0);
      const pool = placed.length ? placed : media;
      if (pool.length !== 1) {
        return fail("assetId is required", "ASSET_REQUIRED", {
          hint: `${pool.length === 0 ? "There is no video or audio asset." : "Several video or audio assets qualify;"} Call list_project_assets and pass assetId.`,
        });
      }
      asset = pool[0];
    }
    if (asset.type !== "video" && asset.type !== "audio")
      return fail("Unsupported asset type", "UNSUPPORTED_ASSET_TYPE", { hint: "transcribe_video takes a video or audio asset." });

    let raw: Record<string, unknown>;
    const use = (provider as "local" | "gemini" | undefined) ?? (transcriber ? "local" : "gemini");
    if (use === "local" && !transcriber) return fail("Failed to transcribe", "TRANSCRIBE_FAILED", { details: "no local transcriber configured" });
    // A transcript is the asset's, whatever the timeline does: kept, and mapped afresh each call.
    const key = JSON.stringify([use, asset.id, language ?? null, modelId ?? null]);
    const cached = transcripts.get(key);
    if (cached) raw = cached;
    else if (use === "local" && transcriber) {
      try {
        raw = {
          ...(await transcriber({
            asset,
            source: editor.assetSource(asset.id) ?? {},
            language: language as string | undefined,
            modelId: modelId as string | undefined,
            signal: callOptions.signal,
            onProgress: (fraction, phase) => {
              options.onProgress?.(asset!.id, fraction, phase);
              const { progressToken, notify } = callOptions;
              if (progressToken !== undefined && notify)
                void notify({
                  method: "notifications/progress",
                  params: { progressToken, progress: fraction, total: 1, message: phase === "loading" ? "loading the model" : "transcribing" },
                }).catch(() => {});
            },
          })),
        };
      } catch (e) {
        if (callOptions.signal?.aborted) return fail("Cancelled by the user", "CANCELLED");
        return fail("Failed to transcribe", "TRANSCRIBE_FAILED", { details: e instanceof Error ? e.message.slice(0, 300) : "the local transcriber failed" });
      }
    } else {
      raw = await viaGemini(asset, language as string | undefined, modelId as string | undefined, callOptions.signal);
      if (typeof raw.error === "string") return raw as ToolErrorResult;
    }
    const segments = cleanSegments(raw?.segments, asset.duration, maxSegments);
    const backwards = wordsOutOfOrder(segments);
    if (backwards >= 0) return fail("Failed to transcribe", "TRANSCRIBE_FAILED", { details: `the word times of segment ${backwards + 1} go backwards` });
    if (!cached) {
      // The oldest goes first past the bound (a Map keeps insertion order).
      if (transcripts.size >= MAX_TRANSCRIPTS) transcripts.delete(transcripts.keys().next().value as string);
      transcripts.set(key, { segments, language: raw?.language });
    }
    const elements = element ? [element] : placements(project, asset.id);
    const lang = typeof raw?.language === "string" ? raw.language : language;
    return {
      assetId: asset.id,
      ...(element ? { elementId: element.id } : {}),
      provider: use,
      timeBase: elements.length ? "timeline" : "source",
      ...(lang ? { language: lang as string } : {}),
      text: segments.map((s) => s.text).join(" "),
      segments: elements.length ? toTimeline(segments, elements) : inSource(segments),
    };
  }

  return defineHostTool("transcribe_video", run);
}
