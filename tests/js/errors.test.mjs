// One error family: every code the JS layer gives is in the generated ERROR_CODES (from
// src/error_code.rs, which the engine's own codes cannot bypass: they are an enum there), and
// what the package throws is a NeuralCutError.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { createEditor, ERROR_CODES, NeuralCutError } from "../../dist/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" ? [] : sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

test("every error code written in js/ is in ERROR_CODES", async () => {
  const known = new Set(ERROR_CODES);
  const patterns = [
    /\bcode: "([A-Z][A-Z0-9_]*)"/g,
    /(?:NeuralCutError|AgentError|UploadRefusedError)\("([A-Z][A-Z0-9_]*)"/g,
    /\bfail(?:ure)?\("[^"]*", "([A-Z][A-Z0-9_]*)"/g,
    /\bfail\("([A-Z][A-Z0-9_]*)"/g,
  ];
  const unknown = [];
  let seen = 0;
  for (const file of sources(join(root, "js"))) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.includes('type: "notice"')) continue; // notices are events, not errors
      for (const re of patterns) {
        for (const m of line.matchAll(re)) {
          seen++;
          if (!known.has(m[1])) unknown.push(`${file.slice(root.length)}: ${m[1]}`);
        }
      }
    }
  }
  assert.ok(seen > 40, `the scan found ${seen} codes: the patterns no longer match the code`);
  assert.deepEqual(unknown, [], "codes missing from src/error_code.rs");
  const { BRIDGE_ERRORS } = await import("../../dist/bridge/protocol.js");
  for (const code of Object.values(BRIDGE_ERRORS)) assert.ok(known.has(code), `bridge code ${code}`);
});

test("engine errors are NeuralCutErrors whose codes are in ERROR_CODES", async () => {
  const editor = await createEditor();
  const thrown = [];
  for (const bad of [() => editor.addAsset({ name: "", type: "video" }), () => editor.addSticker({ id: "", name: "" }), () => editor.frameAt(Number.NaN)]) {
    try {
      bad();
    } catch (e) {
      thrown.push(e);
    }
  }
  assert.equal(thrown.length, 3);
  for (const e of thrown) {
    assert.ok(e instanceof NeuralCutError, String(e));
    assert.ok(ERROR_CODES.includes(e.code), e.code);
  }
  const failed = await editor.callToolUntyped("split", { times: [1] });
  assert.ok(ERROR_CODES.includes(failed.code), failed.code);
});

// Classes and throw sites still to convert (none now): listed so this test fails once they are
// converted and the list is not cut, and on any new offender.
const PENDING_CLASSES = new Set([]);
const PENDING_DIRS = [];
// pageExport runs inside Chromium (its source is sent to the page): its errors cross back as
// { message, code } and are rethrown as NeuralCutError by createHeadlessExporter.
const IN_PAGE = new Set(["js/export-headless.ts:could not write the file:"]);

test("every error class in js/ descends from NeuralCutError", () => {
  const parent = new Map();
  for (const file of sources(join(root, "js"))) {
    for (const m of readFileSync(file, "utf8").matchAll(/class (\w+) extends (\w+)/g)) parent.set(m[1], m[2]);
  }
  const offenders = [];
  let errors = 0;
  for (const name of parent.keys()) {
    const chain = [name];
    while (parent.has(chain.at(-1)) && chain.length < 10) chain.push(parent.get(chain.at(-1)));
    if (!/Error$/.test(chain.at(-1)) && chain.at(-1) !== "NeuralCutError") continue; // not an error (e.g. a custom element)
    errors++;
    if (!chain.includes("NeuralCutError") && name !== "NeuralCutError" && !PENDING_CLASSES.has(name)) offenders.push(chain.join(" -> "));
  }
  assert.ok(errors >= 14, `the scan found ${errors} error classes`);
  assert.deepEqual(offenders, [], "error classes outside the family");
  for (const name of PENDING_CLASSES)
    assert.ok(parent.has(name) && !parent.get(name).startsWith("NeuralCut"), `${name} is converted: take it off PENDING_CLASSES`);
});

