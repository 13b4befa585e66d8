// The Gemini proxy over real HTTP on 127.0.0.1, against the fake Gemini: the upload, status,
// delete, generate and limits endpoints, and the basic refusals. The key must appear in no
// response. (proxy-refusals.test.mjs: every documented refusal; proxy-attack.test.mjs: the
// threat model; proxy-redis.test.mjs: budgets shared through Redis.)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";

import { createGeminiProxy, createTokenAuthorizer, DEFAULT_LIMITS, DEFAULT_MODELS } from "../../dist/proxy/index.js";
import { startFakeGemini, modelTurn, call } from "./fake-gemini.mjs";
import { KEY, ORIGIN, SECRET, MODEL, TOKENS, authorize, bytes, hello, startProxy, requester, assertNoLeak } from "./proxy-helpers.mjs";

const GRANULARITY = 1024;
const OTHER_MODEL = "gemini-3-flash-preview";

let fake;
let proxy;
const logLines = [];
/** Every response of every test, for the key check at the end. */
const seen = [];
const { req, generate, upload, status, remove } = requester(() => proxy.url, seen);

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY, granularity: GRANULARITY, processingPolls: 2 });
  proxy = await startProxy(fake, {
    models: [MODEL, OTHER_MODEL],
    limits: { maxUploadBytes: 64 * 1024, maxBodyBytes: 16 * 1024, maxTurns: 8, uploadChunkBytes: 1500 },
    budgets: { requestsPerMinute: 1000, uploadsPerMinute: 1000 },
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
  const first = await status(json.handle);
  assert.equal(first.status, 200);
  assert.equal(first.json.state, "PROCESSING");
  const second = await status(json.handle);
  assert.equal(second.json.state, "ACTIVE");
  assert.equal(second.json.mimeType, "audio/mpeg");
});

test("FAILED processing is reported with safe details; an expired file answers 410", async () => {
  fake.failProcessing = true;
  fake.processingPolls = 1;
  try {
    const { json } = await upload(bytes(10), "image/png");
    const st = await status(json.handle);
    assert.equal(st.json.state, "FAILED");
    assert.match(st.json.details, /could not be decoded/);
    fake.expire(fake.uploads.at(-1).name);
    const gone = await status(json.handle);
    assert.equal(gone.status, 410);
  } finally {
    fake.failProcessing = false;
    fake.processingPolls = 2;
  }
});

test("generate forwards function declarations, swaps handles for file URIs and returns model parts verbatim", async () => {
  const { json } = await upload(bytes(300));
  for (let i = 0; i < 2; i++) await status(json.handle);
  const answer = modelTurn([{ text: "thinking", thought: true }, call("split", { times: [1.5] }, "c2lnLW9uZS0xMjM=")]);
  fake.script.push(answer);
  const r = await generate({
    model: MODEL,
    contents: [{ role: "user", parts: [{ text: "cut at 1.5" }, { fileData: { fileUri: json.handle, mimeType: "video/mp4" } }] }],
    tools: [
      {
        functionDeclarations: [
          {
            name: "split",
            description: "Split",
            parametersJsonSchema: { type: "object", properties: { times: { type: "array", items: { type: "number" } } }, required: ["times"] },
          },
        ],
      },
    ],
    systemInstruction: { parts: [{ text: "You edit video." }] },
  });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.candidates[0].content, answer.candidates[0].content);
  const sent = fake.generateCalls.at(-1);
  assert.equal(sent.model, MODEL);
  assert.equal(sent.body.model, undefined);
  assert.equal(sent.body.contents[0].parts[1].fileData.fileUri, `${fake.url}/v1beta/${fake.uploads.at(-1).name}`);
  assert.equal(sent.body.tools[0].functionDeclarations[0].name, "split");
  // Output is always bounded, even when the client asked for no limit.
  assert.equal(sent.body.generationConfig.maxOutputTokens, DEFAULT_LIMITS.maxOutputTokens);
});

test("delete removes the user's own upload upstream; a second delete, or another user's, is 404", async () => {
  const { json } = await upload(bytes(200));
  const name = fake.uploads.at(-1).name;
  assert.equal((await remove(json.handle, { user: "bob" })).status, 404);
  assert.ok(fake.file(name), "bob's attempt deleted nothing");
  const r = await remove(json.handle);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, { deleted: true });
  assert.deepEqual(fake.deleted.at(-1), name);
  assert.equal(fake.file(name), undefined);
  assert.equal((await remove(json.handle)).status, 404);
  assert.equal((await remove("ncf_forged")).status, 404);
  assert.equal((await status(json.handle)).status, 410);
});

