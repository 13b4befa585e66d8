// The proxy's HTTP surface: origin and authorization first, then the user's budgets, then one of
// six fixed endpoints. Nothing is forwarded by path; every upstream URL is built in upstream.ts.

import { clientAddress } from "./auth.js";
import type { Budgets, TokenReservation } from "./budgets.js";
import type { ProxyConfig, ProxyRequestInfo } from "./config.js";
import { BudgetError, RequestError, StoreError, UpstreamError, wireCode } from "./errors.js";
import type { FileRecord, HandleSealer } from "./handles.js";
import { concat, streamUpload } from "./uploads.js";
import type { CallContext, UpstreamClient, UpstreamFile } from "./upstream.js";
import { checkGenerateBody, worstCaseTokens } from "./validate.js";

export type GeminiProxyHandler = (request: Request, info?: ProxyRequestInfo) => Promise<Response>;

/** The header carrying the browser's client id. Optional now: files and budgets belong to the user. */
export const CLIENT_HEADER = "x-neuralcut-client";
/** Optional header naming the uploaded file (URI-encoded). */
export const FILE_NAME_HEADER = "x-file-name";

const MAX_SMALL_BODY = 8 * 1024;
const MEDIA_TYPE = /^(video|audio|image)\/[a-z0-9][a-z0-9.+-]{0,126}$/;
const FILE_NAME = /^files\/[a-z0-9][a-z0-9-]{0,127}$/;

interface Caller {
  /** Budget key: a hash of the user id (the store never sees the id itself). */
  key: string;
  /** Owner tag sealed into handles. */
  owner: string;
  origin: string | null;
  ctx: CallContext;
}

type Route = { method: "GET" | "POST"; run: (request: Request, caller: Caller) => Promise<Response> };

const te = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function userKey(user: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", te.encode(`neuralcut-user:${user}`))).slice(0, 16));
}

function parseExpiry(file: { expirationTime?: unknown }): number {
  const t = typeof file.expirationTime === "string" ? Date.parse(file.expirationTime) : NaN;
  return Number.isFinite(t) ? t : 0;
}

function fileState(file: { state?: unknown }): "PROCESSING" | "ACTIVE" | "FAILED" {
  return file.state === "ACTIVE" ? "ACTIVE" : file.state === "FAILED" ? "FAILED" : "PROCESSING";
}

function pick(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!obj || typeof obj !== "object") return out;
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}

export interface RouteDeps {
  cfg: ProxyConfig;
  sealer: HandleSealer;
  budgets: Budgets;
  upstream: UpstreamClient;
}

