// Every tool through callTool on the built package, with the tool spec's exact output and error
// strings, plus the data-driven cases of tests/cases/*.json (the same files tests/tool_cases.rs
// runs natively) replayed through the wasm boundary.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { Ajv2020 } from "ajv/dist/2020.js";

import { diff, editorOn, pkg } from "./helpers.mjs";

const { TOOL_NAMES } = pkg;

/** Asserts that every key of `expected` is in `actual` with the same value. */
function partial(expected, actual) {
  for (const [k, v] of Object.entries(expected)) {
    const d = diff(v, actual[k], `$.${k}`);
    assert.equal(d, null, `${d} in ${JSON.stringify(actual)}`);
  }
}

const demoTimeline = {
  tracks: [
    {
      trackId: "t10",
      type: "text",
      elements: [
        {
          elementId: "e20",
          ref: "text-1",
          type: "text",
          name: "Hello world",
          start: 0,
          end: 3,
          duration: 3,
          text: "Hello world",
          position: "top",
          textStyle: { fontSize: 80, color: "#ffffff", fontWeight: "bold" },
        },
      ],
    },
    {
      trackId: "t11",
      type: "effect",
      elements: [
        { elementId: "e21", ref: "effect-1", type: "effect", name: "Sepia", start: 4, end: 8, duration: 4, effectType: "sepia", params: { intensity: 60 } },
      ],
    },
    {
      trackId: "t12",
      type: "overlay",
      elements: [
        { elementId: "e22", ref: "clip-1", type: "image", assetId: "a4", name: "logo.png", start: 1, end: 4, duration: 3 },
        { elementId: "e23", ref: "sticker-1", type: "sticker", name: "Star", start: 5, end: 7, duration: 2, stickerId: "emoji:star", position: "top-right" },
      ],
    },
    {
      trackId: "t13",
      type: "main",
      name: "Main",
      elements: [
        { elementId: "e24", ref: "clip-2", type: "video", assetId: "a1", name: "intro.mp4", start: 0, end: 8, duration: 8, trimStart: 1 },
        { elementId: "e25", ref: "clip-3", type: "video", assetId: "a2", name: "broll.mp4", start: 8, end: 14, duration: 6 },
      ],
    },
    {
      trackId: "t14",
      type: "audio",
      elements: [{ elementId: "e26", ref: "clip-4", type: "audio", assetId: "a3", name: "music.mp3", start: 0, end: 12, duration: 12, volume: 0.8 }],
    },
  ],
  duration: 14,
};

