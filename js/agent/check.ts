// The check at the end of a run that edited (issue 33): the engine's check_timeline over the
// whole timeline, with the silences of the mix measured here; its findings go to the host (a `check` event, which the panel shows in the run
// summary) and, when there are any, back to the model once, so it fixes what its edits caused.
import type { NeuralCutEditor } from "../editor.js";
import { timelineEnd } from "../timeline-end.js";
import { mixSilences } from "./mix-silence.js";
import { type CheckRenderer, pictureFindings } from "./picture-check.js";

/** One thing check_timeline found (its result's `findings`). */
export interface Finding {
  kind: string;
  start: number;
  end: number;
  elementIds?: string[];
  message: string;
}

/** check_timeline's findings with the silences of the mix the page measures (mix-silence.ts)
 * and, given a renderer, the black and frozen pictures it draws (picture-check.ts), sorted by
 * start then kind; undefined when the engine has no such tool or it failed (a check never fails
 * a run; a renderer that fails adds nothing). */
export async function checkTimeline(editor: NeuralCutEditor, renderer?: () => Promise<CheckRenderer | undefined>): Promise<Finding[] | undefined> {
  if (!editor.tools().some((t) => t.name === "check_timeline")) return undefined;
  try {
    const out = await editor.callToolUntyped("check_timeline", {});
    if (!Array.isArray(out.findings)) return undefined;
    const all = [
      ...(out.findings as Finding[]),
      ...(await mixSilences(editor).catch(() => [])),
      ...(renderer ? await pictures(editor, renderer).catch(() => []) : []),
    ];
    return all.sort((a, b) => a.start - b.start || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  } catch {
    return undefined;
  }
}

async function pictures(editor: NeuralCutEditor, renderer: () => Promise<CheckRenderer | undefined>): Promise<Finding[]> {
  const r = await renderer();
  return r ? pictureFindings(r, timelineEnd(editor.project())) : [];
}

/** The note the model gets with the findings: what was found, and what to do about it. */
export function findingsNote(findings: Finding[]): string {
  const lines = findings
    .slice(0, 20)
    .map((f) => `- ${f.kind} ${f.start}–${f.end} s${f.elementIds?.length ? ` (${f.elementIds.join(", ")})` : ""}: ${f.message}`);
  const more = findings.length > 20 ? `\n- … and ${findings.length - 20} more` : "";
  return `[check_timeline, run by the editor after your edits] It found:\n${lines.join("\n")}${more}\nFix what your edits caused with the tools; for anything intended, say why in your answer. Then answer the user.`;
}
