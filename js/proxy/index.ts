// The NeuralCut Gemini proxy: a fetch-style handler that holds the Gemini API key server-side and
// offers the browser three fixed endpoints (upload, status, generate). Plain `fetch` underneath,
// no SDK: the upload is streamed chunk by chunk, and every upstream URL is built here from a fixed
// base, so no path, model or URL from a request ever reaches Google unchecked.
//
// See docs/proxy.md for deployment and for what is refused and why.

import { HandleSealer, type FileRecord } from "./handles.js";
import { RateLimiter } from "./ratelimit.js";
import { checkGenerateBody, type GenerateBody, RequestError } from "./validate.js";

export { HANDLE_PREFIX } from "./handles.js";

/** Size, turn, rate and time limits. Every field has a default (shown). */
export interface ProxyLimits {
  /** Largest asset accepted by `/upload`, in bytes. 512 MiB. */
  maxUploadBytes?: number;
  /** Largest `/generate` request body, in bytes. 2 MiB. */
  maxGenerateBytes?: number;
  /** Most `contents` entries (turns) in one `/generate` request. 64. */
  maxTurns?: number;
  /** Most parts in one turn. 64. */
  maxPartsPerTurn?: number;
  /** Most function declarations in one request. 128. */
  maxFunctionDeclarations?: number;
  /** Requests one client may make per window. 120. */
  requestsPerWindow?: number;
  /** Uploads one client may start per window. 20. */
  uploadsPerWindow?: number;
  /** Requests all clients together may make per window (a bound when client ids rotate). 2000. */
  globalRequestsPerWindow?: number;
  /** The rate-limit window, in milliseconds. 60 000. */
  windowMs?: number;
  /** Timeout of a `generateContent` or `files.get` call, in milliseconds. 120 000. */
  upstreamTimeoutMs?: number;
  /** Timeout of one upload chunk, in milliseconds. 300 000. */
  uploadChunkTimeoutMs?: number;
  /** Bytes per upload chunk, rounded up to Google's chunk granularity. 8 MiB. */
  uploadChunkBytes?: number;
}

