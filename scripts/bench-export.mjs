#!/usr/bin/env node
// Export speed in headless Chromium: neuralcut/export's exportVideo (MP4: H.264 through WebCodecs,
// Opus or AAC) of a timeline at 1080p30 and 720p30, as a multiple of real time, split into its
// parts, and in the same run ffmpeg (libx264 -preset veryfast, where installed) encoding the same
// rendered frames. Needs `npm run build` first. `npm run bench:export`.
//
// The timeline: a full-frame gradient picture, a 640×360 VP8 clip as picture-in-picture (2 s,
// placed five times), a half-transparent rotated picture, a title, and a 48 kHz tone under it all.
//
//   exportVideo   the whole export (compositor, audio mix, encode, mux), wall clock
//   compositor    the compositor alone, as the export drives it (video decoded in order, each
//                 frame taken as a VideoFrame)
//   encoder       mediabunny + WebCodecs encoding 30 rendered frames, cycled to the same count
//   ffmpeg        libx264 on those same 30 frames (raw RGBA), cycled to the same count
//
//   node scripts/bench-export.mjs [--seconds N]   (default 10)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { launchChromium, option, root, serve } from "./bench-common.mjs";

const SECONDS = Number(option("--seconds")) || 10;
const SAMPLES = 30;

if (!existsSync(join(root, "dist", "export.js"))) throw new Error("dist/export.js is missing: run npm run build first");
const hasFfmpeg = spawnSync("ffmpeg", ["-version"]).status === 0;
const work = mkdtempSync(join(tmpdir(), "neuralcut-bench-export-"));
const raw = join(work, "frames.rgba");

const map = { imports: { mediabunny: "/node_modules/mediabunny/dist/bundles/mediabunny.min.mjs" } };
const { origin, server } = await serve({
  page: `<!doctype html><script type="importmap">${JSON.stringify(map)}</script>`,
  file: (path) => join(root, path),
  special: async (path, req, res) => {
    if (path !== "/frames" || req.method !== "PUT") return false;
    // The sample frames, appended as raw RGBA for ffmpeg.
    for await (const c of req) appendFileSync(raw, c);
    res.writeHead(204).end();
    return true;
  },
});

