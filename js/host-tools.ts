// The one contract of the tools answered in JS (registry::HOST_TOOLS: media_import,
// transcribe_video, render_preview, export_video, jobs_*, the agent's own, ui_*), whichever
// surface runs them (the agent, MCP, WebMCP, the bridge, the CLI): the definition is the Rust
// registry's generated catalog entry, the arguments and results are the generated types, the
// strict-argument check and its messages are the engine's (src/tools/args.rs), and a failure is
// the engine's tool error value `{ error, code, hint?, ... }`.
import {
  HOST_TOOL_CATALOG,
  HOST_TOOL_ERRORS,
  type HostToolArgsMap,
  type HostToolInfo,
  type HostToolName,
  type HostToolResultMap,
  type ToolInfo,
} from "./generated/tools.js";
import { NeuralCutError } from "./errors.js";
import { errorResult, successResult, type ToolResult } from "./tool-result.js";
import type { ToolErrorResult } from "./types.js";

export { HOST_TOOL_ERRORS };
export type { HostToolArgsMap, HostToolName, HostToolResultMap };

/** A host tool's catalog entry, shaped like an engine tool's for the catalogs that list both. */
export function hostToolInfo(name: HostToolName): ToolInfo & Pick<HostToolInfo, "annotations"> {
  const entry = HOST_TOOL_CATALOG.find((t) => t.name === name);
  // A name the generated catalog lacks is a build bug: the type allows only its names.
  if (!entry) throw new NeuralCutError("INTERNAL", `no host tool ${name} in the generated catalog`);
  return structuredClone(entry) as unknown as ToolInfo & Pick<HostToolInfo, "annotations">;
}

/** The picture a result carries (render_preview's frame, a screenshot): the agent sends it to the
 * model as an inline part, MCP and WebMCP as an image block. */
export interface InlineImage {
  mimeType: string;
  data: string;
}

