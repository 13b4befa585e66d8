// Translucent pictures in neuralcut/render, in headless Chromium on WebGPU (SwiftShader), WebGL2
// and Canvas2D: every upload must reach the compositor in one alpha convention, so a
// translucent pixel is blended once (a picture premultiplied twice shows too dark). Over a
// known canvas colour, against values computed here by hand (the source over the backdrop, the
// W3C "normal" blend):
// - a PNG image whose pixels are half transparent;
// - a text layer: its glyphs in half-transparent white, and the antialiased edge of opaque
//   glyphs, where every pixel must be the text colour over the backdrop at one coverage for all
//   three channels (a double premultiply bends each channel differently), and the same pixels
//   on the three backends;
// - a masked opaque picture: its feather ramp (OpenCut's smoothstep, as render-masks.test);
// - a white ellipse graphic's antialiased edge, one coverage for all three channels as for text.
// Tolerance 3/255, 6/255 on the feather ramp (rasterisers place a shape's edge differently).
//
// Needs `npm run build` first (dist/render.js). NEURALCUT_DIST points at another build.
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { RENDER_BACKENDS, launchChromium, serveDir } from "./browser.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");

const BG = [204, 102, 51]; // the canvas colour, #cc6633
const A = 128 / 255; // the PNG's and the translucent text's alpha
/** Straight-alpha `src` at `a` over the opaque backdrop, in bytes. */
const over = (src, a, bg = BG) => src.map((s, i) => Math.round(s * a + bg[i] * (1 - a)));
const smooth = (x) => {
  const t = Math.min(1, Math.max(0, (x + 10) / 20));
  return t * t * (3 - 2 * t);
};
// The text rows probed: y through the middle of the glyphs, x across the canvas.
const ROW = { y: 90, from: 100, to: 220 };