export interface GeminiProxyOptions {
  /** The Gemini API key. Sent upstream in the `x-goog-api-key` header, never in a URL. */
  apiKey: string;
  /** Exact origins (`https://editor.example.com`) allowed to call the proxy. No `*`. */
  allowedOrigins: string[];
  /** Model names (`gemini-2.5-flash`) a client may ask for. */
  models: string[];
  limits?: ProxyLimits;
  /** Gemini API base URL. `https://generativelanguage.googleapis.com`; tests point it at a fake. */
  upstream?: string;
  /** URL prefix the proxy is mounted at, such as `/api/gemini`. Empty by default. */
  basePath?: string;
  /**
   * Key material for sealing file handles. Without it a random key is made per process, so
   * handles stop working on restart; set it (e.g. NEURALCUT_PROXY_SECRET) where several
   * instances serve the same clients.
   */
  handleSecret?: string | Uint8Array;
  /**
   * The rate-limit key of a request. Defaults to `info.clientAddress` when the host passes one
   * (the standalone server does), else the client id header.
   */
  clientKey?: (request: Request, info: ProxyRequestInfo) => string | undefined;
  /** One line per request: method, endpoint, status, milliseconds. Never a key, URL or body. */
  log?: (line: string) => void;
  /** The fetch used for upstream calls. `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** What a host knows about a request beyond the Request itself. */
export interface ProxyRequestInfo {
  clientAddress?: string;
}

export type GeminiProxyHandler = (request: Request, info?: ProxyRequestInfo) => Promise<Response>;

/** The header carrying the browser's client id (16 to 128 characters of `A-Za-z0-9_-`). */
export const CLIENT_HEADER = "x-neuralcut-client";
/** Optional header naming the uploaded file (URI-encoded). */
export const FILE_NAME_HEADER = "x-file-name";

export const DEFAULT_UPSTREAM = "https://generativelanguage.googleapis.com";

const DEFAULT_LIMITS: Required<ProxyLimits> = {
  maxUploadBytes: 512 * 1024 * 1024,
  maxGenerateBytes: 2 * 1024 * 1024,
  maxTurns: 64,
  maxPartsPerTurn: 64,
  maxFunctionDeclarations: 128,
  requestsPerWindow: 120,
  uploadsPerWindow: 20,
  globalRequestsPerWindow: 2000,
  windowMs: 60_000,
  upstreamTimeoutMs: 120_000,
  uploadChunkTimeoutMs: 300_000,
  uploadChunkBytes: 8 * 1024 * 1024,
};

const MAX_STATUS_BYTES = 8 * 1024;
const MEDIA_TYPE = /^(video|audio|image)\/[a-z0-9][a-z0-9.+-]{0,126}$/;
const CLIENT_ID = /^[A-Za-z0-9_-]{16,128}$/;
const MODEL_NAME = /^[a-z0-9][a-z0-9.-]{0,127}$/;
const FILE_NAME = /^files\/[a-z0-9][a-z0-9-]{0,127}$/;

/** The upstream failed or answered something unusable; the client sees only `message`. */
class UpstreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * Creates the proxy. Throws a TypeError for an unusable configuration (no key, a `*` origin, an
 * empty model list): a misconfigured proxy should fail at start, not per request.
 */
export function createGeminiProxy(options: GeminiProxyOptions): GeminiProxyHandler {
  const { apiKey } = options;
  if (typeof apiKey !== "string" || apiKey.trim() === "") throw new TypeError("createGeminiProxy: apiKey is required");
  const origins = new Set<string>();
  for (const o of options.allowedOrigins ?? []) {
    if (typeof o !== "string" || o.includes("*")) throw new TypeError("createGeminiProxy: allowedOrigins holds exact origins, never '*'");
    let parsed: URL;
    try {
      parsed = new URL(o);
    } catch {
      throw new TypeError(`createGeminiProxy: '${o}' is not an origin`);
    }
    if (parsed.origin !== o.replace(/\/$/, "")) throw new TypeError(`createGeminiProxy: '${o}' is not an origin (scheme://host[:port])`);
    origins.add(parsed.origin);
  }
  if (origins.size === 0) throw new TypeError("createGeminiProxy: allowedOrigins must list at least one origin");
  const models = new Set<string>();
  for (const m of options.models ?? []) {
    const name = typeof m === "string" ? m.replace(/^models\//, "") : "";
    if (!MODEL_NAME.test(name)) throw new TypeError(`createGeminiProxy: '${String(m)}' is not a model name`);
    models.add(name);
  }
  if (models.size === 0) throw new TypeError("createGeminiProxy: models must list at least one model");
  const limits: Required<ProxyLimits> = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(options.limits ?? {})) {
    if (!(k in DEFAULT_LIMITS)) throw new TypeError(`createGeminiProxy: unknown limit '${k}'`);
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new TypeError(`createGeminiProxy: limit '${k}' must be a positive number`);
    (limits as unknown as Record<string, number>)[k] = v;
  }
  const upstream = new URL(options.upstream ?? DEFAULT_UPSTREAM);
  if (upstream.protocol !== "https:" && upstream.protocol !== "http:") throw new TypeError("createGeminiProxy: upstream must be an http(s) URL");
  const upstreamBase = upstream.origin + upstream.pathname.replace(/\/+$/, "");
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  if (basePath && !basePath.startsWith("/")) throw new TypeError("createGeminiProxy: basePath must start with '/'");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sealer = new HandleSealer(options.handleSecret);
  const limiter = new RateLimiter(limits.windowMs);
  const log = options.log;

  /** Removes the key and any URL from text that came from upstream, and bounds its length. */
  function scrub(text: unknown): string {
    let s = typeof text === "string" ? text : "";
    s = s.split(apiKey).join("[redacted]");
    s = s.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi, "[url]");
    s = s.replace(/[\u0000-\u001f]/g, " ");
    return s.length > 300 ? s.slice(0, 300) + "…" : s;
  }

  function headersFor(origin: string | null, extra?: Record<string, string>): Headers {
    const h = new Headers({
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      vary: "Origin",
      ...extra,
    });
    if (origin) h.set("access-control-allow-origin", origin);
    return h;
  }

  function json(status: number, body: unknown, origin: string | null, extra?: Record<string, string>): Response {
    return new Response(JSON.stringify(body), { status, headers: headersFor(origin, extra) });
  }

  function upstreamHeaders(extra: Record<string, string>): Headers {
    return new Headers({ "x-goog-api-key": apiKey, ...extra });
  }

