// detect_silences on media ffmpeg makes here, with tones and silences at known times: source
// seconds for an asset, timeline seconds for a trimmed and retimed element (hand-computed), every
// channel heard, each refusal; through the package API in Node (PCM), `neuralcut mcp` with the
// official SDK client, and Chromium decoding Opus and AAC with WebCodecs.
//
// Needs `npm run build` first, ffmpeg (scripts/setup.sh) and Chromium.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { createEditor } from "../../dist/index.js";
import { detectSilencesTool } from "../../dist/detect-silences.js";
import { fileMedia } from "../../dist/media/target.js";
import { serveAndLaunch } from "./browser.mjs";
import { callOk, connectMcp } from "./mcp-client.mjs";
import { root } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-silences-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `seconds` whose channels sound (a 440 Hz sine at -6 dBFS) where `on(t)` says. */
function tones(name, { rate, seconds, channels }, extra = []) {
  const path = join(dir, name);
  const expr = channels.map((on) => `if(${on},0.5*sin(2*PI*440*t),0)`).join("|");
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `aevalsrc='${expr}':s=${rate}:d=${seconds}`, ...extra, path]);
  if (r.error?.code === "ENOENT") assert.fail("ffmpeg is not installed: run scripts/setup.sh");
  assert.equal(r.status, 0, String(r.stderr));
  return path;
}

// Sound 0–1, 1.8–2.1 and 2.3–3.3 s; silent 1–1.8, 2.1–2.3 (shorter than 0.5 s) and 3.3–4.5 s.
const SPEECH = "lt(t,1)+between(t,1.8,2.1)+between(t,2.3,3.3)";
const SPEECH_SILENCES = [
  [1.0, 1.8],
  [3.3, 4.5],
];
const mono48 = tones("mono48.wav", { rate: 48000, seconds: 4.5, channels: [SPEECH] });
// 44.1 kHz stereo: both channels 0–1 s, only the right one 2–3 s; silent 1–2 and 3–4 s.
const stereo44 = tones("stereo44.wav", { rate: 44100, seconds: 4, channels: ["lt(t,1)", "lt(t,1)+between(t,2,3)"] });

const TOLERANCE = 0.02;
function near(got, want, where) {
  assert.equal(got.length, want.length, `${where}: ${JSON.stringify(got)}`);
  got.forEach((s, i) => {
    assert.ok(
      Math.abs(s.start - want[i][0]) <= TOLERANCE && Math.abs(s.end - want[i][1]) <= TOLERANCE,
      `${where}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`,
    );
  });
}

const TICKS = 120_000;

/** An editor with both WAVs and an image, the mono one placed at 10 s with a 0.5 s trim at
 * 2× speed (it plays source 0.5–3.5 s in timeline 10–11.5 s), the stereo one at 0 s. */
async function editorWithMedia() {
  const base = await createEditor();
  const mono = base.addAsset({ id: "mono", name: "mono48.wav", type: "audio", duration: 4.5 });
  const stereo = base.addAsset({ id: "stereo", name: "stereo44.wav", type: "audio", duration: 4 });
  base.addAsset({ id: "still", name: "still.png", type: "image", width: 16, height: 9 });
  const placed = await base.callToolUntyped("add_media_to_timeline", { assetId: stereo, startTime: 0, trackType: "audio" });
  assert.equal(typeof placed.error, "undefined", JSON.stringify(placed));
  const second = await base.callToolUntyped("add_media_to_timeline", { assetId: mono, startTime: 10, trackType: "audio" });
  assert.equal(typeof second.error, "undefined", JSON.stringify(second));
  const project = base.project();
  const el = project.timeline.tracks.flatMap((t) => t.elements).find((e) => e.assetId === "mono");
  Object.assign(el, { trimStart: 0.5 * TICKS, duration: 1.5 * TICKS, trimEnd: 1 * TICKS, retime: { rate: 2 } });
  const editor = await createEditor({ project });
  const ids = Object.fromEntries(project.timeline.tracks.flatMap((t) => t.elements).map((e) => [e.assetId, e.id]));
  const files = { mono: mono48, stereo: stereo44 };
  return {
    editor,
    ids,
    tool: detectSilencesTool(
      editor,
      fileMedia((id) => files[id]),
    ),
  };
}

