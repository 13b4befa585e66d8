// The agent loop end to end: the built package's editor, the real proxy over HTTP on 127.0.0.1,
// and the fake Gemini scripting function calls with thought signatures.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";

import { createEditor } from "../../dist/index.js";
import { createAgent, toGeminiSchema } from "../../dist/agent/index.js";
import { serveGeminiProxy } from "../../dist/proxy/node.js";
import { startFakeGemini, modelTurn, call } from "./fake-gemini.mjs";

const KEY = "AIzaFAKE-agent-test-key-9876543210";
const ORIGIN = "http://127.0.0.1:5173";
const MODEL = "gemini-2.5-flash";

let fake;
let proxy;

/** The browser's fetch: it sends the page's Origin, which Node's fetch does not. */
const browserFetch = (url, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set("origin", ORIGIN);
  return fetch(url, { ...init, headers });
};

const noWait = async () => {};

function media(n = 3000) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 13) & 0xff;
  return new Blob([b], { type: "video/mp4" });
}

async function setup({ agentOptions = {}, clip = {} } = {}) {
  const editor = await createEditor();
  const assetId = editor.addAsset({ name: "clip.mp4", type: "video", duration: 10, file: media(), ...clip });
  const placed = await editor.callTool("add_media_to_timeline", { assetId, startTime: 0, trackType: "main" });
  assert.ok(placed.elementId, JSON.stringify(placed));
  const events = [];
  const agent = createAgent({
    editor,
    proxyUrl: proxy.url,
    model: MODEL,
    fetch: browserFetch,
    onEvent: (e) => events.push(e),
    context: { sleep: noWait, pollIntervalMs: 1, maxWaitMs: 50 },
    ...agentOptions,
  });
  return { editor, assetId, agent, events };
}

function clips(editor) {
  const tracks = editor.project().timeline.tracks;
  return tracks.flatMap((t) => t.elements).map((e) => [e.start / 120000, (e.start + e.duration) / 120000]);
}

/** The last user turn of a generateContent body. */
const lastTurn = (body) => body.contents.at(-1);
const responses = (body) => lastTurn(body).parts.filter((p) => p.functionResponse).map((p) => p.functionResponse);

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY, granularity: 1024, processingPolls: 2 });
  proxy = await serveGeminiProxy({ apiKey: KEY, public: true, allowedOrigins: [ORIGIN], models: [MODEL, "gemini-2.5-pro"], upstream: fake.url, limits: { uploadChunkBytes: 1024 } });
});

after(async () => {
  await proxy?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.script.length = 0;
  fake.processingPolls = 2;
  fake.failProcessing = false;
  fake.fileLifetimeMs = 48 * 3600 * 1000;
  // Summary requests (no tools) are answered aside from the script.
  fake.intercept = (body) => (body.tools ? undefined : modelTurn([{ text: "A ten second test pattern with a tone." }]));
});