  async function callUpstream(url: string, init: RequestInit, timeoutMs: number, what: string): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    } catch (e) {
      const name = (e as { name?: string })?.name;
      if (name === "TimeoutError" || name === "AbortError") throw new UpstreamError(504, `Gemini did not answer ${what} in time`);
      throw new UpstreamError(502, `Could not reach Gemini for ${what}`);
    }
  }

  async function upstreamFailure(res: Response, what: string): Promise<UpstreamError> {
    let detail: { status?: unknown; message?: unknown } = {};
    try {
      const body = (await res.json()) as { error?: { status?: unknown; message?: unknown } };
      detail = body?.error ?? {};
    } catch {
      // not JSON: keep nothing of it
    }
    const extra: Record<string, unknown> = { upstreamStatus: res.status };
    if (typeof detail.status === "string" && /^[A-Z_]{1,64}$/.test(detail.status)) extra.reason = detail.status;
    const message = scrub(detail.message);
    if (message) extra.details = message;
    if (res.status === 429) return new UpstreamError(429, `Gemini is rate limiting ${what}; try again later`, extra);
    return new UpstreamError(502, `Gemini failed ${what}`, extra);
  }

  /** Reads a request body as text, refusing more than `max` bytes. */
  async function readBounded(request: Request, max: number): Promise<string> {
    const declared = request.headers.get("content-length");
    if (declared !== null && Number(declared) > max) throw new RequestError(413, `Request body over ${max} bytes`);
    if (!request.body) return "";
    const reader = request.body.getReader();
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        throw new RequestError(413, `Request body over ${max} bytes`);
      }
      parts.push(value);
    }
    return new TextDecoder().decode(concat(parts, total));
  }

  async function readJson(request: Request, max: number): Promise<unknown> {
    const text = await readBounded(request, max);
    try {
      return JSON.parse(text);
    } catch {
      throw new RequestError(400, "Request body is not JSON");
    }
  }

  function parseExpiry(file: { expirationTime?: unknown }): number {
    const t = typeof file.expirationTime === "string" ? Date.parse(file.expirationTime) : NaN;
    return Number.isFinite(t) ? t : 0;
  }

  function fileState(file: { state?: unknown }): "PROCESSING" | "ACTIVE" | "FAILED" {
    return file.state === "ACTIVE" ? "ACTIVE" : file.state === "FAILED" ? "FAILED" : "PROCESSING";
  }

  // ---- endpoints ---------------------------------------------------------------------------

  async function upload(request: Request, clientTag: string, origin: string): Promise<Response> {
    const mimeType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (!MEDIA_TYPE.test(mimeType)) throw new RequestError(415, "Only video/*, audio/* and image/* files can be uploaded");
    const lengthHeader = request.headers.get("content-length");
    if (lengthHeader === null) throw new RequestError(411, "Content-Length is required");
    if (!/^\d{1,15}$/.test(lengthHeader)) throw new RequestError(400, "Content-Length is not a byte count");
    const total = Number(lengthHeader);
    if (total > limits.maxUploadBytes) throw new RequestError(413, `Files over ${limits.maxUploadBytes} bytes are refused`);
    if (total === 0 || !request.body) throw new RequestError(400, "The file is empty");
    let displayName = "asset";
    const rawName = request.headers.get(FILE_NAME_HEADER);
    if (rawName) {
      try {
        displayName = decodeURIComponent(rawName);
      } catch {
        displayName = rawName;
      }
      displayName = displayName.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200) || "asset";
    }

    // Start the resumable session.
    const start = await callUpstream(
      `${upstreamBase}/upload/v1beta/files`,
      {
        method: "POST",
        headers: upstreamHeaders({
          "content-type": "application/json",
          "x-goog-upload-protocol": "resumable",
          "x-goog-upload-command": "start",
          "x-goog-upload-header-content-length": String(total),
          "x-goog-upload-header-content-type": mimeType,
        }),
        body: JSON.stringify({ file: { display_name: displayName } }),
      },
      limits.upstreamTimeoutMs,
      "the upload start",
    );
    if (!start.ok) throw await upstreamFailure(start, "the upload start");
    await start.body?.cancel().catch(() => {});
    const sessionUrl = start.headers.get("x-goog-upload-url");
    let session: URL;
    try {
      session = new URL(sessionUrl ?? "");
    } catch {
      throw new UpstreamError(502, "Gemini gave no upload session");
    }
    // Chunks go only to the upstream's own origin, whatever the header says.
    if (session.origin !== upstream.origin) throw new UpstreamError(502, "Gemini gave an unexpected upload session");
    const granularity = Number(start.headers.get("x-goog-upload-chunk-granularity")) || 1;
    const chunkSize = Math.max(granularity, Math.ceil(limits.uploadChunkBytes / granularity) * granularity);

    // Stream the body: full chunks as they fill, the rest with finalize.
    const reader = request.body.getReader();
    let pending: Uint8Array[] = [];
    let pendingLen = 0;
    let received = 0;
    let offset = 0;
    const send = async (bytes: Uint8Array, finalize: boolean): Promise<Response> => {
      const res = await callUpstream(
        session.href,
        {
          method: "POST",
          headers: upstreamHeaders({
            "x-goog-upload-command": finalize ? "upload, finalize" : "upload",
            "x-goog-upload-offset": String(offset),
          }),
          body: bytes as Uint8Array<ArrayBuffer>,
        },
        limits.uploadChunkTimeoutMs,
        "an upload chunk",
      );
      if (!res.ok) throw await upstreamFailure(res, "an upload chunk");
      offset += bytes.byteLength;
      return res;
    };
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          throw new RequestError(400, "The upload was interrupted");
        }
        if (chunk.value) {
          received += chunk.value.byteLength;
          if (received > total) throw new RequestError(413, "The body is longer than its Content-Length");
          pending.push(chunk.value);
          pendingLen += chunk.value.byteLength;
        }
        while (pendingLen >= chunkSize && offset + chunkSize < total) {
          const all = concat(pending, pendingLen);
          const res = await send(all.subarray(0, chunkSize), false);
          await res.body?.cancel().catch(() => {});
          pending = [all.subarray(chunkSize)];
          pendingLen -= chunkSize;
        }
        if (chunk.done) break;
      }
    } catch (e) {
      await reader.cancel().catch(() => {});
      throw e;
    }
    if (received !== total) throw new RequestError(400, "The body is shorter than its Content-Length");
    const last = await send(concat(pending, pendingLen), true);
    let file: { name?: unknown; uri?: unknown; mimeType?: unknown; state?: unknown; expirationTime?: unknown; sizeBytes?: unknown };
    try {
      file = ((await last.json()) as { file?: typeof file }).file ?? {};
    } catch {
      throw new UpstreamError(502, "Gemini answered the upload with something unreadable");
    }
    if (typeof file.name !== "string" || !FILE_NAME.test(file.name) || typeof file.uri !== "string") {
      throw new UpstreamError(502, "Gemini answered the upload without a file");
    }
    const record: FileRecord = { name: file.name, uri: file.uri, mimeType: typeof file.mimeType === "string" ? file.mimeType : mimeType, expiresAt: parseExpiry(file) };
    const handle = await sealer.seal(record, clientTag);
    return json(201, { handle, state: fileState(file), expiresAt: record.expiresAt || undefined, mimeType: record.mimeType, sizeBytes: total }, origin);
  }

  async function status(request: Request, clientTag: string, origin: string): Promise<Response> {
    const body = (await readJson(request, MAX_STATUS_BYTES)) as { handle?: unknown } | null;
    const record = await sealer.open(body?.handle, clientTag);
    if (!record) throw new RequestError(404, "Unknown file handle");
    const res = await callUpstream(`${upstreamBase}/v1beta/${record.name}`, { method: "GET", headers: upstreamHeaders({}) }, limits.upstreamTimeoutMs, "a file status");
    if (res.status === 404 || res.status === 403) {
      await res.body?.cancel().catch(() => {});
      throw new RequestError(410, "The file has expired or was deleted; upload it again");
    }
    if (!res.ok) throw await upstreamFailure(res, "a file status");
    let file: { state?: unknown; expirationTime?: unknown; error?: { message?: unknown } };
    try {
      file = (await res.json()) as typeof file;
    } catch {
      throw new UpstreamError(502, "Gemini answered a file status with something unreadable");
    }
    const state = fileState(file);
    const out: Record<string, unknown> = { handle: body!.handle, state, expiresAt: parseExpiry(file) || record.expiresAt || undefined, mimeType: record.mimeType };
    if (state === "FAILED") out.details = scrub(file.error?.message) || "Gemini could not process the file";
    return json(200, out, origin);
  }

  async function generate(request: Request, clientTag: string, origin: string): Promise<Response> {
    const raw = await readJson(request, limits.maxGenerateBytes);
    const body: GenerateBody = checkGenerateBody(raw, limits, models);
    // Replace every handle with the upstream URI it seals; refuse handles of other clients.
    for (const content of body.contents) {
      for (const part of content.parts) {
        if (!part.fileData) continue;
        const record = await sealer.open(part.fileData.fileUri, clientTag);
        if (!record) throw new RequestError(404, "Unknown file handle in contents");
        part.fileData = { fileUri: record.uri, mimeType: record.mimeType || part.fileData.mimeType };
      }
    }
    const { model, ...upstreamBody } = body;
    const res = await callUpstream(
      `${upstreamBase}/v1beta/models/${model}:generateContent`,
      { method: "POST", headers: upstreamHeaders({ "content-type": "application/json" }), body: JSON.stringify(upstreamBody) },
      limits.upstreamTimeoutMs,
      "generateContent",
    );
    if (!res.ok) throw await upstreamFailure(res, "generateContent");
    let answer: Record<string, unknown>;
    try {
      answer = (await res.json()) as Record<string, unknown>;
    } catch {
      throw new UpstreamError(502, "Gemini answered generateContent with something unreadable");
    }
    // Only the documented response fields pass; candidate content goes through verbatim so
    // thought signatures round-trip.
    const candidates = Array.isArray(answer.candidates)
      ? answer.candidates.map((c: Record<string, unknown>) => pick(c, ["content", "finishReason", "finishMessage", "index", "safetyRatings"]))
      : [];
    return json(200, { candidates, ...pick(answer, ["promptFeedback", "usageMetadata", "modelVersion", "responseId"]) }, origin);
  }

  const routes: Record<string, (r: Request, tag: string, origin: string) => Promise<Response>> = {
    "/upload": upload,
    "/status": status,
    "/generate": generate,
  };

  async function handle(request: Request, info: ProxyRequestInfo = {}): Promise<Response> {
    const origin = request.headers.get("origin");
    // Origin first: a browser on another site learns nothing, not even which paths exist.
    if (!origin || !origins.has(origin)) {
      await request.body?.cancel().catch(() => {});
      return json(403, { error: "Origin not allowed", code: "origin_refused" }, null);
    }
    let path: string;
    try {
      path = new URL(request.url).pathname;
    } catch {
      return json(400, { error: "Bad URL" }, origin);
    }
    if (basePath) {
      if (path !== basePath && !path.startsWith(basePath + "/")) return json(404, { error: "Not found", code: "not_found" }, origin);
      path = path.slice(basePath.length) || "/";
    }
    const route = routes[path];
    if (request.method === "OPTIONS") {
      if (!route) return json(404, { error: "Not found", code: "not_found" }, origin);
      return new Response(null, {
        status: 204,
        headers: headersFor(origin, {
          "access-control-allow-methods": "POST, OPTIONS",
          "access-control-allow-headers": `content-type, ${CLIENT_HEADER}, ${FILE_NAME_HEADER}`,
          "access-control-max-age": "600",
        }),
      });
    }
    if (!route) {
      await request.body?.cancel().catch(() => {});
      return json(404, { error: "Not found", code: "not_found" }, origin);
    }
    if (request.method !== "POST") return json(405, { error: "Only POST is served here", code: "method_not_allowed" }, origin, { allow: "POST, OPTIONS" });
    const clientId = request.headers.get(CLIENT_HEADER);
    if (!clientId || !CLIENT_ID.test(clientId)) {
      await request.body?.cancel().catch(() => {});
      return json(400, { error: `The ${CLIENT_HEADER} header (16-128 characters of A-Z a-z 0-9 _ -) is required`, code: "client_id_required" }, origin);
    }
    const rateKey = (options.clientKey ? options.clientKey(request, info) : info.clientAddress) || "id:" + clientId;
    const wait =
      limiter.take("*", limits.globalRequestsPerWindow) ??
      limiter.take("r:" + rateKey, limits.requestsPerWindow) ??
      (path === "/upload" ? limiter.take("u:" + rateKey, limits.uploadsPerWindow) : null);
    if (wait !== null) {
      await request.body?.cancel().catch(() => {});
      return json(429, { error: "Too many requests; slow down", code: "rate_limited", retryAfterMs: wait }, origin, { "retry-after": String(Math.ceil(wait / 1000)) });
    }
    try {
      return await route(request, await sealer.clientTag(clientId), origin);
    } catch (e) {
      await request.body?.cancel().catch(() => {});
      if (e instanceof RequestError) return json(e.status, { error: e.message, code: e.code, ...e.extra }, origin);
      if (e instanceof UpstreamError) return json(e.status, { error: e.message, code: "upstream_error", ...e.extra }, origin);
      // Anything else is a bug here; say nothing about it to the client.
      return json(500, { error: "Internal proxy error", code: "internal" }, origin);
    }
  }

  return async (request, info) => {
    const t0 = Date.now();
    const res = await handle(request, info);
    if (log) {
      let path = "?";
      try {
        path = new URL(request.url).pathname.slice(0, 100);
      } catch {
        // keep "?"
      }
      log(`${request.method} ${path.replace(/[^\x21-\x7e]/g, "?")} ${res.status} ${Date.now() - t0}ms`);
    }
    return res;
  };
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0].byteLength === total) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

function pick(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!obj || typeof obj !== "object") return out;
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}
