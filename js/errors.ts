import { ERROR_CODES, type ErrorCode } from "./generated/error-codes.js";

export type { ErrorCode };

/**
 * The one error family of the package: every error it throws is a NeuralCutError (or a subclass
 * that adds fields), and `code` is one of `ERROR_CODES` (src/error_code.rs, which declares the
 * codes only this TypeScript layer gives too; docs/errors.md lists each with its meaning). Tool
 * failures are returned as values, never thrown. A call cancelled through an AbortSignal rejects
 * with the signal's reason, as fetch does.
 *
 * Subclasses: AgentError, ProxyError, UploadRefusedError, HistoryTooLargeError (js/agent/),
 * MediaProbeError (js/media/probe.ts), RequestError, BudgetError, StoreError and UpstreamError
 * (js/proxy/errors.ts).
 */
export class NeuralCutError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NeuralCutError";
    this.code = code;
  }
}

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether `code` is one of `ERROR_CODES`. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && KNOWN.has(code);
}

/** Rethrows an error from the wasm boundary (an Error carrying `code`) as a NeuralCutError. */
export function rethrow(e: unknown): never {
  if (e instanceof NeuralCutError) throw e;
  if (e instanceof Error && isErrorCode((e as { code?: unknown }).code)) {
    throw new NeuralCutError((e as Error & { code: ErrorCode }).code, e.message, { cause: e });
  }
  throw e;
}

/**
 * A wire code (`rate_limited`) in the family's casing (`RATE_LIMITED`); `fallback` when it is
 * not one of `ERROR_CODES` (a proxy of another make, or an answer with no code).
 */
export function errorCode(wire: string, fallback: ErrorCode = "HTTP_ERROR"): ErrorCode {
  const code = wire.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase();
  return isErrorCode(code) ? code : fallback;
}

/** `e` as a NeuralCutError: itself when it is one, else `code` with its message, `e` as the cause. */
export function asNeuralCutError(e: unknown, code: ErrorCode, prefix = ""): NeuralCutError {
  if (e instanceof NeuralCutError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new NeuralCutError(code, prefix + message, { cause: e });
}

/** A malformed command line (`USAGE`): the CLIs print it with their usage and exit 2. */
export class UsageError extends NeuralCutError {
  constructor(message: string) {
    super("USAGE", message);
    this.name = "UsageError";
  }
}
