#!/usr/bin/env node
// Effects frame times in headless Chromium, on WebGPU (SwiftShader), on WebGL2 and on the CPU
// path (backend "cpu", in a browser with WebGPU and in one whose only adapter is WebGL2), side
// by side in one run with opencut-wasm 0.2.10's Gaussian blur at the same sigma and with
// Canvas2D ctx.filter; plus the gzipped sizes of the effects module (WebGPU only, and WebGPU +
// WebGL2) and of the main engine module.
//
//   npm run bench:effects   full run: 7 frames a figure (3 when a frame takes over 1.5 s)
//   npm run bench           engine bench, then this with --quick: 5 frames a figure (3 when a
//                           frame takes over 1 s), a few minutes on two cores
//
// Needs `npm run build` first (dist/, or NEURALCUT_DIST). Installs opencut-wasm@0.2.10 into
// .bench/opencut (not a project dependency) and builds the WebGPU-only module into
// .bench/effects-webgpu.
//
// Each frame is timed from the call to the moment one pixel of the result is back on the CPU
// (the same synchronisation as shared/anchors.md). Figures are medians after one warm-up frame.
// Ratios are the other's median over neuralcut's median frame time: above 1, neuralcut is faster.
//
//   node scripts/bench-effects.mjs [--quick] [--frames N] [--skip-size] [--backends cpu,webgpu,webgl2]
//
// --backends keeps only those runs (default: all four); "cpu" is both CPU runs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { ARTEFACTS } from "./artefacts.mjs";
import { argv, installOpencut, launchChromium, option, root, serve } from "./bench-common.mjs";

const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const benchDir = join(root, ".bench");
const QUICK = argv.includes("--quick");
const FRAMES = Number(option("--frames")) || (QUICK ? 5 : 7);
// A frame slower than this (its warm-up, in ms) gets only SLOW_FRAMES measured frames.
const SLOW_MS = QUICK ? 1000 : 1500;
const SLOW_FRAMES = 3;
const BACKENDS = option("--backends")?.split(",") ?? ["webgpu", "webgl2", "cpu"];
const WEBGPU_FLAGS = ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader"];
/** The runs: a backend in a browser. The CPU path runs twice: with WebGPU on SwiftShader, and with WebGPU off (WebGL2 only). */
const RUNS = [
  { backend: "webgpu", flags: WEBGPU_FLAGS, browser: "WebGPU on" },
  { backend: "webgl2", flags: [], browser: "WebGPU off" },
  { backend: "cpu", flags: WEBGPU_FLAGS, browser: "WebGPU on" },
  { backend: "cpu", flags: ["--disable-features=WebGPU"], browser: "WebGPU off" },
].filter((r) => BACKENDS.includes(r.backend));
const started = Date.now();
const env = { ...process.env, PATH: `${join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "bin")}:${process.env.PATH}` };

function sh(cmd, args, opts = {}) {
  console.log(`[bench] $ ${cmd} ${args.join(" ")}`);
  return execFileSync(cmd, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...env, ...(opts.env ?? {}) } });
}

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// ---------------------------------------------------------------------------------------------
// Sizes

