// The media meters' wasm module (`neuralcut_media`, src/media_wasm/): loaded by detect_silences
// and detect_scenes on their first call, so the engine module does not carry them.
import init, { SceneMeter, SilenceMeter } from "./wasm/neuralcut_media.js";
import { wasmLoader } from "./wasm-loader.js";

export const loadMediaMeters: () => Promise<void> = wasmLoader(new URL("./wasm/neuralcut_media_bg.wasm", import.meta.url), init);

/** The meters, once their module is loaded. */
export async function mediaMeters(): Promise<{ SilenceMeter: typeof SilenceMeter; SceneMeter: typeof SceneMeter }> {
  await loadMediaMeters();
  return { SilenceMeter, SceneMeter };
}
