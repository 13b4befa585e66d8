// transcribe_video's local provider in Node: the real transformers.js pipeline (onnxruntime-node)
// on the tiny Whisper of tests/fixtures/whisper-fixture (scripts/make-whisper-fixture.py: twelve
// known words per 30 s window, timed by its alignment head), nothing fetched from a hub. Audio made
// here with ffmpeg at 44.1 and 48 kHz, resampled to 16 kHz and checked against the tones computed
// by hand; long media in windows stitched without duplicates or holes; progress; cancel; the words
// mapped through a trimmed, retimed element by hand. tests/js/whisper-browser.test.mjs runs the
// same model in a Chromium worker.
//
// Needs `npm run build` first and ffmpeg (scripts/setup.sh).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { createEditor } from "../../dist/index.js";
import { createAgent, createTranscribeTool } from "../../dist/agent/index.js";
import { decode16k } from "../../dist/whisper/decode.js";
import { createWhisperTranscriber, resample, Resampler, WhisperEngine } from "../../dist/whisper/index.js";
import { root } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-whisper-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const MODEL = { model: "whisper-fixture", modelPath: join(root, "tests/fixtures"), dtype: "fp32" };
const FIXTURE = JSON.parse(readFileSync(join(root, "tests/fixtures/whisper-fixture/fixture.json"), "utf8"));

/** A WAV file of `seconds` at `rate` whose channels are ffmpeg aevalsrc expressions. */
function wav(name, { rate, seconds, channels }) {
  const path = join(dir, name);
  const r = spawnSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `aevalsrc='${channels.join("|")}':s=${rate}:d=${seconds}`,
    "-c:a",
    "pcm_s16le",
    path,
  ]);
  if (r.error?.code === "ENOENT") assert.fail("ffmpeg is not installed: run scripts/setup.sh");
  assert.equal(r.status, 0, String(r.stderr));
  return new Blob([readFileSync(path)], { type: "audio/wav" });
}

const tone = (f, a, rate, n) => Float32Array.from({ length: n }, (_, i) => a * Math.sin((2 * Math.PI * f * i) / rate));
const maxError = (got, want, from, to) => {
  let e = 0;
  for (let i = from; i < to; i++) e = Math.max(e, Math.abs(got[i] - want(i)));
  return e;
};

test("resampling to 16 kHz: a 440 Hz tone from 44.1 and 48 kHz matches the tone computed at 16 kHz; 12 kHz is filtered out; chunks change nothing", () => {
  for (const rate of [44100, 48000, 22050, 8000]) {
    const seconds = 2;
    const out = resample(tone(440, 0.5, rate, rate * seconds), rate);
    assert.equal(out.length, 16000 * seconds, `${rate}`);
    // Away from the ends (the filter's 16 zero crossings), the hand-computed 16 kHz tone.
    const e = maxError(out, (i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000), 200, out.length - 200);
    assert.ok(e < 2e-3, `${rate} Hz: max error ${e}`);
  }
  // Above 8 kHz nothing may fold back into what Whisper hears.
  const high = resample(tone(12000, 0.5, 48000, 48000), 48000);
  const rms = Math.sqrt(high.slice(200, -200).reduce((s, x) => s + x * x, 0) / (high.length - 400));
  assert.ok(rms < 0.5e-3, `12 kHz leaks through at rms ${rms}`);
  // Streaming in odd pieces gives the same samples as one call.
  const input = tone(440, 0.5, 44100, 44100);
  const r = new Resampler(44100);
  const parts = [];
  for (let at = 0; at < input.length; at += 997) parts.push(r.push(input.subarray(at, at + 997)));
  parts.push(r.flush());
  const streamed = Float32Array.from(parts.flatMap((p) => [...p]));
  assert.deepEqual(streamed, resample(input, 44100));
  // Feeding 44.1 kHz as 16 kHz (OpenCut #703) would be this far off: the check can fail.
  const mislabelled = tone(440, 0.5, 44100, 44100).subarray(0, 16000);
  assert.ok(maxError(mislabelled, (i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000), 200, 15800) > 0.5);
});

