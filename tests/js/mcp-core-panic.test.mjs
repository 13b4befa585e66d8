// A real Rust panic in the release wasm build, provoked through the test-only path
// (docs/mcp.md, "Panics"), is reported as `internal error: …` and the session goes on at its
// last committed state, with its undo history: through createEditor (a NeuralCutError with code
// INTERNAL) and over MCP (an isError result). The panic's call is rolled back whole.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { launchChromium, serveDir } from "./browser.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, pkgJson.bin.neuralcut.replace(/^(\.\/)?dist\//, ""));
const { createEditor, NeuralCutError } = await import(join(dist, "index.js"));
const { loadOpenCutScene, toOpenCutScene } = await import(join(dist, "opencut.js"));
const PANIC = Symbol.for("neuralcut.testOnlyPanic");

async function edited() {
  const editor = await createEditor();
  const asset = editor.addAsset({ name: "clip.mp4", type: "video", duration: 10 });
  assert.equal(isOk(await editor.callTool("add_media_to_timeline", { assetId: asset, startTime: 0, trackType: "main" })), true);
  assert.equal(isOk(await editor.callTool("split", { times: [4] })), true);
  assert.equal(isOk(await editor.callTool("add_text", { text: "Title", start: 0, end: 2, position: "top" })), true);
  assert.equal(editor.undo(), true); // the text is undone: one entry on the redo stack
  return editor;
}

const isOk = (r) => typeof r.error !== "string";

test("createEditor: a panic is a NeuralCutError INTERNAL, and the editor goes on at its last committed state", async () => {
  const bystander = await edited(); // another editor on the same wasm instance
  const bystanderProject = bystander.project();
  const editor = await edited();
  const project = editor.project();
  const revision = editor.revision();
  const timeline = await editor.callTool("list_timeline");

  let thrown;
  try {
    // The split lands in the instance's memory, then the engine panics inside the same call.
    editor[PANIC]("split", { times: [7] }, "provoked by the test");
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof NeuralCutError, String(thrown));
  assert.equal(thrown.code, "INTERNAL");
  assert.match(thrown.message, /^internal error: provoked by the test \(at src\/wasm\/mod\.rs:\d+\)$/);

  // The last committed state: the panicking call left nothing behind, the history is whole.
  assert.deepEqual(editor.project(), project);
  assert.equal(editor.revision(), revision, "nothing the host saw has changed");
  assert.deepEqual(await editor.callTool("list_timeline"), timeline);
  assert.deepEqual([editor.canUndo(), editor.canRedo()], [true, true]);
  assert.equal(editor.redo(), true, "the undone text comes back");
  assert.ok((await editor.callTool("list_timeline")).tracks.some((t) => t.elements.some((e) => e.text === "Title")));
  assert.equal(editor.undo(), true);
  assert.equal(editor.undo(), true); // the split
  assert.equal((await editor.callTool("list_timeline")).tracks.flatMap((t) => t.elements).length, 1);
  // New work goes on, with the same ids the engine would have given.
  const more = await editor.callTool("split", { times: [5] });
  assert.equal(more.success, true);

  // The other editor shared the instance: it is rebuilt too, on its next call.
  assert.deepEqual(bystander.project(), bystanderProject);
  assert.equal(bystander.redo(), true);
  assert.equal(bystander.canUndo(), true);

  // A second panic is survived the same way.
  assert.throws(
    () => editor[PANIC]("list_timeline", {}, "again"),
    (e) => e.code === "INTERNAL" && /again/.test(e.message),
  );
  assert.equal((await editor.callTool("list_timeline")).tracks.flatMap((t) => t.elements).length, 2);
});

test("createEditor: after loadOpenCutScene (history afresh) a panic rebuilds from the loaded scene", async () => {
  const source = await createEditor();
  await source.callTool("add_text", { text: "From the scene", start: 0, end: 2, position: "top" });
  const editor = await createEditor();
  await editor.callTool("add_text", { text: "Before the scene", start: 0, end: 2, position: "top" });
  loadOpenCutScene(editor, { ...toOpenCutScene(source), assets: [] });
  assert.equal(editor.canUndo(), false);
  await editor.callTool("split", { times: [1] });
  const project = editor.project();
  assert.throws(
    () => editor[PANIC]("split", { times: [1.5] }, "after a scene"),
    (e) => e.code === "INTERNAL",
  );
  assert.deepEqual(editor.project(), project);
  assert.equal(editor.undo(), true);
  assert.equal(editor.canUndo(), false, "the history started at the scene");
  const texts = (await editor.callTool("list_timeline")).tracks.flatMap((t) => t.elements).map((e) => e.text);
  assert.deepEqual(texts, ["From the scene"]);
});

