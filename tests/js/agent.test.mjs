// The agent loop end to end: the built package's editor, the real proxy over HTTP on 127.0.0.1,
// and the fake Gemini scripting function calls with thought signatures.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";

import { createEditor } from "../../dist/index.js";
import { createAgent, createTranscribeTool, toGeminiSchema, AgentError } from "../../dist/agent/index.js";
import { modelTurn, call } from "./fake-gemini.mjs";
import {
  startStack,
  resetFake,
  setup as setupOn,
  clips,
  lastTurn,
  responses,
  assertValidConversation,
  KEY,
  browserFetch,
  noWait,
  media,
} from "./agent-harness.mjs";

let stack;
let fake;
let proxy;

const setup = (options) => setupOn(proxy, options);

before(async () => {
  stack = await startStack();
  ({ fake, proxy } = stack);
});

after(async () => {
  await stack?.close();
});

beforeEach(() => resetFake(fake));

test("a user message becomes load_asset_context, split and delete_timeline_elements; the timeline changes; the final text comes back", async () => {
  // The delete leaves a gap on the main track: the end-of-run check (agent-check.test.mjs) would
  // send it to the model, one more call than this script has.
  const { editor, assetId, agent, events } = await setup({ agentOptions: { checkTimeline: false } });
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
  assert.deepEqual(clips(editor), [
    [0, 2],
    [4, 10],
  ]);
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
  // (Streaming pieces, token counts, upload progress and the run's summary are events of their own, tested in agent-run.test.mjs.)
  const later = new Set(["text_delta", "usage", "progress", "run_summary"]);
  const kinds = events.filter((e) => !later.has(e.type)).map((e) => (e.type === "tool_call" || e.type === "tool_result" ? `${e.type}:${e.name}` : e.type));
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

  // The whole message is one undo step (the run's undo group), and one redo.
  assert.ok(editor.undo());
  assert.deepEqual(clips(editor), [[0, 10]]);
  assert.ok(editor.redo());
  assert.deepEqual(clips(editor), [
    [0, 2],
    [4, 10],
  ]);
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
  assert.deepEqual(clips(editor), [
    [0, 5],
    [5, 10],
  ]);
  const results = events.filter((e) => e.type === "tool_result");
  assert.deepEqual(
    results.map((e) => e.isError),
    [true, false],
  );
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
  assert.ok(events.some((e) => e.type === "error" && e.code === "MAX_STEPS"));
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
  assert.deepEqual(
    last.parts.map((p) => p.functionResponse.response.error.code),
    ["CANCELLED", "CANCELLED"],
  );
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
  // Gemini failing every try (the first and three retries) fails the call.
  for (let i = 0; i < 4; i++) fake.failNext("start", 500);
  const upstream = await agent.callTool("load_asset_context", { assetId });
  assert.equal(upstream.error, "Failed to load asset context");
  assert.match(upstream.details, /502: Gemini failed the upload start/);
  for (const r of [failed, nofile, upstream]) assert.ok(!JSON.stringify(r).includes(KEY) && !JSON.stringify(r).includes(fake.url));
  assert.deepEqual(await agent.callTool("load_asset_context", { assetId: "nope" }).then((r) => r.error), "Asset not found");
});

