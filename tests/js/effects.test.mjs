// neuralcut/effects in headless Chromium, once on WebGPU (SwiftShader), once on WebGL2 and once
// on the CPU path (backend "cpu", which must match the reference exactly wherever the Rust
// tests prove it byte-identical: per-pixel effects and full-size blurs):
// every effect at its default and edge parameters, rendered, read back and compared with the
// CPU reference image (applyEffectsCpu, the same Rust reference the native GPU tests use; its
// kernel is pinned by tests/blur_kernel.rs). Tolerances as in docs/effects.md: per-pixel effects
// max |Δ| ≤ 2/255, blur mean |Δ| ≤ 1/255 and max |Δ| ≤ 2/255 (12/255 at reduced size); on
// "cpu" every comparison is exact (0) but a blur at reduced size (mean 1/255, max 12/255). Sources:
// ImageData, canvases, ImageBitmap, VideoFrame, HTMLImageElement and HTMLVideoElement;
// readPixels of regions, and regions outside the frame.
//
// Needs `npm run build` first (dist/effects.js). NEURALCUT_DIST points at another build.
import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { WEBGPU_FLAGS, serveDir } from "./browser.mjs";
import { CHROMIUM_FLAGS } from "../../dist/render-headless.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
// A real video source: the demo's sample clip (demo/media/README.md), handed to the page as bytes.
const videoBase64 = readFileSync(join(root, "demo", "media", "clip.webm")).toString("base64");

/** Headless Debian Chromium with the flags of shared/environment.md (playwright makes the profile). */
export function launchChromium(extra = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [...CHROMIUM_FLAGS, "--disable-quic", ...extra],
  });
}

/** Parameter cases per effect: defaults, each parameter at min and max, all at min / max. */
const RANGES = {
  blur: { intensity: [0, 100] },
  "brightness-contrast": { brightness: [-1, 1], contrast: [0, 3] },
  grayscale: { intensity: [0, 100] },
  saturation: { saturation: [0, 300] },
  sepia: { intensity: [0, 100] },
  invert: { intensity: [0, 100] },
  vignette: { radius: [10, 100], softness: [5, 80] },
};

function cases() {
  const out = [];
  for (const [effectType, params] of Object.entries(RANGES)) {
    out.push({ effectType, params: {} });
    const keys = Object.keys(params);
    for (const k of keys) for (const v of params[k]) out.push({ effectType, params: { [k]: v } });
    if (keys.length > 1) for (const i of [0, 1]) out.push({ effectType, params: Object.fromEntries(keys.map((k) => [k, params[k][i]])) });
  }
  return out;
}

