#!/usr/bin/env node
// transcribe_video's local provider: Whisper's real-time factor (seconds of sound per second of
// compute) through the package's transcriber, in Node (onnxruntime-node, cpu) and in a Chromium
// module worker (onnxruntime-web, wasm), on ffmpeg-made 48 kHz audio. The time covers decoding,
// resampling, every 30 s window and the stitching; the model is loaded in the warm-up run. Medians
// of three runs after the warm-up. Part of `npm run bench`; needs `npm run build` first and ffmpeg.
//
//   node scripts/bench-whisper.mjs [--seconds N] [--model-path DIR --model NAME --dtype D]
//
// The default model is the test fixture (tests/fixtures/whisper-fixture, a few hundred KB: its
// factor says what the pipeline around the model costs, not what Whisper costs). For a real model,
// point --model-path at a folder holding e.g. onnx-community/whisper-tiny_timestamped.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { createWhisperTranscriber, resample } from "../dist/whisper/index.js";
import { launchChromium, option, printRows, root, serve } from "./bench-common.mjs";

const SECONDS = Number(option("--seconds")) || 120;
const MODEL_PATH = resolve(option("--model-path") ?? join(root, "tests", "fixtures"));
const MODEL = option("--model") ?? "whisper-fixture";
const DTYPE = option("--dtype") ?? "fp32";
const RUNS = 3;
const dir = mkdtempSync(join(tmpdir(), "nc-bench-whisper-"));

const wav = join(dir, "talk.wav");
const made = spawnSync("ffmpeg", [
  "-v",
  "error",
  "-y",
  "-f",
  "lavfi",
  "-i",
  `aevalsrc='if(lt(mod(t,1),0.6),0.4*sin(2*PI*220*t)*sin(2*PI*3*t),0)':s=48000:d=${SECONDS}`,
  "-c:a",
  "pcm_s16le",
  wav,
]);
if (made.error?.code === "ENOENT") throw new Error("ffmpeg is not installed: run scripts/setup.sh");
if (made.status !== 0) throw new Error(String(made.stderr));
const bytes = readFileSync(wav);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rows = [];
const row = (where, ms, device, words) =>
  rows.push({
    what: `transcribe (${MODEL}, ${DTYPE}), ${SECONDS} s of 48 kHz audio, ${where}`,
    value: `${ms.toFixed(0)} ms (${((SECONDS * 1000) / ms).toFixed(1)}× real time, ${words} words)`,
    baseline: `device ${device}`,
    ratio: `RTF ${(ms / (SECONDS * 1000)).toFixed(4)}`,
    goal: "measured (issue 33 item 8)",
    met: "-",
  });

try {
  // The resampler alone (part of every transcription): 48 kHz to 16 kHz.
  const tone = Float32Array.from({ length: 48000 * SECONDS }, (_, i) => Math.sin(i / 7));
  resample(tone.subarray(0, 48000), 48000);
  const rs = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    resample(tone, 48000);
    rs.push(performance.now() - t0);
  }
  const rsMs = median(rs);
  rows.push({
    what: `resample 48 kHz to 16 kHz (windowed sinc, 16 zero crossings), ${SECONDS} s, Node`,
    value: `${rsMs.toFixed(0)} ms (${((SECONDS * 1000) / rsMs).toFixed(0)}× real time)`,
    baseline: "-",
    ratio: "-",
    goal: "-",
    met: "-",
  });

  // Node, in this thread.
  const whisper = createWhisperTranscriber({ model: MODEL, modelPath: MODEL_PATH, dtype: DTYPE });
  const asset = { id: "a", type: "audio", name: "talk.wav", duration: SECONDS };
  const once = async () => {
    const t0 = performance.now();
    const out = await whisper({ asset, source: { file: new Blob([bytes]) } });
    return { ms: performance.now() - t0, words: out.segments.reduce((n, s) => n + (s.words?.length ?? 0), 0) };
  };
  await once();
  const node = [];
  for (let i = 0; i < RUNS; i++) node.push(await once());
  row("Node (onnxruntime-node)", median(node.map((r) => r.ms)), whisper.device().device, node[0].words);
  await whisper.dispose();

  // Chromium, in a module worker; the files from this checkout and the model folder.
  const { origin, server } = await serve({
    page: `<!doctype html><script type="importmap">{"imports":{"mediabunny":"/node_modules/mediabunny/dist/bundles/mediabunny.min.mjs"}}</script>`,
    file: (path) => (path === "/talk.wav" ? wav : path.startsWith("/models/") ? join(MODEL_PATH, path.slice(8)) : join(root, path)),
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(origin);
    const r = await page.evaluate(
      async ({ model, dtype, runs, seconds }) => {
        const { createWhisperTranscriber } = await import("/dist/whisper/index.js");
        const whisper = createWhisperTranscriber({
          model,
          dtype,
          modelPath: "/models/",
          wasmPaths: `${location.origin}/node_modules/onnxruntime-web/dist/`,
          transformersUrl: `${location.origin}/node_modules/@huggingface/transformers/dist/transformers.js`,
          worker: () => new Worker("/dist/whisper/worker.js", { type: "module" }),
        });
        const file = new File([await (await fetch("/talk.wav")).arrayBuffer()], "talk.wav");
        const asset = { id: "a", type: "audio", name: "talk.wav", duration: seconds };
        const times = [];
        let words = 0;
        for (let i = 0; i <= runs; i++) {
          const t0 = performance.now();
          const out = await whisper({ asset, source: { file } });
          if (i > 0) times.push(performance.now() - t0);
          words = out.segments.reduce((n, s) => n + (s.words?.length ?? 0), 0);
        }
        const device = whisper.device();
        await whisper.dispose();
        return { times, words, device };
      },
      { model: MODEL, dtype: DTYPE, runs: RUNS, seconds: SECONDS },
    );
    const how = r.device.how === "measured" ? `${r.device.device} (measured: ${JSON.stringify(r.device.ms)})` : `${r.device.device} (${r.device.how})`;
    row("Chromium worker (onnxruntime-web)", median(r.times), how, r.words);
  } finally {
    await browser.close();
    server.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`\nLocal transcription (${new Date().toISOString()})\n`);
printRows(rows);
