// The MCP server as a client sees it: the official SDK client spawns `neuralcut mcp` (the
// package's bin, from dist/) and drives it over stdio. Covers the listing and annotations, a
// split/undo round trip, errors (isError, -32602, -32700 and other junk the session survives),
// the resources, --project/--save across a restart, and media_import on files made here.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

import { jpegHeader, mp3Cbr, mp4, png, wav } from "./mcp-media.mjs";
import { rpcError } from "./mcp-client.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
// The bin as package.json names it (NEURALCUT_DIST points the tests at another build of dist/).
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, pkgJson.bin.neuralcut.replace(/^(\.\/)?dist\//, ""));
const { createEditor } = await import(join(dist, "index.js"));
const { DEMO_PROJECT } = await import(join(dist, "mcp", "demo-project.js"));

/** The seed's core tools, listed after the engine's (tests/js/mcp-core.test.mjs covers them). */
const CORE_TOOLS = ["command_list", "command_run", "command_batch", "doc_inspect"];

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "neuralcut-mcp-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The SDK client on a fresh `neuralcut mcp <args>`. */
async function connect(...args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], stderr: "pipe" });
  const client = new Client({ name: "neuralcut-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool call's structuredContent, asserting it succeeded and the text block holds the same JSON. */
async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, `${name} failed: ${JSON.stringify(r.content)}`);
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
  return r.structuredContent;
}

test("lists every engine tool and media_import, in catalog order, with titles, schemas and the four annotations", async () => {
  const client = await connect();
  try {
    const { tools } = await client.listTools();
    const editor = await createEditor();
    const catalog = editor.tools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [
        ...catalog.map((t) => t.name),
        "media_import",
        ...CORE_TOOLS,
        "render_preview",
        "detect_silences",
        "detect_scenes",
        "export_video",
        "jobs_list",
        "jobs_cancel",
      ],
    );
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      tools.map((t) => t.name),
      "stable order",
    );
    for (const t of tools) {
      assert.ok(t.title && t.description, `${t.name}: title and description`);
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.equal(t.inputSchema.additionalProperties, false, `${t.name}: strict arguments`);
      assert.equal(t.outputSchema?.type, "object", `${t.name}: outputSchema`);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
        assert.equal(typeof t.annotations?.[hint], "boolean", `${t.name}: ${hint}`);
      }
      const engine = catalog.find((c) => c.name === t.name);
      if (engine) {
        assert.equal(t.title, engine.title);
        assert.deepEqual(t.inputSchema, engine.inputSchema);
        assert.deepEqual(t.outputSchema, engine.outputSchema);
        assert.deepEqual({ ...t.annotations, title: undefined }, { ...engine.annotations, title: undefined });
      }
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ["list_timeline", "list_project_assets", "list_effects", "get_effect"]) assert.equal(byName[name].readOnlyHint, true, name);
    for (const name of ["delete_element", "delete_timeline_elements"]) assert.equal(byName[name].destructiveHint, true, name);
    assert.equal(byName.media_import.readOnlyHint, false);
    assert.equal(byName.render_preview.readOnlyHint, true);
  } finally {
    await client.close();
  }
});

test("--demo: split then undo restores the timeline", async () => {
  const client = await connect("--demo");
  try {
    await client.listTools(); // from here on the SDK client checks structuredContent against each outputSchema
    const before = await call(client, "list_timeline");
    assert.ok(
      before.tracks.some((t) => t.elements.length > 0),
      "the demo project has a laid-out timeline",
    );
    const split = await call(client, "split", { times: [2] });
    assert.equal(split.success, true);
    assert.ok(split.newElements.length > 0);
    const cut = await call(client, "list_timeline");
    assert.equal(cut.tracks.flatMap((t) => t.elements).length, before.tracks.flatMap((t) => t.elements).length + split.newElements.length);
    await call(client, "undo");
    assert.deepEqual(await call(client, "list_timeline"), before);
    await call(client, "redo");
    assert.deepEqual(await call(client, "list_timeline"), cut);
  } finally {
    await client.close();
  }
});

