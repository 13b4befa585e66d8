// The package as users get it: `npm pack`, install the tarball into a scratch project, then
// import it from Node ESM, from a Vite production build, and from a plain page with an import
// map, the last two in headless Chromium.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { launchChromium, pageResult, serveDir } from "./browser.mjs";
import { root } from "./helpers.mjs";

// What every environment runs: a few tool calls, reported as one value.
const SCRIPT = `
const editor = await createEditor();
const assetId = editor.addAsset({ name: "clip.mp4", type: "video", duration: 10 });
let changes = 0;
editor.onChange(() => changes++);
await editor.callTool("add_media_to_timeline", { assetId, startTime: 0, trackType: "main" });
const split = await editor.callTool("split", { times: [4] });
const bad = await editor.callTool("split", { time: 4 });
const timeline = await editor.callTool("list_timeline");
let thrown = null;
try { editor.addAsset({ type: "video" }); } catch (e) { thrown = { isError: e instanceof Error, code: e.code }; }
await Promise.resolve();
const result = {
  ticks: TICKS_PER_SECOND,
  tools: editor.tools().length,
  elements: timeline.tracks[0].elements.map((e) => [e.start, e.end]),
  newElements: split.newElements.length,
  error: bad.error,
  thrown,
  changes,
  undo: editor.undo(),
};`;

const EXPECTED = {
  ticks: 120000,
  tools: 38,
  elements: [
    [0, 4],
    [4, 10],
  ],
  newElements: 1,
  error: 'unknown argument "time" for split; expected: times',
  thrown: { isError: true, code: "INVALID_ASSET" },
  changes: 2,
  undo: true,
};

let scratch;

function sh(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

before(() => {
  scratch = mkdtempSync(join(tmpdir(), "neuralcut-pack-"));
  const packed = JSON.parse(sh("npm", ["pack", "--json", "--pack-destination", scratch], root));
  const tarball = join(scratch, packed[0].filename);
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  // --prefer-offline: the runtime dependencies come from the npm cache that `npm ci` filled.
  sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], scratch);
});

after(() => rmSync(scratch, { recursive: true, force: true }));

test("the tarball holds the built package and nothing from the source tree", () => {
  const files = JSON.parse(sh("npm", ["pack", "--dry-run", "--json"], root))[0].files.map((f) => f.path);
  for (const f of [
    "package.json",
    "README.md",
    "dist/index.js",
    "dist/index.d.ts",
    "dist/generated/tools.d.ts",
    "dist/wasm/neuralcut_engine.js",
    "dist/wasm/neuralcut_engine_bg.wasm",
    "dist/panel/index.js",
    "dist/panel/index.d.ts",
    "demo/media/clip.webm",
    "demo/media/still.jpg",
    "demo/media/star.svg",
    "demo/media/README.md",
  ]) {
    assert.ok(files.includes(f), `${f} is packed`);
  }
  assert.deepEqual(
    files.filter((f) => /^(src|js|tests|target|scripts)\//.test(f)),
    [],
  );
});

test("imports from Node ESM without flags", () => {
  writeFileSync(
    join(scratch, "node-check.mjs"),
    `import { createEditor, TICKS_PER_SECOND } from "neuralcut";\n${SCRIPT}\nconsole.log(JSON.stringify(result));\n`,
  );
  const out = sh(process.execPath, ["node-check.mjs"], scratch);
  assert.deepEqual(JSON.parse(out), EXPECTED);
  // neuralcut/panel is a browser element, but importing it in Node (SSR, type checks) must not throw.
  writeFileSync(
    join(scratch, "panel-check.mjs"),
    `import { NeuralCutAgentPanel, PANEL_TAG, messageText } from "neuralcut/panel";\nconsole.log(JSON.stringify([typeof NeuralCutAgentPanel, PANEL_TAG, messageText("hi")]));\n`,
  );
  assert.deepEqual(JSON.parse(sh(process.execPath, ["panel-check.mjs"], scratch)), ["function", "neuralcut-agent-panel", "hi"]);
});

test("works from a Vite production build and from an import-map page, in Chromium", async () => {
  writeFileSync(join(scratch, "main.js"), `import { createEditor, TICKS_PER_SECOND } from "neuralcut";\n${SCRIPT}\nwindow.result = result;\n`);
  writeFileSync(
    join(scratch, "index.html"),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>vite</title><script type="module" src="./main.js"></script>\n`,
  );
  const vite = join(root, "node_modules", "vite", "bin", "vite.js");
  sh(process.execPath, [vite, "build", "--logLevel", "warn"], scratch);
  const built = readdirSync(join(scratch, "dist", "assets"));
  assert.ok(
    built.some((f) => f.endsWith(".wasm")),
    `Vite emitted the wasm: ${built.join(", ")}`,
  );

  writeFileSync(
    join(scratch, "importmap.html"),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>import map</title>
<script type="importmap">{ "imports": { "neuralcut": "/node_modules/neuralcut/dist/index.js" } }</script>
<script type="module">import { createEditor, TICKS_PER_SECOND } from "neuralcut";\n${SCRIPT}\nwindow.result = result;</script>\n`,
  );

  const viteServer = await serveDir(join(scratch, "dist"));
  const plainServer = await serveDir(scratch);
  let browser;
  try {
    browser = await launchChromium();
    const fromVite = await pageResult(browser, `${viteServer.url}/`);
    assert.deepEqual(fromVite.result, EXPECTED);
    assert.deepEqual(fromVite.errors, []);
    const fromMap = await pageResult(browser, `${plainServer.url}/importmap.html`);
    assert.deepEqual(fromMap.result, EXPECTED);
    assert.deepEqual(fromMap.errors, []);
  } finally {
    await browser?.close();
    await viteServer.close();
    await plainServer.close();
  }
});
