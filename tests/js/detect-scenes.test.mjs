// detect_scenes on video ffmpeg makes here: hard cuts at known frames (VP8 in WebM and H.264 in
// MP4, decoded by WebCodecs in Chromium) found within one frame, in source seconds and, for a
// trimmed and retimed element, in timeline seconds computed by hand; no cut inside a steady
// shot, a fade or a pan; refusals; Node's clear refusal (no WebCodecs); `neuralcut mcp` with the
// official SDK client, which runs the tool in its headless Chromium.
//
// Needs `npm run build` first, ffmpeg (scripts/setup.sh) and Chromium.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { createEditor } from "../../dist/index.js";
import { detectScenesTool } from "../../dist/detect-scenes.js";
import { fileMedia } from "../../dist/media/target.js";
import { serveAndLaunch } from "./browser.mjs";
import { callOk, connectMcp } from "./mcp-client.mjs";
import { root } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-scenes-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const SIZE = "320x180";
const FPS = 30;

/** ffmpeg's lavfi `inputs` joined by `graph` into `name`, encoded with `codec`. */
function make(name, inputs, graph, codec) {
  const path = join(dir, name);
  const args = [
    "-v",
    "error",
    "-y",
    ...inputs.flatMap((i) => ["-f", "lavfi", "-i", i]),
    ...(graph ? ["-filter_complex", graph] : []),
    ...codec,
    "-pix_fmt",
    "yuv420p",
    path,
  ];
  const r = spawnSync("ffmpeg", args);
  if (r.error?.code === "ENOENT") assert.fail("ffmpeg is not installed: run scripts/setup.sh");
  assert.equal(r.status, 0, String(r.stderr));
  return readFileSync(path).toString("base64");
}

const VP8 = ["-c:v", "libvpx", "-b:v", "1M", "-g", "300"];
const H264 = ["-c:v", "libx264", "-g", "300"];
// Red 1 s, a moving test pattern 1.5 s, blue 1 s: cuts at frames 30 and 75.
const shots = [`color=red:s=${SIZE}:r=${FPS}:d=1`, `testsrc2=s=${SIZE}:r=${FPS}:d=1.5`, `color=blue:s=${SIZE}:r=${FPS}:d=1`];
const join3 = "[0]format=yuv420p[a];[1]format=yuv420p[b];[2]format=yuv420p[c];[a][b][c]concat=n=3:v=1:a=0";
const CUTS = [1.0, 2.5];
const FILES = {
  cutsVp8: { type: "video/webm", b64: make("cuts.webm", shots, join3, VP8) },
  cutsH264: { type: "video/mp4", b64: make("cuts.mp4", shots, join3, H264) },
  // The pattern fading to black over 2 s, then a fade up from black (no cut anywhere).
  fade: { type: "video/webm", b64: make("fade.webm", [`testsrc2=s=${SIZE}:r=${FPS}:d=4`], "[0]fade=t=out:st=0.5:d=1.5,fade=t=in:st=2.2:d=1.5", VP8) },
  // A pan across a wide pattern, 4 pixels a frame.
  pan: { type: "video/webm", b64: make("pan.webm", [`testsrc2=s=960x180:r=${FPS}:d=3`], "[0]crop=320:180:'t*120':0", VP8) },
  steady: { type: "video/webm", b64: make("steady.webm", [`color=green:s=${SIZE}:r=${FPS}:d=2`], "", VP8) },
};

