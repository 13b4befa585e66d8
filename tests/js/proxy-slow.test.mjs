// Slow clients (issue 30, findings 7 and 8): headers that never end, bodies that never arrive,
// uploads that trickle to hold a slot. Every limit is lowered for the test; every wait is bounded.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { request as httpRequest } from "node:http";

import { startFakeGemini } from "./fake-gemini.mjs";
import { KEY, ORIGIN, TOKENS, bytes, startProxy, requester } from "./proxy-helpers.mjs";

let fake;
const seen = [];
let base;
const { upload } = requester(() => base, seen);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const FAST_CHECKS = { headersTimeoutMs: 500, timeoutCheckIntervalMs: 100 };

async function withProxy(options, fn) {
  const p = await startProxy(fake, { log: () => {}, ...options });
  base = p.url;
  try {
    return await fn(p);
  } finally {
    await p.close();
  }
}

/** A raw connection that sends `text` and keeps open: resolves with what came back once the
 * server closes it, or with `open: true` after `waitMs`. */
function rawClient(url, text, waitMs) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let got = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ open: true, got });
    }, waitMs);
    socket.on("data", (d) => (got += d));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ open: false, got });
    });
    socket.write(text);
  });
}

/** An upload whose body arrives `step` bytes every `gapMs`; resolves with the answer, or
 * `{ open: true }` if none came within `waitMs` (the request is then torn down). */
function trickle(url, { total, step, gapMs, user = "alice", waitMs }) {
  return new Promise((resolve) => {
    let done = false;
    const finish = (v) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      r.destroy();
      resolve(v);
    };
    const r = httpRequest(
      url,
      { method: "POST", headers: { origin: ORIGIN, authorization: `Bearer ${TOKENS[user]}`, "content-type": "video/mp4", "content-length": String(total) } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => finish({ status: res.statusCode, json: JSON.parse(text || "{}") }));
      },
    );
    r.on("error", () => finish({ open: false, error: true }));
    const timer = setTimeout(() => finish({ open: true }), waitMs);
    (async () => {
      for (let sent = 0; sent < total && !done; sent += step) {
        r.write(bytes(Math.min(step, total - sent), sent));
        await sleep(gapMs);
      }
      if (!done) r.end();
    })();
  });
}

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY, granularity: 256 });
});

after(async () => {
  await fake?.close();
});

test("slowloris: headers that never end are cut by the headers timeout", async () => {
  await withProxy(FAST_CHECKS, async (p) => {
    const r = await rawClient(p.url, `POST /generate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKENS.alice}\r\n`, 8000);
    assert.equal(r.open, false, "the connection was still open after 8 s");
  });
});

test("slowloris: 40 authorized requests that send headers and 9 body bytes get 408 and are closed", async () => {
  await withProxy({ ...FAST_CHECKS, limits: { bodyTimeoutMs: 500 } }, async (p) => {
    const head = `POST /generate HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${ORIGIN}\r\nAuthorization: Bearer ${TOKENS.alice}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":`;
    const all = await Promise.all(Array.from({ length: 40 }, () => rawClient(p.url, head, 8000)));
    for (const r of all) {
      assert.equal(r.open, false, "the connection was still open after 8 s");
      assert.match(r.got, /^HTTP\/1\.1 408/);
      assert.match(r.got, /"code":"body_timeout"/);
    }
  });
});

test("a request has a total time limit: a body arriving above every rate still ends at requestTimeoutMs", async () => {
  await withProxy({ ...FAST_CHECKS, requestTimeoutMs: 1500, limits: { uploadMinBytesPerSecond: 10, uploadRateWindowMs: 500 } }, async (p) => {
    const r = await trickle(new URL("upload", p.url), { total: 10_000, step: 100, gapMs: 100, waitMs: 8000 });
    assert.notEqual(r.open, true, "still uploading after 8 s");
    assert.ok(r.status === 408 || r.error, JSON.stringify(r));
  });
});

test("a trickle upload cannot hold a global slot: under the minimum rate it is cut with 408 and the slot frees", async () => {
  const limits = { uploadMinBytesPerSecond: 100, uploadRateWindowMs: 600, uploadIdleTimeoutMs: 3000 };
  await withProxy({ limits, budgets: { globalConcurrentUploads: 2 } }, async (p) => {
    const url = new URL("upload", p.url);
    // A byte every 200 ms: never idle for the idle timeout, far under 100 bytes a second.
    const slow = ["alice", "bob"].map((user) => trickle(url, { total: 1000, step: 1, gapMs: 200, user, waitMs: 6000 }));
    await sleep(200);
    const [a, b] = await Promise.all(slow);
    for (const r of [a, b]) {
      assert.notEqual(r.open, true, "the trickle still held its slot after 6 s");
      assert.equal(r.status, 408);
      assert.equal(r.json.code, "upload_too_slow");
    }
    const carol = await upload(bytes(100), "video/mp4", { user: "carol" });
    assert.equal(carol.status, 201, JSON.stringify(carol.json));
    // An upload over the minimum rate runs past several windows and goes through.
    const ok = await trickle(url, { total: 1500, step: 150, gapMs: 150, user: "carol", waitMs: 8000 });
    assert.equal(ok.status, 201, JSON.stringify(ok));
  });
});
