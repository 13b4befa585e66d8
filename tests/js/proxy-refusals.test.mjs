// Every refusal docs/proxy.md lists, each checked over real HTTP against the fake Gemini, and
// each shown to reach nothing upstream it should not.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";

import { createGeminiProxy } from "../../dist/proxy/index.js";
import { startFakeGemini, modelTurn } from "./fake-gemini.mjs";
import { KEY, ORIGIN, SECRET, MODEL, TOKENS, authorize, bytes, hello, startProxy, requester, assertNoLeak } from "./proxy-helpers.mjs";

let fake;
let proxy;
/** A server that must never be reached: redirects and foreign upload sessions point at it. */
let trap;
const trapped = [];
const seen = [];
const { req, generate, upload } = requester(() => proxy.url, seen);

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY, granularity: 256 });
  proxy = await startProxy(fake, { limits: { uploadChunkBytes: 256 }, budgets: { requestsPerMinute: 1000, uploadsPerMinute: 1000 }, log: () => {} });
  trap = createServer((rq, rs) => {
    trapped.push({ method: rq.method, url: rq.url, headers: rq.headers });
    rs.end("{}");
  });
  await new Promise((resolve) => trap.listen(0, "127.0.0.1", resolve));
});

after(async () => {
  await proxy?.close();
  await fake?.close();
  await new Promise((resolve) => trap.close(resolve));
});

const trapUrl = () => `http://127.0.0.1:${trap.address().port}`;

/** A POST over a raw HTTP connection, with exactly the headers given (no Content-Length unless set). */
function rawPost(url, headers, chunks) {
  return new Promise((resolve, reject) => {
    const r = httpRequest(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    r.on("error", reject);
    for (const c of chunks) r.write(c);
    r.end();
  });
}

test("an upload without Content-Length (chunked) is refused with 411 before anything goes upstream", async () => {
  const before = fake.requests.length;
  const r = await rawPost(
    new URL("upload", proxy.url),
    { origin: ORIGIN, authorization: `Bearer ${TOKENS.alice}`, "content-type": "video/mp4", "transfer-encoding": "chunked" },
    [bytes(100), bytes(100)],
  );
  assert.equal(r.status, 411, r.text);
  assert.equal(JSON.parse(r.text).code, "length_required");
  assert.equal(fake.requests.length, before);
});

test("a body longer than its Content-Length is refused with 413 and its file never finalized", async () => {
  // Over HTTP/1.1 the server reads only the declared bytes; a fetch-style host (an edge runtime)
  // can hand the handler a stream longer than its header, so the handler counts for itself.
  const handler = createGeminiProxy({
    apiKey: KEY,
    authorize,
    allowedOrigins: [ORIGIN],
    upstream: fake.url,
    handleSecret: SECRET,
    limits: { uploadChunkBytes: 256 },
    log: () => {},
  });
  const uploadsBefore = fake.uploads.length;
  const body = new ReadableStream({
    start(c) {
      c.enqueue(bytes(300));
      c.enqueue(bytes(300));
      c.close();
    },
  });
  const res = await handler(
    new Request("http://127.0.0.1/upload", {
      method: "POST",
      headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS.alice}`, "content-type": "video/mp4", "content-length": "400" },
      body,
      duplex: "half",
    }),
  );
  assert.equal(res.status, 413);
  assert.match((await res.json()).error, /longer than its Content-Length/);
  assert.equal(fake.uploads.length, uploadsBefore, "nothing was finalized");
  // The same for generate: the declared length says small, the stream is over maxBodyBytes.
  const big = new TextEncoder().encode(JSON.stringify(hello("x".repeat(3 * 1024 * 1024))));
  const gen = await handler(
    new Request("http://127.0.0.1/generate", {
      method: "POST",
      headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS.alice}`, "content-length": "100" },
      body: big,
    }),
  );
  assert.equal(gen.status, 413);
});

test("too many parts in a turn, parts in a request, function declarations or files are refused with 413", async () => {
  const small = await startProxy(fake, {
    limits: { maxPartsPerTurn: 4, maxPartsPerRequest: 6, maxFunctionDeclarations: 3, maxFilesPerRequest: 1 },
    log: () => {},
  });
  try {
    const before = fake.generateCalls.length;
    const text = (n) => Array.from({ length: n }, (_, i) => ({ text: `p${i}` }));
    const turn = await generate({ model: MODEL, contents: [{ role: "user", parts: text(5) }] }, { base: small.url });
    assert.equal(turn.status, 413);
    assert.equal(turn.json.code, "too_many_parts");
    const all = await generate(
      {
        model: MODEL,
        contents: [
          { role: "user", parts: text(4) },
          { role: "model", parts: text(3) },
        ],
      },
      { base: small.url },
    );
    assert.equal(all.status, 413);
    assert.equal(all.json.code, "too_many_parts");
    const decl = (n) => Array.from({ length: n }, (_, i) => ({ name: `f${i}` }));
    const tools = await generate({ ...hello(), tools: [{ functionDeclarations: decl(2) }, { functionDeclarations: decl(2) }] }, { base: small.url });
    assert.equal(tools.status, 413);
    assert.equal(tools.json.code, "too_many_tools");
    const files = await generate(
      { model: MODEL, contents: [{ role: "user", parts: [{ fileData: { fileUri: "ncf_a" } }, { fileData: { fileUri: "ncf_b" } }] }] },
      { base: small.url },
    );
    assert.equal(files.status, 413);
    assert.equal(files.json.code, "too_many_files");
    // At the limits everything passes.
    fake.script.push(modelTurn([{ text: "ok" }]));
    const ok = await generate(
      {
        model: MODEL,
        contents: [
          { role: "user", parts: text(4) },
          { role: "model", parts: text(2) },
        ],
        tools: [{ functionDeclarations: decl(3) }],
      },
      { base: small.url },
    );
    assert.equal(ok.status, 200, ok.text);
    assert.equal(fake.generateCalls.length, before + 1);
  } finally {
    await small.close();
  }
});

