// The three ways a proxy request fails, each turned into one JSON answer by the routes: the
// request was refused (4xx, said plainly), a budget ran out (429 with Retry-After), or Gemini
// failed (the client sees a safe message; the detail goes to the server log). Each is a
// NeuralCutError whose code the answer carries lower-cased (`wireCode`).
import { type ErrorCode, NeuralCutError } from "../errors.js";

/** Status code for a request whose client went away: no one reads the answer. */
export const CLIENT_GONE = 499;

/** A code as the proxy's answers spell it: `TOO_MANY_TURNS` is sent as `too_many_turns`. */
export const wireCode = (code: ErrorCode): string => code.toLowerCase();

/** The request itself is refused. `message` is safe to show and names what to change. */
export class RequestError extends NeuralCutError {
  constructor(
    readonly status: number,
    message: string,
    code: ErrorCode = codeFor(status),
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code, message);
    this.name = "RequestError";
  }
}

/** A budget is spent. The answer says which and when it resets. */
export class BudgetError extends NeuralCutError {
  constructor(
    /** The budget's option name, e.g. `requestsPerMinute`. */
    readonly budget: string,
    /** "user" or "global". */
    readonly scope: "user" | "global",
    readonly limit: number,
    /** When the budget resets, in milliseconds since the epoch. */
    readonly resetAt: number,
  ) {
    super("RATE_LIMITED", `The ${scope === "user" ? "per-user" : "global"} budget ${budget} (${limit}) is spent until ${new Date(resetAt).toISOString()}`);
    this.name = "BudgetError";
  }
}

/**
 * The budget store cannot count (down, or full): the request is refused before it costs anything
 * (503). `code` is `STORE_UNAVAILABLE` or `STORE_FULL`.
 */
export class StoreError extends NeuralCutError {
  constructor(code: "STORE_UNAVAILABLE" | "STORE_FULL", message: string) {
    super(code, message);
    this.name = "StoreError";
  }
}

/**
 * Gemini failed or answered something unusable (`UPSTREAM_ERROR`; `CANCELLED` when the client
 * went away). Only `message` and `extra` reach the client.
 */
export class UpstreamError extends NeuralCutError {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** For the server log only: never sent to the client. */
    readonly logDetail?: string,
    /** Seconds to wait, when Gemini said (429). */
    readonly retryAfter?: number,
  ) {
    super(status === CLIENT_GONE ? "CANCELLED" : "UPSTREAM_ERROR", message);
    this.name = "UpstreamError";
  }
  /** Gemini answered with an error status (so it billed nothing), as opposed to no answer at all. */
  answered = false;
}

function codeFor(status: number): ErrorCode {
  switch (status) {
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 408:
      return "TIMEOUT";
    case 410:
      return "GONE";
    case 411:
      return "LENGTH_REQUIRED";
    case 413:
      return "TOO_LARGE";
    case 415:
      return "UNSUPPORTED_MEDIA_TYPE";
    default:
      return "BAD_REQUEST";
  }
}
