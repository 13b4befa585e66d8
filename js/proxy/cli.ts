#!/usr/bin/env node
// `npm run proxy`: the Gemini proxy as a standalone server on 127.0.0.1.
//
//   GEMINI_API_KEY            required
//   NEURALCUT_PROXY_ORIGINS   comma-separated allowed origins (default: the demo's http://localhost:5173,http://127.0.0.1:5173)
//   NEURALCUT_PROXY_MODELS    comma-separated model allowlist (default: DEFAULT_MODELS, flash-class)
//   NEURALCUT_PROXY_PORT      port (default 8787)
//   NEURALCUT_PROXY_BASE_PATH mount prefix (default none)
//   NEURALCUT_PROXY_SECRET    handle-sealing secret, at least 32 bytes (default: random per start)
//   NEURALCUT_PROXY_TOKEN     the bearer token clients must send, at least 32 characters
//                             (default: a random one per start, printed)
//   NEURALCUT_PROXY_TRUSTED_HOPS reverse proxies in front that append X-Forwarded-For (default 0)
//   NEURALCUT_PROXY_UPSTREAM  Gemini base URL (default Google's; for a local fake)

import { createTokenAuthorizer } from "./auth.js";
import { DEFAULT_MODELS } from "./config.js";
import { serveGeminiProxy } from "./node.js";

interface NodeProcess {
  env: Record<string, string | undefined>;
  exit(code: number): never;
  on(signal: string, cb: () => void): unknown;
}
const process = (globalThis as unknown as { process: NodeProcess }).process;

const DEFAULT_ORIGINS = ["http://localhost:5173", "http://127.0.0.1:5173"];

function list(value: string | undefined, fallback: readonly string[]): string[] {
  const items = (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : [...fallback];
}

async function main(): Promise<void> {
  const env = process.env;
  const apiKey = env.GEMINI_API_KEY ?? "";
  if (!apiKey.trim()) {
    console.error("neuralcut proxy: set GEMINI_API_KEY (the key stays on this server).");
    process.exit(1);
  }
  const port = Number(env.NEURALCUT_PROXY_PORT ?? 8787);
  const given = env.NEURALCUT_PROXY_TOKEN?.trim();
  const token = given || randomToken();
  const hops = Number(env.NEURALCUT_PROXY_TRUSTED_HOPS ?? 0);
  const running = await serveGeminiProxy({
    apiKey,
    authorize: createTokenAuthorizer(token, { user: "operator" }),
    trustedProxyHops: Number.isInteger(hops) && hops >= 0 ? hops : 0,
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
  // The token admits whoever holds it to the key's budget: printed only when made here.
  if (given) console.log("clients authorize with the token in NEURALCUT_PROXY_TOKEN (Authorization: Bearer ...)");
  else console.log(`clients send: Authorization: Bearer ${token}   (new on every start; set NEURALCUT_PROXY_TOKEN to keep one)`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

main().catch((e) => {
  console.error(`neuralcut proxy: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