test("GET limits answers the request limits a client must respect, as numbers, to authorized callers only", async () => {
  const r = await req("limits", { method: "GET" });
  assert.equal(r.status, 200);
  for (const k of ["maxTurns", "maxPartsPerTurn", "maxBodyBytes", "maxFunctionDeclarations", "maxFilesPerRequest", "maxOutputTokens"]) {
    assert.equal(typeof r.json[k], "number", k);
  }
  assert.equal(r.json.maxTurns, 8);
  assert.equal(r.json.maxBodyBytes, 16 * 1024);
  assert.equal(r.json.maxPartsPerTurn, DEFAULT_LIMITS.maxPartsPerTurn);
  assert.deepEqual(r.json.models, [MODEL, OTHER_MODEL]);
  assert.equal(r.json.budgets.requestsPerMinute, 1000);
  assert.equal((await req("limits", { method: "GET", user: null })).status, 401);
  assert.equal((await req("limits", { method: "POST" })).status, 405);
});

test("the default limits admit a model turn of 150 parallel calls and the user turn of their 150 responses", async () => {
  assert.ok(DEFAULT_LIMITS.maxPartsPerTurn >= 150);
  const wide = await startProxy(fake);
  try {
    const calls = Array.from({ length: 150 }, (_, i) => call("add_text", { text: `caption ${i}`, startTime: i }, i === 0 ? "c2ln" : undefined));
    const answers = Array.from({ length: 150 }, (_, i) => ({ functionResponse: { name: "add_text", response: { elementId: `el-${i}` } } }));
    const decls = Array.from({ length: 20 }, (_, i) => ({
      name: `tool_${i}`,
      description: "x".repeat(400),
      parametersJsonSchema: { type: "object", properties: {} },
    }));
    fake.script.push(modelTurn([{ text: "done" }]));
    const r = await generate(
      {
        model: MODEL,
        contents: [
          { role: "user", parts: [{ text: "caption every second" }] },
          { role: "model", parts: calls },
          { role: "user", parts: answers },
        ],
        tools: [{ functionDeclarations: decls }],
      },
      { base: wide.url },
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(fake.generateCalls.at(-1).body.contents[2].parts.length, 150);
  } finally {
    await wide.close();
  }
});

test("the key goes upstream only in the x-goog-api-key header, never in a URL", () => {
  assert.ok(fake.requests.length > 0);
  for (const r of fake.requests) {
    assert.equal(r.headers["x-goog-api-key"], KEY);
    assert.ok(!r.query.includes(KEY) && !r.path.includes(KEY));
  }
});

test("a foreign Origin is refused with 403 and no CORS grant, even with a valid token", async () => {
  for (const origin of ["http://evil.example", "null", "http://127.0.0.1:5174"]) {
    const r = await generate(hello(), { origin });
    assert.equal(r.status, 403, String(origin));
    assert.equal(r.headers.get("access-control-allow-origin"), null);
  }
  const pre = await req("generate", { method: "OPTIONS", origin: "http://evil.example", user: null });
  assert.equal(pre.status, 403);
});

test("without authorization every endpoint answers 401, whatever Origin or client id is sent", async () => {
  const before = fake.requests.length;
  for (const path of ["generate", "upload", "status", "delete"]) {
    const r = await req(path, { user: null, client: "client-aaaaaaaaaaaaaaaa", body: "{}" });
    assert.equal(r.status, 401, path);
    assert.equal(r.json.code, "unauthorized");
    assert.match(r.headers.get("www-authenticate"), /^Bearer/);
  }
  const wrong = await req("generate", { user: null, headers: { authorization: "Bearer not-a-token" }, body: JSON.stringify(hello()) });
  assert.equal(wrong.status, 401);
  assert.equal(fake.requests.length, before);
});

test("a caller without an Origin (a server, a script) is served when authorized", async () => {
  fake.script.push(modelTurn([{ text: "no origin" }]));
  const r = await generate(hello(), { origin: null });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("access-control-allow-origin"), null);
});

