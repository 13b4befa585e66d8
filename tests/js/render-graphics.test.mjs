// OpenCut's shapes in neuralcut/render, in headless Chromium on WebGPU (SwiftShader), WebGL2 and
// Canvas2D: each graphic at scale 1 on a 512 × 512 canvas over black, so one pixel of OpenCut's
// 512 × 512 source is one canvas pixel. Expected pixels are worked out here by hand from the
// geometry of OpenCut's definitions (graphics/definitions/*.ts, graphics/stroke.ts at cf5e79e);
// every probe sits at least 5 px from an edge, so one tolerance (3/255) holds on every backend.
//
// Needs `npm run build` first (dist/render.js).
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { RENDER_BACKENDS, launchChromium, serveDir } from "./browser.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLACK = [0, 0, 0];
const common = { fill: "#ff0000", stroke: "#00ff00", strokeWidth: 0, strokeAlign: "center" };
/** A point `r` px from the centre (256, 256) at `deg` degrees clockwise from the +x axis. */
const at = (r, deg) => [Math.round(256 + r * Math.cos((deg * Math.PI) / 180)), Math.round(256 + r * Math.sin((deg * Math.PI) / 180))];

/** Each case: the definition, its params, and probes [x, y, rgb]. */
const CASES = {
  // The whole source, square corners.
  rectangle: [
    "rectangle",
    { ...common, cornerRadius: 0 },
    [
      [256, 256, RED],
      [6, 6, RED],
      [505, 505, RED],
    ],
  ],
  // cornerRadius 50 is half the side: a circle of radius 256. (20, 20) is 334 px from the centre.
  "round rectangle": [
    "rectangle",
    { ...common, cornerRadius: 50 },
    [
      [20, 20, BLACK],
      [...at(245, 225), RED],
      [256, 8, RED],
    ],
  ],
  // Centred stroke 20: the shape shrinks by 10 (10–502) and the outline covers 0–20 of each edge.
  "centred stroke": [
    "rectangle",
    { ...common, strokeWidth: 20, cornerRadius: 0 },
    [
      [5, 256, GREEN],
      [15, 256, GREEN],
      [256, 497, GREEN],
      [30, 256, RED],
    ],
  ],
  // Inside: twice the width clipped to the whole square, so 0–20 in from each edge.
  "inside stroke": [
    "rectangle",
    { ...common, strokeWidth: 20, strokeAlign: "inside", cornerRadius: 0 },
    [
      [6, 256, GREEN],
      [14, 256, GREEN],
      [27, 256, RED],
    ],
  ],
  // Outside on the full circle: a ring from 256 to 276 px, seen along the diagonal.
  "outside stroke": [
    "ellipse",
    { ...common, strokeWidth: 20, strokeAlign: "outside" },
    [
      [...at(266, 225), GREEN],
      [...at(245, 225), RED],
      [...at(290, 225), BLACK],
    ],
  ],
  // A translucent fill shows no inner half of the doubled outside stroke: just inside the edge is
  // half red over black.
  "translucent fill, outside stroke": [
    "ellipse",
    { ...common, fill: "rgba(255, 0, 0, 0.5)", strokeWidth: 20, strokeAlign: "outside" },
    [
      [...at(250, 225), [128, 0, 0]],
      [...at(150, 90), [128, 0, 0]],
      [...at(266, 225), GREEN],
    ],
  ],
  // A hexagon with a point on top: its sides are vertical at 256 ± 256·cos 30° = 34.3 and 477.7.
  hexagon: [
    "polygon",
    { ...common, sides: 6, cornerRadius: 0 },
    [
      [256, 10, RED],
      [27, 256, BLACK],
      [42, 256, RED],
      [485, 256, BLACK],
    ],
  ],
  // Four sides (a diamond) rounded fully: the corner radius is 256·sin 45° = 181, which makes the
  // diamond's inscribed circle (radius 181): its top point (256, 0) is cut off.
  "rounded diamond": [
    "polygon",
    { ...common, sides: 4, cornerRadius: 50 },
    [
      [256, 40, BLACK],
      [256, 85, RED],
      [...at(170, 0), RED],
    ],
  ],
  // Five points, inner radius 45 %: the inner corner at -54° is 115 px out; 140 px out there is
  // between two points, 90 px in is inside, and the top point reaches 256.
  star: [
    "star",
    { ...common, points: 5, depth: 45 },
    [
      [256, 256, RED],
      [256, 8, RED],
      [...at(140, -54), BLACK],
      [...at(90, -54), RED],
    ],
  ],
};

