// The public JS API of the built package: createEditor, assets and stickers, the catalog, undo
// and redo, onChange delivery, project round trip, thrown API errors.
import assert from "node:assert/strict";
import { test } from "node:test";

import { editorOn, fixture, pkg, settle } from "./helpers.mjs";

const { createEditor, NeuralCutError, TICKS_PER_SECOND, TOOL_NAMES, isToolError } = pkg;

/** Asserts that `fn` throws a NeuralCutError (an Error) with `code`, and returns it. */
function throwsCode(fn, code) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught, `expected a thrown ${code}`);
  assert.ok(caught instanceof Error, "thrown value is an Error");
  assert.ok(caught instanceof NeuralCutError, "thrown value is a NeuralCutError");
  assert.equal(caught.name, "NeuralCutError");
  assert.equal(caught.code, code, caught.message);
  assert.equal(typeof caught.message, "string");
  return caught;
}

test("exports the tick rate and the tool names", () => {
  assert.equal(TICKS_PER_SECOND, 120000);
  assert.equal(TOOL_NAMES.length, 38);
  assert.ok(TOOL_NAMES.includes("split"));
});

test("a new editor has an empty project with one main track", async () => {
  const editor = await createEditor();
  const project = editor.project();
  assert.equal(project.format, "neuralcut-project");
  assert.equal(project.version, 1);
  assert.deepEqual(await editor.callTool("list_timeline"), { tracks: [{ trackId: project.timeline.tracks[0].id, type: "main", elements: [] }], duration: 0 });
  assert.equal(editor.canUndo(), false);
  assert.equal(editor.canRedo(), false);
  assert.equal(editor.undo(), false);
  assert.equal(editor.redo(), false);
});

test("tools() lists every tool with schemas and annotations", async () => {
  const editor = await createEditor();
  const tools = editor.tools();
  assert.deepEqual(
    tools.map((t) => t.name),
    [...TOOL_NAMES],
  );
  for (const t of tools) {
    assert.deepEqual(Object.keys(t).sort(), ["annotations", "description", "inputSchema", "name", "outputSchema", "title"]);
    assert.equal(t.inputSchema.type, "object");
    assert.equal(t.inputSchema.additionalProperties, false);
    assert.equal(t.outputSchema.type, "object");
    assert.equal(typeof t.annotations.readOnlyHint, "boolean");
  }
  tools[0].name = "changed";
  assert.equal(editor.tools()[0].name, TOOL_NAMES[0], "callers get their own copy");
});

test("addAsset returns an id the tools see; file and url stay in JS", async () => {
  const editor = await createEditor();
  const file = new Blob([new Uint8Array([1, 2, 3])], { type: "video/mp4" });
  const id = editor.addAsset({ name: "clip.mp4", type: "video", duration: 5, width: 1920, height: 1080, fps: { numerator: 30000, denominator: 1001 }, file });
  const mine = editor.addAsset({ id: "music", name: "song.mp3", type: "audio", duration: 12.5, url: "https://example.com/song.mp3" });
  assert.equal(mine, "music");
  const still = editor.addAsset({ name: "logo.png", type: "image", fps: 24 });
  const { assets } = await editor.callTool("list_project_assets");
  assert.deepEqual(
    assets.map((a) => [a.id, a.name, a.type, a.duration, a.usedInTimeline]),
    [
      [id, "clip.mp4", "video", 5, false],
      ["music", "song.mp3", "audio", 12.5, false],
      [still, "logo.png", "image", undefined, false],
    ],
  );
  assert.equal(editor.assetSource(id).file, file);
  assert.deepEqual(editor.assetSource("music"), { file: undefined, url: "https://example.com/song.mp3" });
  assert.equal(editor.assetSource(still), undefined);
  const saved = editor.project().assets;
  assert.deepEqual(saved[0].fps, { numerator: 30000, denominator: 1001 });
  assert.deepEqual(saved[2].fps, { numerator: 24, denominator: 1 });
  assert.ok(!JSON.stringify(saved).includes("example.com"), "host handles never enter the project");
});