// One successful call per engine tool (on the tools tests' fixture), each undone afterwards.
const SUCCESSES = [
  ["list_project_assets", { filter: "unused" }],
  ["list_timeline", {}],
  ["split", { times: [2.5] }],
  ["delete_timeline_elements", { elementIds: ["e25"] }],
  ["cut_ranges", { ranges: [{ start: 2, end: 3 }] }],
  ["move_timeline_elements", { elementIds: ["e23"], start: 12 }],
  ["add_text", { text: "Day one", start: 0, end: 2, position: "bottom", style: "subtitle" }],
  ["update_text", { trackId: "t10", elementId: "e20", text: "Bye" }],
  ["add_media_to_timeline", { assetId: "a2", startTime: 10, trackType: "overlay", duration: 3 }],
  ["update_timeline_element_timing", { elementId: "e25", duration: 2 }],
  ["delete_element", { trackId: "t12", elementId: "e22" }],
  ["set_volume", { trackId: "t14", elementId: "e26", volume: 0.5 }],
  ["add_sticker", { stickerId: "flags:us", start: 1, end: 3, position: "top-left" }],
  ["add_graphic", { shape: "star", start: 1, end: 3, fill: "#ffcc00", stroke: { width: 4 }, points: 6 }],
  ["list_stickers", { query: "europe", limit: 3 }],
  ["list_effects", { query: "vintage" }],
  ["get_effect", { effectType: "vignette" }],
  ["apply_effect", { effectType: "blur", start: 0, end: 4, params: { intensity: 30 } }],
  ["update_effect", { elementId: "e21", params: { intensity: 40 } }],
  [
    "batch",
    {
      steps: [
        { tool: "split", args: { times: [5] } },
        { tool: "list_effects", args: { query: "blur" } },
      ],
    },
  ],
  ["list_stickers", { query: "france" }],
  ["get_element", { elementId: "clip-1" }],
  ["update_clip", { elementIds: ["e22"], scale: 0.5, position: "top-right" }],
  ["duplicate_elements", { elementIds: ["e23"], offset: 3 }],
  ["update_track", { trackId: "t14", muted: true }],
  ["update_project", { background: { type: "blur", blurIntensity: 100 } }],
  ["move_track", { trackId: "t12", above: "t10" }],
  ["list_animatable_properties", { elementId: "e20" }],
  ["upsert_keyframe", { elementId: "e20", property: "opacity", time: 0, value: 0 }],
  // Keyframes do not show in list_timeline, so these setups may stay.
  ["list_keyframes", { elementId: "e20" }, [["upsert_keyframe", { elementId: "e20", property: "opacity", time: 1, value: 1 }]]],
  [
    "update_keyframe_curve",
    { elementId: "e20", property: "opacity", time: 0, easing: "ease-out" },
    [["upsert_keyframe", { elementId: "e20", property: "opacity", time: 0, value: 0 }]],
  ],
  ["remove_keyframe", { elementId: "e20", property: "opacity", time: 1 }],
  ["check_timeline", { start: 0, end: 10 }],
  [
    "add_captions",
    {
      elementId: "e24",
      words: [
        { start: 0.2, end: 0.6, text: "Hello" },
        { start: 0.6, end: 1, text: "there." },
      ],
    },
  ],
  ["import_subtitles", { format: "srt", text: "1\n00:00:01,000 --> 00:00:02,500\nHi\n" }],
];

