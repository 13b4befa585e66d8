#!/usr/bin/env node
// detect_scenes and detect_silences in headless Chromium, on media ffmpeg makes here: a 720p
// 30 fps clip with cuts (H.264 and VP8) and ten minutes of 48 kHz stereo speech-like audio (Opus).
// Each tool is timed against decoding the same file alone (mediabunny's sinks, every frame or
// sample closed unread) in the same page and run, and as a real-time factor. Medians of three
// runs after a warm-up. Part of `npm run bench`; needs `npm run build` first and ffmpeg.
//
//   node scripts/bench-media.mjs [--seconds N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { launchChromium, option, printRows, root, serve } from "./bench-common.mjs";

const SECONDS = Number(option("--seconds")) || 20;
const AUDIO_MINUTES = 10;
const dir = mkdtempSync(join(tmpdir(), "nc-bench-media-"));

function ffmpeg(args) {
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", ...args]);
  if (r.error?.code === "ENOENT") throw new Error("ffmpeg is not installed: run scripts/setup.sh");
  if (r.status !== 0) throw new Error(String(r.stderr));
}

// Shots of a moving test pattern and colours, a cut every 2.5 s.
const shots = [];
for (let t = 0; t < SECONDS; t += 2.5)
  shots.push((t / 2.5) % 2 ? `color=c=0x${(0x203040 + t * 0x101010).toString(16).slice(-6)}:s=1280x720:r=30:d=2.5` : "testsrc2=s=1280x720:r=30:d=2.5");
const graph = `${shots.map((_, i) => `[${i}]format=yuv420p[v${i}]`).join(";")};${shots.map((_, i) => `[v${i}]`).join("")}concat=n=${shots.length}:v=1:a=0`;
const inputs = shots.flatMap((s) => ["-f", "lavfi", "-i", s]);
ffmpeg([...inputs, "-filter_complex", graph, "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", join(dir, "clip.mp4")]);
ffmpeg([
  ...inputs,
  "-filter_complex",
  graph,
  "-c:v",
  "libvpx",
  "-deadline",
  "realtime",
  "-cpu-used",
  "8",
  "-b:v",
  "2M",
  "-pix_fmt",
  "yuv420p",
  join(dir, "clip.webm"),
]);
// Half a second of tone, half of silence, over and over.
ffmpeg([
  "-f",
  "lavfi",
  "-i",
  `aevalsrc='if(lt(mod(t,1),0.5),0.5*sin(2*PI*440*t),0)|if(lt(mod(t,1),0.5),0.4*sin(2*PI*330*t),0)':s=48000:d=${AUDIO_MINUTES * 60}`,
  "-c:a",
  "libopus",
  "-b:a",
  "64k",
  join(dir, "speech.webm"),
]);

const files = { "clip.mp4": "video/mp4", "clip.webm": "video/webm", "speech.webm": "audio/webm" };
const mediabunny = join(root, "node_modules", "mediabunny", "dist", "bundles", "mediabunny.min.mjs");
const { origin, server } = await serve({
  page: `<!doctype html><script type="importmap">{"imports":{"mediabunny":"/mediabunny.js"}}</script>`,
  file: (path) =>
    path === "/mediabunny.js" ? mediabunny : path.startsWith("/media/") ? join(dir, path.slice(7)) : join(root, "dist", path.replace(/^\/dist\//, "")),
});
const browser = await launchChromium();

/** Runs in the page: the tool and the decode-only baseline on one file, medians of `runs`. */
async function measure({ name, type, kind, runs }) {
  const { createEditor } = await import("/dist/index.js");
  const tools = kind === "video" ? await import("/dist/detect-scenes.js") : await import("/dist/detect-silences.js");
  const mb = await import("mediabunny");
  const file = new File([await (await fetch(`/media/${name}`)).arrayBuffer()], name, { type });
  const editor = await createEditor();
  editor.addAsset({ id: "a", name, type: kind, file });
  const tool = kind === "video" ? tools.detectScenesTool(editor) : tools.detectSilencesTool(editor);
  const decodeOnly = async () => {
    const input = new mb.Input({ source: new mb.BlobSource(file), formats: mb.ALL_FORMATS });
    const track = kind === "video" ? await input.getPrimaryVideoTrack() : await input.getPrimaryAudioTrack();
    const sink = kind === "video" ? new mb.VideoSampleSink(track) : new mb.AudioSampleSink(track);
    let n = 0;
    for await (const s of sink.samples()) {
      n++;
      s.close();
    }
    input.dispose();
    return n;
  };
  const median = async (fn) => {
    await fn();
    const times = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[times.length >> 1];
  };
  let result;
  const tool_ms = await median(async () => {
    result = await tool.call({ assetId: "a" });
    if (result.error) throw new Error(JSON.stringify(result));
  });
  const decode_ms = await median(decodeOnly);
  return { tool_ms, decode_ms, found: (result.cuts ?? result.silences).length, duration: result.duration };
}

const rows = [];
try {
  for (const [name, kind] of [
    ["clip.mp4", "video"],
    ["clip.webm", "video"],
    ["speech.webm", "audio"],
  ]) {
    const page = await browser.newPage();
    await page.goto(origin);
    const r = await page.evaluate(measure, { name, type: files[name], kind, runs: 3 });
    await page.close();
    rows.push({
      what: `${kind === "video" ? "detect_scenes" : "detect_silences"}, ${name} (${kind === "video" ? "720p 30 fps" : "48 kHz stereo Opus"}, ${r.duration} s)`,
      value: `${r.tool_ms.toFixed(0)} ms (${((r.duration * 1000) / r.tool_ms).toFixed(1)}× real time, ${r.found} found)`,
      baseline: `decoding alone: ${r.decode_ms.toFixed(0)} ms`,
      ratio: `${(r.tool_ms / r.decode_ms).toFixed(2)}×`,
      goal: kind === "video" ? "≥ 10× real time" : "≥ 500× real time",
      met: (r.duration * 1000) / r.tool_ms >= (kind === "video" ? 10 : 500) ? "yes" : "NO",
    });
  }
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`\nMedia analysis in headless Chromium (${new Date().toISOString()})\n`);
printRows(rows);