// One successful call per tool on the demo fixture, with its exact output.
const successes = [
  [
    "list_project_assets",
    { filter: "unused" },
    {
      assets: [
        { id: "a5", name: "voiceover.wav", type: "audio", duration: 8, usedInTimeline: false },
        { id: "a6", name: "photo.jpg", type: "image", usedInTimeline: false },
        { id: "a7", name: "outro.mp4", type: "video", duration: 4, usedInTimeline: false },
      ],
    },
  ],
  ["list_timeline", undefined, demoTimeline],
  [
    "split",
    { times: [2.5] },
    {
      success: true,
      affectedElements: ["e20", "e22", "e24", "e26"],
      newElements: [
        { elementId: "e30", splitFrom: "e20", trackId: "t10", start: 2.5, end: 3 },
        { elementId: "e31", splitFrom: "e22", trackId: "t12", start: 2.5, end: 4 },
        { elementId: "e32", splitFrom: "e24", trackId: "t13", start: 2.5, end: 8 },
        { elementId: "e33", splitFrom: "e26", trackId: "t14", start: 2.5, end: 12 },
      ],
    },
  ],
  ["delete_timeline_elements", { elementIds: ["e25"] }, { success: true, deletedElements: ["e25"] }],
  [
    "cut_ranges",
    { ranges: [{ start: 4, end: 8 }], trackIds: ["t11", "t12"] },
    {
      success: true,
      ranges: [{ start: 4, end: 8 }],
      removedDuration: 4,
      removedElements: ["e21", "e23"],
      shortenedElements: [],
      newElements: [],
      shiftedElements: 0,
    },
  ],
  ["move_timeline_elements", { elementIds: ["e23"], start: 12 }, { success: true, movedElements: [{ elementId: "e23", trackId: "t12", start: 12, end: 14 }] }],
  ["add_text", { text: "Day one", start: 0, end: 2, position: "bottom", style: "subtitle" }, { elementId: "e30", trackId: "t31" }],
  ["update_text", { trackId: "t10", elementId: "e20", text: "Bye" }, { success: true, elementId: "e20" }],
  ["add_media_to_timeline", { assetId: "a2", startTime: 10, trackType: "overlay", duration: 3 }, { elementId: "e30", trackId: "t12" }],
  ["update_timeline_element_timing", { elementId: "e25", duration: 2 }, { success: true, elementId: "e25", trackId: "t13", start: 8, end: 10, duration: 2 }],
  ["delete_element", { trackId: "t12", elementId: "e22" }, { success: true }],
  ["set_volume", { trackId: "t14", elementId: "e26", volume: 0.5 }, { success: true, volume: 0.5 }],
  ["add_sticker", { stickerId: "flags:us", start: 1, end: 3, position: "top-left" }, null],
  ["add_graphic", { shape: "polygon", start: 1, end: 3, sides: 6, fill: "#00ff00" }, { elementId: "e30", trackId: "t31" }],
  ["list_stickers", { query: "france" }, { stickers: [{ id: "flags:FR", name: "France", provider: "flags" }], total: 1 }],
  ["list_effects", { query: "vintage" }, { effects: [{ id: "sepia", name: "Sepia", description: "Warm brown vintage tone." }] }],
  [
    "get_effect",
    { effectType: "vignette" },
    {
      id: "vignette",
      name: "Vignette",
      description: "Darkens the edges of the frame toward the corners.",
      params: [
        {
          key: "radius",
          label: "Radius",
          type: "number",
          default: 75,
          min: 10,
          max: 100,
          step: 1,
          description: "Where darkening starts, in percent of the centre-to-corner distance. Number between 10 and 100, step 1. Default: 75",
        },
        {
          key: "softness",
          label: "Softness",
          type: "number",
          default: 35,
          min: 5,
          max: 80,
          step: 1,
          description: "Width of the fade from clear to dark, in percent. Number between 5 and 80, step 1. Default: 35",
        },
      ],
    },
  ],
  ["apply_effect", { effectType: "blur", start: 0, end: 4, params: { intensity: 30 } }, { elementId: "e30", trackId: "t11", appliedParams: { intensity: 30 } }],
  ["update_effect", { elementId: "e21", params: { intensity: 40 } }, { success: true, elementId: "e21", appliedParams: { intensity: 40 } }],
  [
    "batch",
    {
      steps: [
        { tool: "split", args: { times: [5] } },
        { tool: "list_effects", args: { query: "blur" } },
      ],
    },
    null,
  ],
  ["get_element", { elementId: "clip-1" }, null],
  [
    "update_clip",
    { elementIds: ["clip-1"], scale: 0.5, position: { anchor: "top-right", margin: 40 } },
    {
      success: true,
      elements: [{ elementId: "e22", position: { x: 650, y: -230 }, scale: { x: 0.5, y: 0.5 }, rotation: 0, opacity: 1, blendMode: "normal", hidden: false }],
    },
  ],
  [
    "duplicate_elements",
    { elementIds: ["e23"], offset: 3 },
    { success: true, elements: [{ elementId: "e30", sourceId: "e23", trackId: "t12", start: 8, end: 10 }] },
  ],
  ["update_track", { trackId: "t14", muted: true }, { success: true, trackId: "t14", type: "audio", muted: true }],
  ["update_project", { background: "#1e1e1e" }, { success: true, background: { type: "color", color: "#1e1e1e" } }],
  ["move_track", { trackId: "t12", above: "t10" }, { success: true, trackId: "t12", index: 0, tracks: ["t12", "t10", "t11", "t13", "t14"] }],
  ["list_animatable_properties", { elementId: "e26" }, null],
  ["list_keyframes", { elementId: "e20" }, { elementId: "e20", duration: 3, properties: [] }],
  [
    "upsert_keyframe",
    { elementId: "text-1", property: "opacity", time: 0.5, value: 1 },
    {
      success: true,
      elementId: "e20",
      property: "opacity",
      keyframe: { keyframeId: "k30", time: 0.5, value: 1, interpolation: "linear" },
      keyframes: [{ keyframeId: "k30", time: 0.5, value: 1, interpolation: "linear" }],
    },
  ],
  ["check_timeline", {}, { findings: [] }],
  ["add_captions", { elementId: "e24", words: [{ start: 0.2, end: 0.6, text: "Hi" }] }, { trackIds: ["t31"], count: 1, start: 0.2, end: 1 }],
  ["import_subtitles", { format: "srt", text: "1\n00:00:01,000 --> 00:00:02,500\nHi\n" }, { trackIds: ["t31"], count: 1, start: 1, end: 2.5 }],
];

