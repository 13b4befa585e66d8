// The CPU effects path alone, in Node (no browser, no read-in): the effect list applied to a
// frame already in wasm memory, as `render` without a source does on backend "cpu". For quick
// before/after comparisons of src/effects/fast.rs; the figures that count against Canvas2D
// come from scripts/bench-effects.mjs, in Chromium.
//
//   node scripts/build.mjs --skip-setup && node scripts/bench-cpu-effects.mjs [--size 1920x1080] [--frames 25]
//
// Prints the median time of each effect list; `check` is a hash of the output, so two builds
// that should agree byte for byte can be compared.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const arg = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const [w, h] = arg("--size", "1920x1080").split("x").map(Number);
const frames = Number(arg("--frames", "25"));

const { initSync, CpuEffects } = await import(join(root, "dist/wasm/neuralcut_effects.js"));
initSync({ module: readFileSync(join(root, "dist/wasm/neuralcut_effects_bg.wasm")) });

const fx = new CpuEffects();
const source = fx.sourceView(w, h);
// Varied pixels (a hash of the index), so no effect meets only one colour.
for (let i = 0; i < source.length; i++) source[i] = ((Math.imul(i, 2654435761) >>> 24) ^ (i >> 10)) & 255;

const lists = {
  "no effect (the frame copy every render starts with)": [],
  "brightness-contrast (0.2, 1.5)": [{ effectType: "brightness-contrast", params: { brightness: 0.2, contrast: 1.5 } }],
  "grayscale 100": [{ effectType: "grayscale" }],
  "saturation 200": [{ effectType: "saturation", params: { saturation: 200 } }],
  "sepia 100": [{ effectType: "sepia" }],
  "vignette default": [{ effectType: "vignette" }],
  // The same stack as bench-effects.mjs.
  "stack of four per-pixel effects": [
    { effectType: "brightness-contrast", params: { brightness: 0.2, contrast: 1.5 } },
    { effectType: "saturation", params: { saturation: 200 } },
    { effectType: "sepia", params: { intensity: 50 } },
    { effectType: "invert", params: { intensity: 20 } },
  ],
  "blur default (intensity 15)": [{ effectType: "blur" }],
  "blur max (intensity 100)": [{ effectType: "blur", params: { intensity: 100 } }],
};

console.log(`CPU effects path in Node ${process.version}, ${w}x${h}, median of ${frames} after one warm-up`);
for (const [name, effects] of Object.entries(lists)) {
  fx.apply(effects);
  const times = [];
  for (let i = 0; i < frames; i++) {
    const t0 = performance.now();
    fx.apply(effects);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const out = fx.outputView();
  let check = 0;
  for (let i = 0; i < out.length; i += 997) check = (Math.imul(check, 31) + out[i]) >>> 0;
  console.log(`${name.padEnd(52)} ${times[frames >> 1].toFixed(2).padStart(7)} ms   check ${check.toString(16).padStart(8, "0")}`);
}
fx.free();
