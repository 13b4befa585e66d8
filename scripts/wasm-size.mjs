#!/usr/bin/env node
// Where the engine wasm's bytes are (docs/package.md): builds the engine artefact as
// scripts/build.mjs does, then a copy with the name section kept (wasm-opt -g) and one -Oz pass
// (repeated passes inline more bodies into the exports, which hides whose code it is), and
// groups twiggy's per-item sizes by crate and by module of this crate into markdown tables.
//
//   node scripts/wasm-size.mjs [--top N]      needs twiggy (cargo install twiggy)
//
// Sizes are raw bytes of the code and data sections, before gzip; the shipped module is the
// same one without the name section (its raw and gzipped sizes are printed first).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ARTEFACTS } from "./artefacts.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const topIndex = process.argv.indexOf("--top");
const top = topIndex > 0 ? Number(process.argv[topIndex + 1]) : 25;
const engine = ARTEFACTS.find((a) => a.outName === "neuralcut_engine");
const targetDir = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(root, "target");
const out = join(targetDir, "wasm-size");
mkdirSync(out, { recursive: true });

const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 28 }).toString();

run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--lib", "--no-default-features", "--features", engine.features.join(",")], {
  CARGO_PROFILE_RELEASE_STRIP: "false",
  CARGO_PROFILE_RELEASE_OPT_LEVEL: engine.optLevel,
});
run("wasm-bindgen", [
  "--target",
  "web",
  ...engine.bindgenFlags,
  "--out-dir",
  out,
  "--out-name",
  "engine",
  join(targetDir, "wasm32-unknown-unknown", "release", "neuralcut.wasm"),
]);
const wasmOpt = join(root, "node_modules", ".bin", "wasm-opt");
const passes = engine.wasmOpt ?? ["-Oz"];
run(wasmOpt, ["-Oz", "-g", join(out, "engine_bg.wasm"), "-o", join(out, "named.wasm")]);
run(wasmOpt, [...passes, "--strip-debug", "--strip-producers", join(out, "engine_bg.wasm"), "-o", join(out, "shipped.wasm")]);
const shipped = readFileSync(join(out, "shipped.wasm"));
console.log(
  `shipped engine: ${shipped.length.toLocaleString("en")} B raw, ${gzipSync(shipped, { level: 9 }).length.toLocaleString("en")} B gzipped (zlib level 9)\n`,
);

/** twiggy's rows: [name, shallow bytes]. */
const rows = run("twiggy", ["top", "-n", "1000000", "--format", "csv", join(out, "named.wasm")])
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const m = line.match(/^("(?:[^"]|"")*"|[^,]*),(\d+),/);
    return [m[1].replace(/^"|"$/g, "").replace(/""/g, '"'), Number(m[2])];
  });

const PRIMITIVES = new Set(["str", "char", "f64", "f32", "u8", "u32", "u64", "usize", "i32", "i64", "[T]", "[u8]", "&str", "&T"]);

/** The group of one item: a module of this crate, a dependency crate, or a kind of item. */
function group(name) {
  if (name.startsWith("data segment")) return "data (strings, tables)";
  if (/subsection|custom section|^"?(type|import|export|elem|table|memory|global|code|data)\[/.test(name) || name.startsWith("code[")) return null;
  if (/^(import|export) /.test(name)) return "import and export entries";
  if (/^wasmeditor_|shim/.test(name)) return "wasm-bindgen exports (their bodies, inlined)";
  const crate = name.replace(/^[<&*]+(mut )?/, "").replace(/\[[0-9a-f]{16}\]/g, "");
  const path = crate.split(/::|>|<| /)[0];
  if (path === "neuralcut") {
    const parts = crate.split("::");
    return parts[1] === "tools" && /^[a-z_]+$/.test(parts[2] ?? "") ? `neuralcut::tools::${parts[2]}` : `neuralcut::${parts[1].replace(/[^a-z_].*$/, "")}`;
  }
  if (PRIMITIVES.has(path) || path.startsWith("[")) return "core";
  if (path === "serde" || path === "serde_core") return "serde, serde_core";
  if (path === "wasm_bindgen" || path === "js_sys") return "wasm_bindgen, js_sys";
  return path || name;
}

const groups = new Map();
let total = 0;
for (const [name, bytes] of rows) {
  const g = group(name);
  if (!g) continue;
  total += bytes;
  const [sum, count] = groups.get(g) ?? [0, 0];
  groups.set(g, [sum + bytes, count + 1]);
}
console.log(`| group | raw bytes | items |\n|---|---:|---:|`);
for (const [g, [bytes, count]] of [...groups].sort((a, b) => b[1][0] - a[1][0])) {
  if (bytes < 1500) continue;
  console.log(`| ${g} | ${bytes.toLocaleString("en")} | ${count} |`);
}
console.log(`| all code and data | ${total.toLocaleString("en")} | |\n`);
console.log(`| largest items | raw bytes |\n|---|---:|`);
for (const [name, bytes] of rows.filter(([n]) => group(n)).slice(0, top)) {
  console.log(
    `| \`${name
      .replace(/::h[0-9a-f]{16}$/, "")
      .replace(/\[[0-9a-f]{16}\]/g, "")
      .replace(/\|/g, "\\|")}\` | ${bytes.toLocaleString("en")} |`,
  );
}
