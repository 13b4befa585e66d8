// A control-channel client in Node: one TCP connection to the relay, JSON lines both ways, the
// token sent first. Used by `neuralcut mcp --bridge`; scripts may use it too.
import { type ErrorCode, errorCode, NeuralCutError } from "../errors.js";
import { BRIDGE_ERRORS, type BridgeReply } from "./protocol.js";

const load = (name: string): Promise<any> => import(name);

/** A failed control-channel call: the page's or the relay's message and stable code. */
export class BridgeCallError extends NeuralCutError {
  constructor(
    message: string,
    code: ErrorCode,
    readonly details?: Record<string, unknown>,
  ) {
    super(code, message);
    this.name = "BridgeCallError";
  }
}

export interface ControlClient {
  /** Sends one request; resolves to its result, rejects with BridgeCallError. */
  call(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Like call, but resolves to the whole reply. */
  request(method: string, params?: Record<string, unknown>): Promise<BridgeReply>;
  /** Calls `listener` with each event line the relay sends (after relay.subscribe). */
  onEvent(listener: (event: string, params: Record<string, unknown>) => void): () => void;
  close(): void;
}

/** "127.0.0.1:9876" (or "[::1]:9876", or a bare port) as host and port; throws on anything else. */
export function parseAddress(address: string): { host: string; port: number } {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(address.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port > 0 && port < 65536))
    throw new NeuralCutError("INVALID_OPTIONS", `expected host:port (e.g. 127.0.0.1:9876), got ${JSON.stringify(address)}`);
  return { host: (m[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}

/** Connects and authenticates; rejects when the relay cannot be reached or refuses the token.
 * `keepAliveMs` (default 60 s): how often an otherwise silent client asks relay.status, so the
 * relay's idle limit (5 min) never closes a session that waits on its user. */
export async function connectControl(options: { host?: string; port: number; token: string; keepAliveMs?: number }): Promise<ControlClient> {
  const net = await load("node:net");
  const socket = net.connect({ host: options.host ?? "127.0.0.1", port: options.port });
  socket.setNoDelay(true);
  let nextId = 1;
  const waiting = new Map<number, (reply: BridgeReply) => void>();
  const listeners = new Set<(event: string, params: Record<string, unknown>) => void>();
  let buffered = "";
  let gone: string | null = null;
  /** No request since the last keep-alive tick. */
  let quiet = true;
  const decoder = new TextDecoder();
  socket.on("data", (chunk: Uint8Array) => {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let reply: BridgeReply;
      try {
        reply = JSON.parse(line);
      } catch {
        continue;
      }
      const event = reply as unknown as { event?: unknown; params?: unknown };
      if (typeof event.event === "string") {
        const params = typeof event.params === "object" && event.params !== null ? (event.params as Record<string, unknown>) : {};
        for (const listener of listeners) listener(event.event, params);
        continue;
      }
      const done = typeof reply.id === "number" ? waiting.get(reply.id) : undefined;
      if (done) {
        waiting.delete(reply.id as number);
        done(reply);
      }
    }
  });
  const lost = (why: string) => {
    gone ??= why;
    for (const [id, done] of waiting) {
      waiting.delete(id);
      done({ id, ok: false, error: `the control channel closed: ${gone}`, code: BRIDGE_ERRORS.NO_PAGE });
    }
  };
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  socket.on("close", () => {
    clearInterval(keepAlive);
    lost("the relay closed the connection");
  });
  const connected = new Promise<void>((done, fail) => {
    socket.once("connect", () => done());
    socket.once("error", (e: Error) => {
      lost(e.message);
      fail(new NeuralCutError("UNREACHABLE", `cannot reach the control channel at ${options.host ?? "127.0.0.1"}:${options.port}: ${e.message}`));
    });
  });
  await connected;
  socket.on("error", (e: Error) => lost(e.message));

  const request = (method: string, params: Record<string, unknown> = {}): Promise<BridgeReply> =>
    new Promise((done) => {
      const id = nextId++;
      if (gone) return done({ id, ok: false, error: `the control channel closed: ${gone}`, code: BRIDGE_ERRORS.NO_PAGE });
      waiting.set(id, done);
      quiet = false;
      socket.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  const call = async (method: string, params?: Record<string, unknown>) => {
    const reply = await request(method, params);
    if (reply.ok) return reply.result;
    // A code outside ERROR_CODES (a relay of another version) is INTERNAL; the message stays.
    throw new BridgeCallError(reply.error, errorCode(reply.code, "INTERNAL"), reply.details);
  };
  await call("auth", { token: options.token });
  keepAlive = setInterval(() => {
    if (quiet) void request("relay.status");
    quiet = true;
  }, options.keepAliveMs ?? 60_000);
  (keepAlive as { unref?: () => void }).unref?.();
  const onEvent = (listener: (event: string, params: Record<string, unknown>) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    call,
    request,
    onEvent,
    close: () => {
      clearInterval(keepAlive);
      socket.end();
    },
  };
}