test("createEditor: the test-only path is not a tool, and not enumerable", async () => {
  const editor = await createEditor();
  assert.equal(Object.keys(Object.getPrototypeOf(editor)).includes(PANIC), false);
  assert.ok(!editor.tools().some((t) => /panic/i.test(t.name)));
  const r = await editor.callToolUntyped("__test_only_panic", {});
  assert.equal(r.code, "UNKNOWN_TOOL");
});

async function connect(env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--demo"],
    env: { ...process.env, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "neuralcut-panic-test", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools();
  return client;
}

async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, `${name} failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

test("MCP: a panic is an isError internal error and the session stays usable", async () => {
  const client = await connect({ NEURALCUT_TEST_ONLY_PANIC: "1" });
  try {
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t) => t.name === "__test_only_panic"), "never listed");
    await call(client, "split", { times: [2] });
    const before = await call(client, "doc_inspect");
    const r = await client.callTool({ name: "__test_only_panic", arguments: { tool: "split", args: { times: [6] }, message: "boom over MCP" } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^internal error: boom over MCP \(at src\/wasm\/mod\.rs:\d+\)$/);
    assert.equal(JSON.parse(r.content[1].text).code, "INTERNAL");
    const after = await call(client, "doc_inspect");
    assert.deepEqual(after, before, "the last committed state, history included");
    await call(client, "undo");
    // The demo's timeline again. Readable references are compared apart: the split's piece keeps
    // its reference reserved after undo, so later elements are not renumbered as in a fresh editor.
    assert.deepEqual(withoutRefs(await call(client, "list_timeline")), withoutRefs((await connectDemoTimeline()).timeline));
    await call(client, "redo");
    assert.deepEqual((await call(client, "doc_inspect")).timeline, before.timeline);
  } finally {
    await client.close();
  }
});

test("MCP: without NEURALCUT_TEST_ONLY_PANIC=1 the test-only tool does not exist", async () => {
  const client = await connect({ NEURALCUT_TEST_ONLY_PANIC: "" });
  try {
    await assert.rejects(client.callTool({ name: "__test_only_panic", arguments: {} }), (e) => e.code === -32602);
    assert.equal((await call(client, "list_timeline")).tracks.length > 0, true);
  } finally {
    await client.close();
  }
});

/** A listing without its readable references (`ref`), which depend on what the editor has seen. */
function withoutRefs(listing) {
  return { ...listing, tracks: listing.tracks.map((t) => ({ ...t, elements: t.elements.map(({ ref: _, ...e }) => e) })) };
}

/** The demo project's untouched timeline and document, from a fresh editor. */
async function connectDemoTimeline() {
  const { DEMO_PROJECT } = await import(join(dist, "mcp", "demo-project.js"));
  const editor = await createEditor({ project: DEMO_PROJECT });
  return { timeline: await editor.callTool("list_timeline") };
}

test("in Chromium too: the module is re-instantiated on the page's main thread and the editor goes on", async () => {
  const server = await serveDir(dist);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/blank`); // any page of the same origin; the module is imported below
    const result = await page.evaluate(async () => {
      const { createEditor } = await import("/index.js");
      const editor = await createEditor();
      await editor.callTool("add_text", { text: "Kept", start: 0, end: 2, position: "top" });
      const before = JSON.stringify(editor.project());
      let error;
      try {
        editor[Symbol.for("neuralcut.testOnlyPanic")]("add_text", { text: "Lost", start: 3, end: 4, position: "top" }, "in the page");
      } catch (e) {
        error = { name: e.name, code: e.code, message: e.message };
      }
      const after = JSON.stringify(editor.project());
      const undone = editor.undo();
      const timeline = await editor.callTool("list_timeline");
      return { error, same: before === after, undone, elements: timeline.tracks.flatMap((t) => t.elements).length };
    });
    assert.equal(result.error.name, "NeuralCutError");
    assert.equal(result.error.code, "INTERNAL");
    assert.match(result.error.message, /^internal error: in the page/);
    assert.deepEqual([result.same, result.undone, result.elements], [true, true, 0]);
  } finally {
    await browser.close();
    await server.close();
  }
});
