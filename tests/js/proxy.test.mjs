// The Gemini proxy over real HTTP on 127.0.0.1, against the fake Gemini: the upload, status and
// generate endpoints, and everything it refuses. The key must appear in no response.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";

import { serveGeminiProxy } from "../../dist/proxy/node.js";
import { createGeminiProxy } from "../../dist/proxy/index.js";
import { startFakeGemini, modelTurn, call } from "./fake-gemini.mjs";

const KEY = "AIzaFAKE-proxy-test-key-0123456789";
const ORIGIN = "http://127.0.0.1:5173";
const CLIENT_A = "client-aaaaaaaaaaaaaaaa";
const CLIENT_B = "client-bbbbbbbbbbbbbbbb";
const GRANULARITY = 1024;

let fake;
let proxy;
let logLines = [];
/** Every response of every test, for the key check at the end. */
const seen = [];

async function req(path, { method = "POST", origin = ORIGIN, client = CLIENT_A, headers = {}, body, base = proxy.url } = {}) {
  const h = { ...headers };
  if (origin) h.origin = origin;
  if (client) h["x-neuralcut-client"] = client;
  const res = await fetch(new URL(path, base), { method, headers: h, body });
  const text = await res.text();
  seen.push({ path, status: res.status, headers: [...res.headers], text });
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

const generate = (body, opts = {}) => req("generate", { ...opts, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const upload = (bytes, type = "video/mp4", opts = {}) => req("upload", { ...opts, headers: { "content-type": type, "x-file-name": encodeURIComponent("clip one.mp4"), ...opts.headers }, body: bytes });

function bytes(n, seed = 7) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY, granularity: GRANULARITY, processingPolls: 2 });
  proxy = await serveGeminiProxy({
    apiKey: KEY,
    allowedOrigins: [ORIGIN],
    models: ["gemini-2.5-flash"],
    upstream: fake.url,
    limits: { maxUploadBytes: 64 * 1024, maxGenerateBytes: 16 * 1024, maxTurns: 8, uploadChunkBytes: 1500, requestsPerWindow: 1000, uploadsPerWindow: 1000 },
    log: (line) => logLines.push(line),
  });
});

after(async () => {
  await proxy?.close();
  await fake?.close();
});

test("upload streams the body through a resumable session in granular chunks and returns an opaque handle", async () => {
  const data = bytes(5000);
  const r = await upload(data);
  assert.equal(r.status, 201);
  assert.match(r.json.handle, /^ncf_[A-Za-z0-9_-]+$/);
  assert.equal(r.json.state, "PROCESSING");
  assert.equal(r.json.mimeType, "video/mp4");
  assert.equal(r.json.sizeBytes, 5000);
  assert.ok(r.json.expiresAt > Date.now());
  assert.equal(r.headers.get("access-control-allow-origin"), ORIGIN);
  const up = fake.uploads.at(-1);
  assert.deepEqual(new Uint8Array(up.bytes), data);
  // 1500 rounds up to 2048 (two 1024-byte granules): two full chunks, then the rest with finalize.
  assert.deepEqual(up.commands, ["upload@0+2048", "upload@2048+2048", "upload, finalize@4096+904"]);
  assert.equal(up.displayName, "clip one.mp4");
  // Neither the upstream name nor URI is visible in the handle.
  assert.ok(!r.text.includes(up.name.slice(6)));
  assert.ok(!r.text.includes(fake.url));
});

test("status follows PROCESSING to ACTIVE", async () => {
  const { json } = await upload(bytes(100), "audio/mpeg");
  const first = await req("status", { headers: { "content-type": "application/json" }, body: JSON.stringify({ handle: json.handle }) });
  assert.equal(first.status, 200);
  assert.equal(first.json.state, "PROCESSING");
  const second = await req("status", { headers: { "content-type": "application/json" }, body: JSON.stringify({ handle: json.handle }) });
  assert.equal(second.json.state, "ACTIVE");
  assert.equal(second.json.mimeType, "audio/mpeg");
});

