// The check of every run that edited (docs/agent.md, "One undo step per message"): the in-page
// agent on the real proxy and the fake Gemini. A run that leaves a gap on the main track gets
// check_timeline's finding as a `check` event and, once, as a note to the model, which fixes it;
// a run that only reads, and an agent with checkTimeline: false, are not checked.
import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";

import { call, modelTurn } from "./fake-gemini.mjs";
import { resetFake, setup as setupOn, startStack } from "./agent-harness.mjs";

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});
beforeEach(() => resetFake(stack.fake));
const setup = (options) => setupOn(stack.proxy, options);

/** The text parts of the last user turn of a request. */
const lastUserText = (body) =>
  body.contents
    .at(-1)
    .parts.filter((p) => typeof p.text === "string")
    .map((p) => p.text)
    .join("");

test("a run that leaves a gap is checked: the finding goes to the host and once to the model, which fixes it", async () => {
  const { agent, editor, elementId, events } = await setup();
  let note;
  stack.fake.script.push(
    // Cuts the clip's first 3 s without closing the gap (a move would not do: the main track's
    // first clip starts at 0, as in OpenCut): the main track is empty from 0 to 3.
    modelTurn([call("cut_ranges", { ranges: [{ start: 0, end: 3 }], ripple: false })]),
    modelTurn([{ text: "Cut." }]),
    (body) => {
      note = lastUserText(body);
      return modelTurn([call("move_timeline_elements", { elementIds: [elementId], start: 0 })]);
    },
    modelTurn([{ text: "Moved it back to close the gap." }]),
  );
  const answer = await agent.send("Cut the first 3 s, leave the rest where it is.");
  assert.equal(answer, "Moved it back to close the gap.");
  const checks = events.filter((e) => e.type === "check");
  assert.equal(checks.length, 1, "checked once per run");
  const gap = checks[0].findings.find((f) => f.kind === "gap");
  assert.deepEqual([gap.start, gap.end], [0, 3]);
  assert.match(note, /^\[check_timeline, run by the editor after your edits\] It found:\n- gap 0–3 s/);
  assert.match(note, /Fix what your edits caused/);
  // The fix is in the same undo step as the cut.
  assert.equal(editor.project().timeline.tracks.flatMap((t) => t.elements)[0].start, 0);
  assert.equal(events.filter((e) => e.type === "done").length, 1);
});

test("a run that only reads is not checked; checkTimeline: false turns the check off", async () => {
  const reader = await setup();
  stack.fake.script.push(modelTurn([call("list_timeline", {})]), modelTurn([{ text: "One clip." }]));
  await reader.agent.send("What is there?");
  assert.equal(reader.events.filter((e) => e.type === "check").length, 0);

  const off = await setup({ agentOptions: { checkTimeline: false } });
  stack.fake.script.push(modelTurn([call("move_timeline_elements", { elementIds: [off.elementId], start: 3 })]), modelTurn([{ text: "Moved." }]));
  assert.equal(await off.agent.send("Move it."), "Moved.");
  assert.equal(off.events.filter((e) => e.type === "check").length, 0);
  assert.equal(stack.fake.script.length, 0, "no third model call: nothing was sent back");
});

test("a clean run is checked and nothing is sent back", async () => {
  const { agent, events } = await setup();
  const before = stack.fake.script.length;
  stack.fake.script.push(modelTurn([call("add_text", { text: "Hello", start: 1, end: 2, position: "center" })]), modelTurn([{ text: "Added." }]));
  assert.equal(await agent.send("Add a title."), "Added.");
  assert.deepEqual(
    events.filter((e) => e.type === "check").map((e) => e.findings),
    [[]],
  );
  assert.equal(stack.fake.script.length, before, "no more model calls than the two scripted");
});

test("the check's silence: the mix measured from the media, a clip's own pause and a muted or empty stretch", async () => {
  const { spawnSync } = await import("node:child_process");
  const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { createEditor } = await import("../../dist/index.js");
  const { mixSilences } = await import("../../dist/check/mix-silence.js");
  const dir = mkdtempSync(join(tmpdir(), "nc-mix-"));
  try {
    const wav = join(dir, "talk.wav");
    // Sound 0–1.5 and 3–4 s, a pause 1.5–3 s.
    const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc='if(lt(t,1.5)+gte(t,3),0.5*sin(2*PI*300*t),0)':s=48000:d=4", wav]);
    assert.equal(r.status, 0, String(r.stderr));
    const editor = await createEditor();
    const file = new Blob([readFileSync(wav)], { type: "audio/wav" });
    const still = editor.addAsset({ name: "card.png", type: "image", width: 16, height: 9 });
    const talk = editor.addAsset({ name: "talk.wav", type: "audio", duration: 4, file });
    await editor.callTool("add_media_to_timeline", { assetId: still, startTime: 0, trackType: "main", duration: 10 });
    await editor.callTool("add_media_to_timeline", { assetId: talk, startTime: 0, trackType: "audio" });
    const second = await editor.callTool("add_media_to_timeline", { assetId: talk, startTime: 6, trackType: "audio" });
    await editor.callTool("update_clip", { elementIds: [second.elementId], muted: true });
    // By hand: the pause 1.5–3 s; nothing placed 4–6 s and the muted copy 6–10 s: 4–10 s.
    const found = (await mixSilences(editor)).map((f) => [f.kind, f.start, f.end]);
    assert.equal(found.length, 2, JSON.stringify(found));
    const want = [
      ["silence", 1.5, 3],
      ["silence", 4, 10],
    ];
    found.forEach((f, i) => {
      assert.equal(f[0], want[i][0]);
      assert.ok(Math.abs(f[1] - want[i][1]) <= 0.02 && Math.abs(f[2] - want[i][2]) <= 0.02, JSON.stringify(found));
    });
    // Silence before the first clip that could sound and after the last is not a finding (a
    // title or an end card over silence): the same clips 2 s later, the card 14 s long.
    const later = await createEditor();
    const laterTalk = later.addAsset({ name: "talk.wav", type: "audio", duration: 4, file });
    const laterCard = later.addAsset({ name: "card.png", type: "image", width: 16, height: 9 });
    await later.callTool("add_media_to_timeline", { assetId: laterCard, startTime: 0, trackType: "main", duration: 14 });
    await later.callTool("add_media_to_timeline", { assetId: laterTalk, startTime: 2, trackType: "audio" });
    assert.deepEqual(
      (await mixSilences(later)).map((f) => [f.start, f.end]),
      [[3.5, 5]],
      "only the clip's own pause; 0-2 s and 6-14 s are its title and end card",
    );
    // Images and text only: nothing could sound, so silence is no finding.
    const quiet = await createEditor();
    const card = quiet.addAsset({ name: "card.png", type: "image", width: 16, height: 9 });
    await quiet.callTool("add_media_to_timeline", { assetId: card, startTime: 0, trackType: "main", duration: 5 });
    assert.deepEqual(await mixSilences(quiet), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
