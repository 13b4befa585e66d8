// The demo's Export button (`npm run demo` page, headless Chromium): the dialog offers the formats
// and sizes, exports the demo project with a progress bar and offers the file as a download, which
// is read back with mediabunny in the page and decoded with ffmpeg here (tests/js/decode.mjs):
// nothing missing, the clip's colour bars, the star and the still in their places, the sound as
// loud as the two sources summed and silent where none plays; Cancel stops a running export and
// keeps nothing.
//
// Needs `npm run build` first and ffmpeg (scripts/setup.sh).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { startDemoServer } from "../../scripts/demo.mjs";
import { launchChromium } from "./browser.mjs";
import { decodesCleanly, frameAt, loud, nearColour, pcm, probe, rmsDb, silent } from "./decode.mjs";

const media = fileURLToPath(new URL("../../demo/media/", import.meta.url));
/** Each channel within this of the expected colour after VP9 and 4:2:0. */
const COLOUR_TOL = 24;

let server;
let browser;
let page;
const problems = [];

before(async () => {
  server = await startDemoServer({ port: 0 });
  browser = await launchChromium(["--autoplay-policy=no-user-gesture-required"]);
  page = await browser.newPage();
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(server.url);
  await page.waitForFunction(() => window.demo?.editor && !document.getElementById("export-open").hidden, null, { timeout: 60_000 });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("Export: choose WebM at 640 wide, watch the progress, download a file of the whole timeline", { timeout: 300_000 }, async () => {
  await page.click("#export-open");
  const sizes = await page.$$eval("#export-size option", (o) => o.map((x) => x.value));
  assert.deepEqual(sizes, ["1920", "1280", "854", "640"]);
  assert.deepEqual(await page.$$eval("#export-format option", (o) => o.map((x) => x.value)), ["mp4", "webm"]);
  await page.selectOption("#export-format", "webm");
  await page.selectOption("#export-size", "640");
  await page.click("#export-start");
  await page.waitForFunction(() => document.getElementById("export-progress").value > 0 && document.getElementById("export-progress").value < 1, null, {
    timeout: 120_000,
  });
  await page.waitForFunction(() => window.demo.lastExport, null, { timeout: 280_000, polling: 500 });
  const last = await page.evaluate(() => window.demo.lastExport);
  assert.equal(last.error, undefined, JSON.stringify(last));
  assert.deepEqual([last.format, last.width, last.height, last.fps, last.frames, last.duration], ["webm", 640, 360, 30, 300, 10]);
  assert.equal(await page.$eval("#export-progress", (p) => p.value), 1);
  const back = await page.evaluate(async () => {
    const mb = await import("mediabunny");
    const blob = await (await fetch(document.getElementById("export-download").href)).blob();
    const input = new mb.Input({ source: new mb.BlobSource(blob), formats: mb.ALL_FORMATS });
    const v = await input.getPrimaryVideoTrack();
    const a = await input.getPrimaryAudioTrack();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return {
      name: document.getElementById("export-download").download,
      duration: await input.computeDuration(),
      size: [v.displayWidth, v.displayHeight],
      audio: a?.codec,
      base64: btoa(binary),
    };
  });
  await page.click("#export-cancel"); // Close, before the checks: the next test opens the dialog again
  assert.equal(await page.$eval("#export-dialog", (d) => d.open), false);
  assert.equal(back.name, "neuralcut-export.webm");
  assert.deepEqual(back.size, [640, 360]);
  assert.equal(back.audio, "opus");
  assert.ok(Math.abs(back.duration - 10) < 0.05, `duration ${back.duration}`);
  assert.deepEqual(last.missing, []);

  // The downloaded file, decoded by ffmpeg.
  const dir = mkdtempSync(join(tmpdir(), "neuralcut-demo-export-"));
  try {
    const file = join(dir, back.name);
    writeFileSync(file, Buffer.from(back.base64, "base64"));
    const [video, audio] = probe(file);
    assert.deepEqual([video.codec_name, video.width, video.height, video.r_frame_rate, audio.codec_name], ["vp9", 640, 360, "30/1", "opus"]);
    decodesCleanly(file);
    // 2 s: clip.webm (testsrc2, 480×270 filling the frame, so ×4/3) shows its bars 80 px wide
    // (red, green, yellow, blue, ...); at y = 133 only the video puts them there. The star sticker
    // (#facc15) is top right, at (585, 56) (render-mcp.test.mjs finds it at (439, 42) at 480 wide).
    const at2 = frameAt(file, 2);
    for (const [x, want] of [
      [53, [255, 0, 0]],
      [160, [0, 255, 0]],
      [267, [255, 255, 0]],
      [373, [0, 0, 255]],
    ])
      nearColour(at2.px(x, 133), want, COLOUR_TOL, `2 s, the clip's bar at x ${x}`);
    nearColour(at2.px(585, 56), [250, 204, 21], COLOUR_TOL, "2 s, the star");
    // 9.8 s: still.jpg (640×360, so pixel for pixel) under the vignette: its own colour near the
    // middle, black in the corner.
    const at98 = frameAt(file, 9.8);
    nearColour(at98.px(300, 190), frameAt(join(media, "still.jpg"), 0).px(300, 190), COLOUR_TOL, "9.8 s, the still near the middle");
    nearColour(at98.px(20, 20), [0, 0, 0], COLOUR_TOL, "9.8 s, the vignette's corner");
    // Sound: 8–10 s nothing plays; before, the clip's own sound (0–6 s) and tone.ogg (0–8 s), both
    // at 0 dB, summed sample by sample, against the export per second. Within 1 dB: without the
    // clip's sound, seconds 0–5 are 2.7 dB quieter (the codecs cost under 0.1 dB here).
    const sound = pcm(file);
    silent(sound, 8.1, 9.9, -50, "8-10 s, where nothing plays");
    const clip = pcm(join(media, "clip.webm"));
    const tone = pcm(join(media, "tone.ogg"));
    const sum = new Float32Array(10 * 48000).map((_, i) => (clip[i] ?? 0) + (tone[i] ?? 0));
    for (let t = 0; t < 8; t++) loud(sound, t + 0.1, t + 0.9, rmsDb(sum, t + 0.1, t + 0.9), 1, `second ${t}, the clip and the tone`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Export: Cancel stops a running export and keeps nothing", { timeout: 120_000 }, async () => {
  await page.evaluate(() => delete window.demo.lastExport);
  await page.click("#export-open");
  await page.selectOption("#export-size", "640");
  assert.equal(await page.$eval("#export-download", (a) => a.hidden), true);
  await page.click("#export-start");
  await page.waitForFunction(() => document.getElementById("export-progress").value > 0, null, { timeout: 60_000 });
  assert.equal(await page.textContent("#export-cancel"), "Cancel");
  await page.click("#export-cancel");
  await page.waitForFunction(() => window.demo.lastExport, null, { timeout: 60_000 });
  assert.deepEqual(await page.evaluate(() => window.demo.lastExport), { error: "cancelled" });
  assert.equal(await page.textContent("#export-status"), "Cancelled; nothing was kept.");
  assert.equal(await page.$eval("#export-download", (a) => a.hidden), true);
  assert.deepEqual(problems, []);
});
