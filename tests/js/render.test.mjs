// neuralcut/render in headless Chromium, on WebGPU (SwiftShader) and on WebGL2: timelines made of
// media generated in the page (solid-colour images, a shape, text) and the demo's sample video,
// drawn by the GPU compositor and probed at pixels whose colour is computed by hand from
// OpenCut's placement rules (docs/render.md).
//
// Needs `npm run build` first (dist/render.js). NEURALCUT_DIST points at another build.
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { WEBGPU_FLAGS, launchChromium, serveDir } from "./browser.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const S = 120_000;

function visual(changes = {}) {
  return {
    "transform.positionX": 0,
    "transform.positionY": 0,
    "transform.scaleX": 1,
    "transform.scaleY": 1,
    "transform.rotate": 0,
    opacity: 1,
    blendMode: "normal",
    ...changes,
  };
}

function image(id, media, start, duration, params) {
  return { id, type: "image", name: id, mediaId: media, startTime: start, duration, trimStart: 0, trimEnd: 0, hidden: false, params };
}

/** 1920×1080: a red|blue background, a green picture-in-picture, a half-transparent copy, a
 * magenta rectangle graphic, a title on a yellow box, and an invert effect from 1 s to 2 s. */
const SCENE = {
  settings: { fps: { numerator: 30, denominator: 1 }, canvasSize: { width: 1920, height: 1080 } },
  assets: [
    { id: "m-bg", name: "bg.png", type: "image", width: 160, height: 90 },
    { id: "m-pip", name: "pip.png", type: "image", width: 100, height: 100 },
  ],
  tracks: {
    overlay: [
      {
        id: "t-fx",
        name: "Effect track",
        type: "effect",
        hidden: false,
        elements: [
          { id: "fx", type: "effect", name: "Invert", effectType: "invert", params: { intensity: 100 }, startTime: S, duration: S, trimStart: 0, trimEnd: 0 },
        ],
      },
      {
        id: "t-text",
        name: "Text track",
        type: "text",
        hidden: false,
        elements: [
          {
            id: "title",
            type: "text",
            name: "Title",
            startTime: 0,
            duration: 3 * S,
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
              "background.color": "#ffff00",
              "background.cornerRadius": 0,
              "background.paddingX": 30,
              "background.paddingY": 42,
              "background.offsetX": 0,
              "background.offsetY": 0,
              ...visual({ "transform.positionX": -480, "transform.positionY": 270 }),
            },
          },
        ],
      },
      {
        id: "t-gfx",
        name: "Graphic track",
        type: "graphic",
        hidden: false,
        elements: [
          {
            id: "shape",
            type: "graphic",
            name: "Rectangle",
            definitionId: "rectangle",
            startTime: 0,
            duration: 3 * S,
            trimStart: 0,
            trimEnd: 0,
            params: {
              ...visual({ "transform.positionX": -700, "transform.positionY": -350, "transform.scaleX": 0.1, "transform.scaleY": 0.1 }),
              fill: "#ff00ff",
              stroke: "#000000",
              strokeWidth: 0,
              strokeAlign: "center",
              cornerRadius: 0,
            },
          },
        ],
      },
      {
        id: "t-pip",
        name: "Video track",
        type: "video",
        hidden: false,
        muted: false,
        elements: [
          image(
            "pip",
            "m-pip",
            0,
            3 * S,
            visual({ "transform.positionX": 640, "transform.positionY": -300, "transform.scaleX": 0.25, "transform.scaleY": 0.25 }),
          ),
          image(
            "ghost",
            "m-pip",
            3 * S,
            3 * S,
            visual({ "transform.positionX": 640, "transform.positionY": 300, "transform.scaleX": 0.25, "transform.scaleY": 0.25, opacity: 0.5 }),
          ),
        ],
      },
    ],
    main: { id: "t-main", name: "Main Track", type: "video", hidden: false, muted: false, elements: [image("bg", "m-bg", 0, 6 * S, visual())] },
    audio: [],
  },
};

