// editor.effectsAt(seconds): the effect elements a host renders at a time, bottom to top, with
// every parameter filled in (the input neuralcut/effects' render takes).
import assert from "node:assert/strict";
import { test } from "node:test";

const { createEditor } = await import(process.env.NEURALCUT_DIST ? `${process.env.NEURALCUT_DIST}/index.js` : new URL("../../dist/index.js", import.meta.url));

test("effectsAt lists active effects bottom to top with their params", async () => {
  const ed = await createEditor();
  assert.deepEqual(ed.effectsAt(1), []);
  const blur = await ed.callTool("apply_effect", { effectType: "blur", start: 0, end: 2, params: { intensity: 30 } });
  const vignette = await ed.callTool("apply_effect", { effectType: "vignette", start: 1, end: 3, params: { radius: 40 } });
  const at = ed.effectsAt(1.5);
  assert.deepEqual(
    at.map((e) => [e.elementId, e.effectType, e.params]),
    [
      [blur.elementId, "blur", { intensity: 30 }],
      [vignette.elementId, "vignette", { radius: 40, softness: 35 }],
    ],
  );
  assert.deepEqual([at[0].start, at[0].end, at[0].trackId], [0, 2, blur.trackId]);
  // Half-open ranges: at 2 s the blur has ended.
  assert.deepEqual(
    ed.effectsAt(2).map((e) => e.effectType),
    ["vignette"],
  );
  assert.deepEqual(ed.effectsAt(3), []);
  // Undo removes it from what renders.
  ed.undo();
  assert.deepEqual(
    ed.effectsAt(1.5).map((e) => e.effectType),
    ["blur"],
  );
  assert.throws(
    () => ed.effectsAt(Number.NaN),
    (e) => e.code === "INVALID_SECONDS",
  );
});