function sizes() {
  const full = join(dist, "wasm", "neuralcut_effects_bg.wasm");
  const engine = join(dist, "wasm", "neuralcut_engine_bg.wasm");
  if (!existsSync(full)) throw new Error(`${full} is missing: run npm run build first`);
  const out = { "effects, WebGPU + WebGL2": { bytes: readFileSync(full).length, gzip: gz(full) } };
  if (!argv.includes("--skip-size")) {
    // The WebGPU-only module: same crate, `effects` without `effects-webgl`. Own target dir so the
    // shipped build's artefacts are not disturbed.
    const dir = join(benchDir, "effects-webgpu");
    mkdirSync(dir, { recursive: true });
    const target = join(root, "target", "bench-effects");
    // The shipped module's flags (wasm SIMD), so that only the feature differs.
    const { rustflags, wasmOpt } = ARTEFACTS.find((a) => a.outName === "neuralcut_effects");
    sh("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--lib", "--no-default-features", "--features", "effects"], {
      env: { CARGO_TARGET_DIR: target, CARGO_PROFILE_RELEASE_STRIP: "false", ...(rustflags ? { RUSTFLAGS: rustflags } : {}) },
    });
    sh("wasm-bindgen", [
      "--target",
      "web",
      "--out-dir",
      dir,
      "--out-name",
      "neuralcut_effects",
      join(target, "wasm32-unknown-unknown", "release", "neuralcut.wasm"),
    ]);
    const wasm = join(dir, "neuralcut_effects_bg.wasm");
    sh(join(root, "node_modules", ".bin", "wasm-opt"), [...wasmOpt, "--strip-debug", "--strip-producers", wasm, "-o", wasm]);
    out["effects, WebGPU only"] = { bytes: readFileSync(wasm).length, gzip: gz(wasm) };
  }
  if (existsSync(engine)) {
    // The engine is built without the effects features: none of the effects code may be in it.
    const text = readFileSync(engine).toString("latin1");
    out["main neuralcut engine"] = {
      bytes: readFileSync(engine).length,
      gzip: gz(engine),
      effectsCodeInside: /known effects:|read-back failed|linear clamp/.test(text),
    };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Frame times

/** Serves dist/ at / and opencut-wasm at /opencut/ on 127.0.0.1. */
function serveDist(opencut) {
  return serve({
    page: "<!doctype html><title>effects bench</title>",
    file: (path) => (path.startsWith("/opencut/") ? join(opencut, path.slice("/opencut".length)) : join(dist, path)),
  });
}

/** Runs in the page. */
async function benchPage({ backend, frames, slowMs, slowFrames, sizes, what }) {
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const time = async (n, frame) => {
    const w0 = performance.now();
    await frame(); // warm-up
    if (performance.now() - w0 > slowMs) n = Math.min(n, slowFrames); // a slow frame: fewer runs
    const t = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await frame();
      t.push(performance.now() - t0);
    }
    return median(t);
  };
  const pattern = (w, h) => {
    const c = new OffscreenCanvas(w, h);
    const g = c.getContext("2d");
    const grad = g.createLinearGradient(0, 0, w, h);
    grad.addColorStop(0, "#e33");
    grad.addColorStop(0.5, "#3c7");
    grad.addColorStop(1, "#36e");
    g.fillStyle = grad;
    g.fillRect(0, 0, w, h);
    g.fillStyle = "#fff";
    for (let y = 0; y < h; y += 64) for (let x = (y / 64) % 2 ? 0 : 32; x < w; x += 64) g.fillRect(x, y, 32, 32);
    return c;
  };
  const one = new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true });
  // Reads pixel (0, 0) of a canvas; its alpha is 0 when the snapshot came back empty (which
  // SwiftShader's WebGPU does for a WebGPU canvas, without waiting for the GPU work).
  const readOne = (canvas) => {
    one.clearRect(0, 0, 1, 1);
    one.drawImage(canvas, 0, 0, 1, 1, 0, 0, 1, 1);
    return one.getImageData(0, 0, 1, 1).data[3];
  };

  const out = { backend, rows: [] };
  let r = null;
  // The same backend with the other upload route, for the "no effect" rows.
  let rOther = null;
  if (what === "ours") {
    const fx = await import("/effects.js");
    // What "auto" picks in this browser, asked first (SwiftShader's WebGPU may refuse new
    // adapters later).
    const auto = await fx.createEffectRenderer();
    out.auto = { backend: auto.backend, reason: auto.backendReason, software: auto.software, upload: auto.upload };
    auto.destroy();
    r = await fx.createEffectRenderer({ backend });
    out.backend = r.backend;
    out.upload = r.upload;
    out.software = r.software;
    if (backend !== "cpu") rOther = await fx.createEffectRenderer({ backend, upload: r.upload === "pixels" ? "copy" : "pixels" });
  }

  let opencut = null;
  if (what === "opencut")
    try {
      const glue = await import("/opencut/opencut_wasm_bg.js");
      const { instance } = await WebAssembly.instantiateStreaming(fetch("/opencut/opencut_wasm_bg.wasm"), { "./opencut_wasm_bg.js": glue });
      glue.__wbg_set_wasm(instance.exports);
      instance.exports.__wbindgen_start();
      await glue.initializeGpu();
      opencut = glue;
    } catch (e) {
      out.opencutError = String(e);
    }

  for (const [w, h] of sizes) {
    const src = pattern(w, h);
    // The same OffscreenCanvas source for all three.
    const ours =
      (effects, renderer = r) =>
      async () => {
        renderer.render({ source: src, width: w, height: h, effects });
        await renderer.readPixels({ x: 0, y: 0, width: 1, height: 1 });
      };
    // The frame already on the GPU (render without a source): the effect's own cost.
    const oursOnGpu = (effects) => async () => {
      r.render({ width: w, height: h, effects });
      await r.readPixels({ x: 0, y: 0, width: 1, height: 1 });
    };
    const c2d = new OffscreenCanvas(w, h).getContext("2d", { willReadFrequently: true });
    const canvas2d = (filter) => async () => {
      c2d.filter = filter;
      c2d.drawImage(src, 0, 0);
      c2d.getImageData(0, 0, 1, 1);
    };
    // OpenCut's blur: sigma = intensity / 5 · h / 1080 (and the same across on these 16:9 frames).
    const sigma10 = (50 * 1080) / h; // intensity giving sigma 10 px at this height
    const rows = [
      { effect: `blur σ=10 px (intensity ${sigma10})`, ours: [{ effectType: "blur", params: { intensity: sigma10 } }], canvas2d: "blur(10px)", opencut: 10 },
      { effect: `blur default (intensity 15, σ=${(15 * h) / 5400} px)`, ours: [{ effectType: "blur" }], canvas2d: `blur(${(15 * h) / 5400}px)` },
      {
        effect: `blur max (intensity 100, σ=${(100 * h) / 5400} px)`,
        ours: [{ effectType: "blur", params: { intensity: 100 } }],
        canvas2d: `blur(${(100 * h) / 5400}px)`,
      },
      {
        effect: "brightness-contrast (0.2, 1.5)",
        ours: [{ effectType: "brightness-contrast", params: { brightness: 0.2, contrast: 1.5 } }],
        canvas2d: "brightness(1.2) contrast(1.5)",
      },
      { effect: "grayscale 100", ours: [{ effectType: "grayscale" }], canvas2d: "grayscale(1)" },
      { effect: "saturation 200", ours: [{ effectType: "saturation", params: { saturation: 200 } }], canvas2d: "saturate(2)" },
      { effect: "sepia 100", ours: [{ effectType: "sepia" }], canvas2d: "sepia(1)" },
      { effect: "invert 100", ours: [{ effectType: "invert" }], canvas2d: "invert(1)" },
      { effect: "vignette default", ours: [{ effectType: "vignette" }], canvas2d: null },
      {
        effect: "stack of four per-pixel effects",
        ours: [
          { effectType: "brightness-contrast", params: { brightness: 0.2, contrast: 1.5 } },
          { effectType: "saturation", params: { saturation: 200 } },
          { effectType: "sepia", params: { intensity: 50 } },
          { effectType: "invert", params: { intensity: 20 } },
        ],
        canvas2d: "brightness(1.2) contrast(1.5) saturate(2) sepia(0.5) invert(0.2)",
      },
      { effect: "no effect (upload + read-back)", ours: [], canvas2d: "none" },
      { effect: "no effect, other upload route", ours: [], canvas2d: null, other: true },
    ];
    for (const row of rows) {
      const res = { size: `${w}x${h}`, effect: row.effect };
      if (r && row.other) {
        if (!rOther) continue;
        res.effect = `no effect, upload "${rOther.upload}" (other route)`;
        res.ours = await time(frames, ours(row.ours, rOther));
        out.rows.push(res);
        continue;
      }
      if (r) {
        res.ours = await time(frames, ours(row.ours));
        res.oursOnGpu = await time(frames, oursOnGpu(row.ours));
      }
      if (r && row.canvas2d) res.canvas2d = await time(frames, canvas2d(row.canvas2d));
      if (row.opencut && opencut) {
        const passes = [
          [1, 0],
          [0, 1],
        ].map((d) => ({
          shader: "gaussian-blur",
          uniforms: [
            { name: "u_sigma", value: [row.opencut] },
            { name: "u_step", value: [1] },
            { name: "u_direction", value: d },
          ],
        }));
        let alpha = 255;
        res.opencut = await time(frames, async () => {
          alpha = Math.min(alpha, readOne(opencut.applyEffectPasses({ source: src, width: w, height: h, passes })));
        });
        // Timed without waiting for the GPU: not comparable.
        if (alpha === 0) res.opencutUnsynced = true;
      }
      out.rows.push(res);
    }
  }
  r?.destroy();
  rOther?.destroy();
  return out;
}