test("an asset's silences in source seconds, within 20 ms, at 48 kHz mono and 44.1 kHz stereo", async () => {
  const { tool } = await editorWithMedia();
  const mono = await tool.call({ assetId: "mono" });
  assert.deepEqual(Object.keys(mono), ["assetId", "timeBase", "duration", "silences"]);
  assert.equal(mono.timeBase, "source");
  assert.equal(mono.duration, 4.5);
  near(mono.silences, SPEECH_SILENCES, "mono, defaults");
  // One channel sounding is sound: 2–3 s is not a silence.
  near(
    (await tool.call({ assetId: "stereo" })).silences,
    [
      [1, 2],
      [3, 4],
    ],
    "stereo",
  );
  // The 0.2 s pause shows with a shorter minimum; a threshold above the tone hears nothing.
  near((await tool.call({ assetId: "mono", minDuration: 0.15 })).silences, [SPEECH_SILENCES[0], [2.1, 2.3], SPEECH_SILENCES[1]], "minDuration 0.15");
  near((await tool.call({ assetId: "mono", thresholdDb: -3 })).silences, [[0, 4.5]], "threshold above the tone's -9 dB RMS");
});

test("an element's silences in timeline seconds, through its trim and speed", async () => {
  const { tool, ids } = await editorWithMedia();
  // Source 1–1.8 s plays at 10 + (1 - 0.5) / 2 = 10.25 to 10 + (1.8 - 0.5) / 2 = 10.65: 0.4 s on
  // the timeline, under the default 0.5 s; source 3.3–3.5 s (the part played) is 11.4–11.5.
  const out = await tool.call({ elementId: ids.mono, minDuration: 0.3 });
  assert.deepEqual(Object.keys(out), ["assetId", "elementId", "timeBase", "duration", "silences"]);
  assert.equal(out.timeBase, "timeline");
  assert.equal(out.elementId, ids.mono);
  assert.equal(out.duration, 1.5, "the element's 1.5 s on the timeline");
  near(out.silences, [[10.25, 10.65]], "retimed element, minDuration 0.3");
  near(
    (await tool.call({ elementId: ids.mono, minDuration: 0.05 })).silences,
    [
      [10.25, 10.65],
      [10.8, 10.9],
      [11.4, 11.5],
    ],
    "retimed element, minDuration 0.05",
  );
  near((await tool.call({ elementId: ids.mono })).silences, [], "retimed element, defaults");
  near(
    (await tool.call({ elementId: ids.stereo })).silences,
    [
      [1, 2],
      [3, 4],
    ],
    "untrimmed element at 0",
  );
});

test("bad calls are refused with the tool's words, and nothing is read", async () => {
  const { editor, ids, tool } = await editorWithMedia();
  const before = JSON.stringify(editor.project());
  const cases = [
    [
      { assetId: "mono", elementId: ids.mono },
      { error: "Give assetId or elementId, not both", code: "INVALID_ARGUMENTS" },
    ],
    [{}, { error: "assetId or elementId is required", code: "ASSET_REQUIRED" }],
    [{ assetId: "" }, { error: "assetId must be a non-empty string", code: "INVALID_ARGUMENT", argument: "assetId" }],
    [
      { assetId: "mono", minDuration: 0 },
      { error: "minDuration must be a number of seconds > 0", code: "INVALID_ARGUMENT", argument: "minDuration" },
    ],
    [
      { assetId: "mono", minDuration: "1" },
      { error: "minDuration must be a number of seconds > 0", code: "INVALID_ARGUMENT", argument: "minDuration" },
    ],
    [
      { assetId: "mono", thresholdDb: 3 },
      { error: "thresholdDb must be a number from -120 to 0", code: "INVALID_ARGUMENT", argument: "thresholdDb" },
    ],
    [
      { assetId: "mono", thresholdDb: -121 },
      { error: "thresholdDb must be a number from -120 to 0", code: "INVALID_ARGUMENT", argument: "thresholdDb" },
    ],
    [{ assetId: "nope" }, { error: "Asset not found", code: "ASSET_NOT_FOUND", hint: "Call list_project_assets to get asset ids." }],
    [{ elementId: "nope" }, { error: "Element not found", code: "ELEMENT_NOT_FOUND", hint: "Call list_timeline to get element ids." }],
    [{ assetId: "still" }, { error: "Unsupported asset type", code: "UNSUPPORTED_ASSET_TYPE", hint: "detect_silences takes a video or audio asset." }],
  ];
  for (const [args, want] of cases) {
    const got = await tool.call(args);
    if (want.hint === undefined) delete got.hint;
    assert.deepEqual(got, want, JSON.stringify(args));
  }
  // A file Node cannot decode (AAC needs WebCodecs) and a file that is not there.
  const aac = tones("tone.m4a", { rate: 48000, seconds: 1, channels: ["1"] }, ["-c:a", "aac"]);
  const node = detectSilencesTool(
    editor,
    fileMedia((id) => ({ mono: aac, stereo: join(dir, "gone.wav") })[id]),
  );
  const undecodable = await node.call({ assetId: "mono" });
  assert.equal(undecodable.code, "DECODE_FAILED");
  assert.match(undecodable.details, /cannot decode its aac audio/);
  const gone = await node.call({ assetId: "stereo" });
  assert.equal(gone.code, "DECODE_FAILED");
  assert.equal(gone.error, "Failed to decode audio");
  assert.equal(JSON.stringify(editor.project()), before, "the project is as it was");
});

