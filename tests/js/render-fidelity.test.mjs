// neuralcut/render fidelity in headless Chromium, on WebGPU (SwiftShader) and WebGL2:
// - a generated video with known bars per second (tests/fixtures/media/bars-per-second.mp4,
//   made by demo/media/make-media.sh) drawn at several times, full frame and as a trimmed
//   picture-in-picture, each probe against that second's colours;
// - every blend mode of OpenCut over a known backdrop, and every effect over known colours,
//   against values computed here by hand from the W3C Compositing and Blending formulas and
//   docs/effects.md (tolerance 3/255 unless stated; the video's 4:2:0 VP9 colours 8/255).
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
const S = 120_000;

/** The fixture's bars, second by second: [left, right]. */
const BARS = [
  [
    [255, 0, 0],
    [0, 0, 255],
  ],
  [
    [0, 255, 0],
    [255, 255, 255],
  ],
  [
    [255, 255, 0],
    [0, 0, 0],
  ],
  [
    [0, 255, 255],
    [255, 0, 255],
  ],
];

const CB = [204, 102, 51]; // backdrop (0.8, 0.4, 0.2)
const CS = [102, 153, 230]; // source (0.4, 0.6, ≈0.9)
const MODES = [
  "normal",
  "darken",
  "multiply",
  "color-burn",
  "lighten",
  "screen",
  "plus-lighter",
  "color-dodge",
  "overlay",
  "soft-light",
  "hard-light",
  "difference",
  "exclusion",
  "hue",
  "saturation",
  "color",
  "luminosity",
];

// W3C Compositing and Blending Level 1, section 10, on 0–1 values.
const lum = ([r, g, b]) => 0.3 * r + 0.59 * g + 0.11 * b;
function clipColor(c) {
  const l = lum(c);
  const n = Math.min(...c);
  const x = Math.max(...c);
  let o = c;
  if (n < 0) o = o.map((v) => l + ((v - l) * l) / (l - n));
  if (x > 1) o = o.map((v) => l + ((v - l) * (1 - l)) / (x - l));
  return o;
}
const setLum = (c, l) => clipColor(c.map((v) => v + (l - lum(c))));
const sat = (c) => Math.max(...c) - Math.min(...c);
function setSat(c, s) {
  const [mn, mx] = [Math.min(...c), Math.max(...c)];
  return mx > mn ? c.map((v) => ((v - mn) * s) / (mx - mn)) : [0, 0, 0];
}
const hardLight = (b, s) => (s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1));
const softLight = (b, s) => {
  if (s <= 0.5) return b - (1 - 2 * s) * b * (1 - b);
  const d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : Math.sqrt(b);
  return b + (2 * s - 1) * (d - b);
};
const SEPARABLE = {
  normal: (_b, s) => s,
  darken: Math.min,
  multiply: (b, s) => b * s,
  "color-burn": (b, s) => (b >= 1 ? 1 : s <= 0 ? 0 : 1 - Math.min(1, (1 - b) / s)),
  lighten: Math.max,
  screen: (b, s) => b + s - b * s,
  "plus-lighter": (b, s) => Math.min(1, b + s),
  "color-dodge": (b, s) => (b <= 0 ? 0 : s >= 1 ? 1 : Math.min(1, b / (1 - s))),
  overlay: (b, s) => hardLight(s, b),
  "soft-light": softLight,
  "hard-light": hardLight,
  difference: (b, s) => Math.abs(b - s),
  exclusion: (b, s) => b + s - 2 * b * s,
};
function blend(mode, b, s) {
  if (SEPARABLE[mode]) return b.map((v, i) => SEPARABLE[mode](v, s[i]));
  if (mode === "hue") return setLum(setSat(s, sat(b)), lum(b));
  if (mode === "saturation") return setLum(setSat(b, sat(s)), lum(b));
  if (mode === "color") return setLum(s, lum(b));
  return setLum(b, lum(s)); // luminosity
}
const bytes = (c) => c.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255));
const unit = (c) => c.map((v) => v / 255);