test("FAILED processing is reported with safe details; an expired file answers 410", async () => {
  fake.failProcessing = true;
  fake.processingPolls = 1;
  try {
    const { json } = await upload(bytes(10), "image/png");
    const st = await req("status", { body: JSON.stringify({ handle: json.handle }) });
    assert.equal(st.json.state, "FAILED");
    assert.match(st.json.details, /could not be decoded/);
    fake.expire(fake.uploads.at(-1).name);
    const gone = await req("status", { body: JSON.stringify({ handle: json.handle }) });
    assert.equal(gone.status, 410);
  } finally {
    fake.failProcessing = false;
    fake.processingPolls = 2;
  }
});

test("generate forwards function declarations, swaps handles for file URIs and returns model parts verbatim", async () => {
  const { json } = await upload(bytes(300));
  for (let i = 0; i < 2; i++) await req("status", { body: JSON.stringify({ handle: json.handle }) });
  const answer = modelTurn([{ text: "thinking", thought: true }, call("split", { times: [1.5] }, "c2lnLW9uZS0xMjM=")]);
  fake.script.push(answer);
  const r = await generate({
    model: "gemini-2.5-flash",
    contents: [{ role: "user", parts: [{ text: "cut at 1.5" }, { fileData: { fileUri: json.handle, mimeType: "video/mp4" } }] }],
    tools: [{ functionDeclarations: [{ name: "split", description: "Split", parametersJsonSchema: { type: "object", properties: { times: { type: "array", items: { type: "number" } } }, required: ["times"] } }] }],
    systemInstruction: { parts: [{ text: "You edit video." }] },
  });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.candidates[0].content, answer.candidates[0].content);
  const sent = fake.generateCalls.at(-1);
  assert.equal(sent.model, "gemini-2.5-flash");
  assert.equal(sent.body.model, undefined);
  assert.equal(sent.body.contents[0].parts[1].fileData.fileUri, `${fake.url}/v1beta/${fake.uploads.at(-1).name}`);
  assert.equal(sent.body.tools[0].functionDeclarations[0].name, "split");
});

test("the key goes upstream only in the x-goog-api-key header, never in a URL", () => {
  assert.ok(fake.requests.length > 0);
  for (const r of fake.requests) {
    assert.equal(r.headers["x-goog-api-key"], KEY);
    assert.ok(!r.query.includes(KEY) && !r.path.includes(KEY));
  }
});

test("a request without an Origin, or from a foreign one, is refused with 403 and no CORS grant", async () => {
  for (const origin of [null, "http://evil.example", "null", "http://127.0.0.1:5174"]) {
    const r = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] }, { origin });
    assert.equal(r.status, 403, String(origin));
    assert.equal(r.headers.get("access-control-allow-origin"), null);
  }
  const pre = await req("generate", { method: "OPTIONS", origin: "http://evil.example", client: null });
  assert.equal(pre.status, 403);
});

test("a CORS preflight from an allowed origin is answered", async () => {
  const r = await req("upload", { method: "OPTIONS", client: null });
  assert.equal(r.status, 204);
  assert.equal(r.headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(r.headers.get("access-control-allow-headers"), /x-neuralcut-client/);
});

test("unknown paths and methods are refused; nothing is forwarded", async () => {
  const before = fake.requests.length;
  for (const path of ["v1beta/models/gemini-2.5-flash:generateContent", "upload/v1beta/files", "files", "generate/x", "generate/", "Generate", "status%2F"]) {
    const r = await req(path, { body: "{}" });
    assert.equal(r.status, 404, path);
  }
  assert.equal((await req("generate", { method: "GET" })).status, 405);
  assert.equal(fake.requests.length, before);
});

test("a request without a client id is refused", async () => {
  const r = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] }, { client: null });
  assert.equal(r.status, 400);
  assert.equal((await generate({}, { client: "short" })).status, 400);
});

