// neuralcut/opencut against the built package: the hand-over of docs/opencut.md, run against a
// stand-in for OpenCut's editor core that keeps OpenCut's contract (scenes.getActiveScene().tracks,
// timeline.updateTracks, a snapshot command that command.execute records for undo).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { pkg, settle } from "./helpers.mjs";

const { connectOpenCut, prepareOpenCutScene } = await import(new URL("../../dist/opencut.js", import.meta.url));

function scene(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/opencut/${name}.json`, import.meta.url), "utf8"));
}

function expected(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/opencut/expected/${name}.json`, import.meta.url), "utf8"));
}

// ---- A stand-in for OpenCut's EditorCore (v0.3): only the calls the guide uses. ----
class TracksSnapshotCommand {
  constructor({ before, after }) {
    this.before = before;
    this.after = after;
  }
  execute(core) {
    core.timeline.updateTracks(this.after);
  }
  undo(core) {
    core.timeline.updateTracks(this.before);
  }
}

function fakeOpenCut({ tracks, assets, settings }) {
  const core = {
    renders: 0,
    scenes: {
      active: { id: "scene-1", name: "Main scene", isMain: true, tracks, bookmarks: [] },
      getActiveScene: () => core.scenes.active,
    },
    // updateTracks replaces the active scene's tracks and notifies the UI (here: counts renders).
    timeline: {
      updateTracks(next) {
        core.scenes.active = { ...core.scenes.active, tracks: next };
        core.renders += 1;
      },
    },
    media: { getAssets: () => assets },
    project: { getActive: () => ({ metadata: { id: "p1", name: "Demo" }, settings }) },
    command: {
      history: [],
      redoStack: [],
      execute({ command }) {
        command.execute(core);
        this.history.push(command);
        this.redoStack = [];
        return command;
      },
      undo() {
        const c = this.history.pop();
        c.undo(core);
        this.redoStack.push(c);
      },
    },
  };
  return core;
}

// ---- The guide's code (docs/opencut.md, "Wiring"), verbatim apart from the imports. ----
function wire(neuralcut, core) {
  return connectOpenCut(neuralcut, {
    getTracks: () => core.scenes.getActiveScene().tracks,
    getAssets: () => core.media.getAssets(),
    getSettings: () => core.project.getActive().settings,
    commit: (before, after) => core.command.execute({ command: new TracksSnapshotCommand({ before, after }) }),
  });
}

test("loadOpenCutScene then toOpenCutScene gives the same tracks", async () => {
  const editor = await pkg.createEditor();
  for (const name of ["full", "ntsc-23976", "ntsc-2997"]) {
    const s = scene(name);
    editor.loadOpenCutScene(s);
    assert.deepStrictEqual(editor.toOpenCutScene(), { tracks: s.tracks }, name);
    assert.equal(editor.canUndo(), false, "loading is not an undo step");
  }
});

test("a refused scene throws INVALID_SCENE with the place, and changes nothing", async () => {
  const editor = await pkg.createEditor();
  editor.loadOpenCutScene(scene("ntsc-2997"));
  await editor.callTool("split", { times: [5] });
  const before = editor.project();
  const bad = scene("full");
  bad.tracks.main.elements[1].startTime = 500000;
  assert.throws(
    () => editor.loadOpenCutScene(bad),
    (e) =>
      e instanceof pkg.NeuralCutError &&
      e.code === "INVALID_SCENE" &&
      e.message === 'Invalid OpenCut scene at tracks.main.elements[1] ("i-card"): overlaps element "v-intro" on the same track (v-intro runs 0–600000 ticks, i-card starts at 500000)',
  );
  assert.deepStrictEqual(editor.project(), before);
  assert.equal(editor.canUndo(), true);
  assert.throws(() => editor.loadOpenCutScene(null), (e) => e.code === "INVALID_SCENE");
  assert.throws(() => editor.loadOpenCutScene({ tracks: { main: { id: 1n } } }), (e) => e instanceof pkg.NeuralCutError && e.code === "INVALID_SCENE");
  assert.deepStrictEqual(editor.project(), before);
});

test("a load tells onChange listeners, with source scene", async () => {
  const editor = await pkg.createEditor();
  const events = [];
  editor.onChange((e) => events.push(e.source));
  editor.loadOpenCutScene(scene("ntsc-23976"));
  await settle();
  assert.deepStrictEqual(events, ["scene"]);
});

test("a tool call through the bridge is one OpenCut undo step, and OpenCut's undo restores the scene", async () => {
  const s = scene("full");
  const core = fakeOpenCut(s);
  const original = core.scenes.getActiveScene().tracks;
  const bridge = wire(await pkg.createEditor(), core);

  const out = await bridge.callTool("split", { times: [2] });
  assert.equal(out.success, true);
  assert.equal(core.command.history.length, 1);
  assert.equal(core.renders, 1);
  assert.deepStrictEqual(core.scenes.getActiveScene().tracks, expected("full.split"));

  core.command.undo();
  assert.equal(core.scenes.getActiveScene().tracks, original, "OpenCut's undo puts its own value back");

  // The next call sees OpenCut's state (the undone one), not the engine's.
  await bridge.callTool("move_timeline_elements", { elementIds: ["i-card"], start: 15 });
  assert.deepStrictEqual(core.scenes.getActiveScene().tracks, expected("full.move"));
  assert.equal(core.command.history.length, 1);
});

