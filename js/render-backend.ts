// Which compositor draws a renderer's frames: the one requested, or for "auto" the GPU (WebGPU,
// else WebGL2) when the browser has a hardware adapter and Canvas2D where it has only software ones
// or none (docs/render.md "Backends").
import { NeuralCutError } from "./errors.js";
import init, { type LayerDraw as GeneratedLayerDraw } from "./wasm/neuralcut_effects.js";
import { openGpu } from "./gpu-open.js";
import { loadEffects, probeAdapters, type EffectBackend, type EffectInput, type EffectSource } from "./effects.js";
import type { BlendMode, FramePlacement } from "./generated/tools.js";
import { Canvas2DCompositor } from "./render-canvas2d.js";
import type { CreateFrameRendererOptions } from "./render.js";

void init; // instantiated by loadEffects

/**
 * One layer for `drawLayer`: its picture (null or absent: the one its slot kept), its slot, its
 * quad in target pixels (a frame placement's fields) and its look. The GPU compositor's own type
 * is the `LayerDraw` tsify generates from src/gpu/web/frames.rs into the effects module's .d.ts;
 * this one says the same in the package's public types (which keep the wasm-bindgen .d.ts out,
 * as it needs a newer `lib`), and `sameAsGenerated` below fails to compile if the two differ.
 */
export interface LayerDraw extends FramePlacement {
  source?: EffectSource | null;
  slot: number;
  opacity: number;
  blendMode: BlendMode | (string & {});
  effects?: EffectInput[];
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsGenerated: Same<LayerDraw, GeneratedLayerDraw> & Same<keyof LayerDraw, keyof GeneratedLayerDraw> = true;
void sameAsGenerated;

/**
 * What the frame loop drives: the effects module's GPU compositor (its wasm-bindgen class, typed
 * by the .d.ts wasm-bindgen and tsify generate from src/gpu/web/frames.rs) or the Canvas2D one.
 */
export interface Compositor {
  readonly backend: string;
  readonly maxSize: number;
  /** True when drawLayer keeps the picture it is given for reuse (the caller must not close it). */
  readonly keepsSources?: boolean;
  beginFrame(width: number, height: number, r: number, g: number, b: number, a: number): void;
  /** Draws one layer: a picture (or, with a null source, the one its slot kept) as a placed quad. */
  drawLayer(layer: LayerDraw): void | Promise<void>;
  /** A frame-wide effect pass over everything drawn so far (an effect element). */
  applyEffects(effects: NonNullable<LayerDraw["effects"]>): void | Promise<void>;
  endFrame(): void;
  /** RGBA rows of the last frame (or of a region of it). */
  readPixels(x: number, y: number, width?: number, height?: number): Promise<Uint8ClampedArray>;
  /** The frame as a VideoFrame straight from the compositor's canvas, where it has one to give. */
  videoFrame?(init: VideoFrameInit): VideoFrame;
  free(): void;
}

export interface ChosenCompositor {
  inner: Compositor;
  /** Why this backend: "requested", or the rule of "auto" that chose it. */
  backendReason: string;
  /** The canvas's 2D context where frames are put on it from their read-back (a SwiftShader GPU), else null. */
  shown2d: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
}

/** Loads the effects module and opens the compositor `options.backend` asks for. */
export async function chooseCompositor(options: Pick<CreateFrameRendererOptions, "backend" | "canvas">): Promise<ChosenCompositor> {
  const { canvas } = options;
  await loadEffects();
  const requested = options.backend ?? "auto";
  if (!["auto", "webgpu", "webgl2", "canvas2d"].includes(requested))
    throw new NeuralCutError("INVALID_OPTIONS", `backend must be "auto", "webgpu", "webgl2" or "canvas2d", got ${JSON.stringify(requested)}`);
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
    const webgpu = (globalThis.navigator as unknown as { gpu?: { requestAdapter(): Promise<{ info?: { architecture?: string; vendor?: string } } | null> } })
      .gpu;
    const adapter = await webgpu?.requestAdapter().catch(() => null);
    software = /swiftshader/i.test(`${adapter?.info?.architecture ?? ""} ${adapter?.info?.vendor ?? ""}`);
  }
  const inner: Compositor = useCanvas2d ? new Canvas2DCompositor(canvas) : await openGpu(software ? null : (canvas ?? null), gpu as "webgpu" | "webgl2");
  const shown2d = software && canvas ? (canvas.getContext("2d") as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null) : null;
  return { inner, backendReason, shown2d };
}