// Architecture invariant: the asset library is not part of history, so undo never removes an
// asset added after an edit (elements may later refer to it).
test("edit, then addAsset, then undo keeps the asset and its source handle", async () => {
  const editor = await editorOn();
  const split = await editor.callTool("split", { times: [2] });
  assert.equal(split.success, true);
  const file = new Blob([new Uint8Array([9])], { type: "video/mp4" });
  const id = editor.addAsset({ name: "late.mp4", type: "video", duration: 3, file });
  assert.deepEqual(await editor.callTool("undo"), { success: true, undone: "split", canUndo: false, canRedo: true });
  assert.ok(
    editor.project().assets.some((a) => a.id === id && a.name === "late.mp4"),
    "undo kept the asset",
  );
  assert.equal(editor.assetSource(id).file, file, "and its source handle");
  const { assets } = await editor.callTool("list_project_assets");
  assert.ok(assets.some((a) => a.id === id));
  const placed = await editor.callTool("add_media_to_timeline", { assetId: id, startTime: 20, trackType: "overlay" });
  assert.equal(placed.error, undefined, JSON.stringify(placed));
  assert.equal(editor.undo(), true);
  assert.equal(editor.redo(), true);
  while (editor.undo());
  assert.ok(
    editor.project().assets.some((a) => a.id === id),
    "undoing everything keeps it too",
  );
});

test("addAsset misuse throws NeuralCutError with a stable code and changes nothing", async () => {
  const editor = await createEditor();
  const before = JSON.stringify(editor.project());
  throwsCode(() => editor.addAsset({ type: "video", duration: 3 }), "INVALID_ASSET");
  throwsCode(() => editor.addAsset({ name: "", type: "video" }), "INVALID_ASSET");
  throwsCode(() => editor.addAsset({ name: "a.gif", type: "gif" }), "INVALID_ASSET");
  throwsCode(() => editor.addAsset({ name: "a", type: "video", duration: -1 }), "INVALID_ASSET");
  throwsCode(() => editor.addAsset({ name: "a", type: "video", width: 1.5 }), "INVALID_ASSET");
  throwsCode(() => editor.addAsset({ name: "a", type: "video", fps: "fast" }), "INVALID_ASSET");
  throwsCode(() => editor.addAsset({ name: "a", type: "video", fps: { numerator: 0, denominator: 1 } }), "INVALID_ASSET");
  const typo = throwsCode(() => editor.addAsset({ name: "a", type: "video", durations: 3 }), "INVALID_ASSET");
  assert.match(typo.message, /durations/);
  throwsCode(() => editor.addAsset(null), "INVALID_ASSET");
  throwsCode(() => editor.addAsset("clip.mp4"), "INVALID_ASSET");
  assert.equal(JSON.stringify(editor.project()), before);
  editor.addAsset({ id: "x", name: "a", type: "image" });
  throwsCode(() => editor.addAsset({ id: "x", name: "b", type: "image" }), "DUPLICATE_ID");
});

test("addSticker feeds the add_sticker tool; misuse throws", async () => {
  const editor = await createEditor();
  assert.equal(editor.addSticker({ id: "emoji:fire", name: "Fire", url: "https://example.com/fire.svg" }), "emoji:fire");
  const placed = await editor.callTool("add_sticker", { stickerId: "emoji:fire", start: 0, end: 2, position: "center" });
  assert.equal(typeof placed.elementId, "string");
  throwsCode(() => editor.addSticker({ id: "emoji:fire", name: "Again" }), "DUPLICATE_ID");
  throwsCode(() => editor.addSticker({ id: "", name: "x" }), "INVALID_STICKER");
  throwsCode(() => editor.addSticker({ name: "x" }), "INVALID_STICKER");
  throwsCode(() => editor.addSticker({ id: "a", name: "b", colour: "red" }), "INVALID_STICKER");
  throwsCode(() => editor.addSticker(undefined), "INVALID_STICKER");
});

// The wasm engine lowercases non-ASCII text with JS's toLowerCase (src/text.rs); these are the
// strings src/text.rs's unit test gives str::to_lowercase.
test("list_stickers matches non-ASCII names case-insensitively, as str::to_lowercase does", async () => {
  const editor = await createEditor();
  const names = { "test:angstrom": "ÅNGSTRÖM", "test:odysseus": "ὈΔΥΣΣΕΎΣ", "test:istanbul": "İSTANBUL", "test:kelvin": "Kelvin" };
  for (const [id, name] of Object.entries(names)) editor.addSticker({ id, name });
  const ids = async (query) => (await editor.callTool("list_stickers", { query })).stickers.map((s) => s.id);
  assert.deepEqual(await ids("ångström"), ["test:angstrom"]);
  assert.deepEqual(await ids("ὀδυσσεύς"), ["test:odysseus"]); // the final sigma
  assert.deepEqual(await ids("i\u0307stanbul"), ["test:istanbul"]); // İ is i and a combining dot
  assert.deepEqual(await ids("\u212Aelvin"), ["test:kelvin"]); // the Kelvin sign is k
});

