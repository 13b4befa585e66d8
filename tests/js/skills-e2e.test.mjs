// Built-in skills run end to end: the in-page agent (built package, real proxy, fake Gemini)
// follows a recipe on media ffmpeg makes with pauses or cuts at known times. The fake model reads
// each tool's answer and acts on it as the recipe says. The timeline after the run is checked by
// hand and measured again.
// - remove-silences, in Node (a WAV decodes there): detect_silences, then one cut_ranges with
//   0.15 s of air each side; no pause of the recipe's length is left.
// - cut-to-scenes, in Chromium (video needs WebCodecs): detect_scenes, then one split at the cuts;
//   each shot is its own element, starting within a frame of its cut.
// - captions, in Node: add_captions on the clip (the host's transcriber stands for Whisper and
//   answers words at known times): captions at the word times mapped through the clip's trim.
// - speed, in Node: a talk at double speed with its pitch kept, then the gap after it closed;
//   its pause, measured again, sits at half its source time.
// The skills for the picture (masks, text-styling, canvas-background): skills-look-e2e.test.mjs.
//
// Needs `npm run build` first, ffmpeg (scripts/setup.sh) and Chromium.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { createEditor } from "../../dist/index.js";
import { createAgent } from "../../dist/agent/index.js";
import { detectSilencesTool } from "../../dist/detect-silences.js";
import { serveAndLaunch } from "./browser.mjs";
import { call, modelTurn } from "./fake-gemini.mjs";
import { browserFetch, MODEL, noWait, ORIGIN, resetFake, responses, startStack } from "./agent-harness.mjs";
import { root } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-skills-"));
let stack;
const chrome = serveAndLaunch(root);
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
    // The end-of-run check: an audio-only timeline has nothing on its main track.
    (body) => {
      checkNote = body.contents
        .at(-1)
        .parts.map((p) => p.text ?? "")
        .join("");
      return modelTurn([{ text: "Removed 2 pauses. The timeline is sound only, so no picture is intended." }]);
    },
  );
  let checkNote;
  const answer = await agent.send("Remove the silences.");
  assert.match(checkNote, /^\[check_timeline, run by the editor after your edits\] It found:\n- gap 0–5\.1 s/);
  assert.match(answer, /sound only/);
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

test("cut-to-scenes, end to end in Chromium: detect_scenes then one split; each shot its own element", async () => {
  // Red 1 s, a moving pattern 1.5 s, blue 1 s (VP8, 30 fps): cuts at 1 and 2.5 s.
  const path = join(dir, "shots.webm");
  const shots = ["color=red:s=320x180:r=30:d=1", "testsrc2=s=320x180:r=30:d=1.5", "color=blue:s=320x180:r=30:d=1"];
  const r = spawnSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    ...shots.flatMap((x) => ["-f", "lavfi", "-i", x]),
    "-filter_complex",
    "[0]format=yuv420p[a];[1]format=yuv420p[b];[2]format=yuv420p[c];[a][b][c]concat=n=3:v=1:a=0",
    "-c:v",
    "libvpx",
    "-b:v",
    "1M",
    path,
  ]);
  assert.equal(r.status, 0, String(r.stderr));
  let cuts;
  let split;
  // The browser test's page is served from its own port: a proxy that lets that origin in.
  const own = await startStack({ proxyOptions: { allowedOrigins: [ORIGIN, chrome.server.url] } });
  after(() => own.close());
  resetFake(own.fake);
  own.fake.script.push(
    modelTurn([call("load_skill", { name: "cut-to-scenes" })]),
    (body) => {
      assert.match(responses(body)[0].response.output.body, /detect_scenes/);
      return modelTurn([call("list_timeline", {})]);
    },
    (body) => {
      const clip = responses(body)[0].response.output.tracks.flatMap((t) => t.elements)[0];
      return modelTurn([call("detect_scenes", { elementId: clip.elementId })]);
    },
    (body) => {
      cuts = responses(body)[0].response.output;
      return modelTurn([call("split", { times: cuts.cuts })]);
    },
    (body) => {
      split = responses(body)[0].response;
      return modelTurn([{ text: "Split into 3 shots." }]);
    },
  );
  const page = await chrome.browser.newPage();
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    const pieces = await page.evaluate(
      async ({ b64, proxyUrl, model }) => {
        const { createEditor } = await import("/dist/index.js");
        const { createAgent } = await import("/dist/agent/index.js");
        const editor = await createEditor();
        const file = new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "shots.webm", { type: "video/webm" });
        const assetId = editor.addAsset({ name: "shots.webm", type: "video", duration: 3.5, width: 320, height: 180, file });
        await editor.callTool("add_media_to_timeline", { assetId, startTime: 0, trackType: "main" });
        const agent = createAgent({ editor, proxyUrl, model, sleep: async () => {} });
        await agent.send("Cut this at the scene changes.");
        return editor
          .project()
          .timeline.tracks.flatMap((t) => t.elements)
          .sort((a, b) => a.start - b.start)
          .map((e) => ({ start: e.start / 120000, end: (e.start + e.duration) / 120000, trim: (e.trimStart ?? 0) / 120000 }));
      },
      { b64: readFileSync(path).toString("base64"), proxyUrl: own.proxy.url, model: MODEL },
    );
    assert.equal(split.error, undefined, JSON.stringify(split));
    // The cuts in timeline seconds: the clip's start plus 1 and 2.5 s, within a frame.
    const start = pieces[0].start;
    assert.equal(cuts.timeBase, "timeline");
    assert.equal(cuts.cuts.length, 2, JSON.stringify(cuts));
    cuts.cuts.forEach((t, i) => assert.ok(Math.abs(t - (start + [1, 2.5][i])) <= 1 / 30 + 1e-6, JSON.stringify(cuts)));
    // Three elements, end to end, each shot's source from its cut.
    assert.equal(pieces.length, 3, JSON.stringify(pieces));
    const want = [
      [start, start + 1, 0],
      [start + 1, start + 2.5, 1],
      [start + 2.5, start + 3.5, 2.5],
    ];
    pieces.forEach((p, i) =>
      [p.start, p.end, p.trim].forEach((v, k) => assert.ok(Math.abs(v - want[i][k]) <= 1 / 30 + 1e-6, `piece ${i}: ${JSON.stringify(pieces)}`)),
    );
  } finally {
    await page.close();
  }
});