const FRAME = 1 / FPS;
function near(got, want, where) {
  assert.equal(got.length, want.length, `${where}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
  got.forEach((t, i) => assert.ok(Math.abs(t - want[i]) <= FRAME + 1e-6, `${where}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`));
}

const chrome = serveAndLaunch(root);

/** Runs detect_scenes in the page on each file (an asset each) and on `element` calls. */
async function inPage(calls) {
  const page = await chrome.browser.newPage();
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    return await page.evaluate(
      async ({ files, calls }) => {
        const { createEditor } = await import("/dist/index.js");
        const { detectScenesTool } = await import("/dist/detect-scenes.js");
        const editor = await createEditor();
        for (const [id, { type, b64 }] of Object.entries(files)) {
          const file = new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], `${id}.${type.split("/")[1]}`, { type });
          editor.addAsset({ id, name: file.name, type: "video", duration: 4, width: 320, height: 180, file });
        }
        // cutsVp8 at 10 s on an overlay track (the main track's first clip would start at 0, as
        // in OpenCut), 0.5 s trimmed, at 2x: it plays source 0.5-3.5 s in 10-11.5 s.
        await editor.callTool("add_media_to_timeline", { assetId: "cutsVp8", startTime: 10, trackType: "overlay" });
        const project = editor.project();
        const el = project.timeline.tracks.flatMap((t) => t.elements).find((e) => e.assetId === "cutsVp8");
        Object.assign(el, { trimStart: 0.5 * 120000, duration: 1.5 * 120000, trimEnd: 0, retime: { rate: 2 } });
        // The retimed project, with the first editor's files (an editor keeps sources host-side).
        const placed = await createEditor({ project });
        const tool = detectScenesTool(editor);
        const out = {};
        for (const id of Object.keys(files)) out[id] = await tool.call({ assetId: id });
        out.element = await detectScenesTool({ project: () => placed.project(), assetSource: (id) => editor.assetSource(id) }).call({ elementId: el.id });
        out.elementId = el.id;
        for (const [name, args] of Object.entries(calls)) out[name] = await tool.call(args);
        return out;
      },
      { files: FILES, calls },
    );
  } finally {
    await page.close();
  }
}

test("Chromium: hard cuts within one frame (VP8 and H.264), none in a steady shot, a fade or a pan; an element in timeline seconds", async () => {
  const out = await inPage({ lower: { assetId: "fade", threshold: 0.02 }, bad: { assetId: "cutsVp8", threshold: 0 } });
  for (const id of ["cutsVp8", "cutsH264"]) {
    assert.deepEqual(Object.keys(out[id]), ["assetId", "timeBase", "fps", "duration", "cuts"], id);
    assert.equal(out[id].timeBase, "source");
    assert.equal(out[id].fps, FPS, id);
    assert.ok(Math.abs(out[id].duration - 3.5) <= FRAME, `${id} duration ${out[id].duration}`);
    near(out[id].cuts, CUTS, id);
  }
  for (const id of ["fade", "pan", "steady"]) assert.deepEqual(out[id].cuts, [], `${id}: ${JSON.stringify(out[id])}`);
  // Even a low threshold finds no cut in a fade: no frame stands out from the ones before it.
  assert.deepEqual(out.lower.cuts, [], `fade at 0.02: ${JSON.stringify(out.lower)}`);
  // Source 1.0 s plays at 10 + (1.0 - 0.5) / 2 = 10.25; source 2.5 s at 10 + 2.0 / 2 = 11.0.
  assert.equal(out.element.timeBase, "timeline");
  assert.equal(out.element.elementId, out.elementId);
  assert.equal(out.element.duration, 1.5);
  near(out.element.cuts, [10.25, 11.0], "element");
  assert.deepEqual(out.bad, { error: "threshold must be a number above 0, at most 1", code: "INVALID_ARGUMENT", argument: "threshold" });
});

test("refusals: an audio asset, an unknown element, both ids; the tool itself in Node cannot decode video and says so", async () => {
  const editor = await createEditor();
  editor.addAsset({ id: "song", name: "song.wav", type: "audio", duration: 2 });
  editor.addAsset({ id: "clip", name: "cuts.webm", type: "video", duration: 3.5, width: 320, height: 180 });
  const before = JSON.stringify(editor.project());
  const tool = detectScenesTool(
    editor,
    fileMedia((id) => (id === "clip" ? join(dir, "cuts.webm") : undefined)),
  );
  assert.deepEqual(await tool.call({ assetId: "song" }), {
    error: "Unsupported asset type",
    code: "UNSUPPORTED_ASSET_TYPE",
    hint: "detect_scenes takes a video asset.",
  });
  assert.deepEqual(await tool.call({ elementId: "nope" }), {
    error: "Element not found",
    code: "ELEMENT_NOT_FOUND",
    hint: "Call list_timeline to get element ids.",
  });
  assert.deepEqual(await tool.call({ assetId: "clip", elementId: "e1" }), { error: "Give assetId or elementId, not both", code: "INVALID_ARGUMENTS" });
  assert.deepEqual(await tool.call({ assetId: "clip", threshold: 2 }), {
    error: "threshold must be a number above 0, at most 1",
    code: "INVALID_ARGUMENT",
    argument: "threshold",
  });
  const unknown = await tool.call({ assetId: "clip", bogus: 1 });
  assert.equal(unknown.code, "UNKNOWN_ARGUMENT");
  const node = await tool.call({ assetId: "clip" });
  assert.equal(node.error, "Failed to decode video");
  assert.equal(node.code, "DECODE_FAILED");
  assert.match(node.details, /cannot decode its vp8 video/);
  assert.equal(JSON.stringify(editor.project()), before);
});

test("neuralcut mcp: detect_scenes on an imported WebM runs in headless Chromium (official SDK client)", async () => {
  const { client } = await connectMcp([]);
  try {
    const listed = (await client.listTools()).tools.find((t) => t.name === "detect_scenes");
    assert.equal(listed.annotations.readOnlyHint, true);
    const { assets } = await callOk(client, "media_import", { paths: [join(dir, "cuts.webm")] });
    const out = await callOk(client, "detect_scenes", { assetId: assets[0].id });
    assert.equal(out.fps, FPS);
    near(out.cuts, CUTS, "mcp");
    // A bad call is answered before any browser: the tool's own words.
    const bad = await client.callTool({ name: "detect_scenes", arguments: { assetId: assets[0].id, threshold: 0 } });
    assert.equal(bad.isError, true);
    assert.equal(bad.content[0].text, "threshold must be a number above 0, at most 1");
  } finally {
    await client.close();
  }
});
