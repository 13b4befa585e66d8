// Files the package writes go through a new temporary file made exclusively under a random name
// (js/safe-write.ts): a link planted at the name the old code used (`<file>.<pid>.tmp` for a
// save, `<path>.part` for an export) is never followed, the file it points at stays as it was,
// and the output is right. Saves run over `neuralcut mcp` (the official SDK client), the export
// through `neuralcut export`.
//
// Needs `npm run build` first and Chromium (CHROMIUM_PATH, else /usr/bin/chromium) and ffmpeg (scripts/setup.sh) for the export.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ALL_FORMATS, FilePathSource, Input } from "mediabunny";

import { frameAt, nearColour } from "./decode.mjs";
import { callOk as call, connectMcp } from "./mcp-client.mjs";
import { png } from "./mcp-media.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, "cli.js");
const PRECIOUS = "the victim's own bytes\n";

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "neuralcut-safe-write-"));
  writeFileSync(join(dir, "a.png"), png(16, 9));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const connect = (args) => connectMcp(args, { name: "neuralcut-safe-write-test" });

/** A victim file and a link to it planted at `at`. */
function plant(at, victimName) {
  const victim = join(dir, victimName);
  writeFileSync(victim, PRECIOUS);
  symlinkSync(victim, at);
  return victim;
}

function assertUntouched(link, victim) {
  assert.equal(readFileSync(victim, "utf8"), PRECIOUS, "the victim is untouched");
  assert.ok(lstatSync(link).isSymbolicLink(), "the planted link is left alone");
  assert.equal(readlinkSync(link), victim);
}

test("saving over MCP does not follow a link planted at <file>.<pid>.tmp", { timeout: 120_000 }, async () => {
  const project = join(dir, "p.json");
  const first = await connect(["--project", project, "--save"]); // creates the file
  await first.client.close();
  const { client, pid } = await connect(["--project", project, "--save"]);
  const link = `${project}.${pid}.tmp`;
  const victim = plant(link, "victim-save.txt");
  try {
    const { elementId } = await call(client, "add_text", { text: "Kept", start: 0, end: 2, position: "top" });
    assertUntouched(link, victim);
    assert.ok(lstatSync(project).isFile() && !lstatSync(project).isSymbolicLink(), "the project is a file of its own");
    const saved = JSON.parse(readFileSync(project, "utf8"));
    assert.ok(JSON.stringify(saved).includes(elementId) && JSON.stringify(saved).includes("Kept"), "the change was saved");
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith(".tmp") && f !== `p.json.${pid}.tmp`),
      [],
      "no temporary file left",
    );
  } finally {
    await client.close();
  }
});

/** Runs the bin to completion. */
function runCli(args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

test("neuralcut export does not follow a link planted at <path>.part", { timeout: 240_000 }, async () => {
  const project = join(dir, "e.json");
  const { client } = await connect(["--project", project, "--save"]);
  try {
    const { assets } = await call(client, "media_import", { paths: [join(dir, "a.png")] });
    await call(client, "add_media_to_timeline", { assetId: assets[0].id, startTime: 0, trackType: "main", duration: 2 });
  } finally {
    await client.close();
  }
  const out = join(dir, "out.webm");
  const link = `${out}.part`;
  const victim = plant(link, "victim-export.txt");
  const r = await runCli(["--project", project, "export", out, "--end", "1", "--width", "160", "--quiet"]);
  assert.equal(r.code, 0, r.stderr);
  assertUntouched(link, victim);
  assert.ok(lstatSync(out).isFile() && !lstatSync(out).isSymbolicLink(), "the video is a file of its own");
  const input = new Input({ source: new FilePathSource(out), formats: ALL_FORMATS });
  const video = await input.getPrimaryVideoTrack();
  assert.equal((await input.getFormat()).name, "WebM");
  assert.deepEqual([video.displayWidth, video.displayHeight, (await video.computePacketStats()).packetCount], [160, 90, 30]);
  assert.equal(JSON.parse(r.stdout).bytes, lstatSync(out).size);
  assert.deepEqual(JSON.parse(r.stdout).missing, []);
  nearColour(frameAt(out, 0.5).px(80, 45), [128, 128, 128], 24, "ffmpeg, 0.5 s, the grey picture"); // the picture, not a black frame
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith(".part") && f !== "out.webm.part"),
    [],
    "no partial file left",
  );
});

test("writeFileAtomicSync replaces a link at the target itself and never writes through it", async () => {
  const { writeFileAtomicSync } = await import(join(dist, "safe-write.js"));
  const target = join(dir, "frame.png");
  const victim = plant(target, "victim-target.txt");
  writeFileAtomicSync(target, "new bytes");
  assert.equal(readFileSync(victim, "utf8"), PRECIOUS);
  assert.ok(!lstatSync(target).isSymbolicLink());
  assert.equal(readFileSync(target, "utf8"), "new bytes");
});
