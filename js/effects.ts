// The package entry `neuralcut/effects`: GPU effects (WebGPU, WebGL2 fallback) as its own wasm
// module, loaded only by hosts that import this entry. The math is defined in docs/effects.md;
// the GPU output is tested against the CPU reference that `applyEffectsCpu` exposes.
import type { EffectType } from "./generated/tools.js";
import init, { applyEffectsCpu as cpu, createRenderer, validateEffects as validate, type WasmEffectRenderer } from "./wasm/neuralcut_effects.js";

/** A backend the renderer can use. */
export type EffectBackend = "webgpu" | "webgl2";

/** One effect to apply: an id of the effect registry and its parameters (missing ones take defaults). */
export interface EffectInput {
  effectType: EffectType | (string & {});
  params?: Record<string, number>;
}

/** What `render` accepts as a picture. */
export type EffectSource = ImageBitmap | ImageData | HTMLCanvasElement | OffscreenCanvas | HTMLVideoElement | VideoFrame | HTMLImageElement;

export interface RenderOptions {
  /**
   * The picture; copied from its top-left corner, at least `width × height`. Omit it to apply
   * new effects to the frame already on the GPU (same size), without uploading it again.
   */
  source?: EffectSource | null;
  /** Output size in pixels; the canvas is resized to it. */
  width: number;
  height: number;
  /** Applied in order (bottom to top, as `editor.effectsAt` lists them). */
  effects: EffectInput[];
}

export interface CreateEffectRendererOptions {
  /**
   * Where each frame is shown. Without one the renderer is headless: frames stay on the GPU for
   * `readPixels` (export, tests, thumbnails) and no canvas work is done.
   */
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /** "auto" (default): WebGPU when the browser has it, else WebGL2. */
  backend?: "auto" | EffectBackend;
}

export interface EffectRenderer {
  /** The backend in use. */
  readonly backend: EffectBackend;
  /** The canvas frames are shown on (undefined for a headless renderer). */
  readonly canvas: HTMLCanvasElement | OffscreenCanvas | undefined;
  /** The largest width or height this GPU accepts. */
  readonly maxSize: number;
  /** Renders `source` with `effects` applied (and shows it on the canvas). Throws, drawing nothing, on an unknown effect or bad params. */
  render(options: RenderOptions): void;
  /**
   * The last rendered frame, RGBA rows top to bottom, exactly as the effects produced it (read
   * from the GPU, not from the canvas), or just `region` of it. A Promise because WebGPU has no
   * synchronous read-back.
   */
  readPixels(region?: { x: number; y: number; width: number; height: number }): Promise<Uint8ClampedArray>;
  /** Frees the GPU resources; the renderer cannot be used afterwards. */
  destroy(): void;
}

let ready: Promise<void> | undefined;

/** Instantiates the effects wasm once. */
export function loadEffects(): Promise<void> {
  ready ??= (async () => {
    const url = new URL("./wasm/neuralcut_effects_bg.wasm", import.meta.url);
    let module_or_path: URL | Uint8Array = url;
    if (url.protocol === "file:") {
      const fsModule = "node:fs/promises";
      const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
      module_or_path = await fs.readFile(url);
    }
    await init({ module_or_path });
  })();
  ready.catch(() => {
    ready = undefined;
  });
  return ready;
}

/** Creates a GPU effects renderer. Rejects when the requested backend is unavailable. */
export async function createEffectRenderer(options: CreateEffectRendererOptions = {}): Promise<EffectRenderer> {
  await loadEffects();
  const canvas = options.canvas;
  const inner: WasmEffectRenderer = await createRenderer(canvas ?? null, options.backend ?? "auto");
  const backend = inner.backend as EffectBackend;
  const maxSize = inner.maxSize;
  let stage: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | undefined;
  // Sources the GPU copy cannot take on every browser go through a 2D canvas first: video
  // (SwiftShader's WebGPU refuses VideoFrame and video copies) and, on WebGL2, OffscreenCanvas
  // (wgpu's WebGL2 path copies only from the other kinds).
  const staged = (source: EffectSource, width: number, height: number): EffectSource => {
    const isFrame = typeof VideoFrame !== "undefined" && source instanceof VideoFrame;
    const isVideo = typeof HTMLVideoElement !== "undefined" && source instanceof HTMLVideoElement;
    const isOffscreen = backend === "webgl2" && typeof OffscreenCanvas !== "undefined" && source instanceof OffscreenCanvas;
    if (!isFrame && !isVideo && !isOffscreen) return source;
    const sw = isFrame ? (source as VideoFrame).displayWidth : isVideo ? (source as HTMLVideoElement).videoWidth : (source as OffscreenCanvas).width;
    const sh = isFrame ? (source as VideoFrame).displayHeight : isVideo ? (source as HTMLVideoElement).videoHeight : (source as OffscreenCanvas).height;
    if (sw < width || sh < height) throw new Error(`source is ${sw}x${sh}, smaller than the requested ${width}x${height}`);
    if (!stage || stage.canvas.width !== width || stage.canvas.height !== height) {
      const c = typeof document !== "undefined" ? document.createElement("canvas") : new OffscreenCanvas(width, height);
      c.width = width;
      c.height = height;
      const ctx = c.getContext("2d", { willReadFrequently: backend === "webgl2" && typeof document === "undefined" }) as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
      if (!ctx) throw new Error("no 2D context to stage the source with");
      stage = ctx;
    }
    stage.drawImage(source as CanvasImageSource, 0, 0);
    // In a worker on WebGL2 there is no HTMLCanvasElement: hand over the pixels.
    if (backend === "webgl2" && typeof document === "undefined") return stage.getImageData(0, 0, width, height);
    return stage.canvas as HTMLCanvasElement | OffscreenCanvas;
  };
  let destroyed = false;
  const alive = () => {
    if (destroyed) throw new Error("this effect renderer was destroyed");
  };
  return {
    backend,
    canvas,
    maxSize,
    render({ source, width, height, effects }: RenderOptions) {
      alive();
      if (!Number.isInteger(width) || !Number.isInteger(height)) throw new Error(`width and height must be integers, got ${width}x${height}`);
      validate(effects);
      inner.render(source == null ? null : staged(source, width, height), width, height, effects);
    },
    readPixels(region?: { x: number; y: number; width: number; height: number }) {
      alive();
      // Whole, non-negative numbers only: the wasm boundary would wrap -1 and truncate 0.5.
      if (region && ![region.x, region.y, region.width, region.height].every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff)) {
        throw new Error(`readPixels region must be whole non-negative numbers, got ${JSON.stringify(region)}`);
      }
      return (region ? inner.readPixels(region.x, region.y, region.width, region.height) : inner.readPixels(0, 0)) as Promise<Uint8ClampedArray>;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      inner.free();
    },
  };
}

/** Throws the Error `render` would throw for these effects, if any. */
export async function validateEffects(effects: EffectInput[]): Promise<void> {
  await loadEffects();
  validate(effects);
}

/**
 * The CPU reference implementation: RGBA8 `pixels` of `width × height` with `effects` applied in
 * order. Exactly the math the shaders follow (docs/effects.md); slow, for tests and GPU-less hosts.
 */
export async function applyEffectsCpu(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, effects: EffectInput[]): Promise<Uint8ClampedArray> {
  await loadEffects();
  const bytes = pixels instanceof Uint8Array ? pixels : new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  return new Uint8ClampedArray(cpu(bytes, width, height, effects).buffer);
}
