// The package entry `neuralcut/effects`: effects on the GPU (WebGPU, WebGL2 fallback) or on the
// CPU (wasm SIMD, for machines without a usable GPU) as its own wasm module, loaded only by hosts
// that import this entry. The math is defined in docs/effects.md; every backend is tested
// against the CPU reference that `applyEffectsCpu` exposes.
import { asNeuralCutError, NeuralCutError } from "./errors.js";
import type { EffectType } from "./generated/tools.js";
import { openGpu } from "./gpu-open.js";
import init, { applyEffectsCpu as cpu, CpuEffects, validateEffects as wasmValidate, type WasmEffectRenderer } from "./wasm/neuralcut_effects.js";
import { pictureSize as sizeOf } from "./media/picture-size.js";
import { wasmLoader } from "./wasm-loader.js";

/** A GPU backend. */
export type GpuBackend = "webgpu" | "webgl2";

/**
 * A backend the renderer can use: a GPU one, or "cpu", the effects as wasm SIMD code on the CPU
 * (the fastest path where the browser has no usable GPU).
 */
export type EffectBackend = GpuBackend | "cpu";

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

/**
 * How a picture reaches the GPU: "copy" hands it to the GPU as is (`copyExternalImageToTexture`,
 * a GPU-side blit on a real GPU); "pixels" reads its pixels on the CPU through a 2D canvas and
 * writes them (`writeTexture`), which is many times faster where the GPU is software.
 */
export type EffectUpload = "copy" | "pixels";

export interface CreateEffectRendererOptions {
  /**
   * Where each frame is shown. Without one the renderer is headless: frames stay on the GPU for
   * `readPixels` (export, tests, thumbnails) and no canvas work is done.
   */
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /**
   * "auto" (default): a hardware WebGPU adapter when there is one; on a software adapter (no
   * usable GPU: SwiftShader, llvmpipe, WARP, `isFallbackAdapter`) the backend measured fastest
   * there ({@link SOFTWARE_BACKEND}, the CPU path); "cpu" where no GPU opens.
   * `renderer.backendReason` says which rule chose it.
   */
  backend?: "auto" | EffectBackend;
  /** "auto" (default): "pixels" on a software adapter and on the CPU path, "copy" otherwise. */
  upload?: "auto" | EffectUpload;
}

/** What the browser says about one backend's adapter, before the renderer opens it. */
export interface AdapterProbe {
  /** Whether this backend can be opened at all. */
  available: boolean;
  /** A software rasteriser (the browser runs the GPU's work on the CPU). */
  software: boolean;
  /** The adapter's own description (WebGPU adapter info, or the WebGL renderer string). */
  description: string;
}

/**
 * The backend "auto" takes on a software adapter. Measured with scripts/bench-effects.mjs on
 * Chromium's SwiftShader (docs/effects.md): the CPU path is faster than both of SwiftShader's
 * GPU backends for every effect, since it skips the upload to and the read-back from the
 * emulated GPU and runs vectorised code.
 */
export const SOFTWARE_BACKEND: EffectBackend = "cpu";

const SOFTWARE_NAMES = /swiftshader|llvmpipe|lavapipe|softpipe|software|microsoft basic render|\bwarp\b/i;

let probed: Promise<Record<GpuBackend, AdapterProbe>> | undefined;

/**
 * Asks the browser about its WebGPU adapter and its WebGL2 renderer without opening a renderer
 * (once per page; later calls reuse the answer). Used by `backend: "auto"` and exported so hosts
 * can show it.
 */
