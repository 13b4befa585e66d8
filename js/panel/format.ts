// The panel's words: a message's text without its mentions block, a call's readable line, card
// states, a run's summary line.
import { MENTIONS_START } from "../agent/data.js";
import { seconds } from "./dom.js";
import type { CardStatus } from "./sessions.js";

/** The user's words of a sent message, without a mentions block (messages of older versions
 * carried it in the same text). */
export function messageText(sent: string): string {
  const at = sent.indexOf(`\n\n${MENTIONS_START}`);
  return at < 0 ? sent : sent.slice(0, at);
}

/** A readable line for a call when the agent gives none: the tool and its main arguments. */
export function fallbackSummary(name: string, args: Record<string, unknown>): string {
  const parts = Object.entries(args)
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v) || (Array.isArray(v) && v.length <= 4 && v.every((x) => typeof x !== "object")))
    .slice(0, 3)
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.map(seconds).join(", ") : typeof v === "number" ? seconds(v) : String(v).slice(0, 40)}`);
  return `${name.replace(/_/g, " ")}${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

export function statusText(status: CardStatus): string {
  return { running: "running…", waiting: "waiting for you", done: "done", error: "error", declined: "declined", stopped: "stopped" }[status];
}

/** Added / removed / changed as counts, from lists of elements or numbers. */
export function counts(c: { added?: unknown; removed?: unknown; changed?: unknown }) {
  const n = (v: unknown) => (Array.isArray(v) ? v.length : typeof v === "number" ? v : 0);
  return { added: n(c.added), removed: n(c.removed), changed: n(c.changed) };
}

export function summaryLine(s: { added: number; removed: number; changed: number }): string {
  const n = (k: number, one: string) => `${k} ${one}${k === 1 ? "" : "s"}`;
  return `This message: ${n(s.added, "element")} added, ${s.removed} removed, ${s.changed} changed.`;
}

/** Whether a failed send was a stop (an AbortError, or the agent's STOPPED). */
export function isStop(e: unknown): boolean {
  const x = e as { name?: string; code?: string };
  return x?.name === "AbortError" || x?.code === "STOPPED";
}
