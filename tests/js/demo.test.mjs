// The demo page (npm run demo) in headless Chromium: it loads without console errors, shows the
// demo project, runs tools from the console (timeline view and preview pixels change, undo
// restores both), imports files as assets, and chats with a scripted fake Gemini through the
// real proxy mounted by the demo server. Screenshots of each step go to test-results/demo/.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { startDemoServer } from "../../scripts/demo.mjs";
import { call, modelTurn, startFakeGemini } from "./fake-gemini.mjs";
import { CHROMIUM_FLAGS } from "../../dist/render-headless.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const SHOTS = join(root, "test-results", "demo");
const KEY = "demo-test-key-0123456789";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let fake;
let server;
let browser;
let profile;
let page;
const problems = [];

async function shot(name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Waits until the preview shows the frame for the current revision and playhead. */
async function rendered() {
  await page.waitForFunction(() => {
    const r = document.getElementById("preview").dataset.rendered;
    return r === `${window.demo.editor.revision()}@${window.demo.clock.get().time.toFixed(3)}`;
  });
}

/** Keeps a copy of the preview canvas's pixels in the page under `name`. */
async function snapshot(name) {
  await rendered();
  // The GPU compositor draws the canvas; its pixels are read back from the frame it drew.
  await page.evaluate(async (name) => {
    window.__snaps ??= {};
    window.__snaps[name] = (await window.demo.preview.pixels()).slice();
  }, name);
}

/** Mean absolute difference (0-255) between two snapshots, and how many bytes differ. */
function pixelDiff(a, b) {
  return page.evaluate(
    ([a, b]) => {
      const x = window.__snaps[a];
      const y = window.__snaps[b];
      let sum = 0;
      let differing = 0;
      for (let i = 0; i < x.length; i++) {
        const d = Math.abs(x[i] - y[i]);
        sum += d;
        if (d) differing++;
      }
      return { mean: sum / x.length, differing };
    },
    [a, b],
  );
}

/** Element ids shown by the timeline view, in document order. */
function timelineIds() {
  return page.$$eval("#timeline .tl-el", (els) => els.map((e) => e.dataset.elementId));
}

/** Runs a tool from the console and returns { status, result } as the page shows them. */
async function runTool(name, args) {
  await page.click('.tab[data-tab="console"]');
  await page.selectOption("#tool-select", name);
  await page.fill("#tool-args", JSON.stringify(args, null, 2));
  const before = await page.evaluate(() => window.demo.editor.revision());
  await page.click("#tool-run");
  await page.waitForFunction(([name]) => document.getElementById("tool-status").textContent.startsWith(`${name}:`), [name]);
  const out = { status: await page.textContent("#tool-status"), result: JSON.parse(await page.textContent("#tool-result")) };
  // The view redraws on onChange, after the call has returned.
  await page.waitForFunction(
    (rev) => document.getElementById("timeline").dataset.revision === String(window.demo.editor.revision()) && window.demo.editor.revision() !== rev,
    before,
  );
  return out;
}

async function launch() {
  profile = mkdtempSync(join(tmpdir(), "neuralcut-demo-chromium-"));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [...CHROMIUM_FLAGS, "--disable-quic", "--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader"],
  });
}

function watch(p, into) {
  p.on("pageerror", (e) => into.push(`pageerror: ${e.message}`));
  p.on("console", (m) => m.type() === "error" && into.push(`console.error: ${m.text()}`));
}

before(async () => {
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  fake = await startFakeGemini({ apiKey: KEY });
  server = await startDemoServer({ port: 0, apiKey: KEY, upstream: fake.url, models: ["gemini-2.5-flash"] });
  browser = await launch();
  page = await browser.newPage();
  watch(page, problems);
  await page.goto(server.url);
  await page.waitForFunction(() => document.body.dataset.ready);
});

after(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await server?.close();
  await fake?.close();
});

