// The preview: composites the timeline at the playhead and plays it.
//
// Tracks are drawn bottom up (the project lists them top first; audio is heard, not drawn): main
// and overlay media contain-fitted, text and stickers at their x/y (pixels from the centre of
// the project canvas). An effect acts on the picture below its track: when the drawing reaches an
// effect track with effects active now, the picture so far is handed to the GPU effect renderer
// (neuralcut/effects, WebGPU or WebGL2) and its output is drawn back before the tracks above.
import { once, sec, TICKS_PER_SECOND, timelineEnd } from "./util.js";

const STICKER_SIZE = 200; // project-canvas pixels

export function createPreview({ editor, sources, canvas: base, stack, clock, renderer, onStatus }) {
  // Read back for every effect pass, so kept in CPU memory.
  const ctx = base.getContext("2d", { willReadFrequently: true });
  const videos = new Map(); // element id -> HTMLVideoElement
  const audios = new Map(); // element id -> HTMLAudioElement
  const images = new Map(); // url -> HTMLImageElement
  const fileUrls = new Map(); // asset id -> object URL of its File
  let project = editor.project();
  let effectDefaults = null;
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
    return sec(e.trimStart ?? 0) + (t - sec(e.start));
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

  // ---- effects ----------------------------------------------------------------------------

  /** Default parameters of an effect type (get_effect), cached. */
  async function defaults(type) {
    effectDefaults ??= new Map();
    if (!effectDefaults.has(type)) {
      const info = await editor.callTool("get_effect", { effectType: type });
      effectDefaults.set(type, Object.fromEntries((info.params ?? []).map((p) => [p.key, p.default])));
    }
    return effectDefaults.get(type);
  }

  /** Effects active at t, bottom track first: editor.effectsAt when the package has it. */
  async function effectsAt(t) {
    if (typeof editor.effectsAt === "function") return editor.effectsAt(t);
    const tick = Math.round(t * TICKS_PER_SECOND);
    const out = [];
    for (const track of [...(project.timeline?.tracks ?? [])].reverse()) {
      if (track.type !== "effect") continue;
      for (const e of track.elements ?? []) {
        if (e.type === "effect" && e.start <= tick && tick < e.start + e.duration) {
          out.push({ elementId: e.id, trackId: track.id, effectType: e.effectType, params: { ...(await defaults(e.effectType)), ...(e.params ?? {}) } });
        }
      }
    }
    return out;
  }

  // ---- drawing ----------------------------------------------------------------------------

  function fit(ctx, source, sw, sh) {
    const W = ctx.canvas.width;
    const H = ctx.canvas.height;
    if (!sw || !sh) return;
    const s = Math.min(W / sw, H / sh);
    const w = sw * s;
    const h = sh * s;
    ctx.drawImage(source, (W - w) / 2, (H - h) / 2, w, h);
  }

  function drawText(ctx, e, scale) {
    const W = ctx.canvas.width;
    const H = ctx.canvas.height;
    const size = Math.max(6, (e.fontSize ?? 48) * scale);
    ctx.save();
    ctx.font = `${e.fontWeight === "bold" ? "700" : e.fontWeight ?? "400"} ${size}px system-ui, "DejaVu Sans", sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const x = W / 2 + (e.x ?? 0) * scale;
    const y = H / 2 + (e.y ?? 0) * scale;
    const text = String(e.content ?? e.name ?? "");
    const lines = text.split("\n");
    const lineHeight = size * 1.2;
    const width = Math.max(...lines.map((l) => ctx.measureText(l).width));
    if (e.background) {
      ctx.fillStyle = e.background;
      const padX = size * 0.4;
      const padY = size * 0.2;
      ctx.fillRect(x - width / 2 - padX, y - (lines.length * lineHeight) / 2 - padY, width + 2 * padX, lines.length * lineHeight + 2 * padY);
    } else {
      ctx.shadowColor = "rgba(0,0,0,0.75)";
      ctx.shadowBlur = size * 0.15;
      ctx.shadowOffsetY = size * 0.04;
    }
    ctx.fillStyle = e.color ?? "#ffffff";
    lines.forEach((line, i) => ctx.fillText(line, x, y + (i - (lines.length - 1) / 2) * lineHeight));
    ctx.restore();
  }

  function drawSticker(ctx, e, scale) {
    const W = ctx.canvas.width;
    const H = ctx.canvas.height;
    const size = STICKER_SIZE * scale * (e.scale ?? 1);
    const x = W / 2 + (e.x ?? 0) * scale;
    const y = H / 2 + (e.y ?? 0) * scale;
    const entry = (project.stickers ?? []).find((s) => s.id === e.stickerId);
    const img = entry?.url ? imageFor(entry.url) : null;
    if (img?.complete && img.naturalWidth) {
      ctx.drawImage(img, x - size / 2, y - size / 2, size, size);
      return;
    }
    // No picture for it: a labelled badge.
    ctx.save();
    ctx.fillStyle = "rgba(194,73,127,0.9)";
    ctx.beginPath();
    ctx.arc(x, y, size / 2, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.font = `600 ${Math.max(8, size / 6)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(entry?.name ?? e.stickerId ?? "sticker", x, y, size * 0.9);
    ctx.restore();
  }

  function drawTrack(ctx, track, elements, scale) {
    if (track.hidden) return;
    for (const e of elements) {
      if (e.hidden) continue;
      if (e.type === "video") {
        const v = videos.get(e.id);
        if (v && v.readyState >= 2) fit(ctx, v, v.videoWidth, v.videoHeight);
      } else if (e.type === "image") {
        const url = urlFor(e.assetId);
        const img = url && imageFor(url);
        if (img?.complete && img.naturalWidth) fit(ctx, img, img.naturalWidth, img.naturalHeight);
      } else if (e.type === "text") {
        drawText(ctx, e, scale);
      } else if (e.type === "sticker") {
        drawSticker(ctx, e, scale);
      }
    }
  }

  /** Brings media to time t: exact seeks when paused, drift correction when playing. */
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
      } else {
        if (!m.paused) m.pause();
        if (e.type !== "video") continue;
        // Aim at the middle of the frame, so the decoder lands on that frame and not the one before.
        const asset = (project.assets ?? []).find((a) => a.id === e.assetId);
        const fps = asset?.fps ? asset.fps.numerator / asset.fps.denominator : 30;
        const aim = want + 0.5 / fps;
        if (m.readyState < 1) waits.push(once(m, "loadedmetadata").then(() => seek(m, aim)));
        else waits.push(seek(m, aim));
      }
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

  async function seek(v, want) {
    const target = Math.min(want, Math.max(0, (v.duration || want) - 0.001));
    if (Math.abs(v.currentTime - target) > 0.0005 || v.readyState < 2) {
      v.currentTime = target;
      await once(v, "seeked");
    }
    if (v.readyState < 2) await once(v, "loadeddata");
  }

  /** Draws the frame at t onto the preview canvas. */
  async function compose(t) {
    const W = base.width;
    const H = base.height;
    const scale = W / (project.settings?.canvas?.width ?? 1920);
    const byTrack = new Map();
    for (const { track, e } of activeAt(t)) {
      if (!byTrack.has(track.id)) byTrack.set(track.id, []);
      byTrack.get(track.id).push(e);
    }
    const fx = await effectsAt(t);
    const fxByTrack = new Map();
    for (const f of fx) {
      if (!fxByTrack.has(f.trackId)) fxByTrack.set(f.trackId, []);
      fxByTrack.get(f.trackId).push({ effectType: f.effectType, params: f.params });
    }
    let applied = false;
    let failure = null;
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, W, H);
    for (const track of [...(project.timeline?.tracks ?? [])].reverse()) {
      if (track.type === "audio") continue;
      if (track.type !== "effect") {
        drawTrack(ctx, track, byTrack.get(track.id) ?? [], scale);
        continue;
      }
      const effects = fxByTrack.get(track.id);
      if (!effects || !renderer) continue;
      // The effect acts on everything drawn so far (the tracks below it): the GPU renders it, and
      // its output replaces the picture before the tracks above are drawn.
      try {
        renderer.render({ source: ctx.getImageData(0, 0, W, H), width: W, height: H, effects });
        const pixels = await renderer.readPixels();
        ctx.putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength), W, H), 0, 0);
        applied = true;
      } catch (e) {
        failure = e instanceof Error ? e.message : String(e);
      }
    }
    onStatus?.({ time: t, effects: fx, applied, failure });
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

  // A lost 2D context (the browser's GPU process restarted) comes back blank: draw again.
  base.addEventListener("contextrestored", () => requestRender());

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

  return {
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
