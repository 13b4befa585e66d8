// The MCP protocol under hostile input (docs/mcp.md, "Threats: the MCP protocol"): the built
// `neuralcut mcp` is spawned and driven over stdio. Bad params of every served method are
// -32602 naming the field (the official SDK client sends them); ids that cannot be echoed back
// are -32600 with id null (raw lines: the SDK client cannot send such ids); and a ping sent while
// a long command_batch, or one long engine call, runs is answered before it ends.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ClientRequestSchema, EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { rpcError as rejection } from "./mcp-client.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, pkgJson.bin.neuralcut.replace(/^(\.\/)?dist\//, ""));

/** The SDK client on a fresh `neuralcut mcp --demo`. */
async function connect() {
  const client = new Client({ name: "neuralcut-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--demo"], stderr: "pipe" }));
  return client;
}

/** A spawned server spoken to in raw lines; every reply is kept in arrival order. */
class RawServer {
  replies = [];
  #waiters = [];
  #buffer = "";

  constructor() {
    this.child = spawn(process.execPath, [CLI, "mcp", "--demo"], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.resume();
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => {
      this.#buffer += chunk;
      for (let nl; (nl = this.#buffer.indexOf("\n")) !== -1; ) {
        this.replies.push(JSON.parse(this.#buffer.slice(0, nl)));
        this.#buffer = this.#buffer.slice(nl + 1);
      }
      for (const w of [...this.#waiters]) w();
    });
  }

  write(...messages) {
    this.child.stdin.write(messages.map((m) => `${typeof m === "string" ? m : JSON.stringify(m)}\n`).join(""));
  }

  /** The first reply (from `from` on) that `match` accepts; bounded at 30 s. */
  next(match, from = 0) {
    return new Promise((resolve, reject) => {
      const look = () => {
        const found = this.replies.slice(from).find(match);
        if (!found) return;
        clearTimeout(timer);
        this.#waiters = this.#waiters.filter((w) => w !== look);
        resolve(found);
      };
      const timer = setTimeout(() => reject(new Error(`no matching reply within 30 s; got ${JSON.stringify(this.replies).slice(0, 500)}`)), 30_000);
      this.#waiters.push(look);
      look();
    });
  }

  async request(id, method, params) {
    this.write({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return this.next((r) => r.id === id);
  }

  async initialize() {
    await this.request(0, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    this.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  async close() {
    this.child.stdin.end();
    if (this.child.exitCode === null) await new Promise((r) => this.child.once("exit", r));
  }
}

/** Zod's issue dump, as the SDK sent it before: a JSON array of issues with their codes. */
const ZOD_DUMP = /invalid_type|"expected"|"path"|^\s*\[/;

test("bad params of every served method are -32602 naming the field, never a zod dump, and change nothing", async () => {
  const client = await connect();
  try {
    const before = await client.callTool({ name: "list_timeline", arguments: {} });
    // [method, params, message]: the SDK client sends each as it is.
    const cases = [
      ["tools/call", { name: "split", arguments: [1] }, 'Invalid params: "arguments" must be an object'],
      ["tools/call", { name: "split", arguments: null }, 'Invalid params: "arguments" must be an object'],
      ["tools/call", { name: 5 }, 'Invalid params: "name" must be a string'],
      ["tools/call", undefined, 'Invalid params: "params" is required'],
      ["tools/call", [1], 'Invalid params: "params" must be an object'],
      ["tools/call", { name: "list_timeline", _meta: { progressToken: {} } }, 'Invalid params: "_meta.progressToken" must be a string or a number'],
      ["resources/read", { uri: 5 }, 'Invalid params: "uri" must be a string'],
      ["resources/read", {}, 'Invalid params: "uri" is required'],
      ["resources/subscribe", { uri: ["neuralcut://project"] }, 'Invalid params: "uri" must be a string'],
      ["resources/unsubscribe", "neuralcut://project", 'Invalid params: "params" must be an object'],
      ["tools/list", { cursor: 5 }, 'Invalid params: "cursor" must be a string'],
      ["resources/list", { cursor: {} }, 'Invalid params: "cursor" must be a string'],
      ["resources/templates/list", { cursor: true }, 'Invalid params: "cursor" must be a string'],
      ["ping", { _meta: 5 }, 'Invalid params: "_meta" must be an object'],
      ["initialize", { protocolVersion: 5 }, 'Invalid params: "protocolVersion" must be a string; "capabilities" is required; "clientInfo" is required'],
    ];
    for (const [method, params, message] of cases) {
      const e = await rejection(client.request({ method, params }, method === "tools/call" ? CallToolResultSchema : EmptyResultSchema.passthrough()));
      const label = `${method} ${JSON.stringify(params)}`;
      assert.equal(e.code, -32602, label);
      assert.equal(e.message, `MCP error -32602: ${message}`, label);
      assert.doesNotMatch(e.message, ZOD_DUMP, label);
      assert.equal(e.data.code, "INVALID_PARAMS", label);
    }
    // Every request a client may send (the SDK's list) with a wrong field: a served method is
    // -32602 (ping has no fields and answers), one the server does not serve -32601; never -32603.
    const wrong = { name: 5, uri: 5, cursor: 5, protocolVersion: 5, level: 5, ref: 5, argument: 5, taskId: 5 };
    const refused = {};
    for (const method of ClientRequestSchema.options.map((o) => o.shape.method.value)) {
      const e = await client.request({ method, params: wrong }, EmptyResultSchema.passthrough()).then(
        () => ({ code: "answered", message: "" }),
        (x) => x,
      );
      assert.doesNotMatch(e.message, ZOD_DUMP, method);
      refused[method] = e.code;
    }
    const expected = { ping: "answered", "completion/complete": -32601, "logging/setLevel": -32601, "prompts/get": -32601, "prompts/list": -32601 };
    for (const m of [
      "initialize",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "tools/call",
      "tools/list",
    ])
      expected[m] = -32602;
    for (const m of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) expected[m] = -32601;
    assert.deepEqual(refused, expected);
    // Nothing changed, and the session goes on.
    assert.deepEqual(await client.callTool({ name: "list_timeline", arguments: {} }), before);
    await client.ping();
  } finally {
    await client.close();
  }
});

test("an id that cannot be echoed back is -32600 with id null, and the request does not run", async () => {
  const server = new RawServer();
  try {
    await server.initialize();
    const before = await server.request(1, "tools/call", { name: "list_timeline", arguments: {} });
    const split = { name: "split", arguments: { times: [1] } };
    const bad = [
      '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
      `{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":${JSON.stringify(split)}}`,
      `{"jsonrpc":"2.0","id":[7],"method":"tools/call","params":${JSON.stringify(split)}}`,
      `{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":${JSON.stringify(split)}}`,
      `{"jsonrpc":"2.0","id":true,"method":"ping"}`,
      `{"jsonrpc":"2.0","id":null,"method":"tools/call","params":${JSON.stringify(split)}}`,
    ];
    for (const line of bad) {
      const from = server.replies.length;
      server.write(line);
      const reply = await server.next(() => true, from);
      assert.deepEqual(reply, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: id must be a string or an integer" } }, line);
    }
    // Parse errors keep -32700.
    const from = server.replies.length;
    server.write('{"jsonrpc":"2.0","id":9,"method":');
    assert.equal((await server.next(() => true, from)).error.code, -32700);
    // None of the splits ran.
    const after = await server.request(2, "tools/call", { name: "list_timeline", arguments: {} });
    assert.deepEqual(after.result, before.result);
  } finally {
    await server.close();
  }
});

test("a ping and a tools/list sent while a long command_batch runs are answered before the batch ends", async () => {
  const server = new RawServer();
  try {
    await server.initialize();
    // Raw lines, because the order of the bytes matters: the batch and a request the server's
    // worker answers go out in one write, so that answer shows that the worker has read the batch
    // and started it. Only then are the ping (the main thread answers it) and a tools/list (the
    // worker answers it, between two steps) sent.
    const steps = Array.from({ length: 10_000 }, () => ({ id: "command_list", params: { filter: "zzz" } }));
    server.write(
      { jsonrpc: "2.0", id: "batch", method: "tools/call", params: { name: "command_batch", arguments: { steps } } },
      { jsonrpc: "2.0", id: "started", method: "resources/templates/list" },
    );
    await server.next((r) => r.id === "started");
    server.write({ jsonrpc: "2.0", id: "ping", method: "ping" }, { jsonrpc: "2.0", id: "list", method: "tools/list" });
    const batch = await server.next((r) => r.id === "batch");
    await server.next((r) => r.id === "ping");
    assert.ok((await server.next((r) => r.id === "list")).result.tools.length > 0);
    assert.equal(batch.result.structuredContent.completed, steps.length, "the batch did all its work");
    const order = server.replies.map((r) => r.id).filter((id) => ["batch", "ping", "list"].includes(id));
    assert.deepEqual(order.slice(-1), ["batch"], `answered while the batch ran: ${order}`);
  } finally {
    await server.close();
  }
});

test("a cancelled command_batch stops before its next step: the steps done stay done, the rest never run", async () => {
  const server = new RawServer();
  try {
    await server.initialize();
    // 10,000 splits of the demo's first clip (0 to 6 s), each a step of its own; the marker the
    // worker answers shows it has read the batch and started it.
    const steps = Array.from({ length: 10_000 }, (_, i) => ({ id: "split", params: { times: [0.01 + (i * 5.9) / 10_000] } }));
    server.write(
      { jsonrpc: "2.0", id: "batch", method: "tools/call", params: { name: "command_batch", arguments: { steps } } },
      { jsonrpc: "2.0", id: "started", method: "resources/templates/list" },
    );
    await server.next((r) => r.id === "started");
    server.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "batch", reason: "test" } });
    // Requests are answered between steps, so one reading says nothing: read the main track until
    // two readings half a second apart agree (a batch that went on would only settle at its end).
    let n = 0;
    const mainCount = async () => {
      const r = await server.request(`list-${n++}`, "tools/call", { name: "list_timeline", arguments: {} });
      return r.result.structuredContent.tracks.find((t) => t.type === "main").elements.length;
    };
    let [before, now] = [-1, await mainCount()];
    for (const started = Date.now(); now !== before && Date.now() - started < 60_000; ) {
      await new Promise((r) => setTimeout(r, 500));
      [before, now] = [now, await mainCount()];
    }
    // The demo's main track holds clip.webm and still.jpg; each split that ran added one piece.
    assert.ok(now > 2, `some steps ran before the cancel: ${now}`);
    assert.ok(now < 2 + steps.length, `the batch stopped: ${now - 2} of ${steps.length} splits ran`);
    assert.equal(
      server.replies.find((r) => r.id === "batch"),
      undefined,
      "a cancelled request gets no answer",
    );
  } finally {
    await server.close();
  }
});

test("a ping sent while one long engine call runs (a batch of 10,000 splits) is answered before the call ends", async () => {
  const server = new RawServer();
  try {
    await server.initialize();
    // One synchronous engine call: nothing can turn the event loop inside it. As above, the first
    // ping goes out with the call, the second once the first is answered.
    const steps = Array.from({ length: 10_000 }, (_, i) => ({ tool: "split", args: { times: [0.01 + (i * 5.9) / 10_000] } }));
    server.write(
      { jsonrpc: "2.0", id: "batch", method: "tools/call", params: { name: "batch", arguments: { steps } } },
      { jsonrpc: "2.0", id: "started", method: "ping" },
    );
    await server.next((r) => r.id === "started");
    server.write({ jsonrpc: "2.0", id: "during", method: "ping" });
    const batch = await server.next((r) => r.id === "batch");
    assert.deepEqual((await server.next((r) => r.id === "during")).result, {});
    assert.notEqual(batch.result.isError, true, JSON.stringify(batch.result.content?.[0]).slice(0, 300));
    assert.equal(batch.result.structuredContent.results.length, steps.length, "the batch did all its work");
    const order = server.replies.map((r) => r.id).filter((id) => id === "batch" || id === "during");
    assert.deepEqual(order, ["during", "batch"], "the ping was answered while the engine worked");
    // The session goes on: the batch is one undoable step.
    assert.notEqual((await server.request("undo", "tools/call", { name: "undo", arguments: {} })).result.isError, true);
  } finally {
    await server.close();
  }
});
