// The demo's Export button (`npm run demo` page, headless Chromium): the dialog offers the formats
// and sizes, exports the demo project with a progress bar and offers the file as a download, which
// is read back with mediabunny in the page; Cancel stops a running export and keeps nothing.
//
// Needs `npm run build` first.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startDemoServer } from "../../scripts/demo.mjs";
import { launchChromium } from "./browser.mjs";

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
  await page.waitForFunction(() => document.getElementById("export-progress").value > 0 && document.getElementById("export-progress").value < 1, null, { timeout: 120_000 });
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
    return { name: document.getElementById("export-download").download, duration: await input.computeDuration(), size: [v.displayWidth, v.displayHeight], audio: a?.codec };
  });
  assert.equal(back.name, "neuralcut-export.webm");
  assert.deepEqual(back.size, [640, 360]);
  assert.equal(back.audio, "opus");
  assert.ok(Math.abs(back.duration - 10) < 0.05, `duration ${back.duration}`);
  await page.click("#export-cancel"); // Close
  assert.equal(await page.$eval("#export-dialog", (d) => d.open), false);
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
