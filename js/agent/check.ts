// The check at the end of a run that edited (issue 33): check_timeline over the whole
// timeline with the host's kinds (js/check/); its findings go to the host (a `check` event,
// which the panel shows in the run summary) and, when there are any, back to the model once,
// so it fixes what its edits caused.
import { type CheckRenderer, checkWithHost, type Finding } from "../check/index.js";
import type { NeuralCutEditor } from "../editor.js";

export type { Finding } from "../check/index.js";

/** check_timeline's findings over the whole timeline with the mix's silences and, given a
 * renderer, black and frozen pictures; undefined when the engine has no such tool or it failed
 * (a check never fails a run). */
export async function checkTimeline(editor: NeuralCutEditor, renderer?: () => Promise<CheckRenderer | undefined>): Promise<Finding[] | undefined> {
  if (!editor.tools().some((t) => t.name === "check_timeline")) return undefined;
  try {
    const out = await checkWithHost(editor, {}, renderer);
    return Array.isArray(out.findings) ? (out.findings as Finding[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The note the model gets with the findings: what was found, and what to do about it. */
export function findingsNote(findings: Finding[]): string {
  const lines = findings
    .slice(0, 20)
    .map((f) => `- ${f.kind} ${f.start}–${f.end} s${f.elementIds?.length ? ` (${f.elementIds.join(", ")})` : ""}: ${f.message}`);
  const more = findings.length > 20 ? `\n- … and ${findings.length - 20} more` : "";
  return `[check_timeline, run by the editor after your edits] It found:\n${lines.join("\n")}${more}\nFix what your edits caused with the tools; for anything intended, say why in your answer. Then answer the user.`;
}