/** Runs in the page. */
async function runInPage({ base, backend, scene, clipUrl }) {
  const { createEditor } = await import(`${base}/index.js`);
  const { createFrameRenderer } = await import(`${base}/render.js`);
  const { loadOpenCutScene } = await import(`${base}/opencut.js`);
  const png = async (w, h, paint) => {
    const c = new OffscreenCanvas(w, h);
    paint(c.getContext("2d"));
    return c.convertToBlob({ type: "image/png" });
  };
  const bg = await png(160, 90, (g) => {
    g.fillStyle = "#ff0000";
    g.fillRect(0, 0, 80, 90);
    g.fillStyle = "#0000ff";
    g.fillRect(80, 0, 80, 90);
  });
  const pip = await png(100, 100, (g) => {
    g.fillStyle = "#00ff00";
    g.fillRect(0, 0, 100, 100);
  });
  const out = { backend };
  const probe = (pixels, width, x, y) => Array.from(pixels.slice((y * width + x) * 4, (y * width + x) * 4 + 4));

  // 1. An OpenCut scene, its media handed over as sources (the bridge's assets).
  const editor = await createEditor();
  loadOpenCutScene(editor, scene, {
    sources: new Map([
      ["m-bg", { file: bg }],
      ["m-pip", { file: pip }],
    ]),
  });
  const r = await createFrameRenderer({ editor, backend });
  out.backendUsed = r.backend;
  // What "auto" picks here, and what the adapters are: the rule is checked, not the machine.
  const { probeAdapters } = await import(`${base}/effects.js`);
  const adapters = await probeAdapters();
  const auto = await createFrameRenderer({ editor });
  out.auto = {
    backend: auto.backend,
    reason: auto.backendReason,
    hardware: ["webgpu", "webgl2"].filter((b) => adapters[b].available && !adapters[b].software),
  };
  auto.destroy();
  const at = async (t, width) => {
    window.__step = `render ${t}`;
    const f = await r.render(t, { width });
    window.__step = `read ${t}`;
    const pixels = await r.readPixels();
    return { f, pixels };
  };
  const a = await at(0.5, 384);
  out.size = [a.f.width, a.f.height];
  out.drawn = a.f.drawn;
  out.missing = a.f.missing;
  const p = (x, y) => probe(a.pixels, 384, x, y);
  out.first = {
    bgLeft: p(20, 200),
    bgRight: p(370, 200),
    pipCentre: p(320, 48),
    pipInsideEdge: p(296, 24),
    leftOfPip: p(288, 48),
    belowPip: p(320, 80),
    shape: p(52, 38),
    box: p(96, 145),
  };
  // Text glyphs: white pixels inside the yellow box.
  let white = 0;
  for (let y = 140; y < 185; y++)
    for (let x = 60; x < 132; x++)
      if (
        p(x, y)
          .slice(0, 3)
          .every((c) => c > 230)
      )
        white++;
  out.whiteGlyphPixels = white;
  const b = await at(1.5, 384);
  out.inverted = { bgLeft: probe(b.pixels, 384, 20, 200), pipCentre: probe(b.pixels, 384, 320, 48), box: probe(b.pixels, 384, 96, 145) };
  const c = await at(4, 384);
  out.ghost = probe(c.pixels, 384, 320, 168);
  out.noGhostAbove = probe(c.pixels, 384, 320, 48);
  window.__step = "toBlob";
  const blob = await r.toBlob();
  const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  const decoded = await createImageBitmap(blob);
  out.png = { type: blob.type, signature: Array.from(head), size: [decoded.width, decoded.height] };
  window.__step = "full";
  const full = await r.render(0.5);
  out.fullSize = [full.width, full.height];
  out.badWidth = await r.render(0.5, { width: 0 }).then(
    () => "no error",
    (e) => e.message,
  );
  // WebMCP: render_preview registered with the renderer returns an image block and the description.
  const { registerWebMcpTools } = await import(`${base}/webmcp.js`);
  const registered = new Map();
  const reg = await registerWebMcpTools(editor, { modelContext: { registerTool: (t) => void registered.set(t.name, t) }, renderer: r });
  const tool = registered.get("render_preview");
  const res = await tool.execute({ time: 0.5, width: 192 });
  const shot = await createImageBitmap(new Blob([Uint8Array.from(atob(res.content[0].data), (c) => c.charCodeAt(0))], { type: "image/png" }));
  const sc = new OffscreenCanvas(shot.width, shot.height).getContext("2d");
  sc.drawImage(shot, 0, 0);
  out.webmcp = {
    names: reg.names.slice(-1),
    readOnly: tool.annotations.readOnlyHint,
    type: res.content[0].type,
    mimeType: res.content[0].mimeType,
    size: [shot.width, shot.height],
    pip: Array.from(sc.getImageData(160, 24, 1, 1).data),
    description: JSON.parse(res.content[1].text),
    bad: (await tool.execute({ time: "soon" })).isError,
  };
  reg.unregister();
  r.destroy();

  // 2. A timeline the tools build: the demo's video from a URL, text, a sticker from the catalog.
  const ed = await createEditor();
  // As a File (the test server answers no range requests, which video seeking needs).
  const clip = await (await fetch(clipUrl)).blob();
  const video = ed.addAsset({ name: "clip.webm", type: "video", duration: 6, width: 480, height: 270, fps: 30, file: clip });
  await ed.callToolUntyped("add_media_to_timeline", { assetId: video, startTime: 0, trackType: "main" });
  const star = await png(64, 64, (g) => {
    g.fillStyle = "#00ffff";
    g.fillRect(0, 0, 64, 64);
  });
  const starUrl = URL.createObjectURL(star);
  ed.addSticker({ id: "test:cyan", name: "Cyan", url: starUrl });
  await ed.callToolUntyped("add_sticker", { stickerId: "test:cyan", start: 0, end: 6, position: "top-left" });
  await ed.callToolUntyped("add_text", { text: "Caption", start: 0, end: 6, position: "bottom", style: "label" });
  // Chromium's SwiftShader WebGPU breaks buffer mapping on a device once it has drawn to a
  // canvas (see effects.test.mjs), so on WebGPU the frames are read from a headless renderer and
  // the canvas is checked by a second one.
  const canvas = document.createElement("canvas");
  const r2 = await createFrameRenderer({ editor: ed, backend, canvas: backend === "webgpu" ? undefined : canvas });
  const frames = [];
  for (const t of [1.5, 2.5]) {
    window.__step = `video ${t}`;
    const f = await r2.render(t, { width: 480 });
    const pixels = await r2.readPixels();
    // The same source frame through Canvas2D, for comparison (the video fills 1920×1080 exactly).
    const v = document.createElement("video");
    v.muted = true;
    v.src = URL.createObjectURL(clip);
    await new Promise((ok) => v.addEventListener("loadeddata", ok, { once: true }));
    v.currentTime = t + 1 / 60;
    await new Promise((ok) => v.addEventListener("seeked", ok, { once: true }));
    const ref = new OffscreenCanvas(480, 270).getContext("2d", { willReadFrequently: true });
    // Compared away from the sticker (top-left) and the caption (bottom centre).
    const meanDiff = () => {
      ref.drawImage(v, 0, 0, 480, 270);
      const want = ref.getImageData(0, 0, 480, 270).data;
      let sum = 0,
        n = 0;
      for (let y = 0; y < 180; y++)
        for (let x = 240; x < 480; x++)
          for (let k = 0; k < 3; k++) {
            sum += Math.abs(pixels[(y * 480 + x) * 4 + k] - want[(y * 480 + x) * 4 + k]);
            n++;
          }
      return sum / n;
    };
    // The reference's picture can lag "seeked" on a busy machine (a run saw 141/255: a frame not
    // yet there): read it again for up to 2 s. The renderer's pixels are fixed by then.
    let mean = meanDiff();
    for (let i = 0; i < 40 && mean >= 8; i++) {
      await new Promise((ok) => setTimeout(ok, 50));
      mean = meanDiff();
    }
    frames.push({ mean, drawn: f.drawn, missing: f.missing, sticker: probe(pixels, 480, 40, 40), pixels });
  }
  let changed = 0;
  for (let i = 0; i < frames[0].pixels.length; i++) if (Math.abs(frames[0].pixels[i] - frames[1].pixels[i]) > 24) changed++;
  out.video = frames.map(({ pixels, ...rest }) => rest);
  out.videoChangedPixels = changed;
  r2.destroy();
  if (backend === "webgpu") {
    const shown = await createFrameRenderer({ editor: ed, backend, canvas });
    await shown.render(2.5, { width: 480 });
    shown.destroy();
  }
  out.canvasSize = [canvas.width, canvas.height];
  return out;
}