test("captions, end to end: add_captions on the clip transcribes it and places captions at its words' times, through the clip's trim", async () => {
  const base = await createEditor();
  const assetId = base.addAsset({ name: "talk.mp4", type: "video", duration: 10 });
  const placed = await base.callTool("add_media_to_timeline", { assetId, startTime: 0, trackType: "main" });
  // The clip plays source 1–9 s (trimmed 1 s at each end), as OpenCut's trim handles leave it.
  const project = base.project();
  Object.assign(project.timeline.tracks.flatMap((t) => t.elements)[0], { trimStart: TICKS, trimEnd: TICKS, duration: 8 * TICKS });
  const editor = await createEditor({ project });
  const words = [
    [1.2, 1.5, "Welcome"],
    [1.5, 1.7, "to"],
    [1.7, 2.1, "the"],
    [2.1, 2.6, "show."],
    [3.0, 3.4, "Today"],
    [3.4, 3.6, "we"],
    [3.6, 4.0, "cut."],
  ].map(([start, end, text]) => ({ start, end, text }));
  let transcribed = 0;
  const transcriber = async () => {
    transcribed++;
    return {
      language: "en",
      segments: [
        { start: 1.2, end: 2.6, text: "Welcome to the show.", words: words.slice(0, 4) },
        { start: 3.0, end: 4.0, text: "Today we cut.", words: words.slice(4) },
      ],
    };
  };
  const agent = createAgent({ editor, proxyUrl: stack.proxy.url, model: MODEL, fetch: browserFetch(), sleep: noWait, transcriber });
  let heard;
  resetFake(stack.fake);
  stack.fake.script.push(
    modelTurn([call("load_skill", { name: "captions" })]),
    (body) => {
      // The recipe names add_captions on the element, without words.
      assert.match(responses(body)[0].response.output.body, /add_captions/);
      return modelTurn([call("add_captions", { elementId: placed.elementId, maxCharsPerLine: 10, maxLines: 1 })]);
    },
    (body) => {
      heard = responses(body)[0].response.output;
      return modelTurn([{ text: `Added ${heard.count} captions.` }]);
    },
  );
  await agent.send("Caption the clip.");
  assert.equal(transcribed, 1);
  assert.deepEqual(heard, { trackIds: [heard.trackIds[0]], count: 4, start: 0.2, end: 3.4 });
  // Word times in timeline seconds: the clip starts at 0 with source 1 s, so each is 1 s earlier.
  // A line holds 10 characters; a sentence's end starts a new caption; 0.8 s at least, unless the
  // next caption's first word comes sooner.
  const captions = editor
    .project()
    .timeline.tracks.flatMap((t) => t.elements)
    .filter((e) => e.type === "text")
    .sort((a, b) => a.start - b.start)
    .map((e) => [e.name, e.content, e.start / TICKS, (e.start + e.duration) / TICKS]);
  assert.deepEqual(captions, [
    ["Caption 1", "Welcome to", 0.2, 0.7],
    ["Caption 2", "the show.", 0.7, 1.6],
    ["Caption 3", "Today we", 2, 2.6],
    ["Caption 4", "cut.", 2.6, 3.4],
  ]);
  // On a track of their own, on top.
  assert.equal(editor.project().timeline.tracks[0].id, heard.trackIds[0]);
  // One undo takes every caption back.
  editor.undo();
  assert.equal(
    editor
      .project()
      .timeline.tracks.flatMap((t) => t.elements)
      .filter((e) => e.type === "text").length,
    0,
  );
});

