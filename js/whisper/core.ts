// Whisper through transformers.js (@huggingface/transformers, an optional peer dependency: the
// host installs it), wherever it runs: a Web Worker (js/whisper/worker.ts) or Node. It loads the
// model from where the host says, chooses the device, hears 16 kHz mono audio in overlapping
// 30 s windows with word timestamps, stitches them (js/whisper/stitch.ts) and reports progress.
// docs/transcribe.md.

import { NeuralCutError } from "../errors.js";
import { segmentsOf, stitch, windowsOf, type TimedWord } from "./stitch.js";
import { WHISPER_RATE } from "./resample.js";

/** OpenCut's Whisper models (apps/web/src/transcription/models.ts): its ids and their hub ids, the
 * default names for a host that allows the hub. Word timing needs a decoder exported with its
 * cross-attentions (onnx-community's `*_timestamped` exports); with another, segments come
 * without words. */
export const WHISPER_MODELS: Readonly<Record<string, string>> = {
  "whisper-tiny": "onnx-community/whisper-tiny",
  "whisper-small": "onnx-community/whisper-small",
  "whisper-medium": "onnx-community/whisper-medium",
  "whisper-large-v3-turbo": "onnx-community/whisper-large-v3-turbo",
};
/** OpenCut's default (DEFAULT_TRANSCRIPTION_MODEL). */
export const DEFAULT_WHISPER_MODEL = "whisper-small";

export type WhisperDevice = "webgpu" | "wasm" | "cpu";

export interface WhisperOptions {
  /** A folder under `modelPath`, or with `allowHub` an OpenCut id (WHISPER_MODELS) or hub id. */
  model?: string;
  /** Where model folders are: a URL (a page, a worker) or a directory (Node). */
  modelPath?: string;
  /** Whether transformers.js may fetch the model from the Hugging Face hub. false. */
  allowHub?: boolean;
  /** "auto" (default): in a page with a WebGPU adapter, both WebGPU and wasm are timed on the
   * first audio and the faster kept; wasm without an adapter; cpu (onnxruntime-node) in Node. */
  device?: "auto" | WhisperDevice;
  /** transformers.js dtype (one, or per file: encoder_model, decoder_model_merged). "q8" on wasm
   * and cpu, encoder fp32 + decoder q4 on WebGPU (fp16 decoders have given empty transcripts). */
  dtype?: string | Record<string, string>;
  /** onnxruntime-web's dist/ folder URL (its .wasm and .mjs); else transformers.js uses a CDN. */
  wasmPaths?: string;
  /** Window and overlap in seconds. 30 and 5. */
  windowSeconds?: number;
  overlapSeconds?: number;
}

export interface WhisperProgress {
  phase: "loading" | "measuring" | "decoding" | "transcribing";
  /** 0..1 within the phase. */
  fraction: number;
  device?: WhisperDevice;
  window?: number;
  windows?: number;
}

/** How the device was chosen: configured, the only one, or timed (milliseconds per device). */
export type DeviceChoice =
  | { device: WhisperDevice; how: "configured" | "only" }
  | { device: WhisperDevice; how: "measured"; ms: Partial<Record<WhisperDevice, number>> };

export interface WhisperResult {
  language?: string;
  segments: Array<{ start: number; end: number; text: string; words?: TimedWord[] }>;
  device: DeviceChoice;
  /** The windows heard and the cut in each overlap (seconds of the audio). */
  windows: Array<{ start: number; end: number }>;
  cuts: number[];
  /** Whether the words have times (the decoder had cross-attentions). */
  wordTimes: boolean;
}

/** What this module reads of transformers.js (kept structural: the package is optional). */
export interface Transformers {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    localModelPath: string;
    remoteHost: string;
    remotePathTemplate: string;
    backends: { onnx: { wasm?: { wasmPaths?: unknown } } };
  };
  pipeline(task: "automatic-speech-recognition", model: string, options: Record<string, unknown>): Promise<Asr>;
}
type Chunk = { text: string; timestamp: [number, number | null] };
export interface Asr {
  (audio: Float32Array, options: Record<string, unknown>): Promise<{ text: string; chunks?: Chunk[] }>;
  dispose?(): Promise<void>;
}

const isNode =
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === "string" &&
  typeof (globalThis as { window?: unknown }).window === "undefined";