const near = (got, want, tol = 3) => got.every((c, i) => Math.abs(c - want[i]) <= tol);

describe("neuralcut/render in Chromium", { timeout: 600_000 }, () => {
  let server;
  before(async () => {
    assert.ok(existsSync(join(dist, "render.js")), `${dist}/render.js is missing: run npm run build`);
    server = await serveDir(root);
  });
  after(() => server?.close());

  for (const [backend, flags] of [
    ["webgpu", WEBGPU_FLAGS],
    ["webgl2", []],
    ["canvas2d", WEBGPU_FLAGS],
  ]) {
    test(`frames of generated media on ${backend} land where OpenCut draws them`, async () => {
      const browser = await launchChromium(flags);
      try {
        const page = await browser.newPage();
        const errors = [];
        page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
        const base = `${server.url}/${relative(root, dist)}`;
        await page.goto(`${server.url}/tests/js/page.html`); // its import map resolves mediabunny (video decoding)
        const out = await page
          .evaluate(runInPage, { base, backend, scene: SCENE, clipUrl: `${server.url}/demo/media/clip.webm` })
          .catch(async (e) => assert.fail(`${e.message.split("\n")[0]} at ${await page.evaluate(() => window.__step)}\nconsole: ${errors.join("\n")}`));
        assert.equal(out.backendUsed, backend);
        // "auto": the GPU where there is a hardware adapter, Canvas2D where there is none.
        if (out.auto.hardware.length) assert.equal(out.auto.backend, out.auto.hardware[0], out.auto.reason);
        else assert.deepEqual([out.auto.backend, out.auto.reason], ["canvas2d", "software adapter: Canvas2D is faster there"]);
        assert.deepEqual(out.size, [384, 216], "width 384 keeps 16:9");
        assert.deepEqual(out.drawn, ["bg", "pip", "shape", "title"], "bottom first");
        assert.deepEqual(out.missing, []);
        const f = out.first;
        assert.ok(near(f.bgLeft, [255, 0, 0, 255]), `background left ${f.bgLeft}`);
        assert.ok(near(f.bgRight, [0, 0, 255, 255]), `background right ${f.bgRight}`);
        // PiP: 100² fits as 1080², × 0.25 = 270 px, centred at (1600, 240): × 0.2 → (320, 48), 54 px.
        assert.ok(near(f.pipCentre, [0, 255, 0, 255]), `pip centre ${f.pipCentre}`);
        assert.ok(near(f.pipInsideEdge, [0, 255, 0, 255]), `pip near its corner ${f.pipInsideEdge}`);
        assert.ok(near(f.leftOfPip, [0, 0, 255, 255]), `left of the pip ${f.leftOfPip}`);
        assert.ok(near(f.belowPip, [0, 0, 255, 255]), `below the pip ${f.belowPip}`);
        // Rectangle graphic: 512² → 1080² × 0.1 = 108 px at (260, 190) → (52, 38).
        assert.ok(near(f.shape, [255, 0, 255, 255]), `shape ${f.shape}`);
        // Title box: anchor (480, 810) → (96, 162); 14 px above the glyphs, inside the padding.
        assert.ok(near(f.box, [255, 255, 0, 255]), `text box ${f.box}`);
        assert.ok(out.whiteGlyphPixels > 30, `glyphs drawn: ${out.whiteGlyphPixels} white pixels`);
        // 1–2 s: the invert effect covers every layer below it (all of them here).
        assert.ok(near(out.inverted.bgLeft, [0, 255, 255, 255]), `inverted background ${out.inverted.bgLeft}`);
        assert.ok(near(out.inverted.pipCentre, [255, 0, 255, 255]), `inverted pip ${out.inverted.pipCentre}`);
        assert.ok(near(out.inverted.box, [0, 0, 255, 255]), `inverted box ${out.inverted.box}`);
        // 4 s: half-opaque green over blue.
        assert.ok(near(out.ghost, [0, 128, 128, 255], 4), `ghost ${out.ghost}`);
        assert.ok(near(out.noGhostAbove, [0, 0, 255, 255]), `pip gone at 4 s ${out.noGhostAbove}`);
        assert.equal(out.png.type, "image/png");
        assert.deepEqual(out.png.signature, [137, 80, 78, 71, 13, 10, 26, 10]);
        assert.deepEqual(out.png.size, [384, 216]);
        assert.deepEqual(out.fullSize, [1920, 1080], "full project resolution by default");
        assert.match(out.badWidth, /width must be/);
        // WebMCP render_preview: 192 px wide, the pip (× 0.1) centred at (160, 24).
        assert.deepEqual(out.webmcp.names, ["render_preview"]);
        assert.equal(out.webmcp.readOnly, true);
        assert.deepEqual([out.webmcp.type, out.webmcp.mimeType], ["image", "image/png"]);
        assert.deepEqual(out.webmcp.size, [192, 108]);
        assert.ok(near(out.webmcp.pip, [0, 255, 0, 255]), `webmcp pip ${out.webmcp.pip}`);
        assert.deepEqual(
          out.webmcp.description.layers.map((l) => l.elementId),
          ["bg", "pip", "shape", "title"],
        );
        assert.equal(out.webmcp.bad, true);
        // The demo video: the compositor's frame matches Canvas2D's drawing of the same source time.
        for (const v of out.video) {
          assert.deepEqual(v.missing, []);
          assert.ok(v.mean < 8, `video frame differs from Canvas2D by ${v.mean.toFixed(2)}/255 on average`);
          // The sticker (64² → 1080² at the top-left placement (162, 162) → (40.5, 40.5)).
          assert.ok(near(v.sticker, [0, 255, 255, 255]), `sticker ${v.sticker}`);
        }
        assert.ok(out.videoChangedPixels > 50, `frames 1 s apart differ (${out.videoChangedPixels} pixels)`);
        assert.deepEqual(out.canvasSize, [480, 270], "the canvas keeps the frame");
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
