// The three ways a proxy request fails, each turned into one JSON answer by the routes: the
// request was refused (4xx, said plainly), a budget ran out (429 with Retry-After), or Gemini
// failed (the client sees a safe message; the detail goes to the server log).

/** The request itself is refused. `message` is safe to show and names what to change. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = codeFor(status),
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A budget is spent. The answer says which and when it resets. */
export class BudgetError extends Error {
  constructor(
    /** The budget's option name, e.g. `requestsPerMinute`. */
    readonly budget: string,
    /** "user" or "global". */
    readonly scope: "user" | "global",
    readonly limit: number,
    /** When the budget resets, in milliseconds since the epoch. */
    readonly resetAt: number,
  ) {
    super(`The ${scope === "user" ? "per-user" : "global"} budget ${budget} (${limit}) is spent until ${new Date(resetAt).toISOString()}`);
  }
}

/**
 * The budget store cannot count (down, or full): the request is refused before it costs anything
 * (503). `code` is `store_unavailable` or `store_full`.
 */
export class StoreError extends Error {
  constructor(
    readonly code: "store_unavailable" | "store_full",
    message: string,
  ) {
    super(message);
  }
}

/** Gemini failed or answered something unusable. Only `message` and `extra` reach the client. */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** For the server log only: never sent to the client. */
    readonly logDetail?: string,
    /** Seconds to wait, when Gemini said (429). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
  /** Gemini answered with an error status (so it billed nothing), as opposed to no answer at all. */
  answered = false;
}

function codeFor(status: number): string {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 408:
      return "timeout";
    case 410:
      return "gone";
    case 411:
      return "length_required";
    case 413:
      return "too_large";
    case 415:
      return "unsupported_media_type";
    default:
      return "error";
  }
}