/** Runs in the page. */
async function measure({ W, H, seconds, samples }) {
  const mb = await import("mediabunny");
  const { createEditor } = await import("/dist/index.js");
  const { createFrameRenderer } = await import("/dist/render.js");
  const { exportVideo } = await import("/dist/export.js");
  const { loadOpenCutScene } = await import("/dist/opencut.js");
  const S = 120_000;
  const blob = async (w, h, paint) => {
    const c = new OffscreenCanvas(w, h);
    paint(c.getContext("2d"), w, h);
    return c.convertToBlob();
  };
  const bg = await blob(W, H, (g, w, h) => {
    const grad = g.createLinearGradient(0, 0, w, h);
    grad.addColorStop(0, "#1e3a8a");
    grad.addColorStop(1, "#f97316");
    g.fillStyle = grad;
    g.fillRect(0, 0, w, h);
  });
  const logo = await blob(400, 400, (g) => {
    g.fillStyle = "#22c55e";
    g.beginPath();
    g.arc(200, 200, 180, 0, Math.PI * 2);
    g.fill();
  });
  // A 2 s 640×360 VP8 clip, a moving bar.
  const clipOut = new mb.Output({ format: new mb.WebMOutputFormat(), target: new mb.BufferTarget() });
  const clipSrc = new mb.VideoSampleSource({ codec: "vp8", bitrate: 2e6 });
  clipOut.addVideoTrack(clipSrc, { frameRate: 30 });
  await clipOut.start();
  const cc = new OffscreenCanvas(640, 360);
  const cg = cc.getContext("2d");
  for (let i = 0; i < 60; i++) {
    cg.fillStyle = "#111827";
    cg.fillRect(0, 0, 640, 360);
    cg.fillStyle = "#eab308";
    cg.fillRect(i * 10, 140, 80, 80);
    const s = new mb.VideoSample(cc, { timestamp: i / 30, duration: 1 / 30 });
    await clipSrc.add(s);
    s.close();
  }
  await clipOut.finalize();
  // A tone as long as the timeline.
  const rate = 48000;
  const tone = new AudioBuffer({ length: seconds * rate, numberOfChannels: 2, sampleRate: rate });
  for (let c = 0; c < 2; c++) {
    const d = tone.getChannelData(c);
    for (let i = 0; i < d.length; i++) d[i] = 0.3 * Math.sin((2 * Math.PI * 440 * i) / rate);
  }
  const wavOut = new mb.Output({ format: new mb.WavOutputFormat(), target: new mb.BufferTarget() });
  const wavSrc = new mb.AudioBufferSource({ codec: "pcm-s16" });
  wavOut.addAudioTrack(wavSrc);
  await wavOut.start();
  await wavSrc.add(tone);
  await wavOut.finalize();

  const visual = (p = {}) => ({
    "transform.positionX": 0,
    "transform.positionY": 0,
    "transform.scaleX": 1,
    "transform.scaleY": 1,
    "transform.rotate": 0,
    opacity: 1,
    blendMode: "normal",
    ...p,
  });
  const el = (id, type, media, start, duration, params, extra = {}) => ({
    id,
    type,
    name: id,
    mediaId: media,
    startTime: start * S,
    duration: duration * S,
    trimStart: 0,
    trimEnd: 0,
    hidden: false,
    ...extra,
    params,
  });
  const clips = [];
  for (let k = 0; 2 * k < seconds; k++)
    clips.push(
      el(
        `clip${k}`,
        "video",
        "m-clip",
        2 * k,
        Math.min(2, seconds - 2 * k),
        visual({ "transform.positionX": W / 4, "transform.positionY": -H / 5, "transform.scaleX": 0.35, "transform.scaleY": 0.35, volume: -60 }),
        { sourceDuration: 2 * S, trimEnd: (2 - Math.min(2, seconds - 2 * k)) * S },
      ),
    );
  const scene = {
    settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: W, height: H } },
    assets: [
      { id: "m-bg", name: "bg.png", type: "image", width: W, height: H },
      { id: "m-logo", name: "logo.png", type: "image", width: 400, height: 400 },
      { id: "m-clip", name: "clip.webm", type: "video", width: 640, height: 360, duration: 2 },
      { id: "m-tone", name: "tone.wav", type: "audio", duration: seconds },
    ],
    tracks: {
      overlay: [
        {
          id: "t-text",
          name: "Text track",
          type: "text",
          hidden: false,
          elements: [
            {
              id: "title",
              type: "text",
              name: "Title",
              startTime: 0,
              duration: seconds * S,
              trimStart: 0,
              trimEnd: 0,
              params: {
                content: "NeuralCut export",
                fontFamily: "Arial",
                fontSize: 8,
                color: "#ffffff",
                textAlign: "center",
                fontWeight: "bold",
                fontStyle: "normal",
                textDecoration: "none",
                letterSpacing: 0,
                lineHeight: 1.2,
                ...visual({ "transform.positionY": H / 3 }),
              },
            },
          ],
        },
        {
          id: "t-logo",
          name: "Video track",
          type: "video",
          hidden: false,
          muted: false,
          elements: [
            el(
              "logo",
              "image",
              "m-logo",
              0,
              seconds,
              visual({ "transform.positionX": -W / 4, "transform.scaleX": 0.3, "transform.scaleY": 0.3, "transform.rotate": 15, opacity: 0.6 }),
            ),
          ],
        },
        { id: "t-pip", name: "Video track", type: "video", hidden: false, muted: false, elements: clips },
      ],
      main: { id: "t-main", name: "Main Track", type: "video", hidden: false, muted: false, elements: [el("bg", "image", "m-bg", 0, seconds, visual())] },
      audio: [
        {
          id: "t-a",
          name: "Audio track",
          type: "audio",
          muted: false,
          elements: [el("tone", "audio", "m-tone", 0, seconds, { volume: 0, muted: false }, { sourceType: "upload", sourceDuration: seconds * S })],
        },
      ],
    },
  };
  const editor = await createEditor();
  loadOpenCutScene(editor, scene, {
    sources: new Map([
      ["m-bg", { file: bg }],
      ["m-logo", { file: logo }],
      ["m-clip", { file: new Blob([clipOut.target.buffer], { type: "video/webm" }) }],
      ["m-tone", { file: new Blob([wavOut.target.buffer], { type: "audio/wav" }) }],
    ]),
  });
  const frames = Math.round(seconds * 30);

  // A warm-up frame first, so neither figure pays for loading the GPU code.
  const warm = await createFrameRenderer({ editor });
  await warm.render(0);
  warm.destroy();

  // 1. The whole export.
  let t0 = performance.now();
  const result = await exportVideo(editor, { format: "mp4" });
  const exportMs = performance.now() - t0;
  // A layer left out would make the figures meaningless.
  if (result.missing.length) throw new Error(`the export left out ${JSON.stringify(result.missing)}`);

  // 2. The compositor alone, driven as the export drives it (its own in-order video decoder, each
  //    frame taken as a VideoFrame), then the sample frames kept for the encoders.
  const renderer = await createFrameRenderer({ editor });
  t0 = performance.now();
  for (let i = 0; i < frames; i++) {
    await renderer.render(i / 30);
    (await renderer.toVideoFrame({ timestamp: Math.round((i / 30) * 1e6) })).close();
  }
  const compositorMs = performance.now() - t0;
  const kept = [];
  for (let i = 0; i < samples; i++) {
    await renderer.render(i / 30);
    kept.push(await renderer.readPixels());
  }
  renderer.destroy();

  // 3. mediabunny + WebCodecs on the kept frames, cycled.
  const encOut = new mb.Output({ format: new mb.Mp4OutputFormat({ fastStart: "in-memory" }), target: new mb.BufferTarget() });
  const encSrc = new mb.VideoSampleSource({ codec: "avc", quality: mb.QUALITY_HIGH, keyFrameInterval: 2 });
  encOut.addVideoTrack(encSrc, { frameRate: 30 });
  await encOut.start();
  t0 = performance.now();
  for (let i = 0; i < frames; i++) {
    const s = new mb.VideoSample(kept[i % kept.length], { format: "RGBA", codedWidth: W, codedHeight: H, timestamp: i / 30, duration: 1 / 30 });
    await encSrc.add(s);
    s.close();
  }
  await encOut.finalize();
  const encoderMs = performance.now() - t0;

  // 4. The kept frames to the server, for ffmpeg.
  for (const px of kept) await fetch("/frames", { method: "PUT", body: px });
  return {
    frames,
    exportMs,
    compositorMs,
    encoderMs,
    videoCodec: result.videoCodec,
    audioCodec: result.audioCodec,
    bytes: result.blob.size,
    kept: kept.length,
  };
}

