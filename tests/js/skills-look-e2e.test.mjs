// The skills for the picture run end to end: the in-page agent (built package, real proxy, fake
// Gemini) follows the recipe as the fake model reads each answer; the element after the run is
// compared whole with values worked out by hand, and the frame is drawn by neuralcut/render
// (Canvas2D, in Chromium, each asset a solid colour) and probed at pixels worked out from
// OpenCut's geometry.
// - masks: a guest clip made a circle picture-in-picture in a corner (update_clip's scale, anchor
//   and ellipse mask, the circle sized from the default's fractions); a mask keyframe is refused,
//   as the recipe says; drawn, the circle and its ring end 40 px in from the corner.
// - text-styling: a two-line lower third (add_text's OpenCut settings and box), moved to the lower
//   left with update_clip, its colour keyframed white then gold; drawn, its box sits where
//   OpenCut's padding (scaled by the font size) and the left alignment put it.
// - canvas-background: update_project's blur behind a vertical clip; drawn, the bars show the
//   clip blurred where they were black before.
// - shapes: a rounded lower-third bar (add_graphic) given a white inside outline (update_clip's
//   graphic); drawn, its fill, outline and cut-off corner where OpenCut's rectangle puts them.
//
// Needs `npm run build` first and Chromium.
import assert from "node:assert/strict";
import { after as afterAll, before as beforeAll, test } from "node:test";

import { createEditor } from "../../dist/index.js";
import { createAgent } from "../../dist/agent/index.js";
import { serveAndLaunch } from "./browser.mjs";
import { call, modelTurn } from "./fake-gemini.mjs";
import { browserFetch, MODEL, noWait, resetFake, responses, startStack } from "./agent-harness.mjs";
import { root } from "./helpers.mjs";

let stack;
const chrome = serveAndLaunch(root);
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const TICKS = 120_000;

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

/** Runs the in-page agent on `prompt` with the fake model's turns from `script(step)` (`step`
 * wraps a turn that checks what the agent sent); a failed check ends the run and is thrown. */
async function runSkill(editor, script, prompt) {
  const agent = createAgent({ editor, proxyUrl: stack.proxy.url, model: MODEL, fetch: browserFetch(), sleep: noWait });
  resetFake(stack.fake);
  const failures = [];
  stack.fake.script.push(...script(guard(failures, stack.fake)));
  const answer = await agent.send(prompt);
  if (failures.length > 0) throw failures[0];
  return answer;
}

/** The RGB at each [x, y] of `project`'s frame at `time`, drawn 960 wide in Chromium, each asset
 * a solid picture of its colour in `colours` (by asset id) at its own size. */
async function drawn(project, time, colours, probes) {
  const page = await chrome.browser.newPage();
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    return await page.evaluate(
      async ({ project, time, colours, probes }) => {
        const { createEditor } = await import("/dist/index.js");
        const { createFrameRenderer } = await import("/dist/render.js");
        const solid = (colour, w, h) => {
          const c = new OffscreenCanvas(w, h);
          const g = c.getContext("2d");
          g.fillStyle = colour;
          g.fillRect(0, 0, w, h);
          return c;
        };
        const shown = await createEditor({ project });
        const media = (l) => solid(colours[l.assetId], l.sourceWidth, l.sourceHeight);
        const r = await createFrameRenderer({ editor: shown, backend: "canvas2d", media });
        await r.render(time, { width: 960 });
        const p = await r.readPixels();
        r.destroy();
        return probes.map(([x, y]) => Array.from(p.slice((y * 960 + x) * 4, (y * 960 + x) * 4 + 3)));
      },
      { project, time, colours, probes: probes.map(([x, y]) => [x, y]) },
    );
  } finally {
    await page.close();
  }
}

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
  let defaults;
  let refused;
  const answer = await runSkill(
    editor,
    (step) => [
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
    ],
    "Put the guest in a circle in the bottom-right corner, with a white ring.",
  );
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
  const px = await drawn(editor.project(), 1, { [host]: "#00ff00", [guest]: "#ff0000" }, PIP_PROBES);
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
  let added;
  const answer = await runSkill(
    editor,
    (step) => [
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
    ],
    "Add a lower third for Ada Lovelace, mathematician, from 1 to 6 s; make it turn gold after two seconds.",
  );
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
  const px = await drawn(editor.project(), 2, { [host]: "#00ff00" }, BOX_PROBES);
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
  let set;
  let listed;
  const answer = await runSkill(
    editor,
    (step) => [
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
    ],
    "Fill the black bars beside the vertical clip.",
  );
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
  const bars = [
    [200, 270],
    [480, 270],
    [900, 100],
  ];
  const px = [await drawn(after, 1, { [tall]: "#ff0000" }, bars), await drawn(before, 1, { [tall]: "#ff0000" }, bars)];
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