const readOnly = new Set([
  "list_project_assets",
  "list_timeline",
  "list_effects",
  "get_effect",
  "list_stickers",
  "get_element",
  "list_animatable_properties",
  "list_keyframes",
  "check_timeline",
]);

for (const [tool, args, expected] of successes) {
  test(`${tool} succeeds through callTool`, async () => {
    const editor = await editorOn();
    const before = JSON.stringify(editor.project());
    const out = await editor.callTool(tool, args);
    assert.equal(out.error, undefined, JSON.stringify(out));
    if (expected) assert.equal(diff(expected, out), null);
    if (readOnly.has(tool)) {
      assert.equal(JSON.stringify(editor.project()), before, "reads change nothing");
      assert.equal(editor.canUndo(), false);
    } else {
      assert.equal(editor.canUndo(), true, "an edit is one undo step");
      const after = JSON.stringify(editor.project().timeline);
      assert.equal(editor.undo(), true);
      assert.equal(editor.canUndo(), false, "exactly one step");
      assert.equal(JSON.stringify(editor.project().timeline), JSON.stringify(JSON.parse(before).timeline), "undo restores the exact timeline");
      assert.equal(editor.redo(), true);
      assert.equal(JSON.stringify(editor.project().timeline), after);
    }
  });
}

test("add_sticker and batch place what list_timeline then shows", async () => {
  const editor = await editorOn();
  const sticker = await editor.callTool("add_sticker", { stickerId: "flags:us", start: 1, end: 3, position: "top-left" });
  const batch = await editor.callTool("batch", {
    steps: [
      { tool: "split", args: { times: [5] } },
      { tool: "list_effects", args: { query: "blur" } },
    ],
  });
  assert.equal(batch.success, true);
  assert.deepEqual(
    batch.results.map((r) => r.tool),
    ["split", "list_effects"],
  );
  assert.deepEqual(
    batch.results[1].result.effects.map((e) => e.id),
    ["blur"],
  );
  const { tracks } = await editor.callTool("list_timeline");
  const placed = tracks.find((t) => t.trackId === sticker.trackId).elements.find((e) => e.elementId === sticker.elementId);
  partial({ type: "sticker", stickerId: "flags:us", start: 1, end: 3, position: "top-left" }, placed);
  assert.deepEqual(await editor.callTool("undo"), { success: true, undone: "batch: split, list_effects", canUndo: true, canRedo: true });
});

test("list_effects lists the seven effects", async () => {
  const editor = await editorOn();
  const { effects } = await editor.callTool("list_effects");
  assert.deepEqual(effects.map((e) => e.id).sort(), ["blur", "brightness-contrast", "grayscale", "invert", "saturation", "sepia", "vignette"]);
});