test("oversized bodies are refused with 413", async () => {
  const big = await upload(bytes(64 * 1024 + 1));
  assert.equal(big.status, 413);
  const huge = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "x".repeat(17 * 1024) }] }] });
  assert.equal(huge.status, 413);
  const turns = await generate({ model: "gemini-2.5-flash", contents: Array.from({ length: 9 }, () => ({ role: "user", parts: [{ text: "x" }] })) });
  assert.equal(turns.status, 413);
  assert.equal(turns.json.code, "too_many_turns");
});

test("only video, audio and image files are uploaded", async () => {
  for (const type of ["text/html", "application/octet-stream", "video", "image/svg+xml; x=1".replace("svg+xml; x=1", "*")]) {
    const r = await upload(bytes(10), type);
    assert.equal(r.status, 415, type);
  }
});

test("a model outside the allowlist is refused with 403", async () => {
  const before = fake.generateCalls.length;
  for (const model of ["gemini-2.5-pro", "../files/x", "gemini-2.5-flash:streamGenerateContent", undefined]) {
    const r = await generate({ model, contents: [{ role: "user", parts: [{ text: "hi" }] }] });
    assert.equal(r.status, 403, String(model));
    assert.equal(r.json.code, "model_not_allowed");
  }
  assert.equal(fake.generateCalls.length, before);
});

test("Google's own tools, inline data and unknown fields are refused", async () => {
  const base = { model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] };
  assert.equal((await generate({ ...base, tools: [{ urlContext: {} }] })).status, 400);
  assert.equal((await generate({ ...base, tools: [{ googleSearch: {} }] })).status, 400);
  assert.equal((await generate({ ...base, contents: [{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "AA==" } }] }] })).status, 400);
  assert.equal((await generate({ ...base, cachedContent: "cachedContents/x" })).status, 400);
  assert.equal((await generate({ ...base, contents: [{ role: "user", parts: [{ fileData: { fileUri: "https://example.com/a.mp4" } }] }] })).status, 404);
});

test("another client's file handle is refused, for status and for generate", async () => {
  const { json } = await upload(bytes(50));
  const st = await req("status", { client: CLIENT_B, body: JSON.stringify({ handle: json.handle }) });
  assert.equal(st.status, 404);
  const gen = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ fileData: { fileUri: json.handle } }] }] }, { client: CLIENT_B });
  assert.equal(gen.status, 404);
  // A tampered handle is no handle.
  const tampered = json.handle.slice(0, -2) + (json.handle.endsWith("AA") ? "BB" : "AA");
  assert.equal((await req("status", { body: JSON.stringify({ handle: tampered }) })).status, 404);
});

test("upstream failures become a safe 502 (or 429, 504) without upstream secrets", async () => {
  fake.failNext("generate", 500);
  const r = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] });
  assert.equal(r.status, 502);
  assert.equal(r.json.upstreamStatus, 500);
  assert.equal(r.json.reason, "INTERNAL");
  assert.ok(!r.text.includes(fake.url));
  fake.failNext("start", 500);
  assert.equal((await upload(bytes(10))).status, 502);
  fake.failNext("chunk", 503);
  assert.equal((await upload(bytes(3000))).status, 502);
  fake.failNext("generate", 429, { error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } });
  assert.equal((await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] })).status, 429);
});

test("an unreachable upstream is a 502", async () => {
  const dead = createGeminiProxy({ apiKey: KEY, allowedOrigins: [ORIGIN], models: ["gemini-2.5-flash"], upstream: "http://127.0.0.1:9" });
  const res = await dead(new Request("http://127.0.0.1/generate", { method: "POST", headers: { origin: ORIGIN, "x-neuralcut-client": CLIENT_A }, body: JSON.stringify({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] }) }));
  const text = await res.text();
  seen.push({ path: "dead", status: res.status, headers: [...res.headers], text });
  assert.equal(res.status, 502);
});

