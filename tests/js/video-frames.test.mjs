// Video for an export, decoded in order (js/media/video-frames.ts), in headless Chromium: the
// picture drawn for each time is the one a seek of a video element draws, for two elements of one
// file, backward and forward jumps, mid-frame times and the end of the file; an export seeks no
// element and its frames read back right; `toVideoFrame` hands over the frame drawn.
//
// The clip: 30 frames at 10 fps (a key frame each second), each a solid colour of its own, so a
// probed colour names the frame that was drawn. Muted: it has no sound track.
//
// Needs `npm run build` first.
import { strict as assert } from "node:assert";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { serveAndLaunch } from "./browser.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Runs in the page. */
async function inPage({ check }) {
  const mb = await import("mediabunny");
  const { createEditor } = await import("/dist/index.js");
  const { createFrameRenderer } = await import("/dist/render.js");
  const { exportVideo } = await import("/dist/export.js");
  const { loadOpenCutScene } = await import("/dist/opencut.js");
  const { SequentialVideoFrames } = await import("/dist/media/video-frames.js");
  const S = 120_000;
  const FRAMES = 30;
  const colour = (i) => [(i * 53 + 20) % 256, (i * 97 + 40) % 256, (i * 151 + 80) % 256];
  /** The frame whose colour is nearest to `px`, and how far it is. */
  const classify = (px) => {
    let best = { index: -1, distance: Infinity };
    for (let i = 0; i < FRAMES; i++) {
      const d = Math.max(...colour(i).map((c, k) => Math.abs(c - px[k])));
      if (d < best.distance) best = { index: i, distance: d };
    }
    return best;
  };

  const out = new mb.Output({ format: new mb.WebMOutputFormat(), target: new mb.BufferTarget() });
  const src = new mb.VideoSampleSource({ codec: "vp8", bitrate: 2e6, keyFrameInterval: 1 });
  out.addVideoTrack(src, { frameRate: 10 });
  await out.start();
  const c = new OffscreenCanvas(160, 90);
  const g = c.getContext("2d");
  for (let i = 0; i < FRAMES; i++) {
    g.fillStyle = `rgb(${colour(i).join(",")})`;
    g.fillRect(0, 0, 160, 90);
    const s = new mb.VideoSample(c, { timestamp: i / 10, duration: 0.1 });
    await src.add(s);
    s.close();
  }
  await out.finalize();
  const clip = new Blob([out.target.buffer], { type: "video/webm" });

  const visual = {
    "transform.positionX": 0,
    "transform.positionY": 0,
    "transform.scaleX": 1,
    "transform.scaleY": 1,
    "transform.rotate": 0,
    opacity: 1,
    blendMode: "normal",
    volume: 0,
    muted: true,
  };
  const scene = {
    settings: { fps: { numerator: 10, denominator: 1 }, canvasSize: { width: 160, height: 90 } },
    assets: [{ id: "m-clip", name: "clip.webm", type: "video", width: 160, height: 90, duration: 3, fps: { numerator: 10, denominator: 1 } }],
    tracks: {
      overlay: [],
      main: {
        id: "t-main",
        name: "Main Track",
        type: "video",
        hidden: false,
        muted: false,
        elements: [
          {
            id: "clip",
            type: "video",
            name: "clip",
            mediaId: "m-clip",
            startTime: 0,
            duration: 3 * S,
            trimStart: 0,
            trimEnd: 0,
            sourceDuration: 3 * S,
            hidden: false,
            params: visual,
          },
        ],
      },
      audio: [],
    },
  };
  const editor = await createEditor();
  loadOpenCutScene(editor, scene, { sources: new Map([["m-clip", { file: clip }]]) });
  const info = () => ({ fps: 10, duration: 3 });
  const probe = (picture) => {
    const p = new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true });
    p.drawImage(picture, 80, 45, 1, 1, 0, 0, 1, 1);
    return Array.from(p.getImageData(0, 0, 1, 1).data.slice(0, 3));
  };

  if (check === "cursor") {
    // Two elements of one file, asked in turn; back, forward, mid-frame, past the end.
    const frames = new SequentialVideoFrames((id) => editor.assetSource(id), info);
    const asks = [];
    for (let k = 0; k <= 15; k++) asks.push(["a", k / 10], ["b", 1 + k / 10]);
    asks.push(["a", 0.96], ["a", 0.3], ["b", 0.05], ["a", 2.49], ["a", 2.9], ["a", 7], ["b", 2.94]);
    const got = [];
    for (const [el, sourceTime] of asks) {
      const f = await frames.frame({ kind: "media", mediaType: "video", elementId: el, assetId: "m-clip", sourceTime });
      got.push({ el, sourceTime, seen: f ? classify(probe(f)) : null });
    }
    const image = await frames.frame({ kind: "media", mediaType: "image", elementId: "i", assetId: "m-clip", sourceTime: 0 });
    const garbage = new SequentialVideoFrames(() => ({ file: new Blob([new Uint8Array(4096).fill(7)]) }), info);
    const unreadable = await garbage.frame({ kind: "media", mediaType: "video", elementId: "g", assetId: "m-x", sourceTime: 0 });
    const unreadableFiles = garbage.files;
    const noSource = await new SequentialVideoFrames(() => undefined, info).frame({
      kind: "media",
      mediaType: "video",
      elementId: "n",
      assetId: "m-y",
      sourceTime: 0,
    });
    // A URL that is gone (404) is left to the renderer at once, not retried.
    const goneFrames = new SequentialVideoFrames(() => ({ url: `${location.origin}/tests/fixtures/media/no-such-file.webm` }), info);
    const t0 = performance.now();
    const gone = await Promise.race([
      goneFrames.frame({ kind: "media", mediaType: "video", elementId: "x", assetId: "m-z", sourceTime: 0 }),
      new Promise((resolve) => setTimeout(() => resolve("still waiting after 10 s"), 10_000)),
    ]);
    const goneMs = performance.now() - t0;
    goneFrames.dispose();
    // A URL on the page's own origin whose connection fails (the test aborts the request) is
    // retried a few times, then left to the renderer; mediabunny's default retries it forever.
    const deadFrames = new SequentialVideoFrames(() => ({ url: `${location.origin}/tests/fixtures/media/unreachable.webm` }), info);
    const t1 = performance.now();
    const dead = await Promise.race([
      deadFrames.frame({ kind: "media", mediaType: "video", elementId: "d", assetId: "m-d", sourceTime: 0 }),
      new Promise((resolve) => setTimeout(() => resolve("still waiting after 15 s"), 15_000)),
    ]);
    const deadMs = performance.now() - t1;
    deadFrames.dispose();
    // A sweep closes the decoders of elements not asked for since the one before.
    const before = frames.open;
    frames.sweep();
    await frames.frame({ kind: "media", mediaType: "video", elementId: "a", assetId: "m-clip", sourceTime: 1 });
    frames.sweep();
    const afterSweep = frames.open;
    const again = await frames.frame({ kind: "media", mediaType: "video", elementId: "b", assetId: "m-clip", sourceTime: 2.2 });
    const reopened = again ? classify(probe(again)).index : null;
    // Ten clips shown one after another, a sweep after each: the files of clips gone from the
    // screen are closed beyond the four most recent, and a clip that returns decodes again.
    const many = new SequentialVideoFrames(() => ({ file: clip }), info);
    const filesOpen = [];
    for (let k = 0; k < 10; k++) {
      await many.frame({ kind: "media", mediaType: "video", elementId: `e${k}`, assetId: `m-${k}`, sourceTime: 0.5 });
      many.sweep();
      filesOpen.push(many.files);
    }
    const back = await many.frame({ kind: "media", mediaType: "video", elementId: "e0", assetId: "m-0", sourceTime: 1.2 });
    const returned = back ? classify(probe(back)).index : null;
    many.dispose();
    const afterDispose = many.files;
    frames.dispose();
    garbage.dispose();
    return {
      filesOpen,
      returned,
      afterDispose,
      unreadableFiles,
      got,
      image,
      unreadable,
      noSource,
      gone,
      goneMs,
      dead,
      deadMs,
      open: [before, afterSweep, frames.open],
      reopened,
    };
  }

  if (check === "same-as-seek") {
    // The renderer seeking an element, the renderer fed in order by a host's media callback,
    // and the renderer's own decoder, at the same times (none whose target falls on a frame's
    // first instant, where float rounding decides).
    const seeking = await createFrameRenderer({ editor, video: "element" });
    const frames = new SequentialVideoFrames((id) => editor.assetSource(id), info);
    const ordered = await createFrameRenderer({ editor, media: (l) => frames.frame(l) });
    const own = await createFrameRenderer({ editor });
    const rows = [];
    for (const t of [0, 0.1, 0.27, 0.37, 0.5, 0.99, 1.0, 1.04, 1.06, 1.5, 2.0, 2.57, 2.95]) {
      await seeking.render(t);
      await ordered.render(t);
      await own.render(t);
      const a = await seeking.readPixels({ x: 80, y: 45, width: 1, height: 1 });
      const b = await ordered.readPixels({ x: 80, y: 45, width: 1, height: 1 });
      const c = await own.readPixels({ x: 80, y: 45, width: 1, height: 1 });
      rows.push({ t, seek: classify(a), inOrder: classify(b), own: classify(c) });
    }
    seeking.destroy();
    ordered.destroy();
    own.destroy();
    frames.dispose();
    return rows;
  }

  if (check === "export") {
    // Counts the seeks of every video element in the page.
    const d = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, "currentTime");
    let seeks = 0;
    Object.defineProperty(HTMLMediaElement.prototype, "currentTime", {
      configurable: true,
      get: d.get,
      set(v) {
        seeks++;
        d.set.call(this, v);
      },
    });
    const r = await exportVideo(editor, { format: "webm" });
    const exportSeeks = seeks;
    // The counter does count: a frame drawn by a renderer told to seek elements seeks; one that
    // decodes (the default) does not.
    const decoding = await createFrameRenderer({ editor });
    await decoding.render(1.2);
    decoding.destroy();
    const decoderSeeks = seeks - exportSeeks;
    const plain = await createFrameRenderer({ editor, video: "element" });
    await plain.render(1.2);
    plain.destroy();
    const rendererSeeks = seeks - exportSeeks - decoderSeeks;
    const input = new mb.Input({ source: new mb.BlobSource(r.blob), formats: mb.ALL_FORMATS });
    const sink = new mb.CanvasSink(await input.getPrimaryVideoTrack(), { poolSize: 1 });
    const back = [];
    for (const t of [0, 0.4, 1.1, 1.9, 2.3, 2.9]) back.push({ t, seen: classify(probe((await sink.getCanvas(t + 0.01)).canvas)) });
    return { exportSeeks, decoderSeeks, rendererSeeks, frames: r.frames, missing: r.missing, back };
  }

  if (check === "video-frame") {
    const rows = {};
    for (const backend of ["canvas2d", "webgl2"]) {
      const renderer = await createFrameRenderer({ editor, backend });
      await renderer.render(1.25);
      const whole = await renderer.toVideoFrame({ timestamp: 1_250_000, duration: 100_000 });
      const cut = await renderer.toVideoFrame({ timestamp: 7, visibleRect: { x: 0, y: 0, width: 160, height: 88 } });
      const drawn = new OffscreenCanvas(160, 90).getContext("2d", { willReadFrequently: true });
      drawn.drawImage(whole, 0, 0);
      const a = drawn.getImageData(0, 0, 160, 90).data;
      const b = await renderer.readPixels();
      let maxDiff = 0;
      for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
      rows[backend] = {
        used: renderer.backend,
        whole: [whole.displayWidth, whole.displayHeight, whole.timestamp, whole.duration],
        cut: [cut.displayWidth, cut.displayHeight, cut.timestamp],
        seen: classify(probe(whole)),
        maxDiff,
      };
      whole.close();
      cut.close();
      renderer.destroy();
    }
    return rows;
  }
  throw new Error(`unknown check ${check}`);
}

