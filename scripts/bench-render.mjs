#!/usr/bin/env node
// Frame compositing in headless Chromium: neuralcut/render's GPU compositor against Canvas2D
// drawImage compositing the same five layers, in the same page and run, and against
// opencut-wasm 0.2.10's own compositor (renderFrame) drawing the same layers in a second page of
// the same browser, on WebGPU (SwiftShader), WebGL2 and "auto" (what a page gets by default:
// Canvas2D where the only adapter is a software one), at 1080p and 4K. Part of `npm run bench`;
// needs `npm run build` first; installs opencut-wasm into .bench/opencut (as bench-effects does).
//
// The timeline: a full-frame background image, two picture-in-picture images (scaled, one
// rotated, one half transparent), a sticker image and a text title. Each frame is timed from the
// render call until one pixel of the result is back on the CPU (the compositor's readPixels of a
// 1×1 region; Canvas2D's getImageData of one pixel; opencut-wasm's canvas drawn into a 1×1 2D
// canvas). Medians after one warm-up frame. The ratios are the other's median over neuralcut's:
// above 1, neuralcut is faster. Pictures are handed over once and stay uploaded, in all three.
// On WebGL2 the page also times one bare full-frame textured triangle in raw WebGL2: the least
// any GPU compositor pays there for a full-frame layer.
//
//   node scripts/bench-render.mjs [--frames N] [--backends webgpu,webgl2,auto]
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { installOpencut, launchChromium, option, root, serve } from "./bench-common.mjs";

const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const FRAMES = Number(option("--frames")) || 5;
// --backends webgpu,webgl2,auto (default: all three)
const BACKENDS = option("--backends")?.split(",") ?? ["webgpu", "webgl2", "auto"];

if (!existsSync(join(dist, "render.js"))) throw new Error(`${dist}/render.js is missing: run npm run build first`);

let opencut = join(root, ".bench", "opencut", "node_modules", "opencut-wasm");
try {
  opencut = installOpencut();
} catch (e) {
  console.log(`[bench] opencut-wasm could not be installed (${e.message.split("\n")[0]}); measuring without it`);
}

