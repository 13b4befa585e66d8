// Budgets shared through Redis: a real redis-server (Debian's, installed by scripts/setup.sh) that
// this test starts on a free 127.0.0.1 port and stops, the node-redis client (@redis/client), and
// two proxy instances that must enforce one budget between them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { createClient } from "@redis/client";

import { createRedisStore, MemoryStore } from "../../dist/proxy/index.js";
import { startFakeGemini, modelTurn } from "./fake-gemini.mjs";
import { KEY, TOKENS, bytes, hello, startProxy, requester, assertNoLeak } from "./proxy-helpers.mjs";

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

before(async () => {
  port = await freePort();
  server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  server.stdout.on("data", (d) => (out += d));
  server.stderr.on("data", (d) => (out += d));
  await new Promise((resolve, reject) => {
    server.once("error", (e) => reject(new Error(`redis-server could not start (bash scripts/setup.sh installs it): ${e.message}`)));
    server.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
    const wait = setInterval(() => {
      if (/Ready to accept connections/.test(out)) {
        clearInterval(wait);
        resolve();
      }
    }, 20);
  });
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
  // Concurrent adds never pass the limit together.
  const all = await Promise.all(Array.from({ length: 20 }, () => store.add(k("race"), 1, 60_000, 7)));
  assert.equal(all.filter((x) => x.ok).length, 7);
}

test("the memory store keeps the BudgetStore contract", async () => {
  await storeContract(new MemoryStore(), "mem");
});

test("the Redis store keeps the same contract, against a real redis-server", async () => {
  await storeContract(createRedisStore(client, { prefix: `t${Date.now()}:` }), "redis");
  assert.throws(() => createRedisStore({}), TypeError);
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
