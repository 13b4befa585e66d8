// The local relay of the control channel (`npx neuralcut relay`, `npm run demo -- --control`):
// one TCP listener on 127.0.0.1 that speaks two things, told apart by the first byte:
// - `{` ... : a client's JSON lines (`{id, method, params}` in, `{id, ok, result | error}` out);
// - anything else: HTTP, where the page's WebSocket (`ws://127.0.0.1:PORT/page?token=...`) comes in.
// Every request a client sends goes to the page and the page's answer comes back. The relay
// refuses: a bind other than loopback, a client without the token, a page without the token, a
// page from an origin not allowed, a Host header that is not loopback (DNS rebinding). It bounds
// what a connection without the token costs: a few KiB, a few seconds, a limited number of them.
// Two things do not come from a client's request: the page's change events, passed on to the
// clients that asked for them (relay.subscribe), and the files a client grants the page to fetch
// for engine.addAssets (./file-grants.ts), and the PNG of ui.screenshot {path}.
import { asNeuralCutError, NeuralCutError } from "../errors.js";
import { createFileGrants, GrantError } from "./file-grants.js";
import {
  AUTH_TIMEOUT_MS,
  BRIDGE_ERRORS,
  IDLE_MS,
  MAX_CONNECTIONS,
  MAX_MESSAGE_BYTES,
  MAX_UNAUTHENTICATED_BYTES,
  PAGE_EVENTS,
  PAGE_PATH,
  PAGE_TIMEOUT_MS,
  type BridgeReply,
  type BridgeRequest,
} from "./protocol.js";

// Built-in modules and `ws` go through a variable: the package compiles without Node's typings.
const load = (name: string): Promise<any> => import(name);

interface Socket {
  remoteAddress?: string;
  write(data: string | Uint8Array): boolean;
  end(data?: string): void;
  setTimeout(ms: number): void;
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
  /** Connections held at once, the page's included (default 64); one more is told so and closed. */
  maxConnections?: number;
  /** Bytes a client may send before its token (default 8 KiB). */
  maxUnauthenticatedBytes?: number;
  /** How long a client may take to send its token, the page to upgrade, an HTTP request to
   * arrive whole (default 10 s). */
  authTimeoutMs?: number;
  /** How long an authenticated client may stay silent (default 5 min). */
  idleMs?: number;
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
    throw new NeuralCutError(
      "INVALID_OPTIONS",
      `refusing to listen on ${host}: the control channel listens on 127.0.0.1 or ::1 only (anyone who can reach it can edit the page)`,
    );
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

/** Lines a client may send before its token: a reply to each stays a few KiB in all. */
const MAX_UNAUTHENTICATED_LINES = 8;

/** The fields of an engine.addAssets entry: media_import's asset, with the file's path. */
const ASSET_KEYS = ["path", "name", "type", "duration", "width", "height", "fps"];

/** JSON with object keys sorted: {numerator, denominator} in either order is the same fps. */
const canonical = (v: unknown): string =>
  isObject(v)
    ? `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
        .join(",")}}`
    : (JSON.stringify(v) ?? "undefined");

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A base64 PNG's bytes when they are a whole PNG (signature, IHDR first, IEND last) of
 * `width` × `height`; null otherwise. */
export function pngBytes(base64: string, width: unknown, height: unknown): Uint8Array | null {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  const view = new DataView(bytes.buffer);
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  const signature = [137, 80, 78, 71, 13, 10, 26, 10];
  if (bytes.length < 57 || signature.some((b, i) => bytes[i] !== b)) return null;
  if (view.getUint32(8) !== 13 || ascii(12) !== "IHDR" || view.getUint32(16) !== width || view.getUint32(20) !== height) return null;
  const end = bytes.length - 12;
  return view.getUint32(end) === 0 && ascii(end + 4) === "IEND" ? bytes : null;
}

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
  if (token.length < 16) throw new NeuralCutError("INVALID_OPTIONS", "the bridge token must be at least 16 characters");
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const maxUnauthenticated = options.maxUnauthenticatedBytes ?? MAX_UNAUTHENTICATED_BYTES;
  const authTimeoutMs = options.authTimeoutMs ?? AUTH_TIMEOUT_MS;
  const idleMs = options.idleMs ?? IDLE_MS;

