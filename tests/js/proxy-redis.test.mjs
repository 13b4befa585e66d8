// Budgets shared through Redis: a real redis-server (Debian's, installed by scripts/setup.sh) that
// this test starts on a free 127.0.0.1 port and stops, the node-redis client (@redis/client), and
// two proxy instances that must enforce one budget between them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { request as httpRequest } from "node:http";
import { createClient } from "@redis/client";

import { createRedisStore, MemoryStore } from "../../dist/proxy/index.js";
import { startFakeGemini, modelTurn } from "./fake-gemini.mjs";
import { KEY, ORIGIN, TOKENS, bytes, hello, startProxy, requester, assertNoLeak, userKey } from "./proxy-helpers.mjs";

let server;
let port;
let client;
let fake;
const seen = [];
let base;
const { generate, upload, remove } = requester(() => base, seen);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts redis-server on `port` (its data in `dir` when given, so a restart keeps it). */
async function spawnRedis(port, dir) {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  if (dir) args.push("--dir", dir, "--dbfilename", "dump.rdb");
  const proc = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  await new Promise((resolve, reject) => {
    proc.once("error", (e) => reject(new Error(`redis-server could not start (bash scripts/setup.sh installs it): ${e.message}`)));
    proc.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
    const wait = setInterval(() => {
      if (/Ready to accept connections/.test(out)) {
        clearInterval(wait);
        resolve();
      }
    }, 20);
  });
  return proc;
}

before(async () => {
  port = await freePort();
  server = await spawnRedis(port);
  client = createClient({ socket: { host: "127.0.0.1", port } });
  await client.connect();
  fake = await startFakeGemini({ apiKey: KEY, granularity: 256 });
});

after(async () => {
  await client?.quit().catch(() => {});
  await fake?.close();
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
});

/** The BudgetStore contract, checked on any store. */
async function storeContract(store, prefix) {
  const k = (name) => `${prefix}:${name}`;
  // A fresh counter starts at 0; adding 0 creates nothing.
  let r = await store.add(k("a"), 0, 60_000);
  assert.deepEqual([r.ok, r.value], [true, 0]);
  // Adds up to the limit, refuses past it without changing anything.
  r = await store.add(k("a"), 3, 60_000, 5);
  assert.deepEqual([r.ok, r.value], [true, 3]);
  const firstReset = r.resetAt;
  assert.ok(firstReset > Date.now() + 50_000 && firstReset <= Date.now() + 60_000);
  r = await store.add(k("a"), 2, 60_000, 5);
  assert.deepEqual([r.ok, r.value], [true, 5]);
  r = await store.add(k("a"), 1, 60_000, 5);
  assert.deepEqual([r.ok, r.value], [false, 5]);
  // Negative amounts always pass and never go below 0; the expiry stays.
  r = await store.add(k("a"), -10, 60_000, 5);
  assert.deepEqual([r.ok, r.value], [true, 0]);
  assert.ok(Math.abs(r.resetAt - firstReset) < 1000);
  // A counter expires after its ttl.
  await store.add(k("short"), 4, 150);
  await sleep(300);
  r = await store.add(k("short"), 0, 150);
  assert.equal(r.value, 0);
  // extend moves the expiry on a successful add.
  await store.add(k("ext"), 1, 200, undefined, true);
  await sleep(120);
  await store.add(k("ext"), 1, 200, undefined, true);
  await sleep(120);
  r = await store.add(k("ext"), 0, 200);
  assert.equal(r.value, 2, "still alive: the second add extended it");
  // Adding 0 with extend renews a lease (a running upload's slot).
  await store.add(k("lease"), 1, 200, undefined, true);
  await sleep(120);
  await store.add(k("lease"), 0, 200, undefined, true);
  await sleep(120);
  r = await store.add(k("lease"), 0, 200);
  assert.equal(r.value, 1, "still alive: adding 0 with extend renewed it");
  // Concurrent adds never pass the limit together.
  const all = await Promise.all(Array.from({ length: 20 }, () => store.add(k("race"), 1, 60_000, 7)));
  assert.equal(all.filter((x) => x.ok).length, 7);
}

test("the memory store keeps the BudgetStore contract", async () => {
  await storeContract(new MemoryStore(), "mem");
});