export function checkOptions(options: WhisperOptions): { window: number; overlap: number } {
  const window = options.windowSeconds ?? 30;
  const overlap = options.overlapSeconds ?? 5;
  if (!(window > 0 && window <= 30))
    throw new NeuralCutError("INVALID_OPTIONS", "windowSeconds must be a number of seconds > 0 and at most 30 (what Whisper hears)");
  if (!(overlap >= 0 && overlap < window / 2)) throw new NeuralCutError("INVALID_OPTIONS", "overlapSeconds must be at least 0 and under half of windowSeconds");
  if (options.device !== undefined && !["auto", "webgpu", "wasm", "cpu"].includes(options.device))
    throw new NeuralCutError("INVALID_OPTIONS", "device must be one of: auto, webgpu, wasm, cpu");
  return { window, overlap };
}

/** The model name transformers.js is given. */
export function modelName(options: WhisperOptions): string {
  const model = options.model ?? DEFAULT_WHISPER_MODEL;
  return options.allowHub && !options.modelPath ? (WHISPER_MODELS[model] ?? model) : model;
}

function defaultDtype(device: WhisperDevice): string | Record<string, string> {
  return device === "webgpu" ? { encoder_model: "fp32", decoder_model_merged: "q4" } : "q8";
}

async function hasWebGpu(): Promise<boolean> {
  const gpu = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } }).navigator?.gpu;
  if (isNode || !gpu) return false;
  try {
    return (await gpu.requestAdapter()) != null;
  } catch {
    return false;
  }
}

/** A signal's cancellation as the package gives it: its reason. */
function stopIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new NeuralCutError("CANCELLED", "Cancelled");
}

/** Whisper loaded once and reused by every transcription. */
export class WhisperEngine {
  readonly #options: WhisperOptions;
  readonly #load: () => Promise<Transformers>;
  readonly #sizes: { window: number; overlap: number };
  #asr?: Promise<Asr>;
  #choice?: DeviceChoice;

  /** `load` imports transformers.js (a literal import in the worker, so bundlers find it). */
  constructor(load: () => Promise<Transformers>, options: WhisperOptions = {}) {
    this.#sizes = checkOptions(options);
    this.#options = options;
    this.#load = load;
  }

