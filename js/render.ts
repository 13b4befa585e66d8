// The package entry `neuralcut/render`: draws a frame of an editor (`editor.frameAt`) on the GPU
// (WebGPU, WebGL2 fallback) with the compositor of the effects module, or with the browser's 2D
// canvas where the only GPU is a software one (render-canvas2d.ts). Media come from the
// sources the editor holds (`addAsset({ file | url })`) or from a host callback; text is
// rasterised with the browser's fonts. Composition rules: docs/render.md.
import { NeuralCutError } from "./errors.js";
import init, { createRenderer } from "./wasm/neuralcut_effects.js";
import { loadEffects, probeAdapters, type EffectBackend } from "./effects.js";
import { Canvas2DCompositor } from "./render-canvas2d.js";
import { pictureSize as sizeOf } from "./media/picture-size.js";
import { SequentialVideoFrames } from "./media/video-frames.js";
import { videoTargetTime } from "./media/video-time.js";
import type { Frame, MediaFrameLayer, TextFrameLayer, FramePlacement } from "./render-types.js";

export type * from "./render-types.js";
export type { EffectBackend } from "./effects.js";
export { Canvas2DCompositor } from "./render-canvas2d.js";
export { renderPreviewTool, renderPreviewInPage, RENDER_PREVIEW_TOOL } from "./render-preview.js";

void init; // instantiated by loadEffects

/** What a host may hand over for a media layer. */
export type LayerSource = ImageBitmap | ImageData | HTMLCanvasElement | OffscreenCanvas | HTMLVideoElement | VideoFrame | HTMLImageElement;

/** The editor surface the renderer reads (a `NeuralCutEditor`). */
export interface RenderableEditor {
  frameAt(seconds: number): Frame | null;
  assetSource(id: string): { file?: Blob; url?: string } | undefined;
  project(): { assets?: { id: string; fps?: { numerator: number; denominator: number }; duration?: number }[] } | null;
}

export interface CreateFrameRendererOptions {
  editor: RenderableEditor;
  /** Where frames are shown; without one the renderer is headless (`readPixels`, `toBlob`). */
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /**
   * "auto" (default): the GPU (WebGPU, else WebGL2) when the browser has a hardware one;
   * "canvas2d" where the only adapters are software ones (SwiftShader, llvmpipe, ...) or there
   * is none, as it is several times faster there (docs/render.md "Backends").
   */
  backend?: "auto" | RenderBackend;
  /**
   * The picture for a media layer, when the host has it (a decoded video frame at
   * `layer.sourceTime`, an image it already holds). Return null or undefined to let the renderer
   * load it from the editor's asset sources.
   */
  media?: (layer: MediaFrameLayer) => LayerSource | null | undefined | Promise<LayerSource | null | undefined>;
  /**
   * How video pictures are read from the editor's asset sources. "decoder" (default): mediabunny
   * and WebCodecs decode each element's video in order, the picture at the time exactly; a file
   * they cannot read or decode falls back to an element. "element": a video element per file,
   * seeked to each time (the browser's own decoding; "seeked" can come before the new picture
   * on a loaded machine, docs/render.md).
   */
  video?: "decoder" | "element";
}

export interface RenderFrameOptions {
  /** Output width in pixels (default: the project's canvas width); height keeps the aspect. */
  width?: number;
}

/** What `render` drew. */
export interface RenderedFrame {
  frame: Frame;
  width: number;
  height: number;
  /** Element ids drawn, bottom first. */
  drawn: string[];
  /** Layers that could not be drawn (no source, not decodable), with why; plus `frame.skipped`. */
  missing: { elementId: string; reason: string }[];
}

export interface VideoFrameOptions {
  /** Microseconds, as WebCodecs counts. */
  timestamp: number;
  duration?: number;
  visibleRect?: { x: number; y: number; width: number; height: number };
}

/** Where frames are composited: a GPU through the effects module, or the browser's 2D canvas. */
export type RenderBackend = EffectBackend | "canvas2d";

