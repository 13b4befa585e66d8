// What a run changed on the timeline: a snapshot of every element (by id, with its track) before
// and after, compared. The agent reports it (run_summary, done); the panel counts it and checks
// that Undo run brought the timeline back.
import type { NeuralCutEditor } from "../editor.js";
import type { ElementRef, RunChanges } from "./types.js";

/** Each element by id, in timeline order: its ref and its JSON with its track. */
export type TimelineSnapshot = Map<string, { ref: ElementRef; json: string }>;

export function snapshot(editor: Pick<NeuralCutEditor, "project">): TimelineSnapshot {
  const out: TimelineSnapshot = new Map();
  const tracks = (editor.project() as { timeline?: { tracks?: Array<{ id: string; elements?: Array<Record<string, unknown>> }> } }).timeline?.tracks ?? [];
  for (const t of tracks) {
    for (const e of t.elements ?? []) {
      const ref: ElementRef = { id: String(e.id), type: String(e.type), trackId: t.id, ...(typeof e.name === "string" && e.name ? { name: e.name } : {}) };
      out.set(ref.id, { ref, json: JSON.stringify(e) + t.id });
    }
  }
  return out;
}

export function compare(before: TimelineSnapshot, after: TimelineSnapshot): RunChanges {
  const changes: RunChanges = { added: [], removed: [], changed: [] };
  for (const [id, a] of after) {
    const b = before.get(id);
    if (!b) changes.added.push(a.ref);
    else if (b.json !== a.json) changes.changed.push(a.ref);
  }
  for (const [id, b] of before) if (!after.has(id)) changes.removed.push(b.ref);
  return changes;
}

/** Whether two snapshots hold the same elements, the same, in the same order. */
export function sameSnapshot(a: TimelineSnapshot, b: TimelineSnapshot): boolean {
  if (a.size !== b.size) return false;
  const bs = [...b];
  return [...a].every(([id, v], i) => bs[i][0] === id && bs[i][1].json === v.json);
}
