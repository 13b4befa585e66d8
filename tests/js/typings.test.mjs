// The shipped typings: typed-usage.ts must type-check against dist/index.d.ts, with every
// `// @ts-expect-error` line really an error (tsc reports unused ones). The generated tool types
// are checked against the registry by the Rust test tools::typescript (run by `cargo test`).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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
    const base = name.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join("");
    assert.match(generated, new RegExp(`\\b${name}: ${base}Args;`), name);
    assert.match(generated, new RegExp(`\\b${name}: ${base}Result;`), name);
  }
});