const chrome = serveAndLaunch(root);

async function run(check) {
  const page = await chrome.browser.newPage();
  try {
    // A file whose connection fails, on the page's own origin.
    await page.route("**/tests/fixtures/media/unreachable.webm", (route) => route.abort("connectionrefused"));
    await page.goto(`${chrome.server.url}/tests/js/page.html`);
    return await page.evaluate(inPage, { check });
  } finally {
    await page.close();
  }
}

/** The frame a seek to the middle of the source frame shows: 10 fps, 3 s, held at the end. */
const expectedFrame = (sourceTime) => Math.min(29, Math.floor(Math.min(sourceTime + 0.05, 2.999) * 10 + 1e-6));

test("in-order decoding gives each time its frame: two elements of one file, jumps back and forward, mid-frame, past the end", async () => {
  const out = await run("cursor");
  for (const g of out.got) {
    assert.ok(g.seen, `${g.el} at ${g.sourceTime}: no picture`);
    assert.equal(g.seen.index, expectedFrame(g.sourceTime), `${g.el} at ${g.sourceTime}: drew frame ${g.seen.index}`);
    assert.ok(g.seen.distance <= 12, `${g.el} at ${g.sourceTime}: colour off by ${g.seen.distance}`);
  }
  assert.equal(out.image, null, "an image layer is left to the renderer");
  assert.equal(out.unreadable, null, "a file mediabunny cannot read is left to the renderer");
  assert.equal(out.noSource, null, "an asset without a source is left to the renderer");
  assert.equal(out.gone, null, `a URL that answers 404 is left to the renderer (after ${Math.round(out.goneMs)} ms)`);
  assert.equal(out.dead, null, `an unreachable same-origin URL is left to the renderer (after ${Math.round(out.deadMs)} ms)`);
  assert.deepEqual(out.open, [2, 1, 0], "decoders open: two elements, one after a sweep, none after dispose");
  assert.equal(out.reopened, expectedFrame(2.2), "an element swept away decodes again when asked");
  assert.deepEqual(out.filesOpen, [1, 2, 3, 4, 5, 5, 5, 5, 5, 5], "files open: the one on screen and at most four idle");
  assert.equal(out.returned, expectedFrame(1.2), "a clip whose file was closed decodes again");
  assert.equal(out.afterDispose, 0);
  assert.equal(out.unreadableFiles, 0, "an unreadable file is not kept open");
});

