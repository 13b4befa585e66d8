// `neuralcut mcp --whisper <dir>`: transcribe_video with local Whisper (the fixture model of
// tests/fixtures/whisper-fixture) over MCP, with the official SDK client: an imported 44.1 kHz WAV
// by asset (source seconds) and by element (timeline seconds, by hand), progress notifications,
// and the usage errors. Needs `npm run build` first and ffmpeg.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { parseMcpArgs } from "../../dist/mcp/main.js";
import { root } from "./helpers.mjs";
import { callOk, connectMcp } from "./mcp-client.mjs";

const dir = mkdtempSync(join(tmpdir(), "nc-whisper-mcp-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("neuralcut mcp --whisper: transcribe_video on an imported WAV by asset and by element, with progress", async () => {
  const wav = join(dir, "talk.wav");
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc='0.3*sin(2*PI*300*t)':s=44100:d=12", "-c:a", "pcm_s16le", wav]);
  if (r.error?.code === "ENOENT") assert.fail("ffmpeg is not installed: run scripts/setup.sh");
  assert.equal(r.status, 0, String(r.stderr));
  const { client } = await connectMcp(["--whisper", join(root, "tests/fixtures"), "--whisper-model", "whisper-fixture", "--whisper-dtype", "fp32"]);
  try {
    const listed = (await client.listTools()).tools.find((t) => t.name === "transcribe_video");
    assert.ok(listed, "transcribe_video is offered");
    assert.equal(listed.annotations.readOnlyHint, true);
    const { assets } = await callOk(client, "media_import", { paths: [wav] });
    const assetId = assets[0].id;
    const progress = [];
    const res = await client.callTool({ name: "transcribe_video", arguments: { assetId } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    assert.notEqual(res.isError, true, JSON.stringify(res.content));
    const source = res.structuredContent;
    assert.equal(source.provider, "local");
    assert.equal(source.timeBase, "source");
    const words = source.segments.flatMap((s) => s.words);
    assert.deepEqual(
      words.map((w) => w.text),
      ["alpha", "bravo", "charlie", "delta", "echo"],
    );
    assert.ok(progress.length > 0 && progress.every((p, i) => i === 0 || p >= progress[i - 1]), JSON.stringify(progress));
    // Placed at 3 s: every word 3 s later (the kept transcript, mapped afresh).
    await callOk(client, "add_media_to_timeline", { assetId, startTime: 3, trackType: "audio" });
    const element = (await callOk(client, "list_timeline", {})).tracks.flatMap((t) => t.elements).find((e) => e.assetId === assetId);
    const placed = await callOk(client, "transcribe_video", { elementId: element.elementId });
    assert.equal(placed.timeBase, "timeline");
    const r3 = (x) => Math.round(x * 1000) / 1000;
    assert.deepEqual(
      placed.segments.flatMap((s) => s.words),
      words.map((w) => ({ start: r3(w.start + 3), end: r3(w.end + 3), text: w.text })),
    );
    // Gemini is not configured in a Node session.
    const gemini = await client.callTool({ name: "transcribe_video", arguments: { assetId, provider: "gemini" } });
    assert.equal(gemini.isError, true);
    assert.match(JSON.stringify(gemini.content), /TRANSCRIBE_FAILED/);
  } finally {
    await client.close();
  }
});

test("neuralcut mcp: without --whisper no transcribe_video; its options are checked", async () => {
  const { client } = await connectMcp([]);
  try {
    assert.equal(
      (await client.listTools()).tools.find((t) => t.name === "transcribe_video"),
      undefined,
    );
  } finally {
    await client.close();
  }
  assert.throws(() => parseMcpArgs(["--whisper-model", "x"]), { code: "USAGE" });
  assert.throws(() => parseMcpArgs(["--whisper"]), { code: "USAGE" });
  assert.throws(() => parseMcpArgs(["--whisper", "/m", "--bridge", "127.0.0.1:1"]), { code: "USAGE" });
  assert.deepEqual(parseMcpArgs(["--whisper=/m", "--whisper-dtype", "fp32"]), { demo: false, save: false, whisper: "/m", whisperDtype: "fp32" });
});