test("decoding: WAV at 44.1 and 48 kHz, stereo, comes out 16 kHz mono, the channels averaged, as computed by hand", async () => {
  const mediabunny = await import("mediabunny");
  for (const rate of [44100, 48000]) {
    const file = wav(`stereo${rate}.wav`, { rate, seconds: 3, channels: ["0.5*sin(2*PI*440*t)", "0.25*sin(2*PI*660*t)"] });
    const { audio, rate: source } = await decode16k(mediabunny, new mediabunny.BlobSource(file));
    assert.equal(source, rate);
    assert.ok(Math.abs(audio.length - 48000) <= 1, `${rate}: ${audio.length} samples`);
    const want = (i) => (0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000) + 0.25 * Math.sin((2 * Math.PI * 660 * i) / 16000)) / 2;
    // 16-bit PCM and the filter's passband: well under 1% of the tone.
    const e = maxError(audio, want, 200, audio.length - 200);
    assert.ok(e < 2e-3, `${rate} Hz: max error ${e}`);
  }
});

/** Every word's shape, in order, inside [0, duration]; segments made of their words. */
function checkTranscript(segments, duration) {
  let last = 0;
  for (const s of segments) {
    assert.deepEqual(Object.keys(s).sort(), ["end", "start", "text", "words"]);
    assert.ok(s.words.length > 0);
    assert.equal(s.text, s.words.map((w) => w.text).join(" "));
    assert.equal(s.start, s.words[0].start);
    assert.equal(s.end, s.words.at(-1).end);
    for (const w of s.words) {
      assert.deepEqual(Object.keys(w).sort(), ["end", "start", "text"]);
      assert.ok(w.start >= last - 1e-9 && w.end >= w.start && w.end <= duration + 1e-9, JSON.stringify(w));
      assert.ok(FIXTURE.words.includes(w.text), w.text);
      last = w.end;
    }
  }
}

test("the real pipeline on the fixture model: one window's words, in order, inside the media, from a 44.1 kHz file", async () => {
  const progress = [];
  const whisper = createWhisperTranscriber({ ...MODEL, onProgress: (p) => progress.push(p) });
  const file = wav("short.wav", { rate: 44100, seconds: 12, channels: ["0.3*sin(2*PI*300*t)"] });
  const out = await whisper({ asset: { id: "a1", type: "audio", name: "short.wav", duration: 12 }, source: { file } });
  const words = out.segments.flatMap((s) => s.words);
  checkTranscript(out.segments, 12);
  // The fixture says its words 2.5 s apart, whatever it hears: the first five fit in 12 s.
  assert.deepEqual(
    words.map((w) => w.text),
    FIXTURE.words.slice(0, 5),
  );
  assert.deepEqual(whisper.device(), { device: "cpu", how: "only" });
  assert.deepEqual(whisper.last().windows, [{ start: 0, end: 12 }]);
  // Progress: decoding then transcribing, overall never back, ending at 1.
  const phases = [...new Set(progress.map((p) => p.phase))];
  assert.deepEqual(
    phases.filter((p) => p !== "loading"),
    ["decoding", "transcribing"],
  );
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i].overall >= progress[i - 1].overall);
  assert.equal(progress.at(-1).overall, 1);
  assert.ok(progress.every((p) => p.assetId === "a1"));
  await whisper.dispose();
});