export function probeAdapters(): Promise<Record<GpuBackend, AdapterProbe>> {
  probed ??= (async () => {
    const webgpu: AdapterProbe = { available: false, software: false, description: "" };
    try {
      type Info = { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean };
      const gpu = (globalThis.navigator as unknown as { gpu?: { requestAdapter(): Promise<{ info?: Info; isFallbackAdapter?: boolean } | null> } } | undefined)
        ?.gpu;
      const adapter = await gpu?.requestAdapter();
      if (adapter) {
        const info = adapter.info ?? {};
        webgpu.available = true;
        webgpu.description = [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(" ");
        webgpu.software = Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter) || SOFTWARE_NAMES.test(webgpu.description);
      }
    } catch {
      // No WebGPU: left unavailable.
    }
    const webgl2: AdapterProbe = { available: false, software: false, description: "" };
    try {
      const canvas = typeof OffscreenCanvas !== "undefined" ? new OffscreenCanvas(1, 1) : document.createElement("canvas");
      const gl = canvas.getContext("webgl2") as WebGL2RenderingContext | null;
      if (gl) {
        const debug = gl.getExtension("WEBGL_debug_renderer_info");
        webgl2.available = true;
        webgl2.description = String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
        webgl2.software = SOFTWARE_NAMES.test(webgl2.description);
        gl.getExtension("WEBGL_lose_context")?.loseContext();
      }
    } catch {
      // No WebGL2: left unavailable.
    }
    return { webgpu, webgl2 };
  })();
  return probed;
}

export interface EffectRenderer {
  /** The backend in use. */
  readonly backend: EffectBackend;
  /** Why: "requested", or the rule of `backend: "auto"` that chose it (docs/effects.md). */
  readonly backendReason: string;
  /** Whether the adapter in use is a software one (the GPU's work runs on the CPU). */
  readonly software: boolean;
  /** How sources reach the GPU. */
  readonly upload: EffectUpload;
  /** The canvas frames are shown on (undefined for a headless renderer). */
  readonly canvas: HTMLCanvasElement | OffscreenCanvas | undefined;
  /** The largest width or height this GPU (or the CPU path) accepts. */
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

/** Instantiates the effects wasm once (js/wasm-loader.ts; js/render.ts shares it). */
export const loadEffects: () => Promise<void> = wasmLoader(new URL("./wasm/neuralcut_effects_bg.wasm", import.meta.url), init);

/** The order "auto" tries the backends in, and why. */
function autoOrder(probe: Record<GpuBackend, AdapterProbe>): { order: EffectBackend[]; reason: string } {
  if (probe.webgpu.available && !probe.webgpu.software) return { order: ["webgpu", "webgl2"], reason: "hardware WebGPU adapter" };
  if (probe.webgl2.available && !probe.webgl2.software && !probe.webgpu.available) return { order: ["webgl2", "webgpu"], reason: "no WebGPU; hardware WebGL2" };
  if (probe.webgpu.software || probe.webgl2.software)
    return { order: [SOFTWARE_BACKEND], reason: `software adapter: ${SOFTWARE_BACKEND} measured fastest there` };
  return { order: ["webgpu", "webgl2"], reason: "WebGPU, else WebGL2" };
}

/** The wasm module's check of an effect list, its error given the family's code. */
function validate(effects: unknown): void {
  try {
    wasmValidate(effects);
  } catch (e) {
    throw asNeuralCutError(e, "INVALID_EFFECT_LIST");
  }
}

/** A region of a `w × h` frame, checked before any read: whole, non-empty and inside. */
function checkRegionInside(region: { x: number; y: number; width: number; height: number }, w: number, h: number): void {
  const { x, y, width, height } = region;
  if (width === 0 || height === 0) throw new NeuralCutError("INVALID_OPTIONS", `region ${width}x${height} is empty`);
  if (x + width > w || y + height > h) throw new NeuralCutError("INVALID_OPTIONS", `region ${width}x${height} at (${x}, ${y}) is outside the ${w}x${h} frame`);
}

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** A 2D canvas to read pixels from, reused while the size stays. */
function stager(): (width: number, height: number, willReadFrequently: boolean) => Context2D {
  let stage: Context2D | undefined;
  return (width, height, willReadFrequently) => {
    if (!stage || stage.canvas.width !== width || stage.canvas.height !== height) {
      const c = typeof document !== "undefined" ? document.createElement("canvas") : new OffscreenCanvas(width, height);
      c.width = width;
      c.height = height;
      const ctx = c.getContext("2d", { willReadFrequently }) as Context2D | null;
      if (!ctx) throw new NeuralCutError("NO_CANVAS", "no 2D context to stage the source with");
      // Replace, not blend: a transparent source must not show the previous frame.
      ctx.globalCompositeOperation = "copy";
      stage = ctx;
    }
    return stage;
  };
}

/**
 * The frame a `render` call asks for, checked the same way on every backend before anything is
 * queued or drawn: whole sides from 1 to the renderer's `maxSize`, and a source (when given) at
 * least that large.
 */
function checkFrame(source: EffectSource | null | undefined, width: number, height: number, maxSize: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height))
    throw new NeuralCutError("INVALID_OPTIONS", `width and height must be integers, got ${width}x${height}`);
  if (width < 1 || height < 1 || width > maxSize || height > maxSize)
    throw new NeuralCutError("INVALID_OPTIONS", `width and height must be between 1 and ${maxSize}, got ${width}x${height}`);
  if (source == null) return;
  const [sw, sh] = sizeOf(source);
  if (sw < width || sh < height) throw new NeuralCutError("SOURCE_TOO_SMALL", `source is ${sw}x${sh}, smaller than the requested ${width}x${height}`);
}

