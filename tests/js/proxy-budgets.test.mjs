// Token budgets under concurrency and hang-ups, and the memory store under a flood (issue 30,
// findings 4 to 6): parallel calls racing one day budget, clients that leave mid-call, a store
// filled past its size. Real HTTP on 127.0.0.1 against the fake Gemini.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";

import { MemoryStore } from "../../dist/proxy/index.js";
import { startFakeGemini, modelTurn } from "./fake-gemini.mjs";
import { KEY, ORIGIN, TOKENS, hello, startProxy, requester, userKey } from "./proxy-helpers.mjs";

let fake;
const seen = [];
let base;
const { generate, req } = requester(() => base, seen);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const DAY = 24 * 3600_000;

/** A counter's value, read without creating it. */
const counter = async (store, key) => (await store.add(key, 0, DAY)).value;

async function withProxy(options, fn) {
  const p = await startProxy(fake, { log: () => {}, ...options });
  const saved = base;
  base = p.url;
  try {
    return await fn(p);
  } finally {
    base = saved;
    fake.intercept = null;
    fake.script.length = 0;
    fake.streamDelayMs = 0;
    await p.close();
  }
}

const used = (n, text = "ok") => ({ ...modelTurn([{ text }]), usageMetadata: { promptTokenCount: n - 1, candidatesTokenCount: 1, totalTokenCount: n } });

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY, granularity: 256 });
});

after(async () => {
  await fake?.close();
});

test("30 parallel calls of 1M tokens against a 2M day budget: the budget is reserved before Gemini, so at most two get through", async () => {
  const store = new MemoryStore();
  await withProxy({ store, budgets: { tokensPerDay: 2_000_000 } }, async () => {
    // Each call sends a million bytes of text: its honest worst case is over a million tokens.
    const big = hello("a".repeat(1_000_000));
    fake.intercept = async () => {
      await sleep(300);
      return used(1_000_000);
    };
    const before = fake.generateCalls.length;
    const all = await Promise.all(Array.from({ length: 30 }, () => generate(big)));
    const admitted = all.filter((r) => r.status === 200);
    assert.ok(admitted.length >= 1 && admitted.length <= 2, `admitted ${admitted.length} of 30`);
    assert.equal(fake.generateCalls.length - before, admitted.length, "only the admitted calls reached Gemini");
    for (const r of all.filter((r) => r.status !== 200)) {
      assert.equal(r.status, 429, r.text);
      assert.equal(r.json.budget, "tokensPerDay");
    }
    // Settled: each admitted call counts what Gemini said it used, not its reservation.
    assert.equal(await counter(store, `t:${userKey("alice")}`), admitted.length * 1_000_000);
    assert.equal(await counter(store, "g:t"), admitted.length * 1_000_000);
    assert.equal((await generate(hello())).status, 429);
  });
});

test("a reservation is refunded when the call ends: many small sequential calls fit a budget a few reservations would fill", async () => {
  const store = new MemoryStore();
  // A call with the default limits reserves about 24 600 tokens; 100 000 holds four of them at once.
  await withProxy({ store, budgets: { tokensPerDay: 100_000 } }, async () => {
    fake.intercept = () => used(15);
    for (let i = 0; i < 12; i++) assert.equal((await generate(hello())).status, 200, `call ${i}`);
    assert.equal(await counter(store, `t:${userKey("alice")}`), 12 * 15);
  });
});

test("calls whose client hangs up are counted: 5 /generate aborted after 500 ms, 5 /stream aborted after the first event", async () => {
  const store = new MemoryStore();
  // Small output bounds: each call reserves about 300 tokens (its text bytes + 100 + 100).
  await withProxy({ store, limits: { maxOutputTokens: 100, maxThinkingTokens: 100 } }, async (p) => {
    const headers = { origin: ORIGIN, authorization: `Bearer ${TOKENS.alice}`, "content-type": "application/json" };
    const callsBefore = fake.generateCalls.length;
    fake.intercept = async () => {
      await sleep(3000);
      return used(1000);
    };
    for (let i = 0; i < 5; i++) {
      const ctl = new AbortController();
      setTimeout(() => ctl.abort(), 500);
      await assert.rejects(
        fetch(new URL("generate", p.url), { method: "POST", headers, body: JSON.stringify(hello()), signal: ctl.signal }).then((r) => r.text()),
      );
    }
    fake.intercept = null;
    fake.streamDelayMs = 300;
    for (let i = 0; i < 5; i++) {
      fake.script.push(used(1000, "a long streamed answer in pieces"));
      const ctl = new AbortController();
      const res = await fetch(new URL("stream", p.url), { method: "POST", headers, body: JSON.stringify(hello()), signal: ctl.signal });
      assert.equal(res.status, 200);
      const first = await res.body.getReader().read();
      assert.match(new TextDecoder().decode(first.value), /^data: /);
      ctl.abort();
    }
    assert.equal(fake.generateCalls.length - callsBefore, 10, "all ten reached Gemini");
    // Each hang-up keeps its reservation as the count (Gemini's usage never reached the proxy).
    const key = `t:${userKey("alice")}`;
    for (let i = 0; i < 100 && (await counter(store, key)) < 10 * 200; i++) await sleep(50);
    const counted = await counter(store, key);
    assert.ok(counted >= 10 * 200, `counted ${counted} tokens for 10 abandoned calls`);
    assert.equal(await counter(store, "g:t"), counted);
  });
});

