// The end of a project's last element, in seconds: where export, review_clip and the run's
// check stop.
import { TICKS_PER_SECOND } from "./generated/tools.js";

type Timed = { timeline?: { tracks?: { elements?: { start: number; duration: number }[] }[] } | null } | null | undefined;

/** The end of the last element of `project` (editor.project()), in seconds; 0 when empty. */
export function timelineEnd(project: unknown): number {
  let end = 0;
  for (const t of (project as Timed)?.timeline?.tracks ?? []) for (const e of t.elements ?? []) end = Math.max(end, e.start + e.duration);
  return end / TICKS_PER_SECOND;
}