test("codeExecution (and every tool but function declarations) is refused with 400", async () => {
  const before = fake.generateCalls.length;
  for (const tool of [
    { codeExecution: {} },
    { googleSearch: {} },
    { googleSearchRetrieval: {} },
    { urlContext: {} },
    { functionDeclarations: [], codeExecution: {} },
  ]) {
    const r = await generate({ ...hello(), tools: [tool] });
    assert.equal(r.status, 400, JSON.stringify(tool));
  }
  assert.equal(fake.generateCalls.length, before);
});

test("unknown fields nested anywhere in the body are refused with 400 naming the field and where it is", async () => {
  const before = fake.generateCalls.length;
  const user = (part) => ({ model: MODEL, contents: [{ role: "user", parts: [part] }] });
  // Each body, and the place and field its refusal must name.
  const names = {
    "functionCall.extra": ["contents[0].parts[0].functionCall", "extra"],
    "functionResponse.parts": ["contents[0].parts[0].functionResponse", "parts"],
    "functionResponse.extra": ["contents[0].parts[0].functionResponse", "extra"],
    "fileData.extra": ["contents[0].parts[0].fileData", "displayName"],
    "videoMetadata.extra": ["contents[0].parts[0].videoMetadata", "extra"],
    "part.mediaResolution": ["contents[0].parts[0]", "mediaResolution"],
    "content.extra": ["contents[0]", "extra"],
    "thinkingConfig.extra": ["generationConfig.thinkingConfig", "extra"],
    "generationConfig.responseModalities": ["generationConfig", "responseModalities"],
    "generationConfig.speechConfig": ["generationConfig", "speechConfig"],
    "functionCallingConfig.extra": ["toolConfig.functionCallingConfig", "extra"],
    "toolConfig.retrievalConfig": ["toolConfig", "retrievalConfig"],
    "systemInstruction.parts[0].extra": ["systemInstruction.parts[0]", "extra"],
    "declaration.extra": ["tools[0].functionDeclarations[0]", "behavior"],
    safetySettings: ["body", "safetySettings"],
  };
  const bodies = {
    "functionCall.extra": { model: MODEL, contents: [{ role: "model", parts: [{ functionCall: { name: "f", args: {}, extra: 1 } }] }] },
    "functionResponse.parts": user({ functionResponse: { name: "f", response: {}, parts: [{ inlineData: {} }] } }),
    "functionResponse.extra": user({ functionResponse: { name: "f", response: {}, extra: 1 } }),
    "fileData.extra": user({ fileData: { fileUri: "ncf_x", displayName: "x" } }),
    "videoMetadata.extra": user({ text: "x", videoMetadata: { fps: 1, extra: 1 } }),
    "part.mediaResolution": user({ text: "x", mediaResolution: { level: "MEDIA_RESOLUTION_HIGH" } }),
    "content.extra": { model: MODEL, contents: [{ role: "user", parts: [{ text: "x" }], extra: 1 }] },
    "thinkingConfig.extra": { ...hello(), generationConfig: { thinkingConfig: { thinkingBudget: 10, extra: 1 } } },
    "generationConfig.responseModalities": { ...hello(), generationConfig: { responseModalities: ["IMAGE"] } },
    "generationConfig.speechConfig": { ...hello(), generationConfig: { speechConfig: {} } },
    "functionCallingConfig.extra": { ...hello(), toolConfig: { functionCallingConfig: { mode: "AUTO", extra: 1 } } },
    "toolConfig.retrievalConfig": { ...hello(), toolConfig: { retrievalConfig: {} } },
    "systemInstruction.parts[0].extra": { ...hello(), systemInstruction: { parts: [{ text: "x", extra: 1 }] } },
    "declaration.extra": { ...hello(), tools: [{ functionDeclarations: [{ name: "f", behavior: "NON_BLOCKING" }] }] },
    safetySettings: { ...hello(), safetySettings: [] },
  };
  for (const [what, body] of Object.entries(bodies)) {
    const r = await generate(body);
    assert.equal(r.status, 400, `${what}: ${r.text}`);
    const [where, field] = names[what];
    const reply = JSON.parse(r.text);
    assert.equal(reply.code, "bad_request", what);
    assert.ok(reply.error.startsWith(`${where}: '${field}' is not accepted (accepted: `), `${what}: ${reply.error}`);
  }
  assert.deepEqual(Object.keys(names), Object.keys(bodies));
  assert.equal(fake.generateCalls.length, before);
});