/** Runs in the page. */
async function runInPage({ base, backend, row }) {
  const { createEditor } = await import(`${base}/index.js`);
  const { createFrameRenderer } = await import(`${base}/render.js`);
  const { loadOpenCutScene } = await import(`${base}/opencut.js`);
  const S = 120_000;
  const png = async (w, h, rgba) => {
    const c = new OffscreenCanvas(w, h);
    const g = c.getContext("2d");
    // 0 and 255 survive the canvas's premultiplied storage exactly at any alpha.
    g.fillStyle = `rgba(${rgba.slice(0, 3).join(",")},${rgba[3] / 255})`;
    g.fillRect(0, 0, w, h);
    return c.convertToBlob({ type: "image/png" });
  };
  const visual = (o = {}) => ({
    "transform.positionX": 0,
    "transform.positionY": 0,
    "transform.scaleX": 1,
    "transform.scaleY": 1,
    "transform.rotate": 0,
    opacity: 1,
    blendMode: "normal",
    ...o,
  });
  const image = (id, media, extra = {}) => ({
    id,
    type: "image",
    name: id,
    mediaId: media,
    startTime: 0,
    duration: 4 * S,
    trimStart: 0,
    trimEnd: 0,
    hidden: false,
    params: visual(),
    ...extra,
  });
  const text = (id, content, color, o = {}, fontSize = 40) => ({
    id,
    type: "text",
    name: id,
    startTime: 0,
    duration: 4 * S,
    trimStart: 0,
    trimEnd: 0,
    params: {
      content,
      fontFamily: "Arial",
      fontSize,
      color,
      textAlign: "center",
      fontWeight: "bold",
      fontStyle: "normal",
      textDecoration: "none",
      letterSpacing: 0,
      lineHeight: 1.2,
      "background.enabled": false,
      "background.color": "#000000",
      "background.cornerRadius": 0,
      "background.paddingX": 0,
      "background.paddingY": 0,
      "background.offsetX": 0,
      "background.offsetY": 0,
      ...visual(o),
    },
  });
  const track = (id, type, elements) => ({ id, name: id, type, hidden: false, muted: false, elements });
  const scene = (assets, main, overlay = []) => ({
    settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: 320, height: 180 }, background: { type: "color", color: "#cc6633" } },
    assets,
    tracks: { overlay, main: track("t-main", "video", main), audio: [] },
  });
  const px = (p, x, y) => Array.from(p.slice((y * 320 + x) * 4, (y * 320 + x) * 4 + 3));
  const editor = await createEditor();
  const r = await createFrameRenderer({ editor, backend });
  const out = { backend: r.backend };
  const frame = async () => {
    const f = await r.render(1, { width: 320 });
    return { drawn: f.drawn, missing: f.missing, p: await r.readPixels() };
  };

  // 1. A half-transparent cyan PNG covering the canvas.
  window.__step = "png";
  const half = await png(16, 9, [0, 255, 255, 128]);
  loadOpenCutScene(editor, scene([{ id: "half", name: "half.png", type: "image", width: 16, height: 9 }], [image("img", "half")]), {
    sources: new Map([["half", { file: half }]]),
  });
  {
    const { drawn, missing, p } = await frame();
    out.png = { drawn, missing, centre: px(p, 160, 90), corner: px(p, 3, 3) };
  }

  // 2. Text (OpenCut's size × 180 / 90 px): a translucent white "I" 80 px tall whose stem is
  // at x 50, and an opaque "WAVE" 40 px tall about the centre whose edges are probed.
  window.__step = "text";
  loadOpenCutScene(
    editor,
    scene(
      [],
      [],
      [
        track("t-a", "text", [text("faint", "I", "#ffffff80", { "transform.positionX": -110 })]),
        track("t-b", "text", [text("solid", "WAVE", "#ffffff", {}, 20)]),
      ],
    ),
  );
  {
    const { drawn, missing, p } = await frame();
    out.text = { drawn, missing, faint: px(p, 50, 90), row: [] };
    for (let x = row.from; x < row.to; x++) out.text.row.push(px(p, x, row.y));
  }

  // 3. An opaque blue picture through a feathered rectangle mask (x 80–240, y 45–135).
  window.__step = "mask";
  const blue = await png(320, 180, [0, 0, 255, 255]);
  const mask = {
    id: "m",
    type: "rectangle",
    params: {
      feather: 20,
      inverted: false,
      strokeColor: "#ffffff",
      strokeWidth: 0,
      strokeAlign: "center",
      centerX: 0,
      centerY: 0,
      width: 0.5,
      height: 0.5,
      rotation: 0,
      scale: 1,
    },
  };
  loadOpenCutScene(editor, scene([{ id: "blue", name: "blue.png", type: "image", width: 320, height: 180 }], [image("pic", "blue", { masks: [mask] })]), {
    sources: new Map([["blue", { file: blue }]]),
  });
  {
    const { drawn, missing, p } = await frame();
    out.mask = { drawn, missing, inside: px(p, 160, 90), ramp6: px(p, 85, 90), ramp1: px(p, 79, 90), outside: px(p, 65, 90) };
  }
  // 4. A white ellipse graphic drawn one source pixel per canvas pixel (512 px: contain × 512 / 180),
  // centred at x 300 so its left edge (x 44 at the middle row, 54 at the top) is in view.
  window.__step = "graphic";
  loadOpenCutScene(
    editor,
    scene(
      [],
      [],
      [
        {
          id: "t-gfx",
          name: "gfx",
          type: "graphic",
          hidden: false,
          elements: [
            {
              id: "shape",
              type: "graphic",
              name: "Ellipse",
              definitionId: "ellipse",
              startTime: 0,
              duration: 4 * S,
              trimStart: 0,
              trimEnd: 0,
              params: {
                ...visual({ "transform.positionX": 140, "transform.scaleX": 512 / 180, "transform.scaleY": 512 / 180 }),
                fill: "#ffffff",
                stroke: "#000000",
                strokeWidth: 0,
                strokeAlign: "center",
                cornerRadius: 0,
              },
            },
          ],
        },
      ],
    ),
  );
  {
    const { drawn, missing, p } = await frame();
    out.graphic = { drawn, missing, edge: [] };
    for (let y = 0; y < 180; y += 4) for (let x = 40; x < 60; x++) out.graphic.edge.push(px(p, x, y));
  }
  r.destroy();
  return out;
}

