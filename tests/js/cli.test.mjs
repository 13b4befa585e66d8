// The CLI end to end, in a scratch folder: every verb, the exit statuses (0 success, 1 a tool
// failed, 2 usage), options anywhere, the --save / --save-as round trip, a script with a
// failing line with and without --keep-going, and media paths kept relative to the project file
// so a later CLI call or a restarted `mcp --project` server still knows the files.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { png, wav } from "./mcp-media.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, pkgJson.bin.neuralcut.replace(/^(\.\/)?dist\//, ""));
const { TOOL_ERRORS } = await import(join(dist, "index.js"));

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "neuralcut-cli-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `neuralcut ...args` in the scratch folder. */
function cli(args, { input, cwd = dir } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  child.stdin.end(input ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Runs and parses stdout as JSON, asserting the exit status. */
async function json(args, code = 0, options) {
  const r = await cli(args, options);
  assert.equal(r.code, code, `neuralcut ${args.join(" ")}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

const elements = (timeline) => timeline.tracks.flatMap((t) => t.elements);

test("help prints the reference; no command does too", async () => {
  for (const args of [["help"], ["--help"], []]) {
    const r = await cli(args);
    assert.equal(r.code, 0);
    for (const verb of ["tools", "describe", "inspect", "exec", "run", "import", "render-frame", "mcp", "--save-as", "--keep-going", "--width"])
      assert.match(r.stdout, new RegExp(verb));
  }
});

test("usage errors exit with 2, say which mistake, and change nothing", async () => {
  const HELP = " (neuralcut help prints the reference)";
  // Each mistake and the first line of its message (a string, or a pattern where part of it is
  // Node's own wording). Option mistakes print the usage text after it.
  const cases = [
    [["frobnicate"], 'unknown command "frobnicate"'],
    [["--bogus", "tools"], 'unknown option "--bogus"'],
    [["--save", "tools"], "--save needs --project <file> (or use --save-as <file>)"],
    [["--demo", "--project", "x.json", "tools"], "--demo and --project cannot be combined"],
    [["--project"], "--project needs a file path"],
    [["describe"], `describe needs a tool name (neuralcut tools lists them)${HELP}`],
    [["describe", "nope"], `unknown tool "nope" (neuralcut tools lists them)${HELP}`],
    [["inspect", "everything"], `inspect takes project, assets or timeline, not "everything"${HELP}`],
    [["tools", "a", "b"], `tools: unexpected "b"${HELP}`],
    [["exec"], `exec needs a tool name (neuralcut tools lists them)${HELP}`],
    [["exec", "nope"], `unknown tool "nope" (neuralcut tools lists them)${HELP}`],
    [["--demo", "exec", "split", "times"], `expected key=value, got "times"${HELP}`],
    [["--demo", "exec", "split", "{not json"], /^the arguments are not JSON: .+ \(neuralcut help prints the reference\)$/],
    [["--demo", "exec", "apply_effect", "params=1", "params.intensity=3"], `"params.intensity=3": params already has a value${HELP}`],
    [["run"], `run takes one script file, or - for stdin${HELP}`],
    [
      ["run", "missing.jsonl"],
      /^cannot read the script missing\.jsonl: ENOENT: no such file or directory, open '.*missing\.jsonl' \(neuralcut help prints the reference\)$/,
    ],
    [["import"], `import needs at least one file${HELP}`],
    [["render-frame"], `render-frame needs a time in seconds (render-frame 2.5 -o frame.png) or --times${HELP}`],
    [["render-frame", "soon", "-o", "f.png"], `render-frame needs a time in seconds (render-frame 2.5 -o frame.png) or --times${HELP}`],
    [["render-frame", "1"], `render-frame needs -o <file.png>${HELP}`],
    [["render-frame", "1", "-o"], "-o needs a file path"],
    [["render-frame", "1", "-o", "f.png", "--width", "wide"], `--width takes a number of pixels, not "wide"${HELP}`],
    [["render-frame", "1", "2", "-o", "f.png"], `render-frame: unexpected "2"${HELP}`],
    [["--demo", "tools", "-o", "f.png"], "-o is for render-frame only"],
    [["--demo", "inspect", "--width", "100"], "--width is for render-frame only"],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args);
    const label = args.join(" ");
    assert.equal(r.code, 2, `${label}: ${r.stderr}`);
    assert.equal(r.stdout, "", label);
    assert.match(r.stderr, /^neuralcut: /, label);
    const [first, ...rest] = r.stderr.slice("neuralcut: ".length).split("\n");
    if (typeof message === "string") assert.equal(first, message, label);
    else assert.match(first, message, label);
    // Either the one line, or the line and the usage text.
    if (rest.length > 1) assert.equal(rest[1], "usage: neuralcut [options] <command> [arguments]", label);
    else assert.deepEqual(rest, [""], label);
  }
  // Naming an argument the tool does not have is the caller's mistake too (MCP's -32602).
  const unknownArg = await cli(["--demo", "exec", "split", "tmes=[2]"]);
  assert.equal(unknownArg.code, 2);
  assert.equal(JSON.parse(unknownArg.stdout).code, "UNKNOWN_ARGUMENT");
  assert.match((await cli(["render-frame", "1"])).stderr, /render-frame needs -o <file\.png>/);
  assert.deepEqual(readdirSync(dir), [], "nothing was written");
});

test("tools: a readable list, a filter, and --json anywhere on the line", async () => {
  const text = await cli(["--demo", "tools"]);
  assert.equal(text.code, 0);
  const lines = text.stdout.trim().split("\n");
  assert.ok(lines.some((l) => /^split\s+Split at times$/.test(l)));
  assert.ok(lines.some((l) => /^undo\s+Undo\s+\(disabled: nothing to undo\)$/.test(l)));
  for (const name of ["media_import", "command_list", "command_run", "command_batch", "doc_inspect", "render_preview"])
    assert.ok(
      lines.some((l) => l.startsWith(`${name} `)),
      name,
    );
  const filtered = await cli(["tools", "SPLIT"]);
  assert.deepEqual(
    filtered.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(/\s+/)[0]),
    ["split"],
  );
  const { commands } = await json(["tools", "effect", "--json"]);
  assert.deepEqual(
    commands.map((c) => c.id),
    ["list_effects", "get_effect", "apply_effect", "update_effect"],
  );
  assert.equal(commands.find((c) => c.id === "update_effect").enabled, false, "an empty project has no elements");
  const demo = await json(["--json", "tools", "effect", "--demo"]);
  assert.equal(demo.commands.find((c) => c.id === "update_effect").enabled, true);
});

test("describe: arguments, result, errors from the registry, annotations, enabled now", async () => {
  const split = await json(["describe", "split", "--demo"]);
  assert.equal(split.id, "split");
  assert.deepEqual(split.parameters.required, ["times"]);
  assert.equal(split.result.type, "object");
  assert.deepEqual(split.errors, TOOL_ERRORS.split);
  assert.ok(split.errors.length > 0);
  assert.equal(split.annotations.readOnlyHint, false);
  assert.equal(split.enabled, true);
  const undo = await json(["describe", "undo"]);
  assert.deepEqual([undo.enabled, undo.reason], [false, "nothing to undo"]);
  const core = await json(["describe", "command_batch"]);
  assert.ok(core.parameters.properties.stop_on_error);
});

test("inspect: the document, its assets, its timeline", async () => {
  const doc = await json(["inspect", "--demo"]);
  assert.deepEqual(Object.keys(doc), ["settings", "assets", "stickers", "timeline", "canUndo", "canRedo", "revision"]);
  // The demo project's content (js/mcp/demo-project.ts), written out here by hand: an empty
  // project, or one whose elements moved, would pass the comparisons below but not this.
  assert.deepEqual(doc.settings, { fps: { numerator: 30, denominator: 1 }, canvas: { width: 1920, height: 1080 } });
  assert.deepEqual([doc.canUndo, doc.canRedo, doc.revision], [false, false, 0]);
  assert.deepEqual(
    doc.assets.map((a) => [a.id, a.name, a.type, a.duration, a.usedInTimeline]),
    [
      ["a1", "clip.webm", "video", 6, true],
      ["a2", "still.jpg", "image", undefined, true],
      ["a3", "star.svg", "image", undefined, true],
      ["a4", "tone.ogg", "audio", 8, true],
    ],
  );
  assert.deepEqual(doc.stickers, [{ id: "emoji:star", name: "Star" }]);
  assert.deepEqual(
    doc.timeline.tracks.map((t) => [t.trackId, t.type, t.elements.map((e) => [e.elementId, e.type, e.start, e.end])]),
    [
      [
        "t10",
        "text",
        [
          ["e20", "text", 0, 3],
          ["e26", "text", 3.5, 6],
          ["e27", "text", 6.5, 9.5],
        ],
      ],
      ["t11", "effect", [["e21", "effect", 6, 10]]],
      ["t12", "overlay", [["e22", "image", 1, 5]]],
      [
        "t13",
        "main",
        [
          ["e23", "video", 0, 6],
          ["e24", "image", 6, 10],
        ],
      ],
      ["t14", "audio", [["e25", "audio", 0, 8]]],
    ],
  );
  assert.equal(elements(doc.timeline).length, 8);
  assert.deepEqual(
    elements(doc.timeline)
      .filter((e) => e.type === "text")
      .map((e) => e.text),
    ["NeuralCut demo", "Split it, undo it, add effects", "A still image"],
  );
  assert.deepEqual(elements(doc.timeline).find((e) => e.elementId === "e21").params, { radius: 45, softness: 40 });
  // The sample media beside the build (dist/../demo/media/, as the package ships them).
  for (const a of doc.assets) assert.equal(a.path, join(dist, "..", "demo", "media", a.name), `${a.id}'s file is the package's sample`);
  assert.deepEqual(await json(["--demo", "inspect", "project"]), doc);
  // The document's assets add the file of each (the demo's sample media in the package).
  assert.deepEqual(
    (await json(["--demo", "inspect", "assets"])).assets,
    doc.assets.map(({ path, ...a }) => a),
  );
  assert.deepEqual(await json(["--demo", "inspect", "timeline"]), doc.timeline);
});

test("exec: key=value (JSON values, strings, dotted keys) and one JSON object; a failing tool exits 1", async () => {
  const out = join(dir, "exec.json");
  // Dotted keys nest, numbers parse as JSON, "blur" stays a string.
  const applied = await json(["--demo", "exec", "apply_effect", "effectType=blur", "start=0", "end=4", "params.intensity=30", "--save-as", out]);
  const saved = JSON.parse(readFileSync(out, "utf8"));
  const effect = saved.timeline.tracks.flatMap((t) => t.elements).find((e) => e.id === applied.elementId);
  assert.deepEqual([effect.effectType, effect.params], ["blur", { intensity: 30 }]);
  // A text that is not JSON is a string; one JSON object works the same.
  const text = await json(["--project", out, "exec", "add_text", "text=Hello world", "start=0", "end=2", "position=bottom"]);
  assert.ok(text.elementId);
  const viaJson = await json(["--project", out, "exec", "add_text", JSON.stringify({ text: "Hello world", start: 0, end: 2, position: "bottom" })]);
  assert.deepEqual(viaJson, text, "the same call, the same result (the project was not saved in between)");
  // A tool's own failure: its error value on stdout, exit 1.
  const failed = await cli(["--project", out, "exec", "delete_timeline_elements", 'elementIds=["nope"]']);
  assert.equal(failed.code, 1);
  assert.equal(JSON.parse(failed.stdout).code, "ELEMENTS_NOT_FOUND");
  assert.match(failed.stderr, /Timeline elements not found/);
  // Core tools too; a command_batch with a failing step exits 1.
  const batch = await cli([
    "--demo",
    "exec",
    "command_batch",
    JSON.stringify({ steps: [{ id: "split", params: { times: [2] } }, { id: "undo" }, { id: "undo" }], stop_on_error: false }),
  ]);
  assert.equal(batch.code, 1);
  assert.deepEqual([JSON.parse(batch.stdout).completed, JSON.parse(batch.stdout).failed], [2, 1]);
});

test("--save round trip: created, written back atomically, read again; --save-as leaves the original", async () => {
  const p = join(dir, "round.json");
  assert.equal((await cli(["--project", p, "inspect"])).code, 1, "a missing project without --save is an error");
  const added = await json(["exec", "add_text", "text=One", "start=0", "end=3", "position=top", "--project", p, "--save"]);
  assert.ok(existsSync(p));
  const first = JSON.parse(readFileSync(p, "utf8"));
  assert.equal(first.format, "neuralcut-project");
  const timeline = await json(["--project", p, "inspect", "timeline"]);
  assert.deepEqual(
    elements(timeline).map((e) => [e.elementId, e.text]),
    [[added.elementId, "One"]],
  );
  await json(["--project", p, "--save", "exec", "split", "times=[1]"]);
  assert.equal(elements(await json(["--project", p, "inspect", "timeline"])).length, 2);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes(".tmp")),
    [],
    "no temporary file left behind",
  );
  // Without --save nothing is written.
  const bytes = readFileSync(p, "utf8");
  await json(["--project", p, "exec", "split", "times=[2]"]);
  assert.equal(readFileSync(p, "utf8"), bytes);
  // --save-as writes elsewhere.
  const copy = join(dir, "copy.json");
  await json(["--project", p, "--save-as", copy, "exec", "split", "times=[2]"]);
  assert.equal(readFileSync(p, "utf8"), bytes);
  assert.equal(elements(await json(["--project", copy, "inspect", "timeline"])).length, 3);
  // A broken project file exits 1.
  writeFileSync(join(dir, "broken.json"), "{ nope");
  const broken = await cli(["--project", join(dir, "broken.json"), "tools"]);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /cannot open the project/);
});

test("run: one JSON line per script line; a failing line stops the script unless --keep-going", async () => {
  const p = join(dir, "script.json");
  const script = join(dir, "edit.jsonl");
  writeFileSync(
    script,
    [
      JSON.stringify({ tool: "split", args: { times: [2] } }),
      "",
      JSON.stringify({ tool: "delete_timeline_elements", args: { elementIds: ["nope"] } }),
      JSON.stringify({ tool: "add_text", args: { text: "After", start: 0, end: 1, position: "top" } }),
    ].join("\n"),
  );
  const stopped = await cli(["--demo", "--save-as", p, "run", script]);
  assert.equal(stopped.code, 1);
  const lines = stopped.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.line, l.tool, l.ok]),
    [
      [1, "split", true],
      [3, "delete_timeline_elements", false],
    ],
  );
  assert.equal(lines[0].result.success, true);
  assert.equal(lines[1].error.code, "ELEMENTS_NOT_FOUND");
  const saved = elements(await json(["--project", p, "inspect", "timeline"]));
  assert.ok(!saved.some((e) => e.text === "After"), "the line after the failure did not run");
  assert.ok(
    saved.some((e) => e.elementId === lines[0].result.newElements[0].elementId),
    "what ran before it was saved",
  );

  const going = await cli(["run", script, "--keep-going", "--demo"]);
  assert.equal(going.code, 1, "a failing line still fails the run");
  assert.deepEqual(
    going.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .map((l) => [l.line, l.ok]),
    [
      [1, true],
      [3, false],
      [4, true],
    ],
  );

  // From stdin, all good: exit 0; undo works within one run.
  const stdin = [JSON.stringify({ tool: "split", args: { times: [2] } }), JSON.stringify({ tool: "undo" }), JSON.stringify({ tool: "list_timeline" })].join(
    "\n",
  );
  const good = await cli(["--demo", "run", "-"], { input: stdin });
  assert.equal(good.code, 0, good.stderr);
  const out = good.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    out.map((l) => [l.tool, l.ok]),
    [
      ["split", true],
      ["undo", true],
      ["list_timeline", true],
    ],
  );
  // A line that is not JSON, or not {tool, args}, is a failing line.
  const junk = await cli(["--demo", "run", "-", "--keep-going"], { input: `{not json\n{"tool":"split","arguments":{}}\n[1]\n` });
  assert.equal(junk.code, 1);
  const junkLines = junk.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    junkLines.map((l) => [l.line, l.ok, l.error.code]),
    [
      [1, false, "INVALID_LINE"],
      [2, false, "INVALID_LINE"],
      [3, false, "INVALID_LINE"],
    ],
  );
});

test("import: media paths are saved relative to the project and found again after a move", async () => {
  const work = join(dir, "film");
  mkdirSync(join(work, "media"), { recursive: true });
  writeFileSync(join(work, "media", "tone.wav"), wav(2, 8000));
  writeFileSync(join(work, "media", "still.png"), png(32, 16));
  const imported = await json(["import", "media/tone.wav", "media/still.png", "--project", "edit.json", "--save"], 0, { cwd: work });
  assert.deepEqual(
    imported.assets.map((a) => [a.name, a.type, a.path]),
    [
      ["tone.wav", "audio", join(work, "media", "tone.wav")],
      ["still.png", "image", join(work, "media", "still.png")],
    ],
  );
  const saved = JSON.parse(readFileSync(join(work, "edit.json"), "utf8"));
  assert.deepEqual(
    saved.assets.map((a) => a.path),
    ["media/tone.wav", "media/still.png"],
    "relative to the project file",
  );
  const bad = await cli(["import", "media/none.wav", "--project", "edit.json", "--save"], { cwd: work });
  assert.equal(bad.code, 1);
  assert.equal(JSON.parse(bad.stdout).code, "MEDIA_UNREADABLE");

  // Move the project together with its media: the CLI and a restarted server find the files.
  const moved = join(dir, "moved");
  cpSync(work, moved, { recursive: true });
  rmSync(work, { recursive: true, force: true });
  const doc = await json(["--project", join(moved, "edit.json"), "inspect"]);
  assert.deepEqual(
    doc.assets.map((a) => a.path),
    [join(moved, "media", "tone.wav"), join(moved, "media", "still.png")],
  );
  // Saved elsewhere, the paths are rewritten relative to the new file.
  mkdirSync(join(dir, "elsewhere"));
  await json(["--project", join(moved, "edit.json"), "--save-as", join(dir, "elsewhere", "e.json"), "inspect", "assets"]);
  assert.deepEqual(
    JSON.parse(readFileSync(join(dir, "elsewhere", "e.json"), "utf8")).assets.map((a) => a.path),
    ["../moved/media/tone.wav", "../moved/media/still.png"],
  );

  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--project", join(moved, "edit.json"), "mcp"], stderr: "pipe" });
  const client = new Client({ name: "neuralcut-cli-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const r = await client.callTool({ name: "doc_inspect", arguments: {} });
    assert.deepEqual(
      r.structuredContent.assets.map((a) => a.path),
      [join(moved, "media", "tone.wav"), join(moved, "media", "still.png")],
    );
  } finally {
    await client.close();
  }
});
