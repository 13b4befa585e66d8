// The frame compositor for machines without a usable GPU: layers drawn with the browser's 2D
// canvas (Skia on the CPU), the way OpenCut's own renderer draws them. On a software adapter a
// GPU compositor pays a full-frame pass per layer (a bare full-frame triangle costs more on
// SwiftShader's WebGL2 than Canvas2D compositing a whole five-layer frame, docs/render.md);
// drawImage costs only the pixels a layer covers. Effects run on the effects module's CPU path
// (wasm SIMD over the canvas's own pixels, no GPU round trip), which matches the reference that
// the shaders are held to.
import { NeuralCutError } from "./errors.js";
import { applyEffectsToContext, type EffectInput } from "./effects.js";
import { pictureSize as sizeOf } from "./media/picture-size.js";
import type { Compositor, LayerDraw } from "./render-backend.js";
import type { BlendMode } from "./generated/tools.js";

type Source = CanvasImageSource &
  ({ width: number; height: number } | { videoWidth: number; videoHeight: number } | { displayWidth: number; displayHeight: number });
type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** Canvas2D's side of the larger of the two limits browsers put on a canvas side (Chromium: 32767). */
const MAX_SIZE = 16384;

/** A blend mode of the registry (src/frame.rs BLEND_MODES, CSS names) as a composite operation. */
function operation(mode: BlendMode | string): GlobalCompositeOperation {
  if (mode === "normal" || !mode) return "source-over";
  if (mode === "plus-lighter") return "lighter";
  return mode as GlobalCompositeOperation;
}

/**
 * The compositor `createFrameRenderer` drives, with the GPU compositor's calls (beginFrame,
 * drawLayer, applyEffects, endFrame, readPixels). It keeps each slot's picture for reuse, so the
 * caller hands pictures over and does not close them.
 */
export class Canvas2DCompositor implements Compositor {
  readonly backend = "canvas2d" as const;
  readonly maxSize = MAX_SIZE;
  readonly keepsSources = true;
  readonly #ctx: Context2D;
  readonly #slots: (Source | undefined)[] = [];
  #scratch: Context2D | undefined;

  constructor(canvas?: HTMLCanvasElement | OffscreenCanvas) {
    const target = canvas ?? new OffscreenCanvas(1, 1);
    // Not willReadFrequently: that forces a CPU canvas, and pictures decoded to ImageBitmaps live
    // on the browser's GPU side (SwiftShader's too), so each draw would copy one back. Measured
    // with `node scripts/bench-render.mjs --backends auto`: Canvas2D ÷ ours at 1080p 0.28–0.96
    // over four runs with it, 0.82–1.11 over three without.
    const ctx = target.getContext("2d") as Context2D | null;
    if (!ctx) throw new NeuralCutError("NO_CANVAS", "this canvas has no 2D context (it already holds a WebGL or WebGPU one)");
    this.#ctx = ctx;
  }

  beginFrame(width: number, height: number, r: number, g: number, b: number, a: number): void {
    const c = this.#ctx.canvas;
    if (c.width !== width || c.height !== height) Object.assign(c, { width, height });
    const ctx = this.#ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    // An opaque colour covers the old frame as it is; a transparent one must replace it.
    ctx.globalCompositeOperation = a >= 1 ? "source-over" : "copy";
    ctx.fillStyle = `rgba(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)}, ${a})`;
    ctx.fillRect(0, 0, width, height);
    ctx.globalCompositeOperation = "source-over";
    // The 2D canvas default, bilinear like the GPU compositor's sampler. "high" (mipmaps, bicubic)
    // cost three times as much (bench-render --backends auto, 1080p: ratio 0.29–0.33 against 0.8–1.1).
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "low";
  }

  /** Draws slot `slot` (given `source`, or the picture it kept) centred at (centerX, centerY), `width × height` target pixels. */
  async drawLayer({ source, slot, centerX, centerY, width, height, rotation, flipX, flipY, opacity, blendMode, effects }: LayerDraw): Promise<void> {
    if (source) this.#slots[slot] = source as Source;
    let picture: CanvasImageSource | undefined = this.#slots[slot];
    if (!picture) throw new NeuralCutError("NO_SOURCE", `no picture kept for layer ${slot}`);
    if (effects?.length) {
      const [sw, sh] = sizeOf(picture as Source);
      const scratch = this.#scratchOf(sw, sh);
      scratch.globalCompositeOperation = "copy";
      scratch.drawImage(picture, 0, 0);
      await this.#applyEffects(scratch, effects);
      picture = scratch.canvas;
    }
    const ctx = this.#ctx;
    ctx.save();
    ctx.globalAlpha = Math.max(0, Math.min(1, opacity));
    ctx.globalCompositeOperation = operation(blendMode);
    ctx.translate(centerX, centerY);
    if (rotation) ctx.rotate((rotation * Math.PI) / 180);
    if (flipX || flipY) ctx.scale(flipX ? -1 : 1, flipY ? -1 : 1);
    ctx.drawImage(picture, -width / 2, -height / 2, width, height);
    ctx.restore();
  }

  /** A frame-wide effect pass over everything drawn so far. */
  async applyEffects(effects: EffectInput[]): Promise<void> {
    await this.#applyEffects(this.#ctx, effects);
  }

  endFrame(): void {}

  /** RGBA rows of the frame (or of the region from (x, y), `width × height`). */
  async readPixels(x: number, y: number, width?: number, height?: number): Promise<Uint8ClampedArray> {
    const c = this.#ctx.canvas;
    return this.#ctx.getImageData(x, y, width ?? c.width - x, height ?? c.height - y).data;
  }

  /** The frame as a VideoFrame of the canvas itself (the encoder reads it; no copy into JS). */
  videoFrame(init: VideoFrameInit): VideoFrame {
    return new VideoFrame(this.#ctx.canvas, init);
  }

  free(): void {
    this.#slots.length = 0;
  }

  #scratchOf(width: number, height: number): Context2D {
    if (!this.#scratch) {
      const ctx = new OffscreenCanvas(width, height).getContext("2d", { willReadFrequently: true });
      if (!ctx) throw new NeuralCutError("NO_CANVAS", "no 2D context for a layer's effects");
      this.#scratch = ctx;
    }
    const c = this.#scratch.canvas;
    if (c.width !== width || c.height !== height) Object.assign(c, { width, height });
    return this.#scratch;
  }

  /**
   * Runs `effects` over `ctx`'s pixels on the effects module's CPU path: this compositor runs
   * where the GPU is software, and there the CPU path is faster than a GPU upload, effect and
   * read-back (docs/effects.md).
   */
  async #applyEffects(ctx: Context2D, effects: EffectInput[]): Promise<void> {
    await applyEffectsToContext(ctx, effects);
  }
}