test("the renderer draws the picture a seek draws: fed in order, decoding itself, or seeking an element", async () => {
  const rows = await run("same-as-seek");
  for (const r of rows) {
    assert.equal(r.seek.index, expectedFrame(r.t), `t=${r.t}: the seek drew frame ${r.seek.index}`);
    assert.equal(r.inOrder.index, expectedFrame(r.t), `t=${r.t}: in order drew frame ${r.inOrder.index}`);
    assert.equal(r.own.index, expectedFrame(r.t), `t=${r.t}: the renderer's own decoder drew frame ${r.own.index}`);
  }
});

test("an export decodes its video in order: no element seeks, and its frames read back right", async () => {
  const out = await run("export");
  assert.equal(out.exportSeeks, 0, "the export seeked a video element");
  assert.equal(out.decoderSeeks, 0, "a renderer that decodes seeked a video element");
  assert.ok(out.rendererSeeks >= 1, "the seek counter saw no seek of a renderer told to seek");
  assert.equal(out.frames, 30);
  assert.deepEqual(out.missing, []);
  for (const b of out.back) assert.equal(b.seen.index, Math.floor(b.t * 10 + 1e-6), `exported frame at ${b.t}`);
});

test("toVideoFrame hands over the frame drawn, whole or cut, with its timing, on Canvas2D and on the GPU", async () => {
  const rows = await run("video-frame");
  for (const [backend, r] of Object.entries(rows)) {
    assert.equal(r.used, backend);
    assert.deepEqual(r.whole, [160, 90, 1_250_000, 100_000], backend);
    assert.deepEqual(r.cut, [160, 88, 7], backend);
    assert.equal(r.seen.index, expectedFrame(1.25), `${backend}: frame at 1.25 s`);
    assert.ok(r.maxDiff <= 1, `${backend}: the VideoFrame differs from readPixels by ${r.maxDiff}`);
  }
});
