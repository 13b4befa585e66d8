// The media meters' wasm module (`neuralcut_media`, src/media_wasm/): loaded by detect_silences
// and detect_scenes on their first call, so the engine module does not carry them.
import init, { SceneMeter, SilenceMeter } from "./wasm/neuralcut_media.js";
import { wasmLoader } from "./wasm-loader.js";

/** The module's memory, where SceneMeter.frameBuffer points. */
let memory: WebAssembly.Memory | undefined;

export const loadMediaMeters: () => Promise<void> = wasmLoader(new URL("./wasm/neuralcut_media_bg.wasm", import.meta.url), async (input) => {
  memory = ((await init(input)) as { memory: WebAssembly.Memory }).memory;
});

/** The meters, once their module is loaded, and a view of `size` bytes of its memory at `at`
 * (made anew for each frame: the memory's buffer changes when it grows). */
export async function mediaMeters(): Promise<{
  SilenceMeter: typeof SilenceMeter;
  SceneMeter: typeof SceneMeter;
  view(at: number, size: number): Uint8Array;
}> {
  await loadMediaMeters();
  return { SilenceMeter, SceneMeter, view: (at, size) => new Uint8Array(memory!.buffer, at, size) };
}