test("createEditor rejects projects it cannot load with a code", async () => {
  const codes = [];
  for (const project of ["{", JSON.stringify({ format: "other", version: 1 }), { ...fixture("demo"), version: 99 }, 42]) {
    await assert.rejects(createEditor({ project }), (e) => {
      assert.ok(e instanceof NeuralCutError && e instanceof Error);
      codes.push(e.code);
      return true;
    });
  }
  assert.deepEqual(codes, ["INVALID_JSON", "UNSUPPORTED_PROJECT", "UNSUPPORTED_PROJECT", "INVALID_PROJECT"]);
  await assert.rejects(createEditor({ contextProvider: {} }), { code: "INVALID_PROVIDER" });
});

test("createEditor({ effects }) offers only the effect types the host renders", async () => {
  const { EFFECT_TYPES } = pkg;
  assert.deepEqual(EFFECT_TYPES, ["blur", "brightness-contrast", "grayscale", "saturation", "sepia", "invert", "vignette"]);
  const all = await createEditor({ project: fixture("demo") });
  assert.deepEqual(all.effects(), EFFECT_TYPES, "default: every registered effect");
  assert.equal((await all.callTool("list_effects")).effects.length, 7);

  const editor = await createEditor({ project: fixture("demo"), effects: ["blur"] });
  assert.deepEqual(editor.effects(), ["blur"]);
  assert.deepEqual(
    (await editor.callTool("list_effects")).effects.map((e) => e.id),
    ["blur"],
  );
  assert.deepEqual((await editor.callTool("list_effects", { query: "vintage" })).effects, []);
  assert.equal((await editor.callTool("get_effect", { effectType: "blur" })).params[0].default, 15);
  const notFound = { error: "Effect not found: sepia", code: "EFFECT_NOT_FOUND", hint: "Call list_effects to see the registered effect ids." };
  assert.deepEqual(await editor.callTool("get_effect", { effectType: "sepia" }), notFound);
  assert.deepEqual(await editor.callTool("apply_effect", { effectType: "sepia", start: 0, end: 2 }), notFound);
  // The demo's sepia element stays, but cannot be edited as an effect the host cannot draw.
  assert.deepEqual(await editor.callTool("update_effect", { elementId: "e21", params: { intensity: 10 } }), notFound);
  assert.equal(editor.canUndo(), false, "refused calls change nothing");
  const applied = await editor.callTool("apply_effect", { effectType: "blur", start: 0, end: 2 });
  assert.deepEqual(applied.appliedParams, { intensity: 15 });
  // A setting of the editor, not of the project.
  assert.equal(editor.project().effects, undefined);
  const reopened = await createEditor({ project: editor.project() });
  assert.deepEqual(reopened.effects(), EFFECT_TYPES);

  const none = await createEditor({ effects: [] });
  assert.deepEqual((await none.callTool("list_effects")).effects, []);
  for (const effects of ["blur", ["blur", 3], { 0: "blur" }]) {
    await assert.rejects(createEditor({ effects }), (e) => e instanceof NeuralCutError && e.code === "INVALID_EFFECTS");
  }
  await assert.rejects(createEditor({ effects: ["blur", "glow"] }), (e) => {
    assert.equal(e.code, "INVALID_EFFECTS");
    assert.match(e.message, /"glow".*blur, brightness-contrast/);
    return true;
  });
});

test("project() round-trips through createEditor, unknown fields included", async () => {
  const demo = fixture("demo");
  const editor = await createEditor({ project: demo });
  assert.deepEqual(editor.project().ui, { zoom: 2, scroll: 0 });
  await editor.callTool("split", { times: [2] });
  const saved = editor.project();
  const again = await createEditor({ project: saved });
  assert.deepEqual(again.project(), saved);
  const fromText = await createEditor({ project: JSON.stringify(saved) });
  assert.deepEqual(await fromText.callTool("list_timeline"), await editor.callTool("list_timeline"));
  assert.equal(again.canUndo(), false, "a loaded project starts a fresh history");
});

