// The conversation log: the transcript kept for the session store and what is drawn of it
// (messages, notices, one card per tool call with its status and result, the streamed reply).
import { h, json } from "./dom.js";
import { statusText, summaryLine } from "./format.js";
import type { CardStatus, TranscriptItem } from "./sessions.js";

export type CardItem = Extract<TranscriptItem, { kind: "card" }>;

export interface Card {
  item: CardItem;
  node: HTMLElement;
  status: HTMLElement;
  result: HTMLElement;
  asked?: boolean;
}

export class ConversationLog {
  /** The session's transcript (the same array as its record's). */
  transcript: TranscriptItem[] = [];
  readonly cards = new Map<string, Card>();
  /** The model's reply being streamed in, until its whole text comes. */
  streaming?: HTMLElement;

  constructor(readonly node: HTMLElement) {}

  clear(): void {
    this.node.replaceChildren();
    this.cards.clear();
    this.streaming = undefined;
  }

  scroll(): void {
    this.node.scrollTop = this.node.scrollHeight;
  }

  record(item: TranscriptItem): void {
    this.transcript.push(item);
  }

  notice(text: string, kind: "notice" | "error", keep = true): void {
    const item = { kind, text } as TranscriptItem;
    if (keep) this.record(item);
    this.draw(item);
  }

  /** Draws one transcript item at the end of the log; cards come back as cards. */
  draw(item: TranscriptItem): HTMLElement {
    let node: HTMLElement;
    switch (item.kind) {
      case "user":
        node = h("div", { class: "msg user", part: "message user" }, item.text);
        break;
      case "model":
        node = h("div", { class: "msg model", part: "message model" }, item.text);
        break;
      case "notice":
        node = h("div", { class: "msg notice", part: "notice" }, item.text);
        break;
      case "error":
        node = h("div", { class: "msg error", part: "error", role: "alert" }, item.text);
        break;
      case "card":
        node = this.#cardNode(item).node;
        break;
      case "summary":
        node = h("div", { class: "run-end", part: "run-summary" }, h("div", { class: "row" }, summaryLine(item)));
        break;
    }
    this.node.append(node);
    this.scroll();
    return node;
  }

  /** A piece of the streamed reply. */
  delta(text: string): void {
    if (!this.streaming) this.streaming = this.draw({ kind: "model", text: "" });
    this.streaming.textContent += text;
    this.scroll();
  }

  /** The reply's whole text: replaces the streamed pieces. */
  text(text: string): void {
    const item: TranscriptItem = { kind: "model", text };
    this.record(item);
    if (this.streaming) this.streaming.textContent = text;
    else this.draw(item);
    this.streaming = undefined;
  }

  /** A tool's card, running. */
  call(item: CardItem): void {
    this.record(item);
    this.draw(item);
  }

  /** The result of the call whose card has `id`; `status` from its error code. */
  result(id: string, result: Record<string, unknown>, isError: boolean): void {
    const card = this.cards.get(id);
    if (!card) return;
    const code = (result as { code?: unknown }).code;
    const status: CardStatus = !isError
      ? "done"
      : code === "DECLINED" || code === "READ_ONLY"
        ? "declined"
        : code === "CANCELLED" || code === "STOPPED"
          ? "stopped"
          : "error";
    this.setStatus(card, status);
    card.item.result = result;
    this.#showResult(card, result);
  }

  setStatus(card: Card, status: CardStatus): void {
    card.item.status = status;
    card.node.dataset.status = status;
    card.status.textContent = statusText(status);
  }

  /** Cards still running or waiting when a run ended: stopped, or failed. */
  settle(outcome: "done" | "stopped" | "error"): void {
    for (const card of this.cards.values())
      if (card.item.status === "running" || card.item.status === "waiting") this.setStatus(card, outcome === "stopped" ? "stopped" : "error");
  }

  #cardNode(item: CardItem): Card {
    const status = h("span", { class: "status", part: "status" }, statusText(item.status));
    const result = h("div", { class: "result-box" });
    const node = h(
      "div",
      { class: "card", part: "card", "data-tool": item.name, "data-call-id": item.id, "data-status": item.status },
      h("div", { class: "head" }, h("span", { class: "summary-text" }, item.summary), status),
      h("details", { part: "arguments" }, h("summary", {}, "Arguments"), h("pre", {}, json(item.args))),
      result,
    );
    const card: Card = { item, node, status, result };
    if (item.result !== undefined) this.#showResult(card, item.result);
    this.cards.set(item.id, card);
    return card;
  }

  #showResult(card: Card, result: unknown): void {
    card.result.replaceChildren(h("details", { part: "result" }, h("summary", {}, "Result"), h("pre", {}, json(result))));
  }
}
