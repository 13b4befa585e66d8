// One host-tool contract (js/host-tools.ts): a bad call to a tool answered in JS gets the same
// error value, word for word and key for key, as the same bad call to an engine tool answered in
// Rust (src/tools/args.rs, tests/cases/strict_arguments.json), on every surface: `neuralcut mcp`
// (the official SDK client), the CLI, the agent, the bridge's ui_* tools and the in-page
// render_preview. The Rust side is the engine itself, never a copy of its words.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { createEditor } from "../../dist/index.js";
import { createAgent } from "../../dist/agent/index.js";
import { uiTools } from "../../dist/bridge/mcp.js";
import { renderPreviewTool } from "../../dist/render-preview.js";
import { HOST_TOOL_CATALOG, TOOL_CATALOG } from "../../dist/generated/tools.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const CLI = join(root, "dist", pkgJson.bin.neuralcut.replace(/^(\.\/)?dist\//, ""));
const strictCases = JSON.parse(readFileSync(join(root, "tests/cases/strict_arguments.json"), "utf8")).cases;

const accepted = (schema) => Object.keys(schema.properties ?? {});
// check_timeline is an engine tool that the agent answers with the host's kinds added.
const hostAccepted = (name) => accepted([...HOST_TOOL_CATALOG, ...TOOL_CATALOG].find((t) => t.name === name).inputSchema);

/** Rust's answers to the two bad calls, from the engine, as templates over (tool, accepted):
 * one engine tool with arguments and one without, each checked against its own template. */
async function rustShapes() {
  const editor = await createEditor();
  const engine = new Map(editor.tools().map((t) => [t.name, accepted(t.inputSchema)]));
  const [withArgs] = [...engine].filter(([, a]) => a.length >= 2);
  const [withNone] = [...engine].filter(([, a]) => a.length === 0);
  const unknown = async (tool) => editor.callToolUntyped(tool, { bogus: 1 });
  const samples = {};
  for (const [tool, keys] of [withArgs, withNone]) samples[keys.length ? "some" : "none"] = { tool, accepted: [...keys].sort(), value: await unknown(tool) };
  // The engine's words, as the case file pins them.
  const notObject = await editor.callToolUntyped(withArgs[0], "oops");
  const pinned = strictCases.find((c) => c.args === "oops").expectError;
  assert.deepEqual(notObject, pinned);
  assert.deepEqual(Object.keys(samples.some.value), ["error", "code", "argument", "accepted"], "key order of the engine's value");
  /** The engine's value for an unknown "bogus", with the tool's name and accepted keys put in. */
  const expectUnknown = (tool, keys) => {
    const sorted = [...keys].sort();
    const sample = sorted.length ? samples.some : samples.none;
    let error = sample.value.error.replace(`for ${sample.tool};`, `for ${tool};`);
    if (sorted.length) error = error.replace(`expected: ${sample.accepted.join(", ")}`, `expected: ${sorted.join(", ")}`);
    return { ...sample.value, error, accepted: sorted };
  };
  // Each template gives back the engine's own value for its own tool.
  for (const [tool, keys] of [withArgs, withNone]) assert.deepEqual(expectUnknown(tool, keys), await unknown(tool));
  editor.free?.();
  return { notObject, expectUnknown };
}

/** The value's keys in order too: the same shape, not merely the same content. */
function same(actual, expected, where) {
  assert.deepEqual(actual, expected, where);
  assert.deepEqual(Object.keys(actual), Object.keys(expected), `${where}: key order`);
}

