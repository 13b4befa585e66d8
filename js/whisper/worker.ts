// The Web Worker Whisper runs in (createWhisperTranscriber's `worker`): the page decodes an
// asset's sound and posts it here as mono chunks at the media's rate; this worker resamples them
// to 16 kHz, runs Whisper (js/whisper/core.ts) and posts progress and the transcript back. One
// model per worker, loaded on the first job and kept. Messages: js/whisper/protocol.ts.
import { NeuralCutError } from "../errors.js";
import { WhisperEngine, type Transformers } from "./core.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./protocol.js";
import { concat, Resampler } from "./resample.js";

interface Job {
  parts: Float32Array[];
  resampler?: Resampler;
  abort: AbortController;
  language?: string;
  running?: boolean;
}

const scope = globalThis as unknown as { postMessage(m: FromWorker): void; addEventListener(t: "message", f: (e: { data: ToWorker }) => void): void };
const jobs = new Map<number, Job>();
let engine: { key: string; engine: WhisperEngine } | undefined;

function engineFor(setup: WorkerSetup): WhisperEngine {
  const key = JSON.stringify(setup);
  if (engine?.key !== key) {
    void engine?.engine.dispose();
    const { transformersUrl, ...options } = setup;
    // A literal import, so a host's bundler finds the package; a URL where nothing resolves it.
    const load = async () =>
      (transformersUrl ? await import(/* @vite-ignore */ transformersUrl) : await import("@huggingface/transformers")) as unknown as Transformers;
    engine = { key, engine: new WhisperEngine(load, options) };
  }
  return engine.engine;
}

async function finish(id: number, job: Job, setup: WorkerSetup): Promise<void> {
  try {
    if (job.resampler) job.parts.push(job.resampler.flush());
    const audio = concat(job.parts);
    job.parts = [];
    const result = await engineFor(setup).transcribe(audio, {
      language: job.language,
      signal: job.abort.signal,
      onProgress: (progress) => scope.postMessage({ type: "progress", id, progress }),
    });
    scope.postMessage({ type: "done", id, result, seconds: audio.length / 16_000 });
  } catch (e) {
    const code = job.abort.signal.aborted ? "CANCELLED" : e instanceof NeuralCutError ? e.code : "TRANSCRIBE_FAILED";
    scope.postMessage({ type: "error", id, code, message: e instanceof Error ? e.message : String(e) });
  } finally {
    jobs.delete(id);
  }
}

scope.addEventListener("message", ({ data }) => {
  const job = jobs.get(data.id);
  switch (data.type) {
    case "start":
      jobs.set(data.id, { parts: [], abort: new AbortController(), language: data.language });
      return;
    case "audio":
      if (!job) return;
      job.resampler ??= new Resampler(data.rate);
      job.parts.push(job.resampler.push(data.pcm));
      return;
    case "end":
      if (job && !job.running) {
        job.running = true;
        void finish(data.id, job, data.setup);
      }
      return;
    case "cancel":
      // Heard between windows: a window under way finishes first (transformers.js's generate
      // cannot be stopped inside its seek loop), and its words are dropped.
      job?.abort.abort(new NeuralCutError("CANCELLED", "Cancelled"));
      if (job && !job.running) jobs.delete(data.id);
      return;
  }
});