export interface FrameRenderer {
  readonly backend: RenderBackend;
  /** Why this backend: "requested", or the rule of `backend: "auto"` that chose it. */
  readonly backendReason: string;
  readonly canvas: HTMLCanvasElement | OffscreenCanvas | undefined;
  /** Draws the frame at `seconds`; it stays on the canvas and for `readPixels` / `toBlob`. */
  render(seconds: number, options?: RenderFrameOptions): Promise<RenderedFrame>;
  /** The last frame's RGBA rows, top to bottom (or a region of it). */
  readPixels(region?: { x: number; y: number; width: number; height: number }): Promise<Uint8ClampedArray>;
  /** The last frame as an image file (PNG by default). */
  toBlob(type?: string): Promise<Blob>;
  /**
   * What the renderer holds for later frames: decoded images, video elements (the seeking
   * fallback) and open video files (the decoder). Pictures not drawn lately are let go beyond a
   * few of each, so a long session stays bounded.
   */
  cached(): { images: number; videoElements: number; videoFiles: number };
  /**
   * The last frame (or `visibleRect` of it) as a VideoFrame for an encoder; the caller closes it.
   * The Canvas2D backend hands its canvas over without reading pixels back into JS.
   */
  toVideoFrame(init: VideoFrameOptions): Promise<VideoFrame>;
  destroy(): void;
}

const GRAPHIC_SIZE = 512;
/** Decoded images kept with no frame using them (besides those the current frame uses). */
const IDLE_IMAGES = 8;
/** Video elements (the seeking fallback) kept with no frame using them. */
const IDLE_VIDEO_ELEMENTS = 2;

/** `#rgb`, `#rrggbb`, `#rrggbbaa` or any CSS colour (through a 2D context) → 0–1 RGBA. */
function parseColour(css: string): [number, number, number, number] {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(css.trim());
  if (hex) {
    let h = hex[1];
    if (h.length === 3) h = [...h].map((c) => c + c).join("");
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16) / 255;
    return [n(0), n(2), n(4), h.length === 8 ? n(6) : 1];
  }
  const ctx = new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true });
  if (!ctx) return [0, 0, 0, 1];
  ctx.fillStyle = css;
  ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  return [d[0] / 255, d[1] / 255, d[2] / 255, d[3] / 255];
}

/** OpenCut's contain fit for a source whose size only the picture tells (same rule as src/frame.rs `place`). */
function placeLayer(layer: MediaFrameLayer, frame: Frame, sw: number, sh: number): FramePlacement {
  const contain = Math.min(frame.width / sw, frame.height / sh);
  const w = sw * contain * layer.transform.scaleX;
  const h = sh * contain * layer.transform.scaleY;
  return {
    centerX: frame.width / 2 + layer.transform.x,
    centerY: frame.height / 2 + layer.transform.y,
    width: Math.abs(w),
    height: Math.abs(h),
    rotation: layer.transform.rotation,
    flipX: w < 0,
    flipY: h < 0,
  };
}

/** A text block laid out in its own units (origin at the anchor, before scale and rotation). */
interface TextLayout {
  font: string;
  align: CanvasTextAlign;
  lines: string[];
  widths: number[];
  lineHeight: number;
  left: number;
  top: number;
  blockWidth: number;
  blockHeight: number;
  /** Everything that gets paint: glyph boxes, background, decoration bars. */
  bounds: [number, number, number, number];
}

