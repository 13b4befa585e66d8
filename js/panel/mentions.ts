// @-mentions in the message box: the list of the project's assets and timeline elements as the
// user types @, keys to move in it and choose, the chosen items as chips; a chosen item goes with
// the message as data under a short sanitized label (agent/data.ts).
import { mentionLabel } from "../agent/data.js";
import type { NeuralCutEditor } from "../editor.js";
import { h, seconds } from "./dom.js";

export interface Mention {
  kind: "asset" | "element";
  id: string;
  /** Short and sanitized (mentionLabel), unique in the list: what goes in the message. */
  label: string;
  /** The item's own name, shown in the list only. */
  name: string;
  detail: string;
  data: Record<string, unknown>;
}

export interface MentionUI {
  input: HTMLTextAreaElement;
  mentions: HTMLUListElement;
  chips: HTMLElement;
}

export class MentionPicker {
  /** The items chosen for the next message. */
  chosen: Mention[] = [];
  #items: Mention[] = [];
  #pool: Mention[] = [];
  #index = 0;
  #open = false;

  constructor(
    readonly ui: MentionUI,
    readonly editor: () => NeuralCutEditor | undefined,
    readonly built: () => boolean,
  ) {}

  /** The list's keys (arrows, Enter or Tab to choose, Escape); true when the key was the list's. */
  onKey(e: KeyboardEvent): boolean {
    if (!this.#open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = this.#items.length;
      this.#index = (this.#index + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      this.#draw();
      return true;
    }
    if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      this.#choose(this.#items[this.#index]);
      return true;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      this.close();
      return true;
    }
    return false;
  }

  /** The chosen items `typed` still names. */
  in(typed: string): Mention[] {
    return this.chosen.filter((m) => typed.includes(`@${m.label}`));
  }

  /** Forgets the items a sent message carried. */
  release(sent: Mention[]): void {
    this.chosen = this.chosen.filter((m) => !sent.includes(m));
    this.drawChips();
  }

  #query(): string | null {
    const input = this.ui.input;
    const before = input.value.slice(0, input.selectionStart ?? input.value.length);
    const m = /(?:^|\s)@([^\s@]*)$/.exec(before);
    return m ? m[1] : null;
  }

  /** Opens, filters or closes the list as the text before the caret changes. */
  async update(): Promise<void> {
    const query = this.#query();
    if (query === null || !this.editor()) return this.close();
    if (!this.#open) this.#pool = await this.#candidates();
    const q = query.toLowerCase();
    this.#items = this.#pool
      .filter((m) => !q || m.label.toLowerCase().includes(q) || m.name.toLowerCase().includes(q) || m.id.toLowerCase().includes(q))
      .slice(0, 30);
    if (this.#items.length === 0) return this.close();
    this.#open = true;
    this.#index = Math.min(this.#index, this.#items.length - 1);
    this.#draw();
  }

  async #candidates(): Promise<Mention[]> {
    const editor = this.editor()!;
    const out: Mention[] = [];
    const taken = new Set<string>();
    // A name never goes into the message whole: a short sanitized label, made unique.
    const label = (name: string, kind: string) => {
      const base = mentionLabel(name, kind);
      let l = base;
      for (let n = 2; taken.has(l); n++) l = mentionLabel(`${base.replace(/…$/, "").slice(0, 18)}_${n}`);
      taken.add(l);
      return l;
    };
    const assets = (await editor.callToolUntyped("list_project_assets", {})) as { assets?: { id: string; name: string; type: string; duration?: number }[] };
    for (const a of assets.assets ?? []) {
      out.push({
        kind: "asset",
        id: a.id,
        label: label(a.name, "asset"),
        name: a.name,
        detail: `${a.type}${a.duration !== undefined ? `, ${seconds(a.duration)}` : ""}`,
        data: { ...a },
      });
    }
    const timeline = (await editor.callToolUntyped("list_timeline", {})) as {
      tracks?: { trackId: string; type: string; elements: Record<string, unknown>[] }[];
    };
    for (const t of timeline.tracks ?? []) {
      for (const e of t.elements ?? []) {
        const id = String(e.elementId);
        const name = String(e.ref ?? e.name ?? id);
        const what = typeof e.text === "string" ? `"${e.text.slice(0, 30)}"` : String(e.type);
        out.push({
          kind: "element",
          id,
          label: label(name, "element"),
          name,
          detail: `${what}, ${seconds(e.start)}–${seconds(e.end)}`,
          data: { trackId: t.trackId, trackType: t.type, ...e },
        });
      }
    }
    return out;
  }

  #draw(): void {
    const list = this.ui.mentions;
    list.replaceChildren(
      ...this.#items.map((m, i) =>
        h(
          "li",
          {
            role: "option",
            id: `mention-${i}`,
            "aria-selected": i === this.#index ? "true" : "false",
            "data-mention-id": m.id,
            onmousedown: (e: Event) => (e.preventDefault(), this.#choose(m)),
          },
          h("span", { title: m.name }, `@${m.label}`),
          h("span", { class: "kind" }, `${m.kind === "asset" ? "asset" : "element"} · ${m.detail}`),
        ),
      ),
    );
    list.hidden = false;
    this.ui.input.setAttribute("aria-activedescendant", `mention-${this.#index}`);
    list.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: "nearest" });
  }

  close(): void {
    this.#open = false;
    this.#index = 0;
    if (!this.built()) return;
    this.ui.mentions.hidden = true;
    this.ui.mentions.replaceChildren();
    this.ui.input.removeAttribute("aria-activedescendant");
  }

  #choose(m: Mention | undefined) {
    if (!m) return;
    const input = this.ui.input;
    const caret = input.selectionStart ?? input.value.length;
    const before = input.value.slice(0, caret).replace(/@([^\s@]*)$/, `@${m.label} `);
    input.value = before + input.value.slice(caret);
    input.setSelectionRange(before.length, before.length);
    if (!this.chosen.some((c) => c.id === m.id)) this.chosen.push(m);
    this.close();
    this.drawChips();
    input.focus();
  }

  /** The chosen mentions as chips under the box. */
  drawChips(): void {
    if (!this.built()) return;
    this.ui.chips.replaceChildren(
      ...this.chosen.map((m) =>
        h(
          "span",
          { class: "chip", part: "chip", "data-mention-id": m.id },
          `@${m.label}`,
          h(
            "button",
            {
              type: "button",
              "aria-label": `Remove the mention of ${m.label}`,
              "data-automation-id": "agent.mention-remove",
              onclick: () => this.#unmention(m),
            },
            "×",
          ),
        ),
      ),
    );
  }

  #unmention(m: Mention) {
    this.chosen = this.chosen.filter((c) => c !== m);
    this.ui.input.value = this.ui.input.value.replace(`@${m.label} `, "").replace(`@${m.label}`, "");
    this.drawChips();
    this.ui.input.focus();
  }
}
