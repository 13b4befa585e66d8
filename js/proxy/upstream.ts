// The upstream client: every call to Gemini goes through here, with the key in a header, a
// timeout, the client's cancel passed on, redirects refused, and failures turned into messages a
// client may see (5xx: generic, with a request id; 4xx: Gemini's message with identifiers
// scrubbed). The full detail of a failure goes to the operator's log only.

import type { ProxyConfig } from "./config.js";
import { CLIENT_GONE, UpstreamError } from "./errors.js";

/** Per request: the id the log and the client share, and the client's cancel. */
export interface CallContext {
  requestId: string;
  signal?: AbortSignal;
}

/** A Gemini file resource, as far as the proxy reads it. */
export interface UpstreamFile {
  name?: unknown;
  uri?: unknown;
  mimeType?: unknown;
  state?: unknown;
  expirationTime?: unknown;
  sizeBytes?: unknown;
  error?: { message?: unknown };
}

export { CLIENT_GONE } from "./errors.js";

export class UpstreamClient {
  constructor(private readonly cfg: ProxyConfig) {}

  /** Removes the key, URLs and Google-side identifiers from upstream text, and bounds its length. */
  scrub(text: unknown): string {
    let s = typeof text === "string" ? text : "";
    s = s.split(this.cfg.apiKey).join("[redacted]");
    s = s.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi, "[url]");
    // A custom upstream's bare host[:port] (a local fake, an internal gateway) is no client's business.
    for (const name of [this.cfg.upstream.host, this.cfg.upstream.hostname]) if (name) s = s.split(name).join("[host]");
    s = s.replace(/\bAIza[0-9A-Za-z_-]{10,}/g, "[redacted]");
    s = s.replace(/\b(files|projects|operations|cachedContents|tunedModels|corpora)\/[A-Za-z0-9._-]+/g, "$1/[id]");
    s = s.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, "[email]");
    s = s.replace(/\b[\w-]*\.googleapis\.com\b/gi, "[host]");
    s = s.replace(/\b\d{6,}\b/g, "[number]");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
    s = s.replace(/[\u0000-\u001f]/g, " ");
    return s.length > 300 ? `${s.slice(0, 300)}…` : s;
  }

  private headers(extra: Record<string, string>): Headers {
    return new Headers({ "x-goog-api-key": this.cfg.apiKey, ...extra });
  }

  /** One upstream call. Redirects are refused: the key must never follow one. */
  private async call(url: string, init: RequestInit, timeoutMs: number, what: string, ctx: CallContext): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = ctx.signal ? AbortSignal.any([timeout, ctx.signal]) : timeout;
    let res: Response;
    try {
      res = await this.cfg.fetch(url, { ...init, signal, redirect: "manual" });
    } catch (e) {
      if (ctx.signal?.aborted) throw new UpstreamError(CLIENT_GONE, "The client cancelled the request");
      if (timeout.aborted) throw new UpstreamError(504, `Gemini did not answer ${what} in time`, { requestId: ctx.requestId });
      this.cfg.warn(`request ${ctx.requestId}: could not reach Gemini for ${what}: ${this.scrub((e as Error)?.message)}`);
      throw new UpstreamError(502, `Could not reach Gemini for ${what}`, { requestId: ctx.requestId });
    }
    if ((res.status >= 300 && res.status < 400) || res.type === "opaqueredirect") {
      await res.body?.cancel().catch(() => {});
      this.cfg.warn(`request ${ctx.requestId}: Gemini answered ${what} with a redirect (${res.status}); refused`);
      throw new UpstreamError(502, `Gemini failed ${what}; try again later`, { upstreamStatus: res.status, requestId: ctx.requestId });
    }
    return res;
  }

  /** The error for a non-2xx answer, marked as answered (Gemini billed nothing for it). */
  private async failure(res: Response, what: string, ctx: CallContext): Promise<UpstreamError> {
    const e = await this.failureOf(res, what, ctx);
    e.answered = true;
    return e;
  }

  private async failureOf(res: Response, what: string, ctx: CallContext): Promise<UpstreamError> {
    let detail: { status?: unknown; message?: unknown } = {};
    try {
      const body = (await res.json()) as { error?: { status?: unknown; message?: unknown } };
      detail = body?.error ?? {};
    } catch {
      // not JSON: keep nothing of it
    }
    const reason = typeof detail.status === "string" && /^[A-Z_]{1,64}$/.test(detail.status) ? detail.status : undefined;
    const message = this.scrub(detail.message);
    const extra: Record<string, unknown> = { upstreamStatus: res.status, requestId: ctx.requestId };
    if (res.status >= 500) {
      // Gemini's 5xx text is for the operator: it can name internals of the key's project.
      this.cfg.warn(`request ${ctx.requestId}: Gemini answered ${what} with ${res.status}${reason ? ` ${reason}` : ""}: ${message}`);
      return new UpstreamError(502, `Gemini failed ${what}; try again later`, extra);
    }
    if (reason) extra.reason = reason;
    if (message) extra.details = message;
    if (res.status === 429) {
      const seconds = Number(res.headers.get("retry-after"));
      return new UpstreamError(
        429,
        `Gemini is rate limiting ${what}; try again later`,
        { ...extra, budget: "upstream" },
        undefined,
        Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 30,
      );
    }
    return new UpstreamError(502, `Gemini refused ${what}`, extra);
  }

  private async readJson<T>(res: Response, what: string): Promise<T> {
    try {
      return (await res.json()) as T;
    } catch {
      throw new UpstreamError(502, `Gemini answered ${what} with something unreadable`);
    }
  }

  async generate(model: string, body: unknown, ctx: CallContext): Promise<Record<string, unknown>> {
    const what = "generateContent";
    const res = await this.call(
      `${this.cfg.upstreamBase}/v1beta/models/${model}:generateContent`,
      { method: "POST", headers: this.headers({ "content-type": "application/json" }), body: JSON.stringify(body) },
      this.cfg.limits.upstreamTimeoutMs,
      what,
      ctx,
    );
    if (!res.ok) throw await this.failure(res, what, ctx);
    return this.readJson(res, what);
  }

  /** streamGenerateContent with `alt=sse`: opens the stream (failing like generate when Gemini
   * refuses), then yields each event's JSON. A stream that breaks off, or an event that is not
   * JSON, throws an UpstreamError (502) from the iterator. */
  async stream(model: string, body: unknown, ctx: CallContext): Promise<AsyncGenerator<Record<string, unknown>, void, undefined>> {
    const what = "streamGenerateContent";
    const res = await this.call(
      `${this.cfg.upstreamBase}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
      { method: "POST", headers: this.headers({ "content-type": "application/json", accept: "text/event-stream" }), body: JSON.stringify(body) },
      this.cfg.limits.upstreamTimeoutMs,
      what,
      ctx,
    );
    if (!res.ok) throw await this.failure(res, what, ctx);
    if (!res.body) throw new UpstreamError(502, `Gemini answered ${what} with nothing`, { requestId: ctx.requestId });
    return this.events(res.body, what, ctx);
  }

  private async *events(body: ReadableStream<Uint8Array>, what: string, ctx: CallContext): AsyncGenerator<Record<string, unknown>, void, undefined> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          if (ctx.signal?.aborted) throw new UpstreamError(CLIENT_GONE, "The client cancelled the request");
          this.cfg.warn(`request ${ctx.requestId}: Gemini's ${what} broke off`);
          throw new UpstreamError(502, `Gemini's answer broke off; try again`, { requestId: ctx.requestId });
        }
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, "\n");
        // A bound on one event: Gemini's are a few KB; a stream that never ends an event is broken.
        if (buffer.length > this.cfg.limits.maxBodyBytes * 4)
          throw new UpstreamError(502, `Gemini answered ${what} with something unreadable`, { requestId: ctx.requestId });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).replace(/^ /, ""))
            .join("\n");
          if (!data) continue;
          let parsed: unknown;
          try {
            parsed = JSON.parse(data);
          } catch {
            throw new UpstreamError(502, `Gemini answered ${what} with something unreadable`, { requestId: ctx.requestId });
          }
          if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
            throw new UpstreamError(502, `Gemini answered ${what} with something unreadable`, { requestId: ctx.requestId });
          const error = (parsed as { error?: { message?: unknown; status?: unknown } }).error;
          if (error) {
            this.cfg.warn(`request ${ctx.requestId}: Gemini's ${what} failed mid-way: ${this.scrub(error.message)}`);
            throw new UpstreamError(502, `Gemini failed ${what}; try again later`, { requestId: ctx.requestId });
          }
          yield parsed as Record<string, unknown>;
        }
      }
      if (buffer.trim()) throw new UpstreamError(502, `Gemini's answer broke off; try again`, { requestId: ctx.requestId });
    } finally {
      // Stops reading Gemini when the client went away or the stream failed; a no-op at its end.
      await reader.cancel().catch(() => {});
    }
  }

  /** The file's resource, or null when Gemini no longer has it. */
  async getFile(name: string, ctx: CallContext): Promise<UpstreamFile | null> {
    const what = "a file status";
    const res = await this.call(
      `${this.cfg.upstreamBase}/v1beta/${name}`,
      { method: "GET", headers: this.headers({}) },
      this.cfg.limits.upstreamTimeoutMs,
      what,
      ctx,
    );
    if (res.status === 404 || res.status === 403) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    if (!res.ok) throw await this.failure(res, what, ctx);
    return this.readJson(res, what);
  }

  /** Deletes the file; false when Gemini did not have it (any more). */
  async deleteFile(name: string, ctx: CallContext): Promise<boolean> {
    const what = "a file deletion";
    const res = await this.call(
      `${this.cfg.upstreamBase}/v1beta/${name}`,
      { method: "DELETE", headers: this.headers({}) },
      this.cfg.limits.upstreamTimeoutMs,
      what,
      ctx,
    );
    if (res.status === 404 || res.status === 403) {
      await res.body?.cancel().catch(() => {});
      return false;
    }
    if (!res.ok) throw await this.failure(res, what, ctx);
    await res.body?.cancel().catch(() => {});
    return true;
  }

  /** Starts a resumable upload; the session URL is used only on the upstream's own origin. */
  async startUpload(total: number, mimeType: string, displayName: string, ctx: CallContext): Promise<{ session: URL; granularity: number }> {
    const what = "the upload start";
    const res = await this.call(
      `${this.cfg.upstreamBase}/upload/v1beta/files`,
      {
        method: "POST",
        headers: this.headers({
          "content-type": "application/json",
          "x-goog-upload-protocol": "resumable",
          "x-goog-upload-command": "start",
          "x-goog-upload-header-content-length": String(total),
          "x-goog-upload-header-content-type": mimeType,
        }),
        body: JSON.stringify({ file: { display_name: displayName } }),
      },
      this.cfg.limits.upstreamTimeoutMs,
      what,
      ctx,
    );
    if (!res.ok) throw await this.failure(res, what, ctx);
    await res.body?.cancel().catch(() => {});
    let session: URL;
    try {
      session = new URL(res.headers.get("x-goog-upload-url") ?? "");
    } catch {
      throw new UpstreamError(502, "Gemini gave no upload session", { requestId: ctx.requestId });
    }
    // Chunks (and the key with them) go only to the upstream's own origin, whatever the header says.
    if (session.origin !== this.cfg.upstream.origin) {
      this.cfg.warn(`request ${ctx.requestId}: Gemini's upload session is on another origin; refused`);
      throw new UpstreamError(502, "Gemini gave an unexpected upload session", { requestId: ctx.requestId });
    }
    const granularity = Number(res.headers.get("x-goog-upload-chunk-granularity")) || 1;
    return { session, granularity };
  }

  /** Sends one chunk; on `finalize`, returns the file Gemini made. */
  async sendChunk(session: URL, bytes: Uint8Array, offset: number, finalize: boolean, ctx: CallContext): Promise<UpstreamFile | null> {
    const what = "an upload chunk";
    const res = await this.call(
      session.href,
      {
        method: "POST",
        headers: this.headers({ "x-goog-upload-command": finalize ? "upload, finalize" : "upload", "x-goog-upload-offset": String(offset) }),
        body: bytes as Uint8Array<ArrayBuffer>,
      },
      this.cfg.limits.uploadChunkTimeoutMs,
      what,
      ctx,
    );
    if (!res.ok) throw await this.failure(res, what, ctx);
    if (!finalize) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    const answer = await this.readJson<{ file?: UpstreamFile }>(res, "the upload");
    return answer?.file ?? {};
  }
}
