#!/usr/bin/env node
// `npm run proxy`: the Gemini proxy as a standalone server on 127.0.0.1.
//
//   GEMINI_API_KEY            required
//   NEURALCUT_PROXY_ORIGINS   comma-separated allowed origins (default: the demo's http://localhost:5173,http://127.0.0.1:5173)
//   NEURALCUT_PROXY_MODELS    comma-separated model allowlist (default below)
//   NEURALCUT_PROXY_PORT      port (default 8787)
//   NEURALCUT_PROXY_BASE_PATH mount prefix (default none)
//   NEURALCUT_PROXY_SECRET    handle-sealing secret (default: random per start)
//   NEURALCUT_PROXY_UPSTREAM  Gemini base URL (default Google's; for a local fake)

import { serveGeminiProxy } from "./node.js";

interface NodeProcess {
  env: Record<string, string | undefined>;
  exit(code: number): never;
  on(signal: string, cb: () => void): unknown;
}
const process = (globalThis as unknown as { process: NodeProcess }).process;

export const DEFAULT_MODELS = ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-3-flash-preview", "gemini-3-pro-preview"];
const DEFAULT_ORIGINS = ["http://localhost:5173", "http://127.0.0.1:5173"];

function list(value: string | undefined, fallback: string[]): string[] {
  const items = (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return items.length ? items : fallback;
}

async function main(): Promise<void> {
  const env = process.env;
  const apiKey = env.GEMINI_API_KEY ?? "";
  if (!apiKey.trim()) {
    console.error("neuralcut proxy: set GEMINI_API_KEY (the key stays on this server).");
    process.exit(1);
  }
  const port = Number(env.NEURALCUT_PROXY_PORT ?? 8787);
  const running = await serveGeminiProxy({
    apiKey,
    allowedOrigins: list(env.NEURALCUT_PROXY_ORIGINS, DEFAULT_ORIGINS),
    models: list(env.NEURALCUT_PROXY_MODELS, DEFAULT_MODELS),
    basePath: env.NEURALCUT_PROXY_BASE_PATH || undefined,
    handleSecret: env.NEURALCUT_PROXY_SECRET || undefined,
    upstream: env.NEURALCUT_PROXY_UPSTREAM || undefined,
    host: "127.0.0.1",
    port: Number.isInteger(port) && port >= 0 ? port : 8787,
    log: (line) => console.log(line),
  });
  console.log(`NeuralCut Gemini proxy listening on ${running.url}`);
  console.log(`allowed origins: ${list(env.NEURALCUT_PROXY_ORIGINS, DEFAULT_ORIGINS).join(", ")}`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((e) => {
  console.error(`neuralcut proxy: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