test("nothing in js/ throws a bare Error, TypeError or RangeError", () => {
  const offenders = [];
  for (const file of sources(join(root, "js"))) {
    const rel = file.slice(root.length).replaceAll("\\", "/");
    if (PENDING_DIRS.some((d) => rel.startsWith(d))) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const m = /(?:throw|reject\()\s*new (?:Error|TypeError|RangeError)\(\s*`?"?([^`"$]*)/.exec(line);
      if (m && ![...IN_PAGE].some((k) => k === `${rel}:${m[1].trim()}`)) offenders.push(`${rel}: ${line.trim()}`);
    }
  }
  assert.deepEqual(offenders, []);
});

/** The NeuralCutError `f` throws or rejects with, checked to carry a listed code. */
async function thrown(f, code, cls = NeuralCutError) {
  let error;
  try {
    await f();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof NeuralCutError && error instanceof cls, `${f}: threw ${error?.name}: ${error?.message}`);
  assert.ok(ERROR_CODES.includes(error.code), `${error.code} is not in ERROR_CODES`);
  assert.equal(error.code, code, `${f}: ${error.message}`);
  return error;
}

test("each error class the package throws, triggered by hostile input, is a NeuralCutError with a listed code", async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { probeMedia, MediaProbeError } = await import("../../dist/media/probe.js");
  const { parseExportArgs } = await import("../../dist/export-cli.js");
  const { UsageError } = await import("../../dist/errors.js");
  const { MemoryStore, createGeminiProxy, createTokenAuthorizer, createRedisStore } = await import("../../dist/proxy/index.js");
  const { serveGeminiProxy } = await import("../../dist/proxy/node.js");
  const { StoreError } = await import("../../dist/proxy/errors.js");
  const { connectOpenCut } = await import("../../dist/opencut.js");
  const { hostToolInfo } = await import("../../dist/host-tools.js");
  const { registerWebMcpTools } = await import("../../dist/webmcp.js");
  const { createHeadlessExporter } = await import("../../dist/export-headless.js");
  const { createHeadlessRenderer } = await import("../../dist/render-headless.js");

  const dir = mkdtempSync(join(tmpdir(), "nc-errors-"));
  try {
    writeFileSync(join(dir, "notes.mp4"), "not a video at all");
    for (const bad of ["relative/clip.mp4", dir, join(dir, "missing.mp4"), join(dir, "notes.mp4"), 42]) {
      await thrown(() => probeMedia(bad), "MEDIA_UNREADABLE", MediaProbeError);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  for (const argv of [["--bogus"], ["--width", "x", "a.mp4"], ["--demo", "--project", "p.json", "a.mp4"], []]) {
    await thrown(() => parseExportArgs(argv), "USAGE", UsageError);
  }
  const { parseMcpArgs } = await import("../../dist/mcp/main.js");
  for (const argv of [["--nope"], ["--project"], ["--bridge", "127.0.0.1:1", "--demo"], ["--token", "t"], ["--save"], ["--project="]]) {
    await thrown(() => parseMcpArgs(argv), "USAGE", UsageError);
  }
  const { openSession } = await import("../../dist/mcp/session.js");
  const nowhere = mkdtempSync(join(tmpdir(), "nc-session-"));
  try {
    await thrown(() => openSession({ project: join(nowhere, "absent.json") }), "PROJECT_UNREADABLE");
    await thrown(() => openSession({ project: nowhere }), "PROJECT_UNREADABLE"); // a directory
  } finally {
    rmSync(nowhere, { recursive: true, force: true });
  }

  const store = new MemoryStore({ maxKeys: 1 });
  await store.add("a", 1, 60_000);
  await thrown(() => store.add("b", 1, 60_000), "STORE_FULL", StoreError);

  const editor = await createEditor();
  const ok = { apiKey: "k", authorize: () => null, allowedOrigins: ["http://127.0.0.1:1"], handleSecret: "s".repeat(32) };
  for (const bad of [
    () => createGeminiProxy({}),
    () => createGeminiProxy({ ...ok, handleSecret: "short" }),
    () => createTokenAuthorizer(""),
    () => createRedisStore(null),
    () => new MemoryStore({ maxKeys: -1 }),
    () => serveGeminiProxy({ ...ok, headersTimeoutMs: -1 }),
    () => connectOpenCut(null, {}),
    () => connectOpenCut(editor, { getTracks: 1 }),
    () => editor.beginGroup({ label: "x" }),
    () => editor.onChange("not a function"),
  ]) {
    await thrown(bad, "INVALID_OPTIONS");
  }

  // A port already taken: the proxy says so with a code, and no server is left behind.
  const { createServer } = await import("node:net");
  const taken = createServer();
  await new Promise((r) => taken.listen(0, "127.0.0.1", r));
  try {
    await thrown(() => serveGeminiProxy({ ...ok, host: "127.0.0.1", port: taken.address().port }), "LISTEN_FAILED");
  } finally {
    await new Promise((r) => taken.close(r));
  }

  await thrown(() => hostToolInfo("no_such_tool"), "INTERNAL");

  // The control channel: a relay on 127.0.0.1 with no page, hostile file grants, a taken port.
  const { startRelay } = await import("../../dist/bridge/relay.js");
  const { connectControl, BridgeCallError, parseAddress } = await import("../../dist/bridge/client.js");
  const { createFileGrants, GrantError } = await import("../../dist/bridge/file-grants.js");
  const relay = await startRelay({ port: 0 });
  try {
    const control = await connectControl({ port: relay.port, token: relay.token });
    try {
      await thrown(() => control.call("engine.tools"), "NO_PAGE", BridgeCallError);
    } finally {
      control.close();
    }
    await thrown(() => startRelay({ port: relay.port }), "LISTEN_FAILED");
    await thrown(() => connectControl({ port: relay.port, token: "w".repeat(40) }), "UNAUTHORIZED", BridgeCallError);
  } finally {
    await relay.close();
  }
  await thrown(() => parseAddress("127.0.0.1:99999"), "INVALID_OPTIONS");
  const grants = await createFileGrants();
  for (const bad of ["relative.mp4", "/nonexistent/clip.mp4", tmpdir()]) {
    await thrown(() => grants.grant([bad], "http://127.0.0.1:1", "http://127.0.0.1:2/"), "MEDIA_UNREADABLE", GrantError);
  }
  grants.clear();
  const refusing = { registerTool: () => Promise.reject(new TypeError("tool name taken")) };
  await thrown(() => registerWebMcpTools(editor, { modelContext: refusing }), "WEBMCP_UNAVAILABLE");

  // No Chromium at the path named: the export fails as an export, the preview as a render.
  const exporter = await createHeadlessExporter({ chromiumPath: "/nonexistent/chromium" });
  try {
    await thrown(() => exporter.export(editor.project(), new Map(), { path: join(tmpdir(), "nc-never.mp4"), format: "mp4" }), "EXPORT_FAILED");
  } finally {
    await exporter.close();
  }
  const renderer = await createHeadlessRenderer({ chromiumPath: "/nonexistent/chromium" });
  try {
    await thrown(() => renderer.render(editor.project(), new Map(), { time: 0 }), "RENDER_FAILED");
  } finally {
    await renderer.close?.();
  }
  editor.dispose();
});

test("the proxy's refusals carry listed codes on the wire, and ProxyError keeps them", async () => {
  const { startFakeGemini } = await import("./fake-gemini.mjs");
  const { KEY, ORIGIN, TOKENS, hello, startProxy, requester } = await import("./proxy-helpers.mjs");
  const { createProxyClient, ProxyError } = await import("../../dist/agent/index.js");
  const fake = await startFakeGemini({ apiKey: KEY });
  const proxy = await startProxy(fake, { limits: { maxTurns: 2 }, budgets: { requestsPerMinute: 6 }, log: () => {} });
  try {
    const { req, generate } = requester(() => proxy.url, []);
    const turns = { ...hello(), contents: Array.from({ length: 3 }, () => hello().contents[0]) };
    const answers = [
      await req("generate", { body: "{ not json", headers: { "content-type": "application/json" } }),
      await generate({ ...hello(), model: "gemini-ultra-9" }),
      await generate(turns),
      await generate(hello(), { user: null }),
      await generate(hello(), { origin: "http://evil.example" }),
      await req("generate", { method: "GET" }),
      await req("nowhere"),
      await req("status", { body: JSON.stringify({ handle: "ncf_forged" }) }),
    ];
    const wire = answers.map((a) => a.json?.code);
    assert.deepEqual(wire, [
      "bad_request",
      "model_not_allowed",
      "too_many_turns",
      "unauthorized",
      "origin_refused",
      "method_not_allowed",
      "not_found",
      "not_found",
    ]);
    for (const code of wire) assert.ok(ERROR_CODES.includes(code.toUpperCase()), `${code} is not in ERROR_CODES`);
    // Past the budget: rate_limited.
    let last;
    for (let i = 0; i < 8 && last?.status !== 429; i++) {
      fake.script.push({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] } }] });
      last = await generate(hello(), { user: "bob" });
    }
    assert.equal(last.json.code, "rate_limited");

    // The client side: each refusal is a ProxyError whose code is the wire code upper-cased.
    const client = createProxyClient({ proxyUrl: proxy.url, retry: { retries: 0 }, headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS.carol}` } });
    for (const [request, code] of [
      [{ ...hello(), model: "gemini-ultra-9" }, "MODEL_NOT_ALLOWED"],
      [turns, "TOO_MANY_TURNS"],
    ]) {
      await thrown(() => client.generate(request), code, ProxyError);
    }
  } finally {
    await proxy.close();
    await fake.close();
  }
});

test("a page failure in headless render_preview is RENDER_FAILED, not playwright's bare error", async () => {
  const { createHeadlessRenderer } = await import("../../dist/render-headless.js");
  const renderer = await createHeadlessRenderer();
  try {
    // A project the page's engine refuses: the failure happens inside Chromium.
    const e = await thrown(() => renderer.render({ format: "someone-else", version: 99 }, new Map(), { time: 0 }), "RENDER_FAILED");
    assert.match(e.message, /project/i);
  } finally {
    await renderer.close();
  }
});