const results = {};
const browser = await launchChromium();
try {
  for (const [W, H] of [
    [1280, 720],
    [1920, 1080],
  ]) {
    const label = `${H}p30`;
    rmSync(raw, { force: true });
    const page = await browser.newPage();
    page.on("console", (m) => m.type() === "error" && console.log(`[page] ${m.text().slice(0, 300)}`));
    await page.goto(`${origin}/`);
    console.log(`[bench] export ${label}, ${SECONDS} s…`);
    const r = await page.evaluate(measure, { W, H, seconds: SECONDS, samples: SAMPLES });
    await page.close();
    if (hasFfmpeg) {
      const t0 = performance.now();
      execFileSync("ffmpeg", [
        "-v",
        "error",
        "-y",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "rgba",
        "-s",
        `${W}x${H}`,
        "-framerate",
        "30",
        "-stream_loop",
        "-1",
        "-i",
        raw,
        "-frames:v",
        String(r.frames),
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-pix_fmt",
        "yuv420p",
        join(work, "ffmpeg.mp4"),
      ]);
      r.ffmpegMs = performance.now() - t0;
    }
    results[label] = r;
  }
} finally {
  await browser.close();
  server.close();
  rmSync(work, { recursive: true, force: true });
}

const x = (ms) => (SECONDS * 1000) / ms;
const rows = [
  "| timeline | exportVideo | × real time | compositor alone | WebCodecs encode alone | ffmpeg libx264 veryfast, same frames |",
  "|---|---|---|---|---|---|",
];
for (const [label, r] of Object.entries(results)) {
  rows.push(
    `| ${label}, ${SECONDS} s (${r.videoCodec} + ${r.audioCodec}) | ${(r.exportMs / 1000).toFixed(1)} s | ${x(r.exportMs).toFixed(2)} | ${x(r.compositorMs).toFixed(2)}× (${(r.compositorMs / r.frames).toFixed(0)} ms/frame) | ${x(r.encoderMs).toFixed(2)}× | ${r.ffmpegMs ? `${x(r.ffmpegMs).toFixed(2)}×` : "not installed"} |`,
  );
}
const report = `## Export (neuralcut/export, MP4, same run as ffmpeg)\n\n${rows.join("\n")}\n\nMultiples of real time (above 1: faster than playback).\n`;
console.log(`\n${report}`);
mkdirSync(join(root, ".bench"), { recursive: true });
writeFileSync(join(root, ".bench", "export.md"), report);
writeFileSync(join(root, ".bench", "export.json"), JSON.stringify(results, null, 2));
