// The preview: plays the timeline and shows the frame at the playhead. The picture is drawn by
// the package's compositor (neuralcut/render: every layer on the GPU, placed as OpenCut places
// it, at the project's full resolution); this module only plays the media elements in time (with
// sound) and hands the playing videos over; paused frames are decoded by the renderer itself.
import { sec, TICKS_PER_SECOND, timelineEnd } from "./util.js";

/**
 * `createRenderer(canvas, media)` makes the neuralcut/render frame renderer on the preview canvas;
 * `media` is the host callback that gives it the demo's own video elements while they play.
 */
export async function createPreview({ editor, sources, canvas: base, stack, clock, createRenderer, onStatus }) {
  const videos = new Map(); // element id -> HTMLVideoElement
  const audios = new Map(); // element id -> HTMLAudioElement
  const images = new Map(); // url -> HTMLImageElement
  const fileUrls = new Map(); // asset id -> object URL of its File
  let project = editor.project();
  let renderer = null;
  let shown = null; // OffscreenCanvas: a copy of the last frame drawn
  let rendering = false;
  let pending = false;
  let waiters = [];

  // ---- media ------------------------------------------------------------------------------

  function urlFor(assetId) {
    const known = sources.get(assetId);
    if (known?.url) return known.url;
    const src = editor.assetSource(assetId);
    if (src?.url) return src.url;
    if (src?.file) {
      if (!fileUrls.has(assetId)) fileUrls.set(assetId, URL.createObjectURL(src.file));
      return fileUrls.get(assetId);
    }
    return null;
  }

  function mediaFor(map, tag, element) {
    let m = map.get(element.id);
    const url = urlFor(element.assetId);
    if (!url) return null;
    if (!m || m.dataset.url !== url) {
      m?.pause();
      m = document.createElement(tag);
      m.dataset.url = url;
      m.preload = "auto";
      m.playsInline = true;
      m.src = url;
      map.set(element.id, m);
    }
    return m;
  }

  function imageFor(url) {
    let img = images.get(url);
    if (!img) {
      img = new Image();
      img.decoding = "async";
      img.src = url;
      img.ready = img.decode().then(
        () => true,
        () => false,
      );
      images.set(url, img);
    }
    return img;
  }

  /** The source time (seconds) of a media element at timeline time t. */
  function sourceTime(e, t) {
    return sec(e.trimStart ?? 0) + (t - sec(e.start)) * (e.retime?.rate ?? 1);
  }

  function activeAt(t) {
    const tick = Math.round(t * TICKS_PER_SECOND);
    const out = [];
    for (const track of project.timeline?.tracks ?? []) {
      for (const e of track.elements ?? []) {
        if (e.start <= tick && tick < e.start + e.duration) out.push({ track, e });
      }
    }
    return out;
  }

  /** Drops media of elements that no longer exist. */
  function prune() {
    const ids = new Set();
    for (const track of project.timeline?.tracks ?? []) for (const e of track.elements ?? []) ids.add(e.id);
    for (const map of [videos, audios]) {
      for (const [id, m] of map) {
        if (!ids.has(id)) {
          m.pause();
          m.removeAttribute("src");
          m.load();
          map.delete(id);
        }
      }
    }
  }

  /** Brings media to time t: drift correction when playing, paused otherwise. */
  async function syncMedia(t, playing) {
    const active = activeAt(t);
    const activeIds = new Set(active.map((a) => a.e.id));
    const waits = [];
    for (const { track, e } of active) {
      if (e.type !== "video" && e.type !== "audio") continue;
      const m = mediaFor(e.type === "video" ? videos : audios, e.type, e);
      if (!m) continue;
      const want = Math.max(0, sourceTime(e, t));
      m.volume = Math.min(1, Math.max(0, e.volume ?? 1));
      m.muted = Boolean(track.muted || e.muted);
      if (playing) {
        if (m.paused || Math.abs(m.currentTime - want) > 0.3) m.currentTime = want;
        if (m.paused) m.play().catch(() => {});
      } else if (!m.paused) m.pause();
    }
    for (const map of [videos, audios]) {
      for (const [id, m] of map) if (!activeIds.has(id) && !m.paused) m.pause();
    }
    // Images must be decoded before an exact frame is drawn.
    for (const { e } of active) {
      if (e.type === "image") {
        const url = urlFor(e.assetId);
        if (url) waits.push(imageFor(url).ready);
      } else if (e.type === "sticker") {
        const entry = (project.stickers ?? []).find((s) => s.id === e.stickerId);
        if (entry?.url) waits.push(imageFor(entry.url).ready);
      }
    }
    if (waits.length) await Promise.all(waits);
  }

  /** Draws the frame at t onto the preview canvas with neuralcut/render, at full project size. */
  async function compose(t) {
    const fx = typeof editor.effectsAt === "function" ? editor.effectsAt(t) : [];
    if (!renderer) {
      onStatus?.({ time: t, effects: fx, applied: false, failure: "neuralcut/render is not available" });
      return;
    }
    let failure = null;
    try {
      const out = await renderer.render(t);
      // A WebGPU canvas can be copied only until the frame is presented (the end of this task):
      // keep a copy (on the GPU) for snapshots.
      if (!shown || shown.width !== base.width || shown.height !== base.height) shown = new OffscreenCanvas(base.width, base.height);
      shown.getContext("2d").drawImage(base, 0, 0);
      if (out.missing.length) failure = out.missing.map((m) => `${m.elementId}: ${m.reason}`).join("; ");
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    }
    onStatus?.({ time: t, effects: fx, applied: !failure, failure });
  }

  /** The frame on the canvas, RGBA (for tests and snapshots), copied from the canvas itself:
   * SwiftShader's WebGPU cannot map buffers once a device has drawn to a canvas. */
  async function pixels() {
    if (!shown) return new Uint8ClampedArray(0);
    return shown.getContext("2d").getImageData(0, 0, shown.width, shown.height).data;
  }

  // ---- scheduling -------------------------------------------------------------------------

  /** Renders the exact frame at the playhead (paused), coalescing requests. */
  async function requestRender() {
    if (rendering) {
      pending = true;
      return;
    }
    rendering = true;
    try {
      do {
        pending = false;
        const t = clock.get().time;
        const playing = clock.get().playing;
        await syncMedia(t, playing);
        await compose(t);
        if (!pending && !playing) stack.dataset.rendered = `${editor.revision()}@${t.toFixed(3)}`;
      } while (pending);
    } catch (e) {
      // Shown to the developer; the next change or seek tries again.
      console.warn("preview:", e);
    } finally {
      rendering = false;
    }
    const done = waiters;
    waiters = [];
    for (const w of done) w();
  }

  editor.onChange(() => {
    project = editor.project();
    prune();
    stack.dataset.rendered = "";
    requestRender();
  });
  clock.subscribe((s) => {
    stack.dataset.rendered = "";
    requestRender();
    if (!s.playing) for (const map of [videos, audios]) for (const m of map.values()) if (!m.paused) m.pause();
  });

  // While playing, the compositor draws the demo's playing video elements; paused, it decodes the
  // exact frame itself (neuralcut/render's in-order decoder, as render_preview and export do).
  // Images and stickers it loads from the editor's asset sources and the sticker catalog.
  renderer = createRenderer
    ? await createRenderer(base, (layer) => {
        if (layer.mediaType === "video") {
          if (!clock.get().playing) return null;
          const v = videos.get(layer.elementId);
          return v && v.readyState >= 2 ? v : null;
        }
        if (layer.mediaType === "image" && sources.get(layer.assetId)?.url) {
          const img = imageFor(sources.get(layer.assetId).url);
          return img.ready.then((ok) => (ok ? img : null));
        }
        return null;
      }).catch((e) => {
        console.warn("neuralcut/render unavailable:", e);
        return null;
      })
    : null;

  return {
    renderer,
    pixels,
    requestRender,
    duration: () => timelineEnd(project),
    /** Resolves once the frame for the current state is on screen. */
    settled() {
      return new Promise((resolve) => {
        if (!rendering) return resolve();
        waiters.push(resolve);
      });
    },
  };
}
