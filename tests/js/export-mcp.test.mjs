// export_video, jobs_list and jobs_cancel over MCP (`neuralcut mcp`, the official SDK client over
// stdio) and the `neuralcut export` verb: files imported by path, exported by the package's
// exportVideo in headless Chromium, read back here with mediabunny's demuxer (duration, frame
// rate, size, audio length) and decoded with ffmpeg (tests/js/decode.mjs): nothing missing, the
// picture's colour at known times, the tone's loudness where it plays and silence after it.
// Progress notifications are throttled; notifications/cancelled, jobs_cancel and Ctrl-C leave no
// file.
//
// Needs `npm run build` first, Chromium (CHROMIUM_PATH, else /usr/bin/chromium) and ffmpeg
// (scripts/setup.sh).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { crc32, deflateSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ALL_FORMATS, FilePathSource, Input } from "mediabunny";

import { decodesCleanly, frameAt, loud, nearColour, pcm, probe, rmsDb, silent } from "./decode.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, "cli.js");

const be32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const chunk = (type, data) =>
  Buffer.concat([be32(data.length), Buffer.from(type, "ascii"), data, be32(crc32(Buffer.concat([Buffer.from(type, "ascii"), data])))]);

/** A solid 8-bit RGB PNG. */
function solidPng(width, height, rgb) {
  const row = Buffer.concat([Buffer.from([0]), ...Array(width).fill(Buffer.from(rgb))]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", Buffer.concat([be32(width), be32(height), Buffer.from([8, 2, 0, 0, 0])])),
    chunk("IDAT", deflateSync(Buffer.concat(Array(height).fill(row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A mono 16-bit PCM WAV: `seconds` of a 440 Hz tone at `rate` Hz. */
function toneWav(seconds, rate = 16000) {
  const data = Buffer.alloc(seconds * rate * 2);
  for (let i = 0; i < seconds * rate; i++) data.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write("WAVEfmt ", 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
/** Each channel within this of the picture's colour after H.264/VP9 and 4:2:0. */
const COLOUR_TOL = 24;
/** A window where the tone plays is within this of the tone's own loudness (dB); one where nothing plays is below SILENT_DB. */
const LOUD_TOL_DB = 3;
const SILENT_DB = -50;

let dir;
let project;
let toneDb; // the tone's RMS in dBFS, decoded from the source file by ffmpeg
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "neuralcut-export-mcp-"));
  writeFileSync(join(dir, "red.png"), solidPng(16, 9, RED));
  writeFileSync(join(dir, "blue.png"), solidPng(16, 9, BLUE));
  writeFileSync(join(dir, "tone.wav"), toneWav(6));
  toneDb = rmsDb(pcm(join(dir, "tone.wav")), 0.2, 3.8);
  // A 6 s project (1920×1080, 30 fps): red 0–3 s and blue 3–6 s on main, the 6 s tone cut to
  // 4 s (0 dB) on an audio track, so 4–6 s is silent.
  project = join(dir, "p.json");
  const client = await connect(["--project", project, "--save"]);
  try {
    const { assets } = await call(client, "media_import", { paths: [join(dir, "red.png"), join(dir, "blue.png"), join(dir, "tone.wav")] });
    await call(client, "add_media_to_timeline", { assetId: assets[0].id, startTime: 0, trackType: "main", duration: 3 });
    await call(client, "add_media_to_timeline", { assetId: assets[1].id, startTime: 3, trackType: "main", duration: 3 });
    await call(client, "add_media_to_timeline", { assetId: assets[2].id, startTime: 0, trackType: "audio", duration: 4 });
  } finally {
    await client.close();
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], stderr: "pipe" });
  const client = new Client({ name: "neuralcut-export-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, close: () => client.close(), callTool: (...a) => client.callTool(...a), listTools: () => client.listTools() };
}

async function call(c, name, args) {
  const r = await c.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

/** What mediabunny's demuxer reads from the file. */
async function readBack(path) {
  const input = new Input({ source: new FilePathSource(path), formats: ALL_FORMATS });
  const v = await input.getPrimaryVideoTrack();
  const a = await input.getPrimaryAudioTrack();
  const stats = await v.computePacketStats();
  return {
    container: (await input.getFormat()).name,
    duration: await input.computeDuration(),
    video: [v.codec, v.displayWidth, v.displayHeight],
    fps: stats.averagePacketRate,
    frames: stats.packetCount,
    audio: a ? { codec: a.codec, duration: (await a.computeDuration()) - (await a.getFirstTimestamp()) } : null,
  };
}

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);
const leftovers = () => readdirSync(dir).filter((f) => /\.(mp4|webm|part)$/.test(f));

async function until(what, check, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("export_video with wait: throttled progress, other calls answered meanwhile, a file that reads back", { timeout: 240_000 }, async () => {
  const c = await connect(["--project", project]);
  try {
    const { tools } = await c.listTools(); // the SDK client checks structuredContent against each outputSchema
    assert.deepEqual(
      tools.filter((t) => /^(export_video|jobs_)/.test(t.name)).map((t) => t.name),
      ["export_video", "jobs_list", "jobs_cancel"],
    );
    const out = join(dir, "all.mp4");
    const progress = [];
    let exportDone = 0;
    const calledAt = Date.now();
    // Full size (the project's 1920×1080), so that the export is still running while the other
    // calls are answered: at 320 wide the in-order decoder makes it a matter of a second.
    const exporting = c
      .callTool({ name: "export_video", arguments: { path: out, wait: true } }, undefined, {
        onprogress: (p) => progress.push({ ...p, at: Date.now() }),
        timeout: 200_000,
      })
      .then((r) => ((exportDone = Date.now()), r));
    await until("the first progress", () => progress.length > 0);
    const listed = await call(c, "list_timeline", {});
    const listedAt = Date.now();
    assert.equal(listed.duration, 6);
    const running = await call(c, "jobs_list", {});
    assert.equal(running.jobs[0].state, "running");
    const r = await exporting;
    assert.ok(listedAt < exportDone, "list_timeline was answered while the export ran");
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    const s = r.structuredContent;
    assert.deepEqual([s.state, s.path, s.format, s.framesDone, s.totalFrames, s.progress], ["done", out, "mp4", 180, 180, 1]);
    assert.deepEqual([s.result.videoCodec, s.result.width, s.result.height, s.result.fps, s.result.frames, s.result.duration], ["avc", 1920, 1080, 30, 180, 6]);
    assert.equal(s.result.bytes, statSync(out).size);
    assert.deepEqual(s.result.missing, []);
    // Progress: frames done of the total, rising, the last one complete, at most one per 100 ms.
    assert.ok(progress.length >= 2, `${progress.length} notifications`);
    assert.ok(
      progress.every((p, i) => p.total === 180 && (i === 0 || p.progress > progress[i - 1].progress)),
      JSON.stringify(progress),
    );
    assert.deepEqual([progress.at(-1).progress, progress.at(-1).message], [180, "frame 180 of 180"]);
    // Arrival times bunch up in the pipe; the count cannot exceed one per 100 ms of the call, plus the last.
    const wall = exportDone - calledAt;
    assert.ok(progress.length <= Math.floor(wall / 100) + 2, `${progress.length} notifications in ${wall} ms`);

    const back = await readBack(out);
    assert.deepEqual([back.container, ...back.video, back.frames], ["MP4", "avc", 1920, 1080, 180]);
    near(back.fps, 30, 0.01, "frame rate");
    near(back.duration, 6, 0.05, "duration");
    assert.ok(["aac", "opus"].includes(back.audio?.codec), JSON.stringify(back.audio));
    near(back.audio.duration, 6, 0.05, "audio length");
    // A second reader: ffprobe's view of the streams; ffmpeg decodes every frame and sample
    // without an error, the pictures in their places and the tone where it plays.
    const [video, audio] = probe(out);
    assert.deepEqual([video.codec_type, video.codec_name, video.width, video.height, video.r_frame_rate], ["video", "h264", 1920, 1080, "30/1"]);
    assert.equal(audio.codec_type, "audio");
    decodesCleanly(out);
    nearColour(frameAt(out, 1.5).px(960, 540), RED, COLOUR_TOL, "1.5 s, the middle (red picture)");
    nearColour(frameAt(out, 4.5).px(960, 540), BLUE, COLOUR_TOL, "4.5 s, the middle (blue picture)");
    const sound = pcm(out);
    silent(sound, 4.2, 5.8, SILENT_DB, "after the tone");
    for (let t = 0; t < 4; t++) loud(sound, t + 0.2, t + 0.8, toneDb, LOUD_TOL_DB, "the tone");
  } finally {
    await c.close();
    rmSync(join(dir, "all.mp4"), { force: true });
  }
});

test("export_video without wait answers with the job; jobs_list follows it; jobs_cancel stops it and deletes the partial file", {
  timeout: 240_000,
}, async () => {
  const c = await connect(["--project", project]);
  try {
    const out = join(dir, "job.webm");
    // Full size, so that the job is still running when jobs_cancel arrives.
    const started = await call(c, "export_video", { path: out });
    assert.deepEqual([started.state, started.path, started.format], ["running", out, "webm"]);
    assert.match(started.job, /^j\d+$/);
    await until("frames", async () => (await call(c, "jobs_list", {})).jobs.find((j) => j.job === started.job).framesDone > 0);
    const cancelled = await call(c, "jobs_cancel", { job: started.job });
    assert.equal(cancelled.state, "cancelled");
    assert.ok(cancelled.framesDone < 180, `${cancelled.framesDone} frames`);
    assert.deepEqual(leftovers(), [], "no file and no partial file");
    const again = await c.callTool({ name: "jobs_cancel", arguments: { job: started.job } });
    assert.equal(again.isError, true);
    assert.match(again.content[0].text, /^Job j\d+ is not running \(cancelled\)/);
    const unknown = await c.callTool({ name: "jobs_cancel", arguments: { job: "j99" } });
    assert.match(unknown.content[0].text, /^Job not found: j99/);

    // A part of the timeline, followed to the end with jobs_list.
    const part = await call(c, "export_video", { path: out, start: 2, end: 3, width: 160 });
    const done = await until("the job", async () => {
      const j = (await call(c, "jobs_list", {})).jobs.find((x) => x.job === part.job);
      return j.state === "running" ? undefined : j;
    });
    assert.equal(done.state, "done", JSON.stringify(done));
    assert.deepEqual([done.totalFrames, done.result.width, done.result.height, done.result.videoCodec], [30, 160, 90, "vp9"]);
    assert.deepEqual(done.result.missing, []);
    const back = await readBack(out);
    assert.deepEqual([back.container, back.frames], ["WebM", 30]);
    near(back.duration, 1, 0.05, "duration");
    near(back.audio.duration, 1, 0.05, "audio length");
    decodesCleanly(out);
    nearColour(frameAt(out, 0.5).px(80, 45), RED, COLOUR_TOL, "0.5 s (2.5 s of the timeline), the middle");
    loud(pcm(out), 0.2, 0.8, toneDb, LOUD_TOL_DB, "the tone");
  } finally {
    await c.close();
    rmSync(join(dir, "job.webm"), { force: true });
  }
});

test("notifications/cancelled stops a waiting export, which sends no result and leaves no file", { timeout: 240_000 }, async () => {
  const c = await connect(["--project", project]);
  // Watch the wire: the id of the export request, and every response id.
  const sent = c.transport.send.bind(c.transport);
  let exportId;
  c.transport.send = (m, o) => {
    if (m.method === "tools/call" && m.params?.name === "export_video") exportId = m.id;
    return sent(m, o);
  };
  const responses = [];
  const onmessage = c.transport.onmessage;
  c.transport.onmessage = (m, extra) => {
    if (m.id !== undefined && m.method === undefined) responses.push(m.id);
    onmessage?.(m, extra);
  };
  try {
    const out = join(dir, "cancel.mp4");
    const ac = new AbortController();
    // Full size, so that the export is still drawing when the cancel arrives (320 wide, all
    // 180 frames were done before it did once video was decoded in order).
    const exporting = c.callTool({ name: "export_video", arguments: { path: out, wait: true } }, undefined, {
      signal: ac.signal,
      onprogress: () => ac.abort("stop"),
      timeout: 200_000,
    });
    await assert.rejects(exporting);
    const job = await until("the cancelled job", async () => (await call(c, "jobs_list", {})).jobs.find((j) => j.state === "cancelled"));
    assert.ok(job.framesDone < 180, `${job.framesDone} frames`);
    assert.deepEqual(leftovers(), [], "no file and no partial file");
    await call(c, "list_timeline", {});
    assert.ok(exportId !== undefined && !responses.includes(exportId), "no response to the cancelled request");
  } finally {
    await c.close();
  }
});

test("export_video's bad arguments are errors that change nothing", { timeout: 60_000 }, async () => {
  const c = await connect(["--project", project]);
  try {
    for (const [args, message] of [
      [{ path: "out.mp4" }, /^Path must be absolute: out\.mp4/],
      [{ path: join(dir, "out.mov") }, /^Cannot tell the format from .*out\.mov: name it \.mp4 or \.webm, or give format/],
      [{ path: join(dir, "no-dir", "out.mp4") }, /^Folder not found: /],
      [{ path: join(dir, "out.mp4"), start: 3, end: 2 }, /^end \(2\) must be after start \(3\)/],
      [{ path: join(dir, "out.mp4"), width: 8 }, /^width must be/],
    ]) {
      const r = await c.callTool({ name: "export_video", arguments: args });
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.content[0].text, message);
    }
    await assert.rejects(c.callTool({ name: "export_video", arguments: { path: join(dir, "x.mp4"), fast: true } }), /-32602|unknown argument "fast"/);
    assert.deepEqual((await call(c, "jobs_list", {})).jobs, []);
    assert.deepEqual(leftovers(), []);
  } finally {
    await c.close();
  }
});

/** Runs the bin; `onStderr` sees stderr as it comes. */
function runCli(args, onStderr) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => {
    stderr += d;
    onStderr?.(stderr, child);
  });
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

test("neuralcut export writes the file; Ctrl-C leaves none", { timeout: 240_000 }, async () => {
  const out = join(dir, "cli.webm");
  // 3–4.5 s of the timeline: blue, the tone's last second, then half a second of silence.
  const ok = await runCli(["--project", project, "export", out, "--start", "3", "--end", "4.5", "--width", "160"]);
  assert.equal(ok.code, 0, ok.stderr);
  const result = JSON.parse(ok.stdout);
  assert.deepEqual([result.path, result.format, result.frames, result.width, result.height, result.bytes], [out, "webm", 45, 160, 90, statSync(out).size]);
  assert.deepEqual(result.missing, []);
  assert.match(ok.stderr, /frame 45 of 45 \(100%\)/);
  const back = await readBack(out);
  near(back.duration, 1.5, 0.05, "duration");
  near(back.audio.duration, 1.5, 0.05, "audio length");
  const [video, audio] = probe(out);
  assert.deepEqual([video.codec_name, video.width, video.height, audio.codec_name], ["vp9", 160, 90, "opus"]);
  decodesCleanly(out);
  nearColour(frameAt(out, 0.5).px(80, 45), BLUE, COLOUR_TOL, "0.5 s (3.5 s of the timeline), the middle");
  const sound = pcm(out);
  silent(sound, 1.1, 1.4, SILENT_DB, "after the tone");
  loud(sound, 0.2, 0.8, toneDb, LOUD_TOL_DB, "the tone");
  rmSync(out);

  const stopped = await runCli(["--project", project, "export", join(dir, "stopped.mp4"), "--width", "320"], (err, child) => {
    if (/frame \d+ of/.test(err) && !child.killed) child.kill("SIGINT");
  });
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stderr, /interrupted; nothing was written to .*stopped\.mp4/);
  assert.deepEqual(leftovers(), []);

  const usage = await runCli(["--project", project, "export"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /export needs the output file/);
});