/** Runs in the page: renders every case from several source kinds and measures the differences. */
async function runInPage({ moduleUrl, backend, cases, videoBase64 }) {
  const fx = await import(moduleUrl);
  const { NeuralCutError } = await import(new URL("errors.js", moduleUrl).href);
  const r = await fx.createEffectRenderer({ backend });
  const W = 160,
    H = 90;
  const data = new Uint8ClampedArray(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4;
      const checker = ((x >> 3) + (y >> 3)) & 1;
      data[i] = y < H / 2 ? (x * 255) / (W - 1) : checker ? 250 : 12;
      data[i + 1] = y < H / 2 ? (y * 255) / (H / 2) : checker ? 245 : 30;
      data[i + 2] = y < H / 2 ? 255 - (x * 255) / (W - 1) : (x * 37 + y * 11) & 255;
      data[i + 3] = 255;
    }
  const image = new ImageData(data, W, H);
  const diff = (a, b) => {
    let max = 0,
      sum = 0;
    for (let i = 0; i < a.length; i++) {
      const d = Math.abs(a[i] - b[i]);
      if (d > max) max = d;
      sum += d;
    }
    return { max, mean: sum / a.length };
  };
  const results = [];
  for (const e of cases) {
    r.render({ source: image, width: W, height: H, effects: [e] });
    const got = await r.readPixels();
    const want = await fx.applyEffectsCpu(data, W, H, [e]);
    results.push({ effect: e, ...diff(got, want), changed: diff(want, data).max > 0, gpuChanged: diff(got, data).max > 0 });
  }

  // Every kind of source gives the same picture.
  const canvas = document.createElement("canvas");
  canvas.width = W;
  canvas.height = H;
  canvas.getContext("2d").putImageData(image, 0, 0);
  const offscreen = new OffscreenCanvas(W, H);
  offscreen.getContext("2d").putImageData(image, 0, 0);
  const bitmap = await createImageBitmap(image);
  const frame = new VideoFrame(canvas, { timestamp: 0 });
  const stack = [{ effectType: "sepia", params: { intensity: 80 } }, { effectType: "blur", params: { intensity: 60 } }, { effectType: "vignette" }];
  const wantStack = await fx.applyEffectsCpu(data, W, H, stack);
  const sources = {};
  // Both upload routes: `r` uploads as "auto" chose (pixels on a software adapter), `copy`
  // takes the other route.
  const copy = await fx.createEffectRenderer({ backend, upload: r.upload === "pixels" ? "copy" : "pixels" });
  const uploads = { auto: r.upload, other: copy.upload, software: r.software, reason: r.backendReason };
  const otherRoute = {};
  for (const [name, source] of Object.entries({
    ImageData: image,
    HTMLCanvasElement: canvas,
    OffscreenCanvas: offscreen,
    ImageBitmap: bitmap,
    VideoFrame: frame,
  })) {
    r.render({ source, width: W, height: H, effects: stack });
    sources[name] = diff(await r.readPixels(), wantStack);
    copy.render({ source, width: W, height: H, effects: stack });
    otherRoute[name] = diff(await copy.readPixels(), wantStack);
  }
  copy.destroy();
  frame.close();

  // An HTMLImageElement (a lossless PNG of the same picture) gives the same picture too.
  const png = await offscreen.convertToBlob({ type: "image/png" });
  const img = new Image();
  img.src = URL.createObjectURL(png);
  await img.decode();
  r.render({ source: img, width: W, height: H, effects: stack });
  sources.HTMLImageElement = diff(await r.readPixels(), wantStack);

  // An HTMLVideoElement: a decoded frame of demo/media/clip.webm. A video frame is not the test
  // picture, so the reference is computed from the same frame drawn to a 2D canvas.
  const video = document.createElement("video");
  video.muted = true;
  video.src = URL.createObjectURL(new Blob([Uint8Array.from(atob(videoBase64), (c) => c.charCodeAt(0))], { type: "video/webm" }));
  await new Promise((resolve, reject) => {
    video.onloadeddata = resolve;
    video.onerror = () => reject(new Error("the test video does not load"));
  });
  video.currentTime = 1;
  await new Promise((resolve) => (video.onseeked = resolve));
  const vw = video.videoWidth,
    vh = video.videoHeight;
  const still = new OffscreenCanvas(vw, vh);
  const stillCtx = still.getContext("2d");
  stillCtx.drawImage(video, 0, 0);
  const videoPixels = stillCtx.getImageData(0, 0, vw, vh).data;
  const videoStack = [
    { effectType: "invert", params: { intensity: 100 } },
    { effectType: "sepia", params: { intensity: 50 } },
  ];
  r.render({ source: video, width: vw, height: vh, effects: videoStack });
  const videoGot = await r.readPixels();
  const video_ = { size: [vw, vh], ...diff(videoGot, await fx.applyEffectsCpu(videoPixels, vw, vh, videoStack)), changed: diff(videoGot, videoPixels).max > 0 };
  // Part of the frame: a 120x90 source region of a larger video, read from its top-left corner.
  r.render({ source: video, width: 120, height: 90, effects: [] });
  const corner = await r.readPixels();
  const wantCorner = new Uint8ClampedArray(120 * 90 * 4);
  for (let y = 0; y < 90; y++) wantCorner.set(videoPixels.subarray(y * vw * 4, (y * vw + 120) * 4), y * 120 * 4);
  // Whether the read came back empty (all zero): then the browser drew no frame of the video, and
  // the failure says so (seen once, on a loaded machine, not reproduced).
  video_.corner = { ...diff(corner, wantCorner), empty: corner.every((v) => v === 0) };

  // readPixels of a region equals that region of the whole frame; regions outside it throw.
  r.render({ source: image, width: W, height: H, effects: stack });
  const whole = await r.readPixels();
  const regions = [];
  for (const [x, y, w, h] of [
    [0, 0, W, H],
    [10, 20, 33, 17],
    [W - 1, H - 1, 1, 1],
    [0, H - 5, W, 5],
    [W - 7, 0, 7, H],
  ]) {
    const part = await r.readPixels({ x, y, width: w, height: h });
    let mismatch = part.length !== w * h * 4;
    for (let row = 0; row < h && !mismatch; row++) {
      for (let i = 0; i < w * 4; i++) {
        if (part[row * w * 4 + i] !== whole[((y + row) * W + x) * 4 + i]) {
          mismatch = true;
          break;
        }
      }
    }
    regions.push({ region: [x, y, w, h], mismatch });
  }
  const badRegions = [];
  for (const region of [
    { x: W, y: 0, width: 1, height: 1 },
    { x: 0, y: 0, width: W + 1, height: 1 },
    { x: 1, y: 1, width: W, height: H },
    { x: 0, y: 0, width: 0, height: 1 },
    { x: -1, y: 0, width: 1, height: 1 },
    { x: 2 ** 32 - 1, y: 0, width: 1, height: 1 },
    { x: 0, y: 2 ** 32 - 2, width: 1, height: 3 },
    { x: 0.5, y: 0, width: 1, height: 1 },
  ]) {
    try {
      await r.readPixels(region);
      badRegions.push(`${JSON.stringify(region)}: read`);
    } catch (e) {
      badRegions.push(e instanceof NeuralCutError ? e.code : `${JSON.stringify(region)}: threw ${e?.name} without a code`);
    }
  }

  // Errors name the problem and draw nothing.
  r.render({ source: image, width: W, height: H, effects: [{ effectType: "invert" }] });
  const before = await r.readPixels();
  const errors = [];
  for (const effects of [
    [{ effectType: "glow" }],
    [{ effectType: "blur", params: { intensity: 101 } }],
    [{ effectType: "blur", params: { radius: 3 } }],
    [{ effectType: "sepia" }, { effectType: "vignette", params: { softness: "x" } }],
  ]) {
    try {
      r.render({ source: image, width: W, height: H, effects });
      errors.push(null);
    } catch (e) {
      errors.push(`${e instanceof NeuralCutError}:${e.code}:${e.message}`);
    }
  }
  // The frame's own problems carry the same codes on every backend.
  const codeOf = async (f) => {
    try {
      await f();
      return null;
    } catch (e) {
      return e.code ?? `no code: ${e.message}`;
    }
  };
  const fresh = await fx.createEffectRenderer({ backend });
  const codes = {
    small: await codeOf(() => r.render({ source: new ImageData(2, 2), width: W, height: H, effects: [] })),
    huge: await codeOf(() => r.render({ source: image, width: r.maxSize + 1, height: H, effects: [] })),
    zero: await codeOf(() => r.render({ source: image, width: 0, height: H, effects: [] })),
    unrendered: await codeOf(() => fresh.readPixels()),
  };
  fresh.destroy();
  const untouched = diff(await r.readPixels(), before).max === 0;

  // No source: new effects on the frame already on the GPU.
  r.render({ source: image, width: W, height: H, effects: [{ effectType: "invert" }] });
  r.render({ width: W, height: H, effects: [{ effectType: "sepia", params: { intensity: 60 } }] });
  const reuse = diff(await r.readPixels(), await fx.applyEffectsCpu(data, W, H, [{ effectType: "sepia", params: { intensity: 60 } }]));
  let reuseOtherSize = null;
  try {
    r.render({ width: W + 1, height: H, effects: [] });
  } catch (e) {
    reuseOtherSize = `${e.code}: ${e.message}`;
  }

  // Resizing, down and up to 4K (beyond WebGL2's default 2048 limit).
  const sizes = [];
  // 800x450 at blur 100 (sigma 8.3 px on both axes) takes the blur's reduced-size path; 90x160
  // at 100 blurs 0.9 px across and 3 px down (OpenCut's sigmas follow each side).
  const strong = (w) => w === 800 || w === 90;
  for (const [w, h] of [
    [64, 48],
    [3840, 2160],
    [800, 450],
    [90, 160],
    [W, H],
  ]) {
    const big = new ImageData(w, h);
    for (let i = 0; i < big.data.length; i += 4) {
      const p = i / 4,
        x = p % w,
        y = Math.floor(p / w);
      big.data[i] = (x * 255) / w;
      big.data[i + 1] = (y * 255) / h;
      big.data[i + 2] = ((x >> 5) + (y >> 5)) & 1 ? 220 : 40;
      big.data[i + 3] = 255;
    }
    const fxs = [
      { effectType: "blur", params: { intensity: strong(w) ? 100 : 10 } },
      { effectType: "invert", params: { intensity: 70 } },
      { effectType: "vignette" },
    ];
    r.render({ source: big, width: w, height: h, effects: fxs });
    const got = await r.readPixels();
    const want = await fx.applyEffectsCpu(big.data, w, h, fxs);
    sizes.push({ w, h, intensity: fxs[0].params.intensity, ...diff(got, want) });
  }

  // A renderer that shows frames on a canvas: the canvas follows the frame size. (Chromium's
  // SwiftShader WebGPU breaks buffer mapping on a device once it has drawn to a canvas, so the
  // comparisons above use a headless renderer; on WebGL2 the shown frame is read back too.)
  const canvasEl = document.createElement("canvas");
  const shown = await fx.createEffectRenderer({ backend, canvas: canvasEl });
  const shownSizes = [];
  for (const [w, h] of [
    [W, H],
    [64, 48],
  ]) {
    shown.render({ source: image, width: w, height: h, effects: stack });
    shownSizes.push([canvasEl.width, canvasEl.height]);
  }
  const shownCanvas = shown.canvas === canvasEl;
  let shownDiff = null;
  if (backend !== "webgpu") {
    shown.render({ source: image, width: W, height: H, effects: stack });
    shownDiff = diff(await shown.readPixels(), wantStack);
    // What the canvas shows is the result itself.
    if (backend === "cpu") shownDiff.canvas = diff(canvasEl.getContext("2d").getImageData(0, 0, W, H).data, await shown.readPixels()).max;
  }
  shown.destroy();
  // A destroyed headless renderer gives its WebGL2 context back at once: a page may hold only a
  // few (Chromium: 16) and beyond that the browser takes the oldest, here the live renderer's.
  let manyRenderers = null;
  if (backend === "webgl2") {
    for (let i = 0; i < 24; i++) {
      const brief = await fx.createEffectRenderer({ backend });
      brief.render({ source: image, width: W, height: H, effects: [{ effectType: "invert" }] });
      brief.destroy();
    }
    r.render({ source: image, width: W, height: H, effects: stack });
    manyRenderers = diff(await r.readPixels(), wantStack);
  }
  // The CPU path in a worker, without a canvas: an ImageData and an OffscreenCanvas source.
  let worker = null;
  if (backend === "cpu") {
    const code = `const fx = await import(${JSON.stringify(moduleUrl)});
      onmessage = async ({ data: { pixels, w, h, effects } }) => {
        const r = await fx.createEffectRenderer({ backend: "cpu" });
        r.render({ source: new ImageData(new Uint8ClampedArray(pixels), w, h), width: w, height: h, effects });
        const a = await r.readPixels();
        const c = new OffscreenCanvas(w, h);
        c.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(pixels), w, h), 0, 0);
        r.render({ source: c, width: w, height: h, effects });
        const b = await r.readPixels();
        postMessage({ a, b, backend: r.backend, canvas: r.canvas === undefined });
      };
      postMessage("ready");`;
    const w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })), { type: "module" });
    const reply = new Promise((resolve, reject) => {
      w.onerror = (e) => reject(new Error(`worker: ${e.message}`));
      w.onmessage = ({ data }) => (data === "ready" ? w.postMessage({ pixels: data_.slice(), w: W, h: H, effects: stack }) : resolve(data));
    });
    const data_ = data;
    const got = await reply;
    w.terminate();
    worker = { imageData: diff(got.a, wantStack), canvas: diff(got.b, wantStack), backend: got.backend, headless: got.canvas };
  }
  // Fused per-pixel runs through the SIMD build's strips of 64 pixels: widths that end in a
  // part strip and in one to three pixels past the last block of four, and every per-pixel
  // effect in one run, must give the reference's bytes exactly.
  let fused = null;
  if (backend === "cpu") {
    const run = [
      { effectType: "brightness-contrast", params: { brightness: 0.2, contrast: 1.5 } },
      { effectType: "saturation", params: { saturation: 170 } },
      { effectType: "grayscale", params: { intensity: 35 } },
      { effectType: "sepia", params: { intensity: 60 } },
      { effectType: "vignette", params: { radius: 30, softness: 40 } },
      { effectType: "invert", params: { intensity: 15 } },
    ];
    const r = await fx.createEffectRenderer({ backend: "cpu" });
    fused = [];
    for (const [w, h] of [
      [203, 7],
      [65, 3],
      [3, 5],
      [128, 2],
    ]) {
      const px = new Uint8ClampedArray(w * h * 4);
      for (let i = 0; i < px.length; i++) px[i] = (Math.imul(i + 1, 2654435761) >>> 24) ^ i;
      for (const effects of [run, run.slice(1, 4), run.slice(4)]) {
        const want = await fx.applyEffectsCpu(px, w, h, effects);
        r.render({ source: new ImageData(px.slice(), w, h), width: w, height: h, effects });
        fused.push({ w, h, n: effects.length, max: diff(await r.readPixels(), want).max });
      }
    }
    r.destroy();
  }
  // Two CPU renderers back to back: the second one's 4K frame grows wasm memory while the first
  // one's copy into it (VideoFrame.copyTo, awaited) is under way, which empties the first one's
  // view; it must still get its picture.
  let grown = null;
  if (backend === "cpu") {
    const a = await fx.createEffectRenderer({ backend: "cpu" });
    const b = await fx.createEffectRenderer({ backend: "cpu" });
    const small = new OffscreenCanvas(W, H);
    small.getContext("2d").putImageData(image, 0, 0);
    const big = new OffscreenCanvas(3840, 2160);
    big.getContext("2d").drawImage(small, 0, 0, 3840, 2160);
    a.render({ source: small, width: W, height: H, effects: stack });
    b.render({ source: big, width: 3840, height: 2160, effects: [{ effectType: "invert" }] });
    grown = diff(await a.readPixels(), wantStack);
    await b.readPixels({ x: 0, y: 0, width: 1, height: 1 });
    a.destroy();
    b.destroy();
  }
  const result = {
    codes,
    grown,
    fused,
    manyRenderers,
    worker,
    uploads,
    otherRoute,
    backend: r.backend,
    maxSize: r.maxSize,
    headlessCanvas: r.canvas === undefined,
    results,
    sources,
    video: video_,
    regions,
    badRegions,
    errors,
    untouched,
    reuse,
    reuseOtherSize,
    sizes,
    shownSizes,
    shownCanvas,
    shownDiff,
  };
  r.destroy();
  let destroyed = false;
  try {
    r.render({ source: image, width: W, height: H, effects: [] });
  } catch (e) {
    // One error family: a NeuralCutError with a stable code, not a bare Error.
    destroyed = e.name === "NeuralCutError" && e.code === "RENDERER_DESTROYED";
  }
  return { ...result, destroyed };
}

