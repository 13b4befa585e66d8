// What the user answers inside the log: approvals of edits and uploads (inline in the tool's
// card), plan cards (approve, edit, reject) and question cards. Stop declines or closes them all.
import type { ConfirmRequest, PermissionMode, PlanDecision } from "../agent/types.js";
import { h, stopped } from "./dom.js";
import type { ConversationLog } from "./log.js";
import type { CardStatus } from "./sessions.js";

export interface AskState {
  permission(): PermissionMode;
  /** Whether the running message was stopped. */
  stopped(): boolean;
}

export class Asks {
  readonly #pending = new Set<(ok: boolean) => void>();

  constructor(
    readonly log: ConversationLog,
    readonly state: AskState,
  ) {}

  /** Declines every pending approval and closes plan and question cards as stopped. */
  cancelAll(): void {
    for (const answer of [...this.#pending]) answer(false);
  }

  /** Approve / Decline inside `where`; resolves false when declined, stopped or cancelled. */
  #askIn(where: HTMLElement, text: string, signal: AbortSignal | undefined, labels = ["Approve", "Decline"]): Promise<boolean> {
    return new Promise((resolve) => {
      let row: HTMLElement;
      const answer = (ok: boolean) => {
        if (!this.#pending.delete(answer)) return;
        row.remove();
        signal?.removeEventListener("abort", onAbort);
        resolve(ok);
      };
      const onAbort = () => answer(false);
      row = h(
        "div",
        { class: "ask", part: "approval" },
        h("span", { class: "prompt" }, text),
        h("button", { type: "button", class: "primary", "data-automation-id": "agent.allow", onclick: () => answer(true) }, labels[0]),
        h("button", { type: "button", "data-automation-id": "agent.decline", onclick: () => answer(false) }, labels[1]),
      );
      this.#pending.add(answer);
      if (signal?.aborted) return answer(false);
      signal?.addEventListener("abort", onAbort, { once: true });
      where.append(row);
      this.log.scroll();
      (row.querySelector("button.primary") as HTMLButtonElement).focus();
    });
  }

  /** The answer to the agent's confirm: for uploads always asked; for edits by the permission mode. */
  async confirm(request: ConfirmRequest): Promise<boolean> {
    const card = [...this.log.cards.values()].reverse().find((c) => c.item.name === request.name && c.item.status === "running" && !c.asked);
    if (request.kind === "upload") {
      const size = request.upload ? ` (${(request.upload.sizeBytes / 1e6).toFixed(1)} MB)` : "";
      return this.#askIn(
        card?.node ?? this.log.node,
        `Send "${request.upload?.assetName ?? "this asset"}"${size} to Google Gemini so the assistant can watch it?`,
        request.signal,
        ["Send", "Don't send"],
      );
    }
    const mode = this.state.permission();
    if (mode === "allow") return true;
    if (mode === "readonly") return false;
    if (!card) return false;
    card.asked = true;
    this.log.setStatus(card, "waiting");
    const ok = await this.#askIn(card.node, `${request.title}: allow this change?`, request.signal);
    if (card.item.status === "waiting") this.log.setStatus(card, ok ? "running" : this.state.stopped() ? "stopped" : "declined");
    return ok;
  }

  /** The plan card: the user approves, edits or rejects the plan (the agent's onPlan). */
  plan(plan: { steps?: unknown[]; summary?: string }, signal?: AbortSignal): Promise<PlanDecision> {
    const steps = (plan.steps ?? []).map((s) =>
      typeof s === "string"
        ? s
        : String(
            (s as { description?: unknown; title?: unknown; text?: unknown })?.description ??
              (s as { title?: unknown })?.title ??
              (s as { text?: unknown })?.text ??
              JSON.stringify(s),
          ),
    );
    this.log.streaming = undefined;
    return new Promise((resolve, reject) => {
      const list = h("ol", {}, ...steps.map((s) => h("li", {}, s)));
      const editor = h("textarea", {
        rows: String(Math.max(3, steps.length + 1)),
        "aria-label": "Plan steps, one per line",
        "data-automation-id": "agent.plan-steps",
        hidden: true,
      }) as HTMLTextAreaElement;
      editor.value = steps.join("\n");
      const feedback = h("textarea", {
        rows: "2",
        "aria-label": "Why reject the plan (optional)",
        "data-automation-id": "agent.plan-feedback",
        hidden: true,
      }) as HTMLTextAreaElement;
      const status = h("span", { class: "status", part: "status" }, "waiting for you");
      const buttons = h("div", { class: "ask" });
      const card = h(
        "div",
        { class: "card plan", part: "card plan", "data-status": "waiting" },
        h("div", { class: "head" }, h("span", { class: "summary-text" }, plan.summary || "Proposed plan"), status),
        list,
        editor,
        feedback,
        buttons,
      );
      const finish = (d: PlanDecision | null, label: string) => {
        this.#pending.delete(cancel);
        signal?.removeEventListener("abort", onAbort);
        buttons.remove();
        editor.remove();
        feedback.remove();
        card.dataset.status = d ? (d.decision === "reject" ? "declined" : "done") : "stopped";
        status.textContent = label;
        const shown = d?.steps ?? steps;
        list.replaceChildren(...shown.map((s) => h("li", {}, s)));
        list.hidden = false;
        this.log.record({
          kind: "card",
          id: `plan-${Date.now()}`,
          name: "submit_plan",
          summary: plan.summary || "Proposed plan",
          status: card.dataset.status as CardStatus,
          args: { steps: shown },
          result: d ?? undefined,
        });
        if (d) resolve(d);
        else {
          reject(stopped());
        }
      };
      const cancel = () => finish(null, "stopped");
      const onAbort = cancel;
      const btn = (label: string, id: string, onclick: () => void, primary = false) =>
        h("button", { type: "button", class: primary ? "primary" : undefined, "data-automation-id": id, onclick }, label);
      const approve = btn("Approve", "agent.plan-approve", () => finish({ decision: "approve" }, "approved"), true);
      const edit = btn("Edit", "agent.plan-edit", () => {
        list.hidden = true;
        editor.hidden = false;
        buttons.replaceChildren(
          btn(
            "Approve edited plan",
            "agent.plan-save",
            () =>
              finish(
                {
                  decision: "edit",
                  steps: editor.value
                    .split("\n")
                    .map((s) => s.trim())
                    .filter(Boolean),
                },
                "approved with edits",
              ),
            true,
          ),
          btn("Cancel", "agent.plan-cancel-edit", () => {
            list.hidden = false;
            editor.hidden = true;
            buttons.replaceChildren(approve, edit, reject_);
            edit.focus();
          }),
        );
        editor.focus();
      });
      const reject_ = btn("Reject", "agent.plan-reject", () => {
        feedback.hidden = false;
        buttons.replaceChildren(
          btn(
            "Send rejection",
            "agent.plan-reject-send",
            () => finish({ decision: "reject", ...(feedback.value.trim() ? { feedback: feedback.value.trim() } : {}) }, "rejected"),
            true,
          ),
          btn("Cancel", "agent.plan-cancel-reject", () => {
            feedback.hidden = true;
            buttons.replaceChildren(approve, edit, reject_);
            reject_.focus();
          }),
        );
        feedback.focus();
      });
      buttons.append(approve, edit, reject_);
      this.#pending.add(cancel);
      if (signal?.aborted) return cancel();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.log.node.append(card);
      this.log.scroll();
      approve.focus();
    });
  }

  /** The question card: an option or a free answer (the agent's askUser). */
  question(q: { question: string; options?: string[] }, signal?: AbortSignal): Promise<string> {
    this.log.streaming = undefined;
    return new Promise((resolve, reject) => {
      const status = h("span", { class: "status", part: "status" }, "waiting for you");
      const free = h("input", { type: "text", "aria-label": "Your answer", "data-automation-id": "agent.answer-input" }) as HTMLInputElement;
      const answers = h("div", { class: "ask" });
      const card = h(
        "div",
        { class: "card question", part: "card question", "data-status": "waiting" },
        h("div", { class: "head" }, h("span", { class: "summary-text" }, q.question), status),
        answers,
      );
      const finish = (answer: string | null) => {
        this.#pending.delete(cancel);
        signal?.removeEventListener("abort", onAbort);
        answers.remove();
        card.dataset.status = answer === null ? "stopped" : "done";
        status.textContent = answer === null ? "stopped" : "answered";
        if (answer !== null) card.append(h("div", { class: "msg user" }, answer));
        this.log.record({
          kind: "card",
          id: `question-${Date.now()}`,
          name: "ask_user",
          summary: q.question,
          status: card.dataset.status as CardStatus,
          args: q,
          result: answer ?? undefined,
        });
        if (answer !== null) resolve(answer);
        else {
          reject(stopped());
        }
      };
      const cancel = () => finish(null);
      const onAbort = cancel;
      const options = Array.isArray(q.options) ? q.options.filter((o) => typeof o === "string") : [];
      options.forEach((o, i) =>
        answers.append(
          h("button", { type: "button", class: i === 0 ? "primary" : undefined, "data-automation-id": `agent.answer-${i}`, onclick: () => finish(o) }, o),
        ),
      );
      const submitFree = () => free.value.trim() && finish(free.value.trim());
      free.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          submitFree();
        }
      });
      answers.append(free, h("button", { type: "button", "data-automation-id": "agent.answer-send", onclick: submitFree }, "Answer"));
      this.#pending.add(cancel);
      if (signal?.aborted) return cancel();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.log.node.append(card);
      this.log.scroll();
      ((answers.querySelector("button") as HTMLElement | null) ?? free).focus();
    });
  }
}
