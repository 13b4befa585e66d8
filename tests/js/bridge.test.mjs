// Bridge mode end to end: the demo server starts with a control port, headless Chromium opens the
// page (which joins the relay), and outside clients drive it: the seed's minimal JSON-lines client
// over plain TCP, and the official MCP SDK client through `neuralcut mcp --bridge`. Also the
// refusals (wrong token, foreign origin, non-local bind, rebinding Host), the editor gestures a
// tester expects (select, drag-move, trim, Space, S, Delete, Ctrl+Z / Ctrl+Shift+Z) with a real
// mouse and keyboard, and axe-core over the whole page.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { chromium } from "playwright-core";
import WebSocket from "ws";

import { startDemoServer } from "../../scripts/demo.mjs";
import { png } from "./mcp-media.mjs";
import { CHROMIUM_FLAGS } from "../../dist/render-headless.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, "cli.js");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const { startRelay } = await import(join(dist, "bridge", "relay.js"));
const VIEWPORT = { width: 1280, height: 800 };

let server;
let browser;
let profile;
let page;
const problems = [];

/** The seed's minimal client, in Node: one JSON request per line, one reply per line. */
function lineClient(port) {
  const socket = net.connect(port, "127.0.0.1");
  let buffered = "";
  const replies = [];
  const waiting = [];
  let closed = false;
  socket.on("data", (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf("\n")) !== -1) {
      const reply = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      if (waiting.length) waiting.shift()(reply);
      else replies.push(reply);
    }
  });
  socket.on("close", () => {
    closed = true;
    for (const w of waiting.splice(0)) w(null);
  });
  let id = 0;
  return {
    send(method, params = {}, extra = {}) {
      socket.write(`${JSON.stringify({ id: ++id, method, params, ...extra })}\n`);
      return new Promise((done) => (replies.length ? done(replies.shift()) : closed ? done(null) : waiting.push(done)));
    },
    /** The next line, without sending anything (an event). */
    next() {
      return new Promise((done) => (replies.length ? done(replies.shift()) : closed ? done(null) : waiting.push(done)));
    },
    raw(line) {
      socket.write(line);
      return new Promise((done) => (replies.length ? done(replies.shift()) : waiting.push(done)));
    },
    closed: () => new Promise((done) => (closed ? done() : socket.once("close", done))),
    end: () => socket.end(),
  };
}

/** Runs the CLI without blocking this process (the relay under test lives here). */
function runCli(args, env = {}) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (status) => (clearTimeout(timer), done({ status, stderr })));
  });
}

