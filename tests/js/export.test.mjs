// neuralcut/export in headless Chromium: a timeline of media generated in the page (a WebM with
// a changing colour and a tone, a WAV tone, a red image) exported to MP4 and WebM, then decoded
// by ffmpeg (tests/js/decode.mjs), a reader independent of the library that wrote it (colours at
// three times, loudness and silence per second), and read back with mediabunny's demuxer and
// decoders: duration, frame rate, size, the audio track's length and loudness per second
// (volume, mute, a retimed clip's pitch), and colours of decoded frames against the
// compositor's own frames at the same times. Cancel and a missing codec too.
//
// Needs `npm run build` first (dist/export.js) and ffmpeg (scripts/setup.sh).
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { serveAndLaunch } from "./browser.mjs";
import { decodesCleanly, frameAt, loud, nearColour, pcm, probe, silent } from "./decode.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const S = 120_000;

const visual = {
  "transform.positionX": 0,
  "transform.positionY": 0,
  "transform.scaleX": 1,
  "transform.scaleY": 1,
  "transform.rotate": 0,
  opacity: 1,
  blendMode: "normal",
};
const el = (id, type, media, start, duration, params, extra = {}) => ({
  id,
  type,
  name: id,
  mediaId: media,
  startTime: start * S,
  duration: duration * S,
  trimStart: 0,
  trimEnd: 0,
  ...extra,
  params,
});

/** 320×180 at 10 fps, 4 s:
 *  main:  the WebM clip 0–2 s (green then magenta, an 880 Hz tone) at −6.02 dB, then a red image 2–4 s;
 *  audio: the 440 Hz WAV 1–2 s at 0 dB; the WAV muted 2–3 s; the WAV at rate 2 from 0.5 s, 3–4 s;
 *  a muted audio track with the WAV 0–4 s. */
const SCENE = {
  settings: { fps: { numerator: 10, denominator: 1 }, canvasSize: { width: 320, height: 180 } },
  assets: [
    { id: "m-clip", name: "clip.webm", type: "video", width: 160, height: 90, duration: 2 },
    { id: "m-tone", name: "tone.wav", type: "audio", duration: 4 },
    { id: "m-red", name: "red.png", type: "image", width: 16, height: 9 },
  ],
  tracks: {
    overlay: [],
    main: {
      id: "t-main",
      name: "Main Track",
      type: "video",
      hidden: false,
      muted: false,
      elements: [
        el("clip", "video", "m-clip", 0, 2, { ...visual, volume: -6.02, muted: false }, { sourceDuration: 2 * S, hidden: false }),
        el("red", "image", "m-red", 2, 2, visual, { hidden: false }),
      ],
    },
    audio: [
      {
        id: "t-a1",
        name: "Audio track",
        type: "audio",
        muted: false,
        elements: [
          el("tone", "audio", "m-tone", 1, 1, { volume: 0, muted: false }, { sourceType: "upload", sourceDuration: 4 * S, trimEnd: 3 * S }),
          el("hush", "audio", "m-tone", 2, 1, { volume: 0, muted: true }, { sourceType: "upload", sourceDuration: 4 * S, trimEnd: 3 * S }),
          el(
            "fast",
            "audio",
            "m-tone",
            3,
            1,
            { volume: 0, muted: false },
            { sourceType: "upload", sourceDuration: 4 * S, trimStart: S / 2, trimEnd: S / 2, retime: { rate: 2 } },
          ),
        ],
      },
      {
        id: "t-a2",
        name: "Audio track",
        type: "audio",
        muted: true,
        elements: [el("under", "audio", "m-tone", 0, 4, { volume: 0, muted: false }, { sourceType: "upload", sourceDuration: 4 * S })],
      },
    ],
  },
};

