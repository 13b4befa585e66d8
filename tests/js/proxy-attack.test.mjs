// The proxy read as an attacker who found its URL (issue 14): each way to spend the operator's
// key, fill their storage, lock other users out or learn what the server knows is tried over real
// HTTP against the fake Gemini, and must fail.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";

import { createGeminiProxy, DEFAULT_LIMITS } from "../../dist/proxy/index.js";
import { startFakeGemini, modelTurn } from "./fake-gemini.mjs";
import { KEY, ORIGIN, SECRET, MODEL, TOKENS, authorize, bytes, hello, startProxy, requester, assertNoLeak } from "./proxy-helpers.mjs";

let fake;
const seen = [];
const logLines = [];
let base;
const { req, generate, upload, status, remove } = requester(() => base, seen);

/** Runs `fn` against a proxy made with `options`, closed afterwards. */
async function withProxy(options, fn) {
  const p = await startProxy(fake, { log: (l) => logLines.push(l), ...options });
  const saved = base;
  base = p.url;
  try {
    return await fn(p);
  } finally {
    base = saved;
    await p.close();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An upload over a raw connection whose body arrives in `pieces` parts `gapMs` apart. */
function slowUpload(url, { total, pieces, gapMs, user = "alice", stallAfter }) {
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      url,
      { method: "POST", headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS[user]}`, "content-type": "video/mp4", "content-length": String(total) } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          seen.push({ path: "slow upload", status: res.statusCode, headers: Object.entries(res.headers), text });
          resolve({ status: res.statusCode, json: JSON.parse(text) });
        });
      },
    );
    r.on("error", (e) => (e.code === "ECONNRESET" || e.code === "EPIPE" ? undefined : reject(e)));
    const size = Math.ceil(total / pieces);
    (async () => {
      for (let i = 0, sent = 0; sent < total; i++) {
        if (stallAfter !== undefined && i === stallAfter) return; // never sends the rest
        const n = Math.min(size, total - sent);
        r.write(bytes(n, i));
        sent += n;
        if (sent < total) await sleep(gapMs);
      }
      r.end();
    })();
  });
}

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY, granularity: 256, processingPolls: 1 });
  base = "http://127.0.0.1:9/";
});

after(async () => {
  await fake?.close();
});

test("a forged Origin without authorization gets 401 and nothing reaches Gemini", async () => {
  await withProxy({}, async () => {
    const before = fake.requests.length;
    for (const path of ["generate", "upload", "status", "delete"]) {
      const r = await req(path, { origin: ORIGIN, user: null, headers: { "content-type": "application/json" }, body: JSON.stringify(hello()) });
      assert.equal(r.status, 401, path);
    }
    assert.equal((await req("limits", { method: "GET", user: null })).status, 401);
    assert.equal(fake.requests.length, before);
  });
});

test("rotating client ids stays in one user's budget", async () => {
  await withProxy({ budgets: { requestsPerMinute: 3 } }, async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      fake.script.push(modelTurn([{ text: "ok" }]));
      statuses.push((await generate(hello(), { client: `rotating-client-${String(i).padStart(8, "0")}` })).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    fake.script.length = 0;
  });
});

test("in public mode the budget keys on the client address: forged client ids and X-Forwarded-For change nothing", async () => {
  await withProxy({ authorize: undefined, public: true, budgets: { requestsPerMinute: 2 } }, async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const r = await status("ncf_x", { user: null, client: `forged-client-${String(i).padStart(8, "0")}`, headers: { "x-forwarded-for": `203.0.113.${i}` } });
      statuses.push(r.status);
    }
    assert.deepEqual(statuses, [404, 404, 429, 429]);
  });
});

test("behind trusted proxies the client address is the one the nearest trusted proxy saw", async () => {
  await withProxy({ authorize: undefined, public: true, trustedProxyHops: 1, budgets: { requestsPerMinute: 2 } }, async () => {
    // The reverse proxy appends what it saw (198.51.100.7); the client may prepend anything.
    const via = (xff) => status("ncf_x", { user: null, headers: { "x-forwarded-for": xff } });
    assert.equal((await via("198.51.100.7")).status, 404);
    assert.equal((await via("203.0.113.1, 198.51.100.7")).status, 404);
    assert.equal((await via("203.0.113.2, 198.51.100.7")).status, 429, "forged left entries share the real client's budget");
    assert.equal((await via("198.51.100.8")).status, 404, "another client behind the same proxy has its own");
  });
});

test("the same file attached twice in one request is refused, and files per request are bounded", async () => {
  await withProxy({}, async () => {
    const { json } = await upload(bytes(100));
    await status(json.handle);
    const before = fake.generateCalls.length;
    const twice = await generate({
      model: MODEL,
      contents: [
        { role: "user", parts: [{ fileData: { fileUri: json.handle } }, { text: "and again" }] },
        { role: "model", parts: [{ text: "ok" }] },
        { role: "user", parts: [{ fileData: { fileUri: json.handle } }] },
      ],
    });
    assert.equal(twice.status, 400);
    assert.equal(twice.json.code, "duplicate_file");
    const many = Array.from({ length: DEFAULT_LIMITS.maxFilesPerRequest + 1 }, (_, i) => ({ fileData: { fileUri: `ncf_${i}` } }));
    const r = await generate({ model: MODEL, contents: [{ role: "user", parts: many }] });
    assert.equal(r.status, 413);
    assert.equal(r.json.code, "too_many_files");
    assert.equal(fake.generateCalls.length, before);
  });
});

test("output and thinking tokens, media resolution and frame rate are clamped before Gemini sees them", async () => {
  await withProxy({ limits: { maxOutputTokens: 2048, maxThinkingTokens: 512, maxMediaResolution: "MEDIA_RESOLUTION_LOW", maxVideoFps: 0.5 } }, async () => {
    const { json } = await upload(bytes(100));
    await status(json.handle);
    const send = async (generationConfig, part = { text: "x" }) => {
      fake.script.push(modelTurn([{ text: "ok" }]));
      const r = await generate({ model: MODEL, contents: [{ role: "user", parts: [part] }], generationConfig });
      assert.equal(r.status, 200, r.text);
      return fake.generateCalls.at(-1).body;
    };
    let sent = await send({ maxOutputTokens: 1_000_000, thinkingConfig: { thinkingBudget: 100_000 }, mediaResolution: "MEDIA_RESOLUTION_HIGH" });
    assert.equal(sent.generationConfig.maxOutputTokens, 2048);
    assert.equal(sent.generationConfig.thinkingConfig.thinkingBudget, 512);
    assert.equal(sent.generationConfig.mediaResolution, "MEDIA_RESOLUTION_LOW");
    sent = await send({ thinkingConfig: { thinkingBudget: -1, includeThoughts: true } });
    assert.equal(sent.generationConfig.thinkingConfig.thinkingBudget, 512, "dynamic thinking is bounded too");
    assert.equal(sent.generationConfig.maxOutputTokens, 2048, "set when absent");
    sent = await send({ maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 0 } });
    assert.equal(sent.generationConfig.maxOutputTokens, 100, "lower requests pass unchanged");
    assert.equal(sent.generationConfig.thinkingConfig.thinkingBudget, 0);
    sent = await send(undefined, { fileData: { fileUri: json.handle }, videoMetadata: { fps: 30, startOffset: "1s" } });
    assert.deepEqual(sent.contents[0].parts[0].videoMetadata, { fps: 0.5, startOffset: "1s" });
    for (const bad of [{ maxOutputTokens: -5 }, { maxOutputTokens: 1.5 }, { mediaResolution: "ULTRA" }, { thinkingConfig: { thinkingBudget: -2 } }]) {
      assert.equal((await generate({ ...hello(), generationConfig: bad })).status, 400, JSON.stringify(bad));
    }
  });
});

test("the per-user storage cap holds, and deleting a file frees its share", async () => {
  await withProxy({ budgets: { storedBytes: 1000 } }, async () => {
    const first = await upload(bytes(600));
    assert.equal(first.status, 201);
    const second = await upload(bytes(600));
    assert.equal(second.status, 429);
    assert.equal(second.json.budget, "storedBytes");
    assert.ok(second.json.resetAt > Date.now() + 47 * 3600_000, "files live 48 hours");
    // Bob has his own share.
    assert.equal((await upload(bytes(600), "video/mp4", { user: "bob" })).status, 201);
    assert.equal((await remove(first.json.handle)).status, 200);
    assert.equal((await upload(bytes(600))).status, 201);
    // A failed upload does not keep its share.
    fake.failNext("chunk", 500);
    assert.equal((await upload(bytes(300), "video/mp4", { user: "carol" })).status, 502);
    assert.equal((await upload(bytes(1000), "video/mp4", { user: "carol" })).status, 201);
  });
});

test("the global storage cap holds across users", async () => {
  await withProxy({ budgets: { globalStoredBytes: 1000 } }, async () => {
    assert.equal((await upload(bytes(600))).status, 201);
    const r = await upload(bytes(600), "video/mp4", { user: "bob" });
    assert.equal(r.status, 429);
    assert.equal(r.json.budget, "globalStoredBytes");
    assert.equal(r.json.scope, "global");
  });
});

test("upload bytes per day are spent by uploading, and deleting does not give them back", async () => {
  await withProxy({ budgets: { uploadBytesPerDay: 1000 } }, async () => {
    const first = await upload(bytes(600));
    assert.equal(first.status, 201);
    assert.equal((await remove(first.json.handle)).status, 200);
    const second = await upload(bytes(600));
    assert.equal(second.status, 429);
    assert.equal(second.json.budget, "uploadBytesPerDay");
  });
});

test("a user's concurrent uploads are bounded; the slot frees when the upload ends", async () => {
  await withProxy({ budgets: { concurrentUploads: 1 }, limits: { uploadIdleTimeoutMs: 5000 } }, async (p) => {
    const slow = slowUpload(new URL("upload", p.url), { total: 900, pieces: 3, gapMs: 300 });
    await sleep(150);
    const second = await upload(bytes(100));
    assert.equal(second.status, 429);
    assert.equal(second.json.budget, "concurrentUploads");
    assert.equal((await upload(bytes(100), "video/mp4", { user: "bob" })).status, 201, "bob has his own slot");
    assert.equal((await slow).status, 201);
    assert.equal((await upload(bytes(100))).status, 201);
  });
});

test("one user's flood, unauthorized requests and refused requests cannot lock others out", async () => {
  await withProxy({ budgets: { requestsPerMinute: 3, globalRequestsPerMinute: 5 } }, async () => {
    const alice = [];
    for (let i = 0; i < 20; i++) {
      fake.script.push(modelTurn([{ text: "ok" }]));
      alice.push((await generate(hello())).status);
    }
    assert.deepEqual(alice.filter((s) => s === 200).length, 3);
    assert.ok(alice.slice(3).every((s) => s === 429));
    for (let i = 0; i < 30; i++) assert.equal((await generate(hello(), { user: null })).status, 401);
    for (let i = 0; i < 3; i++) assert.equal((await generate({ ...hello(), model: "gemini-2.5-pro" }, { user: "bob" })).status, 403);
    fake.script.length = 0;
    fake.script.push(modelTurn([{ text: "carol gets through" }]));
    const carol = await generate(hello(), { user: "carol" });
    assert.equal(carol.status, 200, carol.text);
    fake.script.length = 0;
  });
});

test("tokens per day: once Gemini's reported usage reaches the budget, the next call is refused", async () => {
  await withProxy({ budgets: { tokensPerDay: 100 } }, async () => {
    const answer = () => ({ ...modelTurn([{ text: "ok" }]), usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 20, totalTokenCount: 80 } });
    fake.script.push(answer(), answer(), answer());
    assert.equal((await generate(hello())).status, 200);
    assert.equal((await generate(hello())).status, 200);
    const r = await generate(hello());
    assert.equal(r.status, 429);
    assert.equal(r.json.budget, "tokensPerDay");
    assert.ok(r.json.resetAt > Date.now() + 23 * 3600_000);
    assert.equal((await generate(hello(), { user: "bob" })).status, 200);
    fake.script.length = 0;
  });
});

test("a slow upload under the idle timeout survives, however long it takes; a stalled one is cut with 408", async () => {
  await withProxy({ limits: { uploadIdleTimeoutMs: 600, uploadChunkBytes: 256 } }, async (p) => {
    const t0 = Date.now();
    const slow = await slowUpload(new URL("upload", p.url), { total: 1000, pieces: 5, gapMs: 300 });
    assert.equal(slow.status, 201, JSON.stringify(slow.json));
    assert.ok(Date.now() - t0 > 1000, "ran longer than the idle timeout");
    assert.deepEqual(new Uint8Array(fake.uploads.at(-1).bytes).length, 1000);
    const uploadsBefore = fake.uploads.length;
    const stalled = await slowUpload(new URL("upload", p.url), { total: 1000, pieces: 5, gapMs: 50, stallAfter: 2 });
    assert.equal(stalled.status, 408);
    assert.equal(stalled.json.code, "upload_stalled");
    assert.equal(fake.uploads.length, uploadsBefore);
    // The stalled upload gave its slot back.
    assert.equal((await upload(bytes(10))).status, 201);
  });
});

test("a client's cancel aborts the upstream call", async () => {
  await withProxy({}, async (p) => {
    const abandonedBefore = fake.abandoned.length;
    const callsBefore = fake.generateCalls.length;
    fake.failNext("generate", "hang");
    const ctl = new AbortController();
    const pending = fetch(new URL("generate", p.url), {
      method: "POST",
      headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS.alice}` },
      body: JSON.stringify(hello()),
      signal: ctl.signal,
    });
    // Wait until the call is upstream (the fake hangs on it), then hang up.
    for (let i = 0; i < 100 && fake.generateCalls.length === callsBefore; i++) await sleep(20);
    assert.equal(fake.generateCalls.length, callsBefore + 1);
    ctl.abort();
    await assert.rejects(pending);
    for (let i = 0; i < 100 && fake.abandoned.length === abandonedBefore; i++) await sleep(20);
    assert.deepEqual(
      fake.abandoned.slice(abandonedBefore).map((a) => a.path),
      [`/v1beta/models/${MODEL}:generateContent`],
    );
  });
});

