// The shipped typings: typed-usage.ts must type-check against dist/index.d.ts, with every
// `// @ts-expect-error` line really an error (tsc reports unused ones). The generated tool types
// are checked against the registry by the Rust test tools::typescript (run by `cargo test`).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

import { root } from "./helpers.mjs";

test("typed usage of the package type-checks, and the misuses in it do not", () => {
  const tsc = join(root, "node_modules", ".bin", "tsc");
  const r = spawnSync(tsc, ["--noEmit", "-p", join(root, "tests", "js", "tsconfig.json")], { encoding: "utf8" });
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
  const usage = readFileSync(join(root, "tests", "js", "typed-usage.ts"), "utf8");
  assert.ok((usage.match(/@ts-expect-error/g) ?? []).length >= 10);
});

test("the public typings keep the engine's wasm-bindgen types private", () => {
  const editor = readFileSync(join(root, "dist", "editor.d.ts"), "utf8");
  assert.doesNotMatch(editor, /WasmEditor|wasm\//);
  const index = readFileSync(join(root, "dist", "index.d.ts"), "utf8");
  assert.match(index, /generated\/tools\.js/);
});

test("the shipped tool maps name every tool of the catalog", async () => {
  const generated = readFileSync(join(root, "dist", "generated", "tools.d.ts"), "utf8");
  const { createEditor } = await import(join(root, "dist", "index.js"));
  const editor = await createEditor();
  for (const { name } of editor.tools()) {
    const base = name
      .split("_")
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join("");
    assert.match(generated, new RegExp(`\\b${name}: ${base}Args;`), name);
    assert.match(generated, new RegExp(`\\b${name}: ${base}Result;`), name);
  }
});

// Types that cross the Rust/TS boundary (the frame and its layers, the audio plan, blend modes,
// the project and asset JSON, frame rates, tool errors, every tool's arguments and result) are
// generated into js/generated/tools.ts from the Rust types; a hand-written copy of one drifts.
/** The names a TypeScript source declares as types (a `type X` in an import list is a use). */
const declaredTypes = (src) =>
  [...src.matchAll(/^\s*(?:export\s+)?(?:declare\s+)?(?:interface|type)\s+(\w+)\s*(?:<[^>]*>)?\s*(?:=|\{|extends\b)/gm)].map((m) => m[1]);

test("no file in js/ declares again a type the generated typings declare", () => {
  const generated = readFileSync(join(root, "js", "generated", "tools.ts"), "utf8");
  const names = new Set([...generated.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]));
  for (const name of ["Frame", "MediaFrameLayer", "FrameLayer", "AudioPlan", "BlendMode", "ProjectJson", "AssetJson", "FrameRate", "ToolErrorResult"])
    assert.ok(names.has(name), `${name} is generated`);
  const copies = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "generated") walk(path);
      } else if (entry.name.endsWith(".ts")) {
        for (const name of declaredTypes(readFileSync(path, "utf8"))) {
          if (names.has(name)) copies.push(`${relative(root, path)}: ${name}`);
        }
      }
    }
  };
  walk(join(root, "js"));
  assert.deepEqual(copies, []);
  assert.deepEqual(declaredTypes("import {\n  type Frame,\n} from './generated/tools.js';"), []);
  assert.deepEqual(declaredTypes("export interface Frame {\n  x: number;\n}\ntype AudioPlan<T> = T;\ninterface AssetJson extends X {}"), [
    "Frame",
    "AudioPlan",
    "AssetJson",
  ]);
});

test("the renderer's frame types are the generated ones, and the compositor's API is typed", () => {
  const render = readFileSync(join(root, "dist", "render.d.ts"), "utf8");
  assert.match(render, /\bFrame\b[^;]*from "\.\/generated\/tools\.js"/s);
  const backend = readFileSync(join(root, "dist", "render-backend.d.ts"), "utf8");
  assert.match(backend, /drawLayer\(layer: LayerDraw\)/);
  assert.doesNotMatch(backend, /: unknown|wasm\//);
  const wasm = readFileSync(join(root, "dist", "wasm", "neuralcut_effects.d.ts"), "utf8");
  assert.match(wasm, /export interface LayerDraw \{[^}]*centerX: number;/s);
  assert.match(wasm, /drawLayer\(layer: LayerDraw\): void;/);
  assert.match(wasm, /applyEffects\(effects: NonNullable<LayerDraw\["effects"\]>\): void;/);
  assert.match(wasm, /readPixels\([^)]*\): Promise<Uint8ClampedArray>;/);
});
