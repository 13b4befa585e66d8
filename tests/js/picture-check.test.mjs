// The check of a run, judged from rendered frames (issue 33, check_timeline's `black` and
// `frozen`): in Chromium, the in-page agent (real proxy, fake Gemini) edits a timeline of
// ffmpeg-made clips and its end-of-run check draws the timeline with neuralcut/render. A clip
// that moves for 1 s and then holds its last frame for 3 s is found frozen from 1 s to 4 s, a
// black clip black from 4 s to 6 s, and nothing else: not the moving second, not a title over
// the empty canvas after it. The same timeline checked without a renderer has neither kind.
// `neuralcut mcp` (official SDK client) answers check_timeline with the same kinds, judged in
// headless Chromium, cut to the window asked for.
//
// Needs `npm run build` first, ffmpeg (scripts/setup.sh) and Chromium.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { serveAndLaunch } from "./browser.mjs";
import { call, modelTurn } from "./fake-gemini.mjs";
import { callOk, connectMcp } from "./mcp-client.mjs";
import { MODEL, ORIGIN, resetFake, startStack } from "./agent-harness.mjs";
import { root } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-picture-"));
const chrome = serveAndLaunch(root);
let stack;
after(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

function ffmpeg(name, args) {
  const path = join(dir, name);
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", ...args, "-c:v", "libvpx", "-b:v", "1M", path]);
  assert.equal(r.status, 0, String(r.stderr));
  return readFileSync(path).toString("base64");
}

// testsrc2 moves every frame; tpad clones its last frame for 3 s.
const frozen = ffmpeg("frozen.webm", ["-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=1", "-vf", "tpad=stop_mode=clone:stop_duration=3"]);
const black = ffmpeg("black.webm", ["-f", "lavfi", "-i", "color=black:s=160x90:r=30:d=2"]);

test("the run's check finds a frozen and a black stretch in the rendered frames, and nothing else", async () => {
  stack = await startStack({ proxyOptions: { allowedOrigins: [ORIGIN, chrome.server.url] } });
  resetFake(stack.fake);
  // Two runs, each one edit: a title after the clips (the check runs after an edit; it finds
  // the main track's gap under the title in both, so the model gets its note and answers).
  for (let i = 0; i < 2; i++)
    stack.fake.script.push(
      modelTurn([call("add_text", { text: "The end", start: 6, end: 7, position: "center" })]),
      modelTurn([{ text: "Added." }]),
      modelTurn([{ text: "The title over black is meant." }]),
    );
  const page = await chrome.browser.newPage();
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    const checks = await page.evaluate(
      async ({ frozen, black, proxyUrl, model }) => {
        const { createEditor } = await import("/dist/index.js");
        const { createAgent } = await import("/dist/agent/index.js");
        const { createFrameRenderer } = await import("/dist/render.js");
        const file = (b64, name) => new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type: "video/webm" });
        const editor = await createEditor();
        const a = editor.addAsset({ name: "frozen.webm", type: "video", duration: 4, width: 160, height: 90, file: file(frozen, "frozen.webm") });
        const b = editor.addAsset({ name: "black.webm", type: "video", duration: 2, width: 160, height: 90, file: file(black, "black.webm") });
        await editor.callTool("add_media_to_timeline", { assetId: a, startTime: 0, trackType: "main" });
        await editor.callTool("add_media_to_timeline", { assetId: b, startTime: 4, trackType: "main" });
        const out = [];
        for (const checkRenderer of [() => createFrameRenderer({ editor }), undefined]) {
          const events = [];
          const agent = createAgent({ editor, proxyUrl, model, permission: "allow", sleep: async () => {}, onEvent: (e) => events.push(e), checkRenderer });
          await agent.send("Add an end title.");
          await editor.undo();
          out.push(events.filter((e) => e.type === "check").map((e) => e.findings));
        }
        return out;
      },
      { frozen, black, proxyUrl: stack.proxy.url, model: MODEL },
    );
    const [withPictures, without] = checks;
    assert.equal(withPictures.length, 1, "one check per run");
    const pictures = withPictures[0].filter((f) => f.kind === "black" || f.kind === "frozen");
    assert.deepEqual(
      pictures.map((f) => f.kind),
      ["frozen", "black"],
      JSON.stringify(withPictures[0]),
    );
    const [still, dark] = pictures;
    // Within one sample step (0.25 s) of where the media change.
    assert.ok(Math.abs(still.start - 1) <= 0.25 && still.end === 4, `frozen ${still.start}–${still.end}`);
    assert.equal(still.elementIds.length, 1);
    assert.deepEqual([dark.start, dark.end], [4, 6]);
    assert.match(still.message, /does not change from/);
    assert.match(dark.message, /is black from 4 s to 6 s/);
    assert.deepEqual(
      without[0].filter((f) => f.kind === "black" || f.kind === "frozen"),
      [],
    );
  } finally {
    await page.close();
  }
});

test("neuralcut mcp: check_timeline adds the frozen and black stretches, judged in headless Chromium, cut to the window", async () => {
  const { client } = await connectMcp([]);
  try {
    const listed = (await client.listTools()).tools.filter((t) => t.name === "check_timeline");
    assert.equal(listed.length, 1, "listed once");
    assert.equal(listed[0].annotations.readOnlyHint, true);
    const { assets } = await callOk(client, "media_import", { paths: [join(dir, "frozen.webm"), join(dir, "black.webm")] });
    await callOk(client, "add_media_to_timeline", { assetId: assets[0].id, startTime: 0, trackType: "main" });
    await callOk(client, "add_media_to_timeline", { assetId: assets[1].id, startTime: 4, trackType: "main" });
    const whole = await callOk(client, "check_timeline", {});
    const pictures = whole.findings.filter((f) => f.kind === "black" || f.kind === "frozen");
    assert.deepEqual(
      pictures.map((f) => f.kind),
      ["frozen", "black"],
      JSON.stringify(whole),
    );
    assert.ok(Math.abs(pictures[0].start - 1) <= 0.25 && pictures[0].end === 4, JSON.stringify(pictures[0]));
    assert.deepEqual([pictures[1].start, pictures[1].end], [4, 6]);
    // From 5 s: the frozen stretch is outside, the black one starts at the window's edge.
    const late = await callOk(client, "check_timeline", { start: 5 });
    assert.deepEqual(
      late.findings.map((f) => [f.kind, f.start, f.end]),
      [["black", 5, 6]],
    );
    // A bad call is the engine's answer, before any browser.
    const bad = await client.callTool({ name: "check_timeline", arguments: { start: 3, end: 2 } });
    assert.equal(bad.isError, true);
  } finally {
    await client.close();
  }
});