// The spec's error strings, one or more per tool; each failed call must change nothing.
const failures = [
  [
    "list_project_assets",
    { filter: "all", bogus: 1 },
    { error: 'unknown argument "bogus" for list_project_assets; expected: filter, type', code: "UNKNOWN_ARGUMENT" },
  ],
  ["list_timeline", {}, { error: "No active timeline", code: "NO_ACTIVE_TIMELINE" }, "no_timeline"],
  ["load_asset_context", { assetId: "missing" }, { error: "Asset not found", code: "ASSET_NOT_FOUND" }],
  ["split", { times: [] }, { error: "Invalid split times", code: "INVALID_SPLIT_TIMES" }],
  ["split", { times: [1] }, { error: "No timeline content", code: "NO_TIMELINE_CONTENT" }, "blank"],
  ["delete_timeline_elements", { elementIds: [] }, { error: "Invalid element ids", code: "INVALID_ELEMENT_IDS" }],
  ["delete_timeline_elements", { elementIds: ["e25", "e99"] }, { error: "Timeline elements not found: e99", code: "ELEMENTS_NOT_FOUND" }],
  ["move_timeline_elements", { elementIds: ["e22"], start: 0, targetTrackId: "t99" }, { error: "Target track not found: t99", code: "TARGET_TRACK_NOT_FOUND" }],
  [
    "move_timeline_elements",
    { elementIds: ["e26"], start: 0, targetTrackId: "t13" },
    { error: "Target track t13 is a main track and cannot hold audio elements", code: "INCOMPATIBLE_TRACK" },
  ],
  ["add_text", { text: "", start: 0, end: 2, position: "top" }, { error: "Text is required", code: "TEXT_REQUIRED" }],
  ["add_text", { text: "a", start: 3, end: 1, position: "top" }, { error: "Invalid time range", code: "INVALID_TIME_RANGE" }],
  ["update_text", { trackId: "t10", elementId: "e99", text: "x" }, { error: "Text element not found", code: "TEXT_ELEMENT_NOT_FOUND" }],
  ["update_text", { trackId: "t12", elementId: "e22", text: "x" }, { error: "Element is not text", code: "ELEMENT_NOT_TEXT" }],
  ["add_media_to_timeline", { assetId: "a99", startTime: 0, trackType: "main" }, { error: "Asset not found", code: "ASSET_NOT_FOUND" }],
  ["add_media_to_timeline", { assetId: "a3", startTime: 0, trackType: "main" }, { error: "Invalid track type for asset", code: "INVALID_TRACK_TYPE" }],
  [
    "add_media_to_timeline",
    { assetId: "a7", startTime: 0, trackType: "overlay", duration: 5 },
    { error: "Duration exceeds source duration", code: "DURATION_EXCEEDS_SOURCE" },
  ],
  ["update_timeline_element_timing", { elementId: "e25", end: 14, duration: 3 }, { error: "Conflicting timing values", code: "CONFLICTING_TIMING_VALUES" }],
  ["update_timeline_element_timing", { elementId: "e99", start: 1 }, { error: "Timeline element not found: e99", code: "TIMELINE_ELEMENT_NOT_FOUND" }],
  ["update_timeline_element_timing", { elementId: "e22", start: 4.5 }, { error: "Element e23 on track t12 is in the way (5s to 7s)", code: "OVERLAP" }],
  ["delete_element", { trackId: "t10", elementId: "e99" }, { error: "Element not found", code: "ELEMENT_NOT_FOUND" }],
  ["set_volume", { trackId: "t14", elementId: "e26", volume: 2 }, { error: "Volume must be between 0 and 1", code: "INVALID_VOLUME" }],
  ["set_volume", { trackId: "t10", elementId: "e20", volume: 0.5 }, { error: "Element does not support volume", code: "VOLUME_NOT_SUPPORTED" }],
  ["add_sticker", { stickerId: "nope", start: 0, end: 1, position: "center" }, { error: "Sticker not found", code: "STICKER_NOT_FOUND" }],
  ["list_stickers", { limit: 0 }, { error: 'Argument "limit" must be a whole number from 1 to 500', code: "INVALID_ARGUMENT" }],
  ["list_effects", { query: 3 }, { error: 'Argument "query" must be a string', code: "INVALID_ARGUMENT", argument: "query" }],
  ["get_effect", { effectType: "" }, { error: "Invalid effect type", code: "INVALID_EFFECT_TYPE" }],
  ["get_effect", { effectType: "nope" }, { error: "Effect not found: nope", code: "EFFECT_NOT_FOUND" }],
  [
    "apply_effect",
    { effectType: "blur", start: 0, end: 1, params: { intensity: 101 } },
    { error: "Parameter 'intensity' must be <= 100", code: "PARAMETER_OUT_OF_RANGE" },
  ],
  ["apply_effect", { effectType: "blur", start: 0, end: 1, params: { foo: 1 } }, { error: "Unknown parameter: foo", code: "UNKNOWN_PARAMETER" }],
  ["apply_effect", { effectType: "blur", start: 0, end: 1 }, { error: "No active timeline", code: "NO_ACTIVE_TIMELINE" }, "no_timeline"],
  ["update_effect", { elementId: "e20", params: { intensity: 1 } }, { error: "Element is not an effect", code: "ELEMENT_NOT_EFFECT" }],
  ["update_effect", { elementId: "e21", params: {} }, { error: "params is required and must be a non-empty object", code: "PARAMS_REQUIRED" }],
  ["undo", {}, { error: "Nothing to undo", code: "NOTHING_TO_UNDO" }],
  ["redo", {}, { error: "Nothing to redo", code: "NOTHING_TO_REDO" }],
  ["batch", { steps: [] }, { error: "Invalid batch steps", code: "INVALID_BATCH_STEPS" }],
  ["batch", { steps: [{ tool: "undo", args: {} }] }, { error: "Tool undo cannot run inside batch", code: "NOT_IN_BATCH", step: 0, tool: "undo" }],
  [
    "batch",
    {
      steps: [
        { tool: "split", args: { times: [5] } },
        { tool: "delete_timeline_elements", args: { elementIds: ["e99"] } },
      ],
    },
    { error: "Timeline elements not found: e99", code: "ELEMENTS_NOT_FOUND", step: 1, tool: "delete_timeline_elements" },
  ],
  ["remove_keyframe", { elementId: "e20", property: "opacity", time: 0 }, { error: "Keyframe not found: opacity at 0s", code: "KEYFRAME_NOT_FOUND" }],
  [
    "update_keyframe_curve",
    { elementId: "e20", property: "opacity", time: 0, easing: "ease-in" },
    { error: "Keyframe not found: opacity at 0s", code: "KEYFRAME_NOT_FOUND" },
  ],
  ["update_clip", { elementIds: ["e22"], opacity: 2 }, { error: 'Property "opacity" must be from 0 to 1', code: "PROPERTY_OUT_OF_RANGE" }],
  ["check_timeline", { start: 5, end: 3 }, { error: "Invalid time range", code: "INVALID_TIME_RANGE" }],
  ["export_subtitles", { format: "srt" }, { error: "No captions to export", code: "NO_CAPTIONS" }],
];