test("a user message becomes load_asset_context, split and delete_timeline_elements; the timeline changes; the final text comes back", async () => {
  const { editor, assetId, agent, events } = await setup();
  const sent = [];
  let middleId;
  fake.script.push(
    (body) => {
      sent.push(body);
      return modelTurn([{ text: "Let me look at the clip first.", thought: true }, call("load_asset_context", { assetId }, "sig-one")]);
    },
    (body) => {
      sent.push(body);
      return modelTurn([call("split", { times: [2, 4] }, "sig-two")]);
    },
    (body) => {
      sent.push(body);
      return modelTurn([call("list_timeline", {}, "sig-three")]);
    },
    (body) => {
      sent.push(body);
      const timeline = responses(body)[0].response.output;
      const middle = timeline.tracks.flatMap((t) => t.elements).find((e) => e.start === 2 && e.end === 4);
      middleId = middle.elementId;
      return modelTurn([call("delete_timeline_elements", { elementIds: [middleId] }, "sig-four")]);
    },
    (body) => {
      sent.push(body);
      return modelTurn([{ text: "Removed seconds 2 to 4." }]);
    },
  );
  const uploadsBefore = fake.uploads.length;
  const text = await agent.send("Remove the part between 2 and 4 seconds.");
  assert.equal(text, "Removed seconds 2 to 4.");
  assert.deepEqual(clips(editor), [[0, 2], [4, 10]]);
  assert.equal(fake.uploads.length, uploadsBefore + 1);

  // The declarations came from the editor's registry, plus transcribe_video.
  const names = sent[0].tools[0].functionDeclarations.map((d) => d.name);
  for (const n of ["list_timeline", "split", "delete_timeline_elements", "load_asset_context", "transcribe_video"]) assert.ok(names.includes(n), n);

  // load_asset_context answered, and the file was attached as fileData (the proxy swapped the
  // handle for the upstream URI).
  const loaded = responses(sent[1])[0];
  assert.equal(loaded.name, "load_asset_context");
  assert.equal(loaded.response.output.status, "loaded");
  assert.equal(loaded.response.output.cached, false);
  assert.equal(loaded.response.output.summary, "A ten second test pattern with a tone.");
  const fileData = lastTurn(sent[1]).parts.find((p) => p.fileData).fileData;
  assert.equal(fileData.fileUri, `${fake.url}/v1beta/${fake.uploads.at(-1).name}`);
  assert.equal(fileData.mimeType, "video/mp4");

  // Each model turn went back verbatim, thought signature included, in every later request.
  const scripted = [
    [{ text: "Let me look at the clip first.", thought: true }, call("load_asset_context", { assetId }, "sig-one")],
    [call("split", { times: [2, 4] }, "sig-two")],
    [call("list_timeline", {}, "sig-three")],
    [call("delete_timeline_elements", { elementIds: [middleId] }, "sig-four")],
  ];
  for (let i = 1; i < sent.length; i++) {
    const modelTurns = sent[i].contents.filter((c) => c.role === "model");
    assert.equal(modelTurns.length, i);
    for (let j = 0; j < i; j++) assert.deepEqual(modelTurns[j], { role: "model", parts: scripted[j] });
  }
  const sigs = sent[4].contents.filter((c) => c.role === "model").flatMap((c) => c.parts.map((p) => p.thoughtSignature).filter(Boolean));
  assert.deepEqual(sigs, ["sig-one", "sig-two", "sig-three", "sig-four"]);

  // Events: one call and one result per tool, in order, then the final text.
  const kinds = events.map((e) => (e.type === "tool_call" || e.type === "tool_result" ? `${e.type}:${e.name}` : e.type));
  assert.deepEqual(kinds, [
    "user",
    "tool_call:load_asset_context",
    "tool_result:load_asset_context",
    "tool_call:split",
    "tool_result:split",
    "tool_call:list_timeline",
    "tool_result:list_timeline",
    "tool_call:delete_timeline_elements",
    "tool_result:delete_timeline_elements",
    "text",
    "done",
  ]);

  // A second load of the same asset is served from the cache: no upload, no summary request.
  const generateCalls = fake.generateCalls.length;
  const again = await agent.callTool("load_asset_context", { assetId });
  assert.equal(again.cached, true);
  assert.equal(again.status, "loaded");
  assert.equal(again.summary, "A ten second test pattern with a tone.");
  assert.equal(fake.uploads.length, uploadsBefore + 1);
  assert.equal(fake.generateCalls.length, generateCalls);

  // The whole edit is undoable step by step.
  assert.ok(editor.undo());
  assert.deepEqual(clips(editor), [[0, 2], [2, 4], [4, 10]]);
});

test("a tool error is fed back and the scripted model corrects its call", async () => {
  const { editor, agent, events } = await setup();
  let seenError;
  fake.script.push(
    () => modelTurn([call("split", { times: [-1] }, "sig-bad")]),
    (body) => {
      seenError = responses(body)[0];
      return modelTurn([call("split", { times: [5] }, "sig-fixed")]);
    },
    (body) => {
      assert.equal(responses(body)[0].response.output.success, true);
      return modelTurn([{ text: "Split at 5 seconds." }]);
    },
  );
  const text = await agent.send("Split the clip at -1 seconds.");
  assert.equal(text, "Split at 5 seconds.");
  assert.equal(seenError.name, "split");
  assert.equal(seenError.response.error.error, "Invalid split times");
  assert.ok(seenError.response.output === undefined);
  assert.deepEqual(clips(editor), [[0, 5], [5, 10]]);
  const results = events.filter((e) => e.type === "tool_result");
  assert.deepEqual(results.map((e) => e.isError), [true, false]);
});

