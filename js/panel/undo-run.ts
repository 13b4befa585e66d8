// The end of a run in the log: what it changed (from the agent's summary, else the panel's own
// before/after comparison), a thumbnail of the frame after it, and "Undo run", which takes the
// whole run back while nothing else has changed the project since.
import { compare, sameSnapshot, snapshot, type TimelineSnapshot } from "../agent/run-diff.js";
import type { NeuralCutEditor } from "../editor.js";
import { h } from "./dom.js";
import { counts, summaryLine } from "./format.js";
import type { ConversationLog } from "./log.js";
import type { TranscriptItem } from "./sessions.js";

/** A message being answered. */
export interface Run {
  controller: AbortController;
  before: TimelineSnapshot;
  /** Committed tool changes during the run: the most undo steps Undo run takes. */
  changes: number;
  summary?: { added: number; removed: number; changed: number };
  stopped: boolean;
}

export interface RunEndHost {
  editor(): NeuralCutEditor | undefined;
  /** Draws the frame at `seconds` for the thumbnail. */
  renderFrame?: (seconds: number) => Promise<Blob>;
  playhead(): number;
  /** Replaces what Undo run does. */
  undoRun?: () => void | Promise<void>;
  focusInput(): void;
}

export class RunEnd {
  #undoButton?: HTMLButtonElement;
  #revisionAtEnd?: number;
  #thumbUrl?: string;

  constructor(
    readonly log: ConversationLog,
    readonly host: RunEndHost,
  ) {}

  /** Shows the run's summary box when it changed something. */
  async show(run: Run, editor: NeuralCutEditor): Promise<void> {
    const summary = run.summary ?? counts(compare(run.before, snapshot(editor)));
    run.summary = summary;
    if (summary.added + summary.removed + summary.changed === 0 || run.changes === 0) return;
    const item: TranscriptItem = { kind: "summary", ...summary };
    this.log.record(item);
    const box = h("div", {
      class: "run-end",
      part: "run-summary",
      "data-added": summary.added,
      "data-removed": summary.removed,
      "data-changed": summary.changed,
    });
    const undo = h(
      "button",
      { type: "button", "data-automation-id": "agent.undo-run", title: "Undo every change of this message at once", onclick: () => this.#undo(run, box) },
      "Undo run",
    ) as HTMLButtonElement;
    box.append(h("div", { class: "row" }, h("span", {}, summaryLine(summary)), undo));
    this.log.node.append(box);
    this.#undoButton = undo;
    this.#revisionAtEnd = editor.revision();
    this.refresh();
    this.log.scroll();
    const render = this.host.renderFrame;
    if (render) {
      const at = this.host.playhead();
      try {
        const blob = await render(at);
        if (this.#thumbUrl) URL.revokeObjectURL(this.#thumbUrl);
        this.#thumbUrl = URL.createObjectURL(blob);
        box.append(h("img", { src: this.#thumbUrl, part: "thumbnail", alt: `The frame at ${Math.round(at * 100) / 100} s after this message's changes` }));
        this.log.scroll();
      } catch (e) {
        box.append(h("span", { class: "msg notice" }, `No thumbnail: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
  }

  /** Undoes the run: one editor.undo() when the agent grouped it, else as many as it took, stopping
   * once the timeline is back to how it was. Refused once anything else changed the project. */
  #undo(run: Run, box: HTMLElement): void {
    const editor = this.host.editor();
    if (!editor || editor.revision() !== this.#revisionAtEnd) return;
    this.disable();
    box.dataset.undone = "true";
    box.append(h("span", { class: "msg notice" }, "Undone."));
    this.host.focusInput();
    if (this.host.undoRun) return void this.host.undoRun();
    let left = run.changes;
    while (left-- > 0 && editor.canUndo()) {
      editor.undo();
      if (sameSnapshot(snapshot(editor), run.before)) break;
    }
  }

  disable(): void {
    if (this.#undoButton) this.#undoButton.disabled = true;
    this.#undoButton = undefined;
  }

  /** Disables Undo run once the project changed after the run. */
  refresh(): void {
    const editor = this.host.editor();
    if (this.#undoButton && editor && this.#revisionAtEnd !== undefined && editor.revision() !== this.#revisionAtEnd) this.disable();
  }

  /** Forgets the shown run (the log was cleared). */
  clear(): void {
    this.#undoButton = undefined;
    if (this.#thumbUrl) URL.revokeObjectURL(this.#thumbUrl);
    this.#thumbUrl = undefined;
  }
}