  async #pipeline(device: WhisperDevice, onProgress?: (p: WhisperProgress) => void): Promise<Asr> {
    const tf = await this.#load();
    const o = this.#options;
    tf.env.allowRemoteModels = o.allowHub === true;
    if (o.modelPath) {
      const base = o.modelPath.endsWith("/") ? o.modelPath : `${o.modelPath}/`;
      if (/^https?:\/\//.test(base)) {
        // transformers.js reads an http(s) localModelPath as missing: the host's server stands in
        // for the hub instead, so the hub itself is never asked.
        tf.env.allowLocalModels = false;
        tf.env.allowRemoteModels = true;
        tf.env.remoteHost = base;
        tf.env.remotePathTemplate = "{model}/";
      } else {
        tf.env.allowLocalModels = true;
        tf.env.localModelPath = base;
      }
    }
    const wasm = tf.env.backends.onnx.wasm;
    if (o.wasmPaths && wasm) wasm.wasmPaths = o.wasmPaths;
    return tf.pipeline("automatic-speech-recognition", modelName(o), {
      device,
      dtype: o.dtype ?? defaultDtype(device),
      progress_callback: (info: { status?: string; progress?: number }) => {
        if (info.status === "progress_total" && typeof info.progress === "number") onProgress?.({ phase: "loading", fraction: info.progress / 100, device });
      },
    });
  }

  /** The pipeline on the chosen device; with "auto" and a WebGPU adapter, the faster of WebGPU
   * and wasm on `probe` (a few seconds of the first audio), timed after one warm-up run each. */
  async #ready(probe: Float32Array, onProgress?: (p: WhisperProgress) => void): Promise<Asr> {
    if (this.#asr) return this.#asr;
    const asked = this.#options.device ?? "auto";
    const start = async (): Promise<Asr> => {
      if (asked !== "auto") {
        this.#choice = { device: asked, how: "configured" };
        return this.#pipeline(asked, onProgress);
      }
      if (!(await hasWebGpu())) {
        const device: WhisperDevice = isNode ? "cpu" : "wasm";
        this.#choice = { device, how: "only" };
        return this.#pipeline(device, onProgress);
      }
      const ms: Partial<Record<WhisperDevice, number>> = {};
      const tried: Array<[WhisperDevice, Asr]> = [];
      const failed: string[] = [];
      // wasm first: after a failed WebGPU start, onnxruntime-web made no more wasm sessions in that
      // worker (an emscripten exception; seen with an adapter that makes no device).
      for (const device of ["wasm", "webgpu"] as const) {
        try {
          const asr = await this.#pipeline(device, onProgress);
          onProgress?.({ phase: "measuring", fraction: tried.length / 2, device });
          // Segment timestamps: every export has them (word timing adds the same JS work on both).
          await asr(probe, { return_timestamps: true });
          const t0 = performance.now();
          await asr(probe, { return_timestamps: true });
          ms[device] = performance.now() - t0;
          tried.push([device, asr]);
        } catch (e) {
          // A device that cannot run the model loses the comparison.
          failed.push(`${device}: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200));
        }
      }
      if (!tried.length) throw new NeuralCutError("TRANSCRIBE_FAILED", `the model runs neither on WebGPU nor on wasm (${failed.join("; ")})`);
      tried.sort((a, b) => ms[a[0]]! - ms[b[0]]!);
      for (const [, asr] of tried.slice(1)) await asr.dispose?.();
      this.#choice = { device: tried[0][0], how: "measured", ms };
      return tried[0][1];
    };
    this.#asr = start();
    this.#asr.catch(() => {
      this.#asr = undefined;
    });
    return this.#asr;
  }

  /** The device in use, once the model is loaded. */
  device(): DeviceChoice | undefined {
    return this.#choice;
  }

  /** Transcribes 16 kHz mono audio: segments of words in seconds from the audio's start. */
  async transcribe(
    audio: Float32Array,
    request: { language?: string; signal?: AbortSignal; onProgress?: (p: WhisperProgress) => void } = {},
  ): Promise<WhisperResult> {
    const { signal, onProgress } = request;
    stopIfAborted(signal);
    const duration = audio.length / WHISPER_RATE;
    const { window, overlap } = this.#sizes;
    const spans = windowsOf(duration, window, overlap);
    const asr = await this.#ready(audio.subarray(0, Math.min(audio.length, 5 * WHISPER_RATE)), onProgress);
    const device = this.#choice!;
    // Whisper's language names or codes; a BCP 47 tag's first part ("pt-BR" -> "pt").
    const language = request.language?.split(/[-_]/)[0].toLowerCase();
    const heard: Array<{ start: number; end: number; words: TimedWord[] }> = [];
    let wordTimes = true;
    for (let i = 0; i < spans.length; i++) {
      stopIfAborted(signal);
      onProgress?.({ phase: "transcribing", fraction: i / spans.length, window: i, windows: spans.length, device: device.device });
      const { start, end } = spans[i];
      const slice = audio.subarray(Math.round(start * WHISPER_RATE), Math.round(end * WHISPER_RATE));
      heard.push({ start, end, words: await this.#window(asr, slice, start, end, language, () => (wordTimes = false)) });
    }
    stopIfAborted(signal);
    onProgress?.({ phase: "transcribing", fraction: 1, window: spans.length, windows: spans.length, device: device.device });
    const { words, cuts } = stitch(heard);
    const segments = wordTimes ? segmentsOf(words) : segmentsOf(words).map(({ words: _w, ...s }) => s);
    return { ...(language ? { language } : {}), segments, device, windows: spans, cuts, wordTimes };
  }

  /** One window's words in seconds of the audio, inside the window. Without cross-attentions in
   * the decoder, Whisper's segment timestamps spread over their words (`untimed` is told). */
  async #window(asr: Asr, slice: Float32Array, start: number, end: number, language: string | undefined, untimed: () => void): Promise<TimedWord[]> {
    const options = language ? { language } : {};
    const clamp = (t: number) => Math.min(end, Math.max(start, start + t));
    try {
      const out = await asr(slice, { ...options, return_timestamps: "word" });
      // A word timed past the window's sound (Whisper hears it padded to 30 s) is not in it.
      return (out.chunks ?? [])
        .filter((c) => c.timestamp[0] < end - start && c.text.trim() !== "")
        .map((c) => ({ start: clamp(c.timestamp[0]), end: clamp(c.timestamp[1] ?? c.timestamp[0]), text: c.text.trim() }));
    } catch (e) {
      if (!(e instanceof Error && /cross attentions/i.test(e.message))) throw e;
    }
    untimed();
    const out = await asr(slice, { ...options, return_timestamps: true });
    const words: TimedWord[] = [];
    for (const c of out.chunks ?? []) {
      const parts = c.text.trim().split(/\s+/).filter(Boolean);
      const a = clamp(c.timestamp[0]);
      const b = clamp(c.timestamp[1] ?? end - start);
      parts.forEach((text, k) => words.push({ start: a + ((b - a) * k) / parts.length, end: a + ((b - a) * (k + 1)) / parts.length, text }));
    }
    return words;
  }

  async dispose(): Promise<void> {
    const asr = this.#asr;
    this.#asr = undefined;
    await (await asr?.catch(() => undefined))?.dispose?.();
  }
}
