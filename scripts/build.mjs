#!/usr/bin/env node
// `npm run build`: installs what is missing, then builds the npm package into dist/.
//
//   1. scripts/setup.sh build   Rust wasm32 target, wasm-bindgen CLI (exact crate version), npm ci
//   2. for each wasm artefact:  cargo build --release --target wasm32-unknown-unknown [--features]
//                               wasm-bindgen --target web  -> dist/wasm/<outName>.js/.d.ts/_bg.wasm
//                               wasm-opt -Oz (npm binaryen)
//   3. tsc                      js/**/*.ts -> dist/**/*.js + .d.ts
//
// Flags: --skip-setup (tools known present), --no-opt (skip wasm-opt, faster local iteration).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const dist = join(root, "dist");
const wasmOut = join(dist, "wasm");
const args = new Set(process.argv.slice(2));

// The wasm modules built from this crate. A second one (e.g. GPU effects behind a cargo
// feature) is one more entry here; its glue lands in dist/wasm/<outName>.js for js/ to import.
// optLevel overrides the release profile's opt-level for that module ("z": smallest; the engine
// measured 190 KB gzipped with "z" against 210 KB with "s"; the bench goals still hold widely).
export const ARTEFACTS = [
  // The engine's glue exports __wbg_reset_state: after a panic js/engine.ts re-instantiates the
  // module with it and replays the editors' committed changes.
  { outName: "neuralcut_engine", features: ["engine"], optLevel: "z", bindgenFlags: ["--experimental-reset-state-function"], what: "timeline engine and agent tools" },
  // wasm SIMD for the effects module only: its CPU path (backend "cpu", src/effects/fast.rs) is
  // written to vectorise (docs/effects.md has the figures with and without). Every browser with
  // WebGPU or WebGL2 has had wasm SIMD since 2021.
  { outName: "neuralcut_effects", features: ["effects-webgl"], rustflags: "-C target-feature=+simd128", what: "GPU effects, WebGPU + WebGL2, and the CPU path (neuralcut/effects)" },
];

const env = { ...process.env, PATH: `${join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "bin")}:${process.env.PATH}` };

function step(message) {
  console.log(`\n[build] ${message}`);
}

function run(cmd, argv, extraEnv = {}) {
  const line = [cmd, ...argv].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");
  console.log(`[build] $ ${line}`);
  try {
    execFileSync(cmd, argv, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  } catch (e) {
    console.error(`\n[build] FAILED: ${line} (${e.code === "ENOENT" ? "not found" : `exit status ${e.status}`})`);
    process.exit(1);
  }
}

function size(file) {
  const bytes = readFileSync(file);
  return `${bytes.length.toLocaleString("en")} bytes, ${gzipSync(bytes, { level: 9 }).length.toLocaleString("en")} gzipped`;
}

/** Builds one wasm artefact into dist/wasm/. */
function buildWasm({ outName, features, optLevel, rustflags, bindgenFlags = [], what }) {
  step(`${outName}: ${what}`);
  const featureArgs = features.length ? ["--no-default-features", "--features", features.join(",")] : [];
  // strip=false here: wasm-bindgen reads the target_features section; wasm-opt strips afterwards.
  const profile = {
    CARGO_PROFILE_RELEASE_STRIP: "false",
    ...(optLevel ? { CARGO_PROFILE_RELEASE_OPT_LEVEL: optLevel } : {}),
    // NEURALCUT_NO_SIMD=1 builds without it, to measure the difference.
    ...(rustflags && !process.env.NEURALCUT_NO_SIMD ? { RUSTFLAGS: rustflags } : {}),
  };
  run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--lib", ...featureArgs], profile);
  const targetDir = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(root, "target");
  const raw = join(targetDir, "wasm32-unknown-unknown", "release", "neuralcut.wasm");
  run("wasm-bindgen", ["--target", "web", ...bindgenFlags, "--out-dir", relative(root, wasmOut), "--out-name", outName, relative(root, raw)]);
  const wasm = join(wasmOut, `${outName}_bg.wasm`);
  if (args.has("--no-opt")) {
    console.log("[build] skipping wasm-opt (--no-opt)");
  } else {
    console.log(`[build] before wasm-opt: ${size(wasm)}`);
    run(bin("wasm-opt"), ["-Oz", "--strip-debug", "--strip-producers", relative(root, wasm), "-o", relative(root, wasm)]);
  }
  console.log(`[build] ${relative(root, wasm)}: ${size(wasm)}`);
}

const started = Date.now();
if (!args.has("--skip-setup")) {
  step("checking build tools (scripts/setup.sh build)");
  run("bash", ["scripts/setup.sh", "build"]);
}
step("cleaning dist/");
rmSync(dist, { recursive: true, force: true });
mkdirSync(wasmOut, { recursive: true });
for (const artefact of ARTEFACTS) buildWasm(artefact);
step("compiling TypeScript (js/ -> dist/)");
run(bin("tsc"), ["-p", "tsconfig.json"]);
if (!existsSync(join(dist, "index.js")) || !statSync(join(dist, "index.d.ts")).isFile()) {
  throw new Error("tsc did not produce dist/index.js and dist/index.d.ts");
}
step(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: dist/ holds the package (npm pack packs it)`);
