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
// - masks, in Node: a guest clip made a circle picture-in-picture in a corner (update_clip's
//   scale, anchor and ellipse mask, the circle sized from the default's fractions); a mask
//   keyframe is refused, as the recipe says; the frame drawn in Chromium shows the circle and
//   its ring 40 px in from the corner.
// - text-styling, in Node: a two-line lower third (add_text's OpenCut settings and box), moved to
//   the lower left with update_clip, its colour keyframed white then gold; drawn in Chromium,
//   its box sits where OpenCut's padding (scaled by the font size) puts it.
// - canvas-background, in Node: update_project's blur behind a vertical clip; drawn in Chromium,
//   the bars show the clip blurred where they were black before.
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

// A script step that throws would leave the agent's request unanswered (the fake never replies)
// and the test hanging; this ends the run instead and keeps the failure for the test to throw.
function guard(failures, fake) {
  return (fn) => (body) => {
    try {
      return fn(body);
    } catch (e) {
      failures.push(e);
      fake.script.length = 0;
      return modelTurn([{ text: "(a script step failed)" }]);
    }
  };
}

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

const [GREEN, RED, WHITE] = [
  [0, 255, 0],
  [255, 0, 0],
  [255, 255, 255],
];
// [x, y, colour] on the masks run's frame at half size (the test works them out).
const PIP_PROBES = [
  [832, 412, RED], // the circle's centre
  [934, 412, RED], // just inside its right edge
  [946, 412, GREEN], // just outside it, past the guest's frame
  [832, 514, RED], // just inside its bottom
  [832, 526, GREEN], // below it
  [724, 412, WHITE], // the ring at its left end
  [732, 412, RED], // inside the ring
  [716, 412, GREEN], // the guest's frame outside the circle: the host shows
  [560, 310, GREEN], // the guest frame's top-left corner, masked away
  [100, 100, GREEN], // the host elsewhere
];

