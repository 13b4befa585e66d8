// transcribe_video's local provider in headless Chromium: Whisper (the fixture model of
// tests/fixtures/whisper-fixture) in a module Web Worker through transformers.js's browser build
// and onnxruntime-web's wasm, everything served from this checkout (no hub, no CDN). The page
// decodes AAC at 44.1 kHz (WebCodecs) and WAV at 48 kHz; the words must be those the Node
// pipeline finds in the same sound (tests/js/whisper.test.mjs), the 16 kHz buffer the hand-computed
// tone, progress monotonic, and a cancel must leave the worker usable.
//
// Needs `npm run build` first, ffmpeg and Chromium (scripts/setup.sh).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { createWhisperTranscriber } from "../../dist/whisper/index.js";
import { serveAndLaunch } from "./browser.mjs";
import { root } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-whisper-browser-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function media(name, rate, seconds, extra) {
  const path = join(dir, name);
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `aevalsrc='0.5*sin(2*PI*440*t)':s=${rate}:d=${seconds}`, ...extra, path]);
  if (r.error?.code === "ENOENT") assert.fail("ffmpeg is not installed: run scripts/setup.sh");
  assert.equal(r.status, 0, String(r.stderr));
  return readFileSync(path);
}

const chrome = serveAndLaunch(root);

