#!/usr/bin/env node
// `npm run build`: installs what is missing, then builds the npm package into dist/.
//
//   1. scripts/setup.sh build   Rust wasm32 target, wasm-bindgen CLI (exact crate version), npm ci
//   2. for each wasm artefact:  cargo build --release --target wasm32-unknown-unknown [--features]
//                               wasm-bindgen --target web  -> dist/wasm/<outName>.js/.d.ts/_bg.wasm
//                               wasm-opt -Oz [--converge] (npm binaryen)
//   3. tsc                      js/**/*.ts -> dist/**/*.js + .d.ts
//
// Flags: --skip-setup (tools known present), --no-opt (skip wasm-opt, faster local iteration).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ARTEFACTS } from "./artefacts.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const dist = join(root, "dist");
const wasmOut = join(dist, "wasm");
const args = new Set(process.argv.slice(2));

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

// Code no module may link, found by name in the name section wasm-bindgen keeps (wasm-opt strips
// it afterwards). Core's float printing (Grisu, Dragon and their bignum: 14 KB raw in the engine
// when one `format!("{lo}")` of an f64 brought it back) prints through `text::Num` instead.
const FORBIDDEN = [{ name: "::fmt::float::", instead: "print an f64 with text::Num (src/text.rs), or effects::Limit in the effects module" }];

function forbidNames(wasm, outName) {
  const names = readFileSync(wasm).toString("latin1");
  for (const { name, instead } of FORBIDDEN) {
    if (names.includes(name)) {
      console.error(`\n[build] FAILED: ${outName} links ${name} (${instead})`);
      process.exit(1);
    }
  }
}

/** Builds one wasm artefact into dist/wasm/. */
function buildWasm({ outName, features, optLevel, rustflags, bindgenFlags = [], wasmOpt = ["-Oz"], what }) {
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
  forbidNames(wasm, outName);
  if (args.has("--no-opt")) {
    console.log("[build] skipping wasm-opt (--no-opt)");
  } else {
    console.log(`[build] before wasm-opt: ${size(wasm)}`);
    run(bin("wasm-opt"), [...wasmOpt, "--strip-debug", "--strip-producers", relative(root, wasm), "-o", relative(root, wasm)]);
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