test("confirm is asked before write tools only; a refusal is reported to the model and nothing changes", async () => {
  const asked = [];
  const { editor, agent } = await setup({ agentOptions: { confirm: (req) => (asked.push(req.name), false) } });
  let declined;
  fake.script.push(
    () => modelTurn([call("list_timeline", {}, "s1"), call("split", { times: [3] })]),
    (body) => {
      declined = responses(body);
      return modelTurn([{ text: "Okay, I left it as it was." }]);
    },
  );
  await agent.send("Split at 3.");
  assert.deepEqual(asked, ["split"]);
  assert.equal(declined.length, 2);
  assert.ok(declined[0].response.output.tracks);
  assert.equal(declined[1].response.error.code, "DECLINED");
  assert.deepEqual(clips(editor), [[0, 10]]);
});

test("the loop stops after maxSteps", async () => {
  const { agent, events } = await setup({ agentOptions: { maxSteps: 3 } });
  for (let i = 0; i < 5; i++) fake.script.push(modelTurn([{ text: `step ${i}` }, call("list_timeline", {})]));
  const text = await agent.send("Loop forever.");
  assert.equal(text, "step 2");
  assert.ok(events.some((e) => e.type === "error" && e.code === "max_steps"));
  assert.equal(fake.script.length, 2);
});

test("cancellation answers pending calls so the history stays valid, and rejects", async () => {
  const ac = new AbortController();
  const { editor, agent } = await setup({ agentOptions: { confirm: () => (ac.abort(), true) } });
  fake.script.push(modelTurn([call("split", { times: [3] }), call("split", { times: [6] })]));
  await assert.rejects(agent.send("Split twice.", { signal: ac.signal }), (e) => e.name === "AbortError");
  assert.deepEqual(clips(editor), [[0, 10]]);
  const last = agent.history().at(-1);
  assert.equal(last.role, "user");
  assert.deepEqual(last.parts.map((p) => p.functionResponse.response.error.code), ["CANCELLED", "CANCELLED"]);
});

test("load_asset_context: processing at the bound, then loaded on the next call without a new upload", async () => {
  fake.processingPolls = 4;
  const { assetId, agent } = await setup({ agentOptions: { context: { sleep: noWait, pollIntervalMs: 1, maxWaitMs: 2 } } });
  const n = fake.uploads.length;
  const first = await agent.callTool("load_asset_context", { assetId });
  assert.equal(first.status, "processing");
  assert.equal(first.cached, false);
  const second = await agent.callTool("load_asset_context", { assetId });
  assert.equal(second.status, "loaded");
  assert.equal(second.fileUri, first.fileUri);
  assert.equal(fake.uploads.length, n + 1);
});

test("load_asset_context: an expired file is uploaded again", async () => {
  fake.fileLifetimeMs = -1000;
  const { assetId, agent } = await setup();
  const n = fake.uploads.length;
  const first = await agent.callTool("load_asset_context", { assetId });
  assert.equal(first.status, "loaded");
  const second = await agent.callTool("load_asset_context", { assetId });
  assert.equal(second.status, "loaded");
  assert.notEqual(second.fileUri, first.fileUri);
  assert.equal(fake.uploads.length, n + 2);
});

test("load_asset_context: failures map to the spec's error with safe details", async () => {
  fake.failProcessing = true;
  const { assetId, agent, editor } = await setup();
  const failed = await agent.callTool("load_asset_context", { assetId });
  assert.equal(failed.error, "Failed to load asset context");
  assert.match(failed.details, /could not process/);
  const bare = editor.addAsset({ name: "nofile.mp4", type: "video", duration: 3 });
  const nofile = await agent.callTool("load_asset_context", { assetId: bare });
  assert.equal(nofile.error, "Failed to load asset context");
  assert.match(nofile.details, /no file or url/);
  fake.failProcessing = false;
  fake.failNext("start", 500);
  const upstream = await agent.callTool("load_asset_context", { assetId });
  assert.equal(upstream.error, "Failed to load asset context");
  for (const r of [failed, nofile, upstream]) assert.ok(!JSON.stringify(r).includes(KEY) && !JSON.stringify(r).includes(fake.url));
  assert.deepEqual(await agent.callTool("load_asset_context", { assetId: "nope" }).then((r) => r.error), "Asset not found");
});