test("neuralcut mcp: detect_silences on an imported WAV (in Node), by asset and by element, and on Opus (in headless Chromium), with the official SDK client", async () => {
  const { client } = await connectMcp([]);
  try {
    const listed = (await client.listTools()).tools.find((t) => t.name === "detect_silences");
    assert.equal(listed.annotations.readOnlyHint, true);
    const { assets } = await callOk(client, "media_import", { paths: [mono48] });
    const asset = assets[0].id;
    near((await callOk(client, "detect_silences", { assetId: asset })).silences, SPEECH_SILENCES, "mcp, asset");
    await callOk(client, "add_media_to_timeline", { assetId: asset, startTime: 5, trackType: "audio" });
    const timeline = await callOk(client, "list_timeline", {});
    const element = timeline.tracks.flatMap((t) => t.elements).find((e) => e.assetId === asset);
    const out = await callOk(client, "detect_silences", { elementId: element.elementId });
    assert.equal(out.timeBase, "timeline");
    near(
      out.silences,
      SPEECH_SILENCES.map(([a, b]) => [a + 5, b + 5]),
      "mcp, element at 5 s",
    );
    // Opus needs WebCodecs: the session runs the same tool in its headless Chromium.
    const opus = tones("speech-mcp.webm", { rate: 48000, seconds: 4.5, channels: [SPEECH] }, ["-c:a", "libopus", "-b:a", "64k"]);
    const imported = await callOk(client, "media_import", { paths: [opus] });
    near((await callOk(client, "detect_silences", { assetId: imported.assets[0].id })).silences, SPEECH_SILENCES, "mcp, opus in headless Chromium");
  } finally {
    await client.close();
  }
});

const chrome = serveAndLaunch(root);

test("Chromium: Opus in WebM and AAC in MP4, decoded by WebCodecs, from a File in the page", async () => {
  const files = {
    opus: readFileSync(tones("speech.webm", { rate: 48000, seconds: 4.5, channels: [SPEECH] }, ["-c:a", "libopus", "-b:a", "64k"])).toString("base64"),
    aac: readFileSync(tones("speech.m4a", { rate: 44100, seconds: 4.5, channels: [SPEECH] }, ["-c:a", "aac", "-b:a", "96k"])).toString("base64"),
  };
  const page = await chrome.browser.newPage();
  try {
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    const out = await page.evaluate(async (files) => {
      const { createEditor } = await import("/dist/index.js");
      const { detectSilencesTool } = await import("/dist/detect-silences.js");
      const editor = await createEditor();
      const got = {};
      for (const [name, b64] of Object.entries(files)) {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const file = new File([bytes], `speech.${name === "opus" ? "webm" : "m4a"}`);
        const id = editor.addAsset({ id: name, name: file.name, type: "audio", duration: 4.5, file });
        got[name] = await detectSilencesTool(editor).call({ assetId: id });
      }
      return got;
    }, files);
    near(out.opus.silences, SPEECH_SILENCES, "opus");
    near(out.aac.silences, SPEECH_SILENCES, "aac");
  } finally {
    await page.close();
  }
});