test("every engine tool's result passes the SDK client's outputSchema check", async () => {
  const client = await connect("--project", join(root, "tests", "fixtures", "demo.json"));
  try {
    const { tools } = await client.listTools();
    const readOnly = new Set(tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name));
    const start = await call(client, "list_timeline");
    for (const [name, args, setup = []] of SUCCESSES) {
      for (const [step, stepArgs] of setup) await call(client, step, stepArgs);
      await call(client, name, args);
      if (!readOnly.has(name)) {
        await call(client, "undo");
        await call(client, "redo");
        await call(client, "undo");
      }
      assert.deepEqual(await call(client, "list_timeline"), start, `${name} undone`);
    }
    const covered = new Set([
      ...SUCCESSES.map(([n]) => n),
      "undo",
      "redo",
      "media_import",
      "load_asset_context",
      ...CORE_TOOLS,
      "render_preview",
      "detect_silences",
      "detect_scenes",
      "export_video",
      "jobs_list",
      "jobs_cancel",
      "export_subtitles",
    ]); // export_subtitles: the captions test below; core tools: mcp-core.test.mjs; export tools: export-mcp.test.mjs; detect_silences, detect_scenes: detect-*.test.mjs
    assert.deepEqual(
      tools.map((t) => t.name).filter((n) => !covered.has(n)),
      [],
      "a success case for every tool",
    );
  } finally {
    await client.close();
  }
});

test("captions over MCP: add_captions with the client's words, export_subtitles, and the export imported again gives the same captions", async () => {
  const client = await connect("--project", join(root, "tests", "fixtures", "demo.json"));
  try {
    await client.listTools();
    const words = [
      { start: 0.25, end: 0.5, text: "One" },
      { start: 0.5, end: 0.9, text: "small" },
      { start: 0.9, end: 1.3, text: "step." },
      { start: 3.001, end: 3.5, text: "Giant" },
      { start: 3.5, end: 4.2, text: "leap." },
    ];
    const made = await call(client, "add_captions", { elementId: "e24", words, maxCharsPerLine: 10 });
    assert.deepEqual(made, { trackIds: ["t31"], count: 2, start: 0.25, end: 4.2 });
    const srt = await call(client, "export_subtitles", { format: "srt" });
    assert.equal(srt.text, "1\n00:00:00,250 --> 00:00:01,300\nOne small\nstep.\n\n2\n00:00:03,001 --> 00:00:04,200\nGiant\nleap.\n\n");
    const captions = async () =>
      (await call(client, "list_timeline")).tracks
        .flatMap((t) => t.elements)
        .filter((e) => e.name.startsWith("Caption "))
        .map((e) => [e.text, e.start, e.end]);
    const before = await captions();
    await call(client, "undo");
    assert.deepEqual(await captions(), []);
    await call(client, "import_subtitles", { format: "srt", text: srt.text });
    assert.deepEqual(await captions(), before);
  } finally {
    await client.close();
  }
});

test("a tool's own error is an isError result with the engine's message", async () => {
  const client = await connect("--demo");
  try {
    await client.listTools(); // the SDK client now checks structuredContent against each outputSchema
    const r = await client.callTool({ name: "delete_element", arguments: { trackId: "t13", elementId: "nope" } });
    assert.equal(r.isError, true);
    assert.equal(r.content[0].text, "Element not found");
    assert.equal(r.structuredContent, undefined, "structuredContent is for results that match the outputSchema");
    assert.deepEqual(JSON.parse(r.content[1].text), { error: "Element not found", code: "ELEMENT_NOT_FOUND" });
    const bad = await client.callTool({ name: "split", arguments: { times: [] } });
    assert.equal(bad.isError, true);
    assert.equal(typeof bad.content[0].text, "string");
  } finally {
    await client.close();
  }
});

