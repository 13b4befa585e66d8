// check_timeline with the kinds only a host that has the media can judge (issue 33 item 6): the
// engine's findings (the timeline alone) and, measured here, the mix's `silence`
// (mix-silence.ts) and, given a renderer, `black` and `frozen` pictures (pictures.ts). One
// home for every surface: the in-page agent's tool and its end-of-run check, WebMCP, and the
// Node session (`neuralcut mcp`, the CLI), which runs this in headless Chromium.
import type { NeuralCutEditor } from "../editor.js";
import type { CheckTimelineArgs, CheckTimelineResult } from "../generated/tools.js";
import type { HostTool } from "../host-tools.js";
import { isToolError } from "../editor.js";
import { timelineEnd } from "../timeline-end.js";
import { mixSilences } from "./mix-silence.js";
import { type CheckRenderer, pictureFindings } from "./pictures.js";

export type { CheckRenderer } from "./pictures.js";

/** One thing check_timeline found (its result's `findings`). */
export type Finding = CheckTimelineResult["findings"][number];

/** What the host's kinds read of an editor (a page can build one over a project it loaded). */
export type HostEditor = Pick<NeuralCutEditor, "project" | "audioPlan" | "assetSource">;

/** Sorted by start, then kind, as the engine sorts its own. */
const byStartThenKind = (a: Finding, b: Finding) => a.start - b.start || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

/** The host's kinds over the whole timeline: the mix's silences and, with a renderer, black and
 * frozen pictures. A part that fails adds nothing (an unknown is never a finding). */
export async function hostFindings(editor: HostEditor, renderer?: () => Promise<CheckRenderer | undefined>): Promise<Finding[]> {
  const silences = await mixSilences(editor).catch(() => []);
  const pictures = renderer
    ? await (async () => {
        const r = await renderer();
        return r ? pictureFindings(r, timelineEnd(editor.project())) : [];
      })().catch(() => [])
    : [];
  return [...silences, ...pictures];
}

/** Host findings cut to check_timeline's window (a stretch that runs past it ends at its edge;
 * its message still tells the whole stretch), merged into the engine's result. */
export function merged(result: CheckTimelineResult, host: Finding[], args: Partial<CheckTimelineArgs>, end: number): CheckTimelineResult {
  const [from, to] = [args.start ?? 0, Math.min(args.end ?? Number.POSITIVE_INFINITY, end)];
  const inside = host.filter((f) => f.end > from && f.start < to).map((f) => ({ ...f, start: Math.max(f.start, from), end: Math.min(f.end, to) }));
  return { findings: [...result.findings, ...inside].sort(byStartThenKind) };
}

/** check_timeline through the engine, with the host's kinds added (`hostFindings`); the
 * engine's error, for a bad call, as it is. */
export async function checkWithHost(
  editor: HostEditor & Pick<NeuralCutEditor, "callToolUntyped">,
  args: Record<string, unknown>,
  renderer?: () => Promise<CheckRenderer | undefined>,
): Promise<Record<string, unknown>> {
  const out = await editor.callToolUntyped("check_timeline", args);
  if (isToolError(out) || !Array.isArray(out.findings)) return out;
  return merged(out as unknown as CheckTimelineResult, await hostFindings(editor, renderer), args, timelineEnd(editor.project())) as unknown as Record<
    string,
    unknown
  >;
}

/** check_timeline as a host tool over this editor: its catalog entry, answered by checkWithHost. */
export function checkTimelineTool(editor: NeuralCutEditor, renderer?: () => Promise<CheckRenderer | undefined>): HostTool | undefined {
  const info = editor.tools().find((t) => t.name === "check_timeline");
  return info && { ...info, call: (args: unknown) => checkWithHost(editor, (args ?? {}) as Record<string, unknown>, renderer) };
}