test("shapes, end to end: a rounded lower-third bar (add_graphic) given a white inside outline (update_clip's graphic), drawn in Chromium", async () => {
  const editor = await createEditor();
  const clip = editor.addAsset({ name: "talk.mp4", type: "video", duration: 6, width: 1920, height: 1080 });
  await editor.callTool("add_media_to_timeline", { assetId: clip, startTime: 0, trackType: "main" });
  const before = editor.project();
  let added;
  const answer = await runSkill(
    editor,
    (step) => [
      modelTurn([call("load_skill", { name: "shapes" })]),
      step((body) => {
        const loaded = responses(body)[0].response;
        assert.equal(loaded.error, undefined, JSON.stringify(loaded.error));
        assert.match(loaded.output.body, /add_graphic/);
        return modelTurn([
          call("add_graphic", {
            shape: "rectangle",
            start: 0,
            end: 4,
            fill: "#1e3a8a",
            cornerRadius: 20,
            size: { width: 800, height: 160 },
            position: "bottom-left",
          }),
        ]);
      }),
      step((body) => {
        added = responses(body)[0].response;
        assert.equal(added.error, undefined, JSON.stringify(added.error));
        return modelTurn([call("update_clip", { elementIds: [added.output.elementId], graphic: { stroke: { color: "#ffffff", width: 8, align: "inside" } } })]);
      }),
      step((body) => {
        const set = responses(body)[0].response;
        assert.equal(set.error, undefined, JSON.stringify(set.error));
        return modelTurn([{ text: "Added a rounded bar with a white outline in the lower left." }]);
      }),
    ],
    "Put a rounded blue bar with a white outline in the lower left for the name.",
  );
  assert.match(answer, /rounded bar/);
  // By hand: 800 × 160 px is scale 800/1080 × 160/1080 of the 512 square fitted to the 1080 px
  // side; its centre 54 px (5 % of 1080) in from the corner: x = -(960 - 54 - 400), y = 540 - 54 - 80.
  const after = editor.project();
  const track = after.timeline.tracks.find((t) => t.elements.some((e) => e.type === "graphic"));
  assert.equal(track.id, added.output.trackId);
  assert.deepEqual(track.elements, [
    {
      id: added.output.elementId,
      type: "graphic",
      name: "Rectangle",
      start: 0,
      duration: 4 * TICKS,
      position: "bottom-left",
      x: -506,
      y: 406,
      definitionId: "rectangle",
      params: { fill: "#1e3a8a", stroke: "#ffffff", strokeWidth: 8, strokeAlign: "inside", cornerRadius: 20 },
      scaleX: 800 / 1080,
      scaleY: 160 / 1080,
    },
  ]);
  assert.deepEqual(
    after.timeline.tracks.filter((t) => t.id !== track.id),
    before.timeline.tracks,
  );

  // Drawn at half size: the bar spans x 27–427, y 433–513. The source's 8 px inside outline is
  // 8 × 800/512 = 12.5 px wide at full size, 6.25 here; the corner radius, 20/50 of half the
  // 512 side (102.4 source px), is 80 × 16 px here, so the bar's very corner shows the clip.
  const probes = [
    [227, 473],
    [30, 473],
    [28, 434],
    [60, 473],
  ];
  const px = await drawn(after, 1, { [clip]: "#00ff00" }, probes);
  const near = (got, want) => got.every((c, k) => Math.abs(c - want[k]) <= 16);
  assert.ok(near(px[0], BLUE), `fill: ${px[0]}`);
  assert.ok(near(px[1], WHITE), `outline: ${px[1]}`);
  assert.ok(near(px[2], GREEN), `corner: ${px[2]}`);
  assert.ok(near(px[3], BLUE), `inside the outline: ${px[3]}`);
  // The agent's message is one undo step: the bar and its outline go together.
  editor.undo();
  assert.deepEqual(editor.project().timeline, before.timeline);
});