/** Runs in the page: makes the media, exports, reads the file back. */
async function exportInPage({ scene, format, cancelAt, noH264, unreachableTone, failingTarget }) {
  const mb = await import("mediabunny");
  const { createEditor } = await import("/dist/index.js");
  const { exportVideo } = await import("/dist/export.js");
  const { loadOpenCutScene } = await import("/dist/opencut.js");
  const { createFrameRenderer } = await import("/dist/render.js");
  if (noH264) {
    // A browser without H.264 (as Debian's Chromium often is): the encoder says no to avc.
    const real = VideoEncoder.isConfigSupported.bind(VideoEncoder);
    VideoEncoder.isConfigSupported = async (c) => (c.codec.startsWith("avc") ? { supported: false, config: c } : real(c));
  }
  const sine = (hz, seconds, channels, rate = 48000) => {
    const buf = new AudioBuffer({ length: seconds * rate, numberOfChannels: channels, sampleRate: rate });
    for (let c = 0; c < channels; c++) {
      const d = buf.getChannelData(c);
      for (let i = 0; i < d.length; i++) d[i] = 0.5 * Math.sin((2 * Math.PI * hz * i) / rate);
    }
    return buf;
  };
  // A 4 s 440 Hz WAV.
  const wavOut = new mb.Output({ format: new mb.WavOutputFormat(), target: new mb.BufferTarget() });
  const wavSrc = new mb.AudioBufferSource({ codec: "pcm-s16" });
  wavOut.addAudioTrack(wavSrc);
  await wavOut.start();
  await wavSrc.add(sine(440, 4, 1));
  await wavOut.finalize();
  // A 2 s WebM: green for a second, then magenta; an 880 Hz stereo tone.
  const clipOut = new mb.Output({ format: new mb.WebMOutputFormat(), target: new mb.BufferTarget() });
  const clipVideo = new mb.VideoSampleSource({ codec: "vp8", bitrate: 1e6 });
  const clipAudio = new mb.AudioBufferSource({ codec: "opus", bitrate: 128000 });
  clipOut.addVideoTrack(clipVideo, { frameRate: 10 });
  clipOut.addAudioTrack(clipAudio);
  await clipOut.start();
  await clipAudio.add(sine(880, 2, 2));
  const c = new OffscreenCanvas(160, 90);
  const g = c.getContext("2d");
  for (let i = 0; i < 20; i++) {
    g.fillStyle = i < 10 ? "#00ff00" : "#ff00ff";
    g.fillRect(0, 0, 160, 90);
    const s = new mb.VideoSample(c, { timestamp: i / 10, duration: 0.1 });
    await clipVideo.add(s);
    s.close();
  }
  await clipOut.finalize();
  const red = new OffscreenCanvas(16, 9);
  red.getContext("2d").fillStyle = "#ff0000";
  red.getContext("2d").fillRect(0, 0, 16, 9);

  const editor = await createEditor();
  loadOpenCutScene(editor, scene, {
    sources: new Map([
      ["m-clip", { file: new Blob([clipOut.target.buffer], { type: "video/webm" }) }],
      // unreachableTone: a URL on the page's own origin whose connection fails (the test aborts it);
      // "hush" (muted) and "under" (volume 0) are never read.
      [
        "m-tone",
        unreachableTone
          ? { url: `${location.origin}/tests/fixtures/media/unreachable.wav` }
          : { file: new Blob([wavOut.target.buffer], { type: "audio/wav" }) },
      ],
      ["m-red", { file: await red.convertToBlob() }],
    ]),
  });

  if (unreachableTone) {
    const t0 = performance.now();
    const r = await Promise.race([exportVideo(editor, { format }), new Promise((resolve) => setTimeout(() => resolve(null), 30_000))]);
    return { unreachable: r && { missing: r.missing, frames: r.frames }, ms: performance.now() - t0 };
  }

  if (failingTarget) {
    // A stream that refuses its first chunk (a full disk): the export fails with a code, the cause kept.
    const target = new WritableStream({ write: () => Promise.reject(new TypeError("disk full")) });
    try {
      await exportVideo(editor, { format, target });
      return { failed: false };
    } catch (e) {
      return { failed: true, name: e.name, code: e.code, message: e.message, cause: e.cause?.message };
    }
  }

  if (cancelAt !== undefined) {
    const ac = new AbortController();
    const writes = [];
    let aborted = false;
    const target = new WritableStream({ write: (chunk) => void writes.push(chunk.data.length), abort: () => void (aborted = true) });
    let last = 0;
    try {
      await exportVideo(editor, {
        format,
        signal: ac.signal,
        target,
        onProgress: (p) => {
          last = p.framesDone;
          if (p.framesDone === cancelAt) ac.abort();
        },
      });
      return { cancelled: false };
    } catch (e) {
      return { cancelled: true, name: e.name, last, aborted };
    }
  }

  let result;
  try {
    const progress = [];
    result = await exportVideo(editor, { format, onProgress: (p) => progress.push(p) });
    result.progress = progress;
  } catch (e) {
    return { error: { name: e.name, code: e.code, message: e.message } };
  }

  // Read the file back.
  const input = new mb.Input({ source: new mb.BlobSource(result.blob), formats: mb.ALL_FORMATS });
  const vt = await input.getPrimaryVideoTrack();
  const at = await input.getPrimaryAudioTrack();
  const stats = await vt.computePacketStats();
  const back = {
    container: (await input.getFormat()).name,
    duration: await input.computeDuration(),
    width: vt.displayWidth,
    height: vt.displayHeight,
    videoCodec: vt.codec,
    packetRate: stats.averagePacketRate,
    packets: stats.packetCount,
    audioCodec: at?.codec ?? null,
    audioDuration: at ? (await at.computeDuration()) - (await at.getFirstTimestamp()) : 0,
  };
  // Loudness and zero crossings per second of the decoded sound (channel 0).
  const pcm = [];
  let rate = 48000;
  for await (const w of new mb.AudioBufferSink(at).buffers()) {
    rate = w.buffer.sampleRate;
    const from = Math.max(0, Math.round(-w.timestamp * rate));
    pcm.push(...w.buffer.getChannelData(0).subarray(from));
  }
  back.seconds = [];
  for (let s = 0; s < 4; s++) {
    // The middle 0.6 s of each second, away from the joins.
    const a = Math.round((s + 0.2) * rate);
    const b = Math.round((s + 0.8) * rate);
    let sum = 0;
    let crossings = 0;
    for (let i = a; i < b; i++) {
      sum += pcm[i] * pcm[i];
      if (i > a && pcm[i - 1] < 0 && pcm[i] >= 0) crossings++;
    }
    back.seconds.push({ rms: Math.sqrt(sum / (b - a)), hz: crossings / ((b - a) / rate) });
  }
  // Frames decoded at known times against the compositor's frames at the same times.
  const sink = new mb.CanvasSink(vt, { poolSize: 1 });
  const renderer = await createFrameRenderer({ editor });
  back.probes = [];
  for (const t of [0.55, 1.55, 2.55]) {
    const wrapped = await sink.getCanvas(t + 0.01);
    const px = wrapped.canvas.getContext("2d").getImageData(160, 90, 1, 1).data;
    await renderer.render(t);
    const ref = await renderer.readPixels({ x: 160, y: 90, width: 1, height: 1 });
    back.probes.push({ t, decoded: Array.from(px.slice(0, 3)), compositor: Array.from(ref.slice(0, 3)) });
  }
  renderer.destroy();
  const { blob, ...rest } = result;
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return {
    result: { ...rest, progress: { count: result.progress.length, first: result.progress[0], last: result.progress.at(-1) } },
    back,
    base64: btoa(binary),
  };
}

