// Shared by the agent tests: the built package's editor, the real proxy on 127.0.0.1 in front of
// the fake Gemini, and checks that a conversation is one Gemini accepts.
import assert from "node:assert/strict";

import { createEditor } from "../../dist/index.js";
import { createAgent } from "../../dist/agent/index.js";
import { serveGeminiProxy } from "../../dist/proxy/node.js";
import { startFakeGemini, modelTurn } from "./fake-gemini.mjs";

export const KEY = "AIzaFAKE-agent-test-key-9876543210";
export const ORIGIN = "http://127.0.0.1:5173";
export const MODEL = "gemini-2.5-flash";

/** The browser's fetch: it sends the page's Origin, which Node's fetch does not. Records what it sends. */
export function browserFetch(log = []) {
  const f = (url, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("origin", ORIGIN);
    log.push({
      url: String(url),
      method: init.method ?? "GET",
      headers: Object.fromEntries(headers),
      bytes: typeof init.body === "string" ? Buffer.byteLength(init.body) : undefined,
      body: typeof init.body === "string" ? init.body : undefined,
    });
    return fetch(url, { ...init, headers });
  };
  f.log = log;
  return f;
}

export const noWait = async () => {};

export function media(n = 3000, type = "video/mp4") {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 13) & 0xff;
  return new Blob([b], { type });
}

/** The fake Gemini and a proxy in front of it. */
export async function startStack({ proxyOptions = {}, fakeOptions = {} } = {}) {
  const fake = await startFakeGemini({ apiKey: KEY, granularity: 1024, processingPolls: 2, ...fakeOptions });
  const proxy = await serveGeminiProxy({
    apiKey: KEY,
    public: true,
    allowedOrigins: [ORIGIN],
    models: [MODEL, "gemini-2.5-pro", "gemini-3-pro-preview"],
    upstream: fake.url,
    ...proxyOptions,
    limits: { uploadChunkBytes: 1024, ...proxyOptions.limits },
    // The tests make hundreds of requests and dozens of uploads a minute; budgets are tested in
    // proxy*.test.mjs and where a test sets its own.
    budgets: { requestsPerMinute: 100_000, globalRequestsPerMinute: 100_000, uploadsPerMinute: 10_000, ...proxyOptions.budgets },
  });
  return {
    fake,
    proxy,
    close: async () => {
      await proxy.close();
      await fake.close();
    },
  };
}

/** Resets the fake between tests: summaries answered aside from the script. */
export function resetFake(fake) {
  fake.script.length = 0;
  fake.processingPolls = 2;
  fake.failProcessing = false;
  fake.fileLifetimeMs = 48 * 3600 * 1000;
  fake.intercept = (body) => (body.tools ? undefined : modelTurn([{ text: "A ten second test pattern with a tone." }]));
}

/** An editor with one 10 s clip on the main track and an agent on the proxy. */
export async function setup(proxy, { agentOptions = {}, clip = {} } = {}) {
  const editor = await createEditor();
  const assetId = editor.addAsset({ name: "clip.mp4", type: "video", duration: 10, file: media(), ...clip });
  const placed = await editor.callTool("add_media_to_timeline", { assetId, startTime: 0, trackType: "main" });
  assert.ok(placed.elementId, JSON.stringify(placed));
  const events = [];
  const fetchLog = [];
  const agent = createAgent({
    editor,
    proxyUrl: proxy.url,
    model: MODEL,
    fetch: browserFetch(fetchLog),
    onEvent: (e) => events.push(e),
    allowUploads: true,
    sleep: noWait,
    context: { sleep: noWait, pollIntervalMs: 1, maxWaitMs: 50 },
    ...agentOptions,
  });
  return { editor, assetId, elementId: placed.elementId, trackId: placed.trackId, agent, events, fetchLog };
}

/** Timeline clips as [start, end] seconds. */
export function clips(editor) {
  const tracks = editor.project().timeline.tracks;
  return tracks
    .filter((t) => t.type !== "text")
    .flatMap((t) => t.elements)
    .map((e) => [e.start / 120000, (e.start + e.duration) / 120000]);
}

export const lastTurn = (body) => body.contents.at(-1);
export const responses = (body) =>
  lastTurn(body)
    .parts.filter((p) => p.functionResponse)
    .map((p) => p.functionResponse);

/**
 * Asserts `contents` is a conversation Gemini accepts: it starts with the user's text, roles
 * alternate, every model turn with function calls is answered by the next turn with as many
 * responses of the same names in order, and no response is without its call.
 */
export function assertValidConversation(contents, where = "") {
  assert.ok(contents.length > 0, `${where}: empty`);
  assert.equal(contents[0].role, "user", `${where}: starts with a user turn`);
  assert.ok(
    contents[0].parts.some((p) => typeof p.text === "string"),
    `${where}: starts with the user's text`,
  );
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i];
    assert.ok(c.parts.length > 0, `${where}: turn ${i} is empty`);
    if (i > 0) assert.notEqual(c.role, contents[i - 1].role, `${where}: turns ${i - 1} and ${i} have the same role`);
    const calls = c.role === "model" ? c.parts.filter((p) => p.functionCall).map((p) => p.functionCall.name) : [];
    const answered = c.role === "user" ? c.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse.name) : [];
    if (c.role === "user" && answered.length) {
      const prev = contents[i - 1];
      assert.ok(prev, `${where}: responses in turn ${i} without calls`);
      assert.deepEqual(
        answered,
        prev.parts.filter((p) => p.functionCall).map((p) => p.functionCall.name),
        `${where}: turn ${i} answers the calls of turn ${i - 1}`,
      );
    }
    if (calls.length && i + 1 < contents.length) {
      const next = contents[i + 1].parts.filter((p) => p.functionResponse).map((p) => p.functionResponse.name);
      assert.deepEqual(next, calls, `${where}: the calls of turn ${i} are answered`);
    }
  }
}
