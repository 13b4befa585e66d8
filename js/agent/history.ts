// Keeping the conversation inside the proxy's limits. The history is cut only where Gemini can
// start a conversation: at a user turn that holds the user's own text. Older exchanges go first,
// whole: a model turn (its thought signatures included) is never split, and a function call never
// stays without its response. When even the newest exchange is too large, its oldest steps (a
// model turn with its calls and the user turn with their responses) go, the user's message stays.

import { NeuralCutError } from "../errors.js";
import type { Content, GenerateRequest, Part, ProxyLimitsInfo } from "./client.js";

export interface HistoryBounds {
  /** Most turns (contents entries). */
  maxTurns: number;
  /** Most parts in one turn. */
  maxPartsPerTurn: number;
  /** Most bytes of the serialised contents (the request's other fields are counted by the caller). */
  maxBytes: number;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).length;
}

const isUserText = (p: Part) => typeof p.text === "string" && !p.functionResponse;

/** Whether the history may start at this turn. */
function startsExchange(c: Content): boolean {
  return c.role === "user" && c.parts.some(isUserText);
}

/** The turn as the first of a cut history: responses to calls that were cut away are dropped. */
function asFirst(c: Content): Content {
  return c.parts.some((p) => p.functionResponse) ? { role: c.role, parts: c.parts.filter((p) => !p.functionResponse) } : c;
}

export class HistoryTooLargeError extends NeuralCutError {
  constructor(message: string) {
    super("HISTORY_TOO_LARGE", message);
    this.name = "HistoryTooLargeError";
  }
}

/**
 * The newest part of `contents` that fits `bounds`. Throws HistoryTooLargeError when not even the
 * user's last message with the newest step fits, or a single turn has more parts than allowed.
 */
export function fitHistory(contents: Content[], bounds: HistoryBounds): Content[] {
  if (contents.length === 0) return [];
  const sizes = contents.map((c) => jsonBytes(c) + 1);
  // The last turn must be sent whatever happens; so must the turn it answers.
  for (const c of contents.slice(-2)) {
    if (c.parts.length > bounds.maxPartsPerTurn) {
      throw new HistoryTooLargeError(`one turn holds ${c.parts.length} parts, over the proxy's ${bounds.maxPartsPerTurn}`);
    }
  }
  const fits = (list: Content[], bytes: number) =>
    list.length <= bounds.maxTurns && bytes + 2 <= bounds.maxBytes && list.every((c) => c.parts.length <= bounds.maxPartsPerTurn);

  // Sizes from each index to the end.
  const tail = new Array<number>(contents.length + 1).fill(0);
  for (let i = contents.length - 1; i >= 0; i--) tail[i] = tail[i + 1] + sizes[i];

  let lastStart = -1;
  for (let i = 0; i < contents.length; i++) {
    if (!startsExchange(contents[i])) continue;
    lastStart = i;
    const first = asFirst(contents[i]);
    const bytes = tail[i + 1] + (first === contents[i] ? sizes[i] : jsonBytes(first) + 1);
    const list = [first, ...contents.slice(i + 1)];
    if (fits(list, bytes)) return list;
  }
  if (lastStart < 0) throw new HistoryTooLargeError("the conversation has no user message to start from");

  // The newest exchange alone is too large: drop its oldest steps (model turn + answers).
  const head = asFirst(contents[lastStart]);
  const steps: Content[][] = [];
  let i = lastStart + 1;
  while (i < contents.length) {
    const step = [contents[i]];
    if (contents[i].role === "model" && i + 1 < contents.length && contents[i + 1].role === "user") step.push(contents[i + 1]);
    steps.push(step);
    i += step.length;
  }
  const headBytes = jsonBytes(head) + 1;
  for (let k = 1; k <= steps.length; k++) {
    const kept = steps.slice(k);
    // A history must not end in a model turn that is not the newest one; never keep fewer than the last step.
    if (kept.length === 0) break;
    const list = [head, ...kept.flat()];
    const bytes = headBytes + kept.flat().reduce((n, c) => n + jsonBytes(c) + 1, 0);
    if (fits(list, bytes)) return list;
  }
  throw new HistoryTooLargeError(`the newest step alone is over the proxy's limits (${bounds.maxTurns} turns, ${bounds.maxBytes} bytes)`);
}

