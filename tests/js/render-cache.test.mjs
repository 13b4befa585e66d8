// neuralcut/render over a long session: pictures no frame uses are let go beyond a few, a picture
// every frame uses is kept, and a picture let go is loaded again when it returns; a masked still
// image is masked once while its mask stays the same. Headless Chromium, on Canvas2D (which
// keeps the pictures it draws) and WebGL2 (which keeps textures).
// Needs `npm run build` first.
import { strict as assert } from "node:assert";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { serveAndLaunch } from "./browser.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const IMAGES = 12;

/** Runs in the page. */
async function inPage({ backend, images }) {
  const { createEditor } = await import("/dist/index.js");
  const { createFrameRenderer } = await import("/dist/render.js");
  const { loadOpenCutScene } = await import("/dist/opencut.js");
  const S = 120_000;
  const colour = (i) => [(i * 53 + 20) % 256, (i * 97 + 40) % 256, (i * 151 + 80) % 256];
  const png = async (rgb) => {
    const c = new OffscreenCanvas(16, 9);
    const g = c.getContext("2d");
    g.fillStyle = `rgb(${rgb.join(",")})`;
    g.fillRect(0, 0, 16, 9);
    return c.convertToBlob({ type: "image/png" });
  };
  // Counts the pictures the renderer decodes (it decodes images through an image element).
  let decodes = 0;
  const decode = HTMLImageElement.prototype.decode;
  HTMLImageElement.prototype.decode = function () {
    decodes++;
    return decode.call(this);
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
  const el = (id, media, start, duration, params) => ({
    id,
    type: "image",
    name: id,
    mediaId: media,
    startTime: start,
    duration,
    trimStart: 0,
    trimEnd: 0,
    hidden: false,
    params,
  });
  const sources = new Map();
  const assets = [];
  for (let i = 0; i < images; i++) {
    assets.push({ id: `m-${i}`, name: `${i}.png`, type: "image", width: 16, height: 9 });
    sources.set(`m-${i}`, { file: await png(colour(i)) });
  }
  // A logo in the top-left quarter for the whole timeline, over a new picture every second.
  assets.push({ id: "m-logo", name: "logo.png", type: "image", width: 16, height: 9 });
  sources.set("m-logo", { file: await png([255, 255, 255]) });
  const scene = {
    settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: 160, height: 90 } },
    assets,
    tracks: {
      overlay: [
        {
          id: "t-logo",
          name: "logo",
          type: "video",
          hidden: false,
          muted: false,
          elements: [
            el(
              "logo",
              "m-logo",
              0,
              images * S,
              visual({ "transform.positionX": -40, "transform.positionY": -22.5, "transform.scaleX": 0.5, "transform.scaleY": 0.5 }),
            ),
          ],
        },
      ],
      main: {
        id: "t-main",
        name: "Main Track",
        type: "video",
        hidden: false,
        muted: false,
        elements: Array.from({ length: images }, (_, i) => el(`p${i}`, `m-${i}`, i * S, S, visual())),
      },
      audio: [],
    },
  };
  const editor = await createEditor();
  loadOpenCutScene(editor, scene, { sources });
  const r = await createFrameRenderer({ editor, backend });
  const px = async (x, y) => Array.from((await r.readPixels({ x, y, width: 1, height: 1 })).slice(0, 3));
  const frames = [];
  for (let i = 0; i < images; i++) {
    await r.render(i + 0.5);
    frames.push({ cached: r.cached().images, picture: await px(120, 60), logo: await px(20, 10) });
  }
  const decodedOnce = decodes;
  // The first picture again: it was let go, so it is decoded again, and drawn right.
  await r.render(0.5);
  const again = { picture: await px(120, 60), logo: await px(20, 10), decodes: decodes - decodedOnce };
  r.destroy();
  return { backend: r.backend, frames, decodedOnce, again, colours: Array.from({ length: images }, (_, i) => colour(i)) };
}

const chrome = serveAndLaunch(root);

for (const backend of ["canvas2d", "webgl2"]) {
  test(`${backend}: a long run of pictures keeps at most eight idle ones; the logo on every frame stays; a picture let go comes back`, async () => {
    const page = await chrome.browser.newPage();
    try {
      await page.goto(`${chrome.server.url}/tests/js/page.html`);
      const out = await page.evaluate(inPage, { backend, images: IMAGES });
      assert.equal(out.backend, backend);
      out.frames.forEach((f, i) => {
        assert.deepEqual(f.picture, out.colours[i], `second ${i}: the picture`);
        assert.deepEqual(f.logo, [255, 255, 255], `second ${i}: the logo`);
        // The logo and this second's picture, and at most eight pictures no frame uses now.
        assert.ok(f.cached <= 2 + 8, `second ${i}: ${f.cached} pictures held`);
      });
      assert.equal(out.frames.at(-1).cached, 10, "the limit is reached and held");
      assert.equal(out.decodedOnce, IMAGES + 1, "each picture decoded once, the logo once (never let go)");
      assert.deepEqual(out.again, { picture: out.colours[0], logo: [255, 255, 255], decodes: 1 });
    } finally {
      await page.close();
    }
  });
}