async function frameTimes() {
  // opencut-wasm is only timed in the GPU runs.
  const opencut = RUNS.some((r) => r.backend !== "cpu") ? installOpencut() : join(benchDir, "none");
  const { origin: url, server } = await serveDist(opencut);
  const results = [];
  try {
    for (const { backend, flags, browser: browserKind } of RUNS) {
      const browser = await launchChromium(flags);
      try {
        // One page each: SwiftShader's WebGPU breaks buffer read-back in a page once a WebGPU
        // canvas was drawn on, which opencut-wasm does.
        const parts = {};
        // opencut-wasm runs on the GPU: timed in the GPU runs only.
        for (const what of backend === "cpu" ? ["ours"] : ["ours", "opencut"]) {
          const page = await browser.newPage();
          page.on(
            "console",
            (m) => m.type() === "error" && !m.text().startsWith("Failed to load") && console.log(`[page ${backend} ${what}] ${m.text().slice(0, 300)}`),
          );
          await page.goto(`${url}/`);
          console.log(`[bench] ${backend}: measuring ${what} (${FRAMES} frames a figure)…`);
          page.setDefaultTimeout(0);
          parts[what] = await page.evaluate(benchPage, {
            backend,
            frames: FRAMES,
            slowMs: SLOW_MS,
            slowFrames: SLOW_FRAMES,
            sizes: [
              [1920, 1080],
              [3840, 2160],
            ],
            what,
          });
          await page.close();
        }
        const rows = parts.ours.rows.map((row, i) => ({
          ...row,
          ...Object.fromEntries(Object.entries(parts.opencut?.rows[i] ?? {}).filter(([k]) => k.startsWith("opencut"))),
        }));
        results.push({
          backend: parts.ours.backend,
          browser: browserKind,
          upload: parts.ours.upload,
          software: parts.ours.software,
          auto: parts.ours.auto,
          opencutError: parts.opencut?.opencutError,
          rows,
        });
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.close();
  }
  return results;
}

// ---------------------------------------------------------------------------------------------

const ms = (x) => (x === undefined ? "–" : x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`);
/** other / ours: above 1, neuralcut is faster. */
const ratio = (other, ours) => (other === undefined || ours === undefined ? "–" : `${(other / ours).toFixed(other / ours < 1 ? 2 : 1)}×`);
const backendName = (b, browser) =>
  b === "webgpu"
    ? "WebGPU (SwiftShader)"
    : b === "webgl2"
      ? "WebGL2 (ANGLE on SwiftShader)"
      : `CPU path, wasm SIMD (browser with ${browser === "WebGPU on" ? "WebGPU on SwiftShader" : "WebGPU off: WebGL2 only"})`;

const sizeTable = sizes();
const runs = await frameTimes();
const opencutWasm = join(benchDir, "opencut", "node_modules", "opencut-wasm", "opencut_wasm_bg.wasm");
// Gzipped here like the modules above (Node's zlib, level 9); `gzip -9` gives 1,104,724 bytes.
if (existsSync(opencutWasm)) sizeTable["opencut-wasm 0.2.10"] = { bytes: readFileSync(opencutWasm).length, gzip: gz(opencutWasm) };

const lines = [
  "# Effects benchmark",
  "",
  `Headless Chromium, ${new Date().toISOString().slice(0, 10)}, \`${["node scripts/bench-effects.mjs", ...argv].join(" ")}\`.`,
  `Medians of ${FRAMES} frames (${SLOW_FRAMES} when a frame takes over ${SLOW_MS / 1000} s) after one warm-up; each frame ends when one pixel of the result is back on the CPU.`,
  "",
  "Ratio = the other's median / neuralcut's median frame time: **above 1, neuralcut is faster**; below 1, the other is.",
  '"frame": upload from the OffscreenCanvas, effect, one pixel read back (what Canvas2D and opencut-wasm are timed doing); "on GPU": the effect re-rendered on the frame already uploaded (on the CPU path: on the pixels already in wasm memory).',
  "",
];
let unsynced = false;
const wins = [];
for (const run of runs) {
  lines.push(`## ${backendName(run.backend, run.browser)}`, "");
  if (run.auto) {
    lines.push(
      `Upload route: "${run.upload}" (software adapter: ${run.software}). \`backend: "auto"\` in this browser chose ${run.auto.backend} (${run.auto.reason}; upload "${run.auto.upload}").`,
      "",
    );
  }
  if (run.opencutError) lines.push(`opencut-wasm failed to start: ${run.opencutError}`, "");
  lines.push(
    "| size | effect | neuralcut frame | neuralcut on GPU | Canvas2D ctx.filter | Canvas2D / neuralcut | opencut-wasm 0.2.10 | opencut / neuralcut |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const r of run.rows) {
    let oc = ratio(r.opencut, r.ours);
    if (r.opencutUnsynced) {
      unsynced = true;
      oc = "n/a¹";
    }
    lines.push(
      `| ${r.size} | ${r.effect} | ${ms(r.ours)} | ${ms(r.oursOnGpu)} | ${ms(r.canvas2d)} | ${ratio(r.canvas2d, r.ours)} | ${ms(r.opencut)} | ${oc} |`,
    );
    if (r.canvas2d !== undefined && !r.effect.startsWith("no effect"))
      wins.push({ backend: `${run.backend} ${run.browser}`, size: r.size, vs: "Canvas2D", faster: r.canvas2d > r.ours });
    if (r.opencut !== undefined && !r.opencutUnsynced)
      wins.push({ backend: `${run.backend} ${run.browser}`, size: r.size, vs: "opencut-wasm", faster: r.opencut > r.ours });
  }
  lines.push("");
}
if (unsynced) {
  lines.push(
    "¹ Not comparable: the read-back of opencut-wasm's WebGPU canvas came back empty (alpha 0), so its time does not wait for the GPU work (SwiftShader's WebGPU gives empty canvas snapshots).",
    "",
  );
}
lines.push("## Shared effects where neuralcut's frame is faster", "", "| backend | size | vs Canvas2D | vs opencut-wasm |", "|---|---|---|---|");
for (const run of runs) {
  for (const size of [...new Set(run.rows.map((r) => r.size))]) {
    const count = (vs) => {
      const w = wins.filter((x) => x.backend === `${run.backend} ${run.browser}` && x.size === size && x.vs === vs);
      return w.length ? `${w.filter((x) => x.faster).length} of ${w.length}` : "–";
    };
    lines.push(`| ${backendName(run.backend, run.browser)} | ${size} | ${count("Canvas2D")} | ${count("opencut-wasm")} |`);
  }
}
// The goal for fusion: a stack of four per-pixel effects no slower than one. "One" is
// each of the stack's own effects alone (the same rows above); the ratio is against the
// slowest of them, so 1 or less meets the goal.
lines.push(
  "",
  "## Stack of four per-pixel effects against one",
  "",
  "| backend | size | stack frame | one effect alone (fastest – slowest of the four) | stack ÷ slowest one |",
  "|---|---|---|---|---|",
);
const ONE = ["brightness-contrast", "saturation", "sepia", "invert"];
for (const run of runs) {
  for (const size of [...new Set(run.rows.map((r) => r.size))]) {
    const rows = run.rows.filter((r) => r.size === size);
    const stack = rows.find((r) => r.effect.startsWith("stack of four"))?.ours;
    const singles = ONE.map((id) => rows.find((r) => r.effect.startsWith(id))?.ours).filter((x) => x !== undefined);
    if (stack === undefined || !singles.length) continue;
    const [lo, hi] = [Math.min(...singles), Math.max(...singles)];
    lines.push(`| ${backendName(run.backend, run.browser)} | ${size} | ${ms(stack)} | ${ms(lo)} – ${ms(hi)} | ${(stack / hi).toFixed(2)} |`);
  }
}
lines.push("", "## Sizes (wasm-opt -Oz)", "", "| module | bytes | gzipped |", "|---|---|---|");
for (const [name, s] of Object.entries(sizeTable)) lines.push(`| ${name} | ${s.bytes.toLocaleString("en")} | ${s.gzip.toLocaleString("en")} (${kb(s.gzip)}) |`);
lines.push("");
// The size goals: at most 300 KB gzipped with the fallbacks, 60 KB for WebGPU only.
for (const [name, goal] of [
  ["effects, WebGPU + WebGL2", 300],
  ["effects, WebGPU only", 60],
]) {
  if (sizeTable[name])
    lines.push(`Goal ≤ ${goal} KB gzipped for "${name}": ${sizeTable[name].gzip <= goal * 1024 ? "met" : "missed"} (${kb(sizeTable[name].gzip)}).`, "");
}
if (sizeTable["main neuralcut engine"])
  lines.push(`Effects code inside the main engine module: ${sizeTable["main neuralcut engine"].effectsCodeInside ? "YES (regression)" : "none"}.`, "");
lines.push(`Took ${((Date.now() - started) / 60000).toFixed(1)} min.`, "");

const report = lines.join("\n");
console.log(`\n${report}`);
mkdirSync(benchDir, { recursive: true });
writeFileSync(join(benchDir, "effects.md"), report);
writeFileSync(
  join(benchDir, "effects.json"),
  JSON.stringify({ date: new Date().toISOString(), args: argv, frames: FRAMES, slowMs: SLOW_MS, slowFrames: SLOW_FRAMES, sizes: sizeTable, runs }, null, 2),
);
console.log(`[bench] written to .bench/effects.md and .bench/effects.json`);
