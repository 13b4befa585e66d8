// The package entry `neuralcut/export`: the timeline to a video file in the browser. Frames come
// from the compositor (`neuralcut/render`) at the project's frame rate, sound from the editor's
// audio plan mixed by Web Audio (an OfflineAudioContext per window), both encoded with WebCodecs
// and muxed by mediabunny, which also decodes the sources' audio. docs/export.md.
import {
  ALL_FORMATS,
  AudioBufferSink,
  AudioBufferSource,
  BlobSource,
  BufferTarget,
  Input,
  Mp4OutputFormat,
  Output,
  QUALITY_HIGH,
  QUALITY_LOW,
  QUALITY_MEDIUM,
  QUALITY_VERY_HIGH,
  StreamTarget,
  UrlSource,
  VideoSample,
  VideoSampleSource,
  WebMOutputFormat,
  canEncodeAudio,
  canEncodeVideo,
  type Quality,
  type StreamTargetChunk,
} from "mediabunny";

import { asNeuralCutError, NeuralCutError } from "./errors.js";
import { URL_SOURCE_OPTIONS } from "./media/url-options.js";
import { createFrameRenderer, type FrameRenderer, type RenderableEditor, type CreateFrameRendererOptions } from "./render.js";
import { timelineEnd } from "./timeline-end.js";
import type { AudioPlan, Frame, ProjectJson } from "./generated/tools.js";

export type ExportFormat = "mp4" | "webm";
export type ExportQuality = "low" | "medium" | "high" | "very-high";

/** The editor surface the export reads (a `NeuralCutEditor`). */
export interface ExportableEditor {
  frameAt(seconds: number): Frame | null;
  assetSource(id: string): { file?: Blob; url?: string } | undefined;
  project(): { [key: string]: unknown } | null;
  audioPlan(from: number, to: number, step?: number): AudioPlan | null;
}

/** The codecs an export may use (mediabunny's names). */
export type ExportVideoCodec = "avc" | "vp9" | "av1" | "vp8";
export type ExportAudioCodec = "aac" | "opus";

/** A piece of the file for a `target` stream: write `data` at byte `position`. */
export interface ExportChunk {
  type: "write";
  data: Uint8Array;
  position: number;
}

export interface ExportProgress {
  /** Video frames encoded so far, and how many the export has. */
  framesDone: number;
  totalFrames: number;
  /** 0 to 1. */
  progress: number;
}

export interface ExportOptions {
  /** "mp4" (H.264 video; AAC audio, else Opus) or "webm" (VP9, else AV1, else VP8; Opus). Default "mp4". */
  format?: ExportFormat;
  /** Output size in pixels (default the project's canvas); give one and the other keeps the aspect. Rounded to even numbers. */
  width?: number;
  height?: number;
  /** Frames per second (default the project's). */
  fps?: number;
  /** Seconds of the timeline to export (default all of it). */
  range?: { start?: number; end?: number };
  /** A preset or a video bitrate in bits per second (default "high"). */
  quality?: ExportQuality | number;
  /** Stops the export: the promise rejects with the signal's reason and nothing is kept. */
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  /**
   * Where the file goes while it is written, instead of a Blob at the end: chunks `{ data,
   * position }` (an MP4's header is written last, at its position near the start). Aborted on
   * cancel or failure.
   */
  target?: WritableStream<ExportChunk>;
  /** The renderer to draw with (default: a headless one made for this export and destroyed after). */
  renderer?: FrameRenderer;
  /** Passed to the renderer made for this export. */
  backend?: CreateFrameRendererOptions["backend"];
  media?: CreateFrameRendererOptions["media"];
}

export interface ExportResult {
  /** The file, unless a `target` stream was given. */
  blob?: Blob;
  format: ExportFormat;
  mimeType: string;
  videoCodec: ExportVideoCodec;
  /** Null when the browser has no audio encoder for the format and the timeline is silent. */
  audioCodec: ExportAudioCodec | null;
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** Seconds. */
  duration: number;
  /** Elements left out of some frames or of the mix, and why. */
  missing: { elementId: string; reason: string }[];
}

const SAMPLE_RATE = 48_000;
const CHANNELS = 2;
/** Audio is mixed and muxed in windows this long, interleaved with the video. */
const WINDOW_SECONDS = 2;
/** Seconds between two gain samples of a keyframed volume. */
const GAIN_STEP = 0.01;

