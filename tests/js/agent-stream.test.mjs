// Streaming end to end: the proxy's `stream` route in front of the fake Gemini's
// streamGenerateContent (server-sent events), under the same origin check, validation, model
// allowlist and budgets as `generate`; the agent's text_delta events, and a streamed model turn
// kept exactly as a generated one; failures mid-way as PROXY errors.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";

import { AgentError, mergeChunks } from "../../dist/agent/index.js";
import { modelTurn, call, streamChunks } from "./fake-gemini.mjs";
import { startStack, resetFake, setup as setupOn, assertValidConversation, KEY, MODEL, ORIGIN } from "./agent-harness.mjs";

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
beforeEach(() => {
  resetFake(fake);
  fake.streamPieces = 3;
});

/** Requests without tools are answered from the script too (the harness answers them as summaries). */
const raw = (f) => (f.intercept = null);

const hello = (model = MODEL) => ({ model, contents: [{ role: "user", parts: [{ text: "Hello" }] }] });

function post(base, route, body, headers = {}) {
  return fetch(new URL(route, base), {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The `data:` events of an SSE body, parsed, with their event names. */
function sse(text) {
  return text
    .split("\n\n")
    .filter((e) => e.trim())
    .map((e) => {
      const lines = e.split("\n");
      return {
        event:
          lines
            .find((l) => l.startsWith("event:"))
            ?.slice(6)
            .trim() ?? "message",
        data: JSON.parse(
          lines
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim())
            .join("\n"),
        ),
      };
    });
}

test("the stream route forwards streamGenerateContent as server-sent events, each chunk filtered like a whole answer", async () => {
  raw(fake);
  const answer = modelTurn([{ text: "Hello there, editor.", thoughtSignature: "sig-a" }]);
  answer.candidates[0].secret = "dropped";
  answer.internalField = "dropped";
  fake.script.push(answer);
  const res = await post(proxy.url, "stream", hello());
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /^text\/event-stream/);
  assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN);
  const events = sse(await res.text());
  assert.ok(events.length >= 3, "several chunks");
  assert.ok(events.every((e) => e.event === "message"));
  assert.equal(events.map((e) => e.data.candidates[0].content.parts[0].text).join(""), "Hello there, editor.");
  assert.equal(events.at(-1).data.candidates[0].content.parts[0].thoughtSignature, "sig-a");
  assert.deepEqual(events.at(-1).data.usageMetadata, answer.usageMetadata);
  for (const e of events) {
    assert.equal(e.data.candidates[0].secret, undefined);
    assert.equal(e.data.internalField, undefined);
  }
  const upstream = fake.requests.at(-1);
  assert.equal(upstream.path, `/v1beta/models/${MODEL}:streamGenerateContent`);
  assert.equal(upstream.query, "?alt=sse");
  assert.equal(fake.streamCalls.at(-1).body.model, undefined, "the model goes in the path, as for generate");
});

test("the stream route refuses exactly what generate refuses, with the same answers", async () => {
  const cases = {
    "not JSON": "{",
    "model off the allowlist": hello("gemini-1.0-nope"),
    "a tool that is not a function": { ...hello(), tools: [{ codeExecution: {} }] },
    "a handle of nobody": { model: MODEL, contents: [{ role: "user", parts: [{ fileData: { fileUri: "nc1.bogus", mimeType: "video/mp4" } }] }] },
  };
  const calls = fake.generateCalls.length;
  for (const [what, body] of Object.entries(cases)) {
    const [g, s] = await Promise.all([post(proxy.url, "generate", body), post(proxy.url, "stream", body)]);
    assert.ok(g.status >= 400, what);
    assert.equal(s.status, g.status, what);
    assert.match(s.headers.get("content-type"), /application\/json/, what);
    const [gj, sj] = [await g.json(), await s.json()];
    delete gj.requestId;
    delete sj.requestId;
    assert.deepEqual(sj, gj, what);
  }
  // Another site's page learns nothing either.
  const foreign = await post(proxy.url, "stream", hello(), { origin: "https://evil.example" });
  assert.equal(foreign.status, 403);
  assert.equal(fake.generateCalls.length, calls, "nothing refused went upstream");
});

test("streams count against the request and token budgets like generate", async () => {
  const own = await startStack({ proxyOptions: { budgets: { requestsPerMinute: 100_000, tokensPerDay: 20 } } });
  try {
    resetFake(own.fake);
    raw(own.fake);
    // Each answer reports 15 tokens: the first stream leaves 5, the second spends past the limit.
    for (let i = 0; i < 3; i++) own.fake.script.push(modelTurn([{ text: `answer ${i}` }]));
    const first = await post(own.proxy.url, "stream", hello());
    assert.equal(first.status, 200);
    await first.text();
    const second = await post(own.proxy.url, "stream", hello());
    assert.equal(second.status, 200);
    await second.text();
    const third = await post(own.proxy.url, "generate", hello());
    assert.equal(third.status, 429, "the tokens the streams used were counted");
    assert.equal((await third.json()).budget, "tokensPerDay");
    const fourth = await post(own.proxy.url, "stream", hello());
    assert.equal(fourth.status, 429);
  } finally {
    await own.close();
  }
  const limited = await startStack({ proxyOptions: { budgets: { requestsPerMinute: 1 } } });
  try {
    resetFake(limited.fake);
    assert.equal((await post(limited.proxy.url, "generate", hello())).status, 200);
    const refused = await post(limited.proxy.url, "stream", hello());
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  } finally {
    await limited.close();
  }
});

