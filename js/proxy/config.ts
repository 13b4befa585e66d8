// The proxy's configuration: the options a host passes, their defaults, and the check that turns
// them into a ProxyConfig or throws at start. A misconfigured proxy fails when it is created,
// never per request.

import { NeuralCutError } from "../errors.js";
import type { BudgetStore } from "./store.js";

/** What a request may hold and how long its parts may take. Every field has a default (shown). */
export interface ProxyLimits {
  /** Largest `/generate` request body, in bytes. 2 MiB. */
  maxBodyBytes?: number;
  /** Most `contents` entries (turns) in one request. 128. */
  maxTurns?: number;
  /** Most parts in one turn. 256 (a model turn of 150 parallel calls and its responses fit). */
  maxPartsPerTurn?: number;
  /** Most parts in one request, all turns together. 2048. */
  maxPartsPerRequest?: number;
  /** Most function declarations in one request. 128. */
  maxFunctionDeclarations?: number;
  /** Most `fileData` parts in one request; each must name a different file. 4. */
  maxFilesPerRequest?: number;
  /** Largest inline image (the agent's render_preview frame), decoded bytes; one per request,
   * PNG, JPEG or WebP, in a user turn. 768 KiB (its base64 fits the 2 MiB body with room). */
  maxInlineImageBytes?: number;
  /** `generationConfig.maxOutputTokens` is clamped to this, and set to it when absent. 16 384. */
  maxOutputTokens?: number;
  /** `thinkingConfig.thinkingBudget` is clamped to this (dynamic, -1, becomes this). 8192. */
  maxThinkingTokens?: number;
  /** Input tokens one call may be reserved for: the models' input window. A call reserves
   * min(this, its text bytes + 8192 per inline image + this per file) plus maxOutputTokens and
   * maxThinkingTokens before it goes upstream. 1 048 576. */
  maxInputTokens?: number;
  /** `generationConfig.mediaResolution` is lowered to this, and set to it when absent. MEDIUM. */
  maxMediaResolution?: MediaResolution;
  /** Highest `videoMetadata.fps` passed; higher ones are lowered. 1 (Gemini's default). */
  maxVideoFps?: number;
  /** Largest asset accepted by `/upload`, in bytes. 512 MiB. */
  maxUploadBytes?: number;
  /** Timeout of a `generateContent`, `files.get` or `files.delete` call, in milliseconds. 120 000. */
  upstreamTimeoutMs?: number;
  /** A non-upload request body (generate, status, delete) must arrive whole within this, in ms. 30 000. */
  bodyTimeoutMs?: number;
  /** An upload whose client sends nothing for this long is cut (408). 30 000. */
  uploadIdleTimeoutMs?: number;
  /** An upload must bring at least this many bytes a second over each uploadRateWindowMs, or is
   * cut (408): a trickle cannot hold a slot. 32 768. */
  uploadMinBytesPerSecond?: number;
  /** The window the upload rate is measured over, in ms (time spent waiting on Gemini not counted). 30 000. */
  uploadRateWindowMs?: number;
  /** Timeout of sending one chunk to Gemini, in milliseconds. 300 000. */
  uploadChunkTimeoutMs?: number;
  /** Bytes per upload chunk, rounded up to Google's chunk granularity. 8 MiB. */
  uploadChunkBytes?: number;
}

export type MediaResolution = "MEDIA_RESOLUTION_LOW" | "MEDIA_RESOLUTION_MEDIUM" | "MEDIA_RESOLUTION_HIGH";
export const MEDIA_RESOLUTIONS: readonly MediaResolution[] = ["MEDIA_RESOLUTION_LOW", "MEDIA_RESOLUTION_MEDIUM", "MEDIA_RESOLUTION_HIGH"];

/** How much each user, and everyone together, may spend. Every field has a default (shown). */
export interface ProxyBudgets {
  /** Requests one user may make per minute. 60. */
  requestsPerMinute?: number;
  /** Uploads one user may start per minute. 10. */
  uploadsPerMinute?: number;
  /** Tokens one user may spend per day (Gemini's `usageMetadata.totalTokenCount`). 2 000 000. */
  tokensPerDay?: number;
  /** Bytes one user may upload per day. 4 GiB. */
  uploadBytesPerDay?: number;
  /** Uploads one user may run at once. 2. */
  concurrentUploads?: number;
  /** Bytes one user may keep in Gemini's file storage (files live 48 hours or until deleted). 2 GiB. */
  storedBytes?: number;
  /** Admitted requests of all users together per minute. 1000. */
  globalRequestsPerMinute?: number;
  /** Tokens of all users together per day. 100 000 000. */
  globalTokensPerDay?: number;
  /** Uploads running at once, all users together (each holds up to one chunk in memory). 16. */
  globalConcurrentUploads?: number;
  /** Bytes all users together may keep in Gemini's file storage (the project holds 20 GB). 16 GiB. */
  globalStoredBytes?: number;
}