test("the page loads without console errors and the timeline shows the demo project", async () => {
  assert.equal(await page.evaluate(() => document.body.dataset.ready), "true");
  const project = await page.evaluate(() => window.demo.editor.project());
  const tracks = project.timeline.tracks;
  assert.ok(tracks.length >= 5, "the demo project has main, overlay, text, effect and audio tracks");
  assert.deepEqual(
    await page.$$eval("#timeline .tl-row[data-track-id]", (rows) => rows.map((r) => r.dataset.trackId)),
    tracks.map((t) => t.id),
  );
  for (const track of tracks) {
    for (const e of track.elements) {
      const text = await page.textContent(`#timeline .tl-row[data-track-id="${track.id}"] .tl-el[data-element-id="${e.id}"]`);
      assert.ok(text.includes(e.id) && text.includes(e.name), `element ${e.id} shows its id and name (got '${text}')`);
    }
  }
  assert.deepEqual(new Set(project.assets.map((a) => a.type)), new Set(["video", "image", "audio"]));
  await rendered();
  // The first frame is not blank.
  await snapshot("start");
  const blank = await page.evaluate(() => window.__snaps.start.every((v, i) => (i % 4 === 3 ? true : v === 0)));
  assert.equal(blank, false, "the preview draws the first frame");
  await shot("01-loaded");
  assert.deepEqual(problems, []);
});

