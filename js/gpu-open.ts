// Opening a GPU backend of the effects wasm by name, for the effect and the frame renderers: a
// canvas of the wrong kind is INVALID_OPTIONS, a backend that does not open is NO_GPU (the wasm
// module's own errors carry no code).
import { NeuralCutError } from "./errors.js";
import { createRenderer, type WasmEffectRenderer } from "./wasm/neuralcut_effects.js";

/** Opens `backend` ("webgpu" or "webgl2") on `canvas` (null: headless). */
export async function openGpu(canvas: HTMLCanvasElement | OffscreenCanvas | null, backend: "webgpu" | "webgl2"): Promise<WasmEffectRenderer> {
  const isCanvas =
    (typeof HTMLCanvasElement !== "undefined" && canvas instanceof HTMLCanvasElement) ||
    (typeof OffscreenCanvas !== "undefined" && canvas instanceof OffscreenCanvas);
  if (canvas !== null && !isCanvas) throw new NeuralCutError("INVALID_OPTIONS", "canvas must be an HTMLCanvasElement or an OffscreenCanvas");
  try {
    return await createRenderer(canvas, backend);
  } catch (e) {
    throw new NeuralCutError("NO_GPU", `the ${backend} backend could not be opened: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