test("an asset given by url is fetched by the page and uploaded through the proxy", async () => {
  const served = await import("node:http").then(({ createServer }) => {
    const s = createServer((_req, res) => {
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
  // The clip again at 3 s, on an overlay track (a main track's first clip starts at 0, as in
  // OpenCut): source 0.5 s plays at 3.5 s.
  const first = editor.project().timeline.tracks.flatMap((t) => t.elements)[0];
  await editor.callTool("delete_timeline_elements", { elementIds: [first.id] });
  const el = { id: (await editor.callTool("add_media_to_timeline", { assetId, startTime: 3, trackType: "overlay" })).elementId };
  let asked;
  fake.intercept = (body) => {
    if (body.tools) return undefined;
    if (body.generationConfig?.responseMimeType === "application/json") {
      asked = body;
      return modelTurn([
        {
          text: JSON.stringify({
            language: "en",
            segments: [
              { start: 0.5, end: 2, text: "Hello there." },
              { start: 2.5, end: 4, text: "General Kenobi." },
              { start: 11, end: 12, text: "past the end" },
            ],
          }),
        },
      ]);
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
    text: "Hello there. General Kenobi.",
    segments: [
      { start: 3.5, end: 5, text: "Hello there.", elementId: el.id },
      { start: 5.5, end: 7, text: "General Kenobi.", elementId: el.id },
    ],
  });
  // Gemini is asked for each word's times, in the response schema.
  const schema = asked.generationConfig.responseJsonSchema.properties.segments.items;
  assert.deepEqual(schema.required, ["start", "end", "text", "words"]);
  assert.deepEqual(Object.keys(schema.properties.words.items.properties), ["start", "end", "text"]);
  assert.equal(editor.revision(), before, "transcribe_video edits nothing");
  assert.ok(asked.contents[0].parts[0].fileData.fileUri.startsWith(fake.url));
  assert.equal((await agent.callTool("transcribe_video", { assetId, bogus: 1 })).code, "UNKNOWN_ARGUMENT");
  assert.equal((await agent.callTool("transcribe_video", { assetId: "missing" })).error, "Asset not found");
  assert.equal((await agent.callTool("transcribe_video", { assetId, modelId: "gemini-1.0-nope" })).error, "Failed to transcribe");
});

test("transcribe_video uses a host-provided local transcriber when given", async () => {
  const seen = [];
  const { assetId, elementId, agent } = await setup({
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
  assert.deepEqual(out.segments, [{ start: 1, end: 2, text: "Hola.", elementId }]);
  assert.ok(seen[0].source.file instanceof Blob);
});

test("transcribe_video's words: in timeline seconds through trim and speed, outside the element left out; a backwards answer refused", async () => {
  // A 10 s clip at 4 s, trimmed by 1 s, at 2x: it plays source 1-9 s in timeline 4-8 s.
  const base = await createEditor();
  const assetId = base.addAsset({ name: "talk.mp4", type: "video", duration: 10, file: media() });
  await base.callTool("add_media_to_timeline", { assetId, startTime: 4, trackType: "overlay" });
  const project = base.project();
  const el = project.timeline.tracks.flatMap((t) => t.elements)[0];
  Object.assign(el, { trimStart: 1 * 120000, duration: 4 * 120000, trimEnd: 1 * 120000, retime: { rate: 2 } });
  const editor = await createEditor({ project });
  let answer = {
    language: "en",
    segments: [
      {
        start: 0.2,
        end: 2.2,
        text: "Before it. Hello",
        words: [
          { start: 0.2, end: 0.6, text: "Before" },
          { start: 0.6, end: 0.9, text: "it." },
          { start: 1.5, end: 2.2, text: "Hello" },
        ],
      },
      {
        start: 8,
        end: 9.6,
        text: "Last words",
        words: [
          { start: 8, end: 8.8, text: "Last" },
          { start: 9.1, end: 9.6, text: "words" },
          { start: 11, end: 12, text: "ghost" },
        ],
      },
    ],
  };
  const tool = createTranscribeTool({ editor, model: "m", transcriber: async () => answer });
  const out = await tool.call({ elementId: el.id });
  // By hand: timeline = 4 + (source - 1) / 2. "Before it." ends before the trim; "words" starts
  // after the element's end (source 9); "ghost" is past the media.
  assert.deepEqual(out, {
    assetId,
    elementId: el.id,
    provider: "local",
    timeBase: "timeline",
    language: "en",
    text: "Before it. Hello Last words",
    segments: [
      { start: 4, end: 4.6, text: "Before it. Hello", elementId: el.id, words: [{ start: 4.25, end: 4.6, text: "Hello" }] },
      { start: 7.5, end: 8, text: "Last words", elementId: el.id, words: [{ start: 7.5, end: 7.9, text: "Last" }] },
    ],
  });
  // Not placed: source seconds, every word inside the media.
  const loose = await createEditor();
  const looseId = loose.addAsset({ name: "talk.mp4", type: "video", duration: 10, file: media() });
  const src = await createTranscribeTool({ editor: loose, model: "m", transcriber: async () => answer }).call({ assetId: looseId });
  assert.equal(src.timeBase, "source");
  assert.deepEqual(src.segments[1].words, [
    { start: 8, end: 8.8, text: "Last" },
    { start: 9.1, end: 9.6, text: "words" },
  ]);
  // Words that run backwards are not usable: refused, with which segment.
  answer = {
    segments: [
      {
        start: 1,
        end: 3,
        text: "a b",
        words: [
          { start: 2, end: 2.5, text: "b" },
          { start: 1, end: 1.5, text: "a" },
        ],
      },
    ],
  };
  const backwards = await createTranscribeTool({ editor, model: "m", transcriber: async () => answer }).call({ elementId: el.id });
  assert.deepEqual(backwards, { error: "Failed to transcribe", code: "TRANSCRIBE_FAILED", details: "the word times of segment 1 go backwards" });
  // The arguments: one of assetId and elementId, a known provider, one that is configured.
  assert.deepEqual(await tool.call({ assetId, elementId: el.id }), { error: "Give assetId or elementId, not both", code: "INVALID_ARGUMENTS" });
  assert.deepEqual(await tool.call({ provider: "whisper" }), {
    error: "provider must be one of: local, gemini",
    code: "INVALID_ARGUMENT",
    argument: "provider",
  });
  assert.equal((await tool.call({ elementId: "nope" })).code, "ELEMENT_NOT_FOUND");
  // Transcripts are kept per asset (and provider, language, model): asked once, mapped each call.
  let asked = 0;
  const counting = createTranscribeTool({
    editor,
    model: "m",
    transcriber: async () => {
      asked++;
      return { segments: [{ start: 2, end: 3, text: "Once." }] };
    },
  });
  const first = await counting.call({ elementId: el.id });
  assert.deepEqual(await counting.call({ elementId: el.id }), first);
  assert.equal(asked, 1, "the second call is served from the kept transcript");
  assert.deepEqual((await counting.call({ assetId })).segments, first.segments, "the same transcript, mapped for the asset's placements");
  assert.equal(asked, 1);
  await counting.call({ elementId: el.id, language: "es" });
  assert.equal(asked, 2, "another language is another transcript");
  const geminiOnly = createTranscribeTool({ editor, model: "m" });
  assert.deepEqual(await geminiOnly.call({ provider: "local" }), {
    error: "Failed to transcribe",
    code: "TRANSCRIBE_FAILED",
    details: "no local transcriber configured",
  });
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
    properties: {
      a: { type: "string", description: "(non-empty)" },
      b: { anyOf: [{ type: "number" }, { type: "string" }] },
      c: { type: "number", description: "(greater than 0)" },
    },
    required: ["a"],
  });
});

// ---- error paths of the loop --------------------------------------------------------------------

test("empty_response: a blocked prompt rejects with a plain message; the history stays valid and the next message continues it", async () => {
  const { agent, events, fetchLog } = await setup();
  fake.script.push({ candidates: [], promptFeedback: { blockReason: "SAFETY" } });
  await assert.rejects(
    agent.send("Something unsafe."),
    (e) =>
      e instanceof AgentError &&
      e.code === "EMPTY_RESPONSE" &&
      e.message === "Gemini declined to answer this message (SAFETY). Rephrase it and send it again." &&
      /SAFETY/.test(e.details),
  );
  assert.equal(events.at(-1).type, "error");
  assert.equal(events.at(-1).code, "EMPTY_RESPONSE");
  assertValidConversation(agent.history());
  fake.script.push(modelTurn([{ text: "Sure." }]));
  assert.equal(await agent.send("Something else."), "Sure.");
  const body = JSON.parse(fetchLog.filter((r) => /\/(generate|stream)$/.test(r.url)).at(-1).body);
  assert.deepEqual(body.contents, [{ role: "user", parts: [{ text: "Something unsafe." }, { text: "Something else." }] }]);
  // A candidate that stopped for lack of room says so.
  fake.script.push({ candidates: [{ finishReason: "MAX_TOKENS", index: 0 }] });
  await assert.rejects(agent.send("Long one."), (e) => e.code === "EMPTY_RESPONSE" && /ran out of room/.test(e.message));
});

test("busy: a second send while one runs is refused; the first finishes normally", async () => {
  const { agent } = await setup();
  let release;
  fake.script.push(() => new Promise((r) => (release = r)));
  const first = agent.send("First.");
  await assert.rejects(agent.send("Second."), (e) => e instanceof AgentError && e.code === "BUSY" && /still answering/.test(e.message));
  while (!release) await new Promise((r) => setTimeout(r, 5));
  release(modelTurn([{ text: "First answer." }]));
  assert.equal(await first, "First answer.");
  assert.deepEqual(
    agent.history().map((c) => c.parts[0].text),
    ["First.", "First answer."],
  );
});

test("a throwing confirm declines the call; nothing changes", async () => {
  const { editor, agent } = await setup({
    agentOptions: {
      confirm: () => {
        throw new Error("dialog crashed");
      },
    },
  });
  let answer;
  fake.script.push(modelTurn([call("split", { times: [3] }, "s")]), (body) => {
    answer = responses(body)[0];
    return modelTurn([{ text: "Not split." }]);
  });
  assert.equal(await agent.send("Split at 3."), "Not split.");
  assert.equal(answer.response.error.code, "DECLINED");
  assert.deepEqual(clips(editor), [[0, 10]]);
});

test("a throwing onEvent is reported and does not stop the loop", async () => {
  const reported = [];
  const original = globalThis.reportError;
  globalThis.reportError = (e) => reported.push(e);
  try {
    const { editor, agent } = await setup({
      agentOptions: {
        onEvent: (e) => {
          if (e.type === "tool_call" || e.type === "text") throw new Error(`render failed on ${e.type}`);
        },
      },
    });
    fake.script.push(modelTurn([call("split", { times: [3] }, "s")]), modelTurn([{ text: "Split." }]));
    assert.equal(await agent.send("Split at 3."), "Split.");
    assert.deepEqual(clips(editor), [
      [0, 3],
      [3, 10],
    ]);
    assert.deepEqual(
      reported.map((e) => e.message),
      ["render failed on tool_call", "render failed on text"],
    );
  } finally {
    globalThis.reportError = original;
  }
});

test("the call's id goes back in its functionResponse (and none is invented when Gemini gave none)", async () => {
  const { agent } = await setup();
  let answered;
  fake.script.push(
    modelTurn([
      { functionCall: { name: "list_timeline", args: {}, id: "call-abc" }, thoughtSignature: "s" },
      { functionCall: { name: "list_project_assets", args: {} } },
    ]),
    (body) => {
      answered = responses(body);
      return modelTurn([{ text: "Listed." }]);
    },
  );
  await agent.send("List.");
  assert.equal(answered[0].id, "call-abc");
  assert.equal(answered[1].id, undefined);
  assert.ok(answered[0].response.output.tracks);
});

test("reset() forgets the conversation; the next request holds only the new message", async () => {
  const { agent, fetchLog } = await setup();
  fake.script.push(modelTurn([call("list_timeline", {}, "s")]), modelTurn([{ text: "One." }]));
  await agent.send("First.");
  assert.equal(agent.history().length, 4);
  agent.reset();
  assert.deepEqual(agent.history(), []);
  fake.script.push(modelTurn([{ text: "Two." }]));
  await agent.send("Second.");
  const body = JSON.parse(fetchLog.filter((r) => /\/(generate|stream)$/.test(r.url)).at(-1).body);
  assert.deepEqual(body.contents, [{ role: "user", parts: [{ text: "Second." }] }]);
});

// ---- transcribe_video paths ---------------------------------------------------------------------

test("transcribe_video picks the one asset on the timeline, asks for assetId when several qualify, refuses images", async () => {
  const { editor, assetId, elementId, agent } = await setup({
    agentOptions: { transcriber: async () => ({ segments: [{ start: 0, end: 1, text: "One." }] }) },
  });
  editor.addAsset({ name: "unused.mp4", type: "video", duration: 4, file: media() });
  const picked = await agent.callTool("transcribe_video", {});
  assert.equal(picked.assetId, assetId, "the placed asset, not the unused one");
  assert.deepEqual(picked.segments, [{ start: 0, end: 1, text: "One.", elementId }]);
  const second = editor.addAsset({ name: "b.mp4", type: "video", duration: 4, file: media() });
  await editor.callTool("add_media_to_timeline", { assetId: second, startTime: 10, trackType: "main" });
  const ambiguous = await agent.callTool("transcribe_video", {});
  assert.equal(ambiguous.code, "ASSET_REQUIRED");
  assert.match(ambiguous.hint, /Several video or audio assets qualify/);
  const image = editor.addAsset({ name: "still.png", type: "image", file: new Blob([new Uint8Array(10)], { type: "image/png" }) });
  assert.equal((await agent.callTool("transcribe_video", { assetId: image })).code, "UNSUPPORTED_ASSET_TYPE");
  // By file name when unambiguous.
  assert.equal((await agent.callTool("transcribe_video", { assetId: "b.mp4" })).assetId, second);
});

test("transcribe_video: no media at all, bad arguments", async () => {
  const editor = await createEditor();
  const agent = createAgent({ editor, proxyUrl: proxy.url, fetch: browserFetch(), allowUploads: true, sleep: noWait });
  const none = await agent.callTool("transcribe_video", {});
  assert.equal(none.code, "ASSET_REQUIRED");
  assert.match(none.hint, /There is no video or audio asset/);
  assert.equal((await agent.callTool("transcribe_video", { language: "" })).code, "INVALID_ARGUMENT");
  assert.equal((await agent.callTool("transcribe_video", { modelId: 3 })).code, "INVALID_ARGUMENT");
  const hostTool = agent.hostTools.find((t) => t.name === "transcribe_video");
  assert.equal((await hostTool.call([1])).code, "INVALID_ARGUMENTS");
  // null is no arguments, as for the engine's tools (src/tools/args.rs).
  assert.equal((await hostTool.call(null)).code, "ASSET_REQUIRED");
});

test("transcribe_video maps segments into each placement's window; source seconds when the asset is not placed", async () => {
  const segments = [
    { start: 0.5, end: 1.5, text: "a" },
    { start: 4, end: 6, text: "b" },
    { start: 9, end: 12, text: "c" },
    { start: 2, end: 1, text: "backwards" },
    { start: 3, end: Infinity, text: "bad" },
  ];
  const { editor, assetId, elementId, agent } = await setup({ agentOptions: { transcriber: async () => ({ segments }) } });
  // The placed clip keeps source 0-10 at timeline 0-10; a second placement shows source 4-6 at 20-22.
  const placed = await editor.callTool("add_media_to_timeline", { assetId, startTime: 16, trackType: "overlay" });
  await editor.callTool("split", { times: [20, 22] });
  const pieces = editor.project().timeline.tracks.find((t) => t.id === placed.trackId).elements;
  const second = { elementId: pieces.find((e) => e.start === 20 * 120000).id };
  await editor.callTool("delete_timeline_elements", { elementIds: pieces.filter((e) => e.id !== second.elementId).map((e) => e.id) });
  const out = await agent.callTool("transcribe_video", { assetId });
  assert.equal(out.timeBase, "timeline");
  assert.deepEqual(out.segments, [
    { start: 0.5, end: 1.5, text: "a", elementId },
    { start: 4, end: 6, text: "b", elementId },
    { start: 9, end: 10, text: "c", elementId },
    { start: 20, end: 22, text: "b", elementId: second.elementId },
  ]);
  // Not on the timeline: source seconds, no element ids.
  const loose = editor.addAsset({ name: "loose.mp3", type: "audio", duration: 5, file: media(100, "audio/mpeg") });
  const src = await agent.callTool("transcribe_video", { assetId: loose });
  assert.equal(src.timeBase, "source");
  assert.deepEqual(src.segments, [
    { start: 0.5, end: 1.5, text: "a" },
    { start: 4, end: 5, text: "b" },
  ]);
});

test("add_captions without words: the agent transcribes the element (a segment without word times spread evenly over it) and captions at timeline times", async () => {
  let calls = 0;
  const transcriber = async () => {
    calls++;
    return {
      segments: [
        { start: 1, end: 2, text: "one two" },
        { start: 3, end: 4.5, text: "three four five." },
      ],
    };
  };
  const { editor, elementId, agent } = await setup({ agentOptions: { transcriber } });
  const out = await agent.callTool("add_captions", { elementId, maxCharsPerLine: 3, maxLines: 1, minDuration: 0 });
  assert.deepEqual({ count: out.count, start: out.start, end: out.end }, { count: 5, start: 1, end: 4.5 });
  const captions = editor
    .project()
    .timeline.tracks.flatMap((t) => t.elements)
    .filter((e) => e.type === "text")
    .map((e) => [e.content, e.start / 120000, (e.start + e.duration) / 120000]);
  assert.deepEqual(captions, [
    ["one", 1, 1.5],
    ["two", 1.5, 2],
    ["three", 3, 3.5],
    ["four", 3.5, 4],
    ["five.", 4, 4.5],
  ]);
  // Words given: no transcription.
  await agent.callTool("add_captions", { words: [{ start: 6, end: 7, text: "Given" }] });
  assert.equal(calls, 1);
  // An asset that is not on the timeline has no timeline times to caption at.
  const loose = editor.addAsset({ name: "loose.mp3", type: "audio", duration: 5, file: media(100, "audio/mpeg") });
  const unplaced = await agent.callTool("add_captions", { assetId: loose });
  assert.deepEqual([unplaced.error, unplaced.code], ["Asset is not on the timeline", "ASSET_NOT_PLACED"]);
  // transcribe_video's own errors come back as they are.
  assert.equal((await agent.callTool("add_captions", { elementId: "e999" })).code, "ELEMENT_NOT_FOUND");
});

test("transcribe_video failures: a throwing local transcriber, a non-JSON answer, an asset still processing", async () => {
  const throwing = await setup({ agentOptions: { transcriber: async () => Promise.reject(new Error("worker crashed")) } });
  const crashed = await throwing.agent.callTool("transcribe_video", {});
  assert.deepEqual(crashed, { error: "Failed to transcribe", code: "TRANSCRIBE_FAILED", details: "worker crashed" });

  const { assetId, agent } = await setup();
  fake.intercept = (body) =>
    body.tools ? undefined : body.generationConfig?.responseMimeType ? modelTurn([{ text: "Sorry, here is prose." }]) : modelTurn([{ text: "summary" }]);
  const prose = await agent.callTool("transcribe_video", { assetId });
  assert.equal(prose.code, "TRANSCRIBE_FAILED");
  assert.equal(prose.details, "the model did not return the transcript as JSON");

  fake.processingPolls = 1000;
  const slow = await setup({ agentOptions: { context: { sleep: noWait, pollIntervalMs: 1, maxWaitMs: 2 } } });
  const processing = await slow.agent.callTool("transcribe_video", { assetId: slow.assetId });
  assert.equal(processing.code, "ASSET_PROCESSING");
  assert.match(processing.hint, /call transcribe_video again/);
});

test("every error the agent side throws is a NeuralCutError with a SCREAMING_SNAKE code", async () => {
  const { NeuralCutError } = await import("../../dist/index.js");
  const { createProxyClient, ProxyError, UploadRefusedError, HistoryTooLargeError, fitHistory } = await import("../../dist/agent/index.js");
  const { createServer } = await import("node:http");
  // A real server on 127.0.0.1 answering generate with the proxy's refusals.
  const answers = [
    [403, JSON.stringify({ error: "model not allowed", code: "model_not_allowed" })],
    [502, "<html>bad gateway</html>"],
  ];
  const server = createServer((req, res) => {
    req.resume();
    const [status, body] = answers.shift();
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  try {
    const client = createProxyClient({ proxyUrl: `http://127.0.0.1:${port}/api/gemini`, retry: { retries: 0 } });
    const request = { model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    const codes = [];
    for (let i = 0; i < 2; i++) {
      await assert.rejects(client.generate(request), (e) => {
        assert.ok(e instanceof ProxyError && e instanceof NeuralCutError, String(e));
        codes.push(`${e.code} ${e.status}`);
        return true;
      });
    }
    // A code outside ERROR_CODES (here none at all) is HTTP_ERROR; the status says which.
    assert.deepEqual(codes, ["MODEL_NOT_ALLOWED 403", "HTTP_ERROR 502"]);
  } finally {
    await new Promise((r) => server.close(r));
  }
  const gone = createProxyClient({ proxyUrl: `http://127.0.0.1:${port}/api/gemini`, retry: { retries: 0 } });
  await assert.rejects(gone.generate({ model: "m", contents: [] }), (e) => e instanceof NeuralCutError && e.code === "UNREACHABLE");

  const refused = new UploadRefusedError("UPLOAD_DECLINED", "declined");
  assert.ok(refused instanceof NeuralCutError && refused.code === "UPLOAD_DECLINED");
  const parts = Array.from({ length: 5 }, (_, i) => ({ text: `p${i}` }));
  assert.throws(
    () => fitHistory([{ role: "user", parts }], { maxTurns: 10, maxPartsPerTurn: 2, maxBytes: 1 << 20 }),
    (e) => e instanceof HistoryTooLargeError && e instanceof NeuralCutError && e.code === "HISTORY_TOO_LARGE",
  );
  assert.ok(new AgentError("BUSY", "busy") instanceof NeuralCutError);
});