test("an unknown argument or tool is a JSON-RPC -32602 error naming it, and the session goes on", async () => {
  const client = await connect("--demo");
  try {
    const e = await rpcError(client.callTool({ name: "split", arguments: { times: [2], tmes: [3] } }));
    assert.equal(e.code, -32602);
    assert.match(e.message, /unknown argument "tmes" for split; expected: times/);
    assert.equal(e.data.argument, "tmes");
    assert.deepEqual(e.data.accepted, ["times"]);
    const m = await rpcError(client.callTool({ name: "media_import", arguments: { path: "/x.wav" } }));
    assert.equal(m.code, -32602);
    assert.match(m.message, /unknown argument "path" for media_import; expected: paths/);
    const u = await rpcError(client.callTool({ name: "splitt", arguments: {} }));
    assert.equal(u.code, -32602);
    assert.match(u.message, /splitt/);
    assert.ok(u.data.known.includes("split"));
    // Nothing changed, and the next call works.
    assert.equal((await call(client, "split", { times: [2] })).success, true);
  } finally {
    await client.close();
  }
});

test("resources: the project document and the tool catalog, as application/json", async () => {
  const client = await connect("--demo");
  try {
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((r) => [r.uri, r.mimeType]),
      ["project", "tools", "document", "commands"].map((n) => [`neuralcut://${n}`, "application/json"]),
    );
    const project = await client.readResource({ uri: "neuralcut://project" });
    assert.equal(project.contents[0].mimeType, "application/json");
    assert.deepEqual(JSON.parse(project.contents[0].text).assets, DEMO_PROJECT.assets);
    const catalog = JSON.parse((await client.readResource({ uri: "neuralcut://tools" })).contents[0].text);
    assert.deepEqual(
      catalog.tools.map((t) => t.name),
      (await client.listTools()).tools.map((t) => t.name),
    );
    const e = await rpcError(client.readResource({ uri: "neuralcut://nothing" }));
    assert.equal(e.code, -32002);
    // A subscriber hears about each change.
    const updated = new Promise((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
    await client.subscribeResource({ uri: "neuralcut://project" });
    await call(client, "split", { times: [2] });
    // Bounded: a missing notification fails the test instead of hanging it.
    let timer;
    const silence = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("no resources/updated notification within 5 s of the edit")), 5000);
    });
    try {
      assert.equal(await Promise.race([updated, silence]), "neuralcut://project");
    } finally {
      clearTimeout(timer);
    }
    const after = JSON.parse((await client.readResource({ uri: "neuralcut://project" })).contents[0].text);
    assert.ok(after.timeline.tracks.flatMap((t) => t.elements).length > DEMO_PROJECT.timeline.tracks.flatMap((t) => t.elements).length);
  } finally {
    await client.close();
  }
});

/** An SDK client transport over a spawned server that can also write raw lines and keeps the
 * replies that have no id (a parse error's id is null, which the SDK's schema does not accept). */
class RawStdioTransport {
  idless = [];
  #child;
  #buffer = "";

  constructor(args) {
    this.args = args;
  }