const QUALITIES: Record<ExportQuality, Quality> = { low: QUALITY_LOW, medium: QUALITY_MEDIUM, high: QUALITY_HIGH, "very-high": QUALITY_VERY_HIGH };

const VIDEO_CODECS: Record<ExportFormat, ExportVideoCodec[]> = { mp4: ["avc"], webm: ["vp9", "av1", "vp8"] };
const AUDIO_CODECS: Record<ExportFormat, ExportAudioCodec[]> = { mp4: ["aac", "opus"], webm: ["opus"] };
const CODEC_NAMES: Record<string, string> = { avc: "H.264 (avc)", hevc: "H.265 (hevc)", vp9: "VP9", av1: "AV1", vp8: "VP8", aac: "AAC", opus: "Opus" };

const invalid = (message: string) => new NeuralCutError("INVALID_EXPORT", message);

const timelineDuration = (editor: ExportableEditor) => timelineEnd(editor.project());

/** The video codecs this browser encodes at this size, among `codecs`. */
async function encodableVideo(codecs: ExportVideoCodec[], width: number, height: number): Promise<ExportVideoCodec[]> {
  const out: ExportVideoCodec[] = [];
  for (const c of codecs) if (await canEncodeVideo(c, { width, height }).catch(() => false)) out.push(c);
  return out;
}

async function encodableAudio(codecs: ExportAudioCodec[]): Promise<ExportAudioCodec[]> {
  const out: ExportAudioCodec[] = [];
  for (const c of codecs) if (await canEncodeAudio(c, { numberOfChannels: CHANNELS, sampleRate: SAMPLE_RATE }).catch(() => false)) out.push(c);
  return out;
}

/** The video codec for `format`, or a CODEC_UNSUPPORTED error naming what is missing and what would work. */
async function chooseVideoCodec(format: ExportFormat, width: number, height: number): Promise<ExportVideoCodec> {
  if (typeof VideoEncoder === "undefined") {
    throw new NeuralCutError(
      "CODEC_UNSUPPORTED",
      "This browser has no WebCodecs VideoEncoder (it needs a secure context: https or 127.0.0.1), so it cannot export video.",
    );
  }
  const [codec] = await encodableVideo(VIDEO_CODECS[format], width, height);
  if (codec) return codec;
  const other: ExportFormat = format === "mp4" ? "webm" : "mp4";
  const alternatives = await encodableVideo(VIDEO_CODECS[other], width, height);
  const wanted = VIDEO_CODECS[format].map((c) => CODEC_NAMES[c]).join(" or ");
  const hint = alternatives.length
    ? `export as ${other} instead (this browser encodes ${alternatives.map((c) => CODEC_NAMES[c]).join(", ")})`
    : `this browser encodes none of ${[...VIDEO_CODECS.mp4, ...VIDEO_CODECS.webm].map((c) => CODEC_NAMES[c]).join(", ")} at ${width}x${height}`;
  throw new NeuralCutError("CODEC_UNSUPPORTED", `This browser cannot encode ${wanted} video at ${width}x${height}, which ${format} export needs; ${hint}.`);
}

/**
 * Output dimensions from the options and the project's canvas: an even width, and the height the
 * compositor draws at that width (it keeps the aspect) less an odd last row (codecs want even sizes).
 */
function outputSize(canvas: { width: number; height: number }, width?: number, height?: number): { width: number; height: number } {
  for (const [name, v] of [
    ["width", width],
    ["height", height],
  ] as const) {
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 2 || v > 8192))
      throw invalid(`${name} must be a number of pixels from 2 to 8192, got ${v}`);
  }
  const aspect = canvas.width / canvas.height;
  if (width !== undefined && height !== undefined && Math.abs(width / height - aspect) > 0.02 * aspect) {
    throw invalid(`${width}x${height} does not keep the project's ${canvas.width}x${canvas.height} aspect; give only width or height`);
  }
  const w = Math.max(2, 2 * Math.round((width ?? (height !== undefined ? height * aspect : canvas.width)) / 2));
  const drawn = Math.max(1, Math.round(canvas.height * (w / canvas.width)));
  return { width: w, height: Math.max(2, drawn - (drawn % 2)) };
}

const abortReason = (signal: AbortSignal) => signal.reason ?? new DOMException("The export was cancelled", "AbortError");

