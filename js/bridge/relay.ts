// The local relay of the control channel (`npx neuralcut relay`, `npm run demo -- --control`):
// one TCP listener on 127.0.0.1 that speaks two things, told apart by the first byte:
// - `{` ... : a client's JSON lines (`{id, method, params}` in, `{id, ok, result | error}` out);
// - anything else: HTTP, where the page's WebSocket (`ws://127.0.0.1:PORT/page?token=...`) comes in.
// Every request a client sends goes to the page and the page's answer comes back. The relay
// refuses: a bind other than loopback, a client without the token, a page without the token, a
// page from an origin not allowed, a Host header that is not loopback (DNS rebinding).
// Two things do not come from a client's request: the page's change events, passed on to the
// clients that asked for them (relay.subscribe), and the files a client grants the page to fetch
// for engine.addAssets (./file-grants.ts).
import { createFileGrants, GrantError } from "./file-grants.js";
import { BRIDGE_ERRORS, MAX_MESSAGE_BYTES, PAGE_EVENTS, PAGE_PATH, PAGE_TIMEOUT_MS, type BridgeReply, type BridgeRequest } from "./protocol.js";

// Built-in modules and `ws` go through a variable: the package compiles without Node's typings.
const load = (name: string): Promise<any> => import(name);

interface Socket {
  remoteAddress?: string;
  write(data: string | Uint8Array): boolean;
  end(data?: string): void;
  destroy(): void;
  pause(): void;
  resume(): void;
  unshift(chunk: Uint8Array): void;
  setNoDelay?(on: boolean): void;
  on(event: string, cb: (...args: any[]) => void): unknown;
  once(event: string, cb: (...args: any[]) => void): unknown;
  destroyed?: boolean;
}

interface PageSocket {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: string, cb: (...args: any[]) => void): unknown;
}

export interface RelayOptions {
  /** Port to listen on (0: a free one). */
  port?: number;
  /** 127.0.0.1 (default), ::1 or localhost; anything else is refused. */
  host?: string;
  /** The token clients and the page must present (default: 32 random bytes, base64url). */
  token?: string;
  /** Origins whose pages may connect (exact `scheme://host:port`). Default: any loopback origin
   * (http://127.0.0.1:*, http://localhost:*, http://[::1]:*). */
  origins?: string[];
  /** One line per connection, refusal and page change. */
  log?: (line: string) => void;
  /** How long a request waits for the page (default 30 s). */
  timeoutMs?: number;
  /** How long a file granted for engine.addAssets may be fetched at most (default 60 s). */
  grantMs?: number;
}