test("Chromium: Whisper in a worker, AAC at 44.1 kHz and WAV at 48 kHz: the Node pipeline's words, progress, cancel", async () => {
  const aac = media("talk.m4a", 44100, 41, ["-c:a", "aac", "-b:a", "128k"]);
  const wav = media("talk.wav", 48000, 12, ["-c:a", "pcm_s16le"]);
  // What Node's pipeline (onnxruntime-node) hears in the same sound (Node decodes PCM only: the
  // AAC's twin is a WAV).
  const aacTwin = media("talk-twin.wav", 44100, 41, ["-c:a", "pcm_s16le"]);
  const node = createWhisperTranscriber({ model: "whisper-fixture", modelPath: join(root, "tests/fixtures"), dtype: "fp32" });
  const inNode = {};
  for (const [name, bytes, duration] of [
    ["aac", aacTwin, 41],
    ["wav", wav, 12],
  ]) {
    const out = await node({ asset: { id: name, type: "audio", name, duration }, source: { file: new Blob([bytes]) } });
    inNode[name] = out.segments.flatMap((s) => s.words);
  }
  await node.dispose();

  const page = await chrome.browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Nothing but this checkout's server: no hub, no CDN (the worker's requests included).
  const outside = [];
  await page.context().route(
    (url) => !url.href.startsWith(chrome.server.url),
    (route) => (outside.push(route.request().url()), route.abort()),
  );
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    const out = await page.evaluate(
      async ({ aac, wav }) => {
        const { createWhisperTranscriber } = await import("/dist/whisper/index.js");
        const { decode16k } = await import("/dist/whisper/decode.js");
        const mediabunny = await import("mediabunny");
        const progress = [];
        const whisper = createWhisperTranscriber({
          model: "whisper-fixture",
          modelPath: `${location.origin}/tests/fixtures/`,
          dtype: "fp32",
          wasmPaths: `${location.origin}/node_modules/onnxruntime-web/dist/`,
          transformersUrl: `${location.origin}/node_modules/@huggingface/transformers/dist/transformers.js`,
          worker: () => new Worker("/dist/whisper/worker.js", { type: "module" }),
          onProgress: (p) => progress.push(p),
        });
        const file = (b64, name) => new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name);
        const got = {};
        const files = { aac: file(aac, "talk.m4a"), wav: file(wav, "talk.wav") };
        got.aac = await whisper({ asset: { id: "aac", type: "audio", name: "talk.m4a", duration: 41 }, source: { file: files.aac } });
        got.aacWindows = whisper.last().windows;
        got.device = whisper.device();
        got.progress = progress.splice(0);
        // Cancel in the second window; then the same worker transcribes again.
        const controller = new AbortController();
        const cancelling = createWhisperTranscriber({
          model: "whisper-fixture",
          // An origin-relative path this time (the first used a URL).
          modelPath: "/tests/fixtures/",
          dtype: "fp32",
          wasmPaths: `${location.origin}/node_modules/onnxruntime-web/dist/`,
          transformersUrl: `${location.origin}/node_modules/@huggingface/transformers/dist/transformers.js`,
          worker: () => new Worker("/dist/whisper/worker.js", { type: "module" }),
          onProgress: (p) => p.phase === "transcribing" && p.window === 1 && controller.abort(new Error("stop")),
        });
        try {
          await cancelling({ asset: { id: "aac", type: "audio", name: "talk.m4a", duration: 41 }, source: { file: files.aac }, signal: controller.signal });
          got.cancel = "resolved";
        } catch (e) {
          got.cancel = e.message;
        }
        got.wav = await cancelling({ asset: { id: "wav", type: "audio", name: "talk.wav", duration: 12 }, source: { file: files.wav } });
        await cancelling.dispose();
        await whisper.dispose();
        // A WebGPU adapter that cannot run the model: auto times both, keeps wasm.
        const fakeGpu = createWhisperTranscriber({
          model: "whisper-fixture",
          modelPath: "/tests/fixtures/",
          dtype: "fp32",
          wasmPaths: `${location.origin}/node_modules/onnxruntime-web/dist/`,
          transformersUrl: `${location.origin}/node_modules/@huggingface/transformers/dist/transformers.js`,
          worker: () => new Worker("/tests/js/whisper-fake-gpu-worker.js", { type: "module" }),
        });
        got.fakeGpuWords = (
          await fakeGpu({ asset: { id: "wav", type: "audio", name: "talk.wav", duration: 12 }, source: { file: files.wav } })
        ).segments.flatMap((s) => s.words).length;
        got.fakeGpuDevice = fakeGpu.device();
        await fakeGpu.dispose();
        // A worker that cannot start fails the call instead of leaving it waiting.
        const broken = createWhisperTranscriber({ model: "whisper-fixture", worker: () => new Worker("/no-such-worker.js", { type: "module" }) });
        try {
          await broken({ asset: { id: "wav", type: "audio", name: "talk.wav", duration: 12 }, source: { file: files.wav } });
          got.broken = "resolved";
        } catch (e) {
          got.broken = e.code;
        }
        // And again: a new worker is made (and fails the same way), no call is left waiting.
        try {
          await broken({ asset: { id: "wav", type: "audio", name: "talk.wav", duration: 12 }, source: { file: files.wav } });
        } catch (e) {
          got.broken += ` ${e.code}`;
        }
        // Two transcribers on one worker, at once: each gets its own answer.
        const shared = new Worker("/dist/whisper/worker.js", { type: "module" });
        const sharing = () =>
          createWhisperTranscriber({
            model: "whisper-fixture",
            modelPath: "/tests/fixtures/",
            dtype: "fp32",
            wasmPaths: `${location.origin}/node_modules/onnxruntime-web/dist/`,
            transformersUrl: `${location.origin}/node_modules/@huggingface/transformers/dist/transformers.js`,
            worker: shared,
          });
        const [one, two] = await Promise.all([
          sharing()({ asset: { id: "wav", type: "audio", name: "talk.wav", duration: 12 }, source: { file: files.wav } }),
          sharing()({ asset: { id: "aac", type: "audio", name: "talk.m4a", duration: 41 }, source: { file: files.aac } }),
        ]);
        shared.terminate();
        got.shared = [one, two].map((r) => r.segments.flatMap((s) => s.words).length);
        // The panel's bar, fed by the agent's events of a local transcription (no Gemini asked).
        const { createEditor } = await import("/dist/index.js");
        const { createAgent } = await import("/dist/agent/index.js");
        const { Meters } = await import("/dist/panel/meters.js");
        const box = document.createElement("div");
        const meters = new Meters(box, document.createElement("span"));
        const shown = [];
        new MutationObserver(() => {
          for (const m of box.querySelectorAll(".meter")) shown.push([m.querySelector("span").textContent, m.querySelector("progress").value]);
        }).observe(box, { subtree: true, childList: true, characterData: true, attributes: true });
        const editor = await createEditor();
        const assetId = editor.addAsset({ name: "talk.wav", type: "audio", duration: 12, file: files.wav });
        const panelWhisper = createWhisperTranscriber({
          model: "whisper-fixture",
          modelPath: "/tests/fixtures/",
          dtype: "fp32",
          wasmPaths: `${location.origin}/node_modules/onnxruntime-web/dist/`,
          transformersUrl: `${location.origin}/node_modules/@huggingface/transformers/dist/transformers.js`,
          worker: () => new Worker("/dist/whisper/worker.js", { type: "module" }),
        });
        const agent = createAgent({
          editor,
          proxyUrl: "http://127.0.0.1:9",
          model: "gemini-2.5-flash",
          transcriber: panelWhisper,
          onEvent: (e) => e.type === "progress" && meters.progress(e.kind, e.assetId, () => "talk.wav", e.fraction, e.phase),
        });
        got.panelTool = (await agent.callTool("transcribe_video", { assetId })).provider;
        await new Promise((r) => setTimeout(r, 0));
        got.panel = shown;
        got.panelLeft = box.querySelectorAll(".meter").length;
        await panelWhisper.dispose();
        // The 16 kHz buffer of the 48 kHz file, against the tone computed at 16 kHz.
        const { audio } = await decode16k(mediabunny, new mediabunny.BlobSource(files.wav));
        let err = 0;
        for (let i = 200; i < audio.length - 200; i++) err = Math.max(err, Math.abs(audio[i] - 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000)));
        got.wav16k = { length: audio.length, err };
        return got;
      },
      { aac: aac.toString("base64"), wav: wav.toString("base64") },
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    const words = (r) => r.segments.flatMap((s) => s.words);
    for (const [name, duration] of [
      ["aac", 41],
      ["wav", 12],
    ]) {
      const got = words(out[name]);
      assert.deepEqual(
        got.map((w) => w.text),
        inNode[name].map((w) => w.text),
        name,
      );
      // The AAC decodes a few ms longer than its WAV twin (its last frame's padding): 23 ms at most.
      got.forEach((w, i) => {
        assert.ok(
          Math.abs(w.start - inNode[name][i].start) <= 0.05 && Math.abs(w.end - inNode[name][i].end) <= 0.05,
          `${name}: ${JSON.stringify([w, inNode[name][i]])}`,
        );
        assert.ok(w.start >= (i ? got[i - 1].end : 0) && w.end <= duration + 0.023, `${name}: ${JSON.stringify(w)}`);
      });
    }
    // 41 s heard as 41 s (not 113 s, as 44.1 kHz taken for 16 kHz would be): two windows.
    assert.equal(out.aacWindows.length, 2);
    assert.deepEqual(out.aacWindows[0], { start: 0, end: 30 });
    assert.equal(out.aacWindows[1].start, 25);
    assert.ok(Math.abs(out.aacWindows[1].end - 41) < 0.1, `AAC heard as ${out.aacWindows[1].end} s`);
    // No WebGPU adapter in this headless Chromium: wasm, said so; with one, both timed.
    if (out.device.how === "measured") assert.ok(out.device.ms.wasm > 0 && out.device.ms.webgpu > 0, JSON.stringify(out.device));
    else assert.deepEqual(out.device, { device: "wasm", how: "only" });
    assert.equal(out.cancel, "stop");
    assert.equal(out.fakeGpuWords, 5);
    assert.equal(out.fakeGpuDevice.device, "wasm", JSON.stringify(out.fakeGpuDevice));
    assert.equal(out.fakeGpuDevice.how, "measured");
    assert.ok(out.fakeGpuDevice.ms.wasm > 0 && !("webgpu" in out.fakeGpuDevice.ms), JSON.stringify(out.fakeGpuDevice));
    assert.equal(out.broken, "TRANSCRIBE_FAILED TRANSCRIBE_FAILED");
    assert.deepEqual(out.shared, [words(out.wav).length, words(out.aac).length]);
    // The panel's bar: loading the model, then transcribing, moving on, gone at the end.
    assert.equal(out.panelTool, "local");
    const labels = out.panel.map(([label]) => label).filter((l, i, all) => i === 0 || l !== all[i - 1]);
    assert.deepEqual(labels, ["Transcribing talk.wav", "Loading the transcription model for talk.wav", "Transcribing talk.wav"], JSON.stringify(out.panel));
    assert.ok(
      out.panel.every(([, v], i) => i === 0 || v >= out.panel[i - 1][1]),
      JSON.stringify(out.panel),
    );
    assert.equal(out.panelLeft, 0);
    const overall = out.progress.map((p) => p.overall);
    assert.ok(overall.every((x, i) => i === 0 || x >= overall[i - 1]));
    assert.equal(overall.at(-1), 1);
    assert.ok(out.progress.some((p) => p.phase === "decoding") && out.progress.some((p) => p.phase === "transcribing"));
    assert.equal(out.wav16k.length, 12 * 16000);
    assert.ok(out.wav16k.err < 2e-3, `max error ${out.wav16k.err}`);
  } finally {
    await page.close();
  }
});