for (const [tool, args, expected, fixtureName] of failures) {
  test(`${tool} returns "${expected.error}"${fixtureName ? ` on ${fixtureName}` : ""}`, async () => {
    assert.ok(expected.error && expected.code, "every failure case pins its message and code");
    const editor = await editorOn(fixtureName ?? "demo");
    const before = JSON.stringify(editor.project());
    const out = await editor.callTool(tool, args);
    partial(expected, out);
    assert.equal(JSON.stringify(editor.project()), before, "a failed call changes nothing");
    assert.equal(editor.canUndo(), false, "and pushes no history");
  });
}

test("every tool is covered by a success or a failure case above", () => {
  const covered = new Set([...successes.map((s) => s[0]), ...failures.map((f) => f[0])]);
  assert.deepEqual(
    TOOL_NAMES.filter((t) => !covered.has(t)),
    [],
  );
});

// tests/cases/*.json through the package, with the checks tests/tool_cases.rs makes natively
// (fixture "none" needs Editor::empty(), which the JS API does not offer: a JS editor always has a
// project, so those cases stay with the Rust harness), including the rule that every element a
// case does not name is exactly as before (unnamedElementProblems). Outputs are validated against the
// outputSchema the package publishes (editor.tools()) with Ajv, a JSON Schema 2020-12 validator.
const ajv = new Ajv2020({ strict: false, allErrors: true });
const outputValidators = new Map(pkg.TOOL_CATALOG.map((t) => [t.name, ajv.compile(t.outputSchema)]));
const errorForm = ajv.compile({
  type: "object",
  properties: {
    error: { type: "string", minLength: 1 },
    code: { type: "string", pattern: "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$" },
    hint: { type: "string", minLength: 1 },
  },
  required: ["error", "code"],
});
const readOnlyTools = new Set(pkg.TOOL_CATALOG.filter((t) => t.annotations.readOnlyHint).map((t) => t.name));