const chrome = serveAndLaunch(root);
let page;

async function run(args) {
  page = await chrome.browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/tests/fixtures/media/unreachable.wav", (route) => route.abort("connectionrefused"));
  await page.goto(`${chrome.server.url}/tests/js/page.html`);
  try {
    return await page.evaluate(exportInPage, args);
  } finally {
    await page.close();
  }
}

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

for (const format of ["mp4", "webm"]) {
  test(`${format}: the file reads back with the timeline's duration, rate, size, sound and pictures`, async () => {
    const out = await run({ scene: SCENE, format });
    assert.equal(out.error, undefined, JSON.stringify(out.error));
    const { result, back } = out;
    assert.equal(result.format, format);
    assert.equal(result.videoCodec, format === "mp4" ? "avc" : "vp9");
    assert.equal(result.audioCodec, back.audioCodec);
    assert.ok(["aac", "opus"].includes(result.audioCodec), result.audioCodec);
    assert.deepEqual([result.width, result.height, result.fps, result.frames, result.duration], [320, 180, 10, 40, 4]);
    assert.deepEqual(result.missing, []);
    assert.deepEqual(result.progress, {
      count: 40,
      first: { framesDone: 1, totalFrames: 40, progress: 1 / 40 },
      last: { framesDone: 40, totalFrames: 40, progress: 1 },
    });

    // The file through ffmpeg: clean; the clip green then magenta, then the red image; the
    // loudness within 1 dB of the sines' RMS (0.354 at amplitude 0.5, as below); silence in
    // second 2. Then through mediabunny's decoders in the page.
    const expected = [
      [0, 255, 0],
      [255, 0, 255],
      [255, 0, 0],
    ];
    const dir = mkdtempSync(join(tmpdir(), "neuralcut-export-"));
    try {
      const file = join(dir, `out.${format}`);
      writeFileSync(file, Buffer.from(out.base64, "base64"));
      const [v, a] = probe(file);
      assert.deepEqual([v.codec_name, v.width, v.height, v.r_frame_rate, a.codec_type], [format === "mp4" ? "h264" : "vp9", 320, 180, "10/1", "audio"]);
      decodesCleanly(file);
      [0.55, 1.55, 2.55].forEach((t, i) => nearColour(frameAt(file, t).px(160, 90), expected[i], 24, `ffmpeg, ${t} s, the middle`));
      const sound = pcm(file);
      const db = (rms) => 20 * Math.log10(rms);
      silent(sound, 2.2, 2.8, -50, "ffmpeg, second 2 (muted)");
      loud(sound, 0.2, 0.8, db(0.177), 1, "ffmpeg, second 0 (the clip at -6 dB)");
      loud(sound, 1.2, 1.8, db(Math.hypot(0.177, 0.354)), 1, "ffmpeg, second 1 (the clip and the WAV)");
      loud(sound, 3.2, 3.8, db(0.354), 1, "ffmpeg, second 3 (the WAV at rate 2)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    assert.equal(back.container, format === "mp4" ? "MP4" : "WebM");
    assert.deepEqual([back.width, back.height, back.videoCodec, back.packets], [320, 180, result.videoCodec, 40]);
    near(back.packetRate, 10, 0.01, "frame rate");
    near(back.duration, 4, 0.05, "duration");
    near(back.audioDuration, 4, 0.05, "audio length");

    // Sine of amplitude 0.5 has RMS 0.354. Second 0: the clip's 880 Hz at -6 dB; second 1: that
    // plus the 440 Hz WAV at 0 dB; second 2: a muted element and a muted track, silence;
    // second 3: the WAV at rate 2, 880 Hz at full volume.
    const [s0, s1, s2, s3] = back.seconds;
    near(s0.rms, 0.177, 0.02, "second 0 loudness");
    near(s0.hz, 880, 15, "second 0 pitch");
    near(s1.rms, Math.hypot(0.177, 0.354), 0.03, "second 1 loudness");
    assert.ok(s2.rms < 0.005, `second 2 is silent, rms ${s2.rms}`);
    near(s3.rms, 0.354, 0.03, "second 3 loudness");
    near(s3.hz, 880, 15, "second 3 pitch (rate 2 of 440 Hz)");

    back.probes.forEach((p, i) => {
      for (let ch = 0; ch < 3; ch++) {
        near(p.decoded[ch], p.compositor[ch], 24, `t=${p.t} channel ${ch} against the compositor`);
        near(p.compositor[ch], expected[i][ch], 8, `t=${p.t} channel ${ch} of the compositor`);
      }
    });
  });
}

test("a clip that keeps its pitch at rate 2 plays its 440 Hz tone at 440 Hz, as loud, for the clip's length", async () => {
  // The same scene with OpenCut's maintainPitch on the WAV at rate 2 (second 3).
  const scene = structuredClone(SCENE);
  scene.tracks.audio[0].elements[2].retime = { rate: 2, maintainPitch: true };
  const out = await run({ scene, format: "webm" });
  assert.equal(out.error, undefined, JSON.stringify(out.error));
  assert.deepEqual(out.result.missing, []);
  const [s0, s1, s2, s3] = out.back.seconds;
  near(s3.hz, 440, 15, "second 3 pitch (kept)");
  near(s3.rms, 0.354, 0.04, "second 3 loudness");
  // Nothing else changed: the seconds around it are as in the plain export.
  near(s0.hz, 880, 15, "second 0 pitch");
  near(s1.rms, Math.hypot(0.177, 0.354), 0.03, "second 1 loudness");
  assert.ok(s2.rms < 0.005, `second 2 is silent, rms ${s2.rms}`);
  near(out.back.audioDuration, 4, 0.05, "audio length");
  const dir = mkdtempSync(join(tmpdir(), "neuralcut-export-"));
  try {
    const file = join(dir, "out.webm");
    writeFileSync(file, Buffer.from(out.base64, "base64"));
    const sound = pcm(file);
    // The stretched tone fills second 3 and stops with the clip.
    loud(sound, 3.1, 3.9, 20 * Math.log10(0.354), 1.5, "ffmpeg, second 3 (the WAV stretched)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a sound file whose server does not answer is reported missing after a few tries, not waited for", async () => {
  const out = await run({ scene: SCENE, format: "webm", unreachableTone: true });
  assert.ok(out.unreachable, `the export was still running after 30 s`);
  assert.equal(out.unreachable.frames, 40);
  assert.deepEqual(out.unreachable.missing.map((m) => m.elementId).sort(), ["fast", "tone"], JSON.stringify(out.unreachable.missing));
});

test("cancel mid-way rejects with AbortError and aborts the target stream", async () => {
  const out = await run({ scene: SCENE, format: "mp4", cancelAt: 5 });
  assert.deepEqual(out, { cancelled: true, name: "AbortError", last: 5, aborted: true });
});

test("a target stream that fails is EXPORT_FAILED, its error the cause", async () => {
  const out = await run({ scene: SCENE, format: "webm", failingTarget: true });
  assert.equal(out.failed, true, JSON.stringify(out));
  assert.deepEqual([out.name, out.code], ["NeuralCutError", "EXPORT_FAILED"], JSON.stringify(out));
  assert.match(out.message, /^the export failed: .*disk full/);
  assert.equal(out.cause, "disk full");
});

test("mp4 without an H.264 encoder is CODEC_UNSUPPORTED naming the codec and webm", async () => {
  const out = await run({ scene: SCENE, format: "mp4", noH264: true });
  assert.equal(out.error?.code, "CODEC_UNSUPPORTED", JSON.stringify(out));
  assert.equal(out.error.name, "NeuralCutError");
  assert.match(out.error.message, /cannot encode H\.264 \(avc\) video at 320x180, which mp4 export needs; export as webm instead \(this browser encodes VP9/);
});
