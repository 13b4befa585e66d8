// The panic-replay journal (js/engine.ts) keeps every read that can hand out readable references,
// so it must read a reference exactly as src/tools/refs.rs does: checked against refs.rs's own
// test list, against the engine itself on hostile forms, and end to end through a real panic.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const { createEditor } = await import(join(dist, "index.js"));
const { isReadableReference } = await import(join(dist, "engine.js"));
const PANIC = Symbol.for("neuralcut.testOnlyPanic");

test("isReadableReference agrees with every form refs.rs's own tests list", () => {
  const source = readFileSync(join(root, "src/tools/refs.rs"), "utf8");
  const forms = [...source.matchAll(/assert_eq!\(parse\("((?:[^"\\]|\\.)*)"\), (Some|None)/g)].map(([, s, kind]) => [JSON.parse(`"${s}"`), kind === "Some"]);
  assert.ok(forms.length >= 9, `refs.rs lists ${forms.length} forms`);
  for (const [s, parsed] of forms) assert.equal(isReadableReference(s), parsed, JSON.stringify(s));
});

test("isReadableReference agrees with the engine on hostile forms", async () => {
  const editor = await createEditor();
  const asset = editor.addAsset({ name: "clip.mp4", type: "video", duration: 10 });
  await editor.callTool("add_media_to_timeline", { assetId: asset, startTime: 0, trackType: "main" });
  const forms = [
    "clip-1",
    "Clip-1",
    "CLIP1",
    "clip1",
    "cLiP-2",
    " clip-1 ",
    "\tclip-1\n",
    "\u00a0clip-1",
    "\u2003clip-1\u3000",
    "\u0085clip-1",
    "\ufeffclip-1",
    "clip-0",
    "clip-01",
    "clip-",
    "clip",
    "clip--1",
    "clip-+1",
    "clip-1.0",
    "clip-1a",
    "clip 1",
    "clip_1",
    "clip-4294967295",
    "clip-4294967296",
    "clip-99999999999999999999",
    "video-1",
    "e24",
    "text-12",
    "TEXT3",
    "sticker2",
    "effect-1",
    "effect-٣",
    "clip-１",
    "cliptext-1",
    "ſticker-1",
    "",
  ];
  for (const s of forms) {
    // Read by the engine as a reference: resolved, or UNKNOWN_REFERENCE; otherwise judged as an id.
    const out = await editor.callToolUntyped("get_element", { elementId: s });
    const engine = out.elementId !== undefined || out.code === "UNKNOWN_REFERENCE" || out.code === "AMBIGUOUS_REFERENCE";
    assert.equal(isReadableReference(s), engine, `${JSON.stringify(s)}: engine answered ${JSON.stringify(out).slice(0, 120)}`);
  }
});

test("a read naming an element as Clip1 is journaled: after a panic the references are the ones handed out", async () => {
  const editor = await createEditor();
  const asset = editor.addAsset({ name: "clip.mp4", type: "video", duration: 10 });
  await editor.callTool("add_media_to_timeline", { assetId: asset, startTime: 0, trackType: "main" });
  await editor.callTool("add_media_to_timeline", { assetId: asset, startTime: 10, trackType: "main" });
  // The first sight of the elements, by a reference the old pattern ("clip-1" only) missed: it
  // numbers both clips (clip-1, clip-2) and changes nothing.
  const first = await editor.callToolUntyped("get_element", { elementId: "Clip1" });
  assert.equal(first.ref, "clip-1");
  // The split's right part is seen later: it gets clip-3, not a number between the two.
  assert.equal(typeof (await editor.callTool("split", { times: [4] })).error, "undefined");
  const before = await editor.callTool("list_timeline");
  const refs = (listing) => listing.tracks.flatMap((t) => t.elements.map((e) => `${e.elementId}=${e.ref}`));
  assert.throws(
    () => editor[PANIC]("list_timeline", {}, "provoked by the test"),
    (e) => e.code === "INTERNAL",
  );
  // Rebuilt by replaying the journal: the same references (a replay without the read would number
  // the split's piece clip-2 and the second clip clip-3).
  assert.deepEqual(refs(await editor.callTool("list_timeline")), refs(before));
});