/** What a host knows about a request beyond the Request itself. */
export interface ProxyRequestInfo {
  /** The address of the peer that connected (the socket's remote address). */
  clientAddress?: string;
}

/**
 * Says who is asking: a user id (any non-empty string; budgets and file handles key on it), or
 * null/undefined to refuse the request with 401.
 */
export type Authorize = (request: Request, info: ProxyRequestInfo) => string | null | undefined | Promise<string | null | undefined>;

export interface GeminiProxyOptions {
  /** The Gemini API key. Sent upstream in the `x-goog-api-key` header, never in a URL. */
  apiKey: string;
  /**
   * Who may spend the key. Required unless `public` is true: returns the user's id, or null to
   * refuse (401). See `createTokenAuthorizer` for a bearer token or cookie.
   */
  authorize?: Authorize;
  /**
   * Serve anyone who can reach the proxy, each client address as one user. The key then pays for
   * whatever anyone sends within the budgets (docs/proxy.md says what that costs).
   */
  public?: boolean;
  /** Exact origins (`https://editor.example.com`) whose pages may call the proxy. No `*`. */
  allowedOrigins: string[];
  /** Model names a client may ask for. Flash-class models by default (`DEFAULT_MODELS`). */
  models?: string[];
  limits?: ProxyLimits;
  budgets?: ProxyBudgets;
  /** Where budget counters live. In this process's memory by default; `createRedisStore` shares them. */
  store?: BudgetStore;
  /**
   * Reverse proxies in front of this one that append to `X-Forwarded-For`. 0 by default: the
   * client address is the connecting peer's. Used for public mode's user and the log.
   */
  trustedProxyHops?: number;
  /** Gemini API base URL. `https://generativelanguage.googleapis.com`; tests point it at a fake. */
  upstream?: string;
  /** URL prefix the proxy is mounted at, such as `/api/gemini`. Empty by default. */
  basePath?: string;
  /**
   * At least 32 bytes of key material for sealing file handles (e.g. `openssl rand -hex 32`). Without
   * it a random key is made per process (with a warning), so handles stop working on restart; set
   * it where several instances serve the same users.
   */
  handleSecret?: string | Uint8Array;
  /** One line per request (method, endpoint, status, ms, request id) and upstream failures' detail. Never a key or URL. */
  log?: (line: string) => void;
  /** The fetch used for upstream calls. `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** Flash-class models only: the pro models cost several times as much per token. */
export const DEFAULT_MODELS: readonly string[] = ["gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-3-flash-preview"];

export const DEFAULT_UPSTREAM = "https://generativelanguage.googleapis.com";

export const DEFAULT_LIMITS: Readonly<Required<ProxyLimits>> = Object.freeze({
  maxBodyBytes: 2 * 1024 * 1024,
  maxTurns: 128,
  maxPartsPerTurn: 256,
  maxPartsPerRequest: 2048,
  maxFunctionDeclarations: 128,
  maxFilesPerRequest: 4,
  maxInlineImageBytes: 768 * 1024,
  maxOutputTokens: 16_384,
  maxThinkingTokens: 8192,
  maxInputTokens: 1_048_576,
  maxMediaResolution: "MEDIA_RESOLUTION_MEDIUM",
  maxVideoFps: 1,
  maxUploadBytes: 512 * 1024 * 1024,
  upstreamTimeoutMs: 120_000,
  bodyTimeoutMs: 30_000,
  uploadIdleTimeoutMs: 30_000,
  uploadMinBytesPerSecond: 32 * 1024,
  uploadRateWindowMs: 30_000,
  uploadChunkTimeoutMs: 300_000,
  uploadChunkBytes: 8 * 1024 * 1024,
});

export const DEFAULT_BUDGETS: Readonly<Required<ProxyBudgets>> = Object.freeze({
  requestsPerMinute: 60,
  uploadsPerMinute: 10,
  tokensPerDay: 2_000_000,
  uploadBytesPerDay: 4 * 1024 ** 3,
  concurrentUploads: 2,
  storedBytes: 2 * 1024 ** 3,
  globalRequestsPerMinute: 1000,
  globalTokensPerDay: 100_000_000,
  globalConcurrentUploads: 16,
  globalStoredBytes: 16 * 1024 ** 3,
});

/** The resolved configuration the other modules read. */
export interface ProxyConfig {
  apiKey: string;
  authorize: Authorize | null;
  origins: Set<string>;
  models: Set<string>;
  limits: Required<ProxyLimits>;
  budgets: Required<ProxyBudgets>;
  trustedProxyHops: number;
  upstream: URL;
  /** Origin plus path of the upstream, without a trailing slash. */
  upstreamBase: string;
  basePath: string;
  /** Per-request lines; null when the host wants none. */
  log: ((line: string) => void) | null;
  /** Problems an operator must see (upstream failures, a missing secret): `log`, else the console. */
  warn: (line: string) => void;
  fetch: typeof fetch;
}

const MODEL_NAME = /^[a-z0-9][a-z0-9.-]{0,127}$/;

function fail(message: string): never {
  throw new NeuralCutError("INVALID_OPTIONS", `createGeminiProxy: ${message}`);
}

function positive(table: object, given: object | undefined, what: string, strings: Record<string, readonly string[]> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...table };
  for (const [k, v] of Object.entries(given ?? {})) {
    if (!(k in table)) fail(`unknown ${what} '${k}'`);
    if (v === undefined) continue;
    if (k in strings) {
      if (!strings[k].includes(v as string)) fail(`${what} '${k}' must be one of ${strings[k].join(", ")}`);
    } else if (typeof v !== "number" || !(v > 0) || Number.isNaN(v)) {
      fail(`${what} '${k}' must be a positive number`);
    }
    out[k] = v;
  }
  return out;
}