test("speed, end to end: update_clip at 2x keeping the pitch, the gap after it closed; the pause measured at half its time", async () => {
  // A 4 s talk with a pause from 2 to 3 s, then a 2 s outro on the same track.
  const wav = join(dir, "speed.wav");
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc='if(lt(t,2)+gte(t,3),0.5*sin(2*PI*330*t),0)':s=48000:d=4", wav]);
  assert.equal(r.status, 0, String(r.stderr));
  const editor = await createEditor();
  const file = new Blob([readFileSync(wav)], { type: "audio/wav" });
  const talk = editor.addAsset({ name: "talk.wav", type: "audio", duration: 4, file });
  const outro = editor.addAsset({ name: "outro.wav", type: "audio", duration: 2 });
  const a = await editor.callTool("add_media_to_timeline", { assetId: talk, startTime: 0, trackType: "audio" });
  const b = await editor.callTool("add_media_to_timeline", { assetId: outro, startTime: 4, trackType: "audio" });
  const agent = createAgent({ editor, proxyUrl: stack.proxy.url, model: MODEL, fetch: browserFetch(), sleep: noWait, checkTimeline: false });
  let sped;
  resetFake(stack.fake);
  stack.fake.script.push(
    modelTurn([call("load_skill", { name: "speed" })]),
    (body) => {
      assert.match(responses(body)[0].response.output.body, /"maintainPitch": true/);
      return modelTurn([call("list_timeline", {})]);
    },
    modelTurn([call("update_clip", { elementIds: [a.elementId], speed: 2, maintainPitch: true })]),
    (body) => {
      sped = responses(body)[0].response.output;
      // Step 5: the next element moves to the clip's new end.
      return modelTurn([call("move_timeline_elements", { elementIds: [b.elementId], start: sped.elements[0].end })]);
    },
    modelTurn([{ text: "The talk now plays at double speed (2 s), the outro right after it." }]),
  );
  const answer = await agent.send("Play the talk twice as fast, keep the voice natural, no gap.");
  assert.match(answer, /double speed/);
  assert.deepEqual(
    [sped.elements[0].speed, sped.elements[0].maintainPitch, sped.elements[0].start, sped.elements[0].end, sped.elements[0].duration],
    [2, true, 0, 2, 2],
  );
  // By hand: the talk 0–2 s at rate 2 keeping its pitch, its trims untouched; the outro 2–4 s.
  const els = editor.project().timeline.tracks.flatMap((t) => t.elements);
  const talkEl = els.find((e) => e.id === a.elementId);
  assert.deepEqual(
    [talkEl.start, talkEl.duration, talkEl.trimStart ?? 0, talkEl.trimEnd ?? 0, talkEl.retime],
    [0, 2 * TICKS, 0, 0, { rate: 2, maintainPitch: true }],
  );
  assert.deepEqual([els.find((e) => e.id === b.elementId).start, els.find((e) => e.id === b.elementId).duration], [2 * TICKS, 2 * TICKS]);
  // Measured again from the sound: the pause (source 2–3 s) plays 1–1.5 s on the timeline.
  const out = await detectSilencesTool(editor).call({ elementId: a.elementId, minDuration: 0.3 });
  assert.equal(out.silences.length, 1, JSON.stringify(out));
  assert.ok(Math.abs(out.silences[0].start - 1) <= 0.02 && Math.abs(out.silences[0].end - 1.5) <= 0.02, JSON.stringify(out));
  // One undo step takes the run back.
  editor.undo();
  assert.deepEqual(
    editor
      .project()
      .timeline.tracks.flatMap((t) => t.elements)
      .map((e) => [e.start, e.duration, e.retime ?? null]),
    [
      [0, 4 * TICKS, null],
      [4 * TICKS, 2 * TICKS, null],
    ],
  );
});