/** What every backend's `render` checks first: the frame and the effects, and that a call
 * without a source can draw the last frame again (`last`: its size, 0×0 before any). */
function checkRender({ source, width, height, effects }: RenderOptions, maxSize: number, last: readonly [number, number]): void {
  checkFrame(source, width, height, maxSize);
  validate(effects);
  if (source == null && (last[0] !== width || last[1] !== height))
    throw new NeuralCutError("INVALID_OPTIONS", `no source given and no earlier ${width}x${height} frame to reuse`);
}

function checkRegion(region: { x: number; y: number; width: number; height: number } | undefined): void {
  // Whole, non-negative numbers only: the wasm boundary would wrap -1 and truncate 0.5.
  if (region && ![region.x, region.y, region.width, region.height].every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff)) {
    throw new NeuralCutError("INVALID_OPTIONS", `readPixels region must be whole non-negative numbers, got ${JSON.stringify(region)}`);
  }
}

/** Sources `VideoFrame` takes (and copies out as RGBA without a 2D canvas). */
function frameable(source: EffectSource): boolean {
  if (typeof VideoFrame === "undefined") return false;
  return (
    source instanceof VideoFrame ||
    (typeof OffscreenCanvas !== "undefined" && source instanceof OffscreenCanvas) ||
    (typeof HTMLCanvasElement !== "undefined" && source instanceof HTMLCanvasElement) ||
    (typeof ImageBitmap !== "undefined" && source instanceof ImageBitmap)
  );
}

/**
 * The CPU path: the frame in wasm memory, the effects applied there by vectorised code
 * (src/effects/fast.rs), shown with `putImageData`. A source reaches the pixels by the fastest
 * route measured (docs/effects.md): ImageData is copied in as it is; a canvas, ImageBitmap or
 * VideoFrame is copied out as RGBA by `VideoFrame.copyTo` (asynchronous: the frame is applied
 * and shown when the copy is done, and `readPixels` waits for it); anything else is drawn on a
 * `willReadFrequently` 2D canvas and read with `getImageData`.
 */
