// The in-page agent looks at a frame: render_preview (as a host tool over a frame renderer) puts
// the PNG into the next request as one inlineData part, keeps only the newest image in the
// history, and answers the function call with the description only. The model is scripted
// behind a fetch that stands for the proxy (the proxy's own rules are tested in proxy.test.mjs);
// the renderer is a stand-in with neuralcut/render's interface (the real one is tested in
// Chromium by render.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";

import { createEditor } from "../../dist/index.js";
import { createAgent } from "../../dist/agent/index.js";
import { renderPreviewTool, RENDER_PREVIEW_TOOL } from "../../dist/render-preview.js";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);

function stubRenderer(editor) {
  const calls = [];
  return {
    calls,
    async render(seconds, { width }) {
      calls.push([seconds, width]);
      const frame = editor.frameAt(seconds);
      return { frame, width, height: Math.round((frame.height * width) / frame.width), missing: [] };
    },
    async toBlob() {
      return new Blob([PNG], { type: "image/png" });
    },
  };
}

test("render_preview sends the frame to the model as one inline PNG and the description as the answer", async () => {
  const editor = await createEditor();
  await editor.callTool("add_text", { text: "Hello", start: 0, end: 4, position: "top" });
  const renderer = stubRenderer(editor);
  const bodies = [];
  const script = [
    { functionCall: { name: "render_preview", args: { time: 1, width: 320 } } },
    { functionCall: { name: "render_preview", args: { time: 2 } } },
    { text: "The title is at the top." },
  ];
  const fakeProxy = async (url, init) => {
    assert.match(String(url), /\/generate$/);
    bodies.push(JSON.parse(init.body));
    const part = script.shift();
    return new Response(JSON.stringify({ candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP" }] }), {
      headers: { "content-type": "application/json" },
    });
  };
  const agent = createAgent({
    editor,
    proxyUrl: "http://127.0.0.1:9/api/gemini/",
    fetch: fakeProxy,
    tools: [renderPreviewTool(renderer)],
    connectContext: false,
    stream: false,
  });
  assert.ok(
    agent.declarations().some((d) => d.name === "render_preview"),
    "offered to the model",
  );
  const answer = await agent.send("Does the title look right?");
  assert.equal(answer, "The title is at the top.");
  assert.deepEqual(renderer.calls, [
    [1, 320],
    [2, 960],
  ]);

  // Request 2 answers the first call: the description, then the picture inline.
  const turn = bodies[1].contents.at(-1);
  assert.equal(turn.role, "user");
  const [fr, img] = turn.parts;
  assert.equal(fr.functionResponse.name, "render_preview");
  const out = fr.functionResponse.response.output;
  assert.equal(out.inlineImage, undefined, "the image is not in the function response");
  assert.deepEqual([out.time, out.width, out.height], [1, 320, 180]);
  assert.deepEqual(
    out.layers.map((l) => l.kind),
    ["text"],
  );
  assert.deepEqual(img.inlineData, { mimeType: "image/png", data: Buffer.from(PNG).toString("base64") });

  // Request 3: only the newest frame is attached; the earlier one became a note.
  const inline = bodies[2].contents.flatMap((c) => c.parts).filter((p) => p.inlineData);
  assert.equal(inline.length, 1);
  assert.ok(bodies[2].contents.flatMap((c) => c.parts).some((p) => p.text === "(an earlier preview image, no longer attached)"));
  // Read-only: no undo step.
  assert.equal(editor.canUndo(), true, "only add_text is undoable");
  editor.undo();
  assert.equal(editor.canUndo(), false);
});

test("render_preview's bad arguments are tool errors the model sees, with nothing inline", async () => {
  const editor = await createEditor();
  const tool = renderPreviewTool(stubRenderer(editor));
  assert.equal(tool.name, RENDER_PREVIEW_TOOL.name);
  assert.equal(tool.annotations.readOnlyHint, true);
  for (const bad of [{}, { time: -1 }, { time: 1, width: 5 }, { time: 1, extra: true }, null]) {
    const r = await tool.call(bad);
    assert.equal(typeof r.error, "string", JSON.stringify(bad));
    assert.equal(r.inlineImage, undefined);
  }
});
