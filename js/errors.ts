/** Thrown for misuse of the API itself (tool failures are returned, never thrown). `code` is
 * stable: INVALID_ASSET, INVALID_STICKER, DUPLICATE_ID, INVALID_JSON, INVALID_PROJECT,
 * UNSUPPORTED_PROJECT, INVALID_PROVIDER, INVALID_EFFECTS, NO_ACTIVE_PROJECT, EDITOR_DISPOSED, and
 * INTERNAL for a panic inside the engine (the editor has been rebuilt at its last committed state;
 * docs/mcp.md). */
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
