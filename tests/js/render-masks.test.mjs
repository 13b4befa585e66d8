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

import { RENDER_BACKENDS, launchChromium, serveDir } from "./browser.mjs";

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

// OpenCut's text and freeform masks (masks/builtin/definitions/text.ts, masks/freeform). The
// triangle's points (0, -0.3), (0.3, 0.3), (-0.3, 0.3) of the 320 × 180 picture from its centre
// are (160, 36), (256, 144), (64, 144); its base is the line y = 144.
const tri = [
  { id: "a", x: 0, y: -0.3, inX: 0, inY: 0, outX: 0, outY: 0 },
  { id: "b", x: 0.3, y: 0.3, inX: 0, inY: 0, outX: 0, outY: 0 },
  { id: "c", x: -0.3, y: 0.3, inX: 0, inY: 0, outX: 0, outY: 0 },
];
const free = (o = {}) => ({ ...base, path: tri, closed: true, rotation: 0, scale: 1, ...o });
const GREEN = [0, 255, 0];
Object.assign(CASES, {
  freeform: [
    { type: "freeform", params: free() },
    [
      [160, 100, RED],
      // 3.6 px inside the right edge (x = 160 + 96 · 94.5 / 108 = 244 at y = 130.5).
      [240, 130, RED],
      // The left edge is at x = 138 on row 60: x = 80 is outside, as is everything above the apex or below the base.
      [80, 60, BLACK],
      [160, 30, BLACK],
      [160, 150, BLACK],
    ],
  ],
  // Moved a quarter of the width right, half the size, turned 180°: apex (240, 117), base y = 63 from x 192 to 288.
  "freeform placed": [
    { type: "freeform", params: free({ centerX: 0.25, scale: 0.5, rotation: 180 }) },
    [
      [240, 75, RED],
      [240, 66, RED],
      [240, 125, BLACK],
      [160, 90, BLACK],
    ],
  ],
  // The first segment a bezier with both handles at (0.3, -0.3), canvas (256, 36): its midpoint is
  // P0/8 + 3C/4 + P1/8 = (244, 49.5); (235, 60) is 13 px inside the curve and 53 px outside the
  // straight edge, (250, 45) 7.5 px outside the curve.
  "freeform curve": [
    { type: "freeform", params: free({ path: [{ ...tri[0], outX: 0.3 }, { ...tri[1], inY: -0.6 }, tri[2]] }) },
    [
      [235, 60, RED],
      [250, 45, BLACK],
      [160, 100, RED],
    ],
  ],
  // Feather 20 across the base: row 138 is 6 px from the first outside row (144), row 144 one px
  // from the last inside row (143), row 150 seven.
  "feather freeform": [
    { type: "freeform", params: free({ feather: 20 }) },
    [
      [160, 138, [Math.round(255 * smooth(6)), 0, 0]],
      [160, 144, [Math.round(255 * smooth(-1)), 0, 0]],
      [160, 150, [Math.round(255 * smooth(-7)), 0, 0]],
      [160, 100, RED],
    ],
  ],
  // A 6 px outline on the edge, cut to the outside (rows 144–146 of the base) or the inside (141–143).
  "freeform stroke outside": [
    { type: "freeform", params: free({ strokeWidth: 6, strokeColor: "#00ff00", strokeAlign: "outside" }) },
    [
      [160, 145, GREEN],
      [160, 140, RED],
      [160, 150, BLACK],
    ],
  ],
  "freeform stroke inside": [
    { type: "freeform", params: free({ strokeWidth: 6, strokeColor: "#00ff00", strokeAlign: "inside" }) },
    [
      [160, 142, GREEN],
      [160, 138, RED],
      [160, 146, BLACK],
    ],
  ],
  // An open path is no mask (OpenCut's isActive): the picture shows whole.
  "freeform open": [
    { type: "freeform", params: free({ closed: false }) },
    [
      [10, 10, RED],
      [160, 100, RED],
    ],
  ],
});

