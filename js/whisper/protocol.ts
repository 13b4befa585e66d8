// The messages between createWhisperTranscriber (the page) and its worker (js/whisper/worker.ts).
import type { ErrorCode } from "../errors.js";
import type { WhisperOptions, WhisperProgress, WhisperResult } from "./core.js";

/** The worker's model settings: the transcriber's, and where transformers.js's ESM build is when
 * the worker cannot resolve the package's name (no bundler). */
export type WorkerSetup = WhisperOptions & { transformersUrl?: string };

export type ToWorker =
  | { type: "start"; id: number; language?: string }
  /** Mono samples at the media's rate, transferred. */
  | { type: "audio"; id: number; pcm: Float32Array; rate: number }
  | { type: "end"; id: number; setup: WorkerSetup }
  | { type: "cancel"; id: number };

export type FromWorker =
  | { type: "progress"; id: number; progress: WhisperProgress }
  | { type: "done"; id: number; result: WhisperResult; seconds: number }
  | { type: "error"; id: number; code: ErrorCode; message: string };