test("undo and redo restore the exact states, through methods and tools", async () => {
  const editor = await editorOn();
  const p0 = JSON.stringify(editor.project().timeline);
  await editor.callTool("split", { times: [2] });
  const p1 = JSON.stringify(editor.project().timeline);
  await editor.callTool("delete_timeline_elements", { elementIds: ["e25"] });
  assert.equal(editor.canUndo(), true);
  assert.equal(editor.undo(), true);
  assert.equal(JSON.stringify(editor.project().timeline), p1);
  assert.deepEqual(await editor.callTool("undo"), { success: true, undone: "split", canUndo: false, canRedo: true });
  assert.equal(JSON.stringify(editor.project().timeline), p0);
  assert.equal(editor.undo(), false);
  assert.deepEqual(await editor.callTool("undo"), { error: "Nothing to undo", code: "NOTHING_TO_UNDO" });
  assert.equal(editor.redo(), true);
  assert.equal(JSON.stringify(editor.project().timeline), p1);
  assert.equal((await editor.callTool("redo")).redone, "delete_timeline_elements");
  assert.equal(editor.canRedo(), false);
  assert.deepEqual(await editor.callTool("redo"), { error: "Nothing to redo", code: "NOTHING_TO_REDO" });
});

test("onChange is called after the call returns, never during it", async () => {
  const editor = await editorOn();
  const events = [];
  let inCall = false;
  const off = editor.onChange((e) => events.push({ ...e, inCall }));
  inCall = true;
  const pending = editor.callTool("split", { times: [2] });
  inCall = false;
  assert.equal(events.length, 0, "nothing is delivered synchronously");
  await pending;
  await settle();
  assert.equal(events.length, 1);
  assert.equal(events[0].inCall, false);
  assert.equal(events[0].source, "tool");
  assert.equal(events[0].tool, "split");
  assert.equal(events[0].revision, editor.revision());

  await editor.callTool("list_timeline");
  await editor.callTool("split", { time: 1 });
  await settle();
  assert.equal(events.length, 1, "reads and failed calls change nothing and notify nothing");

  editor.undo();
  editor.redo();
  editor.addAsset({ name: "x.png", type: "image" });
  editor.addSticker({ id: "s", name: "S" });
  assert.equal(events.length, 1);
  await settle();
  assert.deepEqual(
    events.slice(1).map((e) => e.source),
    ["undo", "redo", "asset", "sticker"],
  );
  const revisions = events.map((e) => e.revision);
  assert.deepEqual(
    revisions,
    [...revisions].sort((a, b) => a - b),
  );

  off();
  await editor.callTool("split", { times: [1] });
  await settle();
  assert.equal(events.length, 5, "unsubscribed");
});

test("a listener that throws or calls back into the editor does not disturb others", async () => {
  const editor = await editorOn();
  const seen = [];
  const reported = [];
  const original = globalThis.reportError;
  globalThis.reportError = (e) => reported.push(e);
  try {
    editor.onChange(() => {
      throw new Error("host bug");
    });
    editor.onChange(async () => seen.push((await editor.callTool("list_timeline")).tracks.length));
    await editor.callTool("split", { times: [2] });
    await settle();
  } finally {
    globalThis.reportError = original;
  }
  assert.deepEqual(seen, [5]);
  assert.equal(reported.length, 1);
  assert.equal(reported[0].message, "host bug");
});

test("tool errors resolve to error values; bad arguments never throw", async () => {
  const editor = await editorOn();
  const before = JSON.stringify(editor.project());
  const cycle = {};
  cycle.self = cycle;
  const results = [
    await editor.callTool("nope"),
    await editor.callToolUntyped("split", "times"),
    await editor.callToolUntyped("split", [1]),
    await editor.callToolUntyped("split", cycle),
    await editor.callToolUntyped("split", { times: [1n] }),
    await editor.callToolUntyped("split", () => 1),
    await editor.callToolUntyped(42),
    await editor.callTool("split", { times: [-1] }),
  ];
  for (const r of results) assert.ok(isToolError(r), JSON.stringify(r));
  assert.deepEqual(
    results.map((r) => r.code),
    [
      "UNKNOWN_TOOL",
      "INVALID_ARGUMENTS",
      "INVALID_ARGUMENTS",
      "INVALID_ARGUMENTS",
      "INVALID_ARGUMENTS",
      "INVALID_ARGUMENTS",
      "UNKNOWN_TOOL",
      "INVALID_SPLIT_TIMES",
    ],
  );
  assert.equal(results[0].error, 'Unknown tool "nope"');
  assert.equal(results[1].error, "Arguments must be a JSON object");
  assert.equal(results[7].error, "Invalid split times");
  assert.equal(JSON.stringify(editor.project()), before);
  assert.equal(editor.canUndo(), false);
});