test("a tool error writes nothing", async () => {
  const core = fakeOpenCut(scene("full"));
  const bridge = wire(await pkg.createEditor(), core);
  const out = await bridge.callTool("split", { times: [] });
  assert.equal(typeof out.error, "string");
  const missing = await bridge.callTool("add_media_to_timeline", { assetId: "nope", startTime: 0, trackType: "main" });
  assert.equal(missing.error, "Asset not found");
  assert.equal(core.command.history.length, 0);
  assert.equal(core.renders, 0);
});

test("bridge.run writes a whole agent turn back as one step", async () => {
  const core = fakeOpenCut(scene("full"));
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  const steps = await bridge.run(async (editor) => {
    await editor.callTool("split", { times: [2] });
    await editor.callTool("apply_effect", { effectType: "vignette", start: 1, end: 3, params: { radius: 60 } });
    await editor.callTool("set_volume", { trackId: "music-track", elementId: "a-music", volume: 0.5 });
    return 3;
  });
  assert.equal(steps, 3);
  assert.equal(core.command.history.length, 1, "one OpenCut step for the turn");
  assert.equal(neuralcut.canUndo(), true, "the engine keeps its own steps while OpenCut is unchanged");
  const tracks = core.scenes.getActiveScene().tracks;
  assert.equal(tracks.overlay[0].type, "effect");
  assert.equal(tracks.overlay[0].elements[0].effectType, "vignette");
  assert.equal(tracks.audio[0].elements[0].volume, -6.02);

  // The engine's undo (the agent's undo tool) goes back to OpenCut as another step.
  await bridge.callTool("undo");
  assert.equal(core.command.history.length, 2);
  assert.equal(core.scenes.getActiveScene().tracks.audio[0].elements[0].volume, -6);
});

test("host objects that JSON cannot carry stay on their elements, and on the pieces cut from them", async () => {
  class FakeAudioBuffer {
    constructor(seconds) {
      this.duration = seconds;
    }
  }
  const s = scene("full");
  const buffer = new FakeAudioBuffer(30);
  s.tracks.audio[0].elements[0].buffer = buffer;
  s.assets[0].file = new Blob(["not really a video"], { type: "video/mp4" });
  const prepared = prepareOpenCutScene(s);
  assert.equal(prepared.scene.tracks.audio[0].elements[0].buffer, undefined);
  assert.equal(prepared.scene.assets[0].file, undefined);
  assert.equal(s.tracks.audio[0].elements[0].buffer, buffer, "the host's scene is not modified");

  const core = fakeOpenCut(s);
  const bridge = wire(await pkg.createEditor(), core);
  await bridge.callTool("split", { times: [2] });
  const music = core.scenes.getActiveScene().tracks.audio[0].elements;
  assert.equal(music.length, 2);
  assert.equal(music[0].buffer, buffer);
  assert.equal(music[1].buffer, buffer, "the new piece plays the same decoded audio");
  assert.equal(core.scenes.getActiveScene().tracks.main.elements[0].buffer, undefined);
});

test("the bridge reloads only when OpenCut changed", async () => {
  const core = fakeOpenCut(scene("full"));
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  assert.equal(bridge.sync(), true);
  assert.equal(bridge.sync(), false);
  // A user edit in OpenCut replaces the tracks object: the next sync loads it.
  const edited = structuredClone(core.scenes.getActiveScene().tracks);
  edited.main.elements[1].startTime = 1_800_000;
  core.timeline.updateTracks(edited);
  assert.equal(bridge.sync(), true);
  assert.equal(neuralcut.toOpenCutScene().tracks.main.elements[2].id, "i-card");
  // A new media asset in OpenCut is seen by the tools.
  const assets = [...core.media.getAssets(), { id: "m-new", name: "new.mp4", type: "video", duration: 3 }];
  core.media.getAssets = () => assets;
  const added = await bridge.callTool("add_media_to_timeline", { assetId: "m-new", startTime: 20, trackType: "main" });
  assert.equal(typeof added.elementId, "string");
  const placed = core.scenes.getActiveScene().tracks.main.elements.at(-1);
  assert.deepStrictEqual([placed.mediaId, placed.startTime, placed.duration, placed.sourceDuration], ["m-new", 2_400_000, 360_000, 360_000]);
});

test("connectOpenCut checks what it is given", async () => {
  const editor = await pkg.createEditor();
  assert.throws(() => connectOpenCut(editor, {}), TypeError);
  assert.throws(() => connectOpenCut({}, { getTracks() {}, getAssets() {}, commit() {} }), TypeError);
});
