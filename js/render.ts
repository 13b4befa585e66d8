// The package entry `neuralcut/render`: draws a frame of an editor (`editor.frameAt`) on the GPU
// (WebGPU, WebGL2 fallback) with the compositor of the effects module, or with the browser's 2D
// canvas where the only GPU is a software one (render-canvas2d.ts). Media come from the
// sources the editor holds (`addAsset({ file | url })`) or from a host callback; text is
// rasterised with the browser's fonts. Composition rules: docs/render.md.
import { loadEngine } from "./engine.js";
import { NeuralCutError } from "./errors.js";
import type { EffectBackend } from "./effects.js";
import { pictureSize as sizeOf } from "./media/picture-size.js";
import { chooseCompositor, type LayerDraw } from "./render-backend.js";
import { parseColour, placeLayer } from "./render-layers.js";
import { createMasks, DRAWN_MASKS } from "./render-mask.js";
import { createLayerSources, stage } from "./render-sources.js";
import { drawText, layoutText, textBox } from "./render-text.js";
import type { AssetJson, Frame, FrameMask, FramePlacement, MediaFrameLayer, TextFrameLayer } from "./generated/tools.js";

// The frame as data and the audio plan: generated from src/frame.rs and src/audio.rs.
export type {
  AudioPlan,
  AudioPlanClip,
  BlendMode,
  EffectFrameLayer,
  Frame,
  FrameClipEffect,
  FrameLayer,
  FramePlacement,
  FrameSkipped,
  FrameTextBackground,
  FrameTransform,
  MediaFrameLayer,
  TextFrameLayer,
} from "./generated/tools.js";
export type { EffectBackend } from "./effects.js";
export { Canvas2DCompositor } from "./render-canvas2d.js";
export { renderPreviewTool, renderPreviewInPage, RENDER_PREVIEW_TOOL } from "./render-preview.js";

/** What a host may hand over for a media layer. */
export type LayerSource = ImageBitmap | ImageData | HTMLCanvasElement | OffscreenCanvas | HTMLVideoElement | VideoFrame | HTMLImageElement;