async function mcpClient(args, env = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], env: { ...process.env, ...env }, stderr: "pipe" });
  const client = new Client({ name: "bridge-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const project = () => page.evaluate(() => window.demo.editor.project());
const elementsOf = (p) => p.timeline.tracks.flatMap((t) => t.elements.map((e) => ({ ...e, trackId: t.id })));
const TICKS = 120_000;

/** PNG width and height from the IHDR chunk (after checking the signature). */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "a PNG signature");
  assert.equal(bytes.subarray(12, 16).toString("latin1"), "IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A raw HTTP request to the relay, the path and the Host header exactly as given. */
function rawRequest(port, { method = "GET", path, headers = {} }) {
  return new Promise((done, fail) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", fail);
    req.end();
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Puts the page back to the demo project, nothing selected, playhead at 0. */
async function reset() {
  await page.evaluate(() => {
    while (window.demo.editor.undo());
    window.demo.selection.set(null);
    window.demo.clock.pause();
    window.demo.clock.seek(0);
    document.activeElement?.blur?.();
  });
}

before(async () => {
  server = await startDemoServer({ port: 0, control: 0 });
  profile = mkdtempSync(join(tmpdir(), "neuralcut-bridge-chromium-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: VIEWPORT,
    args: [...CHROMIUM_FLAGS, "--disable-quic", "--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader"],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
  await page.goto(server.url);
  await page.waitForFunction(() => document.body.dataset.ready);
  await page.waitForFunction(() => window.demo.bridge?.status() === "open");
});

after(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await server?.close();
});

test("the control channel from a plain TCP client: token first, then engine.* and ui.* reach the page", async () => {
  assert.match(server.control.token, /^[A-Za-z0-9_-]{40,}$/, "a random token");
  const c = lineClient(server.control.port);
  try {
    const refused = await c.send("engine.inspect");
    assert.deepEqual([refused.ok, refused.code], [false, "UNAUTHORIZED"]);
    assert.match(refused.error, /send the token first/);
    const auth = await c.send("auth", { token: server.control.token });
    assert.equal(auth.ok, true);
    assert.equal(auth.result.connected, true);
    assert.equal(auth.result.page.title, "NeuralCut demo");

    const tools = await c.send("engine.tools");
    assert.ok(tools.result.tools.some((t) => t.name === "split" && t.annotations));
    const before = await c.send("engine.inspect");
    assert.deepEqual(before.result.project, await project(), "engine.inspect is the page's project");

    const split = await c.send("engine.call", { tool: "split", args: { times: [1.5] } });
    assert.equal(split.ok, true, JSON.stringify(split));
    assert.ok(split.result.newElements.length > 0);
    await page.waitForSelector(`#timeline [data-automation-id="timeline.el.${split.result.newElements[0].elementId}"]`);
    const failed = await c.send("engine.call", { tool: "delete_timeline_elements", args: { elementIds: ["nope"] } });
    assert.deepEqual([failed.ok, failed.code, failed.error], [false, "ELEMENTS_NOT_FOUND", "Timeline elements not found: nope"]);
    assert.deepEqual(failed.details.missing, ["nope"]);
    assert.equal(failed.details.error, failed.error, "the tool's own error value rides along");
    const undo = await c.send("engine.undo");
    assert.deepEqual([undo.result.done, undo.result.revision > before.result.revision], [true, true]);
    assert.deepEqual(
      elementsOf(await project()).map((e) => e.id),
      elementsOf(before.result.project).map((e) => e.id),
      "undo removed the split",
    );
    const redo = await c.send("engine.redo");
    assert.equal(redo.result.done, true);

    const listed = await c.send("engine.call", { tool: "list_timeline" });
    assert.deepEqual([listed.result.playhead, listed.result.selection], [0, []], "list_timeline carries the playhead and the selection");
    const set = await c.send("ui.set", { playhead: 2.5, selection: ["e5"] });
    assert.deepEqual([set.result.playhead, set.result.selection], [2.5, ["e5"]]);
    assert.equal(await page.evaluate(() => window.demo.clock.get().time), 2.5);
    const ui = await c.send("ui.inspect");
    assert.deepEqual(ui.result.panels, ["preview", "tools", "agent", "timeline"]);
    assert.equal(ui.result.selection[0], "e5");

    const els = await c.send("ui.elements", { prefix: "timeline." });
    const ids = els.result.elements.map((e) => e.id);
    for (const e of elementsOf(await project())) assert.ok(ids.includes(`timeline.el.${e.id}`), `timeline.el.${e.id} is listed`);
    assert.ok(ids.every((id) => id.startsWith("timeline.")));
    const clip = els.result.elements.find((e) => e.id === "timeline.el.e5");
    assert.ok(clip.rect.width > 0 && clip.rect.height > 0 && clip.label.includes("clip.webm"));
    assert.equal(clip.selected, true);

    const missing = await c.send("ui.click", { id: "ui.timeline.e12" });
    assert.deepEqual([missing.ok, missing.code, missing.error], [false, "NO_ELEMENT", "no element ui.timeline.e12"]);
    const badKey = await c.send("ui.key", { key: "Ctrl+Frobnicate" });
    assert.equal(badKey.code, "INVALID_PARAMS");
    const unknown = await c.send("engine.frobnicate");
    assert.deepEqual([unknown.ok, unknown.code], [false, "UNKNOWN_METHOD"]);
    const notJson = await c.raw("{not json\n");
    assert.deepEqual([notJson.ok, notJson.code, notJson.id], [false, "INVALID_REQUEST", null]);
    const status = await c.send("relay.status");
    assert.equal(status.result.connected, true);
  } finally {
    c.end();
    await reset();
  }
  assert.deepEqual(problems, []);
});

test("the official MCP SDK client drives the live page through neuralcut mcp --bridge", async () => {
  const client = await mcpClient(["--bridge", `127.0.0.1:${server.control.port}`], { NEURALCUT_BRIDGE_TOKEN: server.control.token });
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const engine = await page.evaluate(() => window.demo.editor.tools().map((t) => t.name));
    for (const name of [
      ...engine,
      "command_list",
      "command_run",
      "command_batch",
      "doc_inspect",
      "ui_inspect",
      "ui_elements",
      "ui_click",
      "ui_drag",
      "ui_key",
      "ui_type",
      "ui_screenshot",
      "ui_control",
    ]) {
      assert.ok(names.includes(name), `${name} is listed`);
    }
    assert.ok(names.includes("media_import"), "media_import: the files go to the page");
    for (const t of tools) {
      assert.ok(t.title, `${t.name} has a title`);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"])
        assert.equal(typeof t.annotations?.[hint], "boolean", `${t.name}.${hint}`);
    }
    assert.equal(tools.find((t) => t.name === "ui_screenshot").annotations.readOnlyHint, true);
    assert.equal(tools.find((t) => t.name === "ui_click").annotations.readOnlyHint, false);

    // A split through command_run shows on the page.
    const count = await page.$$eval("#timeline .tl-el", (els) => els.length);
    const split = await client.callTool({ name: "command_run", arguments: { id: "split", params: { times: [2] } } });
    assert.equal(split.isError, undefined, JSON.stringify(split));
    await page.waitForFunction((n) => document.querySelectorAll("#timeline .tl-el").length > n, count);
    for (const n of split.structuredContent.newElements) assert.ok(await page.$(`[data-automation-id="timeline.el.${n.elementId}"]`));

    // A click by automation id selects an element; ui_inspect and list_timeline report it.
    const click = await client.callTool({ name: "ui_click", arguments: { id: "timeline.el.e13" } });
    assert.equal(click.isError, undefined, JSON.stringify(click));
    const ui = await client.callTool({ name: "ui_inspect", arguments: {} });
    assert.deepEqual(ui.structuredContent.selection, ["e13"]);
    // The ui_* tools are commands like the others: command_run and command_batch reach them.
    const viaRun = await client.callTool({ name: "command_run", arguments: { id: "ui_inspect", params: {} } });
    assert.deepEqual(viaRun.structuredContent.selection, ["e13"]);
    const batched = await client.callTool({
      name: "command_batch",
      arguments: { steps: [{ id: "ui_inspect" }, { id: "ui_screenshot", params: { panel: "timeline" } }] },
    });
    assert.deepEqual([batched.structuredContent.completed, batched.structuredContent.failed], [2, 0], JSON.stringify(batched.structuredContent));
    assert.equal(batched.content.filter((c) => c.type === "image").length, 1, "the screenshot rides with the batch");
    await assert.rejects(client.callTool({ name: "command_run", arguments: { id: "ui_click", params: { nope: 1 } } }), (e) => e.code === -32602);
    assert.ok(await page.$('[data-automation-id="timeline.el.e13"].selected'), "the page shows the selection");
    const listed = await client.callTool({ name: "list_timeline", arguments: {} });
    assert.deepEqual(listed.structuredContent.selection, ["e13"]);
    assert.equal(typeof listed.structuredContent.playhead, "number");
    const doc = await client.callTool({ name: "doc_inspect", arguments: {} });
    assert.deepEqual(doc.structuredContent.timeline.selection, ["e13"]);
    assert.equal(doc.structuredContent.revision, await page.evaluate(() => window.demo.editor.revision()));

    // ui_key Ctrl+Z undoes the split.
    const key = await client.callTool({ name: "ui_key", arguments: { key: "Ctrl+Z" } });
    assert.equal(key.structuredContent.handled, true);
    await page.waitForFunction((n) => document.querySelectorAll("#timeline .tl-el").length === n, count);
    const redo = await client.callTool({ name: "ui_key", arguments: { key: "Ctrl+Shift+Z" } });
    assert.equal(redo.structuredContent.handled, true);
    await page.waitForFunction((n) => document.querySelectorAll("#timeline .tl-el").length > n, count);
    await client.callTool({ name: "undo", arguments: {} });

    // ui_screenshot is a PNG of the page's size, and of the timeline panel's.
    const shot = await client.callTool({ name: "ui_screenshot", arguments: {} });
    const image = shot.content.find((c) => c.type === "image");
    assert.equal(image.mimeType, "image/png");
    assert.deepEqual(pngSize(Buffer.from(image.data, "base64")), VIEWPORT);
    assert.deepEqual(shot.structuredContent, VIEWPORT);
    const panelShot = await client.callTool({ name: "ui_screenshot", arguments: { panel: "timeline" } });
    const box = await page.$eval('[data-automation-id="panel.timeline"]', (el) => el.getBoundingClientRect().toJSON());
    assert.deepEqual(pngSize(Buffer.from(panelShot.content[0].data, "base64")), { width: Math.round(box.width), height: Math.round(box.height) });
    const noPanel = await client.callTool({ name: "ui_screenshot", arguments: { panel: "mixer" } });
    assert.equal(noPanel.isError, true);
    assert.equal(noPanel.content[0].text, "no panel mixer");

    // render_preview draws in the page with a renderer of its own: the playhead stays.
    assert.ok(names.includes("render_preview"));
    const playhead = await page.evaluate(() => window.demo.clock.get().time);
    const frame = await client.callTool({ name: "render_preview", arguments: { time: 1.5, width: 320 } });
    assert.equal(frame.isError, undefined, JSON.stringify(frame).slice(0, 300));
    assert.deepEqual(pngSize(Buffer.from(frame.content[0].data, "base64")), { width: 320, height: 180 });
    assert.ok(
      frame.structuredContent.layers.some((l) => l.elementId === "e13"),
      "the sticker (1-5 s) is drawn at 1.5 s",
    );
    assert.equal(await page.evaluate(() => window.demo.clock.get().time), playhead);

    // A drag moves an element by the expected time: 1 s of the timeline's pixels per second.
    const pxPerSecond = (await client.callTool({ name: "ui_inspect", arguments: {} })).structuredContent.zoom;
    const sticker = elementsOf(await project()).find((e) => e.id === "e13");
    const drag = await client.callTool({ name: "ui_drag", arguments: { from: "timeline.el.e13", dx: pxPerSecond * 1 } });
    assert.equal(drag.isError, undefined, JSON.stringify(drag));
    await page.waitForFunction(
      (start) => window.demo.editor.project().timeline.tracks.some((t) => t.elements.some((e) => e.id === "e13" && e.start !== start)),
      sticker.start,
    );
    const moved = elementsOf(await project()).find((e) => e.id === "e13");
    assert.ok(Math.abs(moved.start - sticker.start - TICKS) <= TICKS / 100, `moved by 1 s (${(moved.start - sticker.start) / TICKS} s)`);
    assert.equal(moved.duration, sticker.duration);

    // Strict arguments and tool errors as everywhere.
    await assert.rejects(
      client.callTool({ name: "ui_click", arguments: { idd: "x" } }),
      (e) => e.code === -32602 && /unknown argument "idd" for ui_click/.test(e.message),
    );
    const bad = await client.callTool({ name: "ui_click", arguments: { id: "ui.timeline.e12" } });
    assert.deepEqual([bad.isError, bad.content[0].text], [true, "no element ui.timeline.e12"]);
    const control = await client.callTool({ name: "ui_control", arguments: { method: "ui.set", params: { playhead: 1.25 } } });
    assert.equal(control.structuredContent.playhead, 1.25);
    const failing = await client.callTool({ name: "command_run", arguments: { id: "delete_timeline_elements", params: { elementIds: ["nope"] } } });
    assert.equal(failing.isError, true);
  } finally {
    await client.close();
    await reset();
  }
  assert.deepEqual(problems, []);
});

test("refusals: wrong token, foreign origin, rebinding Host, non-local bind", async () => {
  const port = server.control.port;
  // A client with a wrong token is told so and disconnected.
  const c = lineClient(port);
  const wrong = await c.send("engine.inspect", {}, { token: "x".repeat(43) });
  assert.deepEqual([wrong.ok, wrong.code], [false, "UNAUTHORIZED"]);
  await c.closed();
  // mcp --bridge with a wrong token fails to start and says why.
  const run = await runCli(["mcp", "--bridge", `127.0.0.1:${port}`], { NEURALCUT_BRIDGE_TOKEN: "y".repeat(43) });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /wrong token/);
  const noToken = await runCli(["mcp", "--bridge", `127.0.0.1:${port}`], { NEURALCUT_BRIDGE_TOKEN: "" });
  assert.equal(noToken.status, 2);
  assert.match(noToken.stderr, /needs the token/);

  // Pages: a foreign origin, a wrong token and a rebinding Host are refused before the upgrade.
  const origin = new URL(server.url).origin;
  const attempt = (url, headers) =>
    new Promise((done) => {
      const ws = new WebSocket(url, { headers });
      ws.on("open", () => (ws.close(), done("open")));
      ws.on("unexpected-response", (_req, res) => done(res.statusCode));
      ws.on("error", (e) => done(e.message));
    });
  const base = `ws://127.0.0.1:${port}/page`;
  assert.equal(await attempt(`${base}?token=${server.control.token}`, { origin: "http://evil.example" }), 403);
  assert.equal(await attempt(`${base}?token=${server.control.token}`, {}), 403, "no Origin: not a page");
  assert.equal(await attempt(`${base}?token=wrong-token-wrong-token`, { origin }), 401);
  assert.equal(await attempt(`${base}?token=${server.control.token}`, { origin, host: `evil.example:${port}` }), 403);
  assert.equal(await page.evaluate(() => window.demo.bridge.status()), "open", "the real page stays connected");

  // A browser page elsewhere cannot read the token or reach the page: HTTP gets nothing useful.
  const res = await fetch(`http://127.0.0.1:${port}/page`);
  assert.equal(res.status, 404);

  // Non-local binds.
  await assert.rejects(startRelay({ host: "0.0.0.0" }), /refusing to listen on 0\.0\.0\.0/);
  await assert.rejects(startRelay({ host: "192.168.1.10" }), /127\.0\.0\.1 or ::1 only/);
  const relay = await runCli(["relay", "--host", "0.0.0.0", "--port", "0"]);
  assert.equal(relay.status, 2);
  assert.match(relay.stderr, /refusing to listen on 0\.0\.0\.0/);
  assert.deepEqual(problems, []);
});

test("hostile requests each get their own error code and message and change nothing; the channel keeps serving", async () => {
  const c = lineClient(server.control.port);
  try {
    await c.send("auth", { token: server.control.token });
    const revision = await page.evaluate(() => window.demo.editor.revision());
    // Each hostile request and the refusal it must get: the code, and the message.
    const hostile = [
      ["engine.call", { tool: 5 }, "INVALID_PARAMS", "tool must be a tool name (engine.tools lists them)"],
      ["engine.call", { tool: "split", args: "times" }, "INVALID_ARGUMENTS", "Arguments must be a JSON object"],
      ["engine.call", { tool: "no_such_tool" }, "UNKNOWN_TOOL", 'Unknown tool "no_such_tool"'],
      ["engine.call", { tool: "split", args: { times: [1], extra: true } }, "UNKNOWN_ARGUMENT", 'unknown argument "extra" for split; expected: times'],
      ["engine.call", { tool: "split", extra: 1 }, "INVALID_PARAMS", 'unknown parameter "extra" for engine.call; expected: args, tool'],
      ["engine.tools", { x: 1 }, "INVALID_PARAMS", 'unknown parameter "x" for engine.tools; expected: no parameters'],
      ["ui.click", {}, "INVALID_PARAMS", "the click target must be an automation id or {x, y}"],
      ["ui.click", { x: "a", y: 1 }, "INVALID_PARAMS", "the click target must be an automation id or {x, y}"],
      ["ui.click", { x: 1e300, y: -1e300 }, "NO_ELEMENT", "no element at (1e+300, -1e+300)"],
      ["ui.click", { id: "timeline.el.e5", button: "fourth" }, "INVALID_PARAMS", "button must be left, middle or right"],
      ["ui.click", { id: "timeline.el.e5", count: 1000 }, "INVALID_PARAMS", "count must be 1, 2 or 3"],
      ["ui.click", { id: "timeline.el.e5", modifiers: ["Hyper"] }, "INVALID_PARAMS", "modifiers must be a list of Ctrl, Shift, Alt, Cmd"],
      ["ui.click", { id: '"]) ; alert(1) ; (["' }, "NO_ELEMENT", 'no element "]) ; alert(1) ; (["'],
      ["ui.drag", { from: {} }, "INVALID_PARAMS", "from must be an automation id or {x, y}"],
      ["ui.drag", { from: "timeline.el.e5" }, "INVALID_PARAMS", "give to (an automation id or {x, y}) or dx/dy in pixels"],
      ["ui.drag", { from: "timeline.el.e5", dx: 10, steps: 1e9 }, "INVALID_PARAMS", "steps must be a whole number from 1 to 100"],
      ["ui.drag", { from: "timeline.el.e5", to: "timeline.el.e6", dx: 3 }, "INVALID_PARAMS", "give either to or dx/dy"],
      ["ui.key", { key: "" }, "INVALID_PARAMS", 'key must be a key or shortcut such as "Space", "S", "Ctrl+Z", "Shift+Delete"'],
      [
        "ui.key",
        { key: "Ctrl+" },
        "INVALID_PARAMS",
        'unknown key "" in "Ctrl+": a character, Space, Enter, Escape, Tab, Backspace, Delete, arrows, Home, End, F1-F12',
      ],
      ["ui.key", { key: ["Ctrl", "Z"] }, "INVALID_PARAMS", 'key must be a key or shortcut such as "Space", "S", "Ctrl+Z", "Shift+Delete"'],
      ["ui.type", { text: 42 }, "INVALID_PARAMS", "text must be a string"],
      ["ui.type", { text: "hello" }, "NO_ELEMENT", "no focused text field: click one first (or pass its id)"],
      ["ui.set", { playhead: -1 }, "INVALID_PARAMS", "playhead must be seconds >= 0"],
      ["ui.set", { selection: ["nope"] }, "NO_ELEMENT", "no element nope on the timeline"],
      ["ui.set", { volume: 11 }, "INVALID_PARAMS", 'unknown parameter "volume" for ui.set; expected: playhead, playing, selection, zoom, tab'],
      ["ui.screenshot", { panel: 7 }, "INVALID_PARAMS", "panel must be a panel name (ui.inspect lists them) or an automation id"],
      ["ui.screenshot", { path: "relative/file.png" }, "INVALID_PARAMS", "path must be an absolute file path ending in .png"],
      ["engine.render_preview", { time: -1 }, "RENDER_FAILED", "time must be a number of seconds >= 0"],
      [
        "__proto__",
        {},
        "UNKNOWN_METHOD",
        "unknown method __proto__: engine.tools, engine.call, engine.addAssets, engine.measure, engine.undo, engine.redo, engine.inspect, ui.inspect, ui.elements, ui.click, ui.drag, ui.key, ui.type, ui.screenshot, ui.set",
      ],
      [
        "constructor",
        {},
        "UNKNOWN_METHOD",
        "unknown method constructor: engine.tools, engine.call, engine.addAssets, engine.measure, engine.undo, engine.redo, engine.inspect, ui.inspect, ui.elements, ui.click, ui.drag, ui.key, ui.type, ui.screenshot, ui.set",
      ],
    ];
    for (const [method, params, code, error] of hostile) {
      const reply = await c.send(method, params);
      assert.deepEqual([reply.ok, reply.code, reply.error], [false, code, error], `${method} ${JSON.stringify(params)}`);
    }
    const notARequest = 'a request is one JSON object per line: {"id": 1, "method": "engine.inspect", "params": {}}';
    for (const [line, id, code, error] of [
      ["[]\n", null, "INVALID_REQUEST", notARequest],
      ["42\n", null, "INVALID_REQUEST", notARequest],
      ['"engine.inspect"\n', null, "INVALID_REQUEST", notARequest],
      ['{"id": 1}\n', 1, "INVALID_REQUEST", notARequest],
      ['{"id": 2, "method": "engine.inspect", "params": [1]}\n', 2, "INVALID_PARAMS", "params must be a JSON object"],
    ]) {
      const reply = await c.raw(line);
      assert.deepEqual(reply, { id, ok: false, error, code }, `${line.trim()} is refused`);
    }
    assert.equal(await page.evaluate(() => window.demo.editor.revision()), revision, "nothing changed");
    const still = await c.send("engine.inspect");
    assert.equal(still.ok, true, "the connection still serves");
    // An over-long line is refused and that connection closed; others go on. (Before the token
    // the bound is 8 KiB: bridge-attack.test.mjs.)
    const big = lineClient(server.control.port);
    await big.send("auth", { token: server.control.token });
    const refused = await big.raw(`{"id": 1, "method": "engine.inspect", "params": {"pad": "${"x".repeat(17 * 1024 * 1024)}"}}\n`);
    assert.deepEqual([refused.ok, refused.code], [false, "INVALID_REQUEST"]);
    await big.closed();
    assert.equal((await c.send("relay.status")).result.connected, true);
  } finally {
    c.end();
    await reset();
  }
  assert.deepEqual(problems, []);
});

test("media_import in bridge mode: the page gets the files as assets, with headless mode's results and errors, and draws them", async () => {
  await reset();
  const dir = mkdtempSync(join(tmpdir(), "neuralcut-bridge-media-"));
  const picture = join(dir, "grey.png");
  writeFileSync(picture, png(64, 48));
  const clip = join(root, "demo", "media", "clip.webm");
  writeFileSync(join(dir, "notes.txt"), "not media\n");
  const fetched = [];
  const onRequest = (r) => r.url().includes("/media/") && fetched.push(r.url());
  page.on("request", onRequest);
  const client = await mcpClient(["--bridge", `127.0.0.1:${server.control.port}`], { NEURALCUT_BRIDGE_TOKEN: server.control.token });
  const headless = await mcpClient([]);
  try {
    await client.listTools(); // the SDK client checks structuredContent against the outputSchema
    await headless.listTools();
    const assetsBefore = (await project()).assets.length;
    const paths = [picture, clip];
    const imported = await client.callTool({ name: "media_import", arguments: { paths } });
    assert.equal(imported.isError, undefined, JSON.stringify(imported));
    const local = await headless.callTool({ name: "media_import", arguments: { paths } });
    const strip = ({ id, ...rest }) => rest;
    assert.deepEqual(imported.structuredContent.assets.map(strip), local.structuredContent.assets.map(strip), "the same result as headless mode");
    const [still, video] = imported.structuredContent.assets;
    assert.deepEqual([still.type, still.width, still.height, still.path, video.type, video.path], ["image", 64, 48, picture, "video", clip]);

    // list_project_assets lists them; the page holds their bytes; each grant served once.
    const listed = await client.callTool({ name: "list_project_assets", arguments: {} });
    for (const a of [still, video])
      assert.ok(
        listed.structuredContent.assets.some((l) => l.id === a.id && l.name === a.name && l.type === a.type),
        a.id,
      );
    const sizes = await page.evaluate((ids) => ids.map((id) => window.demo.editor.assetSource(id)?.file?.size), [still.id, video.id]);
    assert.deepEqual(sizes, [statSync(picture).size, statSync(clip).size]);
    assert.equal(fetched.length, 2, fetched.join(" "));
    const pageOrigin = new URL(server.url).origin;
    for (const url of fetched)
      assert.equal((await rawRequest(server.control.port, { path: new URL(url).pathname, headers: { origin: pageOrigin } })).status, 404, "used up");
    await page.waitForSelector(`[data-automation-id="assets.${still.id}.add"]`, { state: "attached" }); // the asset bin lists it

    // The page draws them: placed on the timeline, render_preview (drawn in the page) has both.
    const placedStill = await client.callTool({ name: "add_media_to_timeline", arguments: { assetId: still.id, startTime: 0, trackType: "overlay" } });
    const placedClip = await client.callTool({ name: "add_media_to_timeline", arguments: { assetId: video.id, startTime: 0, trackType: "overlay" } });
    for (const placed of [placedStill, placedClip]) assert.equal(placed.isError, undefined, JSON.stringify(placed));
    const frame = await client.callTool({ name: "render_preview", arguments: { time: 0.5, width: 320 } });
    assert.equal(frame.isError, undefined, JSON.stringify(frame).slice(0, 300));
    const ids = [placedStill, placedClip].map((p) => p.structuredContent.elementId);
    for (const id of ids)
      assert.ok(
        frame.structuredContent.layers.some((l) => l.elementId === id),
        `${id} is drawn`,
      );
    assert.deepEqual(
      (frame.structuredContent.notDrawn ?? []).filter((n) => ids.includes(n.elementId)),
      [],
    );

    // detect_scenes and detect_silences measure in the page, from the bytes it holds: the demo
    // clip is one moving test pattern at 30 fps over a steady tone (no cut, no pause).
    const scenes = await client.callTool({ name: "detect_scenes", arguments: { assetId: video.id } });
    assert.equal(scenes.isError, undefined, JSON.stringify(scenes));
    assert.deepEqual([scenes.structuredContent.fps, scenes.structuredContent.cuts, scenes.structuredContent.timeBase], [30, [], "source"]);
    const silences = await client.callTool({ name: "detect_silences", arguments: { elementId: ids[1], minDuration: 0.1 } });
    assert.equal(silences.isError, undefined, JSON.stringify(silences));
    assert.deepEqual([silences.structuredContent.timeBase, silences.structuredContent.silences], ["timeline", []]);
    const imageRefused = await client.callTool({ name: "detect_silences", arguments: { assetId: still.id } });
    assert.equal(imageRefused.isError, true);
    assert.deepEqual(JSON.parse(imageRefused.content[1].text), {
      error: "Unsupported asset type",
      code: "UNSUPPORTED_ASSET_TYPE",
      hint: "detect_silences takes a video or audio asset.",
    });
    await assert.rejects(client.callTool({ name: "detect_scenes", arguments: { asset: video.id } }), (e) => e.code === -32602);

    // Errors are headless mode's, word for word, and add nothing.
    const assetsNow = (await project()).assets.length;
    assert.equal(assetsNow, assetsBefore + 2);
    for (const bad of [
      ["relative/x.png"],
      [join(dir, "missing.png")],
      [join(dir, "notes.txt")],
      [picture, join(dir, "notes.txt")],
      [join(dir, "..", "..", "etc", "nothing-here.png")],
    ]) {
      const r = await client.callTool({ name: "media_import", arguments: { paths: bad } });
      const h = await headless.callTool({ name: "media_import", arguments: { paths: bad } });
      assert.equal(r.isError, true, JSON.stringify(bad));
      assert.deepEqual(r.content, h.content, JSON.stringify(bad));
    }
    await assert.rejects(client.callTool({ name: "media_import", arguments: { path: picture } }), (e) => e.code === -32602);
    assert.equal((await project()).assets.length, assetsNow, "a failed import adds nothing");
    assert.equal(fetched.length, 2, "and fetches nothing");
  } finally {
    page.off("request", onRequest);
    await client.close();
    await headless.close();
    await reset();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(problems, []);
});

test("the generic routes reach around nothing: ui_control's engine.addAssets goes through the prober, ui.screenshot {path} never overwrites", async () => {
  await reset();
  const dir = mkdtempSync(join(tmpdir(), "neuralcut-bridge-generic-"));
  const fetched = [];
  const onRequest = (r) => r.url().includes("/media/") && fetched.push(r.url());
  page.on("request", onRequest);
  const client = await mcpClient(["--bridge", `127.0.0.1:${server.control.port}`], { NEURALCUT_BRIDGE_TOKEN: server.control.token });
  const c = lineClient(server.control.port);
  try {
    // The call: /etc/passwd as a picture. media_import's error; the page fetches nothing.
    const assets = (await project()).assets.length;
    const passwd = await client.callTool({
      name: "ui_control",
      arguments: { method: "engine.addAssets", params: { assets: [{ path: "/etc/passwd", name: "holiday.png", type: "image" }] } },
    });
    assert.equal(passwd.isError, true, JSON.stringify(passwd));
    assert.match(passwd.content[0].text, /^Unsupported media format: \/etc\/passwd/);
    assert.equal((await project()).assets.length, assets);
    assert.deepEqual(fetched, []);
    // ui.screenshot {path}: ui_control writes nothing; a plain client never over an existing file.
    const existing = join(dir, "shot.png");
    writeFileSync(existing, "the user's own file\n");
    await assert.rejects(client.callTool({ name: "ui_control", arguments: { method: "ui.screenshot", params: { path: existing } } }), (e) => e.code === -32602);
    await c.send("auth", { token: server.control.token });
    const over = await c.send("ui.screenshot", { path: existing });
    assert.deepEqual([over.ok, over.code], [false, "INVALID_PARAMS"], JSON.stringify(over));
    assert.equal(readFileSync(existing, "utf8"), "the user's own file\n");
    const fresh = join(dir, "timeline.png");
    const shot = await c.send("ui.screenshot", { panel: "timeline", path: fresh });
    assert.equal(shot.ok, true, JSON.stringify(shot));
    assert.deepEqual(pngSize(readFileSync(fresh)), { width: shot.result.width, height: shot.result.height });
  } finally {
    page.off("request", onRequest);
    c.end();
    await client.close();
    await reset();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(problems, []);
});

test("hand edits in the page reach MCP subscribers as notifications/resources/updated", async () => {
  await reset();
  const client = await mcpClient(["--bridge", `127.0.0.1:${server.control.port}`], { NEURALCUT_BRIDGE_TOKEN: server.control.token });
  try {
    const updates = [];
    let wake = () => {};
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => (updates.push(n.params.uri), wake()));
    await client.subscribeResource({ uri: "neuralcut://project" });
    await client.subscribeResource({ uri: "neuralcut://document" });
    // Bounded: a missing notification fails the test instead of hanging it.
    const heard = (count, what) =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`${updates.length} of ${count} resources/updated within 5 s of ${what}`)), 5000);
        wake = () => updates.length >= count && (clearTimeout(timer), done());
        wake();
      });
    // A tool call made in the page (its console, its agent, the host's own code).
    await page.evaluate(() => window.demo.editor.callTool("split", { times: [2] }));
    await heard(2, "a split in the page");
    assert.deepEqual([...updates].sort(), ["neuralcut://document", "neuralcut://project"]);
    // A gesture: the user presses Ctrl+Z in the page.
    await page.keyboard.press("Control+z");
    await heard(4, "Ctrl+Z in the page");
    // What the subscriber reads then is the page's project.
    const read = await client.readResource({ uri: "neuralcut://project" });
    assert.deepEqual(JSON.parse(read.contents[0].text), await project());
    // A click by automation id (ui_click) that selects changes no resource; an edit through
    // MCP is told once, not again when the page's event for it arrives.
    await client.callTool({ name: "ui_click", arguments: { id: "timeline.el.e13" } });
    updates.length = 0;
    const split = await client.callTool({ name: "split", arguments: { times: [3] } });
    assert.equal(split.isError, undefined);
    await heard(2, "a split through MCP");
    await client.callTool({ name: "ui_inspect", arguments: {} }); // a round trip for a late duplicate to arrive
    await sleep(200);
    assert.equal(updates.length, 2, JSON.stringify(updates));
  } finally {
    await client.close();
    await reset();
  }
  assert.deepEqual(problems, []);
});