/** Runs in the page: one still image through a mask over eight frames, the mask changed once. */
async function maskedInPage({ backend }) {
  const { createEditor } = await import("/dist/index.js");
  const { createFrameRenderer } = await import("/dist/render.js");
  const { loadOpenCutScene } = await import("/dist/opencut.js");
  const S = 120_000;
  // Counts mask work: render-mask.ts keeps the picture where the mask is with "destination-in".
  let masked = 0;
  const drawImage = OffscreenCanvasRenderingContext2D.prototype.drawImage;
  OffscreenCanvasRenderingContext2D.prototype.drawImage = function (...args) {
    if (this.globalCompositeOperation === "destination-in") masked++;
    return drawImage.apply(this, args);
  };
  // One picture pixel per canvas pixel: the mask is applied at the picture's own size.
  const c = new OffscreenCanvas(160, 90);
  const g = c.getContext("2d");
  g.fillStyle = "#ff0000";
  g.fillRect(0, 0, 160, 90);
  const red = await c.convertToBlob({ type: "image/png" });
  const mask = (type) => ({
    id: "m",
    type,
    params: {
      feather: 0,
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
  });
  // The same picture and size, so the same masked picture, moved from x −20 to +20 at 2 s; an
  // ellipse instead of the rectangle from 4 s.
  const el = (id, start, x, type) => ({
    id,
    type: "image",
    name: id,
    mediaId: "red",
    startTime: start * S,
    duration: 2 * S,
    trimStart: 0,
    trimEnd: 0,
    hidden: false,
    params: {
      "transform.positionX": x,
      "transform.positionY": 0,
      "transform.scaleX": 1,
      "transform.scaleY": 1,
      "transform.rotate": 0,
      opacity: 1,
      blendMode: "normal",
    },
    masks: [mask(type)],
  });
  const editor = await createEditor();
  loadOpenCutScene(
    editor,
    {
      settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: 160, height: 90 }, background: { type: "color", color: "#000000" } },
      assets: [{ id: "red", name: "red.png", type: "image", width: 160, height: 90 }],
      tracks: {
        overlay: [],
        main: {
          id: "t-main",
          name: "Main",
          type: "video",
          hidden: false,
          muted: false,
          elements: [el("a", 0, -20, "rectangle"), el("b", 2, 20, "rectangle"), el("c", 4, 0, "ellipse")],
        },
        audio: [],
      },
    },
    { sources: new Map([["red", { file: red }]]) },
  );
  const r = await createFrameRenderer({ editor, backend });
  const px = async (x, y) => Array.from((await r.readPixels({ x, y, width: 1, height: 1 })).slice(0, 3));
  const frames = [];
  for (const t of [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 4.5, 5.5]) {
    const f = await r.render(t);
    // The rectangle's box: x 20–100 (a), 60–140 (b); the ellipse's about (80, 45), 40 × 22.5.
    frames.push({ t, drawn: f.drawn, masked, probes: [await px(30, 45), await px(130, 45), await px(80, 45), await px(45, 26)] });
  }
  r.destroy();
  return { backend: r.backend, frames };
}

for (const backend of ["canvas2d", "webgl2"]) {
  test(`${backend}: a masked still image is masked once, moved without masking again, masked again when its mask changes`, async () => {
    const page = await chrome.browser.newPage();
    try {
      await page.goto(`${chrome.server.url}/tests/js/page.html`);
      const out = await page.evaluate(maskedInPage, { backend });
      assert.equal(out.backend, backend);
      const [R, K] = [
        [255, 0, 0],
        [0, 0, 0],
      ];
      for (const f of out.frames) {
        const want = f.t < 2 ? [R, K, R, R] : f.t < 4 ? [K, R, R, K] : [K, K, R, K];
        assert.deepEqual(f.probes, want, `${f.t} s: the masked picture`);
        assert.equal(f.drawn.length, 1, `${f.t} s: one layer drawn`);
      }
      assert.deepEqual(
        out.frames.map((f) => f.masked),
        [1, 1, 1, 1, 1, 1, 2, 2],
        "mask work after each frame: once for the rectangle (moved at 2 s), once for the ellipse",
      );
    } finally {
      await page.close();
    }
  });
}
