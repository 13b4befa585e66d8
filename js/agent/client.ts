// The browser side of the proxy's endpoints (upload, status, generate, delete, limits). Only the
// proxy's own URL is ever called; the API key and Gemini's URLs stay on the server. Rate limits
// (429) and server failures (5xx) are retried with back-off, honouring Retry-After.

import { errorCode, NeuralCutError } from "../errors.js";

/** The proxy answered with an error, or could not be reached. `message` is safe to show. `code`
 * is the proxy's own code upper-cased (RATE_LIMITED, MODEL_NOT_ALLOWED, ...), HTTP_<status> when
 * it gave none, UNREACHABLE when it could not be reached. */
export class ProxyError extends NeuralCutError {
  constructor(
    message: string,
    /** HTTP status; 0 when the proxy could not be reached. */
    readonly status: number,
    code: string,
    readonly details?: string,
    /** How long the proxy asked to wait before trying again (Retry-After), in milliseconds. */
    readonly retryAfterMs?: number,
    /** The HTTP status Gemini answered the proxy with, when the proxy says. */
    readonly upstreamStatus?: number,
  ) {
    super(errorCode(code), message);
    this.name = "ProxyError";
  }
}

/** Headers sent with every proxy request (e.g. `authorization` for a host's `authorize`). */
export type ProxyHeaders = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** How failed requests are retried: 429, 5xx other than Gemini refusing the request, unreachable. */
export interface RetryOptions {
  /** Retries after the first try. 3. */
  retries?: number;
  /** First back-off, doubled per retry (with jitter) when the proxy names no Retry-After. 1 000 ms. */
  baseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown. 60 000 ms. */
  maxDelayMs?: number;
}

/** What the proxy serves at `GET <root>/limits` (older proxies: 404, then DEFAULT_PROXY_LIMITS). */
export interface ProxyLimitsInfo {
  maxTurns: number;
  maxPartsPerTurn: number;
  maxBodyBytes: number;
  maxFunctionDeclarations: number;
  maxFilesPerRequest?: number;
  maxOutputTokens?: number;
  [key: string]: unknown;
}

/** The limits of a proxy that does not publish them (the proxy's own defaults before /limits). */
export const DEFAULT_PROXY_LIMITS: Readonly<ProxyLimitsInfo> = Object.freeze({
  maxTurns: 64,
  maxPartsPerTurn: 64,
  maxBodyBytes: 2 * 1024 * 1024,
  maxFunctionDeclarations: 128,
});

export interface ProxyClientOptions {
  /** The proxy's root URL (where it is mounted), e.g. `/api/gemini/` or `http://127.0.0.1:8787/`. */
  proxyUrl: string;
  /**
   * This browser's client id (16-128 characters of `A-Za-z0-9_-`). File handles belong to it.
   * A random one per client object by default; keep one in sessionStorage to reuse handles
   * across reloads.
   */
  clientId?: string;
  /** The fetch to use. `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Sent with every request; a function is called per request (it may be async). */
  headers?: ProxyHeaders;
  retry?: RetryOptions;
  /** Waits `ms` before a retry; replaceable in tests. Rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each retry: the error, the retry number (1-based) and the wait. */
  onRetry?: (info: { error: ProxyError; attempt: number; delayMs: number; endpoint: string }) => void;
}

export interface UploadResult {
  handle: string;
  state: "PROCESSING" | "ACTIVE" | "FAILED";
  expiresAt?: number;
  mimeType: string;
  sizeBytes: number;
}

export interface StatusResult {
  handle: string;
  state: "PROCESSING" | "ACTIVE" | "FAILED";
  expiresAt?: number;
  mimeType?: string;
  details?: string;
}

// The Gemini request and response shapes, shared with the proxy's validator (js/gemini-types.ts).
export type { Content, FunctionDeclaration, GenerateRequest, GenerateResponse, Part } from "../gemini-types.js";
import type { GenerateRequest, GenerateResponse } from "../gemini-types.js";