const mediabunny = join(root, "node_modules", "mediabunny", "dist", "bundles", "mediabunny.min.mjs");
const { origin, server } = await serve({
  // The import map resolves mediabunny, which the renderer's video decoding loads.
  page: `<!doctype html><script type="importmap">{"imports":{"mediabunny":"/mediabunny.js"}}</script>`,
  file: (path) =>
    path === "/mediabunny.js"
      ? mediabunny
      : path.startsWith("/opencut/")
        ? join(opencut, path.slice("/opencut/".length))
        : join(dist, path.replace(/^\/dist\//, "")),
});

/** Runs in the page: builds the timeline and times neuralcut and Canvas2D ("ours") or opencut-wasm. */
async function measure({ base, backend, frames, sizes, what }) {
  const { createEditor } = await import(`${base}/index.js`);
  const { createFrameRenderer } = await import(`${base}/render.js`);
  const { loadOpenCutScene } = await import(`${base}/opencut.js`);
  const png = async (w, h, paint) => {
    const c = new OffscreenCanvas(w, h);
    paint(c.getContext("2d"), w, h);
    return createImageBitmap(c);
  };
  const gradient = (a, b) => (g, w, h) => {
    const grad = g.createLinearGradient(0, 0, w, h);
    grad.addColorStop(0, a);
    grad.addColorStop(1, b);
    g.fillStyle = grad;
    g.fillRect(0, 0, w, h);
  };
  const out = {};
  for (const [W, H] of sizes) {
    const pictures = {
      bg: await png(W, H, gradient("#1e3a8a", "#f97316")),
      a: await png(1280, 720, gradient("#16a34a", "#facc15")),
      b: await png(1280, 720, gradient("#7c3aed", "#06b6d4")),
      s: await png(256, 256, gradient("#ef4444", "#fde047")),
    };
    const S = 120_000;
    const v = (o) => ({
      "transform.positionX": 0,
      "transform.positionY": 0,
      "transform.scaleX": 1,
      "transform.scaleY": 1,
      "transform.rotate": 0,
      opacity: 1,
      blendMode: "normal",
      ...o,
    });
    const img = (id, media, params) => ({
      id,
      type: "image",
      name: id,
      mediaId: media,
      startTime: 0,
      duration: 5 * S,
      trimStart: 0,
      trimEnd: 0,
      hidden: false,
      params,
    });
    const scene = {
      settings: { canvasSize: { width: W, height: H } },
      assets: [
        { id: "bg", name: "bg.png", type: "image", width: W, height: H },
        { id: "a", name: "a.png", type: "image", width: 1280, height: 720 },
        { id: "b", name: "b.png", type: "image", width: 1280, height: 720 },
        { id: "s", name: "s.png", type: "image", width: 256, height: 256 },
      ],
      tracks: {
        overlay: [
          {
            id: "t-text",
            name: "Text",
            type: "text",
            hidden: false,
            elements: [
              {
                id: "title",
                type: "text",
                name: "Title",
                startTime: 0,
                duration: 5 * S,
                trimStart: 0,
                trimEnd: 0,
                params: {
                  content: "Five layers",
                  fontSize: 10,
                  color: "#ffffff",
                  fontWeight: "bold",
                  textAlign: "center",
                  "background.enabled": true,
                  "background.color": "#000000",
                  ...v({ "transform.positionY": H * 0.35 }),
                },
              },
            ],
          },
          {
            id: "t-s",
            name: "Sticker",
            type: "video",
            hidden: false,
            muted: false,
            elements: [
              img("st", "s", v({ "transform.positionX": -W * 0.35, "transform.positionY": -H * 0.3, "transform.scaleX": 0.2, "transform.scaleY": 0.2 })),
            ],
          },
          {
            id: "t-b",
            name: "B",
            type: "video",
            hidden: false,
            muted: false,
            elements: [
              img(
                "pb",
                "b",
                v({ "transform.positionX": -W * 0.2, "transform.positionY": H * 0.1, "transform.scaleX": 0.35, "transform.scaleY": 0.35, opacity: 0.6 }),
              ),
            ],
          },
          {
            id: "t-a",
            name: "A",
            type: "video",
            hidden: false,
            muted: false,
            elements: [
              img(
                "pa",
                "a",
                v({
                  "transform.positionX": W * 0.25,
                  "transform.positionY": -H * 0.2,
                  "transform.scaleX": 0.4,
                  "transform.scaleY": 0.4,
                  "transform.rotate": 12,
                }),
              ),
            ],
          },
        ],
        main: { id: "t-main", name: "Main", type: "video", hidden: false, muted: false, elements: [img("b0", "bg", v())] },
        audio: [],
      },
    };
    const editor = await createEditor();
    loadOpenCutScene(editor, scene);
    const frame = editor.frameAt(1);
    const time = async (fn) => {
      await fn(); // warm-up
      const t = [];
      for (let i = 0; i < frames; i++) {
        const t0 = performance.now();
        await fn();
        t.push(performance.now() - t0);
      }
      t.sort((x, y) => x - y);
      return t[t.length >> 1];
    };
    if (what === "opencut") {
      out[`${W}x${H}`] = await opencutFrame(W, H, frame, pictures, time);
      continue;
    }
    const r = await createFrameRenderer({ editor, backend, media: (layer) => pictures[layer.assetId] });
    const gpu = await time(async () => {
      await r.render(1);
      await r.readPixels({ x: 0, y: 0, width: 1, height: 1 });
    });
    // Canvas2D: the same layers with drawImage (transforms, alpha) and the title with fillText.
    const c2d = new OffscreenCanvas(W, H).getContext("2d");
    const canvas2d = await time(async () => {
      c2d.setTransform(1, 0, 0, 1, 0, 0);
      c2d.globalAlpha = 1;
      c2d.fillStyle = "#000";
      c2d.fillRect(0, 0, W, H);
      for (const l of frame.layers) {
        if (l.kind === "media") {
          const p = l.placement;
          c2d.save();
          c2d.globalAlpha = l.opacity;
          c2d.translate(p.centerX, p.centerY);
          c2d.rotate((p.rotation * Math.PI) / 180);
          c2d.drawImage(pictures[l.assetId], -p.width / 2, -p.height / 2, p.width, p.height);
          c2d.restore();
        } else if (l.kind === "text") {
          c2d.save();
          drawText(c2d, l);
          c2d.restore();
        }
      }
      c2d.getImageData(0, 0, 1, 1);
    });
    out[`${W}x${H}`] = { layers: frame.layers.length, used: r.backend, reason: r.backendReason, neuralcut: gpu, canvas2d, ratio: canvas2d / gpu };
    if (backend === "webgl2") out[`${W}x${H}`].rawWebgl2 = await rawWebgl2(W, H, time);
    r.destroy();
  }
  return out;

  /** A text layer with its background box, as Canvas2D draws it for both comparisons. */
  function drawText(g, l) {
    g.font = `bold ${l.fontSize}px ${l.fontFamily}`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    const w = g.measureText(l.content).width;
    g.fillStyle = l.background.color;
    g.fillRect(
      l.anchorX - w / 2 - l.background.paddingX,
      l.anchorY - l.fontSize * 0.6 - l.background.paddingY,
      w + 2 * l.background.paddingX,
      l.fontSize * 1.2 + 2 * l.background.paddingY,
    );
    g.fillStyle = l.color;
    g.fillText(l.content, l.anchorX, l.anchorY);
  }

  /** opencut-wasm's compositor: the same layers as textures (text rasterised frame-sized, as OpenCut does), uploaded once. */
  async function opencutFrame(W, H, frame, pictures, time) {
    let glue;
    try {
      glue = globalThis.__opencut;
      if (!glue) {
        glue = await import("/opencut/opencut_wasm_bg.js");
        const { instance } = await WebAssembly.instantiateStreaming(fetch("/opencut/opencut_wasm_bg.wasm"), { "./opencut_wasm_bg.js": glue });
        glue.__wbg_set_wasm(instance.exports);
        instance.exports.__wbindgen_start();
        await glue.initializeGpu();
        glue.initCompositor(W, H);
        globalThis.__opencut = glue;
      } else glue.resizeCompositor(W, H);
    } catch (e) {
      return { error: String(e) };
    }
    const canvasOf = (bitmap) => {
      const c = new OffscreenCanvas(bitmap.width, bitmap.height);
      c.getContext("2d").drawImage(bitmap, 0, 0);
      return c;
    };
    const items = [];
    for (const l of frame.layers) {
      const id = `${W}-${l.elementId}`;
      let transform;
      if (l.kind === "media") {
        const pic = pictures[l.assetId];
        glue.uploadTexture({ id, source: canvasOf(pic), width: pic.width, height: pic.height });
        const p = l.placement;
        transform = { centerX: p.centerX, centerY: p.centerY, width: p.width, height: p.height, rotationDegrees: p.rotation, flipX: p.flipX, flipY: p.flipY };
      } else if (l.kind === "text") {
        const c = new OffscreenCanvas(W, H);
        drawText(c.getContext("2d"), l);
        glue.uploadTexture({ id, source: c, width: W, height: H });
        transform = { centerX: W / 2, centerY: H / 2, width: W, height: H, rotationDegrees: 0, flipX: false, flipY: false };
      } else continue;
      items.push({ type: "layer", textureId: id, transform, opacity: l.opacity, blendMode: "normal", effectPassGroups: [], mask: null });
    }
    const descriptor = { width: W, height: H, clear: { color: [0, 0, 0, 1] }, items };
    const one = new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true });
    let alpha = 255;
    try {
      const ms = await time(async () => {
        glue.renderFrame(descriptor);
        one.clearRect(0, 0, 1, 1);
        one.drawImage(glue.getCompositorCanvas(), 0, 0, 1, 1, 0, 0, 1, 1);
        alpha = Math.min(alpha, one.getImageData(0, 0, 1, 1).data[3]);
      });
      // An empty read-back means the time did not wait for the GPU work: not comparable.
      return { layers: items.length, opencut: ms, unsynced: alpha === 0 };
    } catch (e) {
      return { error: String(e) };
    }
  }

  /** One full-frame textured triangle into a W×H texture in raw WebGL2, one pixel read back. */
  async function rawWebgl2(W, H, time) {
    const gl = new OffscreenCanvas(1, 1).getContext("webgl2");
    const shader = (type, src) => {
      const s = gl.createShader(type);
      gl.shaderSource(s, `#version 300 es\nprecision highp float;\n${src}`);
      gl.compileShader(s);
      return s;
    };
    const prog = gl.createProgram();
    gl.attachShader(
      prog,
      shader(
        gl.VERTEX_SHADER,
        "out vec2 uv; void main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)); uv = p; gl_Position = vec4(p * 2.0 - 1.0, 0, 1); }",
      ),
    );
    gl.attachShader(prog, shader(gl.FRAGMENT_SHADER, "in vec2 uv; uniform sampler2D t; out vec4 o; void main() { o = texture(t, uv); }"));
    gl.linkProgram(prog);
    const texture = () => {
      const t = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, W, H);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
      return t;
    };
    const target = texture();
    const fb = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
    gl.bindTexture(gl.TEXTURE_2D, texture());
    gl.viewport(0, 0, W, H);
    gl.useProgram(prog);
    const px = new Uint8Array(4);
    const ms = await time(async () => {
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    });
    gl.getExtension("WEBGL_lose_context")?.loseContext();
    return ms;
  }
}