test("load_asset_context goes through the context provider, then the cache", async () => {
  const requests = [];
  const provider = {
    supportedTypes: ["video", "audio"],
    async load(request) {
      requests.push(request);
      return { fileUri: `files/${request.asset.id}`, status: "active", expiresAt: Date.now() + 3600_000, summary: "A clip" };
    },
  };
  const editor = await createEditor({ contextProvider: provider });
  const file = new Blob(["video bytes"]);
  const id = editor.addAsset({ name: "clip.mp4", type: "video", duration: 4, file });
  const image = editor.addAsset({ name: "logo.png", type: "image" });

  const first = await editor.callTool("load_asset_context", { assetId: id });
  assert.deepEqual(first, { assetId: id, status: "loaded", cached: false, provider: "gemini", fileUri: `files/${id}`, summary: "A clip" });
  assert.equal(requests.length, 1);
  assert.equal(requests[0].asset.id, id);
  assert.equal(requests[0].asset.name, "clip.mp4");
  assert.equal(requests[0].previous, null);
  assert.equal(requests[0].source.file, file);

  const byName = await editor.callTool("load_asset_context", { assetId: "clip.mp4" });
  assert.equal(byName.cached, true);
  assert.equal(requests.length, 1, "served from the cache");

  assert.deepEqual(await editor.callTool("load_asset_context", { assetId: image }), { error: "Unsupported asset type", code: "UNSUPPORTED_ASSET_TYPE" });
  assert.equal((await editor.callTool("load_asset_context", { assetId: "missing" })).error, "Asset not found");
  assert.equal(editor.canUndo(), false, "context loading is not an edit");
});

test("a failing or misbehaving provider gives the spec's error, and processing is polled", async () => {
  let mode = "throw";
  const editor = await createEditor();
  const id = editor.addAsset({ name: "clip.mp4", type: "video", duration: 4, url: "blob:clip" });
  const seen = [];
  editor.setContextProvider({
    async load(request) {
      seen.push(request);
      if (mode === "throw") throw new Error("upload refused");
      if (mode === "garbage") return { fileUri: 7 };
      if (mode === "processing") return { fileUri: "files/p", status: "processing" };
      return { fileUri: "files/p", status: "active" };
    },
  });
  const failed = await editor.callTool("load_asset_context", { assetId: id });
  assert.deepEqual(failed, { error: "Failed to load asset context", code: "CONTEXT_LOAD_FAILED", details: "upload refused" });
  mode = "garbage";
  const garbage = await editor.callTool("load_asset_context", { assetId: id });
  assert.equal(garbage.error, "Failed to load asset context");
  assert.match(garbage.details, /invalid report/);
  mode = "processing";
  assert.equal((await editor.callTool("load_asset_context", { assetId: id })).status, "processing");
  mode = "active";
  const done = await editor.callTool("load_asset_context", { assetId: id });
  assert.equal(done.status, "loaded");
  assert.equal(seen.at(-1).previous.fileUri, "files/p", "a processing file is polled, not uploaded again");
  assert.equal(seen.at(-1).source.url, "blob:clip");

  editor.setContextProvider(undefined);
  assert.equal((await editor.callTool("load_asset_context", { assetId: id })).cached, true, "the cache answers without a provider");
  assert.throws(() => editor.setContextProvider({ load: () => {}, supportedTypes: ["gif"] }), { code: "INVALID_PROVIDER" });
});

test("without a provider, an uncached asset reports the configuration problem", async () => {
  const editor = await editorOn();
  const r = await editor.callTool("load_asset_context", { assetId: "a1" });
  assert.equal(r.error, "Failed to load asset context");
  assert.equal(r.code, "CONTEXT_LOAD_FAILED");
});

test("a disposed editor throws EDITOR_DISPOSED", async () => {
  const editor = await createEditor();
  editor.dispose();
  throwsCode(() => editor.project(), "EDITOR_DISPOSED");
  await assert.rejects(editor.callTool("list_timeline"), { code: "EDITOR_DISPOSED" });
});

test("EFFECT_PARAMETERS, generated from the effect registry, is what get_effect describes", async () => {
  const { EFFECT_PARAMETERS, EFFECT_TYPES } = pkg;
  assert.deepEqual(Object.keys(EFFECT_PARAMETERS), [...EFFECT_TYPES]);
  const editor = await createEditor();
  for (const effectType of EFFECT_TYPES) {
    const described = await editor.callToolUntyped("get_effect", { effectType });
    assert.deepEqual(
      EFFECT_PARAMETERS[effectType].map(({ key, default: d, min, max, step }) => ({ key, default: d, min, max, step })),
      described.params.map(({ key, default: d, min, max, step }) => ({ key, default: d, min, max, step })),
      effectType,
    );
    for (const p of EFFECT_PARAMETERS[effectType])
      assert.ok(described.params.find((q) => q.key === p.key).description.startsWith(p.meaning), `${effectType}.${p.key}`);
  }
});