test("a CORS preflight from an allowed origin is answered, allowing the Authorization header", async () => {
  const r = await req("upload", { method: "OPTIONS", user: null });
  assert.equal(r.status, 204);
  assert.equal(r.headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(r.headers.get("access-control-allow-headers"), /authorization/);
  assert.match(r.headers.get("access-control-allow-headers"), /x-neuralcut-client/);
  const limits = await req("limits", { method: "OPTIONS", user: null });
  assert.match(limits.headers.get("access-control-allow-methods"), /GET/);
});

test("unknown paths and methods are refused; nothing is forwarded", async () => {
  const before = fake.requests.length;
  for (const path of [
    "v1beta/models/gemini-2.5-flash:generateContent",
    "upload/v1beta/files",
    "files",
    "generate/x",
    "generate/",
    "Generate",
    "status%2F",
    "__proto__",
    "constructor",
  ]) {
    const r = await req(path, { body: "{}" });
    assert.equal(r.status, 404, path);
  }
  assert.equal((await req("generate", { method: "GET" })).status, 405);
  assert.equal(fake.requests.length, before);
});

test("oversized bodies are refused with 413", async () => {
  const big = await upload(bytes(64 * 1024 + 1));
  assert.equal(big.status, 413);
  const huge = await generate(hello("x".repeat(17 * 1024)));
  assert.equal(huge.status, 413);
  const turns = await generate({ model: MODEL, contents: Array.from({ length: 9 }, () => ({ role: "user", parts: [{ text: "x" }] })) });
  assert.equal(turns.status, 413);
  assert.equal(turns.json.code, "too_many_turns");
});

test("only video, audio and image files are uploaded", async () => {
  for (const type of ["text/html", "application/octet-stream", "video", "image/*"]) {
    const r = await upload(bytes(10), type);
    assert.equal(r.status, 415, type);
  }
});

test("a model outside the allowlist is refused with 403 naming it, without listing the allowed ones", async () => {
  const before = fake.generateCalls.length;
  for (const model of ["gemini-2.5-pro", "../files/x", "gemini-2.5-flash:streamGenerateContent", undefined]) {
    const r = await generate({ model, contents: [{ role: "user", parts: [{ text: "hi" }] }] });
    assert.equal(r.status, 403, String(model));
    assert.equal(r.json.code, "model_not_allowed");
    if (model) assert.ok(r.json.error.includes(model), r.json.error);
    assert.equal(r.json.allowed, undefined);
    assert.ok(!r.text.includes(OTHER_MODEL), `the allowlist leaks: ${r.text}`);
  }
  assert.equal(fake.generateCalls.length, before);
});

test("the default model allowlist holds flash-class models only", () => {
  assert.ok(DEFAULT_MODELS.length > 0);
  for (const m of DEFAULT_MODELS) assert.match(m, /flash/);
});

test("Google's own tools, inline data other than one small image, and unknown fields are refused", async () => {
  const base = hello();
  assert.equal((await generate({ ...base, tools: [{ urlContext: {} }] })).status, 400);
  assert.equal((await generate({ ...base, tools: [{ googleSearch: {} }] })).status, 400);
  const user = (...parts) => ({ ...base, contents: [{ role: "user", parts }] });
  const png = { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } };
  // One picture in a user turn (the agent's render_preview frame) passes.
  assert.equal((await generate(user({ text: "How does this frame look?" }, png))).status, 200);
  // Anything else inline does not: other types, two pictures, a picture from the model, bad base64, a large one.
  assert.equal((await generate(user({ inlineData: { mimeType: "application/pdf", data: "AA==" } }))).status, 400);
  assert.equal((await generate(user({ inlineData: { mimeType: "video/mp4", data: "AA==" } }))).status, 400);
  assert.equal((await generate(user(png, png))).status, 413);
  assert.equal(
    (
      await generate({
        ...base,
        contents: [
          { role: "user", parts: [{ text: "hi" }] },
          { role: "model", parts: [png] },
          { role: "user", parts: [{ text: "go on" }] },
        ],
      })
    ).status,
    400,
  );
  assert.equal((await generate(user({ inlineData: { mimeType: "image/png", data: "not base64!" } }))).status, 400);
  assert.equal((await generate(user({ inlineData: { mimeType: "image/png", data: "AA==", url: "https://example.com/x.png" } }))).status, 400);
  const big = "A".repeat(Math.ceil(((DEFAULT_LIMITS.maxInlineImageBytes + 1024) * 4) / 3 / 4) * 4);
  assert.equal((await generate(user({ inlineData: { mimeType: "image/png", data: big } }))).status, 413);
  assert.equal((await generate({ ...base, cachedContent: "cachedContents/x" })).status, 400);
  assert.equal((await generate({ ...base, contents: [{ role: "user", parts: [{ fileData: { fileUri: "https://example.com/a.mp4" } }] }] })).status, 404);
});