test("long media: 70 s at 48 kHz in three windows, stitched at gaps between words, no word twice and none lost", async () => {
  const whisper = createWhisperTranscriber(MODEL);
  const file = wav("long.wav", { rate: 48000, seconds: 70, channels: ["0.3*sin(2*PI*300*t)"] });
  const out = await whisper({ asset: { id: "a2", type: "audio", name: "long.wav", duration: 70 }, source: { file } });
  const { windows, cuts } = whisper.last();
  assert.deepEqual(windows, [
    { start: 0, end: 30 },
    { start: 25, end: 55 },
    { start: 50, end: 70 },
  ]);
  checkTranscript(out.segments, 70);
  const words = out.segments.flatMap((s) => s.words);
  // Each window heard alone, in seconds of the media.
  const engine = new WhisperEngine(() => import("@huggingface/transformers"), MODEL);
  const mediabunny = await import("mediabunny");
  const { audio } = await decode16k(mediabunny, new mediabunny.BlobSource(file));
  const alone = [];
  for (const w of windows) {
    const r = await engine.transcribe(audio.subarray(w.start * 16000, w.end * 16000));
    alone.push(r.segments.flatMap((s) => s.words).map((x) => ({ ...x, start: x.start + w.start, end: x.end + w.start })));
  }
  await engine.dispose();
  assert.equal(cuts.length, 2);
  for (let i = 0; i < cuts.length; i++) {
    // Each cut inside its overlap, at a gap: no word of either window runs across it.
    assert.ok(cuts[i] > windows[i + 1].start && cuts[i] < windows[i].end, `cut ${cuts[i]}`);
    for (const w of [...alone[i], ...alone[i + 1]])
      assert.ok(!(w.start < cuts[i] - 0.1 && w.end > cuts[i] + 0.1), `${w.text} ${w.start}-${w.end} runs across ${cuts[i]}`);
  }
  // The transcript is each window's words between its cuts, by their middles: nothing twice.
  const bounds = [-Infinity, ...cuts, Infinity];
  const expected = alone.flatMap((ws, i) => ws.filter((w) => (w.start + w.end) / 2 >= bounds[i] && (w.start + w.end) / 2 < bounds[i + 1]));
  assert.deepEqual(
    words.map((w) => w.text),
    expected.map((w) => w.text),
  );
  for (let i = 0; i < words.length; i++) {
    assert.ok(Math.abs(words[i].start - expected[i].start) <= 0.1 && Math.abs(words[i].end - expected[i].end) <= 1e-9, JSON.stringify([words[i], expected[i]]));
  }
  // No hole: the fixture's words follow one another, so the transcript runs from its first word
  // to its last with no gap longer than DTW's jitter, across both cuts.
  for (let i = 1; i < words.length; i++) assert.ok(words[i].start - words[i - 1].end <= 0.1, `hole before ${words[i].text} at ${words[i].start}`);
  assert.ok(words[0].start < 1 && words.at(-1).end > 65, `${words[0].start} .. ${words.at(-1).end}`);
  await whisper.dispose();
});

test("cancel: an abort during transcription rejects with its reason; the tool answers CANCELLED", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  // transformers.js as it is, counting the windows it has finished.
  let finished = 0;
  const transformers = async () => {
    const tf = await import("@huggingface/transformers");
    return {
      env: tf.env,
      pipeline: async (...a) => {
        const asr = await tf.pipeline(...a);
        const counted = async (...b) => {
          const out = await asr(...b);
          finished++;
          return out;
        };
        return Object.assign(counted, { dispose: () => asr.dispose() });
      },
    };
  };
  const whisper = createWhisperTranscriber({
    ...MODEL,
    transformers,
    onProgress: (p) => p.phase === "transcribing" && p.window === 1 && controller.abort(reason),
  });
  const file = wav("cancel.wav", { rate: 16000, seconds: 70, channels: ["0.3*sin(2*PI*300*t)"] });
  const asset = { id: "a3", type: "audio", name: "cancel.wav", duration: 70 };
  await assert.rejects(whisper({ asset, source: { file }, signal: controller.signal }), (e) => e === reason);
  // At once: the second window (aborted as it started) was not waited for.
  assert.equal(finished, 1);
  assert.equal(whisper.last(), undefined);
  const editor = await createEditor();
  const assetId = editor.addAsset({ name: "cancel.wav", type: "audio", duration: 70, file });
  const early = new AbortController();
  early.abort();
  const tool = createTranscribeTool({ editor, model: "m", transcriber: whisper });
  assert.equal((await tool.call({ assetId, provider: "local" }, { signal: early.signal })).code, "CANCELLED");
  await whisper.dispose();
});

