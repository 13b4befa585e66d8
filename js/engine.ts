// Loads the engine wasm once, in every environment the package supports:
// - Node (and other runtimes with file: module URLs): the bytes are read with node:fs;
// - browsers, with or without a bundler: the file next to this module is fetched. Bundlers such
//   as Vite see `new URL("...", import.meta.url)` and ship the .wasm as an asset.
import init, { WasmEditor } from "./wasm/neuralcut_engine.js";

export { WasmEditor };

let ready: Promise<void> | undefined;

/** Reads a file: URL with node:fs (hidden from bundlers, which never take this path). */
export async function readFileUrl(url: URL): Promise<Uint8Array> {
  const fsModule = "node:fs/promises";
  const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
  return fs.readFile(url);
}

/** Resolves once the engine wasm is instantiated; later calls share the first load. */
export function loadEngine(): Promise<void> {
  ready ??= (async () => {
    const url = new URL("./wasm/neuralcut_engine_bg.wasm", import.meta.url);
    const module_or_path = url.protocol === "file:" ? await readFileUrl(url) : url;
    await init({ module_or_path });
  })();
  ready.catch(() => {
    ready = undefined; // let a later createEditor retry, e.g. after a network error
  });
  return ready;
}