test("another user's file handle is refused, for status, generate and delete", async () => {
  const { json } = await upload(bytes(50));
  assert.equal((await status(json.handle, { user: "bob" })).status, 404);
  const gen = await generate({ model: MODEL, contents: [{ role: "user", parts: [{ fileData: { fileUri: json.handle } }] }] }, { user: "bob" });
  assert.equal(gen.status, 404);
  // A tampered handle is no handle.
  const tampered = json.handle.slice(0, -2) + (json.handle.endsWith("AA") ? "BB" : "AA");
  assert.equal((await status(tampered)).status, 404);
});

test("upstream failures: 5xx is generic with a request id, 4xx keeps Gemini's message scrubbed, 429 stays 429", async () => {
  fake.failNext("generate", 500);
  const r = await generate(hello());
  assert.equal(r.status, 502);
  assert.equal(r.json.upstreamStatus, 500);
  assert.match(r.json.requestId, /^[0-9a-f-]{36}$/);
  assert.equal(r.headers.get("x-request-id"), r.json.requestId);
  assert.equal(r.json.details, undefined);
  assert.ok(!r.text.includes("Internal error"), r.text);
  // The detail went to the operator's log, under the same request id, without key or URL.
  const line = logLines.find((l) => l.includes(r.json.requestId) && l.includes("500"));
  assert.ok(line?.includes("Internal error"), `log: ${logLines.join("\n")}`);
  fake.failNext("generate", 400, {
    error: {
      code: 400,
      message: "File files/abc123def is not ACTIVE in project 123456789 (key AIzaSyD-0123456789abcdefghij_klmnopq)",
      status: "FAILED_PRECONDITION",
    },
  });
  const four = await generate(hello());
  assert.equal(four.status, 502);
  assert.equal(four.json.reason, "FAILED_PRECONDITION");
  assert.match(four.json.details, /is not ACTIVE/);
  for (const id of ["abc123def", "123456789", "AIzaSyD"]) assert.ok(!four.text.includes(id), `${id} in ${four.text}`);
  fake.failNext("start", 500);
  assert.equal((await upload(bytes(10))).status, 502);
  fake.failNext("chunk", 503);
  assert.equal((await upload(bytes(3000))).status, 502);
  fake.failNext("generate", 429, { error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } });
  const limited = await generate(hello());
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
});

