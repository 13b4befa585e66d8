// How many timeline elements a call removes, for the agent's maxRemovedElements: one `batch` or
// `delete_timeline_elements` can remove every element in a single call, so calls are the wrong
// unit. Before a call, the engine runs it on a copy of the project (so a call over the allowance
// is refused with nothing changed); after it, the timeline before and after is compared (so calls
// a copy cannot replay, undo and redo with their history, host tools, count too).

import { createEditor, type NeuralCutEditor } from "../editor.js";

/** The ids of the elements on the timeline now. */
export function elementIds(editor: NeuralCutEditor): Set<string> {
  const tracks = (editor.project() as { timeline?: { tracks?: Array<{ elements?: Array<{ id?: unknown }> }> } }).timeline?.tracks ?? [];
  return new Set(tracks.flatMap((t) => (t.elements ?? []).map((e) => String(e.id))));
}

/** How many of `before` are gone from `after`. */
export function removedBetween(before: Set<string>, after: Set<string>): number {
  let n = 0;
  for (const id of before) if (!after.has(id)) n++;
  return n;
}

/**
 * The elements `name(args)` would remove, from a dry run on a copy of the project; undefined when
 * the copy cannot tell (the call fails there: undo and redo have no history in it, or the copy
 * could not be made).
 */
export async function dryRunRemovals(editor: NeuralCutEditor, name: string, args: Record<string, unknown>): Promise<number | undefined> {
  let copy: NeuralCutEditor | undefined;
  try {
    copy = await createEditor({ project: editor.project(), effects: editor.effects() });
    const before = elementIds(copy);
    const out = await copy.callToolUntyped(name, args);
    if (!out || typeof out !== "object" || typeof (out as { error?: unknown }).error === "string") return undefined;
    return removedBetween(before, elementIds(copy));
  } catch {
    return undefined;
  } finally {
    copy?.dispose();
  }
}

/** What a message has spent of its allowances. */
export interface Allowance {
  /** Destructive calls run so far. */
  destructive: number;
  /** Timeline elements removed so far. */
  removed: number;
}

/** The refusal of a destructive call that would remove more elements than the message has left
 * of `maxRemoved`: from a dry run of it (not of host tools), or, when that cannot tell, once the
 * allowance is spent. */
export async function removalRefusal(
  editor: NeuralCutEditor,
  call: { name: string; args: Record<string, unknown>; host: boolean },
  count: Allowance,
  maxRemoved: number,
): Promise<Record<string, unknown> | undefined> {
  // No call removes more elements than there are: with room for all of them, nothing to check.
  if (count.removed + elementIds(editor).size <= maxRemoved) return undefined;
  const removing = call.host ? undefined : await dryRunRemovals(editor, call.name, call.args);
  if (removing === undefined ? count.removed < maxRemoved : count.removed + removing <= maxRemoved) return undefined;
  return {
    error: "Too many elements removed for one message",
    code: "DESTRUCTIVE_LIMIT",
    hint: `At most ${maxRemoved} timeline elements are removed per message; ${count.removed} already were${removing === undefined ? "" : ` and this call would remove ${removing}`}, so nothing was changed. Stop, tell the user what is left, and let them ask again.`,
  };
}