test("handle secrets: a short one is refused at start, none gives a warning, another key's handles are unknown", async () => {
  const common = { apiKey: KEY, authorize, allowedOrigins: [ORIGIN], upstream: fake.url };
  assert.throws(() => createGeminiProxy({ ...common, handleSecret: "short-secret" }), /at least 32 bytes/);
  assert.throws(() => createGeminiProxy({ ...common, handleSecret: new Uint8Array(31) }), /at least 32 bytes/);
  const warnings = [];
  createGeminiProxy({ ...common, log: (l) => warnings.push(l) });
  assert.ok(
    warnings.some((w) => /no handleSecret/.test(w)),
    warnings.join("\n"),
  );
  let handle;
  await withProxy({}, async () => {
    handle = (await upload(bytes(10))).json.handle;
    assert.equal((await status(handle)).status, 200);
  });
  await withProxy({ handleSecret: SECRET.replace("0", "1") }, async () => {
    assert.equal((await status(handle)).status, 404);
  });
});

test("a budget store that fails refuses requests (fails closed) and says nothing of why", async () => {
  const broken = {
    add: async () => {
      throw new Error("ECONNREFUSED redis://127.0.0.1:6379 password=hunter2");
    },
  };
  await withProxy({ store: broken }, async () => {
    const before = fake.requests.length;
    const r = await generate(hello());
    assert.equal(r.status, 503);
    assert.equal(r.json.code, "store_unavailable");
    assert.equal(r.headers.get("retry-after"), "5");
    assert.ok(!r.text.includes("hunter2") && !r.text.includes("redis://"), r.text);
    assert.equal((await upload(bytes(10))).status, 503);
    assert.equal(fake.requests.length, before, "nothing went upstream unbudgeted");
    // Reading the limits needs no budget.
    assert.equal((await req("limits", { method: "GET" })).status, 200);
  });
});

test("Gemini's 5xx text, the key and the upstream URL reach no client", async () => {
  await withProxy({}, async () => {
    for (const kind of ["generate", "start", "status"]) {
      fake.failNext(kind, 500);
      fake.failNext(kind, 503, { error: { code: 503, message: "backend db-shard-7 overloaded", status: "UNAVAILABLE" } });
    }
    const { json } = await upload(bytes(10))
      .then(() => upload(bytes(10)))
      .then(() => upload(bytes(10)));
    await generate(hello());
    await generate(hello());
    await status(json.handle);
    await status(json.handle);
  });
  assert.ok(seen.length > 50, `checked ${seen.length} answers`);
  assertNoLeak(assert, seen, [KEY, fake.url, "Internal error", "db-shard-7", `127.0.0.1:${new URL(fake.url).port}`]);
  for (const line of logLines) assert.ok(!line.includes(KEY) && !line.includes(fake.url), line);
  assert.ok(
    logLines.some((l) => l.includes("db-shard-7")),
    "the operator's log has the detail",
  );
});
