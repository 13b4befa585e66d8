// Masks in neuralcut/render, in headless Chromium on WebGPU (SwiftShader), WebGL2 and Canvas2D:
// a red picture filling a 320 × 180 canvas over black, drawn through each of OpenCut's stored
// mask shapes (as update_clip and OpenCut's masks panel write them), one pixel per canvas pixel.
// Expected pixels are computed here by hand from the shapes' geometry and OpenCut's feather
// (a smoothstep from -feather/2 to +feather/2 across the signed distance to the outline).
//
// Needs `npm run build` first (dist/render.js).
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { launchChromium, serveDir } from "./browser.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");

const base = { feather: 0, inverted: false, strokeColor: "#ffffff", strokeWidth: 0, strokeAlign: "center", centerX: 0, centerY: 0 };
const box = (o = {}) => ({ ...base, width: 0.5, height: 0.5, rotation: 0, scale: 1, ...o });

/** Each case: a mask, and probes [x, y, rgb]. */
const smooth = (x) => {
  const t = Math.min(1, Math.max(0, (x + 10) / 20));
  return t * t * (3 - 2 * t);
};
const RED = [255, 0, 0];
const BLACK = [0, 0, 0];
const CASES = {
  // The box is x 80–240, y 45–135.
  rectangle: [
    { type: "rectangle", params: box() },
    [
      [160, 90, RED],
      [81, 46, RED],
      [78, 90, BLACK],
      [242, 90, BLACK],
      [160, 43, BLACK],
    ],
  ],
  inverted: [
    { type: "ellipse", params: box({ inverted: true }) },
    [
      [160, 90, BLACK],
      [10, 10, RED],
      // On the ellipse's axis, 10 px outside its right end (x = 240).
      [250, 90, RED],
      [230, 90, BLACK],
    ],
  ],
  // Feather 20: pixel x = 85 is 6 px inside the left edge (its distance to the nearest outside
  // pixel, x = 79), x = 79 one outside, x = 95 past the ramp.
  feather: [
    { type: "rectangle", params: box({ feather: 20 }) },
    [
      [85, 90, [Math.round(255 * smooth(6)), 0, 0]],
      [79, 90, [Math.round(255 * smooth(-1)), 0, 0]],
      [95, 90, RED],
      [65, 90, BLACK],
    ],
  ],
  // A split at rotation 0 keeps the half on the +x side of the centre line.
  split: [
    { type: "split", params: { ...base, rotation: 0 } },
    [
      [100, 90, BLACK],
      [220, 90, RED],
      [158, 20, BLACK],
      [162, 160, RED],
    ],
  ],
  // A 4 px green outline centred on the box's edge, over the masked picture.
  stroke: [
    { type: "rectangle", params: box({ strokeWidth: 4, strokeColor: "#00ff00" }) },
    [
      [80, 90, [0, 255, 0]],
      [160, 45, [0, 255, 0]],
      [160, 90, RED],
      [70, 90, BLACK],
    ],
  ],
  // A star 160 × 90 about the centre: its centre is in, the box's corners (inside a rectangle
  // mask) are not.
  star: [
    { type: "star", params: box() },
    [
      [160, 90, RED],
      [84, 49, BLACK],
      [236, 131, BLACK],
      // The top point: x 160, y 45 + a little.
      [160, 50, RED],
    ],
  ],
  heart: [
    { type: "heart", params: box() },
    [
      [160, 90, RED],
      [160, 52, BLACK],
      [84, 131, BLACK],
    ],
  ],
  // Bars 0.5 of the height: the middle band y 45–135, full width.
  "cinematic-bars": [
    { type: "cinematic-bars", params: box({ width: 1 }) },
    [
      [5, 90, RED],
      [315, 90, RED],
      [160, 20, BLACK],
      [160, 160, BLACK],
    ],
  ],
  // A diamond's left point is at x 80, y 90: 10 px in from it is inside, its box corner is not.
  diamond: [
    { type: "diamond", params: box() },
    [
      [90, 90, RED],
      [84, 49, BLACK],
      [160, 50, RED],
    ],
  ],
};

