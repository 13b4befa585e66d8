// The seed's core tools and resources of `neuralcut mcp`, through the official SDK client:
// command_list (enabled now and why not), command_run (params unchanged, -32602, the tool's own
// errors), command_batch ({completed, failed, results}, each step one undo step, stop_on_error),
// doc_inspect, neuralcut://document and neuralcut://commands, and the 2026-07-28 cache hints.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { rpcError } from "./mcp-client.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, pkgJson.bin.neuralcut.replace(/^(\.\/)?dist\//, ""));
const CORE = ["command_list", "command_run", "command_batch", "doc_inspect"];
const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

async function connect(...args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], stderr: "pipe" });
  const client = new Client({ name: "neuralcut-core-test", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools(); // the SDK client checks structuredContent against each outputSchema from here on
  return client;
}

async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, `${name} failed: ${JSON.stringify(r.content)}`);
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
  return r.structuredContent;
}

const elements = (timeline) => timeline.tracks.flatMap((t) => t.elements);

test("the core tools are listed after the engine's, with titles, strict schemas and the four annotations", async () => {
  const client = await connect();
  try {
    const { tools } = await client.listTools();
    // Engine tools, media_import, the core tools, then render_preview (the compositor's), detect_silences, detect_scenes and the export tools.
    const names = tools.map((t) => t.name);
    const at = names.indexOf("media_import") + 1;
    assert.deepEqual(names.slice(at), [...CORE, "render_preview", "detect_silences", "detect_scenes", "export_video", "jobs_list", "jobs_cancel"]);
    for (const t of tools.filter((t) => CORE.includes(t.name))) {
      assert.ok(t.title && t.description, t.name);
      assert.equal(t.inputSchema.additionalProperties, false, t.name);
      assert.equal(t.outputSchema.type, "object", t.name);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"])
        assert.equal(typeof t.annotations[hint], "boolean", `${t.name} ${hint}`);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    assert.equal(byName.command_list.readOnlyHint, true);
    assert.equal(byName.doc_inspect.readOnlyHint, true);
    assert.equal(byName.command_run.readOnlyHint, false);
    assert.equal(byName.command_batch.destructiveHint, true);
    assert.ok(!tools.some((t) => t.name.startsWith("__")), "no hidden tool is listed");
  } finally {
    await client.close();
  }
});

test("command_list: every tool, enabled now or why not, with filter and enabled_only", async () => {
  const client = await connect();
  try {
    const { tools } = await client.listTools();
    const { commands } = await call(client, "command_list");
    assert.deepEqual(
      commands.map((c) => c.id),
      tools.map((t) => t.name),
      "every tool, in listing order",
    );
    const of = (list) => Object.fromEntries(list.map((c) => [c.id, c]));
    let byId = of(commands);
    const split = tools.find((t) => t.name === "split");
    assert.deepEqual(byId.split.parameters, split.inputSchema, "parameters are the tool's own input schema");
    assert.equal(byId.split.title, split.title);
    assert.deepEqual([byId.undo.enabled, byId.undo.reason], [false, "nothing to undo"]);
    assert.deepEqual([byId.redo.enabled, byId.redo.reason], [false, "nothing to redo"]);
    assert.equal(byId.delete_timeline_elements.enabled, false);
    assert.match(byId.delete_timeline_elements.reason, /no elements/);
    assert.match(byId.add_media_to_timeline.reason, /no assets/);
    assert.match(byId.add_sticker.reason, /sticker catalog is empty/);
    assert.equal(byId.list_timeline.enabled, true);
    assert.equal("reason" in byId.list_timeline, false);
    assert.equal(byId.add_text.enabled, true);

    await call(client, "add_text", { text: "Hi", start: 0, end: 2, position: "top" });
    byId = of((await call(client, "command_list")).commands);
    assert.equal(byId.undo.enabled, true, "something to undo now");
    assert.equal(byId.update_text.enabled, true, "an element exists now");

    const filtered = (await call(client, "command_list", { filter: "UNDO" })).commands.map((c) => c.id);
    assert.deepEqual(filtered, ["undo"]);
    const titled = (await call(client, "command_list", { filter: "several" })).commands.map((c) => c.id);
    assert.deepEqual(titled, ["command_batch"], "the filter matches titles too");
    const enabled = (await call(client, "command_list", { enabled_only: true })).commands;
    assert.ok(enabled.every((c) => c.enabled) && enabled.some((c) => c.id === "undo") && !enabled.some((c) => c.id === "redo"));

    const e = await rpcError(client.callTool({ name: "command_list", arguments: { filtr: "x" } }));
    assert.equal(e.code, -32602);
    assert.match(e.message, /unknown argument "filtr" for command_list; expected: enabled_only, filter/);
    const bad = await client.callTool({ name: "command_list", arguments: { enabled_only: "yes" } });
    assert.equal(bad.isError, true);
    assert.equal(bad.content[0].text, "enabled_only must be a boolean");
  } finally {
    await client.close();
  }
});

test("command_run: params reach the tool unchanged; its errors are its own; unknown names are -32602", async () => {
  const client = await connect("--demo");
  try {
    const direct = await call(client, "list_timeline");
    const split = await call(client, "command_run", { id: "split", params: { times: [2] } });
    assert.equal(split.success, true);
    assert.ok(split.newElements.length > 0);
    assert.equal(elements(await call(client, "list_timeline")).length, elements(direct).length + split.newElements.length);
    await call(client, "command_run", { id: "undo" }); // params default to {}
    assert.deepEqual(await call(client, "list_timeline"), direct, "one undo step");

    const own = await client.callTool({ name: "command_run", arguments: { id: "delete_timeline_elements", params: { elementIds: ["nope"] } } });
    assert.equal(own.isError, true);
    const direct404 = await client.callTool({ name: "delete_timeline_elements", arguments: { elementIds: ["nope"] } });
    assert.deepEqual(own.content, direct404.content, "the same error as calling the tool directly");

    let e = await rpcError(client.callTool({ name: "command_run", arguments: { id: "split", params: { tmes: [2] } } }));
    assert.equal(e.code, -32602);
    assert.match(e.message, /unknown argument "tmes" for split; expected: times/);
    e = await rpcError(client.callTool({ name: "command_run", arguments: { id: "frobnicate" } }));
    assert.equal(e.code, -32602);
    assert.match(e.message, /Unknown tool "frobnicate"/);
    e = await rpcError(client.callTool({ name: "command_run", arguments: { id: "split", parms: {} } }));
    assert.match(e.message, /unknown argument "parms" for command_run; expected: id, params/);
    const notObject = await client.callTool({ name: "command_run", arguments: { id: "split", params: [1] } });
    assert.equal(notObject.isError, true, "params go to the tool unchanged, which refuses a non-object");
    assert.equal(notObject.content[0].text, "Arguments must be a JSON object");
    // Reads through command_run: the core reads are runnable too.
    const doc = await call(client, "command_run", { id: "doc_inspect" });
    assert.deepEqual(doc.timeline, direct);
  } finally {
    await client.close();
  }
});

test("command_batch: each step its own undo step, {completed, failed, results}, stop_on_error", async () => {
  const client = await connect("--demo");
  try {
    const start = await call(client, "list_timeline");
    const ok = await call(client, "command_batch", {
      steps: [
        { id: "split", params: { times: [2] } },
        { id: "list_timeline" },
        { id: "add_text", params: { text: "End", start: 20, end: 22, position: "bottom" } },
      ],
    });
    assert.deepEqual([ok.completed, ok.failed, ok.results.length], [3, 0, 3]);
    assert.deepEqual(
      ok.results.map((r) => [r.step, r.id, r.ok]),
      [
        [0, "split", true],
        [1, "list_timeline", true],
        [2, "add_text", true],
      ],
    );
    assert.ok(ok.results[2].result.elementId);
    await call(client, "undo"); // the text
    const afterOneUndo = await call(client, "list_timeline");
    assert.ok(!elements(afterOneUndo).some((e) => e.text === "End"));
    assert.ok(elements(afterOneUndo).length > elements(start).length, "the split is still there: its own step");
    await call(client, "undo");
    assert.deepEqual(await call(client, "list_timeline"), start);

    const steps = [
      { id: "split", params: { times: [3] } },
      { id: "delete_timeline_elements", params: { elementIds: ["nope"] } },
      { id: "add_text", params: { text: "Late", start: 20, end: 22, position: "bottom" } },
    ];
    const stopped = await call(client, "command_batch", { steps });
    assert.deepEqual([stopped.completed, stopped.failed, stopped.results.length], [1, 1, 2], "stops at the first failure by default");
    assert.equal(stopped.results[1].ok, false);
    assert.equal(stopped.results[1].error.code, "ELEMENTS_NOT_FOUND");
    assert.ok(!elements(await call(client, "list_timeline")).some((e) => e.text === "Late"));
    await call(client, "undo");
    assert.deepEqual(await call(client, "list_timeline"), start, "the completed step stays, as one undo step");

    const all = await call(client, "command_batch", { steps, stop_on_error: false });
    assert.deepEqual([all.completed, all.failed, all.results.length], [2, 1, 3]);
    assert.ok(elements(await call(client, "list_timeline")).some((e) => e.text === "Late"));

    // Steps are checked before any runs: nothing changes.
    const before = await call(client, "list_timeline");
    let e = await rpcError(client.callTool({ name: "command_batch", arguments: { steps: [{ id: "split", params: { times: [1] } }, { id: "nope" }] } }));
    assert.equal(e.code, -32602);
    assert.equal(e.data.step, 1);
    e = await rpcError(client.callTool({ name: "command_batch", arguments: { steps: [{ id: "split", args: {} }] } }));
    assert.equal(e.code, -32602);
    assert.match(e.message, /unknown argument "args" for command_batch step; expected: id, params/);
    e = await rpcError(client.callTool({ name: "command_batch", arguments: { steps: [], stop: true } }));
    assert.match(e.message, /unknown argument "stop" for command_batch; expected: steps, stop_on_error/);
    const empty = await client.callTool({ name: "command_batch", arguments: { steps: [] } });
    assert.equal(empty.isError, true);
    const nested = await rpcError(client.callTool({ name: "command_batch", arguments: { steps: [{ id: "command_batch", params: {} }] } }));
    assert.equal(nested.code, -32602, "command_batch does not run itself");
    assert.deepEqual(await call(client, "list_timeline"), before);
    // batch stays the atomic one.
    const atomic = await client.callTool({
      name: "batch",
      arguments: {
        steps: [
          { tool: "split", args: { times: [4] } },
          { tool: "delete_timeline_elements", args: { elementIds: ["nope"] } },
        ],
      },
    });
    assert.equal(atomic.isError, true);
    assert.deepEqual(await call(client, "list_timeline"), before);
  } finally {
    await client.close();
  }
});

test("doc_inspect and the resources neuralcut://document and neuralcut://commands", async () => {
  const client = await connect("--demo");
  try {
    const doc = await call(client, "doc_inspect");
    assert.deepEqual(doc.timeline, await call(client, "list_timeline"));
    // As list_project_assets, plus the file of each: the demo's sample media in the package.
    assert.deepEqual(
      doc.assets.map(({ path, ...a }) => a),
      (await call(client, "list_project_assets")).assets,
    );
    assert.ok(
      doc.assets.every((a) => /demo[\\/]media[\\/]/.test(a.path)),
      "demo assets point at demo/media",
    );
    assert.deepEqual(doc.settings, { fps: { numerator: 30, denominator: 1 }, canvas: { width: 1920, height: 1080 } });
    assert.deepEqual([doc.canUndo, doc.canRedo], [false, false]);
    assert.equal(typeof doc.revision, "number");
    const e = await rpcError(client.callTool({ name: "doc_inspect", arguments: { x: 1 } }));
    assert.match(e.message, /unknown argument "x" for doc_inspect; expected: no arguments/);

    const read = async (uri) => {
      const r = await client.readResource({ uri });
      assert.equal(r.contents[0].mimeType, "application/json");
      return JSON.parse(r.contents[0].text);
    };
    assert.deepEqual(await read("neuralcut://document"), doc);
    assert.deepEqual((await read("neuralcut://commands")).commands, (await call(client, "command_list")).commands);
    // Today's names keep working.
    assert.equal((await read("neuralcut://project")).format, "neuralcut-project");
    assert.ok((await read("neuralcut://tools")).tools.length > CORE.length);

    const updates = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
    await client.subscribeResource({ uri: "neuralcut://document" });
    await client.subscribeResource({ uri: "neuralcut://commands" });
    await call(client, "split", { times: [2] });
    await call(client, "list_timeline"); // a round trip: the notifications were sent before its answer
    assert.deepEqual(updates.sort(), ["neuralcut://commands", "neuralcut://document"]);
    const after = await read("neuralcut://document");
    assert.equal(after.canUndo, true);
    assert.ok(after.revision > doc.revision);
    assert.equal((await read("neuralcut://commands")).commands.find((c) => c.id === "undo").enabled, true);
  } finally {
    await client.close();
  }
});

test("cache hints: ttlMs and cacheScope for requests of MCP 2026-07-28, none for older ones", async () => {
  const client = await connect("--demo");
  try {
    // The SDK in use (1.x) negotiates 2025-11-25 in initialize: no hints there.
    for (const r of [await client.listTools(), await client.listResources(), await client.readResource({ uri: "neuralcut://document" })]) {
      assert.equal("ttlMs" in r, false);
      assert.equal("cacheScope" in r, false);
    }
    // A request that names the 2026-07-28 revision in its _meta gets them.
    const tools = await client.listTools({ _meta: MODERN });
    assert.deepEqual([tools.ttlMs, tools.cacheScope], [3_600_000, "public"]);
    const resources = await client.listResources({ _meta: MODERN });
    assert.deepEqual([resources.ttlMs, resources.cacheScope], [3_600_000, "public"]);
    const templates = await client.listResourceTemplates({ _meta: MODERN });
    assert.deepEqual([templates.ttlMs, templates.cacheScope], [3_600_000, "public"]);
    for (const uri of ["neuralcut://document", "neuralcut://commands", "neuralcut://project"]) {
      const r = await client.readResource({ uri, _meta: MODERN });
      assert.deepEqual([r.ttlMs, r.cacheScope], [0, "private"], `${uri} changes with every edit`);
    }
    const catalog = await client.readResource({ uri: "neuralcut://tools", _meta: MODERN });
    assert.deepEqual([catalog.ttlMs, catalog.cacheScope], [3_600_000, "public"]);
    const older = await client.listTools({ _meta: { "io.modelcontextprotocol/protocolVersion": "2025-11-25" } });
    assert.equal("ttlMs" in older, false);
  } finally {
    await client.close();
  }
});

test(".mcp.json registers `neuralcut mcp --demo` and an MCP client can start it from the repository root", async () => {
  const config = JSON.parse(readFileSync(join(root, ".mcp.json"), "utf8"));
  const server = config.mcpServers.neuralcut;
  assert.deepEqual(server.args.slice(-2), ["mcp", "--demo"]);
  const transport = new StdioClientTransport({
    command: server.command === "node" ? process.execPath : server.command,
    args: server.args,
    cwd: root,
    stderr: "pipe",
  });
  const client = new Client({ name: "neuralcut-config-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const doc = await call(client, "doc_inspect");
    assert.ok(doc.timeline.tracks.length > 0, "the demo project");
  } finally {
    await client.close();
  }
});
