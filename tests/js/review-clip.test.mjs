// review_clip in Chromium: the in-page agent (real proxy, fake Gemini) renders a span of the
// timeline with neuralcut/export, uploads it with the user's consent and attaches it to the
// model's next turn. The uploaded file is decoded by ffmpeg (tests/js/decode.mjs): its length,
// size and sound are the span's. Refusals: a bad span, a declined upload. In Node (no video
// encoder) the tool is not offered.
//
// Needs `npm run build` first, ffmpeg (scripts/setup.sh) and Chromium.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { createEditor } from "../../dist/index.js";
import { createAgent } from "../../dist/agent/index.js";
import { serveAndLaunch } from "./browser.mjs";
import { loud, pcm, probe } from "./decode.mjs";
import { call, modelTurn } from "./fake-gemini.mjs";
import { MODEL, ORIGIN, resetFake, responses, startStack } from "./agent-harness.mjs";
import { root } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-review-"));
const chrome = serveAndLaunch(root);
let stack;
after(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("review_clip: the span rendered with its sound, uploaded with consent, attached to the next turn", async () => {
  stack = await startStack({ proxyOptions: { allowedOrigins: [ORIGIN, chrome.server.url] } });
  resetFake(stack.fake);
  // 3 s of a green picture with a 440 Hz tone (VP8 + Opus).
  const clipPath = join(dir, "clip.webm");
  const r = spawnSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "color=green:s=320x180:r=30:d=3",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=48000:duration=3",
    "-c:v",
    "libvpx",
    "-c:a",
    "libopus",
    "-shortest",
    clipPath,
  ]);
  assert.equal(r.status, 0, String(r.stderr));
  let attached;
  stack.fake.script.push(
    modelTurn([call("review_clip", { start: 0.5, end: 2, width: 320 }), call("review_clip", { start: 1, end: 40 })]),
    (body) => {
      const [ok, bad] = responses(body);
      attached = { result: ok.response.output, bad: bad.response.error, parts: body.contents.at(-1).parts };
      return modelTurn([{ text: "The cut plays well." }]);
    },
    // A second agent whose user declines uploads.
    modelTurn([call("review_clip", { start: 0, end: 1 })]),
    (body) => {
      attached.declined = responses(body)[0].response.error;
      return modelTurn([{ text: "I will look at stills." }]);
    },
  );
  const page = await chrome.browser.newPage();
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    const asked = await page.evaluate(
      async ({ b64, proxyUrl, model }) => {
        const { createEditor } = await import("/dist/index.js");
        const { createAgent } = await import("/dist/agent/index.js");
        const editor = await createEditor();
        const file = new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "clip.webm", { type: "video/webm" });
        const assetId = editor.addAsset({ name: "clip.webm", type: "video", duration: 3, width: 320, height: 180, file });
        await editor.callTool("add_media_to_timeline", { assetId, startTime: 0, trackType: "main" });
        const asked = [];
        const agent = createAgent({
          editor,
          proxyUrl,
          model,
          sleep: async () => {},
          confirm: (request) => {
            asked.push({ kind: request.kind, name: request.name, title: request.title });
            return true;
          },
        });
        await agent.send("Does the cut play well?");
        const declining = createAgent({ editor, proxyUrl, model, sleep: async () => {}, confirm: (request) => request.kind !== "upload" });
        await declining.send("And now?");
        return asked;
      },
      { b64: readFileSync(clipPath).toString("base64"), proxyUrl: stack.proxy.url, model: MODEL },
    );
    // The user was asked before the upload, as for any media.
    assert.deepEqual(
      asked.filter((a) => a.kind === "upload").map((a) => a.name),
      ["review_clip"],
    );
    assert.match(asked.find((a) => a.kind === "upload").title, /^Upload "timeline 00:00\.50–00:02\.00\.mp4" \(/);
    const { result, bad, parts } = attached;
    assert.deepEqual(bad, { error: "end must be after start, at most 30 s later", code: "INVALID_ARGUMENT", argument: "end" });
    assert.deepEqual(attached.declined, { error: "The user declined the upload", code: "DECLINED", hint: "Use render_preview to look at stills instead." });
    assert.deepEqual([result.start, result.end, result.width, result.height, result.mimeType], [0.5, 2, 320, 180, "video/mp4"]);
    // The next request carries the clip as fileData, after the answers: the agent sends the
    // proxy's handle (result.fileUri), which the proxy turns into the file Gemini knows.
    const file = parts.find((p) => p.fileData);
    assert.equal(file.fileData.mimeType, "video/mp4");
    const upload = stack.fake.uploads.find((u) => file.fileData.fileUri === `${stack.fake.url}/v1beta/${u.name}`);
    assert.ok(upload, `no upload is ${file.fileData.fileUri}`);
    assert.equal(stack.fake.uploads.length, 1, "one upload: none for the bad call, none declined");
    // What was uploaded is the span: 1.5 s at 320x180, with the tone's sound.
    assert.equal(upload.bytes.length, result.sizeBytes);
    const mp4 = join(dir, "uploaded.mp4");
    writeFileSync(mp4, upload.bytes);
    const [video, audio] = probe(mp4);
    assert.deepEqual([video.codec_type, video.width, video.height, audio?.codec_type], ["video", 320, 180, "audio"]);
    const seconds = Number(spawnSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", mp4]).stdout.toString());
    assert.ok(Math.abs(seconds - 1.5) < 0.1, `duration ${seconds}`);
    // ffmpeg's sine is 1/8 of full scale: -21 dBFS RMS, mixed at 0 dB.
    loud(pcm(mp4), 0.2, 1.2, -21.1, 2, "the tone in the clip");
  } finally {
    await page.close();
  }
});

test("review_clip is not offered where video cannot be encoded (Node)", async () => {
  const editor = await createEditor();
  const agent = createAgent({ editor, proxyUrl: "http://127.0.0.1:9/" });
  assert.ok(!agent.hostTools.some((t) => t.name === "review_clip"));
});