/** Sets the layer's font on `ctx` and lays the block out as OpenCut's text node does. */
function layoutText(ctx: OffscreenCanvasRenderingContext2D, t: TextFrameLayer): TextLayout {
  const size = t.fontSize;
  const family = /[\s,"']/.test(t.fontFamily) && !/^["']/.test(t.fontFamily) ? `"${t.fontFamily}"` : t.fontFamily;
  const font = `${t.fontStyle === "italic" ? "italic " : ""}${t.fontWeight === "bold" ? "bold " : ""}${size}px ${family}, sans-serif`;
  setFont(ctx, t, font);
  const align: CanvasTextAlign = t.textAlign === "left" ? "left" : t.textAlign === "right" ? "right" : "center";
  const lines = t.content.split("\n");
  const lineHeight = size * t.lineHeight;
  const metrics = lines.map((l) => ctx.measureText(l));
  const widths = metrics.map((m) => m.width);
  const blockWidth = Math.max(0, ...widths);
  const blockHeight = lines.length * lineHeight;
  // The anchor is the block's left edge, centre or right edge, vertically centred.
  const left = align === "left" ? 0 : align === "right" ? -blockWidth : -blockWidth / 2;
  const top = -blockHeight / 2;
  const b: [number, number, number, number] = [left, top, left + blockWidth, top + blockHeight];
  const grow = (x0: number, y0: number, x1: number, y1: number) => {
    b[0] = Math.min(b[0], x0);
    b[1] = Math.min(b[1], y0);
    b[2] = Math.max(b[2], x1);
    b[3] = Math.max(b[3], y1);
  };
  metrics.forEach((m, i) => {
    const y = top + (i + 0.5) * lineHeight;
    grow(-m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent, m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent);
    if (t.textDecoration === "underline") grow(b[0], y + size * 0.45 - size / 30, b[2], y + size * 0.45 + size / 15);
  });
  if (t.background) {
    const bg = t.background;
    const x = left - bg.paddingX + bg.offsetX;
    const y = top - bg.paddingY + bg.offsetY;
    grow(x, y, x + blockWidth + 2 * bg.paddingX, y + blockHeight + 2 * bg.paddingY);
  }
  return { font, align, lines, widths, lineHeight, left, top, blockWidth, blockHeight, bounds: b };
}

function setFont(ctx: OffscreenCanvasRenderingContext2D, t: TextFrameLayer, font: string) {
  ctx.font = font;
  (ctx as unknown as { letterSpacing: string }).letterSpacing = `${t.letterSpacing}px`;
  ctx.textBaseline = "middle";
  ctx.textAlign = t.textAlign === "left" ? "left" : t.textAlign === "right" ? "right" : "center";
}

/** The layer's paint in target pixels: the box around its transformed bounds, whole pixels,
 * two pixels of margin for antialiasing, cut to the `width × height` target. Null if empty. */
function textBox(t: TextFrameLayer, layout: TextLayout, scale: number, width: number, height: number): { x: number; y: number; w: number; h: number } | null {
  const [x0, y0, x1, y1] = layout.bounds;
  const r = ((t.transform.rotation || 0) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(r), Math.sin(r)];
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of [[x0, y0], [x1, y0], [x0, y1], [x1, y1]]) {
    // drawText's transform: scale · (anchor + S · R · p).
    const px = scale * (t.anchorX + t.transform.scaleX * (x * cos - y * sin));
    const py = scale * (t.anchorY + t.transform.scaleY * (x * sin + y * cos));
    [minX, minY, maxX, maxY] = [Math.min(minX, px), Math.min(minY, py), Math.max(maxX, px), Math.max(maxY, py)];
  }
  const bx = Math.max(0, Math.floor(minX) - 2);
  const by = Math.max(0, Math.floor(minY) - 2);
  const ex = Math.min(width, Math.ceil(maxX) + 2);
  const ey = Math.min(height, Math.ceil(maxY) + 2);
  if (!(ex > bx && ey > by)) return null;
  return { x: bx, y: by, w: ex - bx, h: ey - by };
}

/** Draws a text layer the way OpenCut's text node does, onto a 2D canvas whose (0, 0) is target pixel (ox, oy). */
function drawText(ctx: OffscreenCanvasRenderingContext2D, t: TextFrameLayer, layout: TextLayout, scale: number, ox: number, oy: number) {
  const size = t.fontSize;
  const { align, lines, widths, lineHeight, left, top, blockWidth, blockHeight } = layout;
  ctx.save();
  ctx.translate(-ox, -oy);
  ctx.scale(scale, scale);
  ctx.translate(t.anchorX, t.anchorY);
  ctx.scale(t.transform.scaleX, t.transform.scaleY);
  if (t.transform.rotation) ctx.rotate((t.transform.rotation * Math.PI) / 180);
  setFont(ctx, t, layout.font);
  if (t.background) {
    const b = t.background;
    const w = blockWidth + 2 * b.paddingX;
    const h = blockHeight + 2 * b.paddingY;
    const x = left - b.paddingX + b.offsetX;
    const y = top - b.paddingY + b.offsetY;
    const r = (Math.min(w, h) / 2) * (b.cornerRadius / 100);
    ctx.fillStyle = b.color;
    ctx.beginPath();
    if (r > 0 && typeof ctx.roundRect === "function") ctx.roundRect(x, y, w, h, r);
    else ctx.rect(x, y, w, h);
    ctx.fill();
  }
  ctx.fillStyle = t.color;
  lines.forEach((line, i) => {
    const y = top + (i + 0.5) * lineHeight;
    ctx.fillText(line, 0, y);
    if (t.textDecoration === "underline" || t.textDecoration === "line-through") {
      const w = widths[i];
      const x0 = align === "left" ? 0 : align === "right" ? -w : -w / 2;
      const ly = t.textDecoration === "underline" ? y + size * 0.45 : y;
      ctx.fillRect(x0, ly - size / 30, w, Math.max(1, size / 15));
    }
  });
  ctx.restore();
}

