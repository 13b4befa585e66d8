// `neuralcut/whisper`: transcribe_video's local provider. createWhisperTranscriber gives the agent
// (createAgent's `transcriber`) or createTranscribeTool a LocalTranscriber that decodes an asset's
// sound here with mediabunny and hears it with Whisper through transformers.js, in a Web Worker
// (`worker`, the page) or in this thread (no worker: Node). docs/transcribe.md.
import { asNeuralCutError, NeuralCutError } from "../errors.js";
import { URL_SOURCE_OPTIONS } from "../media/url-options.js";
import type { LocalTranscriber } from "../agent/transcribe.js";
import type { TranscribeRequest } from "../transcribe-request.js";
import type { AssetSource } from "../types.js";
import { checkOptions, WhisperEngine, type DeviceChoice, type Transformers, type WhisperOptions, type WhisperProgress, type WhisperResult } from "./core.js";
import { decode16k, decodeMono } from "./decode.js";
import type { FromWorker, ToWorker } from "./protocol.js";

export { DEFAULT_WHISPER_MODEL, WHISPER_MODELS, WhisperEngine, modelName } from "./core.js";
export type { DeviceChoice, Transformers, WhisperOptions, WhisperProgress, WhisperResult } from "./core.js";
export type { TranscribeRequest } from "../transcribe-request.js";
export { Resampler, resample, downmix, WHISPER_RATE } from "./resample.js";
export { stitch, cutPoint, windowsOf, segmentsOf, type TimedWord, type WindowWords } from "./stitch.js";
// decode16k and decodeMono stay in ./decode.js: their mediabunny types need lib esnext, which a
// consumer's tsc may not have.

/** Where a transcription is: its phase's progress, and `overall` (decoding the first tenth). */
export type TranscriberProgress = WhisperProgress & { assetId: string; overall: number };

export interface WhisperTranscriberOptions extends WhisperOptions {
  /** A module worker running `neuralcut/whisper/worker`, or a function that makes one (made on
   * first use). Without it Whisper runs in this thread. */
  worker?: Worker | (() => Worker);
  /** Worker only: the URL of transformers.js's ESM build (`dist/transformers.js`) when the worker
   * cannot resolve `@huggingface/transformers` (a page without a bundler). */
  transformersUrl?: string;
  /** In-thread only: how transformers.js is imported. `import("@huggingface/transformers")`. */
  transformers?: () => Promise<Transformers>;
  onProgress?: (progress: TranscriberProgress) => void;
}

/** One transcription, in the worker or in this thread: the page's decoder, the source, the
 * language asked for, the signal, and where progress goes. */
type Job = (
  mediabunny: typeof import("mediabunny"),
  source: import("mediabunny").Source,
  language: string | undefined,
  signal: AbortSignal | undefined,
  report: (p: WhisperProgress, overall: number) => void,
) => Promise<WhisperResult>;

/** transcribe_video's LocalTranscriber (js/agent/transcribe.ts), its request from
 * js/transcribe-request.ts, so that these typings do not pull in the agent's (and through them
 * mediabunny's, which need lib esnext). */
export interface WhisperTranscriber {
  (request: TranscribeRequest): Promise<{ segments: WhisperResult["segments"]; language?: string }>;
  /** The device Whisper runs on and how it was chosen, once a transcription has loaded it. */
  device(): DeviceChoice | undefined;
  /** The last transcription's details: windows, cuts, whether words are timed. */
  last(): WhisperResult | undefined;
  /** Frees the model (and ends the worker this transcriber made). */
  dispose(): Promise<void>;
}

const DECODE_SHARE = 0.1;
/** Job ids, unique in the page: transcribers may share one worker. */
let nextId = 1;

async function openSource(source: AssetSource, assetId: string) {
  const mediabunny = await import("mediabunny");
  if (source.file) return { mediabunny, source: new mediabunny.BlobSource(source.file) };
  if (source.url) return { mediabunny, source: new mediabunny.UrlSource(source.url, URL_SOURCE_OPTIONS) };
  throw new NeuralCutError("DECODE_FAILED", `no source for asset ${assetId}`);
}