test("an upstream that does not answer in time is a 504", async () => {
  const impatient = await serveGeminiProxy({ apiKey: KEY, allowedOrigins: [ORIGIN], models: ["gemini-2.5-flash"], upstream: fake.url, limits: { upstreamTimeoutMs: 200 } });
  try {
    fake.failNext("generate", "hang");
    const r = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] }, { base: impatient.url });
    assert.equal(r.status, 504);
    assert.equal(r.json.code, "upstream_error");
  } finally {
    await impatient.close();
  }
});

test("per-client rate limit answers 429 with Retry-After", async () => {
  const limited = await serveGeminiProxy({ apiKey: KEY, allowedOrigins: [ORIGIN], models: ["gemini-2.5-flash"], upstream: fake.url, limits: { requestsPerWindow: 3, windowMs: 60_000 } });
  try {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await req("status", { base: limited.url, body: JSON.stringify({ handle: "ncf_x" }) })).status);
    assert.deepEqual(statuses, [404, 404, 404, 429, 429]);
    const last = seen.at(-1);
    assert.ok(last.headers.some(([k]) => k === "retry-after"));
  } finally {
    await limited.close();
  }
});

test("mounted under a basePath, the endpoints live below it", async () => {
  const mounted = await serveGeminiProxy({ apiKey: KEY, allowedOrigins: [ORIGIN], models: ["gemini-2.5-flash"], upstream: fake.url, basePath: "/api/gemini" });
  try {
    assert.match(mounted.url, /\/api\/gemini\/$/);
    fake.script.push(modelTurn([{ text: "hello" }]));
    const r = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] }, { base: mounted.url });
    assert.equal(r.status, 200);
    assert.equal(r.json.candidates[0].content.parts[0].text, "hello");
    assert.equal((await generate({}, { base: mounted.url.replace("/api/gemini/", "/") })).status, 404);
  } finally {
    await mounted.close();
  }
});

test("a misconfigured proxy fails at creation", () => {
  const ok = { apiKey: KEY, allowedOrigins: [ORIGIN], models: ["gemini-2.5-flash"] };
  assert.throws(() => createGeminiProxy({ ...ok, apiKey: "" }), TypeError);
  assert.throws(() => createGeminiProxy({ ...ok, allowedOrigins: ["*"] }), TypeError);
  assert.throws(() => createGeminiProxy({ ...ok, allowedOrigins: [] }), TypeError);
  assert.throws(() => createGeminiProxy({ ...ok, allowedOrigins: ["http://a.example/path"] }), TypeError);
  assert.throws(() => createGeminiProxy({ ...ok, models: [] }), TypeError);
  assert.throws(() => createGeminiProxy({ ...ok, limits: { maxTurns: -1 } }), TypeError);
});

test("npm run proxy's entry starts on 127.0.0.1, prints its URL and never the key", async () => {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, ["dist/proxy/cli.js"], {
    env: { ...process.env, GEMINI_API_KEY: KEY, NEURALCUT_PROXY_PORT: "0", NEURALCUT_PROXY_ORIGINS: ORIGIN, NEURALCUT_PROXY_UPSTREAM: fake.url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stderr.on("data", (d) => (out += d));
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.on("data", (d) => {
        out += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    fake.script.push(modelTurn([{ text: "from the cli" }]));
    const r = await generate({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] }, { base: url });
    assert.equal(r.status, 200);
    assert.equal(r.json.candidates[0].content.parts[0].text, "from the cli");
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
  }
  assert.ok(!out.includes(KEY));
  assert.match(out, /POST \/generate 200/);
});

test("the key appears in no response body, header or log line", () => {
  assert.ok(seen.length > 30, `checked ${seen.length} responses`);
  for (const r of seen) {
    assert.ok(!r.text.includes(KEY), `body of ${r.path} (${r.status})`);
    for (const [k, v] of r.headers) assert.ok(!k.includes(KEY) && !v.includes(KEY), `header ${k} of ${r.path}`);
  }
  assert.ok(logLines.length > 0);
  for (const line of logLines) assert.ok(!line.includes(KEY) && !line.includes(fake.url), line);
});