/** Decoded audio of each asset, read through mediabunny. */
class AudioSources {
  readonly #inputs = new Map<string, Promise<AudioBufferSink | string>>();
  readonly #open: Input[] = [];
  constructor(private readonly editor: ExportableEditor) {}

  /** Closes every file read. */
  dispose(): void {
    for (const input of this.#open) input.dispose();
  }

  /** The asset's audio, or why there is none. */
  sink(assetId: string): Promise<AudioBufferSink | string> {
    let p = this.#inputs.get(assetId);
    if (!p) {
      p = (async () => {
        const src = this.editor.assetSource(assetId);
        if (!src?.file && !src?.url) return `no source for asset ${assetId}`;
        const input = new Input({ source: src.file ? new BlobSource(src.file) : new UrlSource(src.url!, URL_SOURCE_OPTIONS), formats: ALL_FORMATS });
        this.#open.push(input);
        const track = await input.getPrimaryAudioTrack();
        if (!track) return `asset ${assetId} has no audio track`;
        if (!(await track.canDecode())) return `this browser cannot decode the ${track.codec ?? "unknown"} audio of asset ${assetId}`;
        return new AudioBufferSink(track);
      })().catch((e: unknown) => `asset ${assetId} could not be read: ${e instanceof Error ? e.message : String(e)}`);
      this.#inputs.set(assetId, p);
    }
    return p;
  }
}

/** Source audio over `[from, to)` seconds as one AudioBuffer, and the source time of its first sample. */
async function sourceAudio(sink: AudioBufferSink, from: number, to: number): Promise<{ buffer: AudioBuffer; start: number } | null> {
  const parts: { buffer: AudioBuffer; timestamp: number }[] = [];
  for await (const w of sink.buffers(Math.max(0, from), to)) parts.push({ buffer: w.buffer, timestamp: w.timestamp });
  if (parts.length === 0) return null;
  const rate = parts[0].buffer.sampleRate;
  const channels = Math.max(...parts.map((p) => p.buffer.numberOfChannels));
  const start = parts[0].timestamp;
  const last = parts[parts.length - 1];
  const length = Math.round((last.timestamp - start) * rate) + last.buffer.length;
  const out = new AudioBuffer({ length, numberOfChannels: channels, sampleRate: rate });
  for (const p of parts) {
    const at = Math.round((p.timestamp - start) * rate);
    for (let c = 0; c < channels; c++) {
      const data = p.buffer.getChannelData(Math.min(c, p.buffer.numberOfChannels - 1)).subarray(0, Math.max(0, length - at));
      out.copyToChannel(data, c, at);
    }
  }
  return { buffer: out, start };
}

let stretchModule: Promise<typeof import("./media/stretch.js")> | undefined;

/** The time stretch (and soundtouchjs), loaded for the first clip that keeps its pitch. */
async function stretcher(elementId: string): Promise<typeof import("./media/stretch.js")> {
  try {
    return await (stretchModule ??= import("./media/stretch.js"));
  } catch (e) {
    stretchModule = undefined;
    throw new NeuralCutError(
      "EXPORT_FAILED",
      `${elementId} keeps its pitch at another speed, which needs soundtouchjs: the page could not load it (${e instanceof Error ? e.message : String(e)}); map "soundtouchjs" in its import map (docs/export.md)`,
    );
  }
}

/** Mixes the timeline's sound over `[from, to)` seconds (`offset` seconds into the export) into a stereo 48 kHz AudioBuffer. */
async function mixWindow(
  editor: ExportableEditor,
  sources: AudioSources,
  from: number,
  to: number,
  frames: number,
  missing: Map<string, string>,
): Promise<AudioBuffer> {
  const ctx = new OfflineAudioContext({ numberOfChannels: CHANNELS, length: Math.max(1, frames), sampleRate: SAMPLE_RATE });
  const plan = editor.audioPlan(from, to, GAIN_STEP);
  for (const clip of plan?.clips ?? []) {
    const a = Math.max(from, clip.start);
    const b = Math.min(to, clip.end);
    if (b <= a) continue;
    const sink = await sources.sink(clip.assetId);
    if (typeof sink === "string") {
      missing.set(clip.elementId, sink);
      continue;
    }
    const sa = clip.sourceStart + (a - clip.start) * clip.rate;
    const sb = clip.sourceStart + (b - clip.start) * clip.rate;
    // A clip that keeps its pitch is stretched here, from a little before the span so the
    // stretch has settled where the window starts (js/media/stretch.ts).
    const pitched = clip.maintainPitch && clip.rate !== 1;
    const stretch = pitched ? await stretcher(clip.elementId) : undefined;
    const pre = stretch ? Math.min(stretch.STRETCH_PREROLL * clip.rate, sa) : 0;
    const got = await sourceAudio(sink, sa - pre, sb + 0.05);
    if (!got) continue;
    let buffer = got.buffer;
    let offset = Math.max(0, sa - got.start);
    if (stretch) {
      const sr = buffer.sampleRate;
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
      const skip = Math.round((pre / clip.rate) * sr);
      const from = Math.max(0, Math.round((sa - pre - got.start) * sr));
      const stretched = stretch.stretchKeepingPitch(channels, from, clip.rate, skip + Math.ceil((b - a) * sr) + 1);
      buffer = new AudioBuffer({ length: stretched[0].length - skip, numberOfChannels: stretched.length, sampleRate: sr });
      stretched.forEach((data, c) => buffer.copyToChannel(data.subarray(skip), c));
      offset = 0;
    }
    const node = new AudioBufferSourceNode(ctx, { buffer, playbackRate: pitched ? 1 : clip.rate });
    const gain = new GainNode(ctx, { gain: clip.gains[0] });
    if (clip.gains.length > 1) {
      // Keyframed volume: the engine's samples, joined linearly.
      const first = Math.max(0, Math.floor((a - clip.gainsFrom) / plan!.step));
      gain.gain.setValueAtTime(clip.gains[first], Math.max(0, clip.gainsFrom + first * plan!.step - from));
      for (let i = first + 1; i < clip.gains.length; i++) {
        const t = clip.gainsFrom + i * plan!.step - from;
        if (t > to - from + plan!.step) break;
        gain.gain.linearRampToValueAtTime(clip.gains[i], Math.max(0, t));
      }
    }
    node.connect(gain).connect(ctx.destination);
    node.start(a - from, offset);
    node.stop(b - from);
  }
  return ctx.startRendering();
}

/**
 * Exports the editor's timeline to a video file. Resolves with the file (or, with `target`, once
 * it is all written); rejects with the signal's reason when cancelled, or a NeuralCutError:
 * CODEC_UNSUPPORTED (naming the codec and what would work), INVALID_EXPORT (bad options, an
 * empty timeline).
 */
export async function exportVideo(editor: ExportableEditor, options: ExportOptions = {}): Promise<ExportResult> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const format = options.format ?? "mp4";
  if (format !== "mp4" && format !== "webm") throw invalid(`format must be "mp4" or "webm", got ${JSON.stringify(format)}`);
  const project = editor.project() as Pick<ProjectJson, "settings"> | null;
  if (!project) throw invalid("the editor has no project to export");
  const canvas = project.settings?.canvas ?? { width: 1920, height: 1080 };
  const projectFps = project.settings?.fps ? project.settings.fps.numerator / project.settings.fps.denominator : 30;
  const fps = options.fps ?? projectFps;
  if (typeof fps !== "number" || !Number.isFinite(fps) || fps < 1 || fps > 240) throw invalid(`fps must be from 1 to 240, got ${options.fps}`);
  const total = timelineDuration(editor);
  const start = options.range?.start ?? 0;
  const end = options.range?.end ?? total;
  if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end <= start) {
    throw invalid(
      total === 0 && options.range === undefined ? "nothing to export: the timeline is empty" : `range must have 0 <= start < end, got ${start} to ${end}`,
    );
  }
  const { width, height } = outputSize(canvas, options.width, options.height);
  const quality = options.quality ?? "high";
  const bitrate = typeof quality === "number" ? quality : QUALITIES[quality];
  if (bitrate === undefined || (typeof bitrate === "number" && !(bitrate >= 10_000))) {
    throw invalid(`quality must be low, medium, high, very-high or a bitrate of at least 10000 bits per second, got ${JSON.stringify(quality)}`);
  }

  const videoCodec = await chooseVideoCodec(format, width, height);
  const audioCodec = (await encodableAudio(AUDIO_CODECS[format]))[0] ?? null;
  const duration = end - start;
  const frames = Math.max(1, Math.round(duration * fps));
  const heard = editor.audioPlan(start, end, 1)?.clips.length ?? 0;
  if (!audioCodec && heard > 0) {
    throw new NeuralCutError(
      "CODEC_UNSUPPORTED",
      `This browser cannot encode ${AUDIO_CODECS[format].map((c) => CODEC_NAMES[c]).join(" or ")} audio, which ${format} export needs for the timeline's sound${format === "mp4" ? "; try webm" : ""}.`,
    );
  }

  // The caller's stream is written through a writer of our own, so a cancel can abort it.
  const writer = options.target?.getWriter();
  let finalizing = false;
  const relay = writer && new WritableStream<StreamTargetChunk>({ write: (c) => writer.write(c), close: () => (finalizing ? writer.close() : undefined) });
  const target = relay ? new StreamTarget(relay, { chunked: true, chunkSize: 1 << 20 }) : new BufferTarget();
  const output = new Output({
    format: format === "mp4" ? new Mp4OutputFormat({ fastStart: options.target ? false : "in-memory" }) : new WebMOutputFormat(),
    target,
  });
  const video = new VideoSampleSource({ codec: videoCodec, ...(typeof bitrate === "number" ? { bitrate } : { quality: bitrate }), keyFrameInterval: 2 });
  output.addVideoTrack(video, { frameRate: fps });
  const audio = audioCodec ? new AudioBufferSource({ codec: audioCodec, quality: typeof bitrate === "number" ? QUALITY_HIGH : bitrate }) : null;
  if (audio) output.addAudioTrack(audio);

  const ownRenderer = !options.renderer;
  // The renderer decodes video in order, each frame once, rather than by a seek per frame
  // (docs/export.md), and closes the decoders of clips that leave the screen after each frame.
  // RenderableEditor's project() is typed narrower than a NeuralCutEditor's; the compositor reads the same editor.
  const renderer =
    options.renderer ?? (await createFrameRenderer({ editor: editor as unknown as RenderableEditor, backend: options.backend, media: options.media }));
  const missing = new Map<string, string>();
  const sources = new AudioSources(editor);
  let done = 0;
  try {
    await output.start();
    const windows = Math.ceil(duration / WINDOW_SECONDS);
    for (let w = 0; w < windows; w++) {
      signal?.throwIfAborted();
      const w0 = w * WINDOW_SECONDS;
      const w1 = Math.min(duration, w0 + WINDOW_SECONDS);
      if (audio) {
        // Whole samples from the export's start, so windows join without drift.
        const s0 = Math.round(w0 * SAMPLE_RATE);
        const s1 = Math.round(w1 * SAMPLE_RATE);
        await audio.add(await mixWindow(editor, sources, start + w0, start + w1, s1 - s0, missing));
      }
      for (; done < frames && done / fps < w1 - 1e-9; done++) {
        signal?.throwIfAborted();
        const t = done / fps;
        const drawn = await renderer.render(start + t, { width });
        for (const m of drawn.missing) missing.set(m.elementId, m.reason);
        // An odd last row is left out (see outputSize).
        const picture = await renderer.toVideoFrame({
          timestamp: Math.round(t * 1e6),
          duration: Math.round(1e6 / fps),
          visibleRect: { x: 0, y: 0, width, height },
        });
        const sample = new VideoSample(picture, { timestamp: t, duration: 1 / fps });
        try {
          await video.add(sample);
        } finally {
          sample.close();
        }
        onProgress?.({ framesDone: done + 1, totalFrames: frames, progress: (done + 1) / frames });
      }
    }
    signal?.throwIfAborted();
    finalizing = true;
    await output.finalize();
  } catch (e) {
    await output.cancel().catch(() => {});
    await writer?.abort(e).catch(() => {});
    if (signal?.aborted) throw abortReason(signal);
    // An encoder, muxer or target failure (mediabunny's or the caller's stream's own error, kept as the cause).
    throw asNeuralCutError(e, "EXPORT_FAILED", "the export failed: ");
  } finally {
    sources.dispose();
    if (ownRenderer) renderer.destroy();
  }
  const mimeType = await output.getMimeType();
  const blob = target instanceof BufferTarget && target.buffer ? new Blob([target.buffer], { type: mimeType }) : undefined;
  return {
    ...(blob ? { blob } : {}),
    format,
    mimeType,
    videoCodec,
    audioCodec,
    width,
    height,
    fps,
    frames,
    duration: frames / fps,
    missing: [...missing].map(([elementId, reason]) => ({ elementId, reason })),
  };
}