/** transcribe_video's local provider: Whisper on an asset's sound (see the options). */
export function createWhisperTranscriber(options: WhisperTranscriberOptions = {}): WhisperTranscriber {
  const { worker: workerOption, transformersUrl, transformers, onProgress, ...whisper } = options;
  checkOptions(whisper);
  let engine: WhisperEngine | undefined;
  let worker: Worker | undefined;
  let device: DeviceChoice | undefined;
  let last: WhisperResult | undefined;

  let given: Worker | undefined = typeof workerOption === "function" ? undefined : workerOption;

  function theWorker(): Worker {
    if (!worker) {
      if (typeof workerOption === "function") worker = workerOption();
      else if (given) worker = given;
      else throw new NeuralCutError("TRANSCRIBE_FAILED", "the Whisper worker failed earlier and this transcriber cannot make another");
    }
    return worker;
  }

  /** Runs one job in the worker: the page decodes and posts, the worker resamples and hears. */
  const inWorker: Job = (mediabunny, source, language, signal, report) => {
    let w: Worker;
    try {
      w = theWorker();
    } catch (e) {
      return Promise.reject(e);
    }
    const id = nextId++;
    const post = (m: ToWorker, transfer: Transferable[] = []) => w.postMessage(m, transfer);
    return new Promise<WhisperResult>((resolve, reject) => {
      const done = () => {
        w.removeEventListener("message", listen);
        w.removeEventListener("error", broken);
        signal?.removeEventListener("abort", abort);
      };
      // A worker that cannot load (a wrong URL, a module that throws) says so only here.
      const broken = (e: Event) => {
        done();
        // A dead worker answers nothing more: the next call makes a new one, or fails at once.
        w.terminate();
        worker = undefined;
        given = undefined;
        reject(new NeuralCutError("TRANSCRIBE_FAILED", `the Whisper worker failed: ${(e as ErrorEvent).message || "it could not start"}`));
      };
      const listen = ({ data }: MessageEvent<FromWorker>) => {
        if (data.id !== id) return;
        if (data.type === "progress")
          report(data.progress, DECODE_SHARE + (1 - DECODE_SHARE) * data.progress.fraction * +(data.progress.phase === "transcribing"));
        else if (data.type === "done") {
          done();
          resolve(data.result);
        } else {
          done();
          reject(new NeuralCutError(data.code, data.message));
        }
      };
      const abort = () => {
        done();
        post({ type: "cancel", id });
        reject(signal!.reason);
      };
      w.addEventListener("message", listen);
      w.addEventListener("error", broken);
      signal?.addEventListener("abort", abort, { once: true });
      post({ type: "start", id, language });
      decodeMono(mediabunny, source, (pcm, rate) => post({ type: "audio", id, pcm, rate }, [pcm.buffer]), {
        signal,
        onProgress: (f) => report({ phase: "decoding", fraction: f }, DECODE_SHARE * f),
      }).then(
        () => {
          if (!signal?.aborted) post({ type: "end", id, setup: { ...whisper, ...(transformersUrl ? { transformersUrl } : {}) } });
        },
        (e) => {
          if (signal?.aborted) return;
          done();
          post({ type: "cancel", id });
          reject(e);
        },
      );
    });
  };

  const inThread: Job = async (mediabunny, source, language, signal, report) => {
    engine ??= new WhisperEngine(transformers ?? (async () => (await import("@huggingface/transformers")) as unknown as Transformers), whisper);
    report({ phase: "decoding", fraction: 0 }, 0);
    const { audio } = await decode16k(mediabunny, source, { signal, onProgress: (f) => report({ phase: "decoding", fraction: f }, DECODE_SHARE * f) });
    return engine.transcribe(audio, {
      language,
      signal,
      onProgress: (p) => report(p, DECODE_SHARE + (1 - DECODE_SHARE) * p.fraction * +(p.phase === "transcribing")),
    });
  };

  const transcribe = async ({ asset, source, language, signal, onProgress: toolProgress }: TranscribeRequest) => {
    if (signal?.aborted) throw signal.reason;
    const opened = await openSource(source, asset.id);
    let overallSoFar = 0;
    let told = -1;
    let toldLoading = false;
    const report = (p: WhisperProgress, overall: number) => {
      overallSoFar = Math.max(overallSoFar, overall);
      onProgress?.({ ...p, assetId: asset.id, overall: overallSoFar });
      // The agent's bar moves by whole percents (a model's files report per chunk read), and says
      // when the model starts and stops loading.
      const loading = p.phase === "loading";
      if (overallSoFar - told >= 0.01 || (overallSoFar === 1 && told < 1) || loading !== toldLoading) {
        told = overallSoFar;
        toldLoading = loading;
        toolProgress?.(overallSoFar, loading ? "loading" : undefined);
      }
    };
    const run = workerOption ? inWorker : inThread;
    let result: WhisperResult;
    try {
      const running = run(opened.mediabunny, opened.source, language, signal, report);
      // A cancel answers at once; the window under way ends on its own and its words are dropped.
      running.catch(() => {});
      let stop: (() => void) | undefined;
      const stopped = new Promise<never>((_, reject) => {
        stop = () => reject(signal!.reason);
        signal?.addEventListener("abort", stop, { once: true });
      });
      stopped.catch(() => {});
      try {
        result = await Promise.race([running, stopped]);
      } finally {
        if (stop) signal?.removeEventListener("abort", stop);
      }
    } catch (e) {
      // The signal's reason as it is; transformers.js's and onnxruntime's errors in the family.
      if (signal?.aborted) throw signal.reason;
      throw asNeuralCutError(e, "TRANSCRIBE_FAILED");
    }
    device = result.device;
    last = result;
    return { segments: result.segments, ...(result.language ? { language: result.language } : {}) };
  };

  const made: WhisperTranscriber = Object.assign(transcribe, {
    device: () => device ?? engine?.device(),
    last: () => last,
    async dispose() {
      await engine?.dispose();
      engine = undefined;
      if (worker && typeof workerOption === "function") worker.terminate();
      worker = undefined;
    },
  });
  // What the agent and createTranscribeTool take (checked here, not in the typings).
  return made satisfies LocalTranscriber;
}