test("a stream that Gemini breaks off ends with an error event the client turns into a ProxyError; the key never shows", async () => {
  raw(fake);
  fake.script.push(modelTurn([{ text: "This answer will not finish." }]));
  fake.errorStreamAfter = 1;
  const res = await post(proxy.url, "stream", hello());
  const text = await res.text();
  assert.ok(!text.includes(KEY), "the key stays on the server");
  const events = sse(text);
  assert.equal(events.at(-1).event, "error");
  assert.equal(events.at(-1).data.code, "upstream_error");
  assert.equal(events.at(-1).data.status, 502);

  resetFake(fake);
  const { agent, events: agentEvents } = await setup();
  for (const breakIt of [(f) => (f.errorStreamAfter = 1), (f) => (f.breakStreamAfter = 1)]) {
    fake.script.push(modelTurn([{ text: "Half of an answer, then nothing." }]));
    breakIt(fake);
    await assert.rejects(
      agent.send("Hi."),
      (e) => e instanceof AgentError && e.code === "PROXY" && e.status === 502 && e.message === "Gemini could not answer right now. Try again in a moment.",
    );
    assert.ok(
      agentEvents.some((e) => e.type === "text_delta"),
      "some text had arrived",
    );
    assert.equal(agentEvents.filter((e) => e.type === "error").at(-1).code, "PROXY");
    // Nothing of the broken turn is kept: the history ends with the user's message.
    assert.equal(agent.history().at(-1).role, "user");
  }
  // Retry runs the message again from there, once.
  fake.script.push(modelTurn([{ text: "Done now." }]));
  assert.equal(await agent.retry(), "Done now.");
  assertValidConversation(agent.history());
  assert.equal(
    agent
      .history()
      .flatMap((c) => c.parts)
      .filter((p) => p.text === "Hi.").length,
    2,
    "two messages, neither added twice",
  );
});

test("the agent streams by default: text_delta pieces make the text; the model turn kept is the one generate would give", async () => {
  const turns = () => [
    modelTurn([
      { text: "Thinking about the cut first.", thought: true, thoughtSignature: "sig-think" },
      { text: "I will split at three seconds." },
      call("split", { times: [3] }, "sig-call"),
    ]),
    modelTurn([{ text: "Split done; the clip is now two parts.", thoughtSignature: "sig-end" }]),
  ];
  const streamed = await setup();
  fake.script.push(...turns());
  assert.equal(await streamed.agent.send("Split at 3."), "Split done; the clip is now two parts.");
  const deltas = streamed.events.filter((e) => e.type === "text_delta").map((e) => e.text);
  assert.ok(deltas.length >= 6, `pieces: ${deltas.length}`);
  assert.equal(deltas.join(""), "I will split at three seconds.Split done; the clip is now two parts.", "thoughts are not shown");
  const texts = streamed.events.filter((e) => e.type === "text").map((e) => e.text);
  assert.deepEqual(texts, ["I will split at three seconds.", "Split done; the clip is now two parts."]);
  assert.ok(fake.generateCalls.slice(-2).every((c) => c.stream === true));

  const plain = await setup({ agentOptions: { stream: false } });
  fake.script.push(...turns());
  await plain.agent.send("Split at 3.");
  assert.ok(
    fake.generateCalls.slice(-2).every((c) => c.stream === undefined),
    "stream: false uses generate",
  );
  assert.ok(plain.fetchLog.some((r) => r.url.endsWith("/generate")) && !plain.fetchLog.some((r) => r.url.endsWith("/stream")));
  assert.equal(plain.events.filter((e) => e.type === "text_delta").length, 0);

  // The same conversation, part for part, signatures where Gemini put them.
  assert.deepEqual(streamed.agent.history(), plain.agent.history());
  assert.deepEqual(streamed.agent.history()[1].parts, turns()[0].candidates[0].content.parts);
  // And what went back to Gemini on the second call was that turn, verbatim.
  assert.deepEqual(fake.streamCalls.at(-1).body.contents[1].parts, turns()[0].candidates[0].content.parts);
});

test("mergeChunks joins text pieces into their parts and keeps every other part and the last finish", () => {
  const answer = modelTurn(
    [
      { text: "abc", thought: true },
      { text: "defghi", thoughtSignature: "s1" },
      { text: "jkl" },
      call("split", { times: [1] }, "s2"),
      { text: "", thoughtSignature: "s3" },
    ],
    "STOP",
  );
  for (const pieces of [1, 2, 3]) {
    const merged = mergeChunks(streamChunks(answer, pieces));
    assert.deepEqual(merged.candidates[0].content, answer.candidates[0].content, `in ${pieces} pieces`);
    assert.equal(merged.candidates[0].finishReason, "STOP");
    assert.deepEqual(merged.usageMetadata, answer.usageMetadata);
  }
  // A blocked prompt streams no candidate: nothing to merge, the feedback stays.
  const blocked = mergeChunks([{ promptFeedback: { blockReason: "SAFETY" } }]);
  assert.deepEqual(blocked.candidates, []);
  assert.equal(blocked.promptFeedback.blockReason, "SAFETY");
});