async function runInPage({ base, backend, cases }) {
  const { createEditor } = await import(`${base}/index.js`);
  const { createFrameRenderer } = await import(`${base}/render.js`);
  const { loadOpenCutScene } = await import(`${base}/opencut.js`);
  const editor = await createEditor();
  const r = await createFrameRenderer({ editor, backend });
  const out = { backend: r.backend, cases: {} };
  const visual = {
    "transform.positionX": 0,
    "transform.positionY": 0,
    "transform.scaleX": 1,
    "transform.scaleY": 1,
    "transform.rotate": 0,
    opacity: 1,
    blendMode: "normal",
  };
  for (const [name, [definitionId, params, probes]] of Object.entries(cases)) {
    loadOpenCutScene(editor, {
      settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: 512, height: 512 }, background: { type: "color", color: "#000000" } },
      assets: [],
      tracks: {
        overlay: [
          {
            id: "t-gfx",
            name: "Graphic track",
            type: "graphic",
            hidden: false,
            elements: [
              {
                id: "shape",
                type: "graphic",
                name: "Shape",
                definitionId,
                startTime: 0,
                duration: 120_000,
                trimStart: 0,
                trimEnd: 0,
                params: { ...visual, ...params },
              },
            ],
          },
        ],
        main: { id: "t-main", name: "Main", type: "video", hidden: false, muted: false, elements: [] },
        audio: [],
      },
    });
    const f = await r.render(0.5, { width: 512 });
    const p = await r.readPixels();
    out.cases[name] = {
      graphic: editor.frameAt(0.5).layers[0].graphic,
      drawn: f.drawn,
      probes: probes.map(([x, y]) => Array.from(p.slice((y * 512 + x) * 4, (y * 512 + x) * 4 + 3))),
    };
  }
  r.destroy();
  return out;
}

const near = (got, want) => got.every((c, i) => Math.abs(c - want[i]) <= 3);

describe("graphics drawn by neuralcut/render as OpenCut draws them", { timeout: 300_000 }, () => {
  let server;
  before(async () => {
    assert.ok(existsSync(join(dist, "render.js")), `${dist}/render.js is missing: run npm run build`);
    server = await serveDir(root);
  });
  after(() => server?.close());

  for (const [backend, flags] of RENDER_BACKENDS) {
    test(`rectangles, ellipses, polygons and stars with their corners, points and aligned strokes on ${backend}`, async () => {
      const browser = await launchChromium(flags);
      try {
        const page = await browser.newPage();
        await page.goto(`${server.url}/tests/js/page.html`);
        const cases = Object.fromEntries(Object.entries(CASES).map(([k, [d, params, probes]]) => [k, [d, params, probes.map(([x, y]) => [x, y])]]));
        const out = await page.evaluate(runInPage, { base: `${server.url}/${relative(root, dist)}`, backend, cases });
        assert.equal(out.backend, backend);
        for (const [name, [definitionId, params, probes]] of Object.entries(CASES)) {
          const got = out.cases[name];
          assert.deepEqual(got.drawn, ["shape"], name);
          // The frame hands the compositor the definition and every one of its params.
          assert.equal(got.graphic.definitionId, definitionId, name);
          assert.deepEqual(Object.keys(got.graphic.params).sort(), Object.keys(params).sort(), name);
          probes.forEach(([x, y, want], i) => assert.ok(near(got.probes[i], want), `${name} at (${x}, ${y}): ${got.probes[i]}, want ${want}`));
        }
      } finally {
        await browser.close();
      }
    });
  }
});
