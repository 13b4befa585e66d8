// Shared by the proxy tests: users with bearer tokens, a proxy on 127.0.0.1 in front of the fake
// Gemini, and a request helper that keeps every response for the "nothing leaks" checks.
import { createHash } from "node:crypto";
import { serveGeminiProxy } from "../../dist/proxy/node.js";

export const KEY = "AIzaFAKE-proxy-test-key-0123456789";
/** The budget key of a user, as the proxy hashes it (the store never sees the id). */
export const userKey = (user) => createHash("sha256").update(`neuralcut-user:${user}`).digest().subarray(0, 16).toString("base64url");
export const ORIGIN = "http://127.0.0.1:5173";
export const SECRET = "proxy-test-secret-0123456789abcdef0123456789";
export const MODEL = "gemini-2.5-flash";
/** Bearer tokens of the test users. */
export const TOKENS = {
  alice: "alice-token-0123456789abcdef0123456789",
  bob: "bob-token-0123456789abcdef0123456789abc",
  carol: "carol-token-0123456789abcdef0123456789",
};

/** An authorize mapping each test user's bearer token to the user. */
export async function authorize(request) {
  const m = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "");
  if (!m) return null;
  return Object.entries(TOKENS).find(([, t]) => t === m[1])?.[0] ?? null;
}

export function bytes(n, seed = 7) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

export const hello = (text = "hi") => ({ model: MODEL, contents: [{ role: "user", parts: [{ text }] }] });

/** Starts a proxy for the tests; `options` override the defaults below. */
export function startProxy(fake, options = {}) {
  return serveGeminiProxy({ apiKey: KEY, authorize, allowedOrigins: [ORIGIN], models: [MODEL], upstream: fake.url, handleSecret: SECRET, ...options });
}

/**
 * A request helper bound to a proxy URL. Options: method, origin (null: none), user (a TOKENS key,
 * or null: no Authorization), client (x-neuralcut-client), headers, body, signal, base.
 * Every response goes into `seen`.
 */
export function requester(getBase, seen) {
  async function req(path, { method = "POST", origin = ORIGIN, user = "alice", client, headers = {}, body, signal, base = getBase() } = {}) {
    const h = { ...headers };
    if (origin) h.origin = origin;
    if (user) h.authorization = `Bearer ${TOKENS[user]}`;
    if (client) h["x-neuralcut-client"] = client;
    const res = await fetch(new URL(path, base), { method, headers: h, body, signal });
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
  const generate = (body, opts = {}) =>
    req("generate", { ...opts, headers: { "content-type": "application/json", ...opts.headers }, body: JSON.stringify(body) });
  const upload = (data, type = "video/mp4", opts = {}) =>
    req("upload", { ...opts, headers: { "content-type": type, "x-file-name": encodeURIComponent("clip one.mp4"), ...opts.headers }, body: data });
  const status = (handle, opts = {}) => req("status", { ...opts, body: JSON.stringify({ handle }) });
  const remove = (handle, opts = {}) => req("delete", { ...opts, body: JSON.stringify({ handle }) });
  return { req, generate, upload, status, remove };
}

/** Asserts that no response in `seen` carries any of `secrets` in its body or headers. */
export function assertNoLeak(assert, seen, secrets) {
  for (const r of seen) {
    for (const s of secrets) {
      assert.ok(!r.text.includes(s), `body of ${r.path} (${r.status}) holds '${s}'`);
      for (const [k, v] of r.headers) assert.ok(!k.includes(s) && !v.includes(s), `header ${k} of ${r.path} holds '${s}'`);
    }
  }
}