function cpuRenderer(canvas: HTMLCanvasElement | OffscreenCanvas | undefined, backendReason: string, software: boolean): EffectRenderer {
  const inner = new CpuEffects();
  const stage = stager();
  let shown: Context2D | undefined;
  if (canvas) {
    shown = (canvas.getContext("2d") as Context2D | null) ?? undefined;
    if (!shown) throw new NeuralCutError("NO_CANVAS", "this canvas has no 2D context (it already holds a WebGL or WebGPU one)");
  }
  let destroyed = false;
  const alive = () => {
    if (destroyed) throw new NeuralCutError("RENDERER_DESTROYED", "this effect renderer was destroyed");
  };
  const maxSize = inner.maxSize;
  // Renders run in order; one whose source is copied asynchronously holds the later ones back.
  let pending: Promise<void> = Promise.resolve();
  // The size of the last frame asked for (the wasm side learns it when its copy lands).
  let size: [number, number] = [0, 0];
  const finish = (width: number, height: number, effects: EffectInput[]) => {
    inner.apply(effects);
    if (shown) {
      if (shown.canvas.width !== width || shown.canvas.height !== height) Object.assign(shown.canvas, { width, height });
      const out = inner.outputView();
      shown.putImageData(new ImageData(new Uint8ClampedArray(out.buffer as ArrayBuffer, out.byteOffset, out.length), width, height), 0, 0);
    }
  };
  const pixelsOf = (source: EffectSource, width: number, height: number): Uint8ClampedArray => {
    if (typeof ImageData !== "undefined" && source instanceof ImageData && source.width === width) return source.data;
    const ctx = stage(width, height, true);
    if (typeof ImageData !== "undefined" && source instanceof ImageData) ctx.putImageData(source, 0, 0);
    else ctx.drawImage(source as CanvasImageSource, 0, 0);
    return ctx.getImageData(0, 0, width, height).data;
  };
  return {
    backend: "cpu",
    backendReason,
    software,
    upload: "pixels",
    canvas,
    maxSize,
    render(options: RenderOptions) {
      alive();
      checkRender(options, maxSize, size);
      const { source, width, height, effects } = options;
      if (source == null) {
        pending = pending.catch(() => {}).then(() => finish(width, height, effects));
        return;
      }
      size = [width, height];
      // The canvas takes the frame's size at once, as on the GPU backends; the picture follows.
      if (shown && (shown.canvas.width !== width || shown.canvas.height !== height)) Object.assign(shown.canvas, { width, height });
      if (frameable(source)) {
        // Snapshot now, so the picture is the source as it is at this call.
        let frame: VideoFrame | undefined;
        try {
          frame = source instanceof VideoFrame ? source.clone() : new VideoFrame(source as OffscreenCanvas, { timestamp: 0, alpha: "keep" });
        } catch {
          frame = undefined;
        }
        if (frame) {
          const taken = frame;
          pending = pending
            .catch(() => {})
            .then(async () => {
              // Straight into wasm memory, with no copy through JS (4K: 33 MB). A view is emptied
              // when the memory grows (another renderer allocating while the copy is awaited):
              // then the copy is made again into a fresh view.
              let copied = false;
              try {
                for (let tries = 0; tries < 2 && !copied; tries++) {
                  const view = inner.sourceView(width, height);
                  await taken.copyTo(view, { format: "RGBA", rect: { x: 0, y: 0, width, height } });
                  copied = view.byteLength > 0;
                }
              } catch {
                // A browser without RGBA conversion: the 2D canvas route.
              } finally {
                taken.close();
              }
              alive();
              if (!copied) inner.sourceView(width, height).set(pixelsOf(source, width, height));
              finish(width, height, effects);
            });
          return;
        }
      }
      const data = pixelsOf(source, width, height);
      pending = pending
        .catch(() => {})
        .then(() => {
          const view = inner.sourceView(width, height);
          view.set(data.length === view.length ? data : data.subarray(0, view.length));
          finish(width, height, effects);
        });
    },
    async readPixels(region?: { x: number; y: number; width: number; height: number }) {
      alive();
      checkRegion(region);
      await pending;
      alive();
      const [w, h] = inner.size();
      if (w === 0) throw new NeuralCutError("NOTHING_RENDERED", "nothing rendered yet");
      const out = inner.outputView();
      if (!region) return new Uint8ClampedArray(out);
      checkRegionInside(region, w, h);
      const { x, y, width, height } = region;
      const copy = new Uint8ClampedArray(width * height * 4);
      for (let row = 0; row < height; row++) copy.set(out.subarray(((y + row) * w + x) * 4, ((y + row) * w + x + width) * 4), row * width * 4);
      return copy;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      void pending.catch(() => {}).then(() => inner.free());
    },
  };
}