/** fileData parts whose files the model no longer needs leave the history (in place). */
export function dropFileData(contents: Content[], drop: (fileUri: string) => boolean, before = contents.length): void {
  for (let i = 0; i < Math.min(before, contents.length); i++) {
    const c = contents[i];
    if (!c.parts.some((p) => p.fileData && drop(p.fileData.fileUri))) continue;
    const parts = c.parts.filter((p) => !(p.fileData && drop(p.fileData.fileUri)));
    // A turn that held only files keeps a note, so turns still alternate.
    c.parts = parts.length ? parts : [{ text: "(media attached here earlier)" }];
  }
}

/** Contents bytes the agent aims to stay under by default, whatever the proxy allows. */
export const DEFAULT_HISTORY_BYTES = 256 * 1024;

/**
 * The contents of a request with `base` as its other fields: bounded by the proxy's limits and the
 * host's `bounds`, with each file once and at most maxFilesPerRequest of them (the newest).
 * `trimmed` when older turns were left out. Throws HistoryTooLargeError when nothing fits.
 */
export function fitRequest(
  all: Content[],
  base: Omit<GenerateRequest, "contents">,
  lim: ProxyLimitsInfo,
  bounds?: { maxTurns?: number; maxBytes?: number },
): { contents: Content[]; trimmed: boolean } {
  const fixed = jsonBytes({ ...base, contents: [] });
  const maxBytes = Math.min(lim.maxBodyBytes - fixed - 1024, bounds?.maxBytes ?? DEFAULT_HISTORY_BYTES);
  const maxTurns = Math.min(lim.maxTurns, bounds?.maxTurns ?? Infinity);
  const contents = fitHistory(all, { maxTurns, maxPartsPerTurn: lim.maxPartsPerTurn, maxBytes });
  // Each file once (the proxy refuses a file attached twice), the newest ones, at most maxFilesPerRequest.
  const maxFiles = typeof lim.maxFilesPerRequest === "number" ? lim.maxFilesPerRequest : Infinity;
  const keep = new Set<Part>();
  const seen = new Set<string>();
  for (let i = contents.length - 1; i >= 0; i--) {
    for (let j = contents[i].parts.length - 1; j >= 0; j--) {
      const p = contents[i].parts[j];
      if (!p.fileData || seen.has(p.fileData.fileUri) || seen.size >= maxFiles) continue;
      seen.add(p.fileData.fileUri);
      keep.add(p);
    }
  }
  return {
    trimmed: contents.length < all.length,
    contents: contents.map((c) => {
      if (!c.parts.some((p) => p.fileData && !keep.has(p))) return c;
      const parts = c.parts.filter((p) => !p.fileData || keep.has(p));
      return { role: c.role, parts: parts.length ? parts : [{ text: "(media left out)" }] };
    }),
  };
}

/** A saved conversation, checked: Gemini contents (role user or model, parts of objects). */
export function checkContents(contents: unknown): Content[] {
  if (
    !Array.isArray(contents) ||
    contents.some(
      (c) =>
        !c ||
        typeof c !== "object" ||
        (c.role !== "user" && c.role !== "model") ||
        !Array.isArray(c.parts) ||
        c.parts.some((p: unknown) => !p || typeof p !== "object"),
    )
  ) {
    throw new NeuralCutError(
      "INVALID_ARGUMENT",
      'history must be Gemini contents: an array of { role: "user" | "model", parts: [...] }, such as agent.history() returned',
    );
  }
  return structuredClone(contents as Content[]);
}