/** Whether a blur of `intensity` on a w×h frame may be rendered at a reduced size, by the
 * sigmas alone (OpenCut's: intensity / 5 at 1920×1080, scaled with each side) and the threshold
 * docs/effects.md states: full size while both are under 2.58 px (level 1 needs a remaining
 * sigma of 1.2 px: σ² ≥ 4 · 1.2² + 11/12). Never the renderer's own choice. */
function reducedBlur(intensity, w, h) {
  return Math.max((intensity / 5) * (w / 1920), (intensity / 5) * (h / 1080)) >= 2.58;
}

/** The bound on one comparison with the reference: on "cpu" none (byte for byte), except a blur
 * at reduced size, which the CPU path approximates as the GPU does (a pyramid, not the
 * reference's full Gaussian: mean 1/255, max 12/255, docs/effects.md); on a GPU backend a stack
 * with a blur, mean 1/255 and max 8/255. */
function within(d, backend, label, reduced = false) {
  if (backend === "cpu" && !reduced) assert.equal(d.max, 0, `${label}: the CPU path differs from the reference: max |Δ| ${d.max}, mean ${d.mean.toFixed(3)}`);
  else {
    const max = backend === "cpu" ? 12 : 8;
    assert.ok(d.mean <= 1 && d.max <= max, `${label}: max |Δ| ${d.max} (bound ${max}), mean ${d.mean.toFixed(3)}`);
  }
}