function drawGraphic(definition: string, fill: string): OffscreenCanvas {
  const c = new OffscreenCanvas(GRAPHIC_SIZE, GRAPHIC_SIZE);
  const ctx = c.getContext("2d")!;
  ctx.fillStyle = fill;
  const m = GRAPHIC_SIZE / 2;
  ctx.beginPath();
  if (definition === "ellipse" || definition === "circle") ctx.ellipse(m, m, m, m, 0, 0, Math.PI * 2);
  else if (definition === "rectangle" || definition === "square") ctx.rect(0, 0, GRAPHIC_SIZE, GRAPHIC_SIZE);
  else {
    // Polygons and stars: a regular polygon (points alternate radius for a star).
    const star = definition === "star";
    const n = star ? 10 : definition === "triangle" ? 3 : definition === "hexagon" ? 6 : definition === "diamond" ? 4 : 5;
    for (let i = 0; i < n; i++) {
      const r = star && i % 2 ? m * 0.55 : m;
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / n;
      ctx.lineTo(m + r * Math.cos(a), m + r * Math.sin(a));
    }
    ctx.closePath();
  }
  ctx.fill();
  return c;
}

function once(target: EventTarget, event: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener(event, ok);
      target.removeEventListener("error", bad);
      reject(new NeuralCutError("NO_SOURCE", `timed out waiting for ${event}`));
    }, timeoutMs);
    const ok = () => {
      clearTimeout(timer);
      target.removeEventListener("error", bad);
      resolve();
    };
    const bad = () => {
      clearTimeout(timer);
      target.removeEventListener(event, ok);
      reject(new NeuralCutError("NO_SOURCE", "the media failed to load"));
    };
    target.addEventListener(event, ok, { once: true });
    target.addEventListener("error", bad, { once: true });
  });
}

/** What the frame loop drives: the effects module's GPU compositor or the Canvas2D one. */
interface Compositor {
  readonly backend: string;
  readonly maxSize: number;
  /** True when drawLayer keeps the picture it is given for reuse (the caller must not close it). */
  readonly keepsSources?: boolean;
  beginFrame(width: number, height: number, r: number, g: number, b: number, a: number): void;
  drawLayer(source: unknown, slot: number, cx: number, cy: number, w: number, h: number, rotation: number, flipX: boolean, flipY: boolean, opacity: number, blendMode: string, effects: unknown): void | Promise<void>;
  applyEffects(effects: unknown): void | Promise<void>;
  endFrame(): void;
  readPixels(x: number, y: number, width?: number, height?: number): Promise<unknown>;
  /** The frame as a VideoFrame straight from the compositor's canvas, where it has one to give. */
  videoFrame?(init: VideoFrameInit): VideoFrame;
  free(): void;
}