/** Problems with a successful output against its tool's schema (and each batch step's). */
function schemaProblems(tool, out) {
  const validate = outputValidators.get(tool);
  if (!validate) return `no output schema for ${tool}`;
  if (!validate(out)) return `${tool} output does not match its output schema: ${ajv.errorsText(validate.errors)}`;
  if (tool === "batch") {
    for (const [i, step] of (out.results ?? []).entries()) {
      const p = schemaProblems(step.tool, step.result);
      if (p) return `batch results[${i}]: ${p}`;
    }
  }
  return null;
}

/** The history as the undo and redo tools report it ({ undo: labels oldest first, redo: count }),
 * probed by undoing everything and redoing it back, so the editor ends where it started. */
async function historyOf(editor) {
  const undone = [];
  for (;;) {
    const r = await editor.callToolUntyped("undo", {});
    if (r.error) break;
    undone.push(r.undone);
  }
  for (let i = 0; i < undone.length; i++) assert.equal((await editor.callToolUntyped("redo", {})).success, true, "history probe: redo");
  let redo = 0;
  while ((await editor.callToolUntyped("redo", {})).success) redo++;
  for (let i = 0; i < redo; i++) assert.equal((await editor.callToolUntyped("undo", {})).success, true, "history probe: undo");
  return { undo: undone.reverse(), redo };
}

async function snapshotOf(editor) {
  return { project: editor.project(), history: await historyOf(editor) };
}

function withoutNextId(project) {
  const { nextId, ...rest } = project;
  return rest;
}

const same = (a, b) => diff(a, b) === null;

/** The saved element `id` and the id of its track, or null. */
function savedElement(project, id) {
  for (const t of project.timeline?.tracks ?? []) {
    const e = t.elements.find((x) => x.id === id);
    if (e) return { track: t.id, element: { trimStart: 0, trimEnd: 0, ...e } };
  }
  return null;
}

/** Every saved element by id: { track, element } (zero trims read as 0), as savedElement. */
function savedElements(project) {
  const out = new Map();
  for (const t of project?.timeline?.tracks ?? []) {
    for (const e of t.elements) out.set(e.id, { track: t.id, element: { trimStart: 0, trimEnd: 0, ...e } });
  }
  return out;
}

// The saved fields list_timeline shows (src/tools/listing.rs), as LISTED_FIELDS in tests/tool_cases.rs.
// Not shown: trimEnd, retime (only its rate is listed), x, y, style, the transform, animations, locked, unmodelled fields.
const LISTED_FIELDS = new Set([
  "id",
  "type",
  "assetId",
  "name",
  "start",
  "duration",
  "hidden",
  "trimStart",
  "volume",
  "muted",
  "content",
  "position",
  "fontSize",
  "fontFamily",
  "color",
  "fontWeight",
  "fontStyle",
  "textAlign",
  "textDecoration",
  "background",
  "letterSpacing",
  "lineHeight",
  "backgroundPaddingX",
  "backgroundPaddingY",
  "backgroundOffsetX",
  "backgroundOffsetY",
  "backgroundCornerRadius",
  "stickerId",
  "effectType",
  "params",
]);

/** After a successful edit, the rule of tests/tool_cases.rs's check_unnamed_elements: an element
 * the case does not name is exactly as before (id, track, saved JSON; appearing or going is a
 * change); a named one differs only in the fields named (trackId for its track); in a case that
 * states the whole timeline every element counts as named for the fields list_timeline shows. */
