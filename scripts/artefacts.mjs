// The wasm modules built from this crate, one entry each: scripts/build.mjs builds them and
// scripts/bench-effects.mjs builds the WebGPU-only variant of the effects module with the same
// flags. Kept apart from build.mjs because importing that one runs the build.
// A further module is one more entry; its glue lands in dist/wasm/<outName>.js for js/ to import.
// optLevel overrides the release profile's opt-level for that module ("z": smallest; the engine
// measured 190 KB gzipped with "z" against 210 KB with "s"; the bench goals still hold widely).
// wasmOpt overrides wasm-opt's passes (default ["-Oz"]): --converge repeats them while the
// module still shrinks (the engine: 1.4 KB gzipped less). --low-memory-unused lets wasm-opt fold
// constant offsets into loads and stores, which is sound when nothing lives in the first KB of
// memory: Rust's wasm32 linker puts the stack first (the stack pointer starts at 1 MiB and grows
// down; data from 1 MiB up), so only a stack within 1 KB of overflowing reaches it (measured:
// engine -1,069 B, effects -580 B, media -107 B gzipped).
const OPT = ["-Oz", "--low-memory-unused"];
export const ARTEFACTS = [
  // The engine's glue exports __wbg_reset_state: after a panic js/engine.ts re-instantiates the
  // module with it and replays the editors' committed changes.
  {
    outName: "neuralcut_engine",
    features: ["engine"],
    optLevel: "z",
    wasmOpt: [...OPT, "--converge"],
    bindgenFlags: ["--experimental-reset-state-function"],
    what: "timeline engine and agent tools",
  },
  // The meters of detect_silences and detect_scenes (src/silence.rs, src/scenes.rs): loaded by
  // those two tools on first use, never by a page that does not measure media.
  {
    outName: "neuralcut_media",
    features: ["media"],
    optLevel: "z",
    wasmOpt: [...OPT, "--converge"],
    what: "media meters (detect_silences, detect_scenes)",
  },
  // wasm SIMD for the effects module only: its CPU path (backend "cpu", src/effects/fast.rs) is
  // written to vectorise (docs/effects.md has the figures with and without). Every browser with
  // WebGPU or WebGL2 has had wasm SIMD since 2021.
  {
    outName: "neuralcut_effects",
    features: ["effects-webgl"],
    rustflags: "-C target-feature=+simd128",
    wasmOpt: OPT,
    what: "GPU effects, WebGPU + WebGL2, and the CPU path (neuralcut/effects)",
  },
];