function check(out, backend) {
  assert.equal(out.backend, backend, "backend reports the one used");
  assert.ok(out.maxSize >= 3840, `max size ${out.maxSize} allows 4K`);
  assert.equal(out.results.length, 29);
  for (const r of out.results) {
    const label = JSON.stringify(r.effect);
    if (backend === "cpu") {
      // Per-pixel effects, and blurs at full size (every intensity on this frame), exactly.
      assert.equal(r.max, 0, `${label}: the CPU path differs from the reference by ${r.max}/255`);
    } else if (r.effect.effectType === "blur") {
      // docs/effects.md: mean 1/255; max 2/255 at full size (sigma under 2.6 px, which is every
      // intensity on this 160×90 frame: at most 1.7 px), 12/255 where the GPU blurs at a reduced
      // size.
      const max = reducedBlur(r.effect.params.intensity ?? 15, 160, 90) ? 12 : 2;
      assert.ok(r.mean <= 1, `${label}: mean |Δ| ${r.mean.toFixed(3)} > 1/255`);
      assert.ok(r.max <= max, `${label}: max |Δ| ${r.max} > ${max}/255`);
    } else assert.ok(r.max <= 2, `${label}: max |Δ| ${r.max} > 2/255`);
    if (r.changed) assert.ok(r.gpuChanged, `${label} changed nothing on the GPU`);
  }
  assert.deepEqual(Object.keys(out.sources).sort(), ["HTMLCanvasElement", "HTMLImageElement", "ImageBitmap", "ImageData", "OffscreenCanvas", "VideoFrame"]);
  // The sources' stack blurs 1 px on 160×90: full size, so exact on "cpu".
  assert.deepEqual(Object.keys(out.otherRoute).sort(), ["HTMLCanvasElement", "ImageBitmap", "ImageData", "OffscreenCanvas", "VideoFrame"]);
  for (const [name, d] of Object.entries(out.sources)) within(d, backend, `source ${name}`);
  for (const [name, d] of Object.entries(out.otherRoute)) within(d, backend, `source ${name}, upload "${out.uploads.other}"`);
  // Chromium here runs both backends on SwiftShader: a software adapter, so pixels are uploaded.
  // The CPU path always reads pixels.
  const other = backend === "cpu" ? "pixels" : "copy";
  assert.deepEqual(out.uploads, { auto: "pixels", other, software: true, reason: "requested" }, "upload route on a software adapter");
  assert.deepEqual(out.video.size, [480, 270], "the test video's frame size");
  assert.ok(out.video.changed, "the video frame was rendered with its effects");
  const pixelMax = backend === "cpu" ? 0 : 2;
  assert.ok(out.video.max <= pixelMax, `video source: max |Δ| ${out.video.max} > ${pixelMax}/255 (mean ${out.video.mean.toFixed(3)})`);
  assert.ok(
    out.video.corner.max <= pixelMax,
    `video source, top-left 120x90: max |Δ| ${out.video.corner.max} > ${pixelMax}/255 (mean ${out.video.corner.mean.toFixed(3)}, all zero: ${out.video.corner.empty})`,
  );
  for (const r of out.regions) assert.equal(r.mismatch, false, `readPixels region ${r.region} differs from the whole frame`);
  assert.deepEqual(out.badRegions, Array(out.badRegions.length).fill("INVALID_OPTIONS"), "regions outside the frame are refused with a NeuralCutError");
  assert.match(out.errors[0], /^true:INVALID_EFFECT_LIST:.*"glow"/);
  assert.match(out.errors[1], /^true:INVALID_EFFECT_LIST:.*"intensity".*maximum 100/);
  assert.match(out.errors[2], /^true:INVALID_EFFECT_LIST:.*unknown parameter "radius".*intensity/);
  assert.match(out.errors[3], /^true:INVALID_EFFECT_LIST:effects\[1\].*"vignette".*"softness"/);
  assert.deepEqual(
    out.codes,
    { small: "SOURCE_TOO_SMALL", huge: "INVALID_OPTIONS", zero: "INVALID_OPTIONS", unrendered: "NOTHING_RENDERED" },
    `${backend}: error codes`,
  );
  assert.ok(out.untouched, "a refused render draws nothing");
  assert.ok(out.reuse.max <= pixelMax, `re-rendering the frame already there: max |Δ| ${out.reuse.max} > ${pixelMax}/255`);
  assert.match(out.reuseOtherSize ?? "", /^INVALID_OPTIONS: no source given/);
  assert.ok(out.headlessCanvas, "no canvas given: headless");
  assert.ok(out.shownCanvas, "renderer.canvas is the canvas given");
  assert.deepEqual(
    out.shownSizes,
    [
      [160, 90],
      [64, 48],
    ],
    "the canvas follows the frame size",
  );
  if (backend !== "webgpu") within(out.shownDiff, backend, "shown frame");
  if (backend === "cpu") {
    assert.equal(out.shownDiff.canvas, 0, "the canvas shows the CPU path's result");
    assert.equal(out.fused.length, 12);
    for (const f of out.fused) assert.equal(f.max, 0, `a fused run of ${f.n} on ${f.w}x${f.h} differs from the reference: ${JSON.stringify(f)}`);
    within(out.grown, backend, "a copy under way while memory grew");
    assert.equal(out.worker.backend, "cpu");
    assert.ok(out.worker.headless, "no canvas in the worker");
    within(out.worker.imageData, backend, "worker, ImageData source");
    within(out.worker.canvas, backend, "worker, OffscreenCanvas source");
  }
  if (backend === "webgl2") within(out.manyRenderers, backend, "after 24 renderers made and destroyed");
  // Resizing: blur 100 on 800×450 and 90×160, blur 10 at 4K (σ 4 px) are reduced; 64×48 and
  // 160×90 (blur 10) are full size, so exact on "cpu".
  assert.deepEqual(
    out.sizes.map((s) => [s.w, s.h, reducedBlur(s.intensity, s.w, s.h)]),
    [
      [64, 48, false],
      [3840, 2160, true],
      [800, 450, true],
      [90, 160, true],
      [160, 90, false],
    ],
  );
  for (const s of out.sizes) within(s, backend, `${s.w}x${s.h}, blur ${s.intensity}`, reducedBlur(s.intensity, s.w, s.h));
  assert.ok(out.destroyed, "render after destroy throws a NeuralCutError RENDERER_DESTROYED");
}