test("neuralcut mcp and the CLI: host tools refuse an unknown argument and a non-object with the engine's words", async () => {
  const { notObject, expectUnknown } = await rustShapes();
  const hostNames = ["media_import", "render_preview", "detect_silences", "detect_scenes", "export_video", "jobs_list", "jobs_cancel"];
  const steps = [
    { id: "list_timeline", params: { bogus: 1 } },
    ...hostNames.flatMap((id) => [
      { id, params: { bogus: 1 } },
      { id, params: "oops" },
      { id, params: [1] },
    ]),
  ];
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], stderr: "pipe" });
  const client = new Client({ name: "neuralcut-host-tools-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const listed = new Map((await client.listTools()).tools.map((t) => [t.name, accepted(t.inputSchema)]));
    const r = await client.callTool({ name: "command_batch", arguments: { steps, stop_on_error: false } });
    const { results, completed } = r.structuredContent;
    assert.equal(completed, 0);
    assert.equal(results.length, steps.length);
    same(results[0].error, expectUnknown("list_timeline", []), "the engine tool through command_batch");
    for (const [i, step] of steps.entries()) {
      if (i === 0) continue;
      const want = typeof step.params === "object" && !Array.isArray(step.params) ? expectUnknown(step.id, listed.get(step.id)) : notObject;
      same(results[i].error, want, `${step.id} ${JSON.stringify(step.params)}`);
    }
    // Called directly, an unknown argument is -32602 with the same words.
    for (const name of ["list_timeline", ...hostNames]) {
      await assert.rejects(
        client.callTool({ name, arguments: { bogus: 1 } }),
        (e) => e.code === -32602 && e.message === `MCP error -32602: ${expectUnknown(name, listed.get(name)).error}`,
      );
    }
  } finally {
    await client.close();
  }

  // The CLI's `run -`: one line per call, the error value as the engine gives it.
  const lines = [
    { tool: "list_timeline", args: { bogus: 1 } },
    { tool: "media_import", args: { bogus: 1 } },
    { tool: "render_preview", args: { bogus: 1 } },
    { tool: "render_preview", args: "oops" },
  ];
  const child = spawn(process.execPath, [CLI, "run", "-"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stdin.end(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  await new Promise((done) => child.on("close", done));
  const printed = out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(printed.length, 1, "run stops at the first failing line");
  same(printed[0].error, expectUnknown("list_timeline", []), "cli engine tool");
  for (const line of lines.slice(1)) {
    const one = spawn(process.execPath, [CLI, "run", "-"], { stdio: ["pipe", "pipe", "pipe"] });
    let text = "";
    one.stdout.on("data", (c) => (text += c));
    one.stdin.end(`${JSON.stringify(line)}\n`);
    await new Promise((done) => one.on("close", done));
    const { error } = JSON.parse(text.trim());
    same(error, typeof line.args === "string" ? notObject : expectUnknown(line.tool, hostAccepted(line.tool)), `cli ${line.tool}`);
  }
});

test("the agent's host tools (transcribe_video, detect_silences, detect_scenes, check_timeline, skills, plan, question) check as the engine does", async () => {
  const { notObject, expectUnknown } = await rustShapes();
  const editor = await createEditor();
  // No request is made: every call below is refused before one could be.
  const agent = createAgent({ editor, proxyUrl: "http://127.0.0.1:9/", onPlan: () => ({ decision: "approve" }), askUser: () => "yes" });
  const names = agent.hostTools.map((t) => t.name).sort();
  assert.deepEqual(names, ["ask_user", "check_timeline", "detect_scenes", "detect_silences", "list_skills", "load_skill", "submit_plan", "transcribe_video"]);
  for (const tool of agent.hostTools) {
    same(await tool.call({ bogus: 1 }), expectUnknown(tool.name, hostAccepted(tool.name)), `${tool.name} unknown argument`);
    same(await tool.call("oops"), notObject, `${tool.name} "oops"`);
    same(await agent.callTool(tool.name, { bogus: 1 }), expectUnknown(tool.name, hostAccepted(tool.name)), `agent.callTool ${tool.name}`);
  }
  // null is no arguments, as for the engine (list_skills answers; the engine's list_timeline too).
  assert.ok(Array.isArray((await agent.hostTools.find((t) => t.name === "list_skills").call(null)).skills));
  assert.ok(!("error" in (await editor.callToolUntyped("list_project_assets", null))));
});

test("the bridge's ui_* tools and the in-page render_preview refuse a bad call without reaching the page", async () => {
  const { notObject, expectUnknown } = await rustShapes();
  const sent = [];
  const control = {
    call: async (method, params) => {
      sent.push([method, params]);
      return {};
    },
  };
  const tools = uiTools(control);
  assert.ok(tools.length >= 8);
  for (const tool of tools) {
    same(await tool.call({ bogus: 1 }), expectUnknown(tool.name, hostAccepted(tool.name)), `${tool.name} unknown argument`);
    // A non-object was once sent to the page as {}: ui_inspect would have answered.
    same(await tool.call("oops"), notObject, `${tool.name} "oops"`);
    same(await tool.call([]), notObject, `${tool.name} []`);
  }
  assert.deepEqual(sent, [], "nothing reached the page");
  // The schema of every tool comes from the registry's catalog: the listing is the catalog's.
  for (const tool of tools) assert.deepEqual(tool.inputSchema, HOST_TOOL_CATALOG.find((t) => t.name === tool.name).inputSchema);

  let rendered = 0;
  const preview = renderPreviewTool({
    render: async () => {
      rendered++;
      throw new Error("not drawn in this test");
    },
    toBlob: async () => new Blob([]),
  });
  same(await preview.call({ time: 1, bogus: 1 }), expectUnknown("render_preview", hostAccepted("render_preview")), "render_preview unknown argument");
  same(await preview.call("oops"), notObject, "render_preview oops");
  assert.equal(rendered, 0);
});

test("WebMCP: render_preview (a host tool) and an engine tool answer a bad call with the same error value", async () => {
  const { notObject, expectUnknown } = await rustShapes();
  const { registerWebMcpTools } = await import("../../dist/webmcp.js");
  const editor = await createEditor();
  const registered = new Map();
  const modelContext = { registerTool: async (tool) => void registered.set(tool.name, tool) };
  let rendered = 0;
  const renderer = { render: async () => void rendered++, toBlob: async () => new Blob([]) };
  await registerWebMcpTools(editor, { modelContext, renderer });
  // A WebMCP error result carries the whole value as JSON in its second block.
  const value = async (name, input) => {
    const r = await registered.get(name).execute(input);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(input)}`);
    return JSON.parse(r.content[1].text);
  };
  same(await value("list_timeline", { bogus: 1 }), expectUnknown("list_timeline", []), "engine tool");
  same(await value("render_preview", { time: 1, bogus: 1 }), expectUnknown("render_preview", hostAccepted("render_preview")), "render_preview");
  same(await value("list_project_assets", "oops"), notObject, "engine tool oops");
  same(await value("render_preview", "oops"), notObject, "render_preview oops");
  assert.equal(rendered, 0);
});