let shared: CpuEffects | undefined;

/**
 * Applies `effects` to the pixels of a 2D context in place, on the CPU path (`getImageData`,
 * the effects in wasm, `putImageData`): what the Canvas2D frame compositor does for a layer's
 * effects. One buffer is shared by every call in the page or worker.
 */
export async function applyEffectsToContext(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, effects: EffectInput[]): Promise<void> {
  await loadEffects();
  validate(effects);
  const { width, height } = ctx.canvas;
  if (width === 0 || height === 0) return;
  shared ??= new CpuEffects();
  shared.sourceView(width, height).set(ctx.getImageData(0, 0, width, height).data);
  shared.apply(effects);
  const out = shared.outputView();
  ctx.putImageData(new ImageData(new Uint8ClampedArray(out.buffer as ArrayBuffer, out.byteOffset, out.length), width, height), 0, 0);
}

/**
 * Creates an effects renderer: on the GPU, or on the CPU path ("cpu", which "auto" takes on a
 * software adapter and where no GPU opens). Rejects when a requested GPU backend is unavailable.
 */
export async function createEffectRenderer(options: CreateEffectRendererOptions = {}): Promise<EffectRenderer> {
  await loadEffects();
  const canvas = options.canvas;
  const requested = options.backend ?? "auto";
  if (requested !== "auto" && requested !== "webgpu" && requested !== "webgl2" && requested !== "cpu") {
    throw new NeuralCutError("INVALID_OPTIONS", `backend must be "auto", "webgpu", "webgl2" or "cpu", got ${JSON.stringify(requested)}`);
  }
  const uploadOption = options.upload ?? "auto";
  if (uploadOption !== "auto" && uploadOption !== "copy" && uploadOption !== "pixels")
    throw new NeuralCutError("INVALID_OPTIONS", `upload must be "auto", "copy" or "pixels", got ${JSON.stringify(uploadOption)}`);
  const probe = await probeAdapters();
  const anySoftware = probe.webgpu.software || probe.webgl2.software;
  if (requested === "cpu") return cpuRenderer(canvas, "requested", anySoftware);
  let inner: WasmEffectRenderer;
  let backendReason = "requested";
  if (requested === "auto") {
    const { order, reason } = autoOrder(probe);
    if (order[0] === "cpu") return cpuRenderer(canvas, reason, true);
    try {
      inner = await openGpu(canvas ?? null, order[0] as GpuBackend);
      backendReason = reason;
    } catch (first) {
      if (first instanceof NeuralCutError && first.code === "INVALID_OPTIONS") throw first;
      try {
        inner = await openGpu(canvas ?? null, order[1] as GpuBackend);
        backendReason = `${order[0]} failed to open`;
      } catch (second) {
        // No GPU opens: the CPU path still renders every effect.
        const why = `${first instanceof Error ? first.message : first}; ${second instanceof Error ? second.message : second}`;
        return cpuRenderer(canvas, `no GPU opened (${why})`, anySoftware);
      }
    }
  } else inner = await openGpu(canvas ?? null, requested);
  const backend = inner.backend as GpuBackend;
  const software = probe[backend].software;
  const upload: EffectUpload = uploadOption === "auto" ? (software ? "pixels" : "copy") : uploadOption;
  const maxSize = inner.maxSize;
  const stageOf = stager();
  // Sources the GPU copy cannot take on every browser go through a 2D canvas first: video
  // (SwiftShader's WebGPU refuses VideoFrame and video copies) and, on WebGL2, OffscreenCanvas
  // (wgpu's WebGL2 path copies only from the other kinds). With pixel uploads every source but
  // ImageData is drawn to a CPU-side 2D canvas and read back as ImageData.
  const staged = (source: EffectSource, width: number, height: number): EffectSource => {
    if (typeof ImageData !== "undefined" && source instanceof ImageData) return source;
    const isFrame = typeof VideoFrame !== "undefined" && source instanceof VideoFrame;
    const isVideo = typeof HTMLVideoElement !== "undefined" && source instanceof HTMLVideoElement;
    const isOffscreen = backend === "webgl2" && typeof OffscreenCanvas !== "undefined" && source instanceof OffscreenCanvas;
    if (upload === "copy" && !isFrame && !isVideo && !isOffscreen) return source;
    // In a worker on WebGL2 there is no HTMLCanvasElement: hand over the pixels.
    const pixels = upload === "pixels" || (backend === "webgl2" && typeof document === "undefined");
    const ctx = stageOf(width, height, pixels);
    ctx.drawImage(source as CanvasImageSource, 0, 0);
    if (pixels) return ctx.getImageData(0, 0, width, height);
    return ctx.canvas as HTMLCanvasElement | OffscreenCanvas;
  };
  let destroyed = false;
  // The last frame's size (0 until one is rendered), for readPixels' region check.
  let frame: [number, number] = [0, 0];
  const alive = () => {
    if (destroyed) throw new NeuralCutError("RENDERER_DESTROYED", "this effect renderer was destroyed");
  };
  return {
    backend,
    backendReason,
    software,
    upload,
    canvas,
    maxSize,
    render(options: RenderOptions) {
      alive();
      checkRender(options, maxSize, frame);
      const { source, width, height, effects } = options;
      try {
        inner.render(source == null ? null : staged(source, width, height), width, height, effects);
      } catch (e) {
        // The options were checked above: what is left is the GPU failing (or a source it cannot take).
        throw asNeuralCutError(e, "RENDER_FAILED");
      }
      frame = [width, height];
    },
    async readPixels(region?: { x: number; y: number; width: number; height: number }) {
      alive();
      checkRegion(region);
      if (frame[0] === 0) throw new NeuralCutError("NOTHING_RENDERED", "nothing rendered yet");
      if (region) checkRegionInside(region, frame[0], frame[1]);
      try {
        return (await (region ? inner.readPixels(region.x, region.y, region.width, region.height) : inner.readPixels(0, 0))) as Uint8ClampedArray;
      } catch (e) {
        throw asNeuralCutError(e, "RENDER_FAILED");
      }
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      inner.free();
    },
  };
}