  async start() {
    this.#child = spawn(process.execPath, [CLI, "mcp", ...this.args], { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stderr.resume();
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk) => {
      this.#buffer += chunk;
      for (let nl; (nl = this.#buffer.indexOf("\n")) !== -1; ) {
        const message = JSON.parse(this.#buffer.slice(0, nl));
        this.#buffer = this.#buffer.slice(nl + 1);
        if (message.id === null || (message.id === undefined && !("method" in message))) this.idless.push(message);
        else this.onmessage?.(message);
      }
    });
    this.#child.on("exit", (code) => {
      this.exitCode = code;
      this.onclose?.();
    });
  }

  writeRaw(text) {
    this.#child.stdin.write(text);
  }

  async send(message) {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async close() {
    this.#child.stdin.end();
    if (this.#child.exitCode === null) await new Promise((r) => this.#child.once("exit", r));
  }
}

test("a line that is not JSON gets -32700 with id null; junk and an over-long line never end the session", async () => {
  const transport = new RawStdioTransport(["--demo"]);
  const client = new Client({ name: "neuralcut-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    transport.writeRaw("this is not json\n");
    assert.equal((await call(client, "split", { times: [1] })).success, true, "a working call right after");
    assert.equal(transport.idless.length, 1);
    assert.equal(transport.idless[0].id, null);
    assert.equal(transport.idless[0].error.code, -32700);

    // More of what a client might send: the server answers or ignores each, and keeps serving.
    transport.writeRaw('{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"split","arguments":"x"}}\n');
    transport.writeRaw('{"jsonrpc":"2.0","id":42,"method":"no/such/method"}\n');
    transport.writeRaw("[1, 2, 3]\n");
    transport.writeRaw('{"id": "raw-43"}\n');
    transport.writeRaw("\u0000\u00ff\u00fe{{{\n\n");
    transport.writeRaw('{"jsonrpc":"2.0","method":"notifications/nonsense","params":{}}\n');
    transport.writeRaw(
      `{"jsonrpc":"2.0","id":"raw-44","method":"tools/call","params":{"name":"batch","arguments":{"steps":[{"tool":"split","args":{"times":"soon"}}]}}}\n`,
    );
    transport.writeRaw(`{"jsonrpc":"2.0","id":"raw-45","method":"ping","params":{"pad":"${"x".repeat(11 * 1024 * 1024)}"}}\n`);
    const tl = await call(client, "list_timeline");
    assert.ok(tl.tracks.length > 0);
    assert.deepEqual(
      transport.idless.map((m) => m.error.code),
      [-32700, -32600, -32700, -32600],
    );
    assert.match(transport.idless[3].error.message, /longer than/);
    assert.equal(transport.exitCode, undefined, "the server is still running");
  } finally {
    await client.close();
  }
  assert.equal(transport.exitCode, 0, "stdin closed: the server exits cleanly");
});

test("--project with --save writes the project after every change and a restart reads it back", async () => {
  const project = join(dir, "saved.json");
  const voice = join(dir, "voice.wav");
  writeFileSync(voice, wav(1.5));
  let client = await connect("--project", project, "--save");
  let assetId;
  try {
    const imported = await call(client, "media_import", { paths: [voice] });
    assetId = imported.assets[0].id;
    assert.equal(JSON.parse(readFileSync(project, "utf8")).assets.length, 1, "saved after media_import");
    await call(client, "add_media_to_timeline", { assetId, startTime: 0, trackType: "audio" });
    await call(client, "add_text", { text: "Saved", start: 0, end: 1, position: "bottom" });
  } finally {
    await client.close();
  }
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith("saved.json")),
    ["saved.json"],
    "no temporary file left behind",
  );

  client = await connect("--project", project);
  try {
    const tl = await call(client, "list_timeline");
    const elements = tl.tracks.flatMap((t) => t.elements);
    assert.ok(elements.some((e) => e.assetId === assetId && e.duration === 1.5));
    assert.ok(elements.some((e) => e.type === "text" && e.text === "Saved"));
    // Without --save, changes stay in memory (history starts empty after a load).
    const text = elements.find((e) => e.type === "text");
    await call(client, "delete_timeline_elements", { elementIds: [text.elementId] });
  } finally {
    await client.close();
  }
  const saved = JSON.parse(readFileSync(project, "utf8"));
  assert.ok(
    saved.timeline.tracks.some((t) => t.elements.some((e) => e.type === "text")),
    "not written without --save",
  );
});

test("a save that fails is reported beside a successful result, and the session goes on", async () => {
  const sub = join(dir, "vanishing");
  mkdirSync(sub);
  const client = await connect("--project", join(sub, "p.json"), "--save");
  try {
    rmSync(sub, { recursive: true });
    const r = await client.callTool({ name: "add_text", arguments: { text: "Hi", start: 0, end: 1, position: "top" } });
    assert.notEqual(r.isError, true);
    assert.ok(r.structuredContent.elementId);
    assert.match(r.content[1].text, /^warning: the change was made but could not be saved to .*p\.json/);
    mkdirSync(sub);
    await call(client, "undo");
    assert.equal(JSON.parse(readFileSync(join(sub, "p.json"), "utf8")).format, "neuralcut-project", "saved again once it can be");
  } finally {
    await client.close();
  }
});

