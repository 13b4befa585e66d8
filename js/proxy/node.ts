// Running the proxy on Node's own HTTP server: the standalone `npm run proxy` and any Node host
// without a framework. The package compiles without Node's typings, so the few Node shapes used
// here are declared structurally and the built-in modules are imported at run time.

import { asNeuralCutError, NeuralCutError } from "../errors.js";
import { wireCode } from "./errors.js";
import { DEFAULT_LIMITS, createGeminiProxy, type GeminiProxyHandler, type GeminiProxyOptions } from "./index.js";

/** The parts of `http.IncomingMessage` used here. */
export interface NodeRequestLike extends AsyncIterable<Uint8Array> {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string };
  complete?: boolean;
  resume(): unknown;
}

/** The parts of `http.ServerResponse` used here. */
export interface NodeResponseLike {
  statusCode: number;
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  write(chunk: Uint8Array): unknown;
  end(data?: string): unknown;
  writableFinished?: boolean;
  on?(event: "close", cb: () => void): unknown;
}

interface NodeServer {
  listen(port: number, host: string, cb: () => void): unknown;
  once(event: "error", cb: (e: Error) => void): unknown;
  address(): { address: string; family: string; port: number } | string | null;
  close(cb: () => void): unknown;
  closeAllConnections?(): void;
}

// Built-in module names go through a variable so the type checker does not look for typings.
const builtin = (name: string): Promise<any> => import(`node:${name}`);

/** Wraps a Node request body as a web ReadableStream, pulled as the handler reads. */
function bodyStream(req: NodeRequestLike): ReadableStream<Uint8Array> {
  const it = req[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await it.next();
        if (done) controller.close();
        else controller.enqueue(typeof value === "string" ? new TextEncoder().encode(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      } catch (e) {
        controller.error(e);
      }
    },
    // Nothing is destroyed here: the answer (a 413, a 408) must still reach the client. The
    // listener closes the connection after answering a request whose body was not read.
    cancel() {},
  });
}

/** Adapts a fetch-style handler to `http.createServer`. The request body is streamed, not buffered. */
export function toNodeListener(handler: GeminiProxyHandler): (req: NodeRequestLike, res: NodeResponseLike) => void {
  return (req, res) => {
    const rawHost = req.headers.host;
    const host = typeof rawHost === "string" && /^[A-Za-z0-9.:[\]-]+$/.test(rawHost) ? rawHost : "localhost";
    let url: URL;
    try {
      url = new URL(req.url ?? "/", `http://${host}`);
    } catch {
      url = new URL("http://localhost/");
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) headers.append(k, item);
      else headers.set(k, v);
    }
    const method = req.method ?? "GET";
    const hasBody = method !== "GET" && method !== "HEAD";
    // The client hanging up aborts the request's signal, and with it the upstream call.
    const gone = new AbortController();
    res.on?.("close", () => {
      if (!res.writableFinished) gone.abort();
    });
    const request = new Request(url, {
      method,
      headers,
      signal: gone.signal,
      body: hasBody ? bodyStream(req) : undefined,
      // Node's fetch needs this for a streamed request body.
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    handler(request, { clientAddress: req.socket.remoteAddress })
      .then(async (response) => {
        res.statusCode = response.status;
        response.headers.forEach((value, key) => res.setHeader(key, value));
        // A body left unread (refused, stalled) is not waited for: Node closes the connection
        // once the answer is out, so a stalled client holds no socket.
        if (!req.complete) res.setHeader("connection", "close");
        if (response.body) {
          const reader = response.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            res.write(value);
          }
        }
        res.end();
        // Whatever of the request the handler did not read is drained and dropped.
        if (!req.complete) req.resume();
      })
      .catch(() => {
        if (!res.headersSent) {
          res.statusCode = 500;
          res.setHeader("content-type", "application/json");
        }
        res.end(JSON.stringify({ error: "Internal proxy error", code: wireCode("INTERNAL") }));
      });
  };
}

export interface ServeOptions extends GeminiProxyOptions {
  /** 127.0.0.1 unless told otherwise. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Time a client has to send the request headers, in ms. 20 000. */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, headers and body, in ms: the outer bound of
   * every connection's request. Twice what the largest upload takes at the minimum rate
   * (maxUploadBytes / uploadMinBytesPerSecond) plus a minute; the proxy's own body deadline,
   * upload idle timeout and minimum rate cut slow clients long before. */
  requestTimeoutMs?: number;
  /** An idle kept-alive connection is closed after this, in ms. 5 000. */
  keepAliveTimeoutMs?: number;
  /** How often Node checks the header and request timeouts, in ms. 5 000 (Node's default: 30 000). */
  timeoutCheckIntervalMs?: number;
}

export interface RunningProxy {
  /** The proxy's root URL (`http://127.0.0.1:8787/` plus the basePath): what `createAgent` takes as proxyUrl. */
  url: string;
  close(): Promise<void>;
}

function ms(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value))
    throw new NeuralCutError("INVALID_OPTIONS", `serveGeminiProxy: ${name} must be a positive number of milliseconds`);
  return Math.ceil(value);
}

/** Starts the proxy on a Node HTTP server. */
export async function serveGeminiProxy(options: ServeOptions): Promise<RunningProxy> {
  const { host = "127.0.0.1", port = 0, headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, timeoutCheckIntervalMs, ...proxyOptions } = options;
  const handler = createGeminiProxy(proxyOptions);
  const limits = { ...DEFAULT_LIMITS, ...proxyOptions.limits };
  const headersTimeout = ms(headersTimeoutMs, 20_000, "headersTimeoutMs");
  const slowestUpload = Math.ceil((limits.maxUploadBytes / limits.uploadMinBytesPerSecond) * 1000);
  const requestTimeout = Math.max(headersTimeout, ms(requestTimeoutMs, 2 * slowestUpload + 60_000, "requestTimeoutMs"));
  const http = await builtin("http");
  // Every connection is bounded: headers, the whole request, and idle time between requests.
  const server: NodeServer = http.createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: ms(keepAliveTimeoutMs, 5_000, "keepAliveTimeoutMs"),
      connectionsCheckingInterval: ms(timeoutCheckIntervalMs, 5_000, "timeoutCheckIntervalMs"),
    },
    toNodeListener(handler),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e) => reject(asNeuralCutError(e, "LISTEN_FAILED", `serveGeminiProxy: cannot listen on ${host}:${port}: `)));
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  if (!addr || typeof addr === "string") throw new NeuralCutError("INTERNAL", "the proxy server has no TCP address");
  const shownHost = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  const base = (proxyOptions.basePath ?? "").replace(/\/+$/, "");
  return {
    url: `http://${shownHost}:${addr.port}${base}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