test("masks, end to end: a circle picture-in-picture as tall as the guest clip, in the bottom-right corner; masks take no keyframes", async () => {
  const editor = await createEditor();
  const host = editor.addAsset({ name: "host.mp4", type: "video", duration: 10, width: 1920, height: 1080 });
  const guest = editor.addAsset({ name: "guest.mp4", type: "video", duration: 10, width: 1920, height: 1080 });
  const main = await editor.callTool("add_media_to_timeline", { assetId: host, startTime: 0, trackType: "main" });
  const over = await editor.callTool("add_media_to_timeline", { assetId: guest, startTime: 0, trackType: "overlay" });
  const before = structuredClone(editor.project().timeline.tracks);
  const agent = createAgent({ editor, proxyUrl: stack.proxy.url, model: MODEL, fetch: browserFetch(), sleep: noWait });
  let defaults;
  let refused;
  resetFake(stack.fake);
  const failures = [];
  const step = guard(failures, stack.fake);
  stack.fake.script.push(
    modelTurn([call("load_skill", { name: "masks" })]),
    step((body) => {
      const loaded = responses(body)[0].response;
      assert.equal(loaded.error, undefined, JSON.stringify(loaded.error));
      assert.match(loaded.output.body, /"type": "ellipse"/);
      return modelTurn([call("list_timeline", {})]);
    }),
    step((body) => {
      const overlay = responses(body)[0].response.output.tracks.find((t) => t.type === "overlay").elements[0];
      // Step 4 as written: scaled down, anchored, a circle with a white ring.
      return modelTurn([
        call("update_clip", {
          elementIds: [overlay.elementId],
          scale: 0.4,
          position: { anchor: "bottom-right", margin: 40 },
          mask: { type: "ellipse", strokeWidth: 6, strokeColor: "#ffffff" },
        }),
      ]);
    }),
    modelTurn([call("get_element", { elementId: over.elementId })]),
    step((body) => {
      defaults = responses(body)[0].response.output.mask;
      const width = defaults.params.width / defaults.params.height;
      return modelTurn([
        call("update_clip", { elementIds: [over.elementId], mask: { type: "ellipse", height: 1, width, centerX: 0.5 - width / 2 } }),
        // Step 8: the recipe says masks take no keyframes; the tool agrees.
        call("upsert_keyframe", { elementId: over.elementId, property: "mask.width", time: 0, value: 0.5 }),
      ]);
    }),
    step((body) => {
      const [set, keyframe] = responses(body);
      assert.equal(set.response.error, undefined, JSON.stringify(set.response));
      refused = keyframe.response.error;
      return modelTurn([{ text: "The guest is now a circle in the bottom-right corner." }]);
    }),
  );
  const answer = await agent.send("Put the guest in a circle in the bottom-right corner, with a white ring.");
  if (failures.length > 0) throw failures[0];
  assert.match(answer, /circle/);
  // OpenCut's default square on a 768 × 432 element: 0.6 × 432 = 259.2 px, 0.3375 of its width.
  assert.equal(defaults.type, "ellipse");
  assert.ok(Math.abs(defaults.params.width - 0.3375) < 1e-12 && defaults.params.height === 0.6, JSON.stringify(defaults));
  assert.equal(refused.code, "PROPERTY_NOT_ANIMATABLE");
  // By hand: the guest at 0.4 is 768 × 432; anchored 40 px from the bottom-right, its centre is
  // at (960 − 40 − 384, 540 − 40 − 216). The circle is the clip's height, 432 px: 0.5625 of its
  // width, its centre 0.21875 of the width right of the clip's, so it ends at the clip's right
  // edge. The ring and the rest of the default stay; the mask keeps its id.
  const tracks = editor.project().timeline.tracks;
  const guestEl = tracks.flatMap((t) => t.elements).find((e) => e.id === over.elementId);
  // The width came from the default's fractions (0.3375 / 0.6 in binary): exact to 1e-12.
  const got = structuredClone(guestEl);
  const params = got.masks[0].params;
  for (const [k, v] of [
    ["width", 0.5625],
    ["centerX", 0.21875],
  ]) {
    assert.ok(Math.abs(params[k] - v) < 1e-12, `${k}: ${params[k]}`);
    params[k] = v;
  }
  assert.deepEqual(got, {
    id: over.elementId,
    type: "video",
    name: "guest.mp4",
    start: 0,
    duration: 10 * TICKS,
    assetId: guest,
    x: 536,
    y: 284,
    scaleX: 0.4,
    scaleY: 0.4,
    masks: [
      {
        id: guestEl.masks[0].id,
        type: "ellipse",
        params: {
          feather: 0,
          inverted: false,
          strokeColor: "#ffffff",
          strokeWidth: 6,
          strokeAlign: "center",
          centerX: 0.21875,
          centerY: 0,
          width: 0.5625,
          height: 1,
          rotation: 0,
          scale: 1,
        },
      },
    ],
  });
  assert.match(guestEl.masks[0].id, /^m/);
  // The host clip and the track order are as they were.
  assert.deepEqual(
    tracks.map((t) => t.id),
    before.map((t) => t.id),
  );
  assert.deepEqual(
    tracks.flatMap((t) => t.elements).find((e) => e.id === main.elementId),
    before.flatMap((t) => t.elements).find((e) => e.id === main.elementId),
  );
  // list_timeline names the shape.
  const listed = await editor.callTool("list_timeline", {});
  assert.equal(listed.tracks.flatMap((t) => t.elements).find((e) => e.elementId === over.elementId).mask, "ellipse");

  // Drawn (neuralcut/render, Canvas2D, in Chromium, at half size): the host green, the guest red.
  // On the canvas the circle's centre is (960 + 536 + 168, 540 + 284) = (1664, 824), radius 216:
  // at half size (832, 412), radius 108, its right edge at x 940 (40 px in from the canvas's
  // right at full size) and its bottom at y 520 (40 px up). The 6 px ring centred on the edge is
  // 3 px here: at the circle's left end (x 724) it is white.
  const page = await chrome.browser.newPage();
  let px;
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    px = await page.evaluate(
      async ({ project, host, probes }) => {
        const { createEditor } = await import("/dist/index.js");
        const { createFrameRenderer } = await import("/dist/render.js");
        const solid = (color) => {
          const c = new OffscreenCanvas(1920, 1080);
          const g = c.getContext("2d");
          g.fillStyle = color;
          g.fillRect(0, 0, 1920, 1080);
          return c;
        };
        const [green, red] = [solid("#00ff00"), solid("#ff0000")];
        const shown = await createEditor({ project });
        const r = await createFrameRenderer({ editor: shown, backend: "canvas2d", media: (l) => (l.assetId === host ? green : red) });
        await r.render(1, { width: 960 });
        const p = await r.readPixels();
        r.destroy();
        return probes.map(([x, y]) => Array.from(p.slice((y * 960 + x) * 4, (y * 960 + x) * 4 + 3)));
      },
      { project: editor.project(), host, probes: PIP_PROBES.map(([x, y]) => [x, y]) },
    );
  } finally {
    await page.close();
  }
  PIP_PROBES.forEach(([x, y, want], i) =>
    assert.ok(
      px[i].every((c, k) => Math.abs(c - want[k]) <= 16),
      `(${x}, ${y}): ${JSON.stringify(px[i])}, want ${JSON.stringify(want)}`,
    ),
  );

  // One undo takes the run back.
  editor.undo();
  assert.deepEqual(editor.project().timeline.tracks, before);
});