const results = {};
// "auto" is what a page gets by default: on a machine whose only GPU is a software one, Canvas2D.
for (const [backend, flags] of [
  ["webgpu", ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader"]],
  ["webgl2", []],
  ["auto", ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader"]],
].filter(([b]) => BACKENDS.includes(b))) {
  const browser = await launchChromium(flags);
  try {
    // One page each: SwiftShader's WebGPU breaks buffer read-back in a page once a WebGPU canvas
    // was drawn on, which opencut-wasm does.
    const parts = {};
    for (const what of existsSync(join(opencut, "opencut_wasm_bg.wasm")) && backend !== "auto" ? ["ours", "opencut"] : ["ours"]) {
      const page = await browser.newPage();
      page.on(
        "console",
        (m) => m.type() === "error" && !m.text().startsWith("Failed to load") && console.log(`[page ${backend} ${what}] ${m.text().slice(0, 300)}`),
      );
      await page.goto(`${origin}/`);
      console.log(`[bench] render ${backend} ${what}: ${FRAMES} frames a figure…`);
      page.setDefaultTimeout(0);
      parts[what] = await page.evaluate(measure, {
        base: `${origin}/dist`,
        backend,
        frames: FRAMES,
        sizes: [
          [1920, 1080],
          [3840, 2160],
        ],
        what,
      });
      await page.close();
    }
    results[backend] = Object.fromEntries(Object.entries(parts.ours).map(([size, r]) => [size, { ...r, opencut: parts.opencut?.[size] }]));
  } finally {
    await browser.close();
  }
}
server.close();

const rows = [
  "| backend | frame | layers | neuralcut/render ms | Canvas2D ms | Canvas2D / neuralcut | opencut-wasm ms | opencut / neuralcut | raw WebGL2 full-frame draw ms |",
  "|---|---|---|---|---|---|---|---|---|",
];
const notes = new Set();
for (const [backend, sizes] of Object.entries(results)) {
  for (const [size, r] of Object.entries(sizes)) {
    let oc = "–";
    let ocRatio = "–";
    if (r.opencut?.error) {
      oc = "failed¹";
      notes.add(`¹ opencut-wasm: ${r.opencut.error}`);
    } else if (r.opencut) {
      oc = `${r.opencut.opencut.toFixed(1)}${r.opencut.unsynced ? "²" : ""}`;
      ocRatio = r.opencut.unsynced ? "not comparable²" : (r.opencut.opencut / r.neuralcut).toFixed(2);
      if (r.opencut.unsynced)
        notes.add(
          "² opencut-wasm's canvas read back empty (alpha 0): its time does not wait for the GPU work (SwiftShader's WebGPU gives empty canvas snapshots).",
        );
    }
    rows.push(
      `| ${backend === "auto" ? `auto → ${r.used}` : backend} | ${size} | ${r.layers} | ${r.neuralcut.toFixed(1)} | ${r.canvas2d.toFixed(1)} | ${r.ratio.toFixed(2)} | ${oc} | ${ocRatio} | ${r.rawWebgl2 === undefined ? "–" : r.rawWebgl2.toFixed(1)} |`,
    );
  }
}
const report = `## Frame compositing (neuralcut/render vs Canvas2D drawImage and opencut-wasm, same run)\n\n${rows.join("\n")}\n${notes.size ? `\n${[...notes].join("\n")}\n` : ""}`;
console.log(`\n${report}`);
mkdirSync(join(root, ".bench"), { recursive: true });
writeFileSync(join(root, ".bench", "render.md"), report);
writeFileSync(join(root, ".bench", "render.json"), JSON.stringify(results, null, 2));