/** What a surface hands a host tool beside its arguments. */
export interface HostToolContext {
  signal?: AbortSignal;
  /** MCP's progress token and a way to send notifications (export_video's progress). */
  progressToken?: string | number;
  notify?: (notification: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
}

/** A tool the host answers rather than the engine: its catalog entry plus `call`, which resolves
 * the result (a picture as `inlineImage`) or the tool error value, as the engine's tools do. */
export interface HostTool extends Omit<ToolInfo, "name" | "annotations"> {
  name: string;
  annotations: ToolInfo["annotations"] & { untrustedContentHint?: boolean };
  /** A summary template for tool cards (`{arg}`, `{arg:time}`, `[...]`); the registry's tools have theirs there. */
  summary?: string;
  call(args: unknown, context?: HostToolContext): Promise<Record<string, unknown>>;
}

/** The catalog entry of a host tool, without its `call` (for listings). */
export function infoOf(tool: HostTool): ToolInfo {
  const { call: _call, summary: _summary, ...info } = tool;
  return info as ToolInfo;
}

/** The engine's catalog with the host tools: one of an engine tool's name (check_timeline with
 * the host's kinds) answers for it in its place; the others, after `between`, in order. */
export function withHostTools(engine: readonly ToolInfo[], hostTools: readonly HostTool[], between: readonly ToolInfo[] = []): ToolInfo[] {
  const host = new Map(hostTools.map((t) => [t.name, t]));
  const own = new Set<string>(engine.map((t) => t.name));
  return [...engine.map((t) => (host.has(t.name) ? infoOf(host.get(t.name)!) : t)), ...between, ...hostTools.filter((t) => !own.has(t.name)).map(infoOf)];
}

/** A picture a result carries (render_preview's frame), in MCP's image-block shape. */
export interface ResultImage {
  type: "image";
  data: string;
  mimeType: string;
}

/** What running a tool came to: its result (and any pictures), or its error value. */
export type Outcome = { ok: true; result: Record<string, unknown>; images?: ResultImage[] } | { ok: false; error: ToolErrorResult };

/** A host tool's answer (js/host-tools.ts: the result, its picture as `inlineImage`, or the
 * error value) as an outcome. */
export function outcomeOf(out: Record<string, unknown>): Outcome {
  if (typeof out.error === "string") return { ok: false, error: out as ToolErrorResult };
  const { inlineImage, ...result } = out as { inlineImage?: { mimeType?: unknown; data?: unknown } };
  if (inlineImage && typeof inlineImage.data === "string" && typeof inlineImage.mimeType === "string") {
    return { ok: true, result, images: [{ type: "image", data: inlineImage.data, mimeType: inlineImage.mimeType }] };
  }
  return { ok: true, result: out };
}

/** The other way: an outcome as a host tool's answer (its first picture as `inlineImage`). */
export function resultOf(out: Outcome): Record<string, unknown> {
  if (!out.ok) return out.error;
  const image = out.images?.[0];
  return image ? { ...out.result, inlineImage: { mimeType: image.mimeType, data: image.data } } : out.result;
}

/** An outcome as MCP's and WebMCP's CallToolResult (js/tool-result.ts). */
export function toolResultOf(out: Outcome): ToolResult {
  return out.ok ? successResult(out.result, out.images) : errorResult(out.error);
}

/** The one error shape: `{ error, code, ...data }` (data may carry `hint`). */
export function toolError(error: string, code: string, data: Record<string, unknown> = {}): ToolErrorResult {
  return { error, code, ...data };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The engine's strict-argument rule (src/tools/args.rs `Args::strict`, messages of
 * src/tools/error.rs): `null` or nothing counts as no arguments; anything else must be an object
 * whose keys are all accepted. The arguments, or the error value the engine would give.
 */
export function strictArguments(tool: string, accepted: readonly string[], value: unknown): { args: Record<string, unknown> } | { error: ToolErrorResult } {
  if (value === undefined || value === null) return { args: {} };
  if (!isObject(value)) return { error: toolError("Arguments must be a JSON object", "INVALID_ARGUMENTS") };
  const bad = Object.keys(value).find((k) => !accepted.includes(k));
  if (bad === undefined) return { args: value };
  const sorted = [...accepted].sort();
  const expected = sorted.length ? sorted.join(", ") : "no arguments";
  return { error: toolError(`unknown argument "${bad}" for ${tool}; expected: ${expected}`, "UNKNOWN_ARGUMENT", { argument: bad, accepted: sorted }) };
}

/** The arguments a host tool's catalog schema accepts. */
export function acceptedArguments(name: HostToolName): string[] {
  const entry = HOST_TOOL_CATALOG.find((t) => t.name === name);
  return Object.keys((entry?.inputSchema as { properties?: object } | undefined)?.properties ?? {});
}

/** The strict check of host tool `name`, from its catalog schema: its generated argument type
 * (whose values the tool still checks), or the error value. */
export function hostToolArgs<N extends HostToolName>(
  name: N,
  value: unknown,
): { args: Partial<HostToolArgsMap[N]> & Record<string, unknown> } | { error: ToolErrorResult } {
  return strictArguments(name, acceptedArguments(name), value) as { args: Partial<HostToolArgsMap[N]> & Record<string, unknown> } | { error: ToolErrorResult };
}

/**
 * A host tool of the catalog: its entry, with `run` called only on arguments that passed the
 * strict check. `run` resolves the generated result type or a tool error value.
 */
export function defineHostTool<N extends HostToolName>(
  name: N,
  run: (
    args: Partial<HostToolArgsMap[N]> & Record<string, unknown>,
    context: HostToolContext,
  ) => Promise<HostToolResultMap[N] | ToolErrorResult | Record<string, unknown>>,
): HostTool {
  return {
    ...hostToolInfo(name),
    async call(value, context = {}) {
      const checked = hostToolArgs(name, value);
      if ("error" in checked) return checked.error;
      return (await run(checked.args, context)) as Record<string, unknown>;
    },
  };
}