/** The editor surface the renderer reads (a `NeuralCutEditor`). */
export interface RenderableEditor {
  frameAt(seconds: number): Frame | null;
  assetSource(id: string): { file?: Blob; url?: string } | undefined;
  project(): { assets?: Pick<AssetJson, "id" | "fps" | "duration">[] } | null;
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
   * load it from the editor's asset sources. Not asked for graphics, which the renderer draws from
   * their params.
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

/** A frame's placement in target pixels: the quad fields of the compositor's `drawLayer`. */
const scaled = (p: FramePlacement, scale: number): FramePlacement => ({
  centerX: p.centerX * scale,
  centerY: p.centerY * scale,
  width: p.width * scale,
  height: p.height * scale,
  rotation: p.rotation,
  flipX: p.flipX,
  flipY: p.flipY,
});

/** A text box (target pixels, top-left corner) as an upright quad. */
const boxQuad = (box: { x: number; y: number; w: number; h: number }): FramePlacement => ({
  centerX: box.x + box.w / 2,
  centerY: box.y + box.h / 2,
  width: box.w,
  height: box.h,
  rotation: 0,
  flipX: false,
  flipY: false,
});

/** What a slot's masked picture depends on besides its source: the mask and the element's drawn
 * size (canvas pixels, where render-mask.ts measures it); undefined for a layer drawn unmasked. */
const maskKey = (mask: FrameMask | undefined, p: FramePlacement): string | undefined =>
  mask && DRAWN_MASKS.has(mask.type) ? `${Math.max(1, Math.round(p.width))}x${Math.max(1, Math.round(p.height))} ${JSON.stringify(mask)}` : undefined;

/** How a layer is blended: its opacity, blend mode and clip effects. */
const look = (layer: MediaFrameLayer | TextFrameLayer) => ({ opacity: layer.opacity, blendMode: layer.blendMode, effects: layer.effects });

/** Creates a frame renderer. Rejects when the requested backend is unavailable. */
export async function createFrameRenderer(options: CreateFrameRendererOptions): Promise<FrameRenderer> {
  const { editor, canvas } = options;
  if (!editor || typeof editor.frameAt !== "function") throw new NeuralCutError("INVALID_OPTIONS", "createFrameRenderer needs { editor } (a NeuralCut editor)");
  // Layers whose size only the picture tells are placed by the engine's own rule (frame::place).
  await loadEngine();
  const { inner, backendReason, shown2d } = await chooseCompositor(options);
  const backend = inner.backend as RenderBackend;
  // Pictures a compositor that keeps sources holds (Canvas2D), by slot: closed when replaced.
  const kept: (ImageBitmap | undefined)[] = [];
  const handOver = (i: number, own: ImageBitmap | undefined) => {
    if (!inner.keepsSources) return own?.close();
    if (kept[i] !== own) kept[i]?.close();
    kept[i] = own;
  };
  // Every picture reaches the compositor in straight alpha, as its shaders blend. WebGPU's
  // copyExternalImageToTexture converts any source (premultipliedAlpha: false) and WebGL2's
  // texImage2D converts canvases and images, but WebGL may ignore UNPACK_PREMULTIPLY_ALPHA_WEBGL
  // for an ImageBitmap and Chromium does: a premultiplied bitmap (of a 2D canvas: text, masks,
  // graphics, video frames; a decoded PNG) had its alpha applied twice. (wgpu's own WebGL
  // backend refuses that copy: UNRESTRICTED_EXTERNAL_TEXTURE_COPIES.) So WebGL2 gets a straight copy.
  const straightBitmaps = backend === "webgl2" && !inner.keepsSources;
  /** Uploads `layer.source` to its slot and draws it; `own` is the renderer's bitmap of it. */
  const upload = async (layer: LayerDraw, own: ImageBitmap | undefined) => {
    let copy: ImageBitmap | undefined;
    try {
      if (straightBitmaps && typeof ImageBitmap !== "undefined" && layer.source instanceof ImageBitmap)
        copy = await createImageBitmap(layer.source, { premultiplyAlpha: "none" });
      await inner.drawLayer(copy ? { ...layer, source: copy } : layer);
    } finally {
      copy?.close();
      handOver(layer.slot, own);
    }
  };
  const maxSize = inner.maxSize;
  let text: OffscreenCanvas | undefined;
  // What each layer slot of the GPU compositor holds, so that a picture already uploaded (an
  // image, a sticker, the same video frame, unchanged text) is drawn again without an upload.
  const uploaded: unknown[] = [];
  const masks = createMasks();
  const maskedAs: (string | undefined)[] = []; // the maskKey each slot's picture went through
  const textBoxes: ({ x: number; y: number; w: number; h: number } | null)[] = [];
  const sizes: [number, number][] = []; // the source size of what each slot holds
  let last: { width: number; height: number } | undefined;
  let destroyed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const pictures = createLayerSources(options, uploaded);

  const render = async (seconds: number, opts: RenderFrameOptions = {}): Promise<RenderedFrame> => {
    if (destroyed) throw new NeuralCutError("RENDERER_DESTROYED", "this frame renderer was destroyed");
    pictures.beginFrame();
    const frame = editor.frameAt(seconds);
    if (!frame) throw new NeuralCutError("NO_ACTIVE_PROJECT", "the editor has no project to render");
    const width = Math.round(opts.width ?? frame.width);
    if (!Number.isInteger(width) || width < 1 || width > maxSize)
      throw new NeuralCutError("INVALID_OPTIONS", `width must be a whole number from 1 to ${maxSize}, got ${opts.width}`);
    const scale = width / frame.width;
    const height = Math.max(1, Math.round(frame.height * scale));
    if (height > maxSize) throw new NeuralCutError("INVALID_OPTIONS", `the frame would be ${width}x${height}, over this GPU's ${maxSize}`);
    // Sources load in parallel; drawing is in layer order.
    const sources = frame.layers.map((l, i) => (l.kind === "media" ? pictures.sourceFor(l, i).catch((e: unknown) => ({ e })) : null));
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
            await upload({ source: bitmap, slot: i, ...boxQuad(box), ...look(layer) }, bitmap);
          }
          uploaded[i] = key;
        } else {
          const box = textBoxes[i];
          if (box) await inner.drawLayer({ source: null, slot: i, ...boxQuad(box), ...look(layer) });
        }
        drawn.push(layer.elementId);
        continue;
      }
      let got = (await sources[i])!;
      if (!("e" in got) && got.reuse && maskedAs[i] !== maskKey(layer.mask, layer.placement ?? placeLayer(layer, frame, ...sizes[i]))) {
        // The slot's picture went through another mask (or none, or has one now): load it again.
        uploaded[i] = undefined;
        got = await pictures.sourceFor(layer, i).catch((e: unknown) => ({ e }));
      }
      if ("e" in got) {
        missing.push({ elementId: layer.elementId, reason: got.e instanceof Error ? got.e.message : String(got.e) });
        continue;
      }
      if (got.reuse) {
        const [sw, sh] = sizes[i];
        const p = layer.placement ?? placeLayer(layer, frame, sw, sh);
        await inner.drawLayer({ source: null, slot: i, ...scaled(p, scale), ...look(layer) });
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
      // A mask is applied to the picture itself (render-mask.ts), so every backend draws it; the
      // slot keeps the masked picture, drawn again while its source and mask stay the same.
      const masked = maskKey(layer.mask, p);
      if (masked) {
        const through = await masks.apply(source as CanvasImageSource, sw, sh, layer.mask!, p);
        if (own) handOver(i, own);
        source = own = through;
      }
      uploaded[i] = undefined;
      await upload({ source, slot: i, ...scaled(p, scale), ...look(layer) }, own);
      uploaded[i] = got.key;
      maskedAs[i] = masked;
      sizes[i] = [sw, sh];
      drawn.push(layer.elementId);
    }
    inner.endFrame();
    pictures.endFrame();
    if (shown2d && canvas) {
      const pixels = await inner.readPixels(0, 0);
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
      return region ? inner.readPixels(region.x, region.y, region.width, region.height) : inner.readPixels(0, 0);
    },
    async toBlob(type = "image/png") {
      if (!last) throw new NeuralCutError("NOTHING_RENDERED", "nothing rendered yet");
      const { width, height } = last;
      const pixels = await inner.readPixels(0, 0);
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
      const pixels = await inner.readPixels(r.x, r.y, r.width, r.height);
      return new VideoFrame(pixels, { ...timing, format: "RGBA", codedWidth: r.width, codedHeight: r.height });
    },
    cached() {
      return pictures.cached();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      pictures.destroy();
      for (const b of kept) b?.close();
      inner.free();
    },
  };
}
