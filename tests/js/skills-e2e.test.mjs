// A built-in skill run end to end: the in-page agent (built package, real proxy, fake Gemini)
// follows the remove-silences recipe on a recording ffmpeg makes with pauses at known times. The
// fake model reads each tool's answer and acts on it as the recipe says (detect_silences, then
// one cut_ranges with 0.15 s of air each side). The timeline after the run is checked by hand
// and measured again: no pause of the recipe's length is left.
//
// Needs `npm run build` first and ffmpeg (scripts/setup.sh).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { createEditor } from "../../dist/index.js";
import { createAgent } from "../../dist/agent/index.js";
import { detectSilencesTool } from "../../dist/detect-silences.js";
import { call, modelTurn } from "./fake-gemini.mjs";
import { browserFetch, MODEL, noWait, resetFake, responses, startStack } from "./agent-harness.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-skills-"));
let stack;
before(async () => {
  stack = await startStack();
  resetFake(stack.fake);
});
after(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

const TICKS = 120_000;
const AIR = 0.15;

test("remove-silences, end to end: detect_silences then one cut_ranges; the pauses are gone and the speech stays", async () => {
  // Speech 0–2, 3.5–5 and 7–8 s; pauses 2–3.5 and 5–7 s; a short breath 7.6–7.8 s stays.
  const wav = join(dir, "talk.wav");
  const on = "lt(t,2)+between(t,3.5,5)+between(t,7,7.6)+between(t,7.8,8)";
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `aevalsrc='if(${on},0.5*sin(2*PI*220*t),0)':s=48000:d=8`, wav]);
  if (r.error?.code === "ENOENT") assert.fail("ffmpeg is not installed: run scripts/setup.sh");
  assert.equal(r.status, 0, String(r.stderr));
  const editor = await createEditor();
  const file = new Blob([readFileSync(wav)], { type: "audio/wav" });
  const assetId = editor.addAsset({ name: "talk.wav", type: "audio", duration: 8, file });
  const placed = await editor.callTool("add_media_to_timeline", { assetId, startTime: 0, trackType: "audio" });
  const agent = createAgent({
    editor,
    proxyUrl: stack.proxy.url,
    model: MODEL,
    fetch: browserFetch(),
    sleep: noWait,
    context: { sleep: noWait, pollIntervalMs: 1, maxWaitMs: 50 },
  });

  let found;
  let cut;
  stack.fake.script.push(
    modelTurn([call("load_skill", { name: "remove-silences" })]),
    (body) => {
      assert.match(responses(body)[0].response.output.body, /detect_silences/);
      return modelTurn([call("list_timeline", {})]);
    },
    (body) => {
      const clip = responses(body)[0].response.output.tracks.flatMap((t) => t.elements)[0];
      return modelTurn([call("detect_silences", { elementId: clip.elementId, minDuration: 0.6 })]);
    },
    (body) => {
      found = responses(body)[0].response.output;
      const ranges = found.silences.map((s) => ({ start: Math.round((s.start + AIR) * 1000) / 1000, end: Math.round((s.end - AIR) * 1000) / 1000 }));
      return modelTurn([call("cut_ranges", { ranges })]);
    },
    (body) => {
      cut = responses(body)[0].response;
      return modelTurn([{ text: "Removed 2 pauses." }]);
    },
  );
  await agent.send("Remove the silences.");
  assert.equal(cut.error, undefined, JSON.stringify(cut.error));

  // detect_silences measured the two pauses (the 0.2 s breath is under 0.6 s) within 20 ms.
  assert.equal(found.elementId, placed.elementId);
  assert.equal(found.silences.length, 2, JSON.stringify(found));
  for (const [s, [a, b]] of found.silences.map((s, i) => [
    s,
    [
      [2, 3.5],
      [5, 7],
    ][i],
  ])) {
    assert.ok(Math.abs(s.start - a) <= 0.02 && Math.abs(s.end - b) <= 0.02, JSON.stringify(found.silences));
  }
  // By hand: cuts 2.15–3.35 and 5.15–6.85 (1.2 s and 1.7 s), rippled, leave three pieces on one
  // track: source 0–2.15 at 0, source 3.35–5.15 at 2.15, source 6.85–8 at 3.95; 5.1 s in all.
  const pieces = editor
    .project()
    .timeline.tracks.flatMap((t) => t.elements)
    .sort((a, b) => a.start - b.start)
    .map((e) => [e.start / TICKS, (e.start + e.duration) / TICKS, (e.trimStart ?? 0) / TICKS]);
  const want = [
    [0, 2.15, 0],
    [2.15, 3.95, 3.35],
    [3.95, 5.1, 6.85],
  ];
  assert.equal(pieces.length, 3, JSON.stringify(pieces));
  pieces.forEach((p, i) => p.forEach((v, k) => assert.ok(Math.abs(v - want[i][k]) <= 0.021, `piece ${i}: ${JSON.stringify(pieces)}`)));
  // Measured again: each piece has no pause of 0.6 s or more; the breath stays (0.2 s).
  const tool = detectSilencesTool(editor);
  for (const e of editor.project().timeline.tracks.flatMap((t) => t.elements)) {
    const out = await tool.call({ elementId: e.id, minDuration: 0.6 });
    assert.deepEqual(out.silences, [], `${e.id}: ${JSON.stringify(out)}`);
  }
  const last = editor
    .project()
    .timeline.tracks.flatMap((t) => t.elements)
    .sort((a, b) => b.start - a.start)[0];
  // At 0.1 s the last piece shows the air kept before its speech and the breath, where they are.
  const breath = await tool.call({ elementId: last.id, minDuration: 0.1 });
  const shortOnes = [
    [3.95, 4.1],
    [4.7, 4.9],
  ];
  assert.equal(breath.silences.length, 2, JSON.stringify(breath));
  breath.silences.forEach((s, i) =>
    assert.ok(Math.abs(s.start - shortOnes[i][0]) <= 0.02 && Math.abs(s.end - shortOnes[i][1]) <= 0.02, JSON.stringify(breath)),
  );
  // One undo step takes the whole run back.
  editor.undo();
  assert.deepEqual(
    editor
      .project()
      .timeline.tracks.flatMap((t) => t.elements)
      .map((e) => [e.start, e.duration]),
    [[0, 8 * TICKS]],
  );
});