test("media_import reads WAV, PNG, JPEG, MP4 and MP3 headers (mediabunny, image-size); bad paths are isError and add nothing", async () => {
  const files = {
    "tone.wav": wav(2.25, 16000),
    "still.png": png(64, 48),
    "photo.jpg": jpegHeader(320, 200),
    "clip.mp4": await mp4({ seconds: 3, width: 640, height: 360, fps: 25 }),
    "song.mp3": mp3Cbr(10),
    "notes.txt": Buffer.from("not media\n"),
  };
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  const client = await connect();
  try {
    await client.listTools(); // the SDK client checks structuredContent against the outputSchema
    const paths = ["tone.wav", "still.png", "photo.jpg", "clip.mp4", "song.mp3"].map((n) => join(dir, n));
    const { assets } = await call(client, "media_import", { paths });
    const strip = ({ id, path, ...rest }) => rest;
    assert.deepEqual(assets.map(strip), [
      { name: "tone.wav", type: "audio", format: "wav", duration: 2.25 },
      { name: "still.png", type: "image", format: "png", width: 64, height: 48 },
      { name: "photo.jpg", type: "image", format: "jpeg", width: 320, height: 200 },
      { name: "clip.mp4", type: "video", format: "mp4", duration: 3, width: 640, height: 360, fps: { numerator: 25, denominator: 1 } },
      { name: "song.mp3", type: "audio", format: "mp3", duration: Math.round(((10 * 1152) / 44100) * 1e6) / 1e6 },
    ]);
    assert.deepEqual(
      assets.map((a) => a.path),
      paths,
    );
    const listed = await call(client, "list_project_assets");
    assert.deepEqual(
      listed.assets.map((a) => a.id),
      assets.map((a) => a.id),
    );
    const placed = await call(client, "add_media_to_timeline", { assetId: assets[3].id, startTime: 0, trackType: "main" });
    assert.ok(placed.elementId);

    const failures = [
      [["relative/tone.wav"], /^Path must be absolute/],
      [[join(dir, "missing.wav")], /^File not found: /],
      [[join(dir, "notes.txt")], /^Unsupported media format: .*notes\.txt/],
      [[join(dir, "tone.wav"), join(dir, "notes.txt")], /notes\.txt/],
    ];
    for (const [bad, message] of failures) {
      const r = await client.callTool({ name: "media_import", arguments: { paths: bad } });
      assert.equal(r.isError, true, JSON.stringify(bad));
      assert.match(r.content[0].text, message);
    }
    assert.equal((await call(client, "list_project_assets")).assets.length, assets.length, "a failed import adds nothing");
  } finally {
    await client.close();
  }
});

/** Runs the bin to its end: { code, stdout, stderr }. */
async function runCli(args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  const code = await new Promise((r) => child.on("exit", r));
  return { code, stdout, stderr };
}

test("usage errors exit with status 2 and an unloadable project with 1, before serving", async () => {
  for (const args of [["--save"], ["--demo", "--project", "x.json"], ["--bogus"], ["--project"]]) {
    const { code, stdout, stderr } = await runCli(["mcp", ...args]);
    assert.equal(code, 2, `${args.join(" ")}: ${stderr}`);
    assert.match(stderr, /usage: neuralcut mcp/);
    assert.equal(stdout, "");
  }
  const missing = await runCli(["mcp", "--project", join(dir, "absent.json")]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /project file not found: .*absent\.json/);
  writeFileSync(join(dir, "broken.json"), "{ not a project");
  const broken = await runCli(["mcp", "--project", join(dir, "broken.json")]);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /cannot open the project/);
  assert.match((await runCli(["mcp", "--help"])).stdout, /--project <file>/);
  assert.equal((await runCli(["frobnicate"])).code, 2);
});