function unnamedElementProblems(beforeProject, afterProject, named, wholeTimeline) {
  const [b, a] = [savedElements(beforeProject), savedElements(afterProject)];
  const problems = [];
  for (const id of [...new Set([...b.keys(), ...a.keys()])].sort()) {
    const [was, now] = [b.get(id), a.get(id)];
    if (was && now && was.track === now.track && same(was.element, now.element)) continue;
    const fields = named?.[id];
    if (fields === null) continue; // gone: checked with the named fields
    if (fields === undefined && !wholeTimeline) {
      problems.push(
        `element ${id}, which the case does not name, changed: before ${JSON.stringify(was ?? "absent")}, after ${JSON.stringify(now ?? "absent")}`,
      );
      continue;
    }
    if (!was || !now) continue; // new or gone: the named fields (or the stated timeline) say what it is
    const isNamed = (k) => (fields !== undefined && k in fields) || (wholeTimeline && LISTED_FIELDS.has(k));
    if (was.track !== now.track && !isNamed("trackId") && !wholeTimeline)
      problems.push(`element ${id} moved from ${was.track} to ${now.track}, and the case names no trackId`);
    for (const k of new Set([...Object.keys(was.element), ...Object.keys(now.element)])) {
      if (!isNamed(k) && !same(was.element[k], now.element[k])) {
        problems.push(`element ${id}.${k} changed (${JSON.stringify(was.element[k])} to ${JSON.stringify(now.element[k])}), and the case does not name it`);
      }
    }
  }
  return problems;
}