test("neuralcut relay prints its token and relays for a host page with neuralcut/bridge", async () => {
  const child = spawn(process.execPath, [CLI, "relay", "--port", "0", "--origin", new URL(server.url).origin], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const deadline = Date.now() + 20_000;
    while (!/token: \S+/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const port = Number(/control channel on 127\.0\.0\.1:(\d+)/.exec(out)[1]);
    const token = /token: (\S+)/.exec(out)[1];
    // A second page (a stand-in host editor) joins this relay with connectBridge and its own editor.
    const host = await browser.newPage();
    await host.goto(server.url);
    await host.waitForFunction(() => document.body.dataset.ready);
    await host.evaluate(
      async ({ port, token }) => {
        const { connectBridge } = await import("neuralcut/bridge");
        const { createEditor } = await import("neuralcut");
        window.hostEditor = await createEditor();
        window.hostCalls = [];
        // A host that owns the history routes the edits through its own call.
        const host = { callTool: (name, args) => (window.hostCalls.push(name), window.hostEditor.callToolUntyped(name, args)) };
        window.hostBridge = connectBridge({ url: `ws://127.0.0.1:${port}/page`, token, editor: window.hostEditor, host });
      },
      { port, token },
    );
    await host.waitForFunction(() => window.hostBridge.status() === "open");
    const c = lineClient(port);
    await c.send("auth", { token });
    const added = await c.send("engine.call", { tool: "add_text", args: { text: "From the relay", start: 0, end: 2, position: "center" } });
    assert.equal(added.ok, true, JSON.stringify(added));
    assert.equal(
      await host.evaluate(() =>
        window.hostEditor
          .project()
          .timeline.tracks.flatMap((t) => t.elements)
          .some((e) => e.content === "From the relay"),
      ),
      true,
    );
    assert.deepEqual(await host.evaluate(() => window.hostCalls), ["add_text"]);
    const noUi = await c.send("ui.inspect");
    assert.deepEqual([noUi.ok, noUi.code], [false, "UNSUPPORTED"]);
    c.end();
    await host.close();
  } finally {
    child.kill("SIGTERM");
  }
});

test("the demo is an editor: select, drag-move, trim both edges, Space, S, Delete, Ctrl+Z / Ctrl+Shift+Z, with a real mouse and keyboard", async () => {
  await reset();
  const pxPerSecond = await page.evaluate(() => window.demo.timeline.pxPerSecond());
  const block = (id) => page.$(`[data-automation-id="timeline.el.${id}"]`);
  // Gestures go through locators: the view redraws after each change event, which can replace a
  // block between looking it up and clicking it (an ElementHandle would then be detached).
  const at = (id) => page.locator(`[data-automation-id="timeline.el.${id}"]`);
  const el = async (id) => elementsOf(await project()).find((e) => e.id === id);
  const revision = () => page.evaluate(() => window.demo.editor.revision());

  // Click selects; the view and ui.inspect agree.
  await at("e11").click();
  assert.deepEqual(await page.evaluate(() => window.demo.selection.get().elementIds), ["e11"]);
  // Shift-click adds.
  await at("e9").click({ modifiers: ["Shift"] });
  assert.deepEqual(await page.evaluate(() => window.demo.selection.get().elementIds), ["e11", "e9"]);
  await page.keyboard.press("Escape");
  assert.equal(await page.evaluate(() => window.demo.selection.get()), null);

  // Drag-move the title e11 left by 0.5 s: one tool call, one undo step.
  const before = await el("e11");
  const undoDepth = await revision();
  let box = await at("e11").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 0.5 * pxPerSecond, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction((rev) => window.demo.editor.revision() > rev, undoDepth);
  const movedEl = await el("e11");
  assert.ok(Math.abs(movedEl.start - (before.start - 0.5 * TICKS)) <= TICKS / 50, `moved 0.5 s left (${(movedEl.start - before.start) / TICKS})`);
  assert.equal(movedEl.duration, before.duration);

  // Trim its end 0.5 s shorter, then its start 0.25 s later (the end stays).
  box = await at("e11.trim-end").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 0.5 * pxPerSecond, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(
    (d) =>
      window.demo.editor
        .project()
        .timeline.tracks.flatMap((t) => t.elements)
        .find((e) => e.id === "e11").duration !== d,
    movedEl.duration,
  );
  const trimmedEnd = await el("e11");
  assert.equal(trimmedEnd.start, movedEl.start);
  assert.ok(Math.abs(trimmedEnd.duration - (movedEl.duration - 0.5 * TICKS)) <= TICKS / 50);
  box = await at("e11.trim-start").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 0.25 * pxPerSecond, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(
    (s) =>
      window.demo.editor
        .project()
        .timeline.tracks.flatMap((t) => t.elements)
        .find((e) => e.id === "e11").start !== s,
    trimmedEnd.start,
  );
  const trimmedStart = await el("e11");
  assert.ok(Math.abs(trimmedStart.start - (trimmedEnd.start + 0.25 * TICKS)) <= TICKS / 50);
  assert.equal(trimmedStart.start + trimmedStart.duration, trimmedEnd.start + trimmedEnd.duration, "trimming the start keeps the end");

  // Ctrl+Z three times undoes the three gestures, one step each; Ctrl+Shift+Z redoes one.
  for (let i = 0; i < 3; i++) await page.keyboard.press("Control+z");
  assert.deepEqual(await el("e11"), before);
  await page.keyboard.press("Control+Shift+z");
  assert.deepEqual(await el("e11"), movedEl);
  await page.keyboard.press("Control+z");

  // A refused move (onto the clip e5 on the same track) changes nothing and says why.
  const rev = await revision();
  box = await at("e6").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 2 * pxPerSecond, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => document.getElementById("tool-result").textContent.startsWith("move_timeline_elements: refused"));
  assert.equal(await revision(), rev);

  // Space plays and pauses.
  await page.click('[data-automation-id="timeline.ruler"]', { position: { x: 60, y: 5 } });
  await page.keyboard.press("Space");
  assert.equal(await page.evaluate(() => window.demo.clock.get().playing), true);
  await page.keyboard.press("Space");
  assert.equal(await page.evaluate(() => window.demo.clock.get().playing), false);

  // S splits at the playhead; Delete removes the selection; each is one undo step.
  await page.evaluate(() => window.demo.clock.seek(2));
  const count = (await elementsOf(await project())).length;
  await page.keyboard.press("s");
  await page.waitForFunction((n) => window.demo.editor.project().timeline.tracks.flatMap((t) => t.elements).length > n, count);
  const afterSplit = elementsOf(await project()).length;
  await at("e13").click();
  await page.keyboard.press("Delete");
  await page.waitForFunction((n) => window.demo.editor.project().timeline.tracks.flatMap((t) => t.elements).length === n - 1, afterSplit);
  assert.equal(await block("e13"), null);
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.querySelector('[data-automation-id="timeline.el.e13"]'));
  await page.keyboard.press("Control+z");
  assert.equal(elementsOf(await project()).length, count);
  await reset();
  assert.deepEqual(problems, []);
});

