// The demo server's proxy admits only its own page: serving the page sets a per-start token as an
// HttpOnly, SameSite=Strict cookie scoped to the proxy, and nothing without it gets through.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";

import { startDemoServer, PROXY_PATH, TOKEN_COOKIE } from "../../scripts/demo.mjs";
import { startFakeGemini, modelTurn } from "./fake-gemini.mjs";
import { KEY, MODEL, hello } from "./proxy-helpers.mjs";

let fake;

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY });
});

after(async () => {
  await fake?.close();
});

/** The token cookie the page's answer sets, as `name=value`, and its attributes. */
async function pageCookie(server) {
  const res = await fetch(server.url);
  await res.text();
  const set = res.headers.get("set-cookie");
  assert.ok(set, "serving the page sets the token cookie");
  const [pair, ...attrs] = set.split(";").map((s) => s.trim());
  return { pair, attrs };
}

test("the demo page carries a per-start HttpOnly SameSite=Strict token cookie that the proxy requires", async () => {
  const first = await startDemoServer({ port: 0, apiKey: KEY, upstream: fake.url, models: [MODEL], log: () => {} });
  let old;
  try {
    const origin = first.url.replace(/\/$/, "");
    const api = (path) => new URL(`${PROXY_PATH}/${path}`, first.url);
    const { pair, attrs } = await pageCookie(first);
    old = pair;
    assert.match(pair, new RegExp(`^${TOKEN_COOKIE}=[A-Za-z0-9_-]{40,}$`));
    assert.ok(attrs.includes("HttpOnly"), attrs.join("; "));
    assert.ok(attrs.includes("SameSite=Strict"), attrs.join("; "));
    assert.ok(attrs.includes(`Path=${PROXY_PATH}`), attrs.join("; "));
    // Without the cookie: 401, with a forged same-site Origin or none.
    const post = (headers) =>
      fetch(api("generate"), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(hello()) });
    assert.equal((await post({ origin })).status, 401);
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ origin, cookie: `${TOKEN_COOKIE}=${"x".repeat(43)}` })).status, 401);
    // With it, as the page's same-origin fetch sends it.
    fake.script.push(modelTurn([{ text: "hello page" }]));
    const ok = await post({ origin, cookie: pair });
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).candidates[0].content.parts[0].text, "hello page");
    const limits = await fetch(api("limits"), { headers: { cookie: pair } });
    assert.equal(limits.status, 200);
    assert.equal(typeof (await limits.json()).maxTurns, "number");
    // The same token on every page load of this start.
    assert.equal((await pageCookie(first)).pair, pair);
  } finally {
    await first.close();
  }
  const second = await startDemoServer({ port: 0, apiKey: KEY, upstream: fake.url, models: [MODEL], log: () => {} });
  try {
    const { pair } = await pageCookie(second);
    assert.notEqual(pair, old, "a new token on every start");
    const r = await fetch(new URL(`${PROXY_PATH}/limits`, second.url), { headers: { cookie: old } });
    assert.equal(r.status, 401, "an earlier start's token is refused");
  } finally {
    await second.close();
  }
});

test("without a key the demo page sets no token cookie", async () => {
  const plain = await startDemoServer({ port: 0 });
  try {
    const res = await fetch(plain.url);
    await res.text();
    assert.equal(res.headers.get("set-cookie"), null);
  } finally {
    await plain.close();
  }
});