async function runCase(spec, c) {
  const tool = c.tool ?? spec.tool;
  const fixtureName = c.fixture ?? spec.fixture ?? "demo";
  // "effects": the effect types the host renders (createEditor's option), as the Rust harness.
  const options = c.effects !== undefined ? { effects: c.effects } : {};
  const editor = fixtureName === "new" ? await pkg.createEditor(options) : await editorOn(fixtureName, options);
  for (const s of c.setup ?? []) {
    const r = await editor.callToolUntyped(s.tool, s.args);
    // A step marked "fails": true must fail (to test what a failed call leaves behind).
    assert.equal(typeof r.error === "string", s.fails === true, `setup ${s.tool}: ${JSON.stringify(r)}`);
  }
  const before = await snapshotOf(editor);
  const out = await editor.callToolUntyped(tool, c.args);
  const after = await snapshotOf(editor);
  const failed = typeof out.error === "string";

  if ((c.expect === undefined) === (c.expectError === undefined)) assert.fail("a case needs expect or expectError, not both");
  if (c.expect !== undefined) {
    assert.equal(failed, false, `expected success, got ${JSON.stringify(out)}`);
    assert.equal(diff(c.expect, out), null);
    assert.equal(schemaProblems(tool, out), null);
  } else {
    assert.equal(failed, true, `expected an error, got ${JSON.stringify(out)}`);
    assert.ok("error" in c.expectError && "code" in c.expectError, "expectError needs error and code");
    for (const [k, v] of Object.entries(c.expectError)) assert.equal(diff(v, out[k], `$.${k}`), null, JSON.stringify(out));
    assert.ok(errorForm(out), `the error form: ${ajv.errorsText(errorForm.errors)}`);
  }

  const isEdit = !readOnlyTools.has(tool) && !["undo", "redo"].includes(tool);
  const hasState = c.timeline !== undefined || c.elements !== undefined || c.settings !== undefined;
  if (!failed && (isEdit || ["undo", "redo"].includes(tool))) {
    assert.ok(c.noop === true || hasState, "a successful edit needs the resulting state, or noop");
    if (c.noop) assert.ok(same(withoutNextId(after.project), withoutNextId(before.project)), "a case marked noop changed the project");
    else assert.ok(!same(withoutNextId(after.project), withoutNextId(before.project)), "the edit changed nothing: mark the case noop if that is right");
  } else {
    assert.equal(c.noop, undefined, "noop is only for successful edits");
  }

  if (failed || readOnlyTools.has(tool)) {
    assert.ok(same(after, before), `${failed ? "a failed" : "a read-only"} call changed the project or history`);
  } else if (isEdit) {
    assert.ok((after.project.nextId ?? 0) >= (before.project.nextId ?? 0), "nextId went back");
    // Only the settings a case states (update_project's) may change, and then to exactly those.
    for (const key of ["assets", "stickers", "settings", "format", "version"]) {
      if (key === "settings" && c.settings !== undefined) assert.equal(diff(c.settings, after.project.settings), null, "settings");
      else assert.ok(same(after.project[key], before.project[key]), `an edit changed the project's ${key}`);
    }
    if (same(withoutNextId(after.project), withoutNextId(before.project))) {
      assert.ok(same(after.history, before.history), "an edit that changed nothing touched the history");
    } else {
      assert.deepEqual(after.history.undo.slice(0, -1), before.history.undo, "exactly one new undo entry");
      assert.equal(after.history.undo.length, before.history.undo.length + 1, "exactly one new undo entry");
      assert.equal(after.history.redo, 0, "an edit clears redo");
      const label = after.history.undo.at(-1);
      assert.ok(tool === "batch" ? label.startsWith("batch: ") : label === tool, `undo label ${label} does not name the call`);
      assert.equal(editor.undo(), true);
      assert.ok(same(withoutNextId(editor.project()), withoutNextId(before.project)), "undo did not restore the previous project exactly");
      assert.equal(editor.redo(), true);
      assert.ok(same(editor.project(), after.project), "redo did not restore the edited project exactly");
    }
  } else if (tool === "undo") {
    assert.equal(after.history.undo.length + 1, before.history.undo.length, "undo moves exactly one entry");
    assert.equal(after.history.redo, before.history.redo + 1, "undo moves exactly one entry");
    assert.equal(editor.redo(), true);
    assert.ok(same(editor.project(), before.project), "redo did not reverse the undo exactly");
    editor.undo();
  } else if (tool === "redo") {
    assert.equal(after.history.undo.length, before.history.undo.length + 1, "redo moves exactly one entry");
    assert.equal(after.history.redo + 1, before.history.redo, "redo moves exactly one entry");
    assert.equal(editor.undo(), true);
    assert.ok(same(editor.project(), before.project), "undo did not reverse the redo exactly");
    editor.redo();
  }
  assert.ok(same(editor.project(), after.project), "the undo/redo round trip did not come back to the state after the call");
  // The saved project loads again and saves to the same JSON.
  const reloaded = await pkg.createEditor({ project: editor.project() });
  assert.equal(JSON.stringify(reloaded.project()), JSON.stringify(editor.project()), "saved project changes when reloaded");

  if (c.timeline !== undefined) assert.equal(diff(c.timeline, await editor.callTool("list_timeline")), null, "timeline");
  for (const [id, fields] of Object.entries(c.elements ?? {})) {
    const found = savedElement(editor.project(), id);
    if (fields === null) {
      assert.equal(found, null, `element ${id} should be gone`);
      continue;
    }
    assert.ok(found, `element ${id} not in the saved project`);
    const { trackId, ...rest } = fields;
    if (trackId !== undefined) assert.equal(found.track, trackId, `element ${id} is on the wrong track`);
    for (const [k, v] of Object.entries(rest)) {
      // A field given as null must be absent (the saved form leaves unset fields out).
      if (v === null) assert.equal(found.element[k], undefined, `element ${id}.${k}: expected absent`);
      else assert.equal(diff(v, found.element[k], `element ${id}.${k}`), null);
    }
  }
  if (!failed && !c.noop && (isEdit || ["undo", "redo"].includes(tool))) {
    assert.deepEqual(unnamedElementProblems(before.project, after.project, c.elements, c.timeline !== undefined), [], "what the case does not name");
  }
  if (c.undoLabels !== undefined) assert.deepEqual(after.history.undo, c.undoLabels);
}

const caseFiles = readdirSync(new URL("../cases/", import.meta.url))
  .filter((f) => f.endsWith(".json"))
  .sort();
for (const file of caseFiles) {
  const spec = JSON.parse(readFileSync(new URL(`../cases/${file}`, import.meta.url), "utf8"));
  const cases = spec.cases.filter((c) => (c.fixture ?? spec.fixture ?? "demo") !== "none");
  test(`tests/cases/${file}: ${cases.length} cases through the wasm boundary`, async () => {
    const failures = [];
    for (const c of cases) {
      try {
        await runCase(spec, c);
      } catch (e) {
        failures.push(`${c.name}: ${e.message}`);
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases in ${file} failed`);
  });
}