test("every interactive element has an automation id, and axe-core finds no violations", async () => {
  await reset();
  // Select an element so the selected styles are checked too.
  await page.evaluate(() => window.demo.selection.set({ elementIds: ["e5"], elementId: "e5" }));
  const unnamed = await page.$$eval("button, input, select, textarea, [role=button], [role=tab], [tabindex]", (els) =>
    els
      .filter((e) => e.getClientRects().length && !e.closest("[hidden]"))
      .filter(
        (e) =>
          !e.hasAttribute("data-automation-id") &&
          !(e.id === "import-input") &&
          e.getAttribute("role") !== "tabpanel" &&
          !["timeline", "agent-log", "tool-desc"].includes(e.id),
      )
      .map((e) => e.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unnamed, [], "interactive elements without data-automation-id");
  await page.addScriptTag({ content: readFileSync(join(root, "node_modules", "axe-core", "axe.min.js"), "utf8") });
  const audit = async () => {
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    return result.violations.map(
      (v) =>
        `${v.id} (${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
  };
  assert.deepEqual(await audit(), []);
  // The other tab, with the asset bin's buttons.
  await page.click('[data-automation-id="tabs.assets"]');
  assert.deepEqual(await audit(), [], "with the Assets tab shown");
  await page.click('[data-automation-id="tabs.console"]');
  // The Export dialog, open: its controls are named and accessible too.
  await page.click('[data-automation-id="toolbar.export"]');
  await page.waitForSelector("#export-dialog[open]");
  assert.deepEqual(await audit(), [], "with the Export dialog open");
  await page.click('[data-automation-id="export.cancel"]');
  await reset();
});

test("the relay's one-time file route: only the named file, for the page's origin, once; hostile requests are refused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "neuralcut-grants-"));
  const bytes = readFileSync(join(root, "demo", "media", "clip.webm"));
  const file = join(dir, "clip one.webm"); // a space: the URL encodes the name
  writeFileSync(file, bytes);
  const { probeMedia } = await import(join(dist, "media", "probe.js"));
  const { format: _format, ...probed } = await probeMedia(file);
  writeFileSync(join(dir, "secret.txt"), "not granted\n");
  mkdirSync(join(dir, "folder"));
  const relay = await startRelay({ port: 0, grantMs: 400 });
  const origin = "http://127.0.0.1:45678";
  // A stand-in page: answers each request with onRequest; an assertion failing inside it is kept.
  const seen = [];
  const failures = [];
  let onRequest = async () => ({ ok: true, result: { ids: [] } });
  const ws = new WebSocket(`ws://127.0.0.1:${relay.port}/page?token=${relay.token}`, { headers: { origin } });
  ws.on("message", async (data) => {
    const req = JSON.parse(String(data));
    seen.push(req);
    let reply;
    try {
      reply = await onRequest(req);
    } catch (e) {
      failures.push(e);
      reply = { ok: false, error: String(e), code: "TEST" };
    }
    ws.send(JSON.stringify({ id: req.id, ...reply }));
  });
  await new Promise((done, fail) => (ws.once("open", done), ws.once("error", fail)));
  const c = lineClient(relay.port);
  const get = (path, headers = { origin }, method = "GET") => rawRequest(relay.port, { method, path, headers });
  const asset = { path: file, name: "clip one.webm", type: "video" };
  const send = async (method, params) => {
    const reply = await c.send(method, params);
    if (failures.length) throw failures[0];
    return reply;
  };
  try {
    await c.send("auth", { token: relay.token });
    onRequest = async (req) => {
      assert.equal(req.method, "engine.addAssets");
      const [{ url, path, ...meta }] = req.params.assets;
      assert.equal(path, undefined, "the page is never told the path");
      assert.deepEqual(meta, probed, "what the prober read");
      const u = new URL(url);
      assert.equal(u.host, `127.0.0.1:${relay.port}`);
      const key = /^\/media\/([A-Za-z0-9_-]{43})\/clip%20one\.webm$/.exec(u.pathname)?.[1];
      assert.ok(key, u.pathname);
      const at = u.pathname;
      // Refused: another origin, no origin, a rebinding Host, another grant, another name, traversal.
      assert.equal((await get(at, { origin: "http://evil.example" })).status, 403);
      assert.equal((await get(at, {})).status, 403, "no Origin");
      assert.equal((await get(at, { origin, host: `evil.example:${relay.port}` })).status, 403);
      assert.equal((await get(`/media/${"A".repeat(43)}/clip%20one.webm`)).status, 404);
      for (const hostile of [
        `/media/${key}/secret.txt`,
        `/media/${key}/..%2Fsecret.txt`,
        `/media/${key}/../secret.txt`,
        `/media/${key}/clip%20one.webm/../../secret.txt`,
        `/media/../${key}/clip%20one.webm`,
        `/media/${key}/%2E%2E/%2E%2E/secret.txt`,
        `/media/${key}`,
      ]) {
        const r = await get(hostile);
        assert.equal(r.status, 404, hostile);
        assert.equal(r.body.includes("not granted"), false);
      }
      assert.equal((await get(at, { origin }, "POST")).status, 405);
      // A preflight and HEAD for the page's origin, then a range, a bad range, the whole file.
      const pre = await get(at, { origin, "access-control-request-method": "GET", "access-control-request-headers": "range" }, "OPTIONS");
      assert.deepEqual([pre.status, pre.headers["access-control-allow-origin"]], [204, origin]);
      const head = await get(at, { origin }, "HEAD");
      assert.deepEqual(
        [head.status, head.headers["content-length"], head.headers["content-type"], head.headers["access-control-allow-origin"], head.body.length],
        [200, String(bytes.length), "video/webm", origin, 0],
      );
      const part = await get(at, { origin, range: "bytes=10-19" });
      assert.deepEqual([part.status, part.headers["content-range"]], [206, `bytes 10-19/${bytes.length}`]);
      assert.deepEqual(part.body, bytes.subarray(10, 20));
      assert.equal((await get(at, { origin, range: `bytes=${bytes.length}-` })).status, 416);
      const whole = await get(at);
      assert.equal(whole.status, 200);
      assert.deepEqual(whole.body, bytes);
      assert.equal((await get(at)).status, 404, "the last byte sent uses the grant up");
      return { ok: true, result: { ids: ["a1"] } };
    };
    const first = await send("engine.addAssets", { assets: [asset] });
    assert.deepEqual([first.ok, first.result], [true, { ids: ["a1"] }], JSON.stringify(first));

    // A grant ends with the page's answer, fetched or not.
    let kept;
    onRequest = async (req) => {
      kept = new URL(req.params.assets[0].url).pathname;
      return { ok: false, error: "the page said no", code: "MEDIA_UNREADABLE", details: { index: 0 } };
    };
    const no = await send("engine.addAssets", { assets: [asset] });
    assert.deepEqual([no.ok, no.code, no.error, no.details], [false, "MEDIA_UNREADABLE", "the page said no", { index: 0 }]);
    assert.equal((await get(kept)).status, 404, "revoked once the page answered");

    // ... and after a short expiry, even while the page is still busy.
    onRequest = async (req) => {
      await sleep(600);
      assert.equal((await get(new URL(req.params.assets[0].url).pathname)).status, 404, "expired");
      return { ok: true, result: { ids: ["a2"] } };
    };
    assert.equal((await send("engine.addAssets", { assets: [asset] })).ok, true);

    // Requests the relay refuses itself: the page is never asked, nothing is granted.
    const asked = seen.length;
    const refusals = [
      [[{ ...asset, path: "relative/clip.webm" }], "MEDIA_UNREADABLE", /^Path must be absolute/],
      [[{ ...asset, path: join(dir, "secret.txt") }], "MEDIA_UNREADABLE", /^Unsupported media format: /],
      [[{ ...asset, path: join(dir, "missing.webm") }], "MEDIA_UNREADABLE", /^File not found: /],
      [[{ ...asset, path: join(dir, "folder") }], "MEDIA_UNREADABLE", /^Not a file: /],
      [[asset, { ...asset, path: join(dir, "missing.webm") }], "MEDIA_UNREADABLE", /missing\.webm/],
      [[{ ...asset, url: "http://evil.example/x.webm" }], "INVALID_PARAMS", /the relay makes the URL/],
      [[], "INVALID_PARAMS", /non-empty array/],
      ["/etc/passwd", "INVALID_PARAMS", /non-empty array/],
    ];
    for (const [assets, code, message] of refusals) {
      const r = await send("engine.addAssets", { assets });
      assert.deepEqual([r.ok, r.code], [false, code], JSON.stringify(assets));
      assert.match(r.error, message);
    }
    const extra = await send("engine.addAssets", { assets: [asset], also: 1 });
    assert.deepEqual([extra.ok, extra.code], [false, "INVALID_PARAMS"]);
    assert.equal(seen.length, asked, "the page was never asked");

    // Events: a subscribed client gets the page's changes as lines without an id; others do not.
    const other = lineClient(relay.port);
    await other.send("auth", { token: relay.token });
    assert.equal((await c.send("relay.subscribe", { events: ["nope"] })).code, "INVALID_PARAMS");
    assert.deepEqual((await c.send("relay.subscribe", { events: ["engine.changed"] })).result, { events: ["engine.changed"] });
    ws.send(JSON.stringify({ event: "changed", revision: 7, canUndo: true, canRedo: false }));
    assert.deepEqual(await c.next(), { event: "engine.changed", params: { revision: 7, canUndo: true, canRedo: false } });
    const status = await other.send("relay.status");
    assert.deepEqual([status.id, status.ok], [2, true], "a client that did not subscribe gets only its replies");
    other.end();

    // Without a page nothing is granted.
    ws.close();
    while (relay.page()) await sleep(20);
    const noPage = await send("engine.addAssets", { assets: [asset] });
    assert.deepEqual([noPage.ok, noPage.code], [false, "NO_PAGE"]);
  } finally {
    c.end();
    ws.terminate();
    await relay.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
