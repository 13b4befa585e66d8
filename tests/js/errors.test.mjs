// One error family: every code the JS layer gives is in the generated ERROR_CODES (from
// src/error_code.rs, which the engine's own codes cannot bypass: they are an enum there), and
// what the package throws is a NeuralCutError.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { createEditor, ERROR_CODES, NeuralCutError } from "../../dist/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" ? [] : sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

test("every error code written in js/ is in ERROR_CODES", async () => {
  const known = new Set(ERROR_CODES);
  const patterns = [
    /\bcode: "([A-Z][A-Z0-9_]*)"/g,
    /(?:NeuralCutError|AgentError|UploadRefusedError)\("([A-Z][A-Z0-9_]*)"/g,
    /\bfail(?:ure)?\("[^"]*", "([A-Z][A-Z0-9_]*)"/g,
    /\bfail\("([A-Z][A-Z0-9_]*)"/g,
  ];
  const unknown = [];
  let seen = 0;
  for (const file of sources(join(root, "js"))) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.includes('type: "notice"')) continue; // notices are events, not errors
      for (const re of patterns) {
        for (const m of line.matchAll(re)) {
          seen++;
          if (!known.has(m[1])) unknown.push(`${file.slice(root.length)}: ${m[1]}`);
        }
      }
    }
  }
  assert.ok(seen > 40, `the scan found ${seen} codes: the patterns no longer match the code`);
  assert.deepEqual(unknown, [], "codes missing from src/error_code.rs");
  const { BRIDGE_ERRORS } = await import("../../dist/bridge/protocol.js");
  for (const code of Object.values(BRIDGE_ERRORS)) assert.ok(known.has(code), `bridge code ${code}`);
});

test("engine errors are NeuralCutErrors whose codes are in ERROR_CODES", async () => {
  const editor = await createEditor();
  const thrown = [];
  for (const bad of [() => editor.addAsset({ name: "", type: "video" }), () => editor.addSticker({ id: "", name: "" }), () => editor.frameAt(Number.NaN)]) {
    try {
      bad();
    } catch (e) {
      thrown.push(e);
    }
  }
  assert.equal(thrown.length, 3);
  for (const e of thrown) {
    assert.ok(e instanceof NeuralCutError, String(e));
    assert.ok(ERROR_CODES.includes(e.code), e.code);
  }
  const failed = await editor.callToolUntyped("split", { times: [1] });
  assert.ok(ERROR_CODES.includes(failed.code), failed.code);
});