export function createHandler({ cfg, sealer, budgets, upstream }: RouteDeps): GeminiProxyHandler {
  const { limits } = cfg;

  function headersFor(origin: string | null, requestId: string, extra?: Record<string, string>): Headers {
    const h = new Headers({
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": requestId,
      vary: "Origin",
      ...extra,
    });
    if (origin) {
      h.set("access-control-allow-origin", origin);
      // A cross-origin page reads these to back off and to quote the request id.
      h.set("access-control-expose-headers", "retry-after, x-request-id");
    }
    return h;
  }

  const json = (status: number, body: unknown, caller: Pick<Caller, "origin" | "ctx">, extra?: Record<string, string>): Response =>
    new Response(JSON.stringify(body), { status, headers: headersFor(caller.origin, caller.ctx.requestId, extra) });

  /** Reads a request body as text, refusing more than `max` bytes whatever Content-Length says,
   * and a body that has not arrived whole within bodyTimeoutMs (a slow client holds nothing). */
  async function readBounded(request: Request, max: number): Promise<string> {
    const declared = request.headers.get("content-length");
    if (declared !== null && Number(declared) > max) throw new RequestError(413, `Request body over ${max} bytes`);
    if (!request.body) return "";
    const reader = request.body.getReader();
    const parts: Uint8Array[] = [];
    let total = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RequestError(408, `The request body did not arrive within ${Math.round(limits.bodyTimeoutMs / 1000)} s`, "BODY_TIMEOUT")),
        limits.bodyTimeoutMs,
      );
    });
    // Handled even when it fires while no read is waiting on it (during a cancel).
    late.catch(() => {});
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await Promise.race([reader.read(), late]);
        } catch (e) {
          await reader.cancel().catch(() => {});
          throw e instanceof RequestError ? e : new RequestError(400, "The request body was interrupted");
        }
        if (chunk.done) break;
        total += chunk.value.byteLength;
        if (total > max) {
          await reader.cancel().catch(() => {});
          throw new RequestError(413, `Request body over ${max} bytes`);
        }
        parts.push(chunk.value);
      }
    } finally {
      clearTimeout(timer);
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

  async function openHandle(handle: unknown, caller: Caller): Promise<FileRecord> {
    const record = await sealer.open(handle, caller.owner);
    if (!record) throw new RequestError(404, "Unknown file handle");
    return record;
  }

  // ---- endpoints ---------------------------------------------------------------------------

  async function upload(request: Request, caller: Caller): Promise<Response> {
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
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
      displayName = displayName.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200) || "asset";
    }
    const reservation = await budgets.startUpload(caller.key, total);
    let stored = false;
    try {
      await budgets.admit();
      const file: UpstreamFile = await streamUpload(
        request.body,
        {
          total,
          mimeType,
          displayName,
          chunkBytes: limits.uploadChunkBytes,
          idleTimeoutMs: limits.uploadIdleTimeoutMs,
          minBytesPerSecond: limits.uploadMinBytesPerSecond,
          rateWindowMs: limits.uploadRateWindowMs,
        },
        upstream,
        caller.ctx,
      );
      if (typeof file.name !== "string" || !FILE_NAME.test(file.name) || typeof file.uri !== "string") {
        throw new UpstreamError(502, "Gemini answered the upload without a file", { requestId: caller.ctx.requestId });
      }
      stored = true;
      const record: FileRecord = {
        name: file.name,
        uri: file.uri,
        mimeType: typeof file.mimeType === "string" ? file.mimeType : mimeType,
        expiresAt: parseExpiry(file),
        sizeBytes: total,
      };
      const handle = await sealer.seal(record, caller.owner);
      return json(201, { handle, state: fileState(file), expiresAt: record.expiresAt || undefined, mimeType: record.mimeType, sizeBytes: total }, caller);
    } finally {
      await reservation.finish(stored);
    }
  }

  async function status(request: Request, caller: Caller): Promise<Response> {
    const body = (await readJson(request, MAX_SMALL_BODY)) as { handle?: unknown } | null;
    const record = await openHandle(body?.handle, caller);
    await budgets.admit();
    const file = await upstream.getFile(record.name, caller.ctx);
    if (!file) throw new RequestError(410, "The file has expired or was deleted; upload it again");
    const state = fileState(file);
    const out: Record<string, unknown> = {
      handle: body!.handle,
      state,
      expiresAt: parseExpiry(file) || record.expiresAt || undefined,
      mimeType: record.mimeType,
    };
    if (state === "FAILED") out.details = upstream.scrub(file.error?.message) || "Gemini could not process the file";
    return json(200, out, caller);
  }

  async function remove(request: Request, caller: Caller): Promise<Response> {
    const body = (await readJson(request, MAX_SMALL_BODY)) as { handle?: unknown } | null;
    const record = await openHandle(body?.handle, caller);
    await budgets.admit();
    if (!(await upstream.deleteFile(record.name, caller.ctx))) throw new RequestError(404, "Unknown file handle (already deleted or expired)");
    await budgets.deleted(caller.key, record.sizeBytes);
    return json(200, { deleted: true }, caller);
  }

  /** Everything generate and stream check before going upstream, written once: the body's size
   * and shape, the model allowlist, handles opened for this user only, the call's worst-case
   * tokens reserved, the global rate. Returns the model, the body to send and the reservation. */
  async function admitGenerate(request: Request, caller: Caller): Promise<{ model: string; upstreamBody: Record<string, unknown>; tokens: TokenReservation }> {
    const raw = await readJson(request, limits.maxBodyBytes);
    const body = checkGenerateBody(raw, limits, cfg.models);
    // Replace every handle with the upstream URI it seals; refuse handles of other users.
    for (const content of body.contents) {
      for (const part of content.parts) {
        if (!part.fileData) continue;
        const record = await sealer.open(part.fileData.fileUri, caller.owner);
        if (!record) throw new RequestError(404, "Unknown file handle in contents");
        part.fileData = { fileUri: record.uri, mimeType: record.mimeType || part.fileData.mimeType };
      }
    }
    // Reserved before the call, so parallel calls cannot all pass one check; settled after it.
    const tokens = await budgets.reserveTokens(caller.key, worstCaseTokens(body, limits));
    try {
      await budgets.admit();
    } catch (e) {
      await tokens.settle(0);
      throw e;
    }
    const { model, ...upstreamBody } = body;
    return { model, upstreamBody, tokens };
  }

  /** Only the documented response fields pass; candidate content goes through verbatim so
   * thought signatures round-trip. The same filter for a whole answer and for each streamed chunk. */
  function publicAnswer(answer: Record<string, unknown>): Record<string, unknown> {
    const candidates = Array.isArray(answer.candidates)
      ? answer.candidates.map((c: Record<string, unknown>) => pick(c, ["content", "finishReason", "finishMessage", "index", "safetyRatings"]))
      : [];
    return { candidates, ...pick(answer, ["promptFeedback", "usageMetadata", "modelVersion", "responseId"]) };
  }

  /** Gemini's count for the call, when the answer carries one. */
  const usedBy = (answer: Record<string, unknown> | undefined): number | undefined => {
    const total = (answer?.usageMetadata as { totalTokenCount?: unknown } | undefined)?.totalTokenCount;
    return typeof total === "number" && total >= 0 ? total : undefined;
  };

  /** A call that failed: an error answer from Gemini billed nothing; no answer at all (a
   * timeout, a broken connection, a client that hung up) may have, so the reservation stands. */
  const settleFailed = (tokens: TokenReservation, e: unknown) => tokens.settle(e instanceof UpstreamError && e.answered ? 0 : undefined);

  async function generate(request: Request, caller: Caller): Promise<Response> {
    const { model, upstreamBody, tokens } = await admitGenerate(request, caller);
    let answer: Record<string, unknown>;
    try {
      answer = await upstream.generate(model, upstreamBody, caller.ctx);
    } catch (e) {
      await settleFailed(tokens, e);
      throw e;
    }
    // Settling never fails the answer: what the store cannot take now is owed and retried.
    await tokens.settle(usedBy(answer));
    return json(200, publicAnswer(answer), caller);
  }

  /** generate as server-sent events: Gemini's streamGenerateContent chunks, each filtered like a
   * whole answer, as `data:` events. A failure after the first byte is an `event: error` with the
   * same `{ error, code, requestId }` a JSON failure has. Tokens are settled from the last chunk's
   * usage (Gemini's running total) once the stream ends; a stream cut short (the client left, Gemini
   * broke off) keeps its reservation as the count. */
  async function stream(request: Request, caller: Caller): Promise<Response> {
    const { model, upstreamBody, tokens } = await admitGenerate(request, caller);
    let chunks: AsyncGenerator<Record<string, unknown>, void, undefined>;
    try {
      // Opening the stream throws like generate does (refusals, 5xx, 429) before any byte is sent.
      chunks = await upstream.stream(model, upstreamBody, caller.ctx);
    } catch (e) {
      await settleFailed(tokens, e);
      throw e;
    }
    const enc = new TextEncoder();
    let last: Record<string, unknown> | undefined;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await chunks.next();
          if (done) {
            await tokens.settle(usedBy(last));
            controller.close();
            return;
          }
          if (value.usageMetadata) last = value;
          controller.enqueue(enc.encode(`data: ${JSON.stringify(publicAnswer(value))}\n\n`));
        } catch (e) {
          await settleFailed(tokens, e);
          const out =
            e instanceof UpstreamError
              ? { error: e.message, code: wireCode(e.code), status: e.status, requestId: caller.ctx.requestId, ...e.extra }
              : { error: "Gemini's answer broke off; try again", code: wireCode("UPSTREAM_ERROR"), status: 502, requestId: caller.ctx.requestId };
          controller.enqueue(enc.encode(`event: error\ndata: ${JSON.stringify(out)}\n\n`));
          controller.close();
        }
      },
      async cancel() {
        await chunks.return(undefined).catch(() => {});
        await tokens.settle(undefined);
      },
    });
    const headers = headersFor(caller.origin, caller.ctx.requestId, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      "x-accel-buffering": "no",
    });
    return new Response(body, { status: 200, headers });
  }

  async function limitsRoute(_request: Request, caller: Caller): Promise<Response> {
    const b = cfg.budgets;
    return json(
      200,
      {
        ...pick(limits as unknown as Record<string, unknown>, [
          "maxTurns",
          "maxPartsPerTurn",
          "maxPartsPerRequest",
          "maxBodyBytes",
          "maxFunctionDeclarations",
          "maxFilesPerRequest",
          "maxInlineImageBytes",
          "maxOutputTokens",
          "maxThinkingTokens",
          "maxInputTokens",
          "maxMediaResolution",
          "maxVideoFps",
          "maxUploadBytes",
        ]),
        models: [...cfg.models],
        budgets: pick(b as unknown as Record<string, unknown>, [
          "requestsPerMinute",
          "uploadsPerMinute",
          "tokensPerDay",
          "uploadBytesPerDay",
          "concurrentUploads",
          "storedBytes",
        ]),
      },
      caller,
    );
  }

  const routes: Record<string, Route> = {
    "/upload": { method: "POST", run: upload },
    "/status": { method: "POST", run: status },
    "/generate": { method: "POST", run: generate },
    "/stream": { method: "POST", run: stream },
    "/delete": { method: "POST", run: remove },
    "/limits": { method: "GET", run: limitsRoute },
  };

  async function who(request: Request, info: ProxyRequestInfo, requestId: string): Promise<string | null> {
    if (!cfg.authorize) return `addr:${clientAddress(request, info, cfg.trustedProxyHops) ?? "unknown"}`;
    try {
      const user = await cfg.authorize(request, info);
      return typeof user === "string" && user !== "" ? user : null;
    } catch (e) {
      cfg.warn(`request ${requestId}: authorize threw (${e instanceof Error ? e.name : "error"}); refused`);
      return null;
    }
  }

  async function handle(request: Request, info: ProxyRequestInfo, requestId: string): Promise<Response> {
    const origin = request.headers.get("origin");
    const bare = { origin: null, ctx: { requestId } };
    const drop = () => request.body?.cancel().catch(() => {});
    // A page on another site learns nothing, not even which paths exist. A request without an
    // Origin is not a page's: authorization alone decides for it.
    if (origin !== null && !cfg.origins.has(origin)) {
      await drop();
      return json(403, { error: "Origin not allowed", code: wireCode("ORIGIN_REFUSED") }, bare);
    }
    const caller0 = { origin, ctx: { requestId, signal: request.signal } };
    let path: string;
    try {
      path = new URL(request.url).pathname;
    } catch {
      return json(400, { error: "Bad URL", code: wireCode("BAD_REQUEST") }, caller0);
    }
    if (cfg.basePath) {
      if (path !== cfg.basePath && !path.startsWith(`${cfg.basePath}/`)) path = "";
      else path = path.slice(cfg.basePath.length) || "/";
    }
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (request.method === "OPTIONS") {
      if (!route) return json(404, { error: "Not found", code: wireCode("NOT_FOUND") }, caller0);
      return new Response(null, {
        status: 204,
        headers: headersFor(origin, requestId, {
          "access-control-allow-methods": `${route.method}, OPTIONS`,
          "access-control-allow-headers": `authorization, content-type, ${CLIENT_HEADER}, ${FILE_NAME_HEADER}`,
          "access-control-max-age": "600",
        }),
      });
    }
    if (!route) {
      await drop();
      return json(404, { error: "Not found", code: wireCode("NOT_FOUND") }, caller0);
    }
    if (request.method !== route.method) {
      await drop();
      return json(405, { error: `Only ${route.method} is served here`, code: wireCode("METHOD_NOT_ALLOWED") }, caller0, { allow: `${route.method}, OPTIONS` });
    }
    const user = await who(request, info, requestId);
    if (user === null) {
      await drop();
      return json(401, { error: "Not authorized to use this proxy", code: wireCode("UNAUTHORIZED") }, caller0, {
        "www-authenticate": 'Bearer realm="neuralcut"',
      });
    }
    const caller: Caller = { ...caller0, key: await userKey(user), owner: await sealer.ownerTag(user) };
    try {
      // Reading the limits is free; everything else counts against the user's rate.
      if (route.method === "POST") await budgets.request(caller.key);
      return await route.run(request, caller);
    } catch (e) {
      await drop();
      if (e instanceof RequestError) return json(e.status, { error: e.message, code: wireCode(e.code), ...e.extra }, caller);
      if (e instanceof BudgetError) {
        const seconds = Math.max(1, Math.ceil((e.resetAt - Date.now()) / 1000));
        return json(
          429,
          { error: e.message, code: wireCode(e.code), budget: e.budget, scope: e.scope, limit: e.limit, resetAt: e.resetAt, retryAfterSeconds: seconds },
          caller,
          { "retry-after": String(seconds) },
        );
      }
      if (e instanceof StoreError) {
        // Fails closed: nothing went upstream uncounted.
        return json(503, { error: e.message, code: wireCode(e.code), requestId }, caller, { "retry-after": "5" });
      }
      if (e instanceof UpstreamError) {
        const extra: Record<string, string> = e.retryAfter ? { "retry-after": String(e.retryAfter) } : {};
        return json(e.status, { error: e.message, code: wireCode(e.code), requestId, ...e.extra }, caller, extra);
      }
      // Anything else is a bug here; the client learns only the request id.
      cfg.warn(`request ${requestId}: internal error: ${e instanceof Error ? e.name : "error"}`);
      return json(500, { error: "Internal proxy error", code: wireCode("INTERNAL"), requestId }, caller);
    }
  }

  return async (request, info = {}) => {
    const t0 = Date.now();
    const requestId = crypto.randomUUID();
    const res = await handle(request, info, requestId);
    if (cfg.log) {
      let path = "?";
      try {
        path = new URL(request.url).pathname.slice(0, 100);
      } catch {
        // keep "?"
      }
      cfg.log(`${request.method} ${path.replace(/[^\x21-\x7e]/g, "?")} ${res.status} ${Date.now() - t0}ms ${requestId}`);
    }
    return res;
  };
}