test("the Redis store keeps the same contract, against a real redis-server", async () => {
  await storeContract(createRedisStore(client, { prefix: `t${Date.now()}:` }), "redis");
  assert.throws(() => createRedisStore({}), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
});

test("two proxy instances sharing Redis enforce one per-user budget and one global budget", async () => {
  const store = createRedisStore(client, { prefix: "shared-rate:" });
  const a = await startProxy(fake, { store, budgets: { requestsPerMinute: 4, globalRequestsPerMinute: 6 }, log: () => {} });
  const b = await startProxy(fake, { store, budgets: { requestsPerMinute: 4, globalRequestsPerMinute: 6 }, log: () => {} });
  try {
    const on = async (p, user) => {
      base = p.url;
      fake.script.push(modelTurn([{ text: "ok" }]));
      return (await generate(hello(), { user })).status;
    };
    const alice = [await on(a, "alice"), await on(b, "alice"), await on(a, "alice"), await on(b, "alice"), await on(a, "alice"), await on(b, "alice")];
    assert.deepEqual(alice, [200, 200, 200, 200, 429, 429]);
    // Alice's four admitted calls count globally; bob gets the last two of the six.
    assert.deepEqual([await on(b, "bob"), await on(a, "bob"), await on(b, "bob")], [200, 200, 429]);
    base = b.url;
    const r = await generate(hello(), { user: "carol" });
    assert.equal(r.json.budget, "globalRequestsPerMinute");
  } finally {
    fake.script.length = 0;
    await a.close();
    await b.close();
  }
});

test("two proxy instances sharing Redis share one storage cap; a delete on one frees it on the other", async () => {
  const store = createRedisStore(client, { prefix: "shared-storage:" });
  const a = await startProxy(fake, { store, budgets: { storedBytes: 1000 }, log: () => {} });
  const b = await startProxy(fake, { store, budgets: { storedBytes: 1000 }, log: () => {} });
  try {
    base = a.url;
    const first = await upload(bytes(700));
    assert.equal(first.status, 201);
    base = b.url;
    const refused = await upload(bytes(700));
    assert.equal(refused.status, 429);
    assert.equal(refused.json.budget, "storedBytes");
    // Instances share the handle secret, so b can delete what a uploaded.
    assert.equal((await remove(first.json.handle)).status, 200);
    base = a.url;
    assert.equal((await upload(bytes(700))).status, 201);
  } finally {
    await a.close();
    await b.close();
  }
});

test("the Redis keys hold no user id or token", async () => {
  const keys = await client.keys("shared-*");
  assert.ok(keys.length > 0);
  for (const key of keys) {
    for (const segment of key.split(":")) assert.ok(!["alice", "bob", "carol"].includes(segment), key);
    for (const token of Object.values(TOKENS)) assert.ok(!key.includes(token), key);
  }
  assertNoLeak(assert, seen, [KEY, fake.url]);
});

const used = (n) => ({ ...modelTurn([{ text: "ok" }]), usageMetadata: { promptTokenCount: n - 1, candidatesTokenCount: 1, totalTokenCount: n } });

test("30 parallel 1M-token calls over two instances sharing Redis: reserved atomically, at most two get through", async () => {
  const store = createRedisStore(client, { prefix: "race:" });
  const opts = { store, budgets: { tokensPerDay: 2_000_000 }, log: () => {} };
  const a = await startProxy(fake, opts);
  const b = await startProxy(fake, opts);
  try {
    fake.intercept = async () => {
      await sleep(300);
      return used(1_000_000);
    };
    const big = hello("a".repeat(1_000_000));
    const all = await Promise.all(Array.from({ length: 30 }, (_, i) => ((base = (i % 2 ? a : b).url), generate(big))));
    const admitted = all.filter((r) => r.status === 200).length;
    assert.ok(admitted >= 1 && admitted <= 2, `admitted ${admitted} of 30`);
    assert.ok(all.every((r) => r.status === 200 || r.json.budget === "tokensPerDay"));
    assert.equal(Number(await client.get(`race:t:${userKey("alice")}`)), admitted * 1_000_000);
  } finally {
    fake.intercept = null;
    await a.close();
    await b.close();
  }
});

/** A redis-server that can be stopped mid-request and started again with its data. */
async function restartableRedis() {
  const dir = mkdtempSync(join(tmpdir(), "nc-redis-"));
  const p = await freePort();
  let proc = await spawnRedis(p, dir);
  const c = createClient({ socket: { host: "127.0.0.1", port: p, reconnectStrategy: () => 100 }, disableOfflineQueue: true });
  c.on("error", () => {});
  await c.connect();
  return {
    client: c,
    async stop() {
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      spawnSync("redis-cli", ["-p", String(p), "shutdown", "save"]);
      await exited;
      for (let i = 0; i < 100 && c.isReady; i++) await sleep(20);
    },
    async start() {
      proc = await spawnRedis(p, dir);
      for (let i = 0; i < 200 && !c.isReady; i++) await sleep(25);
      assert.ok(c.isReady, "the client reconnected");
    },
    async close() {
      c.destroy();
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await new Promise((resolve) => proc.once("exit", resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test("Redis stopped mid-call: the answer Gemini already gave is delivered, new calls fail closed with 503, and the count is settled when Redis returns", async () => {
  const redis = await restartableRedis();
  const p = await startProxy(fake, {
    store: createRedisStore(redis.client, { prefix: "outage:" }),
    limits: { maxOutputTokens: 100, maxThinkingTokens: 100 },
    log: () => {},
  });
  base = p.url;
  try {
    let arrived;
    const upstream = new Promise((resolve) => (arrived = resolve));
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    fake.intercept = async () => {
      arrived();
      await gate;
      return used(1400);
    };
    const pending = generate(hello());
    await upstream;
    await redis.stop();
    release();
    const r = await pending;
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.candidates[0].content.parts[0].text, "ok");
    fake.intercept = null;
    // While the store is down nothing goes upstream.
    const before = fake.generateCalls.length;
    const down = await generate(hello());
    assert.equal(down.status, 503);
    assert.equal(down.json.code, "store_unavailable");
    assert.equal(fake.generateCalls.length, before);
    await redis.start();
    // The reservation (about 300) was in Redis before it stopped; the rest of the 1400 is owed and paid now.
    const key = `outage:t:${userKey("alice")}`;
    for (let i = 0; i < 100 && Number(await redis.client.get(key)) !== 1400; i++) await sleep(50);
    assert.equal(Number(await redis.client.get(key)), 1400);
    assert.equal(Number(await redis.client.get("outage:g:t")), 1400);
  } finally {
    fake.intercept = null;
    await p.close();
    await redis.close();
  }
});

test("Redis stopped while an upload runs: the upload ends, and its slot is given back once Redis returns", async () => {
  const redis = await restartableRedis();
  const p = await startProxy(fake, {
    store: createRedisStore(redis.client, { prefix: "slots:" }),
    budgets: { concurrentUploads: 1, uploadsPerMinute: 100 },
    log: () => {},
  });
  base = p.url;
  try {
    const starts = () => fake.requests.filter((r) => r.path === "/upload/v1beta/files" && !r.query.includes("upload_id")).length;
    const before = starts();
    const done = new Promise((resolve, reject) => {
      const r = httpRequest(
        new URL("upload", p.url),
        { method: "POST", headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS.alice}`, "content-type": "video/mp4", "content-length": "600" } },
        (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode, text }));
        },
      );
      r.on("error", reject);
      r.write(bytes(300));
      (async () => {
        // The slot is held once the upload reached Gemini; then Redis goes away, then the body ends.
        for (let i = 0; i < 100 && starts() === before; i++) await sleep(20);
        await redis.stop();
        r.end(bytes(300, 1));
      })();
    });
    const first = await done;
    assert.equal(first.status, 201, first.text);
    await redis.start();
    let next;
    // Bounded: the owed give-back is retried every second once Redis answers.
    for (let i = 0; i < 30; i++) {
      next = await upload(bytes(100));
      if (next.status !== 429 || next.json.budget !== "concurrentUploads") break;
      await sleep(200);
    }
    assert.equal(next.status, 201, next.text + JSON.stringify(await redis.client.keys("slots:*")));
  } finally {
    await p.close();
    await redis.close();
  }
});