export interface ProxyClient {
  readonly clientId: string;
  /** `onProgress(fraction)` is called as the bytes go out: with XMLHttpRequest's upload
   * progress in browsers (when the client uses the page's own fetch), else at 0 and 1. */
  upload(file: Blob, options: { name?: string; mimeType: string; signal?: AbortSignal; onProgress?: (fraction: number) => void }): Promise<UploadResult>;
  status(handle: string, signal?: AbortSignal): Promise<StatusResult>;
  generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResponse>;
  /** generate as a stream (`POST <root>/stream`, server-sent events): each chunk Gemini sends, as
   * it arrives. Opening the stream is retried like generate; a failure mid-way throws a
   * ProxyError (status 502, or what the proxy's `event: error` says) from the iterator. */
  stream(request: GenerateRequest, signal?: AbortSignal): AsyncGenerator<GenerateResponse, void, undefined>;
  /** Deletes an uploaded file at Gemini. Resolves false when the proxy has no delete endpoint or
   * no longer knows the handle. */
  delete(handle: string, signal?: AbortSignal): Promise<boolean>;
  /** The proxy's published limits; DEFAULT_PROXY_LIMITS when it publishes none (404). */
  limits(signal?: AbortSignal): Promise<ProxyLimitsInfo>;
}

const CLIENT_ID = /^[A-Za-z0-9_-]{16,128}$/;

function randomClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return `nc_${btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}

const abortable = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortReason(signal!));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** An AbortError for `signal` (its reason when that is an Error). */
export function abortReason(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  const e = new Error("The agent was cancelled");
  e.name = "AbortError";
  return e;
}

/** Whether a failed request may succeed if sent again unchanged. */
export function isRetryable(e: unknown): e is ProxyError {
  if (!(e instanceof ProxyError)) return false;
  if (e.status === 0 || e.status === 429) return true;
  if (e.status < 500) return false;
  // The proxy answers 502 when Gemini refused the request (4xx): sending it again changes nothing.
  if (e.status === 502 && e.upstreamStatus !== undefined && e.upstreamStatus < 500 && e.upstreamStatus !== 429) return false;
  return e.status !== 501;
}

function retryAfter(res: Response, json: Record<string, unknown> | undefined): number | undefined {
  if (typeof json?.retryAfterMs === "number" && Number.isFinite(json.retryAfterMs) && json.retryAfterMs >= 0) return json.retryAfterMs;
  if (typeof json?.retryAfterSeconds === "number" && Number.isFinite(json.retryAfterSeconds) && json.retryAfterSeconds >= 0)
    return json.retryAfterSeconds * 1000;
  const h = res.headers.get("retry-after");
  if (h === null) return undefined;
  if (/^\d+$/.test(h.trim())) return Number(h.trim()) * 1000;
  const at = Date.parse(h);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

export function createProxyClient(options: ProxyClientOptions): ProxyClient {
  if (typeof options?.proxyUrl !== "string" || options.proxyUrl === "") throw new NeuralCutError("INVALID_OPTIONS", "proxyUrl is required");
  const clientId = options.clientId ?? randomClientId();
  if (!CLIENT_ID.test(clientId)) throw new NeuralCutError("INVALID_OPTIONS", "clientId must be 16-128 characters of A-Z a-z 0-9 _ -");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const root = options.proxyUrl.endsWith("/") ? options.proxyUrl : `${options.proxyUrl}/`;
  const base = typeof location !== "undefined" ? new URL(root, location.href) : new URL(root);
  const retries = Math.max(0, Math.floor(options.retry?.retries ?? 3));
  const baseDelayMs = Math.max(0, options.retry?.baseDelayMs ?? 1000);
  const maxDelayMs = Math.max(0, options.retry?.maxDelayMs ?? 60_000);
  const sleep = options.sleep ?? abortable;
  let limitsPromise: Promise<ProxyLimitsInfo> | undefined;

  async function hostHeaders(): Promise<Record<string, string>> {
    const h = options.headers;
    if (!h) return {};
    const got = typeof h === "function" ? await h() : h;
    return got && typeof got === "object" ? { ...got } : {};
  }

  /** Runs `attempt` until it succeeds: a retryable error is tried again after a doubling backoff
   * with jitter (or the proxy's retry-after), at most `retries` times and never after a wait over
   * `maxDelayMs`. */
  async function retrying<T>(endpoint: string, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      if (signal?.aborted) throw abortReason(signal);
      try {
        return await attempt();
      } catch (e) {
        if (!isRetryable(e) || n >= retries) throw e;
        const delayMs = Math.round(e.retryAfterMs ?? baseDelayMs * 2 ** n * (0.75 + Math.random() * 0.5));
        if (delayMs > maxDelayMs) throw e;
        options.onRetry?.({ error: e, attempt: n + 1, delayMs, endpoint });
        await sleep(delayMs, signal);
      }
    }
  }

  /** One call of the proxy, retried (`retrying`). */
  async function request<T>(
    method: "GET" | "POST",
    endpoint: string,
    body: BodyInit | undefined,
    headers: Record<string, string>,
    signal?: AbortSignal,
    onProgress?: (f: number) => void,
  ): Promise<T> {
    return retrying(endpoint, signal, async () => {
      let res: Response;
      try {
        const all = { ...(await hostHeaders()), ...headers, "x-neuralcut-client": clientId };
        const url = new URL(endpoint, base);
        // Upload progress needs XMLHttpRequest: only in a page, and only with the page's own fetch.
        res =
          onProgress && body instanceof Blob && !options.fetch && typeof XMLHttpRequest === "function"
            ? await xhrUpload(url, body, all, signal, onProgress)
            : await doFetch(url, { method, headers: all, body, signal });
      } catch (e) {
        unreachable(e, endpoint, signal);
      }
      let json: Record<string, unknown> | undefined;
      try {
        json = (await res.json()) as Record<string, unknown>;
      } catch {
        if (signal?.aborted) throw abortReason(signal);
        json = undefined;
      }
      if (!res.ok || !json) throw refusal(res, json, endpoint);
      return json as T;
    });
  }

  /** A fetch that threw: an abort stays what it was, anything else is UNREACHABLE. */
  function unreachable(e: unknown, endpoint: string, signal: AbortSignal | undefined): never {
    if ((e as { name?: string })?.name === "AbortError" || signal?.aborted) throw signal?.aborted ? abortReason(signal) : e;
    throw new ProxyError(`the Gemini proxy could not be reached (${endpoint})`, 0, "UNREACHABLE");
  }

  /** The error of a refused request, from its JSON body (or its status alone). */
  function refusal(res: Response, json: Record<string, unknown> | undefined, endpoint: string): ProxyError {
    const message = typeof json?.error === "string" ? json.error : `HTTP ${res.status}`;
    const code = typeof json?.code === "string" ? json.code : `HTTP_${res.status}`;
    const details = typeof json?.details === "string" ? json.details : undefined;
    const upstream = typeof json?.upstreamStatus === "number" ? json.upstreamStatus : undefined;
    return new ProxyError(
      `the Gemini proxy refused ${endpoint} (${res.status}: ${message}${details ? `; ${details}` : ""})`,
      res.status,
      code,
      details,
      retryAfter(res, json),
      upstream,
    );
  }

  /** An upload through XMLHttpRequest, whose upload progress fetch does not report. */
  function xhrUpload(
    url: URL,
    file: Blob,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
    onProgress: (f: number) => void,
  ): Promise<Response> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", url);
      for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
      };
      xhr.onload = () =>
        resolve(
          new Response(xhr.responseText, {
            status: xhr.status,
            headers: { "content-type": xhr.getResponseHeader("content-type") ?? "application/json", "retry-after": xhr.getResponseHeader("retry-after") ?? "" },
          }),
        );
      xhr.onerror = () => reject(new NeuralCutError("UNREACHABLE", "network error"));
      const onAbort = () => xhr.abort();
      xhr.onabort = () => reject(abortReason(signal));
      signal?.addEventListener("abort", onAbort, { once: true });
      xhr.send(file);
    });
  }

  /** Opens `stream` (retried like any request until its first byte), then yields its events. */
  async function* streamEvents(req: GenerateRequest, signal?: AbortSignal): AsyncGenerator<GenerateResponse, void, undefined> {
    const body = JSON.stringify(req);
    const res = await retrying("stream", signal, async () => {
      let r: Response;
      try {
        r = await doFetch(new URL("stream", base), {
          method: "POST",
          headers: { ...(await hostHeaders()), ...jsonHeaders, accept: "text/event-stream", "x-neuralcut-client": clientId },
          body,
          signal,
        });
      } catch (e) {
        unreachable(e, "stream", signal);
      }
      if (!r.ok || !r.body) {
        let json: Record<string, unknown> | undefined;
        try {
          json = (await r.json()) as Record<string, unknown>;
        } catch {
          if (signal?.aborted) throw abortReason(signal);
        }
        throw refusal(r, json, "stream");
      }
      return r;
    });
    const broke = () => new ProxyError("the Gemini proxy refused stream (502: Gemini's answer broke off; try again)", 502, "UPSTREAM_ERROR");
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<string>;
        try {
          chunk = await reader.read();
        } catch {
          if (signal?.aborted) throw abortReason(signal);
          throw broke();
        }
        if (chunk.done) break;
        buffer += chunk.value.replace(/\r\n?/g, "\n");
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = event.split("\n");
          const kind =
            lines
              .find((l) => l.startsWith("event:"))
              ?.slice(6)
              .trim() ?? "message";
          const data = lines
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).replace(/^ /, ""))
            .join("\n");
          if (!data) continue;
          let json: Record<string, unknown>;
          try {
            json = JSON.parse(data) as Record<string, unknown>;
          } catch {
            throw broke();
          }
          if (kind === "error") {
            const status = typeof json.status === "number" ? json.status : 502;
            throw refusal(new Response(null, { status }), json, "stream");
          }
          yield json as unknown as GenerateResponse;
        }
      }
      if (buffer.trim()) throw broke();
    } finally {
      await reader.cancel().catch(() => {});
    }
  }

  const jsonHeaders = { "content-type": "application/json" };
  return {
    clientId,
    async upload(file, { name, mimeType, signal, onProgress }) {
      const headers: Record<string, string> = { "content-type": mimeType };
      if (name) headers["x-file-name"] = encodeURIComponent(name.slice(0, 200));
      onProgress?.(0);
      const out = await request<UploadResult>("POST", "upload", file, headers, signal, onProgress);
      onProgress?.(1);
      return out;
    },
    status(handle, signal) {
      return request<StatusResult>("POST", "status", JSON.stringify({ handle }), jsonHeaders, signal);
    },
    generate(req, signal) {
      return request<GenerateResponse>("POST", "generate", JSON.stringify(req), jsonHeaders, signal);
    },
    stream(req, signal) {
      return streamEvents(req, signal);
    },
    async delete(handle, signal) {
      try {
        const out = await request<{ deleted?: unknown }>("POST", "delete", JSON.stringify({ handle }), jsonHeaders, signal);
        return out.deleted === true;
      } catch (e) {
        if (e instanceof ProxyError && (e.status === 404 || e.status === 405 || e.status === 410)) return false;
        throw e;
      }
    },
    limits(signal) {
      limitsPromise ??= request<Record<string, unknown>>("GET", "limits", undefined, {}, signal).then(
        (got) => {
          const out: ProxyLimitsInfo = { ...DEFAULT_PROXY_LIMITS };
          for (const [k, v] of Object.entries(got)) if (typeof v === "number" && Number.isFinite(v) && v > 0) out[k] = v;
          return out;
        },
        (e) => {
          if (e instanceof ProxyError && (e.status === 404 || e.status === 405)) return { ...DEFAULT_PROXY_LIMITS };
          // Not known yet (offline, cancelled): ask again next time.
          limitsPromise = undefined;
          throw e;
        },
      );
      return limitsPromise;
    },
  };
}

/** The text of a response's first candidate, without thought parts. */
export function responseText(response: GenerateResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("");
}