async function runInPage({ base, backend, cases }) {
  const { createEditor } = await import(`${base}/index.js`);
  const { createFrameRenderer } = await import(`${base}/render.js`);
  const { loadOpenCutScene } = await import(`${base}/opencut.js`);
  const c = new OffscreenCanvas(320, 180);
  const g = c.getContext("2d");
  g.fillStyle = "#ff0000";
  g.fillRect(0, 0, 320, 180);
  const red = await c.convertToBlob({ type: "image/png" });
  const editor = await createEditor();
  const r = await createFrameRenderer({ editor, backend });
  const out = { backend: r.backend, cases: {} };
  for (const [name, [mask, probes]] of Object.entries(cases)) {
    loadOpenCutScene(
      editor,
      {
        settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: 320, height: 180 }, background: { type: "color", color: "#000000" } },
        assets: [{ id: "red", name: "red.png", type: "image", width: 320, height: 180 }],
        tracks: {
          overlay: [],
          main: {
            id: "t-main",
            name: "Main",
            type: "video",
            hidden: false,
            muted: false,
            elements: [
              {
                id: "pic",
                type: "image",
                name: "pic",
                mediaId: "red",
                startTime: 0,
                duration: 120_000,
                trimStart: 0,
                trimEnd: 0,
                hidden: false,
                params: {
                  "transform.positionX": 0,
                  "transform.positionY": 0,
                  "transform.scaleX": 1,
                  "transform.scaleY": 1,
                  "transform.rotate": 0,
                  opacity: 1,
                  blendMode: "normal",
                },
                masks: [{ id: "m", ...mask }],
              },
            ],
          },
          audio: [],
        },
      },
      { sources: new Map([["red", { file: red }]]) },
    );
    const f = await r.render(0.5, { width: 320 });
    const p = await r.readPixels();
    out.cases[name] = {
      mask: editor.frameAt(0.5).layers[0].mask,
      drawn: f.drawn,
      probes: probes.map(([x, y]) => Array.from(p.slice((y * 320 + x) * 4, (y * 320 + x) * 4 + 3))),
    };
  }
  r.destroy();
  return out;
}

const near = (got, want, tol) => got.every((c, i) => Math.abs(c - want[i]) <= tol);

describe("masks drawn by neuralcut/render", { timeout: 300_000 }, () => {
  let server;
  before(async () => {
    assert.ok(existsSync(join(dist, "render.js")), `${dist}/render.js is missing: run npm run build`);
    server = await serveDir(root);
  });
  after(() => server?.close());

  for (const [backend, flags] of [
    ["webgpu", ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader"]],
    ["webgl2", []],
    ["canvas2d", []],
  ]) {
    test(`every mask shape, its feather, inversion and outline on ${backend}`, async () => {
      const browser = await launchChromium(flags);
      try {
        const page = await browser.newPage();
        await page.goto(`${server.url}/tests/js/page.html`);
        const cases = Object.fromEntries(Object.entries(CASES).map(([k, [mask, probes]]) => [k, [mask, probes.map(([x, y]) => [x, y])]]));
        const out = await page.evaluate(runInPage, { base: `${server.url}/${relative(root, dist)}`, backend, cases });
        assert.equal(out.backend, backend);
        for (const [name, [mask, probes]] of Object.entries(CASES)) {
          const got = out.cases[name];
          assert.deepEqual(got.drawn, ["pic"], name);
          assert.equal(got.mask.type, mask.type, `${name}: the frame carries the mask`);
          probes.forEach(([x, y, want], i) =>
            // Edges of a shape land on a pixel differently per rasteriser: 3 levels inside, 6 on the feather ramp.
            assert.ok(near(got.probes[i], want, name === "feather" ? 6 : 3), `${name} at (${x}, ${y}): ${got.probes[i]}, want ${want}`),
          );
        }
      } finally {
        await browser.close();
      }
    });
  }
});