const near = (got, want, tol = 3) => got.length === want.length && got.every((c, i) => Math.abs(c - want[i]) <= tol);

/** Each pixel is white over the backdrop at one coverage: read it from the blue channel (the
 * widest range, 51 → 255) and the red and green must follow; at least `edges` pixels are partly
 * covered (an antialiased edge). */
function oneCoverage(pixels, what, edges) {
  let partly = 0;
  pixels.forEach((p, i) => {
    const a = (p[2] - BG[2]) / (255 - BG[2]);
    assert.ok(a > -0.02 && a < 1.02, `${what}, pixel ${i}: ${p} is not white over the backdrop`);
    const want = over([255, 255, 255], Math.min(1, Math.max(0, a)));
    assert.ok(near(p, want), `${what}, pixel ${i}: ${p}, white at coverage ${a.toFixed(3)} is ${want}`);
    if (a > 0.15 && a < 0.85) partly++;
  });
  assert.ok(partly >= edges, `${what}: ${partly} antialiased pixels (coverage 0.15–0.85), want at least ${edges}`);
}

describe("translucent pictures blended once on every backend", { timeout: 300_000 }, () => {
  let server;
  const rows = {};
  before(async () => {
    assert.ok(existsSync(join(dist, "render.js")), `${dist}/render.js is missing: run npm run build`);
    server = await serveDir(root);
  });
  after(() => server?.close());

  for (const [backend, flags] of RENDER_BACKENDS) {
    test(`a half-transparent PNG, text and its antialiased edges, a feathered mask, a graphic's edge on ${backend}`, async () => {
      const browser = await launchChromium(flags);
      try {
        const page = await browser.newPage();
        await page.goto(`${server.url}/tests/js/page.html`);
        const out = await page
          .evaluate(runInPage, { base: `${server.url}/${relative(root, dist)}`, backend, row: ROW })
          .catch(async (e) => assert.fail(`${e.message.split("\n")[0]} at ${await page.evaluate(() => window.__step)}`));
        assert.equal(out.backend, backend);

        const { png, text, mask } = out;
        assert.deepEqual([png.drawn, png.missing], [["img"], []]);
        const cyan = over([0, 255, 255], A); // [102, 179, 153]
        assert.ok(near(png.centre, cyan) && near(png.corner, cyan), `half-transparent PNG: ${png.centre} ${png.corner}, want ${cyan}`);

        assert.deepEqual([text.drawn, text.missing], [["solid", "faint"], []]);
        const faint = over([255, 255, 255], A); // [230, 179, 154]
        assert.ok(near(text.faint, faint), `translucent text: ${text.faint}, want ${faint}`);
        oneCoverage(text.row, "text row", 4);
        rows[backend] = text.row;
        assert.deepEqual([out.graphic.drawn, out.graphic.missing], [["shape"], []]);
        oneCoverage(out.graphic.edge, "ellipse graphic's edge", 10);

        assert.deepEqual([mask.drawn, mask.missing], [["pic"], []]);
        const blue = [0, 0, 255];
        assert.ok(near(mask.inside, blue) && near(mask.outside, BG), `mask inside ${mask.inside}, outside ${mask.outside}`);
        for (const [got, d] of [
          [mask.ramp6, 6],
          [mask.ramp1, -1],
        ]) {
          const want = over(blue, smooth(d));
          assert.ok(near(got, want, 6), `feather ${d} px inside the edge: ${got}, want ${want} (blue at ${smooth(d).toFixed(3)})`);
        }
      } finally {
        await browser.close();
      }
    });
  }

  test("the text's edge pixels are the same on the three backends", () => {
    assert.deepEqual(Object.keys(rows).sort(), ["canvas2d", "webgl2", "webgpu"], "each backend's test ran");
    for (const backend of ["webgpu", "webgl2"])
      rows[backend].forEach((p, i) => assert.ok(near(p, rows.canvas2d[i]), `${backend} at x ${ROW.from + i}: ${p}, Canvas2D ${rows.canvas2d[i]}`));
  });
});