test("transcribe_video with the local provider: words in timeline seconds through a trimmed, retimed element, by hand", async () => {
  const file = wav("clip.wav", { rate: 44100, seconds: 20, channels: ["0.3*sin(2*PI*300*t)"] });
  const whisper = createWhisperTranscriber(MODEL);
  // The source transcript: the asset not placed.
  const loose = await createEditor();
  const looseId = loose.addAsset({ name: "clip.wav", type: "audio", duration: 20, file });
  const source = await createTranscribeTool({ editor: loose, model: "m", transcriber: whisper }).call({ assetId: looseId, provider: "local" });
  assert.equal(source.timeBase, "source");
  assert.equal(source.provider, "local");
  const sourceWords = source.segments.flatMap((s) => s.words);
  assert.deepEqual(
    sourceWords.map((w) => w.text),
    FIXTURE.words.slice(0, 8),
  );
  // Placed at 2 s, trimmed by 4 s, at 1.5x for 6 s of timeline: it plays source 4-13 s.
  const base = await createEditor();
  const assetId = base.addAsset({ name: "clip.wav", type: "audio", duration: 20, file });
  await base.callTool("add_media_to_timeline", { assetId, startTime: 2, trackType: "audio" });
  const project = base.project();
  const el = project.timeline.tracks.flatMap((t) => t.elements)[0];
  Object.assign(el, { trimStart: 4 * 120000, duration: 6 * 120000, trimEnd: 7 * 120000, retime: { rate: 1.5 } });
  const retimed = await createEditor({ project });
  // The project JSON holds no bytes: the sound is still base's file.
  const editor = { project: () => retimed.project(), assetSource: (id) => base.assetSource(id) };
  const progress = [];
  const notified = [];
  const out = await createTranscribeTool({ editor, model: "m", transcriber: whisper, onProgress: (id, f) => progress.push([id, f]) }).call(
    { elementId: el.id, provider: "local" },
    { progressToken: "t1", notify: async (n) => notified.push(n) },
  );
  assert.equal(out.timeBase, "timeline", JSON.stringify(out));
  // By hand: timeline = 2 + (source - 4) / 1.5, each word clipped to source 4-13 s; words wholly
  // outside left out.
  const r3 = (x) => Math.round(x * 1000) / 1000;
  const expected = sourceWords
    .filter((w) => w.end > 4 && w.start < 13)
    .map((w) => ({ start: r3(2 + (Math.max(w.start, 4) - 4) / 1.5), end: r3(2 + (Math.min(w.end, 13) - 4) / 1.5), text: w.text }));
  assert.ok(expected.length >= 4);
  // The same by hand from the fixture's times (DTW puts bravo..foxtrot at 2.52-5, 5-7.5, 7.5-10,
  // 10-12.5, 12.5-15 s): bravo clipped to 4-5 s plays 2-2.667, foxtrot clipped to 12.5-13 plays
  // 7.667-8; alpha ends and golf starts outside the element.
  assert.deepEqual(expected, [
    { start: 2, end: 2.667, text: "bravo" },
    { start: 2.667, end: 4.333, text: "charlie" },
    { start: 4.333, end: 6, text: "delta" },
    { start: 6, end: 7.667, text: "echo" },
    { start: 7.667, end: 8, text: "foxtrot" },
  ]);
  assert.deepEqual(
    out.segments.flatMap((s) => s.words),
    expected,
  );
  for (const w of out.segments.flatMap((s) => s.words)) assert.ok(w.start >= 2 && w.end <= 8);
  // The tool's progress: this asset's, never back, to 1.
  assert.ok(progress.length > 2);
  for (let i = 0; i < progress.length; i++) assert.ok(progress[i][0] === assetId && (i === 0 || progress[i][1] >= progress[i - 1][1]));
  assert.equal(progress.at(-1)[1], 1);
  // An MCP caller with a progress token hears the same fractions.
  assert.deepEqual(
    notified.map((n) => [n.method, n.params.progressToken, n.params.progress, n.params.total]),
    progress.map(([, f]) => ["notifications/progress", "t1", f, 1]),
  );
  await whisper.dispose();
});