  let page: PageSocket | null = null;
  let pageInfo: Record<string, unknown> | null = null;
  let pageOrigin: string | undefined;
  let nextId = 1;
  /** Requests sent to the page, by the relay's own id. */
  const pending = new Map<number, { done: (reply: BridgeReply) => void; timer: ReturnType<typeof setTimeout> }>();
  const clients = new Set<Socket>();
  /** Every connection, for maxConnections and close(). */
  const sockets = new Set<Socket>();
  /** Connections not yet authenticated, upgraded or holding a whole HTTP request: their deadline. */
  const deadlines = new Map<Socket, ReturnType<typeof setTimeout>>();
  const disarm = (socket: Socket) => {
    clearTimeout(deadlines.get(socket));
    deadlines.delete(socket);
  };
  const arm = (socket: Socket, expire: () => void) => {
    disarm(socket);
    deadlines.set(
      socket,
      setTimeout(() => {
        deadlines.delete(socket);
        expire();
      }, authTimeoutMs),
    );
  };
  /** Ends a connection after its last line, and drops it if the peer does not close its side. */
  const hangUp = (socket: Socket, line?: string) => {
    socket.end(line);
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.once("close", () => clearTimeout(timer));
  };
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
      if (page?.readyState !== 1) {
        done(
          errorReply(
            null,
            BRIDGE_ERRORS.NO_PAGE,
            "no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)",
          ),
        );
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
    // The seed's ui.screenshot {path}: the relay writes the PNG, the client gets its name.
    if (method === "ui.screenshot" && params.path !== undefined) return screenshotToFile(id, params);
    if (method === "engine.addAssets") return addAssets(id, params);
    const reply = await toPage(method, params);
    return { ...reply, id };
  }

