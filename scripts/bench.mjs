#!/usr/bin/env node
// `npm run bench`: size and speed of the built package (dist/), in one Node process, each figure
// next to the baseline it is compared against. Medians of repeated runs after a warm-up.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";

import { printRows } from "./bench-common.mjs";

const root = new URL("..", import.meta.url);
const { createEditor, TICKS_PER_SECOND: TICKS } = await import(new URL("dist/index.js", root));

const OPENCUT_WASM_GZ = 1_104_724; // opencut-wasm 0.2.10, gzipped (GPU compositor included)
const SIZE_TARGET = 200 * 1024;

/** Median milliseconds of `fn` over `runs` runs (after `warmup` unmeasured ones). */
async function median(fn, { runs = 31, warmup = 5 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/** A project with `tracks` overlay tracks of `perTrack` one-second video elements each. */
function bigProject(tracks, perTrack) {
  const out = [{ id: "t0", type: "main", elements: [] }];
  let n = 1;
  for (let t = 0; t < tracks; t++) {
    const elements = [];
    for (let i = 0; i < perTrack; i++) {
      elements.push({ id: `e${n++}`, type: "video", name: "clip.mp4", start: i * TICKS, duration: TICKS, trimStart: 0, assetId: "a1" });
    }
    out.push({ id: `t${n++}`, type: "overlay", elements });
  }
  return {
    format: "neuralcut-project",
    version: 1,
    assets: [{ id: "a1", name: "clip.mp4", type: "video", duration: 3600 }],
    timeline: { tracks: out },
    nextId: n,
  };
}

const ms = (x) => (x >= 1 ? `${x.toFixed(2)} ms` : `${(x * 1000).toFixed(1)} µs`);
const rows = [];
function row(what, value, baseline, ratio, goal, met) {
  rows.push({ what, value, baseline, ratio, goal, met: met ? "yes" : "NO" });
}

// 1. Size of the engine wasm.
const wasm = readFileSync(new URL("dist/wasm/neuralcut_engine_bg.wasm", root));
const gz = gzipSync(wasm, { level: 9 }).length;
row(
  "engine+tools wasm, gzipped",
  `${gz.toLocaleString("en")} B (${wasm.length.toLocaleString("en")} raw)`,
  `opencut-wasm 0.2.10: ${OPENCUT_WASM_GZ.toLocaleString("en")} B`,
  `${((gz / OPENCUT_WASM_GZ) * 100).toFixed(1)}%`,
  "≤ 200 KB",
  gz <= SIZE_TARGET,
);

// 2. list_timeline on 10 000 elements vs JSON.parse(JSON.stringify(its own output)).
const editor = await createEditor({ project: bigProject(100, 100) });
const listing = await editor.callTool("list_timeline");
const count = listing.tracks.reduce((s, t) => s + t.elements.length, 0);
if (count !== 10_000) throw new Error(`expected 10 000 elements, got ${count}`);
const tList = await median(() => editor.callTool("list_timeline"));
const tCopy = await median(() => JSON.parse(JSON.stringify(listing)));
row(
  "list_timeline, 10 000 elements (callTool, parsed)",
  ms(tList),
  `JSON.parse(JSON.stringify(output)): ${ms(tCopy)}`,
  `${(tList / tCopy).toFixed(2)}×`,
  "≤ 3×",
  tList <= 3 * tCopy,
);

// 3. A split crossing 100 tracks, plus its undo, vs one structuredClone of the timeline.
const timeline = editor.project().timeline;
const tClone = await median(() => structuredClone(timeline));
const tSplit = await median(async () => {
  const r = await editor.callTool("split", { times: [50.5] });
  if (r.affectedElements?.length !== 100) throw new Error(`split: ${JSON.stringify(r).slice(0, 200)}`);
  editor.undo();
});
row("split across 100 tracks + undo", ms(tSplit), `structuredClone(timeline): ${ms(tClone)}`, `${(tSplit / tClone).toFixed(3)}×`, "< 1×", tSplit < tClone);

// 4. A one-element move, plus undo, vs a tenth of that clone.
const tMove = await median(
  async () => {
    const r = await editor.callTool("move_timeline_elements", { elementIds: ["e1"], start: 200 });
    if (r.success !== true) throw new Error(`move: ${JSON.stringify(r)}`);
    editor.undo();
  },
  { runs: 201, warmup: 20 },
);
row("move one element + undo", ms(tMove), `structuredClone(timeline): ${ms(tClone)}`, `${(tMove / tClone).toFixed(4)}×`, "< 0.1×", tMove < tClone / 10);

// 5. A split of one clip with 100 000 opacity keyframes, plus undo, vs the same split of a clip
// with none (what a split costs beyond its keys): a split must stay linear in the keys it cuts.
function keyedProject(keys) {
  const step = TICKS / 100;
  const animations = {
    opacity: { keys: Array.from({ length: keys }, (_, i) => ({ id: `k${i}`, time: i * step, value: i % 2, segmentToNext: "linear", tangentMode: "flat" })) },
  };
  const element = { id: "e1", type: "video", name: "clip.mp4", start: 0, duration: keys * step, trimStart: 0, assetId: "a1" };
  return {
    format: "neuralcut-project",
    version: 1,
    assets: [{ id: "a1", name: "clip.mp4", type: "video", duration: 3600 }],
    timeline: { tracks: [{ id: "t0", type: "main", elements: [keys ? { ...element, animations } : element] }] },
    nextId: 2,
  };
}
const splitKeyed = (ed, keys) => async () => {
  const r = await ed.callTool("split", { times: [keys / 200 + 0.005] });
  if (r.affectedElements?.length !== 1) throw new Error(`keyed split: ${JSON.stringify(r).slice(0, 200)}`);
  ed.undo();
};
const KEYS = 100_000;
const keyed = await createEditor({ project: keyedProject(KEYS) });
const bare = await createEditor({
  project: {
    ...keyedProject(0),
    timeline: { tracks: [{ id: "t0", type: "main", elements: [{ ...keyedProject(0).timeline.tracks[0].elements[0], duration: KEYS * (TICKS / 100) }] }] },
  },
});
const tKeyed = await median(splitKeyed(keyed, KEYS), { runs: 7, warmup: 1 });
const tBare = await median(splitKeyed(bare, KEYS), { runs: 31, warmup: 5 });
row(
  "split of a clip with 100 000 keyframes + undo",
  ms(tKeyed),
  `the same split without keys: ${ms(tBare)}`,
  `${(tKeyed / tBare).toFixed(0)}×`,
  "well under 1 s",
  tKeyed < 500,
);

// 6. A trivial call's round trip.
const small = await createEditor();
const tEffects = await median(() => small.callTool("list_effects"), { runs: 1001, warmup: 100 });
row("list_effects round trip (callTool)", ms(tEffects), "—", "—", "µs, reported", tEffects < 1);

// 7. detect_silences' meter (src/silence.rs, the engine's wasm) over an hour of 48 kHz mono,
// pushed a second at a time as the page's decoder hands it over, vs reading the same samples in
// JS (a sum of squares): the compute a page spends beyond decoding.
const { SilenceMeter } = await import(new URL("dist/wasm/neuralcut_engine.js", root));
const RATE = 48_000;
const second = Float32Array.from({ length: RATE }, (_, i) => (i < RATE / 2 ? 0.5 * Math.sin((2 * Math.PI * 440 * i) / RATE) : 0));
const HOUR = 3600;
const tMeter = await median(
  () => {
    const m = new SilenceMeter(RATE, 1, -40);
    for (let s = 0; s < HOUR; s++) m.push(second);
    const found = m.silences(0.4).length / 2; // [start, end, …]
    m.free();
    if (found !== HOUR) throw new Error(`meter: ${found} silences`);
  },
  { runs: 5, warmup: 1 },
);
const tRead = await median(
  () => {
    let sum = 0;
    for (let s = 0; s < HOUR; s++) for (let i = 0; i < RATE; i++) sum += second[i] * second[i];
    if (!(sum > 0)) throw new Error("read");
  },
  { runs: 5, warmup: 1 },
);
row(
  "detect_silences meter, 1 h of 48 kHz mono",
  `${ms(tMeter)} (${Math.round((HOUR * 1000) / tMeter)}× real time)`,
  `a JS sum of squares: ${ms(tRead)}`,
  `${(tMeter / tRead).toFixed(2)}×`,
  "< 2 s, ≥ 500× real time",
  tMeter < 2000 && (HOUR * 1000) / tMeter >= 500,
);

// 8. The whole tool in Node on a 10-minute 48 kHz 16-bit WAV: mediabunny's PCM decoding plus the
// meter, as `neuralcut mcp` runs it.
{
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { detectSilencesTool } = await import(new URL("dist/detect-silences.js", root));
  const { fileMedia } = await import(new URL("dist/media/target.js", root));
  const dir = mkdtempSync(join(tmpdir(), "nc-bench-"));
  const MINUTES = 10;
  const pcm = Buffer.alloc(RATE * 60 * MINUTES * 2);
  for (let i = 0; i < RATE * 60 * MINUTES; i++) pcm.writeInt16LE(Math.round(second[i % RATE] * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(pcm.length, 40);
  const wav = join(dir, "ten-minutes.wav");
  writeFileSync(wav, Buffer.concat([header, pcm]));
  const ed = await createEditor();
  ed.addAsset({ id: "wav", name: "ten-minutes.wav", type: "audio", duration: MINUTES * 60 });
  const tool = detectSilencesTool(
    ed,
    fileMedia(() => wav),
  );
  const tTool = await median(
    async () => {
      const out = await tool.call({ assetId: "wav", minDuration: 0.4 });
      if (out.silences?.length !== MINUTES * 60) throw new Error(`tool: ${JSON.stringify(out).slice(0, 200)}`);
    },
    { runs: 3, warmup: 1 },
  );
  rmSync(dir, { recursive: true, force: true });
  row(
    "detect_silences tool, 10 min 48 kHz WAV (Node)",
    `${ms(tTool)} (${Math.round((MINUTES * 60 * 1000) / tTool)}× real time)`,
    `the meter alone, pro rata: ${ms((tMeter * MINUTES * 60) / HOUR)}`,
    `${(tTool / ((tMeter * MINUTES * 60) / HOUR)).toFixed(1)}×`,
    "reported",
    true,
  );
}

console.log(`NeuralCut bench (Node ${process.version}, ${new Date().toISOString()})\n`);
printRows(rows);
