// Readable one-line summaries of tool calls ("Split at 00:03.00", "Delete 2 elements"), rendered
// from the per-tool templates the Rust registry declares (TOOL_SUMMARIES in js/generated), so a
// tool card, MCP client or WebMCP host shows the same words for the same call.

import { TOOL_SUMMARIES } from "../generated/tools.js";

/** Seconds as mm:ss.cc (h:mm:ss.cc from an hour). */
export function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  const sign = seconds < 0 ? "-" : "";
  const cs = Math.round(Math.abs(seconds) * 100);
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${sign}${h ? `${h}:${two(m)}` : two(m)}:${two(s)}.${two(c)}`;
}

function quote(v: unknown): string {
  const s = String(v).replace(/\s+/g, " ").trim();
  return `“${s.length > 40 ? `${s.slice(0, 39)}…` : s}”`;
}

function short(v: unknown): string {
  if (typeof v === "string") return v.length > 48 ? `${v.slice(0, 47)}…` : v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return v.map(short).join(", ");
  return JSON.stringify(v)?.slice(0, 48) ?? "";
}

/** One placeholder's text, or undefined when its argument is missing or of the wrong kind. */
function render(value: unknown, format: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const [kind, noun] = format.split(" ");
  switch (kind) {
    case "time": {
      const times = Array.isArray(value) ? value : [value];
      if (times.length === 0 || times.some((t) => typeof t !== "number")) return undefined;
      return times.map((t) => formatTime(t as number)).join(", ");
    }
    case "n": {
      if (!Array.isArray(value)) return undefined;
      return `${value.length} ${value.length === 1 ? noun : `${noun}s`}`;
    }
    case "q":
      return typeof value === "string" || typeof value === "number" ? quote(value) : undefined;
    default:
      return short(value);
  }
}

/** Fills a template: `{arg}`, `{arg:time}`, `{arg:q}`, `{arg:n noun}`; a `[...]` part goes when
 * any argument in it is missing. */
export function fillSummary(template: string, args: Record<string, unknown>): string {
  const fill = (part: string): string | undefined => {
    let missing = false;
    const out = part.replace(/\{([A-Za-z0-9_]+)(?::([^}]*))?\}/g, (_m, arg: string, format = "") => {
      const text = render(args[arg], format);
      if (text === undefined) missing = true;
      return text ?? "?";
    });
    return missing ? undefined : out;
  };
  const text = template.replace(/\[([^\]]*)\]/g, (_m, inner: string) => fill(inner) ?? "");
  return (fill(text) ?? text.replace(/\{[^}]*\}/g, "…")).replace(/\s+/g, " ").trim();
}

/** A readable one-line summary of a tool call, from the registry's template for the tool; for a
 * tool without one (a host's own), its title or name. */
export function summarizeCall(name: string, args: Record<string, unknown> = {}, fallback?: string): string {
  const template = (TOOL_SUMMARIES as Record<string, string>)[name];
  if (!template) return fallback ?? name;
  return fillSummary(template, args && typeof args === "object" ? args : {});
}