  /** ui.screenshot {path, panel?}: the page's bytes go only into a new file (never over one,
   * never through a link) whose name ends in .png, and only when they are a whole PNG of the
   * size the page reports: a page cannot plant a script or a config file. */
  async function screenshotToFile(id: BridgeRequest["id"], params: Record<string, unknown>): Promise<BridgeReply> {
    const { path, ...rest } = params;
    if (typeof path !== "string" || !pathMod.isAbsolute(path) || !/\.png$/i.test(path)) {
      return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, "path must be an absolute file path ending in .png");
    }
    const reply = await toPage("ui.screenshot", rest);
    if (!reply.ok) return { ...reply, id };
    const shot = reply.result as { png?: unknown; width?: unknown; height?: unknown } | null;
    const bytes = isObject(shot) && typeof shot.png === "string" ? pngBytes(shot.png, shot.width, shot.height) : null;
    if (!bytes) return errorReply(id, BRIDGE_ERRORS.INTERNAL, "the page's screenshot is not a PNG of the size it reports: nothing was written");
    try {
      await fs.writeFile(path, bytes, { flag: "wx", mode: 0o600 });
    } catch (e) {
      const why = (e as { code?: string }).code === "EEXIST" ? "the file exists (the relay never overwrites one)" : (e as Error).message;
      return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `cannot write ${path}: ${why}`);
    }
    return { id, ok: true, result: { path, width: shot!.width, height: shot!.height } };
  }

  /** engine.addAssets {assets: [{path, name, type, ...}]}: the relay grants the page each file
   * under a one-time URL, the page fetches and adds them, and the grants end with its answer. */
  async function addAssets(id: BridgeRequest["id"], params: Record<string, unknown>): Promise<BridgeReply> {
    const { assets, ...rest } = params;
    if (Object.keys(rest).length)
      return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `unknown parameter "${Object.keys(rest)[0]}" for engine.addAssets; expected: assets`);
    if (!Array.isArray(assets) || assets.length === 0 || !assets.every(isObject)) {
      return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, "assets must be a non-empty array of {path, name?, type?, duration?, width?, height?, fps?}");
    }
    // The page fetches only what the relay serves: a client names files, never URLs.
    const withUrl = assets.findIndex((a) => a.url !== undefined || a.file !== undefined);
    if (withUrl !== -1) return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `assets[${withUrl}]: give path; the relay makes the URL`, { index: withUrl });
    for (const [index, a] of assets.entries()) {
      const extra = Object.keys(a).find((k) => !ASSET_KEYS.includes(k));
      if (extra)
        return errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, `assets[${index}]: unknown field "${extra}"; expected: ${ASSET_KEYS.join(", ")}`, { index });
    }
    // The origin the page's upgrade came from (checked there), never what its hello says.
    const origin = pageOrigin;
    if (!page || !origin)
      return errorReply(
        id,
        BRIDGE_ERRORS.NO_PAGE,
        "no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)",
      );
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
      // The page gets what media_import's prober read, never a name or type the client made up:
      // a field the client gives must say what the file is.
      const pageAssets = [];
      for (const [index, file] of granted.files.entries()) {
        const { format: _format, ...asset } = file.info as unknown as Record<string, unknown>;
        const wrong = Object.keys(assets[index]).find((k) => k !== "path" && canonical(assets[index][k]) !== canonical(asset[k]));
        if (wrong) {
          const is = asset[wrong] === undefined ? "has none" : `is ${JSON.stringify(asset[wrong])}`;
          return errorReply(
            id,
            BRIDGE_ERRORS.INVALID_PARAMS,
            `assets[${index}].${wrong} is ${JSON.stringify(assets[index][wrong])}, but the file's ${wrong} ${is}`,
            { index, path: file.path },
          );
        }
        pageAssets.push({ ...asset, url: file.url });
      }
      const reply = await toPage("engine.addAssets", { assets: pageAssets });
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
    /** Bytes and lines taken before the token (each line may cost a reply). */
    let unauthenticated = 0;
    let unauthenticatedLines = 0;
    let closed = false;
    const decoder = new TextDecoder();
    const send = (reply: BridgeReply) => {
      if (!closed) socket.write(`${JSON.stringify(reply)}\n`);
    };
    const close = (reply: BridgeReply, why: string) => {
      if (closed) return;
      send(reply);
      closed = true;
      hangUp(socket);
      log(`closed a client from ${socket.remoteAddress}: ${why}`);
    };
    const refuse = (id: BridgeReply["id"], error: string) => close(errorReply(id, BRIDGE_ERRORS.UNAUTHORIZED, error), error);
    arm(socket, () => close(errorReply(null, BRIDGE_ERRORS.UNAUTHORIZED, `no token within ${authTimeoutMs / 1000} s`), "no token in time"));
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
        return send(
          errorReply(id, BRIDGE_ERRORS.INVALID_REQUEST, 'a request is one JSON object per line: {"id": 1, "method": "engine.inspect", "params": {}}'),
        );
      }
      if (value.params !== undefined && !isObject(value.params)) return send(errorReply(id, BRIDGE_ERRORS.INVALID_PARAMS, "params must be a JSON object"));
      const given = value.method === "auth" ? (value.params as Record<string, unknown> | undefined)?.token : value.token;
      if (given !== undefined) {
        if (!sameToken(crypto, given, token)) return refuse(id, "wrong token: use the token the relay printed when it started");
        if (!authed) {
          authed = true;
          disarm(socket);
          // From now on only silence ends the connection.
          socket.setTimeout(idleMs);
          socket.on("timeout", () => close(errorReply(null, BRIDGE_ERRORS.IDLE_TIMEOUT, `closed: silent for ${idleMs / 1000} s`), "idle"));
        }
      }
      if (!authed) {
        return send(
          errorReply(
            id,
            BRIDGE_ERRORS.UNAUTHORIZED,
            'send the token first: {"id": 0, "method": "auth", "params": {"token": "..."}} (printed when the relay started), or add "token" to the request',
          ),
        );
      }
      if (value.method === "auth") return send({ id, ok: true, result: { authenticated: true, page: pageInfo, connected: Boolean(page) } });
      if (value.method === "relay.subscribe") return send(subscribe(socket, id, (value.params ?? {}) as Record<string, unknown>, send));
      const request: BridgeRequest = { id: id ?? 0, method: value.method, params: value.params as Record<string, unknown> | undefined };
      answer(request).then(
        (reply) => send({ ...reply, id }),
        (e) => send(errorReply(id, BRIDGE_ERRORS.INTERNAL, `internal error: ${(e as Error).message}`)),
      );
    };
    // Lines are cut at the newline byte (never inside a UTF-8 sequence); until the token, a
    // client's lines and its unfinished one together stay within maxUnauthenticated bytes.
    let parts: Uint8Array[] = [];
    let partBytes = 0;
    /** Whether a line of `size` bytes is past the bound (then the client is told and closed). */
    const overLimit = (size: number) => {
      if (authed ? size <= MAX_MESSAGE_BYTES : unauthenticated + size <= maxUnauthenticated) return false;
      if (authed) close(errorReply(null, BRIDGE_ERRORS.INVALID_REQUEST, `request longer than ${MAX_MESSAGE_BYTES} bytes`), "request too long");
      else close(errorReply(null, BRIDGE_ERRORS.UNAUTHORIZED, `send the token within the first ${maxUnauthenticated} bytes`), "too much before the token");
      return true;
    };
    socket.on("data", (chunk: Uint8Array) => {
      let start = 0;
      let nl: number;
      while (!closed && (nl = chunk.indexOf(10, start)) !== -1) {
        const tail = chunk.subarray(start, nl);
        const size = partBytes + tail.length;
        if (overLimit(size)) return;
        const whole = parts.length ? concat([...parts, tail], size) : tail;
        parts = [];
        partBytes = 0;
        start = nl + 1;
        if (!authed) unauthenticated += size + 1;
        if (!authed && ++unauthenticatedLines > MAX_UNAUTHENTICATED_LINES) {
          return close(
            errorReply(null, BRIDGE_ERRORS.UNAUTHORIZED, `send the token within the first ${MAX_UNAUTHENTICATED_LINES} lines`),
            "too many lines before the token",
          );
        }
        line(decoder.decode(whole).replace(/\r$/, ""));
      }
      if (closed || start === chunk.length) return;
      parts.push(chunk.subarray(start));
      partBytes += chunk.length - start;
      overLimit(partBytes);
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      parts = [];
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
    // A whole request arrived: the next one on this connection gets its own deadline.
    disarm(req.socket);
    res.once("finish", () => !req.socket.destroyed && arm(req.socket, () => req.socket.destroy()));
    if (grants.serve(req, res, (h) => hostAllowed(h, port))) return;
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("NeuralCut control channel: the page connects by WebSocket; clients send JSON lines.\n");
  });
  let port = 0;
  httpServer.on("upgrade", (req: any, socket: Socket, head: Uint8Array) => {
    const reject = (status: string, why: string) => {
      log(`refused a page connection from origin ${req.headers.origin ?? "(none)"}: ${why}`);
      hangUp(socket, `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${why}\n`);
    };
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== PAGE_PATH) return reject("404 Not Found", `the page connects to ${PAGE_PATH}`);
    if (!hostAllowed(req.headers.host, port)) return reject("403 Forbidden", "the Host header must name 127.0.0.1, localhost or [::1] and this port");
    if (!originAllowed(req.headers.origin, options.origins)) return reject("403 Forbidden", `origin ${req.headers.origin ?? "(none)"} is not allowed`);
    if (!sameToken(crypto, url.searchParams.get("token") ?? undefined, token)) return reject("401 Unauthorized", "wrong or missing token");
    wss.handleUpgrade(req, socket, head, (ws: PageSocket) => {
      disarm(socket);
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
            : errorReply(
                null,
                typeof msg.code === "string" ? msg.code : BRIDGE_ERRORS.INTERNAL,
                typeof msg.error === "string" ? msg.error : "the page failed",
                isObject(msg.details) ? msg.details : undefined,
              ),
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
    if (sockets.size >= maxConnections) {
      log(`refused a connection from ${socket.remoteAddress}: ${maxConnections} are open`);
      hangUp(
        socket,
        `${JSON.stringify(errorReply(null, BRIDGE_ERRORS.TOO_MANY_CONNECTIONS, `the relay holds ${maxConnections} connections; try again later`))}\n`,
      );
      return;
    }
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      disarm(socket);
    });
    // Silent connections that never say which protocol they speak.
    arm(socket, () => socket.destroy());
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
    server.once("error", (e: Error) => fail(asNeuralCutError(e, "LISTEN_FAILED", `the relay cannot listen on ${host}:${options.port ?? 0}: `)));
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
        for (const s of sockets) s.destroy();
        wss.close();
        server.close(() => done());
      }),
  };
}