/** Checks the options; throws a TypeError naming the first problem. */
export function resolveConfig(options: GeminiProxyOptions): ProxyConfig {
  if (!options || typeof options !== "object") fail("options are required");
  const { apiKey } = options;
  if (typeof apiKey !== "string" || apiKey.trim() === "") fail("apiKey is required");
  if (options.authorize !== undefined && typeof options.authorize !== "function") fail("authorize must be a function");
  if (options.authorize && options.public) fail("give authorize or public: true, not both");
  if (!options.authorize && options.public !== true) {
    fail("authorize is required: pass authorize(request) returning the user's id, or public: true for an open proxy (docs/proxy.md says what that costs)");
  }
  const origins = new Set<string>();
  for (const o of options.allowedOrigins ?? []) {
    if (typeof o !== "string" || o.includes("*")) fail("allowedOrigins holds exact origins, never '*'");
    let parsed: URL;
    try {
      parsed = new URL(o);
    } catch {
      fail(`'${o}' is not an origin`);
    }
    if (parsed.origin !== o.replace(/\/$/, "")) fail(`'${o}' is not an origin (scheme://host[:port])`);
    origins.add(parsed.origin);
  }
  if (origins.size === 0) fail("allowedOrigins must list at least one origin");
  const models = new Set<string>();
  for (const m of options.models ?? DEFAULT_MODELS) {
    const name = typeof m === "string" ? m.replace(/^models\//, "") : "";
    if (!MODEL_NAME.test(name)) fail(`'${String(m)}' is not a model name`);
    models.add(name);
  }
  if (models.size === 0) fail("models must list at least one model");
  const limits = positive(DEFAULT_LIMITS, options.limits, "limit", { maxMediaResolution: MEDIA_RESOLUTIONS }) as Required<ProxyLimits>;
  const budgets = positive(DEFAULT_BUDGETS, options.budgets, "budget") as Required<ProxyBudgets>;
  const hops = options.trustedProxyHops ?? 0;
  if (!Number.isInteger(hops) || hops < 0 || hops > 16) fail("trustedProxyHops must be a whole number from 0 to 16");
  let upstream: URL;
  try {
    upstream = new URL(options.upstream ?? DEFAULT_UPSTREAM);
  } catch {
    fail("upstream must be an http(s) URL");
  }
  if (upstream.protocol !== "https:" && upstream.protocol !== "http:") fail("upstream must be an http(s) URL");
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  if (basePath && !basePath.startsWith("/")) fail("basePath must start with '/'");
  const log = typeof options.log === "function" ? options.log : null;
  return {
    apiKey,
    authorize: options.authorize ?? null,
    origins,
    models,
    limits,
    budgets,
    trustedProxyHops: hops,
    upstream,
    upstreamBase: upstream.origin + upstream.pathname.replace(/\/+$/, ""),
    basePath,
    log,
    warn: log ?? ((line: string) => console.warn(`[neuralcut proxy] ${line}`)),
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
  };
}