test("the upload budget per user answers 429 naming uploadsPerMinute", async () => {
  const limited = await startProxy(fake, { budgets: { uploadsPerMinute: 2 }, limits: { uploadChunkBytes: 256 }, log: () => {} });
  try {
    const statuses = [];
    let last;
    for (let i = 0; i < 3; i++) {
      last = await upload(bytes(50), "video/mp4", { base: limited.url });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [201, 201, 429]);
    assert.equal(last.json.budget, "uploadsPerMinute");
    assert.ok(Number(last.headers.get("retry-after")) >= 1);
    // Bob's uploads are his own budget.
    assert.equal((await upload(bytes(50), "video/mp4", { base: limited.url, user: "bob" })).status, 201);
  } finally {
    await limited.close();
  }
});

test("the global budget answers 429 naming globalRequestsPerMinute once all users together reach it", async () => {
  const limited = await startProxy(fake, { budgets: { globalRequestsPerMinute: 3 }, log: () => {} });
  try {
    const statuses = [];
    let last;
    for (const user of ["alice", "bob", "carol", "alice"]) {
      fake.script.push(modelTurn([{ text: "ok" }]));
      last = await generate(hello(), { base: limited.url, user });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.equal(last.json.budget, "globalRequestsPerMinute");
    assert.equal(last.json.scope, "global");
    assert.ok(Number(last.headers.get("retry-after")) >= 1);
  } finally {
    fake.script.length = 0;
    await limited.close();
  }
});

test("a redirect from upstream is refused, never followed, for generate, status and upload", async () => {
  fake.failNext("generate", "redirect", `${trapUrl()}/stolen`);
  const r = await generate(hello());
  assert.equal(r.status, 502);
  assert.equal(r.json.upstreamStatus, 307);
  fake.failNext("start", "redirect", `${trapUrl()}/stolen`);
  assert.equal((await upload(bytes(10))).status, 502);
  const ok = await upload(bytes(10));
  fake.failNext("status", "redirect", `${trapUrl()}/stolen`);
  assert.equal((await req("status", { body: JSON.stringify({ handle: ok.json.handle }) })).status, 502);
  assert.deepEqual(trapped, [], "the key followed a redirect");
});

test("an upload session on another origin is refused: no chunk, and so no key, goes there", async () => {
  fake.uploadUrlBase = trapUrl();
  try {
    const r = await upload(bytes(600));
    assert.equal(r.status, 502);
    assert.match(r.json.error, /unexpected upload session/);
  } finally {
    fake.uploadUrlBase = null;
  }
  assert.deepEqual(trapped, []);
});

test("every answer carries Cache-Control: no-store, success and refusal alike", async () => {
  const answers = [];
  fake.script.push(modelTurn([{ text: "ok" }]));
  answers.push(await generate(hello()));
  answers.push(await upload(bytes(10)));
  answers.push(await req("limits", { method: "GET" }));
  answers.push(await generate(hello(), { user: null }));
  answers.push(await generate({ ...hello(), model: "gemini-2.5-pro" }));
  answers.push(await req("nope", { body: "{}" }));
  answers.push(await generate(hello(), { origin: "http://evil.example" }));
  answers.push(await req("upload", { method: "OPTIONS", user: null }));
  fake.failNext("generate", 500);
  answers.push(await generate(hello()));
  assert.deepEqual(
    answers.map((a) => a.status),
    [200, 201, 200, 401, 403, 404, 403, 204, 502],
  );
  for (const a of answers) assert.equal(a.headers.get("cache-control"), "no-store", `status ${a.status}`);
});

test("an upload chunk Gemini does not take in time is a 504", { timeout: 60_000 }, async () => {
  // The chunk's own timeout applies, not the (here much longer) one of other upstream calls.
  const impatient = await startProxy(fake, { limits: { uploadChunkBytes: 256, uploadChunkTimeoutMs: 300, upstreamTimeoutMs: 30_000 }, log: () => {} });
  try {
    const abandonedBefore = fake.abandoned.length;
    fake.failNext("chunk", "hang");
    const t0 = Date.now();
    const r = await upload(bytes(600), "video/mp4", { base: impatient.url });
    assert.equal(r.status, 504, r.text);
    assert.match(r.json.error, /upload chunk in time/);
    assert.ok(Date.now() - t0 < 15_000, "cut by uploadChunkTimeoutMs, not upstreamTimeoutMs");
    // The proxy hung up on the stalled chunk.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(fake.abandoned.slice(abandonedBefore).some((a) => a.path === "/upload/v1beta/files"));
  } finally {
    await impatient.close();
  }
});

test("nothing of the key or the upstream URL in any answer", () => {
  assert.ok(seen.length > 20);
  assertNoLeak(assert, seen, [KEY, fake.url, trapUrl()]);
});