test("an unreachable upstream is a 502", async () => {
  const dead = createGeminiProxy({ apiKey: KEY, authorize, allowedOrigins: [ORIGIN], handleSecret: SECRET, upstream: "http://127.0.0.1:9", log: () => {} });
  const res = await dead(
    new Request("http://127.0.0.1/generate", {
      method: "POST",
      headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS.alice}` },
      body: JSON.stringify(hello()),
    }),
  );
  const text = await res.text();
  seen.push({ path: "dead", status: res.status, headers: [...res.headers], text });
  assert.equal(res.status, 502);
});

test("an upstream that does not answer in time is a 504", async () => {
  const impatient = await startProxy(fake, { limits: { upstreamTimeoutMs: 200 } });
  try {
    fake.failNext("generate", "hang");
    const r = await generate(hello(), { base: impatient.url });
    assert.equal(r.status, 504);
    assert.equal(r.json.code, "upstream_error");
  } finally {
    await impatient.close();
  }
});

test("a user over the request budget gets 429 with Retry-After and a body naming the budget and its reset", async () => {
  const limited = await startProxy(fake, { budgets: { requestsPerMinute: 3 } });
  try {
    const statuses = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await status("ncf_x", { base: limited.url });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [404, 404, 404, 429, 429]);
    const seconds = Number(last.headers.get("retry-after"));
    assert.ok(seconds >= 1 && seconds <= 60, String(seconds));
    assert.equal(last.json.code, "rate_limited");
    assert.equal(last.json.budget, "requestsPerMinute");
    assert.equal(last.json.scope, "user");
    assert.equal(last.json.limit, 3);
    assert.ok(last.json.resetAt > Date.now() && last.json.resetAt <= Date.now() + 60_000);
    assert.equal(last.json.retryAfterSeconds, seconds);
    assert.match(last.headers.get("access-control-expose-headers"), /retry-after/);
    // Another user is not affected.
    assert.equal((await status("ncf_x", { base: limited.url, user: "bob" })).status, 404);
  } finally {
    await limited.close();
  }
});

test("mounted under a basePath, the endpoints live below it", async () => {
  const mounted = await startProxy(fake, { basePath: "/api/gemini" });
  try {
    assert.match(mounted.url, /\/api\/gemini\/$/);
    fake.script.push(modelTurn([{ text: "hello" }]));
    const r = await generate(hello(), { base: mounted.url });
    assert.equal(r.status, 200);
    assert.equal(r.json.candidates[0].content.parts[0].text, "hello");
    assert.equal((await generate({}, { base: mounted.url.replace("/api/gemini/", "/") })).status, 404);
  } finally {
    await mounted.close();
  }
});

test("a misconfigured proxy fails at creation", () => {
  const ok = { apiKey: KEY, authorize, allowedOrigins: [ORIGIN], handleSecret: SECRET };
  assert.doesNotThrow(() => createGeminiProxy(ok));
  assert.doesNotThrow(() => createGeminiProxy({ ...ok, authorize: undefined, public: true }));
  assert.throws(() => createGeminiProxy({ ...ok, authorize: undefined }), /authorize is required/);
  assert.throws(() => createGeminiProxy({ ...ok, public: true }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, apiKey: "" }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, allowedOrigins: ["*"] }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, allowedOrigins: [] }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, allowedOrigins: ["http://a.example/path"] }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, models: [] }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, limits: { maxTurns: -1 } }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, limits: { maxGenerateBytes: 10 } }), /unknown limit/);
  assert.throws(() => createGeminiProxy({ ...ok, limits: { maxMediaResolution: "ULTRA" } }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, budgets: { tokensPerDay: 0 } }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createGeminiProxy({ ...ok, trustedProxyHops: -1 }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
  assert.throws(() => createTokenAuthorizer("short"), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
});

test("npm run proxy's entry starts on 127.0.0.1, prints a per-start bearer token and its URL, never the key", async () => {
  const { spawn } = await import("node:child_process");
  const run = () => {
    const child = spawn(process.execPath, ["dist/proxy/cli.js"], {
      env: {
        ...process.env,
        GEMINI_API_KEY: KEY,
        NEURALCUT_PROXY_PORT: "0",
        NEURALCUT_PROXY_ORIGINS: ORIGIN,
        NEURALCUT_PROXY_UPSTREAM: fake.url,
        NEURALCUT_PROXY_TOKEN: "",
        NEURALCUT_PROXY_SECRET: SECRET,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stderr.on("data", (d) => (out += d));
    const ready = new Promise((resolve, reject) => {
      child.stdout.on("data", (d) => {
        out += d;
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        const token = /Authorization: Bearer (\S+)/.exec(out);
        if (url && token) resolve({ url: url[1], token: token[1] });
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const stop = async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
      return out;
    };
    return { ready, stop };
  };
  const first = run();
  const second = run();
  let outs = [];
  try {
    const [a, b] = await Promise.all([first.ready, second.ready]);
    assert.ok(a.token.length >= 32);
    assert.notEqual(a.token, b.token, "a new token on every start");
    fake.script.push(modelTurn([{ text: "from the cli" }]));
    const r = await generate(hello(), { base: a.url, user: null, headers: { authorization: `Bearer ${a.token}` } });
    assert.equal(r.status, 200);
    assert.equal(r.json.candidates[0].content.parts[0].text, "from the cli");
    assert.equal((await generate(hello(), { base: a.url, user: null })).status, 401);
    assert.equal((await generate(hello(), { base: a.url, user: null, headers: { authorization: `Bearer ${b.token}` } })).status, 401);
  } finally {
    outs = [await first.stop(), await second.stop()];
  }
  for (const out of outs) assert.ok(!out.includes(KEY));
  assert.match(outs[0], /POST \/generate 200/);
});

test("the key appears in no response body, header or log line", () => {
  assert.ok(seen.length > 30, `checked ${seen.length} responses`);
  assertNoLeak(assert, seen, [KEY, fake.url]);
  assert.ok(logLines.length > 0);
  for (const line of logLines) assert.ok(!line.includes(KEY) && !line.includes(fake.url), line);
});