// docs/effects.md, per-pixel effects.
const L709 = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const EFFECTS = [
  ["brightness-contrast", { brightness: 0.1, contrast: 1.5 }, (c) => c.map((v) => (v - 0.5) * 1.5 + 0.5 + 0.1)],
  ["grayscale", { intensity: 100 }, (c) => c.map(() => L709(c))],
  ["saturation", { saturation: 200 }, (c) => c.map((v) => L709(c) + (v - L709(c)) * 2)],
  ["sepia", { intensity: 100 }, ([r, g, b]) => [0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b]],
  ["invert", { intensity: 100 }, (c) => c.map((v) => 1 - v)],
  // At the centre d = 0: unchanged (the corner is probed separately: black).
  ["vignette", { radius: 45, softness: 40 }, (c) => c],
];

/** Runs in the page. */
async function runInPage({ base, backend, barsUrl, modes, effects, S }) {
  const { createEditor } = await import(`${base}/index.js`);
  const { createFrameRenderer } = await import(`${base}/render.js`);
  const { loadOpenCutScene } = await import(`${base}/opencut.js`);
  const png = async (w, h, paint) => {
    const c = new OffscreenCanvas(w, h);
    paint(c.getContext("2d"));
    return c.convertToBlob({ type: "image/png" });
  };
  const solid = (rgb) =>
    png(16, 9, (g) => {
      g.fillStyle = `rgb(${rgb.join(",")})`;
      g.fillRect(0, 0, 16, 9);
    });
  // At the size the blur frame is drawn (320 px wide: one source pixel per output pixel), so the
  // edge the blur is checked on is the picture's, not an upscaler's (Canvas2D's default bilinear
  // and the GPU's differ by a few levels across an upscaled edge).
  const halves = await png(320, 180, (g) => {
    g.fillStyle = "#ff0000";
    g.fillRect(0, 0, 160, 180);
    g.fillStyle = "#0000ff";
    g.fillRect(160, 0, 160, 180);
  });
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
  const el = (id, type, media, start, duration, params, extra = {}) => ({
    id,
    type,
    name: id,
    mediaId: media,
    startTime: start,
    duration,
    trimStart: 0,
    trimEnd: 0,
    hidden: false,
    params,
    ...extra,
  });
  const track = (id, type, elements) => ({ id, name: id, type, hidden: false, muted: false, elements });
  const scene = (assets, main, overlay = []) => ({
    settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: 1920, height: 1080 } },
    assets,
    tracks: { overlay, main: track("t-main", "video", main), audio: [] },
  });
  const px = (pixels, width, x, y) => Array.from(pixels.slice((y * width + x) * 4, (y * width + x) * 4 + 3));
  const out = {};
  const editor = await createEditor();
  const r = await createFrameRenderer({ editor, backend });
  out.backend = r.backend;

  // 1. The bars video, full frame on the main track and as a picture-in-picture a quarter the
  // size at (+480, −270) from the centre, trimmed by 1 s and 3 s long.
  window.__step = "bars";
  const bars = await (await fetch(barsUrl)).blob();
  loadOpenCutScene(
    editor,
    scene(
      [{ id: "bars", name: "bars.webm", type: "video", width: 160, height: 90, duration: 4, fps: 30 }],
      [el("full", "video", "bars", 0, 4 * S, visual())],
      [
        track("t-pip", "video", [
          el(
            "pip",
            "video",
            "bars",
            0,
            3 * S,
            visual({ "transform.positionX": 480, "transform.positionY": -270, "transform.scaleX": 0.25, "transform.scaleY": 0.25 }),
            { trimStart: S },
          ),
        ]),
      ],
    ),
    { sources: new Map([["bars", { file: bars }]]) },
  );
  out.bars = [];
  for (const t of [0.5, 1.5, 2.5, 3.5, 1.25]) {
    window.__step = `bars ${t}`;
    const f = await r.render(t, { width: 320 });
    const p = await r.readPixels();
    // Full frame at 1/6: left bar x < 160, right bar x ≥ 160. PiP: 80×45 centred at (240, 45).
    out.bars.push({
      t,
      drawn: f.drawn,
      missing: f.missing,
      left: px(p, 320, 40, 150),
      right: px(p, 320, 280, 150),
      pipLeft: px(p, 320, 215, 45),
      pipRight: px(p, 320, 265, 45),
      abovePip: px(p, 320, 240, 15),
      leftOfPip: px(p, 320, 190, 45),
    });
  }

  // 2. Each blend mode: a full-frame source over a full-frame backdrop.
  const cb = await solid(modes.cb);
  const cs = await solid(modes.cs);
  out.blend = {};
  for (const mode of modes.list) {
    window.__step = `blend ${mode}`;
    loadOpenCutScene(
      editor,
      scene(
        [
          { id: "cb", name: "cb.png", type: "image", width: 16, height: 9 },
          { id: "cs", name: "cs.png", type: "image", width: 16, height: 9 },
        ],
        [el("b", "image", "cb", 0, 4 * S, visual())],
        [track("t-s", "video", [el("s", "image", "cs", 0, 4 * S, visual({ blendMode: mode }))])],
      ),
      {
        sources: new Map([
          ["cb", { file: cb }],
          ["cs", { file: cs }],
        ]),
      },
    );
    await r.render(1, { width: 64 });
    out.blend[mode] = px(await r.readPixels(), 64, 32, 18);
  }

  // 3. Kept uploads follow edits: a picture moved, a text box recoloured between two frames.
  out.edits = [];
  for (const [x, box] of [
    [-480, "#00ff00"],
    [480, "#ff00ff"],
  ]) {
    window.__step = `edit ${x}`;
    loadOpenCutScene(
      editor,
      scene(
        [
          { id: "cb", name: "cb.png", type: "image", width: 16, height: 9 },
          { id: "cs", name: "cs.png", type: "image", width: 16, height: 9 },
        ],
        [el("b", "image", "cb", 0, 4 * S, visual())],
        [
          track("t-text", "text", [
            {
              id: "title",
              type: "text",
              name: "Title",
              startTime: 0,
              duration: 4 * S,
              trimStart: 0,
              trimEnd: 0,
              params: {
                content: "Hi",
                fontFamily: "Arial",
                fontSize: 10,
                color: "#ffffff",
                textAlign: "center",
                fontWeight: "bold",
                fontStyle: "normal",
                textDecoration: "none",
                letterSpacing: 0,
                lineHeight: 1.2,
                "background.enabled": true,
                "background.color": box,
                "background.cornerRadius": 0,
                "background.paddingX": 30,
                "background.paddingY": 42,
                "background.offsetX": 0,
                "background.offsetY": 0,
                ...visual({ "transform.positionY": 270 }),
              },
            },
          ]),
          track("t-s", "video", [el("s", "image", "cs", 0, 4 * S, visual({ "transform.positionX": x, "transform.scaleX": 0.25, "transform.scaleY": 0.25 }))]),
        ],
      ),
      {
        sources: new Map([
          ["cb", { file: cb }],
          ["cs", { file: cs }],
        ]),
      },
    );
    await r.render(1, { width: 320 });
    const p = await r.readPixels();
    // The picture: 480×270 at (960 ± 480, 540) → at 1/6, 80×45 at (80 or 240, 90). The text
    // box's top band (above the glyphs) at (160, 121).
    out.edits.push({ left: px(p, 320, 80, 90), right: px(p, 320, 240, 90), box: px(p, 320, 160, 121) });
  }

  // 3b. A rotated text box is drawn whole, though its canvas is only the text's own box.
  window.__step = "rotated text";
  loadOpenCutScene(
    editor,
    scene(
      [{ id: "cb", name: "cb.png", type: "image", width: 16, height: 9 }],
      [el("b", "image", "cb", 0, 4 * S, visual())],
      [
        track("t-text", "text", [
          {
            id: "box",
            type: "text",
            name: "Box",
            startTime: 0,
            duration: 4 * S,
            trimStart: 0,
            trimEnd: 0,
            params: {
              content: "",
              fontFamily: "Arial",
              fontSize: 10,
              color: "#ffffff",
              textAlign: "center",
              fontWeight: "normal",
              fontStyle: "normal",
              textDecoration: "none",
              letterSpacing: 0,
              lineHeight: 1.2,
              "background.enabled": true,
              "background.color": "#00ff00",
              "background.cornerRadius": 0,
              "background.paddingX": 30,
              "background.paddingY": 42,
              "background.offsetX": 0,
              "background.offsetY": 0,
              ...visual({ "transform.rotate": 90 }),
            },
          },
        ]),
      ],
    ),
    { sources: new Map([["cb", { file: cb }]]) },
  );
  {
    const f = await r.render(1, { width: 320 });
    const p = await r.readPixels();
    out.rotated = { drawn: f.drawn, ends: [px(p, 320, 145, 90), px(p, 320, 175, 90)], above: px(p, 320, 160, 80) };
  }

  // 3c. The canvas background (settings.background) and a styled text box: nothing but a box,
  // rounded and offset, on a coloured canvas.
  window.__step = "canvas background";
  {
    const s = scene(
      [],
      [],
      [
        track("t-text", "text", [
          {
            id: "pill",
            type: "text",
            name: "Pill",
            startTime: 0,
            duration: 4 * S,
            trimStart: 0,
            trimEnd: 0,
            params: {
              content: "",
              fontFamily: "Arial",
              fontSize: 15,
              color: "#ffffff",
              textAlign: "center",
              fontWeight: "normal",
              fontStyle: "normal",
              textDecoration: "none",
              letterSpacing: 0,
              lineHeight: 1,
              "background.enabled": true,
              "background.color": "#ff0000",
              "background.cornerRadius": 100,
              "background.paddingX": 60,
              "background.paddingY": 30,
              "background.offsetX": 300,
              "background.offsetY": 0,
              ...visual(),
            },
          },
        ]),
      ],
    );
    s.settings.background = { type: "color", color: "#336699" };
    loadOpenCutScene(editor, s);
    await r.render(1, { width: 320 });
    const p = await r.readPixels();
    out.canvas = {
      far: px(p, 320, 20, 20),
      centre: px(p, 320, 210, 90),
      corner: px(p, 320, 200, 70),
      topEdge: px(p, 320, 210, 71),
      leftEdge: px(p, 320, 201, 90),
    };
  }
  // 3d. The blur background: the main track's picture covering the canvas, blurred, under the
  // picture itself drawn at half size.
  window.__step = "blur background";
  {
    const s = scene(
      [{ id: "h", name: "halves.png", type: "image", width: 320, height: 180 }],
      [el("b", "image", "h", 0, 4 * S, visual({ "transform.scaleX": 0.5, "transform.scaleY": 0.5 }))],
    );
    s.settings.background = { type: "blur", blurIntensity: 100 };
    loadOpenCutScene(editor, s, { sources: new Map([["h", { file: halves }]]) });
    const f = await r.render(1, { width: 320 });
    const p = await r.readPixels();
    out.backdrop = {
      drawn: f.drawn,
      farLeft: px(p, 320, 20, 10),
      farRight: px(p, 320, 300, 10),
      edgeLeft: px(p, 320, 159, 10),
      edgeRight: px(p, 320, 160, 10),
      picLeft: px(p, 320, 120, 90),
      picRight: px(p, 320, 200, 90),
    };
  }

  // 4. Each effect as an effect element over the backdrop colour; blur over a red | blue edge.
  out.effects = {};
  for (const [effectType, params] of effects) {
    window.__step = `effect ${effectType}`;
    loadOpenCutScene(
      editor,
      scene(
        [{ id: "cb", name: "cb.png", type: "image", width: 16, height: 9 }],
        [el("b", "image", "cb", 0, 4 * S, visual())],
        [
          track("t-fx", "effect", [
            { id: "fx", type: "effect", name: effectType, effectType, params, startTime: 0, duration: 4 * S, trimStart: 0, trimEnd: 0 },
          ]),
        ],
      ),
      { sources: new Map([["cb", { file: cb }]]) },
    );
    await r.render(1, { width: 64 });
    const p = await r.readPixels();
    out.effects[effectType] = { centre: px(p, 64, 32, 18), corner: px(p, 64, 0, 0) };
  }
  window.__step = "blur";
  loadOpenCutScene(
    editor,
    scene(
      [{ id: "h", name: "halves.png", type: "image", width: 320, height: 180 }],
      [el("b", "image", "h", 0, 4 * S, visual())],
      [
        track("t-fx", "effect", [
          { id: "fx", type: "effect", name: "Blur", effectType: "blur", params: { intensity: 100 }, startTime: 0, duration: 4 * S, trimStart: 0, trimEnd: 0 },
        ]),
      ],
    ),
    { sources: new Map([["h", { file: halves }]]) },
  );
  await r.render(1, { width: 320 });
  const p = await r.readPixels();
  out.blur = { edgeLeft: px(p, 320, 159, 90), edgeRight: px(p, 320, 160, 90), farLeft: px(p, 320, 20, 90), farRight: px(p, 320, 300, 90) };
  r.destroy();
  return out;
}