test("a memory store filled past its size keeps every live counter, a day budget included, and refuses new keys with store_full", async () => {
  const store = new MemoryStore();
  await store.add("t:someone", 500, DAY, 1000);
  await store.add("g:t", 500, DAY);
  let refused = 0;
  for (let i = 0; i < 100_010; i++) {
    try {
      await store.add(`r:addr-${i}`, 1, 60_000, 60);
    } catch (e) {
      assert.equal(e.code, "STORE_FULL");
      refused++;
    }
  }
  assert.equal(await counter(store, "t:someone"), 500, "the day budget survived the flood");
  assert.equal(await counter(store, "g:t"), 500);
  assert.equal(refused, 100_010 - (100_000 - 2));
  // Expired counters make room again.
  const small = new MemoryStore({ maxKeys: 2 });
  await small.add("a", 1, 100);
  await small.add("b", 1, DAY);
  await assert.rejects(small.add("c", 1, DAY), (e) => e.code === "STORE_FULL");
  await sleep(150);
  assert.equal((await small.add("c", 1, DAY)).value, 1);
  assert.equal(await counter(small, "b"), 1);
  assert.throws(() => new MemoryStore({ maxKeys: 0 }), { name: "NeuralCutError", code: "INVALID_OPTIONS" });
});

test("public mode: a flood of refused requests from new addresses fills the store; they get 503 and the spent day budgets stay spent", async () => {
  const store = new MemoryStore({ maxKeys: 40 });
  await withProxy({ public: true, authorize: undefined, trustedProxyHops: 1, store, budgets: { tokensPerDay: 1000 } }, async () => {
    const from = (addr) => ({ user: null, headers: { "x-forwarded-for": addr } });
    fake.intercept = () => used(1000);
    assert.equal((await generate(hello(), from("10.0.0.1"))).status, 200);
    const spent = await generate(hello(), from("10.0.0.1"));
    assert.equal(spent.status, 429);
    assert.equal(spent.json.budget, "tokensPerDay");
    const codes = [];
    for (let i = 0; i < 80; i++) {
      // A cheap refused request (no model: 403): it still counts against the address's request rate.
      const r = await generate({ contents: [] }, from(`10.1.${i >> 8}.${i & 255}`));
      codes.push(r.status === 503 ? r.json.code : r.status);
    }
    assert.ok(codes.includes(403) && codes.includes("store_full"), codes.join(","));
    assert.ok(
      codes.slice(codes.indexOf("store_full")).every((c) => c === "store_full"),
      "once full, new keys are refused",
    );
    const again = await generate(hello(), from("10.0.0.1"));
    assert.equal(again.status, 429, "the spent day budget was not forgotten");
    assert.equal(again.json.budget, "tokensPerDay");
  });
});

test("refused uploads leave no long-lived counters behind", async () => {
  // Room for alice's two per-minute counters (r:, u:) and the four of bob's call (r:, t:, g:t, g:r).
  const store = new MemoryStore({ maxKeys: 6 });
  await withProxy({ store, budgets: { storedBytes: 100 } }, async () => {
    for (let i = 0; i < 3; i++) {
      const r = await req("upload", { headers: { "content-type": "video/mp4" }, body: new Uint8Array(200) });
      assert.equal(r.status, 429);
      assert.equal(r.json.budget, "storedBytes");
    }
    // alice holds r: and u: (a minute); her slots were given back and dropped, so bob fits.
    fake.intercept = () => used(10);
    const bob = await generate(hello(), { user: "bob" });
    assert.equal(bob.status, 200, bob.text);
  });
});

test("mediaResolution is set to the maximum when the client sends none or UNSPECIFIED", async () => {
  await withProxy({ limits: { maxMediaResolution: "MEDIA_RESOLUTION_LOW" } }, async () => {
    for (const generationConfig of [undefined, { mediaResolution: "MEDIA_RESOLUTION_UNSPECIFIED" }, { temperature: 0.5 }]) {
      fake.script.push(used(10));
      assert.equal((await generate({ ...hello(), generationConfig })).status, 200);
      assert.equal(fake.generateCalls.at(-1).body.generationConfig.mediaResolution, "MEDIA_RESOLUTION_LOW", JSON.stringify(generationConfig));
    }
  });
});

test("a custom upstream's bare host:port is scrubbed from Gemini's 4xx text", async () => {
  await withProxy({}, async () => {
    const host = new URL(fake.url).host;
    fake.failNext("generate", 400, {
      error: { code: 400, message: `request to ${host} via gateway ${host.split(":")[0]} failed validation`, status: "INVALID_ARGUMENT" },
    });
    const r = await generate(hello());
    assert.equal(r.status, 502);
    assert.match(r.json.details, /failed validation/);
    assert.ok(!r.text.includes(host) && !r.text.includes("127.0.0.1"), r.text);
  });
});