/** Creates a frame renderer. Rejects when the requested backend is unavailable. */
export async function createFrameRenderer(options: CreateFrameRendererOptions): Promise<FrameRenderer> {
  const { editor, canvas, media } = options;
  if (!editor || typeof editor.frameAt !== "function") throw new NeuralCutError("INVALID_OPTIONS", "createFrameRenderer needs { editor } (a NeuralCut editor)");
  await loadEffects();
  const requested = options.backend ?? "auto";
  if (!["auto", "webgpu", "webgl2", "canvas2d"].includes(requested)) throw new NeuralCutError("INVALID_OPTIONS", `backend must be "auto", "webgpu", "webgl2" or "canvas2d", got ${JSON.stringify(requested)}`);
  let backendReason = "requested";
  let useCanvas2d = requested === "canvas2d";
  let gpu: EffectBackend | "auto" = requested === "webgpu" || requested === "webgl2" ? requested : "auto";
  if (requested === "auto") {
    const probe = await probeAdapters();
    const hardware = (p: { available: boolean; software: boolean }) => p.available && !p.software;
    if (!hardware(probe.webgpu) && !hardware(probe.webgl2)) {
      useCanvas2d = true;
      backendReason = probe.webgpu.available || probe.webgl2.available ? "software adapter: Canvas2D is faster there" : "no GPU adapter";
    } else {
      gpu = hardware(probe.webgpu) ? "webgpu" : "webgl2";
      backendReason = gpu === "webgpu" ? "hardware WebGPU adapter" : "hardware WebGL2 adapter";
    }
  }
  // Chromium's SwiftShader WebGPU fails copyExternalImageToTexture and buffer mapping on a device
  // that has drawn to a canvas, and its canvas cannot be copied from: there the GPU stays
  // headless and each frame is put on the canvas from its read-back (a software GPU anyway).
  let software = false;
  if (!useCanvas2d && canvas && gpu !== "webgl2") {
    const webgpu = (globalThis.navigator as unknown as { gpu?: { requestAdapter(): Promise<{ info?: { architecture?: string; vendor?: string } } | null> } }).gpu;
    const adapter = await webgpu?.requestAdapter().catch(() => null);
    software = /swiftshader/i.test(`${adapter?.info?.architecture ?? ""} ${adapter?.info?.vendor ?? ""}`);
  }
  const inner: Compositor = useCanvas2d
    ? new Canvas2DCompositor(canvas)
    : ((await createRenderer(software ? null : (canvas ?? null), gpu)) as unknown as Compositor);
  const backend = inner.backend as RenderBackend;
  const shown2d = software && canvas ? (canvas.getContext("2d") as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null) : null;
  // Pictures a compositor that keeps sources holds (Canvas2D), by slot: closed when replaced.
  const kept: (ImageBitmap | undefined)[] = [];
  const handOver = (i: number, own: ImageBitmap | undefined) => {
    if (!inner.keepsSources) return own?.close();
    if (kept[i] !== own) kept[i]?.close();
    kept[i] = own;
  };
  const maxSize = inner.maxSize;
  const urls = new Map<string, string>(); // asset id -> object URL of its File
  const images = new Map<string, Promise<ImageBitmap>>(); // url -> decoded picture
  const videos = new Map<string, HTMLVideoElement>(); // url -> element used for seeking
  // The frame that last used each cached image and video element (by URL); see prune().
  let frameNo = 0;
  const lastUsed = { images: new Map<string, number>(), videos: new Map<string, number>() };
  let text: OffscreenCanvas | undefined;
  // What each layer slot of the GPU compositor holds, so that a picture already uploaded (an
  // image, a sticker, the same video frame, unchanged text) is drawn again without an upload.
  const uploaded: unknown[] = [];
  const textBoxes: ({ x: number; y: number; w: number; h: number } | null)[] = [];
  const sizes: [number, number][] = []; // the source size of what each slot holds
  let last: { width: number; height: number } | undefined;
  let destroyed = false;
  let queue: Promise<unknown> = Promise.resolve();
  // A video's frame rate and duration, from the project read once per frame that asks
  // (`project()` serialises the whole project; render() forgets it at the start of each frame).
  let frameAssets: Map<string, { fps?: number; duration?: number }> | undefined;
  const assetInfo = (id: string) => {
    frameAssets ??= new Map((editor.project()?.assets ?? []).map((a) => [a.id, { fps: a.fps ? a.fps.numerator / a.fps.denominator : undefined, duration: a.duration }]));
    return frameAssets.get(id);
  };
  const decoder = options.video === "element" ? undefined : new SequentialVideoFrames((id) => editor.assetSource(id), assetInfo);

  const urlOf = (layer: MediaFrameLayer): string | undefined => {
    if (layer.assetId) {
      const src = editor.assetSource(layer.assetId);
      if (src?.url) return src.url;
      if (src?.file) {
        if (!urls.has(layer.assetId)) urls.set(layer.assetId, URL.createObjectURL(src.file));
        return urls.get(layer.assetId);
      }
    }
    return layer.url;
  };

  const image = (url: string): Promise<ImageBitmap> => {
    lastUsed.images.set(url, frameNo);
    let p = images.get(url);
    if (!p && typeof Image !== "undefined") {
      // An image element decodes every format the page can show, SVG included.
      const img = new Image();
      img.crossOrigin = "anonymous";
      img.src = url;
      p = img.decode().then(() => createImageBitmap(img));
      p.catch(() => images.delete(url));
      images.set(url, p);
    }
    if (!p) {
      p = fetch(url)
        .then((r) => {
          if (!r.ok) throw new NeuralCutError("NO_SOURCE", `HTTP ${r.status}`);
          return r.blob();
        })
        .then((b) => createImageBitmap(b));
      p.catch(() => images.delete(url));
      images.set(url, p);
    }
    return p;
  };

  /**
   * A bitmap of a video picture drawn through a 2D canvas: SwiftShader's WebGPU cannot copy from
   * video elements, VideoFrames or bitmaps made straight from them, and the picture must be
   * captured before the element seeks again.
   */
  const stage = (source: CanvasImageSource & ({ videoWidth: number; videoHeight: number } | { displayWidth: number; displayHeight: number })): ImageBitmap => {
    const [w, h] = "videoWidth" in source ? [source.videoWidth, source.videoHeight] : [source.displayWidth, source.displayHeight];
    const c = new OffscreenCanvas(w, h);
    c.getContext("2d")!.drawImage(source, 0, 0, w, h);
    return c.transferToImageBitmap();
  };

  /**
   * A bitmap of the video at `time` seconds, by seeking an element (aimed at the frame's middle).
   * One element per video: two layers of the same video (a picture-in-picture of the main
   * clip) take turns, each seek captured before the next starts.
   */
  const videoTurns = new Map<string, Promise<unknown>>();
  const videoFrame = (url: string, time: number, fps: number): Promise<ImageBitmap> => {
    lastUsed.videos.set(url, frameNo);
    const turn = (videoTurns.get(url) ?? Promise.resolve()).then(() => seekAndStage(url, time, fps));
    videoTurns.set(url, turn.catch(() => undefined));
    return turn;
  };
  const seekAndStage = async (url: string, time: number, fps: number): Promise<ImageBitmap> => {
    if (typeof document === "undefined") throw new NeuralCutError("NO_SOURCE", "video needs a document (HTMLVideoElement); pass a media callback in a worker");
    let v = videos.get(url);
    if (!v) {
      v = document.createElement("video");
      v.muted = true;
      v.preload = "auto";
      v.playsInline = true;
      v.crossOrigin = "anonymous";
      v.src = url;
      videos.set(url, v);
    }
    if (v.readyState < 1) await once(v, "loadedmetadata");
    const target = videoTargetTime(time, fps, v.duration);
    if (Math.abs(v.currentTime - target) > 1e-4 || v.readyState < 2) {
      const seeked = once(v, "seeked");
      v.currentTime = target;
      await seeked;
      // Chromium can fire "seeked" before the new picture reaches what drawImage reads: a stale
      // frame was drawn twice in 2,100 seeks of a loaded machine (four busy loops on two cores),
      // none in 1,800 with one task's wait first (a throwaway page seeking tests/fixtures/media/
      // bars-per-second.mp4 and probing the bar colour; the render tests failed about 1 in 10 runs).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (v.readyState < 2) await once(v, "loadeddata");
    return stage(v);
  };

  /**
   * Lets go of the images and video elements no frame has used lately beyond the most recent few
   * (a decoded 4000×3000 photo holds 48 MB; an element, a decoder and its buffers). A slot that
   * still holds a released image is marked empty, so the image is loaded again if it returns.
   */
  const prune = () => {
    const idle = (used: Map<string, number>, limit: number): string[] => {
      const old = [...used].filter(([, n]) => n < frameNo).sort((a, b) => a[1] - b[1]);
      return old.slice(0, Math.max(0, old.length - limit)).map(([url]) => url);
    };
    for (const url of idle(lastUsed.images, IDLE_IMAGES)) {
      void images.get(url)?.then((b) => b.close(), () => {});
      images.delete(url);
      lastUsed.images.delete(url);
      for (let i = 0; i < uploaded.length; i++) if (uploaded[i] === `image ${url}`) uploaded[i] = undefined;
    }
    for (const url of idle(lastUsed.videos, IDLE_VIDEO_ELEMENTS)) {
      const v = videos.get(url);
      if (v) {
        v.removeAttribute("src");
        v.load();
      }
      videos.delete(url);
      videoTurns.delete(url);
      lastUsed.videos.delete(url);
    }
  };

  /**
   * What identifies a picture for the upload cache: the same key means the same pixels. Pictures
   * that can change in place (canvases, video frames) have none and are uploaded every frame.
   */
  const keyOf = (given: LayerSource): unknown => {
    if (typeof HTMLVideoElement !== "undefined" && given instanceof HTMLVideoElement) return `video ${given.currentSrc} @${given.currentTime}`;
    if (
      (typeof ImageBitmap !== "undefined" && given instanceof ImageBitmap) ||
      (typeof HTMLImageElement !== "undefined" && given instanceof HTMLImageElement) ||
      (typeof ImageData !== "undefined" && given instanceof ImageData)
    )
      return given;
    return undefined;
  };

  /** The layer's picture, or `reuse` when slot `i` already holds it. */
  const sourceFor = async (layer: MediaFrameLayer, i: number): Promise<{ s?: LayerSource; reuse?: true; key: unknown }> => {
    const given = media ? await media(layer) : null;
    if (given) {
      const key = keyOf(given);
      return key !== undefined && uploaded[i] === key ? { reuse: true, key } : { s: given, key };
    }
    if (layer.mediaType === "graphic") {
      const definition = layer.stickerId?.slice("graphic:".length) ?? "rectangle";
      const key = `graphic ${definition} ${layer.fill ?? "#ffffff"}`;
      return uploaded[i] === key ? { reuse: true, key } : { s: drawGraphic(definition, layer.fill ?? "#ffffff"), key };
    }
    const url = urlOf(layer);
    if (!url) throw new NeuralCutError("NO_SOURCE", layer.mediaType === "sticker" ? `no picture for sticker ${layer.stickerId} (register it with editor.addSticker(id, name, url))` : `no source for asset ${layer.assetId} (addAsset with file or url, or a media callback)`);
    if (layer.mediaType === "video") {
      const fps = (layer.assetId && assetInfo(layer.assetId)?.fps) || 30;
      const key = `video ${url} @${layer.sourceTime ?? 0} ${fps}`;
      if (uploaded[i] === key) {
        decoder?.keep(layer.elementId);
        if (videos.has(url)) lastUsed.videos.set(url, frameNo);
        return { reuse: true, key };
      }
      const decoded = await decoder?.frame(layer);
      return { s: decoded ?? (await videoFrame(url, layer.sourceTime ?? 0, fps)), key };
    }
    const key = `image ${url}`;
    if (uploaded[i] !== key) return { s: await image(url), key };
    lastUsed.images.set(url, frameNo);
    return { reuse: true, key };
  };

  const render = async (seconds: number, opts: RenderFrameOptions = {}): Promise<RenderedFrame> => {
    if (destroyed) throw new NeuralCutError("RENDERER_DESTROYED", "this frame renderer was destroyed");
    frameAssets = undefined;
    const frame = editor.frameAt(seconds);
    if (!frame) throw new NeuralCutError("NO_ACTIVE_PROJECT", "the editor has no project to render");
    const width = Math.round(opts.width ?? frame.width);
    if (!Number.isInteger(width) || width < 1 || width > maxSize) throw new NeuralCutError("INVALID_OPTIONS", `width must be a whole number from 1 to ${maxSize}, got ${opts.width}`);
    const scale = width / frame.width;
    const height = Math.max(1, Math.round(frame.height * scale));
    if (height > maxSize) throw new NeuralCutError("INVALID_OPTIONS", `the frame would be ${width}x${height}, over this GPU's ${maxSize}`);
    // Sources load in parallel; drawing is in layer order.
    const sources = frame.layers.map((l, i) => (l.kind === "media" ? sourceFor(l, i).catch((e: unknown) => ({ e })) : null));
    const [r, g, b, a] = parseColour(frame.background);
    inner.beginFrame(width, height, r, g, b, a);
    const drawn: string[] = [];
    const missing = [...frame.skipped];
    for (let i = 0; i < frame.layers.length; i++) {
      const layer = frame.layers[i];
      if (layer.kind === "effect") {
        await inner.applyEffects([{ effectType: layer.effectType, params: layer.params }]);
        drawn.push(layer.elementId);
        continue;
      }
      if (layer.kind === "text") {
        // Rasterised by the browser into a canvas the size of its own box, not the frame's;
        // unchanged text (same layer, same output size) is not rasterised or uploaded again.
        const key = `text ${width}x${height} ${JSON.stringify(layer)}`;
        if (uploaded[i] !== key) {
          uploaded[i] = undefined;
          text ??= new OffscreenCanvas(1, 1);
          const ctx = text.getContext("2d")!;
          const layout = layoutText(ctx, layer);
          const box = textBox(layer, layout, scale, width, height);
          textBoxes[i] = box;
          if (box) {
            text.width = box.w;
            text.height = box.h;
            drawText(ctx, layer, layout, scale, box.x, box.y);
            // WebGL2 copies only ImageBitmap, canvas elements and images, not OffscreenCanvas.
            const bitmap = text.transferToImageBitmap();
            try {
              await inner.drawLayer(bitmap, i, box.x + box.w / 2, box.y + box.h / 2, box.w, box.h, 0, false, false, layer.opacity, layer.blendMode, layer.effects);
            } finally {
              handOver(i, bitmap);
            }
          }
          uploaded[i] = key;
        } else {
          const box = textBoxes[i];
          if (box) await inner.drawLayer(null, i, box.x + box.w / 2, box.y + box.h / 2, box.w, box.h, 0, false, false, layer.opacity, layer.blendMode, layer.effects);
        }
        drawn.push(layer.elementId);
        continue;
      }
      const got = (await sources[i])!;
      if ("e" in got) {
        missing.push({ elementId: layer.elementId, reason: got.e instanceof Error ? got.e.message : String(got.e) });
        continue;
      }
      if (got.reuse) {
        const [sw, sh] = sizes[i];
        const p = layer.placement ?? placeLayer(layer, frame, sw, sh);
        await inner.drawLayer(null, i, p.centerX * scale, p.centerY * scale, p.width * scale, p.height * scale, p.rotation, p.flipX, p.flipY, layer.opacity, layer.blendMode, layer.effects);
        drawn.push(layer.elementId);
        continue;
      }
      let source = got.s!;
      const [sw, sh] = sizeOf(source);
      if (!sw || !sh) {
        missing.push({ elementId: layer.elementId, reason: "the source has no pixels yet" });
        continue;
      }
      // Video elements and VideoFrames go through a 2D canvas, OffscreenCanvases (which WebGL2
      // cannot copy from) through a bitmap.
      const isVideo =
        (typeof HTMLVideoElement !== "undefined" && source instanceof HTMLVideoElement) || (typeof VideoFrame !== "undefined" && source instanceof VideoFrame);
      let own: ImageBitmap | undefined;
      if (isVideo) source = own = stage(source as HTMLVideoElement);
      else if (
        (typeof OffscreenCanvas !== "undefined" && source instanceof OffscreenCanvas) ||
        (typeof HTMLImageElement !== "undefined" && source instanceof HTMLImageElement)
      ) {
        // WebGL2 cannot copy from an OffscreenCanvas, and SwiftShader's WebGPU fails on some
        // image elements: both go through a bitmap.
        source = own = await createImageBitmap(source);
      }
      const p = layer.placement ?? placeLayer(layer, frame, sw, sh);
      uploaded[i] = undefined;
      try {
        await inner.drawLayer(source, i, p.centerX * scale, p.centerY * scale, p.width * scale, p.height * scale, p.rotation, p.flipX, p.flipY, layer.opacity, layer.blendMode, layer.effects);
      } finally {
        handOver(i, own);
      }
      uploaded[i] = got.key;
      sizes[i] = [sw, sh];
      drawn.push(layer.elementId);
    }
    inner.endFrame();
    // Decoders of elements no longer on screen are closed (browsers limit how many run at once).
    decoder?.sweep();
    prune();
    frameNo++;
    if (shown2d && canvas) {
      const pixels = (await inner.readPixels(0, 0)) as Uint8ClampedArray;
      if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
      shown2d.putImageData(new ImageData(new Uint8ClampedArray(pixels), width, height), 0, 0);
    }
    last = { width, height };
    return { frame, width, height, drawn, missing };
  };

  return {
    backend,
    backendReason,
    canvas,
    render(seconds, opts) {
      // One frame at a time: the compositor's textures are shared.
      const next = queue.then(() => render(seconds, opts));
      queue = next.catch(() => undefined);
      return next;
    },
    readPixels(region) {
      if (destroyed) throw new NeuralCutError("RENDERER_DESTROYED", "this frame renderer was destroyed");
      return (region ? inner.readPixels(region.x, region.y, region.width, region.height) : inner.readPixels(0, 0)) as Promise<Uint8ClampedArray>;
    },
    async toBlob(type = "image/png") {
      if (!last) throw new NeuralCutError("NOTHING_RENDERED", "nothing rendered yet");
      const { width, height } = last;
      const pixels = (await inner.readPixels(0, 0)) as Uint8ClampedArray;
      const c = new OffscreenCanvas(width, height);
      c.getContext("2d")!.putImageData(new ImageData(new Uint8ClampedArray(pixels), width, height), 0, 0);
      return c.convertToBlob({ type });
    },
    async toVideoFrame(init) {
      if (destroyed) throw new NeuralCutError("RENDERER_DESTROYED", "this frame renderer was destroyed");
      if (!last) throw new NeuralCutError("NOTHING_RENDERED", "nothing rendered yet");
      const r = init.visibleRect ?? { x: 0, y: 0, width: last.width, height: last.height };
      const timing = { timestamp: init.timestamp, ...(init.duration !== undefined ? { duration: init.duration } : {}) };
      // A canvas frame skips the read-back into JS and its copy: 720p export took 5.1 s instead of
      // 8.3 s in one bench-export run (10 s timeline, two busy cores).
      if (inner.videoFrame) return inner.videoFrame({ ...timing, visibleRect: r });
      const pixels = (await inner.readPixels(r.x, r.y, r.width, r.height)) as Uint8ClampedArray;
      return new VideoFrame(pixels, { ...timing, format: "RGBA", codedWidth: r.width, codedHeight: r.height });
    },
    cached() {
      return { images: images.size, videoElements: videos.size, videoFiles: decoder?.files ?? 0 };
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const u of urls.values()) URL.revokeObjectURL(u);
      for (const v of videos.values()) {
        v.removeAttribute("src");
        v.load();
      }
      for (const b of kept) b?.close();
      decoder?.dispose();
      inner.free();
    },
  };
}