test("an asset given by url is fetched by the page and uploaded through the proxy", async () => {
  const served = await import("node:http").then(({ createServer }) => {
    const s = createServer((req, res) => {
      res.writeHead(200, { "content-type": "audio/mpeg" });
      res.end(Buffer.alloc(2048, 7));
    });
    return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
  });
  try {
    const { editor, agent } = await setup();
    const id = editor.addAsset({ name: "tone.mp3", type: "audio", duration: 2, url: `http://127.0.0.1:${served.address().port}/tone.mp3` });
    const out = await agent.callTool("load_asset_context", { assetId: id });
    assert.equal(out.status, "loaded");
    assert.equal(fake.uploads.at(-1).mimeType, "audio/mpeg");
    assert.equal(fake.uploads.at(-1).bytes.length, 2048);
  } finally {
    served.close();
  }
});

test("transcribe_video through Gemini returns segments in timeline seconds for the asset's placement", async () => {
  const { editor, assetId, agent } = await setup();
  // Move the clip to start at 3 s: source 0.5 s plays at 3.5 s.
  const el = editor.project().timeline.tracks.flatMap((t) => t.elements)[0];
  await editor.callTool("move_timeline_elements", { elementIds: [el.id], start: 3 });
  let asked;
  fake.intercept = (body) => {
    if (body.tools) return undefined;
    if (body.generationConfig?.responseMimeType === "application/json") {
      asked = body;
      return modelTurn([{ text: JSON.stringify({ language: "en", segments: [{ start: 0.5, end: 2, text: "Hello there." }, { start: 2.5, end: 4, text: "General Kenobi." }, { start: 11, end: 12, text: "past the end" }] }) }]);
    }
    return modelTurn([{ text: "summary" }]);
  };
  const before = editor.revision();
  const out = await agent.callTool("transcribe_video", { assetId, language: "en" });
  assert.deepEqual(out, {
    assetId,
    provider: "gemini",
    timeBase: "timeline",
    language: "en",
    segments: [
      { start: 3.5, end: 5, text: "Hello there.", elementId: el.id },
      { start: 5.5, end: 7, text: "General Kenobi.", elementId: el.id },
    ],
  });
  assert.equal(editor.revision(), before, "transcribe_video edits nothing");
  assert.ok(asked.contents[0].parts[0].fileData.fileUri.startsWith(fake.url));
  assert.equal((await agent.callTool("transcribe_video", { assetId, bogus: 1 })).code, "UNKNOWN_ARGUMENT");
  assert.equal((await agent.callTool("transcribe_video", { assetId: "missing" })).error, "Asset not found");
  assert.equal((await agent.callTool("transcribe_video", { assetId, modelId: "gemini-1.0-nope" })).error, "Failed to transcribe");
});

test("transcribe_video uses a host-provided local transcriber when given", async () => {
  const seen = [];
  const { assetId, agent } = await setup({
    agentOptions: {
      transcriber: async (req) => {
        seen.push(req);
        return { language: "es", segments: [{ start: 1, end: 2, text: "Hola." }] };
      },
    },
  });
  const out = await agent.callTool("transcribe_video", {});
  assert.equal(out.provider, "local");
  assert.equal(out.assetId, assetId);
  assert.deepEqual(out.segments, [{ start: 1, end: 2, text: "Hola.", elementId: out.segments[0].elementId }]);
  assert.ok(seen[0].source.file instanceof Blob);
});

test("tool schemas are converted to Gemini's JSON Schema subset", () => {
  const s = toGeminiSchema({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { a: { type: "string", minLength: 1 }, b: { type: ["number", "string"] }, c: { type: "number", exclusiveMinimum: 0 } },
    required: ["a"],
    additionalProperties: false,
  });
  assert.deepEqual(s, {
    type: "object",
    properties: { a: { type: "string", description: "(non-empty)" }, b: { anyOf: [{ type: "number" }, { type: "string" }] }, c: { type: "number", description: "(greater than 0)" } },
    required: ["a"],
  });
});
