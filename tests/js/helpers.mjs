// Shared by the package tests: the built package (dist/, from `npm run build`), the Rust
// fixtures, and a JSON comparison with the same rules as tests/tool_cases.rs.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const pkg = await import(new URL("../../dist/index.js", import.meta.url));

/** A project fixture from tests/fixtures/<name>.json, as an object. */
export function fixture(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8"));
}

/** An editor on the demo fixture (or on `name`). */
export function editorOn(name = "demo", options = {}) {
  return pkg.createEditor({ ...options, project: fixture(name) });
}

/** Where `actual` differs from `expected` (numbers by value, objects by key set), or null. */
export function diff(expected, actual, path = "$") {
  if (typeof expected === "number" && typeof actual === "number") {
    return expected === actual ? null : `${path}: expected ${expected}, got ${actual}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return `${path}: expected ${expected.length} items, got ${actual.length}: ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const d = diff(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (expected && actual && typeof expected === "object" && typeof actual === "object" && !Array.isArray(expected) && !Array.isArray(actual)) {
    for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (!(k in expected)) return `${path}.${k}: unexpected, got ${JSON.stringify(actual[k])}`;
      if (!(k in actual)) return `${path}.${k}: missing, expected ${JSON.stringify(expected[k])}`;
      const d = diff(expected[k], actual[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return expected === actual ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** Waits until queued microtasks (onChange deliveries) have run. */
export function settle() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