export interface Relay {
  host: string;
  port: number;
  token: string;
  /** Where the page's WebSocket connects (without the token). */
  pageUrl: string;
  /** The connected page, if any: what it said in its hello. */
  page(): Record<string, unknown> | null;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

/** Whether `host` is a loopback name the relay may bind or be addressed as. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/** The bind address for `host`, or an Error saying why it is refused. */
export function bindAddress(host: string): string {
  if (!isLoopbackHost(host)) {
    throw new Error(`refusing to listen on ${host}: the control channel listens on 127.0.0.1 or ::1 only (anyone who can reach it can edit the page)`);
  }
  return host === "localhost" ? "127.0.0.1" : host.replace(/^\[|\]$/g, "");
}

/** Whether a page from `origin` may connect. */
export function originAllowed(origin: string | undefined, allowed: readonly string[] | undefined): boolean {
  if (!origin) return false;
  if (allowed) return allowed.includes(origin);
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** A Host header naming this relay on loopback. */
function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  return Boolean(m && isLoopbackHost(m[1]) && (m[2] === undefined ? port === 80 : Number(m[2]) === port));
}

/** Constant-time comparison of two tokens. */
function sameToken(crypto: any, given: unknown, token: string): boolean {
  if (typeof given !== "string") return false;
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function errorReply(id: BridgeReply["id"], code: string, error: string, details?: Record<string, unknown>): BridgeReply {
  return { id, ok: false, error, code, ...(details ? { details } : {}) };
}

/** Starts the relay; resolves once it listens. */
export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const host = bindAddress(options.host ?? "127.0.0.1");
  const net = await load("node:net");
  const http = await load("node:http");
  const crypto = await load("node:crypto");
  const fs = await load("node:fs/promises");
  const pathMod = await load("node:path");
  const { WebSocketServer } = await load("ws");
  const token = options.token ?? crypto.randomBytes(32).toString("base64url");
  if (token.length < 16) throw new Error("the bridge token must be at least 16 characters");
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;

  let page: PageSocket | null = null;
  let pageInfo: Record<string, unknown> | null = null;
  let pageOrigin: string | undefined;
  let nextId = 1;
  /** Requests sent to the page, by the relay's own id. */
  const pending = new Map<number, { done: (reply: BridgeReply) => void; timer: ReturnType<typeof setTimeout> }>();
  const clients = new Set<Socket>();
  /** Clients that asked for the page's events (relay.subscribe), with how to send them one. */
  const listeners = new Map<Socket, (line: Record<string, unknown>) => void>();
  const grants = await createFileGrants();

  function failPending(code: string, error: string): void {
    for (const [id, p] of pending) {
      pending.delete(id);
      clearTimeout(p.timer);
      p.done(errorReply(null, code, error));
    }
  }

  /** Sends one request to the page; resolves to its reply (id not yet mapped back). */
  function toPage(method: string, params: Record<string, unknown>): Promise<BridgeReply> {
    return new Promise((done) => {
      if (!page || page.readyState !== 1) {
        done(errorReply(null, BRIDGE_ERRORS.NO_PAGE, "no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)"));
        return;
      }
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        done(errorReply(null, BRIDGE_ERRORS.PAGE_TIMEOUT, `the page did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      pending.set(id, { done, timer });
      page.send(JSON.stringify({ id, method, params }));
    });
  }

  async function answer(request: BridgeRequest): Promise<BridgeReply> {
    const { id, method } = request;
    const params = request.params ?? {};
    if (method === "relay.status") return { id, ok: true, result: { page: pageInfo, connected: Boolean(page) } };
    // The seed's ui.screenshot {path}: the relay writes the file, the client gets its name.
    if (method === "ui.screenshot" && params.path !== undefined) {
      const path = params.path;
      if (typeof path !== "string" || !pathMod.isAbsolute(path)) return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, "path must be an absolute file path");
      const { path: _omit, ...rest } = params;
      const reply = await toPage(method, rest);
      if (!reply.ok) return { ...reply, id };
      const shot = reply.result as { png: string; width: number; height: number };
      try {
        await fs.writeFile(path, Uint8Array.from(atob(shot.png), (c) => c.charCodeAt(0)));
      } catch (e) {
        return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `cannot write ${path}: ${(e as Error).message}`);
      }
      return { id, ok: true, result: { path, width: shot.width, height: shot.height } };
    }
    if (method === "engine.addAssets") return addAssets(id, params);
    const reply = await toPage(method, params);
    return { ...reply, id };
  }

  /** engine.addAssets {assets: [{path, name, type, ...}]}: the relay grants the page each file
   * under a one-time URL, the page fetches and adds them, and the grants end with its answer. */
  async function addAssets(id: BridgeRequest["id"], params: Record<string, unknown>): Promise<BridgeReply> {
    const { assets, ...rest } = params;
    if (Object.keys(rest).length) return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `unknown parameter "${Object.keys(rest)[0]}" for engine.addAssets; expected: assets`);
    if (!Array.isArray(assets) || assets.length === 0 || !assets.every(isObject)) {
      return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, "assets must be a non-empty array of {path, name, type, duration?, width?, height?, fps?}");
    }
    // The page fetches only what the relay serves: a client names files, never URLs.
    const withUrl = assets.findIndex((a) => a.url !== undefined || a.file !== undefined);
    if (withUrl !== -1) return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `assets[${withUrl}]: give path; the relay makes the URL`, { index: withUrl });
    // The origin the page's upgrade came from (checked there), never what its hello says.
    const origin = pageOrigin;
    if (!page || !origin) return errorReply(id, BRIDGE_ERRORS.NO_PAGE, "no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)");
    let granted;
    try {
      granted = await grants.grant(
        assets.map((a) => a.path as string),
        origin,
        `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        options.grantMs,
      );
    } catch (e) {
      if (e instanceof GrantError) return errorReply(id, e.code, e.message, { index: e.index, path: assets[e.index].path });
      throw e;
    }
    try {
      const reply = await toPage("engine.addAssets", {
        assets: assets.map(({ path, ...meta }, i) => ({ name: pathMod.basename(path as string), ...meta, url: granted.files[i].url })),
      });
      return { ...reply, id };
    } finally {
      granted.revoke();
    }
  }

  // ---- clients: JSON lines ----
  function serveClient(socket: Socket): void {
    clients.add(socket);
    socket.setNoDelay?.(true);
    let authed = false;
    let buffered = "";
    let closed = false;
    const decoder = new TextDecoder();
    const send = (reply: BridgeReply) => {
      if (!closed) socket.write(`${JSON.stringify(reply)}\n`);
    };
    const refuse = (id: BridgeReply["id"], error: string) => {
      send(errorReply(id, BRIDGE_ERRORS.UNAUTHORIZED, error));
      closed = true;
      socket.end();
      log(`refused a client from ${socket.remoteAddress}: ${error}`);
    };
    const line = (text: string) => {
      if (closed || text.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        return send(errorReply(null, BRIDGE_ERRORS.INVALID_REQUEST, `parse error: ${(e as Error).message}`));
      }
      const id = isObject(value) && (typeof value.id === "string" || typeof value.id === "number") ? value.id : null;
      if (!isObject(value) || typeof value.method !== "string") {
        return send(errorReply(id, BRIDGE_ERRORS.INVALID_REQUEST, 'a request is one JSON object per line: {"id": 1, "method": "engine.inspect", "params": {}}'));
      }
      if (value.params !== undefined && !isObject(value.params)) return send(errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, "params must be a JSON object"));
      const given = value.method === "auth" ? (value.params as Record<string, unknown> | undefined)?.token : value.token;
      if (given !== undefined) {
        if (!sameToken(crypto, given, token)) return refuse(id, "wrong token: use the token the relay printed when it started");
        authed = true;
      }
      if (!authed) {
        return send(errorReply(id, BRIDGE_ERRORS.UNAUTHORIZED, 'send the token first: {"id": 0, "method": "auth", "params": {"token": "..."}} (printed when the relay started), or add "token" to the request'));
      }
      if (value.method === "auth") return send({ id, ok: true, result: { authenticated: true, page: pageInfo, connected: Boolean(page) } });
      if (value.method === "relay.subscribe") return send(subscribe(socket, id, (value.params ?? {}) as Record<string, unknown>, send));
      const request: BridgeRequest = { id: id ?? 0, method: value.method, params: value.params as Record<string, unknown> | undefined };
      answer(request).then(
        (reply) => send({ ...reply, id }),
        (e) => send(errorReply(id, BRIDGE_ERRORS.INTERNAL, `internal error: ${(e as Error).message}`)),
      );
    };
    socket.on("data", (chunk: Uint8Array) => {
      buffered += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf("\n")) !== -1) {
        const text = buffered.slice(0, nl).replace(/\r$/, "");
        buffered = buffered.slice(nl + 1);
        line(text);
      }
      if (buffered.length > MAX_MESSAGE_BYTES) {
        send(errorReply(null, BRIDGE_ERRORS.INVALID_REQUEST, `request longer than ${MAX_MESSAGE_BYTES} bytes`));
        closed = true;
        socket.end();
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      clients.delete(socket);
      listeners.delete(socket);
    });
  }

  /** relay.subscribe {events}: the client gets the page's events as lines without an id,
   * `{"event": "engine.changed", "params": {revision, canUndo, canRedo}}`. Opt-in, so a client
   * that matches every line to a request never sees one. */
  function subscribe(socket: Socket, id: BridgeReply["id"], params: Record<string, unknown>, send: (line: any) => void): BridgeReply {
    const events = params.events ?? [...PAGE_EVENTS];
    const extra = Object.keys(params).find((k) => k !== "events");
    if (extra) return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `unknown parameter "${extra}" for relay.subscribe; expected: events`);
    if (!Array.isArray(events) || events.some((e) => !(PAGE_EVENTS as readonly unknown[]).includes(e))) {
      return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `events must be a list of: ${PAGE_EVENTS.join(", ")}`);
    }
    if (events.length) listeners.set(socket, send);
    else listeners.delete(socket);
    return { id, ok: true, result: { events } };
  }

  // ---- the page: a WebSocket over HTTP ----
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const httpServer = http.createServer((req: any, res: any) => {
    if (grants.serve(req, res, (h) => hostAllowed(h, port))) return;
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("NeuralCut control channel: the page connects by WebSocket; clients send JSON lines.\n");
  });
  let port = 0;
  httpServer.on("upgrade", (req: any, socket: Socket, head: Uint8Array) => {
    const reject = (status: string, why: string) => {
      log(`refused a page connection from origin ${req.headers.origin ?? "(none)"}: ${why}`);
      socket.end(`HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${why}\n`);
    };
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== PAGE_PATH) return reject("404 Not Found", `the page connects to ${PAGE_PATH}`);
    if (!hostAllowed(req.headers.host, port)) return reject("403 Forbidden", "the Host header must name 127.0.0.1, localhost or [::1] and this port");
    if (!originAllowed(req.headers.origin, options.origins)) return reject("403 Forbidden", `origin ${req.headers.origin ?? "(none)"} is not allowed`);
    if (!sameToken(crypto, url.searchParams.get("token") ?? undefined, token)) return reject("401 Unauthorized", "wrong or missing token");
    wss.handleUpgrade(req, socket, head, (ws: PageSocket) => {
      if (page) {
        failPending(BRIDGE_ERRORS.PAGE_TIMEOUT, "another page took over the control channel before this one answered");
        page.close(4000, "another page took over the control channel");
      }
      page = ws;
      pageOrigin = req.headers.origin;
      pageInfo = { origin: req.headers.origin };
      log(`page connected from ${req.headers.origin}`);
      ws.on("message", (data: Uint8Array, isBinary: boolean) => {
        if (isBinary) return;
        let msg: unknown;
        try {
          msg = JSON.parse(new TextDecoder().decode(data));
        } catch {
          return;
        }
        if (!isObject(msg)) return;
        if (msg.event === "hello" && ws === page) {
          pageInfo = { ...(isObject(msg.page) ? msg.page : {}), origin: req.headers.origin };
          return;
        }
        if (msg.event === "changed" && ws === page) {
          const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
          const line = { event: "engine.changed", params: { revision: n(msg.revision), canUndo: msg.canUndo === true, canRedo: msg.canRedo === true } };
          for (const send of listeners.values()) send(line);
          return;
        }
        const p = typeof msg.id === "number" ? pending.get(msg.id) : undefined;
        if (!p) return;
        pending.delete(msg.id as number);
        clearTimeout(p.timer);
        p.done(
          msg.ok === true
            ? { id: null, ok: true, result: msg.result ?? null }
            : errorReply(null, typeof msg.code === "string" ? msg.code : BRIDGE_ERRORS.INTERNAL, typeof msg.error === "string" ? msg.error : "the page failed", isObject(msg.details) ? msg.details : undefined),
        );
      });
      ws.on("close", () => {
        if (page !== ws) return;
        page = null;
        pageInfo = null;
        pageOrigin = undefined;
        failPending(BRIDGE_ERRORS.PAGE_TIMEOUT, "the page closed before it answered");
        log("page disconnected");
      });
      ws.on("error", () => {});
    });
  });

  const server = net.createServer((socket: Socket) => {
    socket.on("error", () => {});
    socket.once("data", (chunk: Uint8Array) => {
      // JSON lines start with "{" (after optional whitespace); HTTP with a method name.
      const first = new TextDecoder().decode(chunk.subarray(0, 64)).trimStart()[0];
      socket.pause();
      socket.unshift(chunk);
      if (first === "{") serveClient(socket);
      else httpServer.emit("connection", socket);
      socket.resume();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 0, host, () => done());
  });
  port = server.address().port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    host,
    port,
    token,
    pageUrl: `ws://${shownHost}:${port}${PAGE_PATH}`,
    page: () => pageInfo,
    close: () =>
      new Promise<void>((done) => {
        failPending(BRIDGE_ERRORS.PAGE_TIMEOUT, "the relay stopped");
        grants.clear();
        page?.terminate();
        for (const c of clients) c.destroy();
        wss.close();
        server.close(() => done());
      }),
  };
}