test("the agent's transcription progress (the panel's bar) follows a local transcription to 1", async () => {
  const file = wav("agent.wav", { rate: 44100, seconds: 40, channels: ["0.3*sin(2*PI*300*t)"] });
  const editor = await createEditor();
  const assetId = editor.addAsset({ name: "agent.wav", type: "audio", duration: 40, file });
  await editor.callTool("add_media_to_timeline", { assetId, startTime: 1, trackType: "audio" });
  const events = [];
  const whisper = createWhisperTranscriber(MODEL);
  // No Gemini is asked: the proxy address is never reached.
  const agent = createAgent({ editor, proxyUrl: "http://127.0.0.1:9", model: "gemini-2.5-flash", onEvent: (e) => events.push(e), transcriber: whisper });
  const out = await agent.callTool("transcribe_video", { assetId });
  assert.equal(out.provider, "local");
  assert.equal(out.timeBase, "timeline");
  const bar = events.filter((e) => e.type === "progress");
  assert.ok(bar.every((e) => e.kind === "transcription" && e.assetId === assetId));
  // Decoding (the first tenth, by whole percents), the model loading (said once), each of the two
  // windows, then done (the bar goes at 1).
  const seen = bar.map((e) => [e.fraction, e.phase ?? "-"]);
  assert.ok(
    seen.every(([f], i) => i === 0 || f >= seen[i - 1][0]),
    JSON.stringify(seen),
  );
  const loading = seen.findIndex(([, p]) => p === "loading");
  assert.deepEqual(seen.slice(loading), [
    [0.1, "loading"],
    [0.1, "-"],
    [0.55, "-"],
    [1, "-"],
  ]);
  assert.deepEqual(seen[0], [0, "-"]);
  assert.ok(seen.slice(0, loading).every(([f, p]) => f <= 0.1 && p === "-"));
  await whisper.dispose();
});

test("a decoder exported without cross-attentions (OpenCut's plain onnx-community models): segments from Whisper's timestamps, no words", async () => {
  const whisper = createWhisperTranscriber({ ...MODEL, model: "whisper-fixture-segments" });
  const file = wav("segments.wav", { rate: 48000, seconds: 40, channels: ["0.3*sin(2*PI*300*t)"] });
  const editor = await createEditor();
  const assetId = editor.addAsset({ name: "segments.wav", type: "audio", duration: 40, file });
  const out = await createTranscribeTool({ editor, model: "m", transcriber: whisper }).call({ assetId, provider: "local" });
  assert.equal(whisper.last().wordTimes, false);
  assert.ok(out.segments.length >= 2);
  let last = 0;
  for (const s of out.segments) {
    assert.deepEqual(Object.keys(s).sort(), ["end", "start", "text"]);
    assert.ok(s.start >= last && s.end > s.start && s.end <= 40, JSON.stringify(s));
    for (const w of s.text.split(" ")) assert.ok(FIXTURE.words.includes(w), w);
    last = s.end;
  }
  // Both windows heard, stitched once: the first window's twelve words and the second's, less
  // the overlap's.
  const texts = out.text.split(" ");
  assert.deepEqual(texts.slice(0, 10), FIXTURE.words.slice(0, 10));
  assert.ok(texts.length > 12 && texts.length < 24, out.text);
  await whisper.dispose();
});

test("the model comes only from where the host says: a missing model fails without the hub", async () => {
  const whisper = createWhisperTranscriber({ ...MODEL, model: "no-such-model" });
  const file = wav("missing.wav", { rate: 16000, seconds: 2, channels: ["0"] });
  await assert.rejects(
    whisper({ asset: { id: "a4", type: "audio", name: "m.wav", duration: 2 }, source: { file } }),
    (e) => e.name === "NeuralCutError" && e.code === "TRANSCRIBE_FAILED" && /local|not found|no-such-model/i.test(e.message),
  );
  // Sound that cannot be decoded is DECODE_FAILED.
  const notSound = new Blob([new Uint8Array(1000).fill(7)]);
  await assert.rejects(whisper({ asset: { id: "a5", type: "audio", name: "x.wav", duration: 2 }, source: { file: notSound } }), { code: "DECODE_FAILED" });
  assert.throws(() => new Resampler(44100.5), { code: "INVALID_OPTIONS" });
  assert.throws(() => createWhisperTranscriber({ windowSeconds: 40 }), { code: "INVALID_OPTIONS" });
  assert.throws(() => createWhisperTranscriber({ device: "tpu" }), { code: "INVALID_OPTIONS" });
});