// A bold "I" at OpenCut's size 90, 180 px (size × height / 90), centred on the picture: its stem
// holds (160, 90); 40 px to the side and the corners are outside the text's box.
const I = {
  ...base,
  content: "I",
  fontSize: 90,
  fontFamily: "Arial",
  fontWeight: "bold",
  fontStyle: "normal",
  textDecoration: "none",
  letterSpacing: 0,
  lineHeight: 1.2,
  rotation: 0,
  scale: 1,
};
/** OpenCut's feather: a smoothstep from -feather/2 to +feather/2 across the signed distance. */
const soft = (feather, d) => {
  const t = Math.min(1, Math.max(0, (d + feather / 2) / feather));
  return Math.round(255 * t * t * (3 - 2 * t));
};

/** The text cases; `[left, right]` are the stem's edges, 160 ∓ the centred glyph's measured ink. */
const textCases = ([left, right]) => ({
  text: [
    { type: "text", params: I },
    [
      [160, 90, RED],
      [120, 90, BLACK],
      [200, 90, BLACK],
      [20, 20, BLACK],
      [300, 170, BLACK],
    ],
  ],
  "text inverted": [
    { type: "text", params: { ...I, inverted: true } },
    [
      [160, 90, BLACK],
      [20, 20, RED],
    ],
  ],
  // Half the size (90 px), turned 90° and moved a quarter right: the stem lies along y = 90, its
  // middle at x = 240, the glyph's 0.7 em cap height (63 px) along x.
  "text placed": [
    { type: "text", params: { ...I, fontSize: 45, rotation: 90, centerX: 0.25 } },
    [
      [240, 90, RED],
      [225, 90, RED],
      [240, 72, BLACK],
      [160, 90, BLACK],
    ],
  ],
  // Feather 100 on the stem: its centre pixel is as far from the nearest pixel outside the glyph as
  // the nearer edge (the first column whose centre is past it); the glyph's top and bottom are
  // over 50 px away. A measured edge is a pixel out at most: 3.4 levels of the ramp.
  "feather text": [
    { type: "text", params: { ...I, feather: 100 } },
    [
      [160, 90, [soft(100, Math.min(Math.ceil(right - 0.5) - 160, 160 - Math.floor(left - 0.5))), 0, 0]],
      [20, 20, BLACK],
    ],
  ],
  // An 8 px outline cut to the outside of the glyph: just past the stem's edge it is green, the
  // stem itself shows the picture, 9 px past the edge is the black below.
  "text stroke outside": [
    { type: "text", params: { ...I, strokeWidth: 8, strokeColor: "#00ff00", strokeAlign: "outside" } },
    [
      [Math.round(right) + 1, 90, GREEN],
      [160, 90, RED],
      [Math.round(right) + 9, 90, BLACK],
    ],
  ],
});

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

  for (const [backend, flags] of RENDER_BACKENDS) {
    test(`every mask shape, its feather, inversion and outline on ${backend}`, async () => {
      const browser = await launchChromium(flags);
      try {
        const page = await browser.newPage();
        await page.goto(`${server.url}/tests/js/page.html`);
        // The stem's ink edges, in the font the page resolves "Arial" to.
        const edges = await page.evaluate(() => {
          const g = new OffscreenCanvas(1, 1).getContext("2d");
          g.font = "bold 180px Arial, sans-serif";
          g.textAlign = "center";
          const m = g.measureText("I");
          return [160 - m.actualBoundingBoxLeft, 160 + m.actualBoundingBoxRight];
        });
        const all = { ...CASES, ...textCases(edges) };
        const cases = Object.fromEntries(Object.entries(all).map(([k, [mask, probes]]) => [k, [mask, probes.map(([x, y]) => [x, y])]]));
        const out = await page.evaluate(runInPage, { base: `${server.url}/${relative(root, dist)}`, backend, cases });
        assert.equal(out.backend, backend);
        for (const [name, [mask, probes]] of Object.entries(all)) {
          const got = out.cases[name];
          assert.deepEqual(got.drawn, ["pic"], name);
          // An open path is not applied, so the frame carries none.
          assert.equal(got.mask?.type, name === "freeform open" ? undefined : mask.type, `${name}: the frame carries the mask`);
          probes.forEach(([x, y, want], i) =>
            // Edges of a shape land on a pixel differently per rasteriser: 3 levels inside, 6 on the feather ramp.
            assert.ok(near(got.probes[i], want, name.startsWith("feather") ? 6 : 3), `${name} at (${x}, ${y}): ${got.probes[i]}, want ${want}`),
          );
        }
      } finally {
        await browser.close();
      }
    });
  }
});