const near = (got, want, tol = 3) => got.length === want.length && got.every((c, i) => Math.abs(c - want[i]) <= tol);

describe("neuralcut/render fidelity in Chromium", { timeout: 600_000 }, () => {
  let server;
  before(async () => {
    assert.ok(existsSync(join(dist, "render.js")), `${dist}/render.js is missing: run npm run build`);
    server = await serveDir(root);
  });
  after(() => server?.close());

  for (const [backend, flags] of RENDER_BACKENDS) {
    test(`bars per second, every blend mode and every effect on ${backend}`, async () => {
      const browser = await launchChromium(flags);
      try {
        const page = await browser.newPage();
        const errors = [];
        page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
        const base = `${server.url}/${relative(root, dist)}`;
        await page.goto(`${server.url}/tests/js/page.html`); // its import map resolves mediabunny (video decoding)
        const out = await page
          .evaluate(runInPage, {
            base,
            backend,
            barsUrl: `${server.url}/tests/fixtures/media/bars-per-second.mp4`,
            modes: { cb: CB, cs: CS, list: MODES },
            effects: EFFECTS.map(([id, params]) => [id, params]),
            S,
          })
          .catch(async (e) => assert.fail(`${e.message.split("\n")[0]} at ${await page.evaluate(() => window.__step)}\nconsole: ${errors.join("\n")}`));
        assert.equal(out.backend, backend);

        for (const f of out.bars) {
          const second = Math.floor(f.t);
          assert.deepEqual(f.missing, [], `${f.t} s: nothing missing`);
          const [l, r] = BARS[second];
          assert.ok(near(f.left, l, 8), `${f.t} s: left bar ${f.left}, want ${l}`);
          assert.ok(near(f.right, r, 8), `${f.t} s: right bar ${f.right}, want ${r}`);
          if (f.t < 3) {
            // The PiP starts 1 s into the source: the next second's bars.
            assert.deepEqual(f.drawn, ["full", "pip"]);
            const [pl, pr] = BARS[second + 1];
            assert.ok(near(f.pipLeft, pl, 8), `${f.t} s: pip left ${f.pipLeft}, want ${pl}`);
            assert.ok(near(f.pipRight, pr, 8), `${f.t} s: pip right ${f.pipRight}, want ${pr}`);
            // Outside the PiP (y 22.5–67.5, x 200–280): the full-frame right bar.
            assert.ok(near(f.abovePip, r, 8), `${f.t} s: above the pip ${f.abovePip}`);
            assert.ok(near(f.leftOfPip, r, 8), `${f.t} s: left of the pip ${f.leftOfPip}`);
          } else {
            assert.deepEqual(f.drawn, ["full"], "the PiP ends at 3 s");
          }
        }

        for (const mode of MODES) {
          const want = bytes(blend(mode, unit(CB), unit(CS)));
          assert.ok(near(out.blend[mode], want), `${mode}: ${out.blend[mode]}, want ${want}`);
        }
        // The modes are told apart: at least 12 distinct results for 17 modes on these colours.
        assert.ok(new Set(MODES.map((m) => out.blend[m].join())).size >= 12);

        // A moved picture and a recoloured text box show in the next frame.
        const [e1, e2] = out.edits;
        assert.ok(near(e1.left, CS) && near(e1.right, CB), `first frame: ${e1.left} | ${e1.right}`);
        assert.ok(near(e2.left, CB) && near(e2.right, CS), `moved: ${e2.left} | ${e2.right}`);
        assert.ok(near(e1.box, [0, 255, 0]), `text box ${e1.box}`);
        assert.ok(near(e2.box, [255, 0, 255]), `recoloured text box ${e2.box}`);

        // An empty line in a box: 2 × 20 px padding wide, 144 + 2 × 28 px tall, rotated 90°
        // about the centre: 200 × 40 px, x 860–1060, y 520–560; at 1/6, x 143–177, y 87–93.
        assert.deepEqual(out.rotated.drawn, ["b", "box"]);
        for (const end of out.rotated.ends) assert.ok(near(end, [0, 255, 0]), `rotated box end ${end}`);
        assert.ok(near(out.rotated.above, CB), `rotated away from (160, 80): ${out.rotated.above}`);

        // The canvas colour where nothing is drawn. The box: empty text, so the block is one line
        // of 180 px (fontSize 15 × 1080/90, lineHeight 1) and no width; padding 60 × 30 (at
        // fontSize 15, ratio 1): 120 × 240 px, shifted 300 px right: x 1200–1320, y 420–660, at
        // 1/6 x 200–220, y 70–110. Corner radius 100 % of half the shorter side: 60 px (10 at
        // 1/6), so the corner pixel (200, 70) is outside the rounding, (210, 71) and (201, 90) in.
        const blue = [51, 102, 153];
        assert.ok(near(out.canvas.far, blue), `canvas background ${out.canvas.far}`);
        assert.ok(near(out.canvas.centre, [255, 0, 0]), `box ${out.canvas.centre}`);
        assert.ok(near(out.canvas.corner, blue), `rounded corner ${out.canvas.corner}`);
        assert.ok(
          near(out.canvas.topEdge, [255, 0, 0], 40) && near(out.canvas.leftEdge, [255, 0, 0], 40),
          `box edges ${out.canvas.topEdge} ${out.canvas.leftEdge}`,
        );

        // The blur background: the 320 × 180 picture covers the canvas exactly (× 6, one picture
        // pixel per output pixel at 320 wide), blurred at σ = 100/5 × 320/1920 ≈ 3.3 px: far from
        // its red | blue edge the colours stay, at the edge the two sides mirror each other. The
        // picture at half size (x 80–240, y 45–135) is sharp over it.
        const b = out.backdrop;
        assert.deepEqual(b.drawn, ["b", "background", "b"]);
        assert.ok(near(b.farLeft, [255, 0, 0]) && near(b.farRight, [0, 0, 255]), `backdrop ${b.farLeft} ${b.farRight}`);
        assert.ok(
          Math.abs(b.edgeLeft[0] + b.edgeRight[0] - 255) <= 3 && b.edgeLeft[0] < 245 && b.edgeLeft[0] > 128,
          `backdrop edge ${b.edgeLeft} | ${b.edgeRight}`,
        );
        assert.ok(near(b.picLeft, [255, 0, 0]) && near(b.picRight, [0, 0, 255]), `picture ${b.picLeft} ${b.picRight}`);

        for (const [id, , formula] of EFFECTS) {
          const want = bytes(formula(unit(CB)));
          assert.ok(near(out.effects[id].centre, want), `${id}: ${out.effects[id].centre}, want ${want}`);
          if (id === "vignette") assert.ok(near(out.effects[id].corner, [0, 0, 0]), `vignette corner ${out.effects[id].corner}`);
          else assert.ok(near(out.effects[id].corner, want), `${id} is uniform: corner ${out.effects[id].corner}`);
        }
        // Blur: a symmetric kernel across the red | blue edge between x = 159 and 160 gives
        // mirror-image pixels there (their red channels sum to 255), blurred (not 255 / 0);
        // far from the edge the colours stay.
        const { edgeLeft, edgeRight, farLeft, farRight } = out.blur;
        assert.ok(Math.abs(edgeLeft[0] + edgeRight[0] - 255) <= 3, `blur edge ${edgeLeft} | ${edgeRight}`);
        assert.ok(Math.abs(edgeLeft[2] + edgeRight[2] - 255) <= 3, `blur edge ${edgeLeft} | ${edgeRight}`);
        assert.ok(edgeLeft[0] < 245 && edgeLeft[0] > 128, `blurred: ${edgeLeft}`);
        assert.ok(near(farLeft, [255, 0, 0]) && near(farRight, [0, 0, 255]), `far from the edge ${farLeft} ${farRight}`);
        assert.deepEqual(
          errors.filter((e) => /GPU error|panicked/.test(e)),
          [],
          "no GPU errors",
        );
      } finally {
        await browser.close();
      }
    });
  }
});
