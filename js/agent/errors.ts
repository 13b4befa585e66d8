// How the agent fails and stops: AgentError (the loop's own failures, in plain words), a proxy
// failure explained, and StopSignal, the abort reason of stop() that tool results tell apart from
// a host's cancel.
import { NeuralCutError } from "../errors.js";
import type { ProxyError } from "./client.js";
import type { AgentErrorCode } from "./types.js";

/** Thrown by `send` for failures of the loop itself. `message` is plain words for the user (what
 * happened, what to do); `details` is the technical cause. */
export class AgentError extends NeuralCutError {
  constructor(
    code: AgentErrorCode,
    message: string,
    readonly details?: string,
    /** The proxy's HTTP status, for PROXY. */
    readonly status?: number,
  ) {
    super(code, message);
    this.name = "AgentError";
  }
}

export function isAbort(e: unknown): boolean {
  return (e as { name?: string })?.name === "AbortError";
}

/** A proxy failure in plain words. */
export function explainProxyError(e: ProxyError, model: string): string {
  if (e.status === 0) return "The assistant's server could not be reached. Check the internet connection, then send the message again.";
  if (e.status === 429) {
    const minutes = e.retryAfterMs !== undefined ? Math.ceil(e.retryAfterMs / 60_000) : 1;
    if (minutes > 5) {
      const when = minutes >= 120 ? `about ${Math.round(minutes / 60)} hours` : `about ${minutes} minutes`;
      return `You have used up the assistant's allowance for now; it renews in ${when}. Try again then.`;
    }
    return "Gemini is getting too many requests right now. Wait a minute, then send the message again.";
  }
  if (e.status === 401) return "The assistant's server needs you to sign in again. Reload the page, sign in, and send the message again.";
  if (e.code === "MODEL_NOT_ALLOWED") return `The model ${model} is not enabled on the assistant's server. Choose another model.`;
  if (e.code === "ORIGIN_REFUSED")
    return "The assistant's server does not accept requests from this page. Its operator must add this site to the proxy's allowed origins.";
  if (e.status === 401 || e.status === 403) return "The assistant's server refused the request: you may need to sign in again. Reload the page and retry.";
  if (e.status === 413) return "The request is too large for the assistant's server. Start a new conversation (Reset) and try again.";
  if (e.status === 502 && e.upstreamStatus !== undefined && e.upstreamStatus < 500) {
    return `Gemini refused the request${e.details ? ` (${e.details})` : ""}. Try again; if it keeps failing, start a new conversation.`;
  }
  if (e.status >= 500) return "Gemini could not answer right now. Try again in a moment.";
  return `The assistant's server refused the request (HTTP ${e.status}). Try again; if it keeps failing, start a new conversation.`;
}

const CANCELLED = { error: "Cancelled by the user", code: "CANCELLED" };
const STOPPED = { error: "Stopped by the user", code: "STOPPED", hint: "The user pressed Stop. Do not repeat the call unless they ask again." };

/** The abort reason of stop(): an AbortError (its name, which every wait checks) that the loop
 * tells apart from a host's cancel. */
export class StopSignal extends NeuralCutError {
  constructor() {
    super("STOPPED", "Stopped by the user");
    this.name = "AbortError";
  }
}

export const isStop = (signal?: AbortSignal) => signal?.reason instanceof StopSignal;
/** A tool's result when its call was cancelled or stopped. */
export const cancelled = (signal?: AbortSignal) => ({ ...(isStop(signal) ? STOPPED : CANCELLED) });
