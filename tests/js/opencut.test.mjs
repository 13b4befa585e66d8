// neuralcut/opencut against the built package: the hand-over of docs/opencut.md, run against a
// stand-in for OpenCut's editor core that keeps OpenCut's contract (scenes.getActiveScene().tracks,
// timeline.updateTracks, a snapshot command that command.execute records for undo).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { pkg, settle } from "./helpers.mjs";

const { connectOpenCut, loadOpenCutScene, prepareOpenCutScene, toOpenCutScene } = await import(new URL("../../dist/opencut.js", import.meta.url));

function scene(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/opencut/${name}.json`, import.meta.url), "utf8"));
}

/** The element `id` anywhere in a `tracks` value. */
function element(tracks, id) {
  return [...tracks.overlay, tracks.main, ...tracks.audio].flatMap((t) => t.elements).find((e) => e.id === id);
}

// ---- A stand-in for OpenCut's EditorCore (opencut-classic cf5e79e): only the calls the guide
// uses, and what OpenCut does around every command (core/managers/commands.ts): ripple when its
// toggle is on, then the reactor that prunes empty overlay and audio tracks (core/index.ts). ----
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

/** OpenCut's UpdateProjectSettingsCommand (commands/project/update-project-settings.ts). */
class UpdateProjectSettingsCommand {
  constructor(updates) {
    this.updates = updates;
  }
  execute(core) {
    this.saved = core.project.active.settings;
    core.project.active = { ...core.project.active, settings: { ...this.saved, ...this.updates } };
  }
  undo(core) {
    core.project.active = { ...core.project.active, settings: this.saved };
  }
}

/** OpenCut's BatchCommand (commands/batch-command.ts): in order, undone in reverse. */
class BatchCommand {
  constructor(commands) {
    this.commands = commands;
  }
  execute(core) {
    for (const c of this.commands) c.execute(core);
  }
  undo(core) {
    for (const c of [...this.commands].reverse()) c.undo(core);
  }
}

/** OpenCut's ripple (ripple/diff.ts, apply.ts, shift.ts), written out again for the stand-in. */
function ripple(before, after) {
  const all = (t) => [...t.overlay, t.main, ...t.audio];
  const everywhere = new Set(all(after).flatMap((t) => t.elements.map((e) => e.id)));
  const shifts = new Map();
  const normalize = (spans) => {
    const out = [];
    for (const s of spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start)) {
      const last = out.at(-1);
      if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
      else out.push({ ...s });
    }
    return out;
  };
  for (const track of all(before)) {
    const afterTrack = all(after).find((t) => t.id === track.id);
    const now = new Map((afterTrack?.elements ?? []).map((e) => [e.id, e]));
    const vacated = [];
    for (const e of track.elements) {
      const a = now.get(e.id);
      if (!a) {
        if (!everywhere.has(e.id)) vacated.push({ start: e.startTime, end: e.startTime + e.duration });
      } else if (e.startTime + e.duration > a.startTime + a.duration) {
        vacated.push({ start: a.startTime + a.duration, end: e.startTime + e.duration });
      }
    }
    const joined = normalize(
      [...now.values()].filter((e) => !track.elements.some((b) => b.id === e.id)).map((e) => ({ start: e.startTime, end: e.startTime + e.duration })),
    );
    let freed = normalize(vacated);
    for (const j of joined) {
      freed = freed.flatMap((f) =>
        j.end <= f.start || j.start >= f.end
          ? [f]
          : [
              { start: f.start, end: j.start },
              { start: j.end, end: f.end },
            ].filter((x) => x.end > x.start),
      );
    }
    if (freed.length) shifts.set(track.id, freed);
  }
  if (shifts.size === 0) return after;
  const shift = (t) => {
    const freed = shifts.get(t.id);
    if (!freed) return t;
    let elements = t.elements;
    for (const f of [...freed].sort((a, b) => b.end - a.end)) {
      elements = elements.map((e) => (e.startTime >= f.end ? { ...e, startTime: e.startTime - (f.end - f.start) } : e));
    }
    return { ...t, elements };
  };
  return { overlay: after.overlay.map(shift), main: shift(after.main), audio: after.audio.map(shift) };
}

function fakeOpenCut({ tracks, assets, settings }) {
  const core = {
    renders: 0,
    rippleEnabled: false,
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
    project: { active: { metadata: { id: "p1", name: "Demo" }, settings }, getActive: () => core.project.active },
    command: {
      history: [],
      redoStack: [],
      execute({ command }) {
        const before = core.scenes.active.tracks;
        command.execute(core);
        if (core.rippleEnabled) {
          const rippled = ripple(before, core.scenes.active.tracks);
          if (rippled !== core.scenes.active.tracks) core.timeline.updateTracks(rippled);
        }
        const t = core.scenes.active.tracks;
        const pruned = { ...t, overlay: t.overlay.filter((x) => x.elements.length > 0), audio: t.audio.filter((x) => x.elements.length > 0) };
        if (pruned.overlay.length !== t.overlay.length || pruned.audio.length !== t.audio.length) core.timeline.updateTracks(pruned);
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
function wire(neuralcut, core, more = {}) {
  return connectOpenCut(neuralcut, {
    getTracks: () => core.scenes.getActiveScene().tracks,
    getAssets: () => core.media.getAssets(),
    getSettings: () => core.project.getActive().settings,
    commit: (before, after, settings) => {
      const tracks = new TracksSnapshotCommand({ before, after });
      // `settings` only when a tool changed them (update_project's background): one undo step for both.
      const command = settings ? new BatchCommand([tracks, new UpdateProjectSettingsCommand(settings)]) : tracks;
      core.command.execute({ command });
    },
    ...more,
  });
}

test("loadOpenCutScene then toOpenCutScene gives the same tracks and canvas background", async () => {
  const editor = await pkg.createEditor();
  for (const name of ["v31", "migrated-v28", "ntsc-23976", "ntsc-2997"]) {
    const s = scene(name);
    loadOpenCutScene(editor, s);
    assert.deepStrictEqual(toOpenCutScene(editor), { tracks: s.tracks, settings: { background: s.settings.background } }, name);
    assert.equal(editor.canUndo(), false, "loading is not an undo step");
  }
});

test("a refused scene throws INVALID_SCENE with the place, and changes nothing", async () => {
  const editor = await pkg.createEditor();
  loadOpenCutScene(editor, scene("ntsc-2997"));
  await editor.callTool("split", { times: [5] });
  const before = editor.project();
  const bad = scene("v31");
  bad.tracks.main.elements[1].startTime = 500000;
  assert.throws(
    () => loadOpenCutScene(editor, bad),
    (e) =>
      e instanceof pkg.NeuralCutError &&
      e.code === "INVALID_SCENE" &&
      e.message ===
        'Invalid OpenCut scene at tracks.main.elements[1] ("v-fast"): overlaps element "v-intro" on the same track (v-intro runs 0–600000 ticks, v-fast starts at 500000)',
  );
  assert.deepStrictEqual(editor.project(), before);
  assert.equal(editor.canUndo(), true);
  assert.throws(
    () => loadOpenCutScene(editor, null),
    (e) => e.code === "INVALID_SCENE",
  );
  assert.throws(
    () => loadOpenCutScene(editor, { tracks: { main: { id: 1n } } }),
    (e) => e instanceof pkg.NeuralCutError && e.code === "INVALID_SCENE",
  );
  assert.deepStrictEqual(editor.project(), before);
});

test("a load tells onChange listeners, with source scene", async () => {
  const editor = await pkg.createEditor();
  const events = [];
  editor.onChange((e) => events.push(e.source));
  loadOpenCutScene(editor, scene("ntsc-23976"));
  await settle();
  assert.deepStrictEqual(events, ["scene"]);
});

test("a tool call through the bridge is one OpenCut undo step, and OpenCut's undo restores the scene", async () => {
  const s = scene("v31");
  const core = fakeOpenCut(s);
  const original = core.scenes.getActiveScene().tracks;
  const bridge = wire(await pkg.createEditor(), core);

  const out = await bridge.callTool("split", { times: [2] });
  assert.equal(out.success, true);
  assert.equal(core.command.history.length, 1);
  assert.ok(core.command.history[0] instanceof TracksSnapshotCommand, "the settings are not written when no tool changed them");
  assert.equal(core.renders, 1);
  // 2 s = 240 000 ticks into v-intro: the left piece keeps everything but its length, tail trim and
  // the keys past the cut, which end in a boundary key (OpenCut's splitAnimationsAtTime).
  const got = element(core.scenes.getActiveScene().tracks, "v-intro");
  const parent = element(s.tracks, "v-intro");
  const cut = (path, value) => ({
    keys: [parent.animations[path].keys[0], { id: got.animations[path].keys[1].id, time: 240000, value, segmentToNext: "linear", tangentMode: "flat" }],
  });
  const intro = {
    ...parent,
    duration: 240000,
    trimEnd: 1140000,
    animations: { "transform.scaleX": cut("transform.scaleX", 1.08), volume: cut("volume", -12 * 0.4) },
  };
  assert.deepStrictEqual(got, intro);
  assert.deepStrictEqual(element(core.scenes.getActiveScene().tracks, "cap-1"), element(s.tracks, "cap-1"));

  core.command.undo();
  assert.equal(core.scenes.getActiveScene().tracks, original, "OpenCut's undo puts its own value back");

  // The next call sees OpenCut's state (the undone one), not the engine's.
  await bridge.callTool("move_timeline_elements", { elementIds: ["i-card"], start: 15 });
  const moved = core.scenes.getActiveScene().tracks;
  assert.deepStrictEqual(element(moved, "i-card"), { ...element(s.tracks, "i-card"), startTime: 1800000 });
  assert.deepStrictEqual(element(moved, "v-intro"), element(s.tracks, "v-intro"));
  assert.equal(core.command.history.length, 1);
});

test("update_project through the bridge is one OpenCut step, undone by OpenCut's undo with the tracks", async () => {
  const s = scene("v31");
  const core = fakeOpenCut(s);
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  const out = await bridge.callTool("update_project", { background: { type: "blur", blurIntensity: 200 } });
  assert.deepStrictEqual(out, { success: true, background: { type: "blur", blurIntensity: 200 } });
  assert.equal(core.command.history.length, 1);
  // Only the background changes, in OpenCut's shape; fps and canvas stay.
  assert.deepStrictEqual(core.project.getActive().settings, { ...s.settings, background: { type: "blur", blurIntensity: 200 } });

  // OpenCut's new settings are the engine's own: the next call keeps the engine's history, so
  // the agent's undo steps back through both, each one OpenCut step.
  await bridge.callTool("add_text", { text: "Hi", start: 20, end: 21, position: "top" });
  assert.equal(core.command.history.length, 2);
  assert.equal((await bridge.callTool("undo", {})).undone, "add_text");
  assert.deepStrictEqual(core.project.getActive().settings.background, { type: "blur", blurIntensity: 200 });
  assert.equal((await bridge.callTool("undo", {})).undone, "update_project");
  assert.equal(core.command.history.length, 4);
  assert.deepStrictEqual(core.project.getActive().settings, s.settings);

  // OpenCut's own undo of such a step puts its background back, and the bridge reloads it.
  await bridge.callTool("update_project", { background: "#ffffff" });
  core.command.undo();
  assert.deepStrictEqual(core.project.getActive().settings, s.settings, "OpenCut's undo puts its background back");
  await bridge.callTool("list_timeline", {});
  assert.deepStrictEqual(toOpenCutScene(neuralcut).settings, { background: s.settings.background });
});

test("a tool error writes nothing", async () => {
  const core = fakeOpenCut(scene("v31"));
  const bridge = wire(await pkg.createEditor(), core);
  const out = await bridge.callTool("split", { times: [] });
  assert.equal(typeof out.error, "string");
  const missing = await bridge.callTool("add_media_to_timeline", { assetId: "nope", startTime: 0, trackType: "main" });
  assert.equal(missing.error, "Asset not found");
  assert.equal(core.command.history.length, 0);
  assert.equal(core.renders, 0);
});

test("bridge.run writes a whole agent turn back as one step, edits landing in params", async () => {
  const s = scene("v31");
  const core = fakeOpenCut(s);
  const neuralcut = await pkg.createEditor();
  // A host whose OpenCut copy has the two fixes of docs/opencut.md draws effect elements.
  const bridge = wire(neuralcut, core, { elementKinds: pkg.ELEMENT_KINDS });
  const steps = await bridge.run(async (editor) => {
    await editor.callTool("split", { times: [2] });
    await editor.callTool("apply_effect", { effectType: "blur", start: 1, end: 3, params: { intensity: 40 } });
    await editor.callTool("set_volume", { trackId: "music-track", elementId: "a-music", volume: 0.5 });
    await editor.callTool("update_text", { trackId: "text-track", elementId: "t-title", text: "Hi" });
    return 4;
  });
  assert.equal(steps, 4);
  assert.equal(core.command.history.length, 1, "one OpenCut step for the turn");
  assert.equal(neuralcut.canUndo(), true, "the engine keeps its own steps while OpenCut is unchanged");
  const tracks = core.scenes.getActiveScene().tracks;
  assert.equal(tracks.overlay[0].type, "effect");
  assert.deepStrictEqual(tracks.overlay[0].elements[0].params, { intensity: 40 });
  const music = element(tracks, "a-music");
  assert.equal(music.params.volume, -6.02);
  assert.equal(music.volume, undefined, "nothing legacy added");
  assert.equal(element(tracks, "t-title").params.content, "Hi");
  assert.equal(element(tracks, "t-title").content, undefined);

  // The engine's undo (the agent's undo tool) goes back to OpenCut as another step.
  await bridge.callTool("undo");
  assert.equal(core.command.history.length, 2);
  assert.equal(element(core.scenes.getActiveScene().tracks, "t-title").params.content, "Hello, world");
});

test("host objects that JSON cannot carry stay on their elements, and on the pieces cut from them", async () => {
  class FakeAudioBuffer {
    constructor(seconds) {
      this.duration = seconds;
    }
  }
  const s = scene("v31");
  const buffer = new FakeAudioBuffer(30);
  s.tracks.audio[1].elements[0].buffer = buffer;
  s.assets[0].file = new Blob(["not really a video"], { type: "video/mp4" });
  const prepared = prepareOpenCutScene(s);
  assert.equal(prepared.scene.tracks.audio[1].elements[0].buffer, undefined);
  assert.equal(prepared.scene.assets[0].file, undefined);
  assert.equal(prepared.sources.get("m-video").file, s.assets[0].file);
  assert.equal(prepared.sources.get("m-video").url, "blob:https://opencut.app/interview");
  assert.equal(s.tracks.audio[1].elements[0].buffer, buffer, "the host's scene is not modified");

  const core = fakeOpenCut(s);
  const bridge = wire(await pkg.createEditor(), core);
  await bridge.callTool("split", { times: [2] });
  const music = core.scenes.getActiveScene().tracks.audio[1].elements.filter((e) => e.mediaId === "m-music");
  assert.equal(music.length, 2);
  assert.equal(music[0].buffer, buffer);
  assert.equal(music[1].buffer, buffer, "the new piece plays the same decoded audio");
  assert.equal(core.scenes.getActiveScene().tracks.main.elements[0].buffer, undefined);
});

test("the bridge reloads when the user edited in OpenCut", async () => {
  const core = fakeOpenCut(scene("v31"));
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  assert.equal(bridge.sync(), true);
  assert.equal(bridge.sync(), false);
  await bridge.callTool("split", { times: [2] });
  assert.equal(neuralcut.canUndo(), true);
  // A user edit in OpenCut replaces the tracks object: the next sync loads it, history afresh.
  const edited = structuredClone(core.scenes.getActiveScene().tracks);
  edited.main.elements.find((e) => e.id === "v-fast").startTime = 1_800_000;
  core.timeline.updateTracks(edited);
  assert.equal(bridge.sync(), true);
  assert.equal(neuralcut.canUndo(), false, "the engine's steps were made on a timeline OpenCut has since changed");
  assert.equal(element(toOpenCutScene(neuralcut).tracks, "v-fast").startTime, 1_800_000);
  // A new media asset in OpenCut is seen by the tools.
  const assets = [...core.media.getAssets(), { id: "m-new", name: "new.mp4", type: "video", duration: 3 }];
  core.media.getAssets = () => assets;
  const added = await bridge.callTool("add_media_to_timeline", { assetId: "m-new", startTime: 20, trackType: "main" });
  assert.equal(typeof added.elementId, "string");
  const placed = element(core.scenes.getActiveScene().tracks, added.elementId);
  assert.deepStrictEqual([placed.mediaId, placed.startTime, placed.duration, placed.sourceDuration], ["m-new", 2_400_000, 360_000, 360_000]);
});

test("OpenCut pruning an emptied track keeps NeuralCut's history", async () => {
  const s = scene("v31");
  const core = fakeOpenCut(s);
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  // e-blur is the effect track's only element: OpenCut's reactor removes the emptied track.
  await bridge.callTool("delete_timeline_elements", { elementIds: ["e-blur"] });
  const pruned = core.scenes.getActiveScene().tracks;
  assert.deepStrictEqual(
    pruned.overlay.map((t) => t.id),
    ["text-track", "caption-track", "gfx-track", "pip-track"],
  );
  assert.equal(core.command.history.length, 1);
  assert.equal(neuralcut.canUndo(), true, "only normalisation: the engine keeps its history");
  assert.deepStrictEqual(toOpenCutScene(neuralcut).tracks, pruned, "and holds OpenCut's copy");
  assert.equal(bridge.sync(), false);
  // The agent's undo brings the element back, on its own track, exactly.
  await bridge.callTool("undo");
  assert.deepStrictEqual(core.scenes.getActiveScene().tracks, s.tracks);
  assert.equal(core.command.history.length, 2);
});

test("OpenCut's ripple after a delete keeps NeuralCut's history", async () => {
  const s = scene("v31");
  const core = fakeOpenCut(s);
  core.rippleEnabled = true;
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  // i-card (0–5 s) goes: ripple moves v-pip (6–14 s) on the same track 5 s earlier.
  await bridge.callTool("delete_timeline_elements", { elementIds: ["i-card"] });
  const rippled = core.scenes.getActiveScene().tracks;
  assert.equal(element(rippled, "v-pip").startTime, 120_000);
  assert.equal(neuralcut.canUndo(), true);
  assert.deepStrictEqual(toOpenCutScene(neuralcut).tracks, rippled);
  assert.equal(bridge.sync(), false);
  const tl = await neuralcut.callTool("list_timeline", {});
  assert.equal(tl.tracks.find((t) => t.trackId === "pip-track").elements[0].start, 1);
  await bridge.callTool("undo");
  assert.deepStrictEqual(core.scenes.getActiveScene().tracks, s.tracks);
});

test("a sticker the tools add is OpenCut's sticker element, measured by the host", async () => {
  const s = scene("v31");
  const core = fakeOpenCut(s);
  const neuralcut = await pkg.createEditor();
  const bridge = connectOpenCut(neuralcut, {
    getTracks: () => core.scenes.getActiveScene().tracks,
    getAssets: () => core.media.getAssets(),
    getSettings: () => core.project.getActive().settings,
    commit: (before, after) => core.command.execute({ command: new TracksSnapshotCommand({ before, after }) }),
    stickerSize: (id) => (id === "flags:FR" ? { width: 640, height: 427 } : undefined),
    elementKinds: pkg.ELEMENT_KINDS,
  });
  const out = await bridge.callTool("add_sticker", { stickerId: "flags:FR", start: 20, end: 22, position: "center" });
  assert.equal(typeof out.elementId, "string", JSON.stringify(out));
  const added = element(core.scenes.getActiveScene().tracks, out.elementId);
  // buildStickerElement with the name OpenCut's sticker panel gives (the country's), the id as
  // OpenCut writes it, the sizes, every visual param; scale 0.2, a fifth of the canvas's height.
  assert.deepStrictEqual(added, {
    id: out.elementId,
    name: "France",
    type: "sticker",
    stickerId: "flags:FR",
    intrinsicWidth: 640,
    intrinsicHeight: 427,
    startTime: 2_400_000,
    duration: 240_000,
    trimStart: 0,
    trimEnd: 0,
    params: {
      "transform.positionX": 0,
      "transform.positionY": 0,
      "transform.scaleX": 0.2,
      "transform.scaleY": 0.2,
      "transform.rotate": 0,
      opacity: 1,
      blendMode: "normal",
    },
  });
  // The stickers already there are untouched.
  assert.deepStrictEqual(element(core.scenes.getActiveScene().tracks, "s-flag"), element(s.tracks, "s-flag"));
});

test("the bridge declares what OpenCut classic draws: no sticker or effect element is added", async () => {
  const { OPENCUT_ELEMENT_KINDS } = await import(new URL("../../dist/opencut.js", import.meta.url));
  const core = fakeOpenCut(scene("v31"));
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  // Its graphics draw as published (their registry is registered right), its stickers and effect elements do not.
  assert.deepStrictEqual(neuralcut.elementKinds(), ["video", "image", "audio", "text", "graphic"]);
  assert.deepStrictEqual([...OPENCUT_ELEMENT_KINDS], ["video", "image", "audio", "text", "graphic"]);
  const sticker = await bridge.callTool("add_sticker", { stickerId: "flags:FR", start: 20, end: 22, position: "center" });
  assert.equal(sticker.code, "ELEMENT_KIND_NOT_DRAWN");
  assert.equal(sticker.error, "This host does not draw sticker elements");
  const effect = await bridge.callTool("apply_effect", { effectType: "blur", start: 1, end: 3 });
  assert.equal(effect.code, "ELEMENT_KIND_NOT_DRAWN");
  assert.equal(core.command.history.length, 0);
  const listed = await bridge.callTool("list_timeline", {});
  assert.deepStrictEqual(listed.notDrawn, ["sticker", "effect"]);
  // A host with the fixes says so; an unknown type is refused.
  const fixed = await pkg.createEditor({ elementKinds: pkg.ELEMENT_KINDS });
  assert.deepStrictEqual(fixed.elementKinds(), [...pkg.ELEMENT_KINDS]);
  assert.equal((await fixed.callTool("list_timeline", {})).notDrawn, undefined);
  await assert.rejects(pkg.createEditor({ elementKinds: ["video", "hologram"] }), (e) => e.code === "INVALID_ELEMENT_KINDS");
  assert.throws(
    () => neuralcut.setElementKinds("video"),
    (e) => e.code === "INVALID_ELEMENT_KINDS",
  );
  assert.throws(
    () => neuralcut.setElementKinds(undefined),
    (e) => e.code === "INVALID_ELEMENT_KINDS",
  );
  assert.deepStrictEqual(neuralcut.elementKinds(), ["video", "image", "audio", "text", "graphic"], "a refused set changes nothing");
});

test("the effect tools offer only what OpenCut renders", async () => {
  const core = fakeOpenCut(scene("v31"));
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  assert.deepStrictEqual(neuralcut.effects(), ["blur"]);
  const listed = await bridge.callTool("list_effects", {});
  assert.deepStrictEqual(
    listed.effects.map((e) => e.id),
    ["blur"],
  );
  const refused = await bridge.callTool("apply_effect", { effectType: "vignette", start: 1, end: 3 });
  assert.equal(refused.error, "Effect not found: vignette");
  assert.equal(core.command.history.length, 0);
  // A host that registered more of NeuralCut's effects in OpenCut says so.
  const more = await pkg.createEditor();
  connectOpenCut(more, { getTracks: () => core.scenes.getActiveScene().tracks, getAssets: () => [], commit() {}, effects: ["blur", "sepia"] });
  assert.deepStrictEqual(more.effects(), ["blur", "sepia"]);
  assert.throws(
    () => connectOpenCut(more, { getTracks() {}, getAssets() {}, commit() {}, effects: ["hologram"] }),
    (e) => e.code === "INVALID_EFFECTS",
  );
});

test("connectOpenCut checks what it is given", async () => {
  const editor = await pkg.createEditor();
  assert.throws(() => connectOpenCut(editor, {}), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => connectOpenCut({}, { getTracks() {}, getAssets() {}, commit() {} }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
});

// ---- Asset context through the bridge: OpenCut's media files are what Gemini gets. ----
test("load_asset_context and transcribe_video upload the media OpenCut holds", async (t) => {
  const { startFakeGemini, modelTurn } = await import("./fake-gemini.mjs");
  const { serveGeminiProxy } = await import(new URL("../../dist/proxy/node.js", import.meta.url));
  const { createAgent } = await import(new URL("../../dist/agent/index.js", import.meta.url));
  const KEY = "AIzaFAKE-opencut-test-key-0123456789";
  const ORIGIN = "http://127.0.0.1:5173";
  const fake = await startFakeGemini({ apiKey: KEY, granularity: 1024, processingPolls: 1 });
  const proxy = await serveGeminiProxy({
    apiKey: KEY,
    allowedOrigins: [ORIGIN],
    models: ["gemini-2.5-flash"],
    public: true,
    upstream: fake.url,
    limits: { uploadChunkBytes: 1024 },
  });
  t.after(async () => {
    await proxy.close();
    await fake.close();
  });
  const browserFetch = (url, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("origin", ORIGIN);
    return fetch(url, { ...init, headers });
  };
  fake.intercept = (body) => {
    if (body.generationConfig?.responseMimeType === "application/json") {
      return modelTurn([{ text: JSON.stringify({ language: "en", segments: [{ start: 1, end: 2, text: "Welcome back." }] }) }]);
    }
    return modelTurn([{ text: "An interview." }]);
  };

  // OpenCut's media assets carry the File (and a blob: URL); the bridge hands them over.
  const bytes = new Uint8Array(2500).map((_, i) => (i * 7) & 0xff);
  const s = scene("v31");
  s.assets[0].file = new File([bytes], "interview.mp4", { type: "video/mp4" });
  const core = fakeOpenCut(s);
  const neuralcut = await pkg.createEditor();
  const bridge = wire(neuralcut, core);
  const agent = createAgent({
    editor: neuralcut,
    proxyUrl: proxy.url,
    fetch: browserFetch,
    allowUploads: true,
    context: { sleep: async () => {}, pollIntervalMs: 1, maxWaitMs: 50 },
  });

  const uploads = fake.uploads.length;
  const loaded = await bridge.run(() => agent.callTool("load_asset_context", { assetId: "m-video" }));
  assert.equal(loaded.status, "loaded", JSON.stringify(loaded));
  assert.equal(fake.uploads.length, uploads + 1);
  assert.deepStrictEqual(new Uint8Array(fake.uploads.at(-1).bytes), bytes, "the very bytes of OpenCut's file");
  assert.equal(neuralcut.assetSource("m-video").file, s.assets[0].file);
  assert.equal(neuralcut.assetSource("m-image").url, "blob:https://opencut.app/card");

  // v-intro plays the interview from 1 s (trimStart 120 000 ticks) at 0 s: source 1–2 s is 0–1 s.
  // Its extracted audio plays the same span at the same time, so the words are there too.
  const words = await bridge.run(() => agent.callTool("transcribe_video", { assetId: "m-video" }));
  assert.equal(words.provider, "gemini", JSON.stringify(words));
  const seen = words.segments.map((x) => [x.start, x.end, x.text, x.elementId]).sort((a, b) => a[3].localeCompare(b[3]));
  assert.deepStrictEqual(seen, [
    [0, 1, "Welcome back.", "a-extract"],
    [0, 1, "Welcome back.", "v-intro"],
  ]);
  assert.equal(core.command.history.length, 0, "reading media writes nothing to OpenCut");
});