describe("neuralcut/effects in Chromium", { timeout: 600_000 }, () => {
  let server;
  before(async () => {
    assert.ok(existsSync(join(dist, "effects.js")), `${dist}/effects.js is missing: run npm run build`);
    server = await serveDir(dist);
  });
  after(() => server?.close());

  test("auto takes the CPU path where no GPU opens, and says why", async () => {
    // No GPU and no software rasteriser (so no WebGL), WebGPU off: neither backend opens.
    const browser = await launchChromium(["--disable-gpu", "--disable-software-rasterizer", "--disable-features=WebGPU"]);
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/effects.js`);
      const out = await page.evaluate(async (url) => {
        const fx = await import(url);
        const r = await fx.createEffectRenderer();
        const data = new Uint8ClampedArray(40 * 30 * 4).map((_, i) => (i * 29) & 255);
        const effects = [{ effectType: "sepia" }, { effectType: "blur", params: { intensity: 100 } }];
        r.render({ source: new ImageData(data, 40, 30), width: 40, height: 30, effects });
        const got = await r.readPixels();
        const want = await fx.applyEffectsCpu(data, 40, 30, effects);
        const same = got.every((v, i) => v === want[i]);
        // What the module refuses, each a NeuralCutError with its code (hostile inputs included).
        const { NeuralCutError } = await import(new URL("errors.js", url).href);
        const codeOf = async (f) => {
          try {
            await f();
            return "no error";
          } catch (e) {
            return e instanceof NeuralCutError ? e.code : `${e?.name}: ${e?.message}`;
          }
        };
        const refused = {
          webgpu: await codeOf(() => fx.createEffectRenderer({ backend: "webgpu" })),
          webgl2: await codeOf(() => fx.createEffectRenderer({ backend: "webgl2" })),
          notCanvas: await codeOf(() => fx.createEffectRenderer({ backend: "webgl2", canvas: {} })),
          validate: await codeOf(() => fx.validateEffects([{ effectType: "glow" }])),
          notList: await codeOf(() => fx.validateEffects("blur")),
          cpuEffects: await codeOf(() => fx.applyEffectsCpu(data, 40, 30, [{ effectType: "blur", params: { intensity: -1 } }])),
          cpuPixels: await codeOf(() => fx.applyEffectsCpu(data, 41, 30, [])),
          cpuRender: await codeOf(() => r.render({ source: new ImageData(data, 40, 30), width: 40, height: 30, effects: [{ effectType: "__proto__" }] })),
          region: await codeOf(() => r.readPixels({ x: 39, y: 0, width: 2, height: 1 })),
        };
        return { backend: r.backend, reason: r.backendReason, probe: await fx.probeAdapters(), same, refused };
      }, `${server.url}/effects.js`);
      assert.deepEqual(out.refused, {
        webgpu: "NO_GPU",
        webgl2: "NO_GPU",
        notCanvas: "INVALID_OPTIONS",
        validate: "INVALID_EFFECT_LIST",
        notList: "INVALID_EFFECT_LIST",
        cpuEffects: "INVALID_EFFECT_LIST",
        cpuPixels: "INVALID_OPTIONS",
        cpuRender: "INVALID_EFFECT_LIST",
        region: "INVALID_OPTIONS",
      });
      assert.equal(out.probe.webgpu.available || out.probe.webgl2.available, false, JSON.stringify(out.probe));
      assert.equal(out.backend, "cpu");
      assert.match(out.reason, /^no GPU opened \(.+; .+\)$/);
      assert.ok(out.same, "the CPU path renders the reference's pixels");
    } finally {
      await browser.close();
    }
  });

  // "cpu" runs in a browser with WebGPU disabled, whose only software adapter is WebGL2.
  for (const [backend, flags] of [
    ["webgpu", WEBGPU_FLAGS],
    ["webgl2", []],
    ["cpu", ["--disable-features=WebGPU"]],
  ]) {
    test(`every effect on ${backend} matches the CPU reference`, async () => {
      const browser = await launchChromium(flags);
      try {
        const page = await browser.newPage();
        const consoleErrors = [];
        page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && consoleErrors.push(m.text()));
        after(() => consoleErrors.length && console.log(`# ${backend} console errors:\n${consoleErrors.join("\n")}`));
        await page.goto(`${server.url}/effects.js`); // any page of the origin; the module is imported below
        // "auto" picks this backend in this browser (asked first: SwiftShader's WebGPU may refuse
        // new adapters once a canvas was drawn on).
        // Here WebGPU (when enabled) and WebGL2 are both SwiftShader, a software adapter: "auto"
        // takes SOFTWARE_BACKEND where it opens, and says why.
        const auto = await page.evaluate(async (url) => {
          const fx = await import(url);
          const r = await fx.createEffectRenderer();
          const out = {
            backend: r.backend,
            reason: r.backendReason,
            software: r.software,
            upload: r.upload,
            probe: await fx.probeAdapters(),
            preferred: fx.SOFTWARE_BACKEND,
          };
          r.destroy();
          return out;
        }, `${server.url}/effects.js`);
        // The CPU path measured fastest on a software adapter (docs/effects.md).
        assert.equal(auto.preferred, "cpu");
        assert.equal(auto.backend, "cpu", `auto on a software adapter takes the CPU path: ${JSON.stringify(auto)}`);
        if (backend !== "cpu") assert.ok(auto.probe[backend].software, `${backend} on SwiftShader is detected as software: ${JSON.stringify(auto.probe)}`);
        else assert.ok(!auto.probe.webgpu.available && auto.probe.webgl2.software, `WebGPU off, WebGL2 on SwiftShader: ${JSON.stringify(auto.probe)}`);
        assert.equal(auto.reason, "software adapter: cpu measured fastest there");
        assert.equal(auto.software, true);
        assert.equal(auto.upload, "pixels");
        const out = await page.evaluate(runInPage, { moduleUrl: `${server.url}/effects.js`, backend, cases: cases(), videoBase64 });
        const worst = out.results.reduce((w, r) => (r.max > w.max ? r : w), { max: -1 });
        console.log(
          `# ${backend}: ${out.results.length} cases, worst max |Δ| ${worst.max} (${JSON.stringify(worst.effect)}), 4K mean |Δ| ${out.sizes[1].mean.toFixed(3)}`,
        );
        check(out, backend);
        assert.deepEqual(
          consoleErrors.filter((e) => /GPU error|panicked/.test(e)),
          [],
          "no GPU errors",
        );
      } finally {
        await browser.close();
      }
    });
  }
});
