// The control channel's wire format, shared by the page side (neuralcut/bridge), the local relay
// and the clients (`neuralcut mcp --bridge`, plain TCP scripts). One JSON object per line:
//   request  {"id": 1, "method": "engine.call", "params": {...}, "token"?: "..."}
//   reply    {"id": 1, "ok": true, "result": {...}}  or  {"id": 1, "ok": false, "error": "...", "code": "..."}
//   event    {"event": "engine.changed", "params": {...}}  (only to clients that sent relay.subscribe)
// The page speaks the same objects over its WebSocket, one per message.

/** Methods the page answers. */
export const ENGINE_METHODS = [
  "engine.tools",
  "engine.call",
  "engine.undo",
  "engine.redo",
  "engine.inspect",
  "engine.render_preview",
  "engine.addAssets",
  "engine.measure",
] as const;
export const UI_METHODS = ["ui.inspect", "ui.elements", "ui.click", "ui.drag", "ui.key", "ui.type", "ui.screenshot", "ui.set"] as const;
/** Methods the relay answers itself. */
export const RELAY_METHODS = ["auth", "relay.status", "relay.subscribe"] as const;
/** Events the relay passes from the page to subscribed clients, as lines without an id:
 * `{"event": "engine.changed", "params": {revision, canUndo, canRedo}}` after every change of the
 * page's project (a tool call, a gesture, undo or redo in the page). */
export const PAGE_EVENTS = ["engine.changed"] as const;

/** Stable codes of the channel's own errors (a tool's failure keeps the tool's code). */
export const BRIDGE_ERRORS = {
  /** No token yet, a wrong one, none within authTimeoutMs, or too much sent before it. */
  UNAUTHORIZED: "UNAUTHORIZED",
  /** No page is connected to the relay. */
  NO_PAGE: "NO_PAGE",
  /** The page went away or did not answer in time. */
  PAGE_TIMEOUT: "PAGE_TIMEOUT",
  /** This client was silent past idleMs and was closed: connect again. */
  IDLE_TIMEOUT: "IDLE_TIMEOUT",
  UNKNOWN_METHOD: "UNKNOWN_METHOD",
  INVALID_REQUEST: "INVALID_REQUEST",
  INVALID_PARAMS: "INVALID_PARAMS",
  /** ui.*: no element with that automation id (or none at that point). */
  NO_ELEMENT: "NO_ELEMENT",
  /** The relay holds as many connections as it allows (RelayOptions.maxConnections). */
  TOO_MANY_CONNECTIONS: "TOO_MANY_CONNECTIONS",
  /** The page has no UI adapter for this method. */
  UNSUPPORTED: "UNSUPPORTED",
  INTERNAL: "INTERNAL",
} as const;

export type BridgeErrorCode = (typeof BRIDGE_ERRORS)[keyof typeof BRIDGE_ERRORS];

export interface BridgeRequest {
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
  token?: string;
}

export type BridgeReply =
  | { id: string | number | null; ok: true; result: unknown }
  | { id: string | number | null; ok: false; error: string; code: string; details?: Record<string, unknown> };

/** How long the relay waits for the page's answer (a screenshot of a large page takes a while). */
export const PAGE_TIMEOUT_MS = 30_000;
/** The longest request line or page message accepted. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** What a client may send before it has authenticated: the auth line fits many times over. */
export const MAX_UNAUTHENTICATED_BYTES = 8 * 1024;
/** How long a connection may take to authenticate (or, for HTTP, to send a whole request). */
export const AUTH_TIMEOUT_MS = 10_000;
/** How long an authenticated client may stay silent (connectControl pings well within it). */
export const IDLE_MS = 5 * 60_000;
/** Connections the relay holds at once: clients, the page and its file fetches. */
export const MAX_CONNECTIONS = 64;
/** The path the page's WebSocket connects to. */
export const PAGE_PATH = "/page";
/** The environment variable that carries the token to clients. */
export const TOKEN_ENV = "NEURALCUT_BRIDGE_TOKEN";