const BLUE = [0x1e, 0x3a, 0x8a];
// [x, y, colour] on the text-styling run's frame at half size (the test works them out).
const BOX_PROBES = [
  [80, 456, BLUE], // left of the text, in the box's padding
  [80, 440, BLUE],
  [72, 456, GREEN], // left of the box
  [80, 420, GREEN], // above it
  [80, 492, GREEN], // below it
];

test("text-styling, end to end: a lower third (two lines, left-aligned, a blue box) moved to the lower left, its colour keyframed", async () => {
  const editor = await createEditor();
  const host = editor.addAsset({ name: "host.mp4", type: "video", duration: 8, width: 1920, height: 1080 });
  await editor.callTool("add_media_to_timeline", { assetId: host, startTime: 0, trackType: "main" });
  const agent = createAgent({ editor, proxyUrl: stack.proxy.url, model: MODEL, fetch: browserFetch(), sleep: noWait });
  let added;
  resetFake(stack.fake);
  const failures = [];
  const step = guard(failures, stack.fake);
  stack.fake.script.push(
    modelTurn([call("load_skill", { name: "text-styling" })]),
    step((body) => {
      const loaded = responses(body)[0].response;
      assert.equal(loaded.error, undefined, JSON.stringify(loaded.error));
      assert.match(loaded.output.body, /lower third/);
      // Step 5 as written.
      return modelTurn([
        call("add_text", {
          text: "Ada Lovelace\nMathematician",
          start: 1,
          end: 6,
          position: "bottom",
          style: "label",
          textAlign: "left",
          fontSize: 40,
          lineHeight: 1.3,
          color: "#ffffff",
          background: { color: "#1e3a8a", paddingX: 72, paddingY: 36, cornerRadius: 20 },
        }),
      ]);
    }),
    step((body) => {
      added = responses(body)[0].response.output;
      return modelTurn([call("update_clip", { elementIds: [added.elementId], position: { anchor: "bottom-left", margin: 60 } })]);
    }),
    // Step 6: white, then gold from 2 s into the element, held.
    modelTurn([
      call("upsert_keyframe", { elementId: "text-1", property: "color", time: 0, value: "#ffffff", interpolation: "hold" }),
      call("upsert_keyframe", { elementId: "text-1", property: "color", time: 2, value: "#fbbf24" }),
    ]),
    step((body) => {
      for (const r of responses(body)) assert.equal(r.response.error, undefined, JSON.stringify(r.response));
      return modelTurn([{ text: "Added the lower third for Ada Lovelace, turning gold at 3 s." }]);
    }),
  );
  const answer = await agent.send("Add a lower third for Ada Lovelace, mathematician, from 1 to 6 s; make it turn gold after two seconds.");
  if (failures.length > 0) throw failures[0];
  assert.match(answer, /lower third/);
  // By hand: a text element 1–6 s on a new text track on top. The label preset (bold) under the
  // settings given; the box on in #1e3a8a. update_clip counts text as a box a fifth of the
  // canvas's shorter side (216 px), so 60 px in from the bottom-left its position is
  // (−(960 − 60 − 108), 540 − 60 − 108): with textAlign left, the text's left edge.
  const tracks = editor.project().timeline.tracks;
  assert.deepEqual(
    tracks.map((t) => [t.id, t.type]),
    [
      [added.trackId, "text"],
      ["t1", "main"],
    ],
  );
  const { animations, ...el } = tracks[0].elements[0];
  assert.equal(tracks[0].elements.length, 1);
  assert.deepEqual(el, {
    id: added.elementId,
    type: "text",
    name: "Ada Lovelace\nMathematician",
    start: TICKS,
    duration: 5 * TICKS,
    content: "Ada Lovelace\nMathematician",
    style: "label",
    position: "bottom-left",
    x: -792,
    y: 372,
    fontSize: 40,
    color: "#ffffff",
    fontWeight: "bold",
    background: "#1e3a8a",
    textAlign: "left",
    lineHeight: 1.3,
    backgroundPaddingX: 72,
    backgroundPaddingY: 36,
    backgroundCornerRadius: 20,
  });
  // The colour's keyframes as the tools read them back: white held until 2 s, then gold.
  const got = await editor.callTool("get_element", { elementId: added.elementId });
  assert.deepEqual(
    got.keyframes.flatMap((p) => p.keyframes.map((k) => [p.property, k.time, k.value, k.interpolation])),
    [
      ["color", 0, "#ffffff", "hold"],
      ["color", 2, "#fbbf24", "linear"],
    ],
  );
  // Stored as OpenCut stores a colour's keyframes: a channel each for r, g, b, a in linear light
  // (the sRGB curve undone), times in ticks from the element's start, hold as a step.
  const linear = (hex) => {
    const c = Number.parseInt(hex, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const want = { r: [1, linear("fb")], g: [1, linear("bf")], b: [1, linear("24")], a: [1, 1] };
  assert.deepEqual(Object.keys(animations), ["color"]);
  assert.deepEqual(Object.keys(animations.color), ["r", "g", "b", "a"]);
  for (const [ch, values] of Object.entries(want)) {
    const keys = animations.color[ch].keys;
    assert.deepEqual(
      keys.map((k) => [k.time, k.segmentToNext]),
      [
        [0, "step"],
        [2 * TICKS, "linear"],
      ],
      ch,
    );
    keys.forEach((k, i) => assert.ok(Math.abs(k.value - values[i]) < 1e-9, `${ch}: ${JSON.stringify(keys)}`));
  }
  // Drawn at half size over a green host: OpenCut's box padding is 72 and 36 at its default size
  // (a sixth of 1080: 180 px), 16 and 8 px at 40 px. The left-aligned block starts at x 168 and
  // spans y 860–964 (two lines of 40 × 1.3), so the box is x ≥ 152, y 852–972: at half size
  // x ≥ 76, y 426–486. Probed left of the text, where no glyph is.
  const page = await chrome.browser.newPage();
  let px;
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    px = await page.evaluate(
      async ({ project, probes }) => {
        const { createEditor } = await import("/dist/index.js");
        const { createFrameRenderer } = await import("/dist/render.js");
        const green = new OffscreenCanvas(1920, 1080);
        const g = green.getContext("2d");
        g.fillStyle = "#00ff00";
        g.fillRect(0, 0, 1920, 1080);
        const shown = await createEditor({ project });
        const r = await createFrameRenderer({ editor: shown, backend: "canvas2d", media: () => green });
        await r.render(2, { width: 960 });
        const p = await r.readPixels();
        r.destroy();
        return probes.map(([x, y]) => Array.from(p.slice((y * 960 + x) * 4, (y * 960 + x) * 4 + 3)));
      },
      { project: editor.project(), probes: BOX_PROBES },
    );
  } finally {
    await page.close();
  }
  BOX_PROBES.forEach(([x, y, want], i) =>
    assert.ok(
      px[i].every((c, k) => Math.abs(c - want[k]) <= 16),
      `(${x}, ${y}): ${JSON.stringify(px[i])}, want ${JSON.stringify(want)}`,
    ),
  );
  editor.undo();
  assert.equal(
    editor
      .project()
      .timeline.tracks.flatMap((t) => t.elements)
      .filter((e) => e.type === "text").length,
    0,
  );
});

test("canvas-background, end to end: a vertical clip's bars filled with the blurred clip (update_project blur 200), drawn in Chromium", async () => {
  const editor = await createEditor();
  const tall = editor.addAsset({ name: "tall.mp4", type: "video", duration: 6, width: 1080, height: 1920 });
  await editor.callTool("add_media_to_timeline", { assetId: tall, startTime: 0, trackType: "main" });
  const before = editor.project();
  const agent = createAgent({ editor, proxyUrl: stack.proxy.url, model: MODEL, fetch: browserFetch(), sleep: noWait });
  let set;
  let listed;
  resetFake(stack.fake);
  const failures = [];
  const step = guard(failures, stack.fake);
  stack.fake.script.push(
    modelTurn([call("load_skill", { name: "canvas-background" })]),
    step((body) => {
      const loaded = responses(body)[0].response;
      assert.equal(loaded.error, undefined, JSON.stringify(loaded.error));
      assert.match(loaded.output.body, /"blurIntensity": 200/);
      return modelTurn([call("update_project", { background: { type: "blur", blurIntensity: 200 } })]);
    }),
    step((body) => {
      set = responses(body)[0].response;
      return modelTurn([call("list_timeline", {})]);
    }),
    step((body) => {
      listed = responses(body)[0].response.output;
      return modelTurn([{ text: "The bars now show the clip, blurred." }]);
    }),
  );
  const answer = await agent.send("Fill the black bars beside the vertical clip.");
  if (failures.length > 0) throw failures[0];
  assert.match(answer, /blurred/);
  assert.deepEqual(set.output, { success: true, background: { type: "blur", blurIntensity: 200 } });
  assert.deepEqual(listed.background, { type: "blur", blurIntensity: 200 });
  // By hand: the settings gain the background and nothing else changes; the timeline is as it was.
  const after = editor.project();
  assert.deepEqual(after.settings, { ...before.settings, background: { type: "blur", blurIntensity: 200 } });
  assert.deepEqual(after.timeline, before.timeline);

  // Drawn at half size: the clip (red, 1080 × 1920) is fitted to 607.5 × 1080, x 656–1264 at full
  // size, 328–632 here. Under it the same picture covers the canvas, blurred (σ 40 px): a solid
  // red stays red, so the bar at x 200 is red; with the default black background it is black.
  const page = await chrome.browser.newPage();
  let px;
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    px = await page.evaluate(
      async (projects) => {
        const { createEditor } = await import("/dist/index.js");
        const { createFrameRenderer } = await import("/dist/render.js");
        const red = new OffscreenCanvas(1080, 1920);
        const g = red.getContext("2d");
        g.fillStyle = "#ff0000";
        g.fillRect(0, 0, 1080, 1920);
        const out = [];
        for (const project of projects) {
          const shown = await createEditor({ project });
          const r = await createFrameRenderer({ editor: shown, backend: "canvas2d", media: () => red });
          await r.render(1, { width: 960 });
          const p = await r.readPixels();
          r.destroy();
          out.push(
            [
              [200, 270],
              [480, 270],
              [900, 100],
            ].map(([x, y]) => Array.from(p.slice((y * 960 + x) * 4, (y * 960 + x) * 4 + 3))),
          );
        }
        return out;
      },
      [after, before],
    );
  } finally {
    await page.close();
  }
  const near = (got, want) => got.every((c, k) => Math.abs(c - want[k]) <= 16);
  const [blurred, plain] = px;
  assert.ok(
    blurred.every((c) => near(c, RED)),
    `with the blur: ${JSON.stringify(blurred)}`,
  );
  assert.ok(near(plain[1], RED) && near(plain[0], [0, 0, 0]) && near(plain[2], [0, 0, 0]), `without: ${JSON.stringify(plain)}`);
  editor.undo();
  assert.deepEqual(editor.project().settings, before.settings);
});