/** Throws the NeuralCutError (`INVALID_EFFECT_LIST`) `render` would throw for these effects, if any. */
export async function validateEffects(effects: EffectInput[]): Promise<void> {
  await loadEffects();
  validate(effects);
}

/**
 * The CPU reference implementation: RGBA8 `pixels` of `width × height` with `effects` applied in
 * order. Exactly the math the shaders follow (docs/effects.md); slow, for tests. Hosts without a
 * GPU render with `createEffectRenderer({ backend: "cpu" })`, the fast CPU path.
 */
export async function applyEffectsCpu(
  pixels: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  effects: EffectInput[],
): Promise<Uint8ClampedArray> {
  await loadEffects();
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 0 ||
    height < 0 ||
    !(pixels instanceof Uint8Array || pixels instanceof Uint8ClampedArray) ||
    pixels.length !== width * height * 4
  ) {
    throw new NeuralCutError(
      "INVALID_OPTIONS",
      `pixels must be ${width}x${height}x4 RGBA bytes with whole sides, got ${(pixels as { length?: unknown } | null)?.length} bytes`,
    );
  }
  validate(effects);
  const bytes = pixels instanceof Uint8Array ? pixels : new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  return new Uint8ClampedArray(cpu(bytes, width, height, effects).buffer);
}
