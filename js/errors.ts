/**
 * The one error family of the package: every error it throws is a NeuralCutError (or a subclass
 * that adds fields), and `code` is a stable SCREAMING_SNAKE string. Tool failures are returned as
 * values, never thrown.
 *
 * Codes by layer (docs/errors.md lists each with its meaning):
 * - engine API: INVALID_ASSET, INVALID_STICKER, DUPLICATE_ID, INVALID_JSON, INVALID_PROJECT,
 *   UNSUPPORTED_PROJECT, INVALID_PROVIDER, INVALID_EFFECTS, NO_ACTIVE_PROJECT, EDITOR_DISPOSED,
 *   and INTERNAL for a panic inside the engine (the editor has been rebuilt at its last committed
 *   state; docs/mcp.md);
 * - agent (AgentError): PROXY, EMPTY_RESPONSE, MALFORMED_CALL, TOO_LARGE, BUSY;
 * - uploads (UploadRefusedError): UPLOAD_DECLINED, UPLOADS_NOT_ALLOWED; HISTORY_TOO_LARGE;
 * - proxy client (ProxyError): the proxy's own code upper-cased (RATE_LIMITED, MODEL_NOT_ALLOWED,
 *   ORIGIN_REFUSED, ...), HTTP_<status> when it names none, UNREACHABLE;
 * - media probing (MediaProbeError): MEDIA_UNREADABLE.
 */
export class NeuralCutError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NeuralCutError";
    this.code = code;
  }
}

/** Rethrows an error from the wasm boundary (an Error carrying `code`) as a NeuralCutError. */
export function rethrow(e: unknown): never {
  if (e instanceof Error && typeof (e as { code?: unknown }).code === "string") {
    throw new NeuralCutError((e as Error & { code: string }).code, e.message, { cause: e });
  }
  throw e;
}

/** A wire code (`rate_limited`, `http_502`) in the family's casing (`RATE_LIMITED`, `HTTP_502`). */
export function errorCode(wire: string): string {
  return wire.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase();
}
