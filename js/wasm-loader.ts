// The one loader for the package's wasm modules (the engine in js/engine.ts, the GPU effects in
// js/effects.ts, which js/render.ts shares), in every environment the package supports:
// - Node (and other runtimes with file: module URLs): the bytes are read with node:fs;
// - browsers, with or without a bundler: the URL is fetched. Bundlers such as Vite see each
//   caller's literal `new URL("./wasm/…_bg.wasm", import.meta.url)` and ship the .wasm as an
//   asset, which is why the URL is written by the caller, not here.

/** A wasm-bindgen module's default export: instantiates it from bytes or a URL. */
type Init = (input: { module_or_path: URL | Uint8Array }) => Promise<unknown>;

/** Reads a file: URL with node:fs (hidden from bundlers, which never take this path). */
export async function readFileUrl(url: URL): Promise<Uint8Array> {
  const fsModule = "node:fs/promises";
  const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
  return fs.readFile(url);
}

/** A function that instantiates the module at `url` once; later calls share the first load,
 * and a failed load (a network error, say) is tried again by the next call. */
export function wasmLoader(url: URL, init: Init): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () => {
    ready ??= (async () => {
      await init({ module_or_path: url.protocol === "file:" ? await readFileUrl(url) : url });
    })();
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };
}