test("split and apply_effect from the tool console change the timeline and the preview; undo restores both", async () => {
  const modules = await page.evaluate(() => window.demo.config.modules);
  assert.ok(modules.includes("neuralcut/effects"), "dist/ has the neuralcut/effects entry (npm run build)");
  const { backend, reason, hardware } = await page.evaluate(async () => {
    const { probeAdapters } = await import("neuralcut/effects");
    const adapters = await probeAdapters();
    const r = window.demo.effects;
    return { backend: r?.backend, reason: r?.backendReason, hardware: ["webgpu", "webgl2"].filter((b) => adapters[b].available && !adapters[b].software) };
  });
  // Chromium runs with WebGPU enabled (launch()): "auto" takes the first hardware adapter, and
  // Canvas2D where the only ones are software (SwiftShader here). A WebGPU adapter that failed
  // to show up would make this WebGL2 or "no GPU adapter".
  if (hardware.length) assert.equal(backend, hardware[0], reason);
  else assert.deepEqual([backend, reason], ["canvas2d", "software adapter: Canvas2D is faster there"]);
  assert.match(await page.textContent('.badge[data-key="effects"]'), new RegExp(backend));

  // Drag the playhead along the ruler to about 2 s.
  const ruler = await page.$("#timeline .tl-ruler");
  const box = await ruler.boundingBox();
  const pxPerSecond = Number(await page.getAttribute("#timeline", "data-px-per-second"));
  await page.mouse.move(box.x + 1.2 * pxPerSecond, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 2.0 * pxPerSecond, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const t = await page.evaluate(() => window.demo.clock.get().time);
  assert.ok(Math.abs(t - 2) < 0.1, `the playhead was dragged to about 2 s (at ${t})`);
  const at = Math.round(t * 100) / 100;
  await page.evaluate((at) => window.demo.clock.seek(at), at);
  await snapshot("before");
  const idsBefore = await timelineIds();
  const typeOf = Object.fromEntries(
    (await page.evaluate(() => window.demo.editor.project())).timeline.tracks.flatMap((t) => t.elements.map((e) => [e.id, e.type])),
  );

  const split = await runTool("split", { times: [at] });
  assert.match(split.status, /split: ok/);
  const idsSplit = await timelineIds();
  // At about 2 s the clip (0-6 s), the music (0-8 s), the title (0-3 s) and the sticker (1-5 s)
  // play (demo/project.js): four cuts, one of each.
  assert.deepEqual(
    split.result.newElements.map((n) => typeOf[n.splitFrom]).sort(),
    ["audio", "sticker", "text", "video"],
    "split cut the clip, the text, the sticker and the music",
  );
  assert.deepEqual([...split.result.affectedElements].sort(), split.result.newElements.map((n) => n.splitFrom).sort());
  for (const n of split.result.newElements) assert.ok(idsSplit.includes(n.elementId), `the view shows new piece ${n.elementId}`);
  assert.equal(idsSplit.length, idsBefore.length + split.result.newElements.length);
  await snapshot("split");
  assert.equal((await pixelDiff("before", "split")).differing, 0, "a split does not change the picture");
  await shot("02-split");

  const applied = await runTool("apply_effect", { effectType: "invert", start: at - 1, end: at + 1 });
  assert.match(applied.status, /apply_effect: ok/);
  const effectBlock = await page.$(`#timeline .tl-el.effect[data-element-id="${applied.result.elementId}"]`);
  assert.ok(effectBlock, "the new effect element is on the timeline");
  await snapshot("effect");
  const changed = await pixelDiff("before", "effect");
  assert.ok(changed.mean > 40, `invert changes the preview (mean difference ${changed.mean.toFixed(1)})`);
  assert.match(await page.textContent("#effects-note"), new RegExp(`Effects applied \\(frames drawn with ${backend}\\): invert`));
  await shot("03-apply-effect");

  // Undo with the keyboard, then with the button.
  await page.click("#timeline .tl-label");
  await page.keyboard.press("Control+z");
  await page.waitForFunction((id) => !document.querySelector(`#timeline .tl-el[data-element-id="${id}"]`), applied.result.elementId);
  await snapshot("undo1");
  assert.equal((await pixelDiff("before", "undo1")).differing, 0, "undoing the effect restores the picture exactly");
  await page.click("#undo");
  await page.waitForFunction((n) => document.querySelectorAll("#timeline .tl-el").length === n, idsBefore.length);
  assert.deepEqual(await timelineIds(), idsBefore, "undoing the split restores the timeline view");
  await snapshot("undo2");
  assert.equal((await pixelDiff("before", "undo2")).differing, 0);
  await shot("04-undone");

  // Redo with Shift+Ctrl+Z brings the split back.
  await page.keyboard.press("Shift+Control+z");
  await page.waitForFunction((n) => document.querySelectorAll("#timeline .tl-el").length === n, idsSplit.length);
  assert.deepEqual(await timelineIds(), idsSplit);
  assert.deepEqual(problems, []);
});

test("importing files adds assets with metadata read in the browser", async () => {
  const before = await page.evaluate(() => window.demo.editor.project().assets.length);
  await page.setInputFiles("#import-input", [
    { name: "my-clip.webm", mimeType: "video/webm", buffer: readFileSync(join(root, "demo/media/clip.webm")) },
    { name: "my-voice.ogg", mimeType: "audio/ogg", buffer: readFileSync(join(root, "demo/media/tone.ogg")) },
    { name: "my-photo.jpg", mimeType: "image/jpeg", buffer: readFileSync(join(root, "demo/media/still.jpg")) },
  ]);
  await page.waitForFunction((n) => document.querySelectorAll("#asset-list li[data-asset-id]").length === n, before + 3);
  const assets = await page.evaluate(() => window.demo.editor.project().assets);
  const byName = Object.fromEntries(assets.map((a) => [a.name, a]));
  assert.equal(byName["my-clip.webm"].type, "video");
  assert.ok(Math.abs(byName["my-clip.webm"].duration - 6) < 0.1, `video duration read (${byName["my-clip.webm"].duration})`);
  assert.equal(byName["my-clip.webm"].width, 480);
  assert.equal(byName["my-voice.ogg"].type, "audio");
  assert.ok(Math.abs(byName["my-voice.ogg"].duration - 8) < 0.1);
  assert.deepEqual([byName["my-photo.jpg"].type, byName["my-photo.jpg"].width, byName["my-photo.jpg"].height], ["image", 640, 360]);
  assert.ok(await page.isVisible(`#asset-list li[data-asset-id="${byName["my-clip.webm"].id}"]`));
  // An imported asset goes on the timeline from the bin and is drawn from its File.
  await page.click(`#asset-list li[data-asset-id="${byName["my-photo.jpg"].id}"] button`);
  await page.waitForFunction(
    (id) => window.demo.editor.project().timeline.tracks.some((t) => t.elements.some((e) => e.assetId === id)),
    byName["my-photo.jpg"].id,
  );
  await rendered();
  await shot("05-imported");
  assert.deepEqual(problems, []);
});

test("the agent sidebar runs a scripted conversation through the proxy and shows each tool call", async () => {
  fake.script.length = 0;
  fake.script.push(
    modelTurn([call("list_timeline", {})]),
    modelTurn([{ text: "Adding a title." }, call("add_text", { text: "Agent title", start: 0.5, end: 2, position: "center", style: "hook" })]),
    modelTurn([{ text: "Done: a title from 0.5 s to 2 s." }]),
  );
  // The sidebar is neuralcut/panel's element; Playwright's selectors reach into its shadow root.
  await page.waitForFunction(() => document.getElementById("agent-panel").agent);
  assert.equal(await page.inputValue('[data-automation-id="agent.permission"]'), "ask", "asking before each edit is the default");
  await page.fill('[data-automation-id="agent.input"]', "Add a title at the start");
  await page.click('[data-automation-id="agent.send"]');
  // list_timeline reads only and runs at once; add_text waits for Approve.
  await page.waitForSelector('.card[data-tool="list_timeline"][data-status="done"]');
  await page.waitForSelector('.card[data-tool="add_text"] [data-automation-id="agent.allow"]');
  await shot("06-agent-confirm");
  assert.equal(
    await page.evaluate(() => window.demo.editor.project().timeline.tracks.some((t) => t.elements.some((e) => e.content === "Agent title"))),
    false,
    "nothing changes before Approve",
  );
  await page.click('.card[data-tool="add_text"] [data-automation-id="agent.allow"]');
  await page.waitForSelector('.msg.model:has-text("Done: a title from 0.5 s to 2 s.")');
  assert.ok(await page.$('.card[data-tool="add_text"][data-status="done"]'));
  const calls = await page.$$eval(".card", (cards) => cards.map((c) => c.dataset.tool));
  assert.deepEqual(calls, ["list_timeline", "add_text"]);
  await page.waitForFunction(() => [...document.querySelectorAll("#timeline .tl-el.text")].some((e) => e.textContent.includes("Agent title")));
  assert.equal(fake.generateCalls.length, 3, "three model calls went through the proxy");
  assert.ok(
    fake.requests.every((r) => r.headers["x-goog-api-key"] === KEY),
    "the proxy added the key upstream",
  );
  const pageText = await page.evaluate(() => document.documentElement.outerHTML + JSON.stringify(window.demo.config));
  assert.equal(pageText.includes(KEY), false, "the key never reaches the page");
  // The answer to list_timeline went back to the model.
  const second = fake.generateCalls[1].body.contents.at(-1).parts[0].functionResponse;
  assert.equal(second.name, "list_timeline");
  await shot("07-agent-done");
  assert.deepEqual(problems, []);
});

test("without GEMINI_API_KEY the sidebar says so and the rest of the page works", async () => {
  const plain = await startDemoServer({ port: 0 });
  const p = await browser.newPage();
  const errors = [];
  watch(p, errors);
  try {
    await p.goto(plain.url);
    await p.waitForFunction(() => document.body.dataset.ready);
    assert.equal(await p.evaluate(() => document.body.dataset.ready), "true");
    assert.match(await p.textContent('[data-automation-id="agent.log"]'), /No Gemini API key is configured/);
    assert.equal(await p.isDisabled('[data-automation-id="agent.send"]'), true);
    assert.match(await p.textContent('.badge[data-key="agent"]'), /no API key/);
    const res = await p.evaluate(() => fetch("/api/gemini/generate", { method: "POST", body: "{}" }).then((r) => r.status));
    assert.equal(res, 503, "no proxy is mounted");
    await p.selectOption("#tool-select", "list_project_assets");
    await p.click("#tool-run");
    await p.waitForFunction(() => document.getElementById("tool-status").textContent === "list_project_assets: ok");
    await p.screenshot({ path: join(SHOTS, "08-no-key.png") });
    assert.deepEqual(
      errors.filter((e) => !e.includes("503")),
      [],
    );
  } finally {
    await p.close();
    await plain.close();
  }
});

test("with document.modelContext every tool is registered with WebMCP and a browser agent can drive the page", async () => {
  const p = await browser.newPage();
  const errors = [];
  watch(p, errors);
  // A model context as the WebMCP draft describes it: registerTool(tool, { signal }).
  await p.addInitScript(() => {
    const tools = new Map();
    document.modelContext = {
      tools,
      registerTool(tool, { signal } = {}) {
        tools.set(tool.name, tool);
        signal?.addEventListener("abort", () => tools.delete(tool.name));
        return Promise.resolve();
      },
    };
  });
  try {
    await p.goto(server.url);
    await p.waitForFunction(() => document.body.dataset.ready);
    assert.ok((await p.evaluate(() => window.demo.config.modules)).includes("neuralcut/webmcp"), "dist/ has the neuralcut/webmcp entry");
    const names = await p.evaluate(() => [...document.modelContext.tools.keys()]);
    // The engine's tools, then the host tools a page editor answers (they read its files).
    assert.deepEqual(names, [...(await p.evaluate(() => window.demo.editor.tools().map((t) => t.name))), "detect_silences", "detect_scenes"]);
    assert.match(await p.textContent('.badge[data-key="webmcp"]'), new RegExp(`${names.length} tools registered`));
    const count = await p.$$eval("#timeline .tl-el", (els) => els.length);
    const out = await p.evaluate(() => document.modelContext.tools.get("split").execute({ times: [1.5] }));
    assert.equal(out.isError, undefined);
    await p.waitForFunction((n) => document.querySelectorAll("#timeline .tl-el").length > n, count);
    await p.screenshot({ path: join(SHOTS, "09-webmcp.png") });
    assert.deepEqual(errors, []);
  } finally {
    await p.close();
  }
});
