// The panel's DOM in its shadow root: the header (conversations, rename, permission), the log,
// progress bars, token counts, the status line and the composer (mentions list, chips, message
// box, Send and Stop). Keys typed into the panel's fields stay in the panel.
import type { PermissionMode } from "../agent/types.js";
import { h } from "./dom.js";
import { PERMISSION_MODES } from "./permission.js";
import { PANEL_CSS } from "./style.js";

export interface PanelUI {
  log: HTMLElement;
  permission: HTMLSelectElement;
  sessions: HTMLSelectElement;
  sessionBar: HTMLElement;
  renameBar: HTMLElement;
  renameInput: HTMLInputElement;
  input: HTMLTextAreaElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
  chips: HTMLElement;
  mentions: HTMLUListElement;
  meters: HTMLElement;
  usage: HTMLElement;
  status: HTMLElement;
}

/** What the controls do. */
export interface ViewActions {
  permission(mode: PermissionMode): void;
  switchSession(id: string): void;
  newSession(): void;
  showRename(on: boolean): void;
  rename(title: string): void;
  deleteSession(): void;
  send(text: string): void;
  stop(): void;
  /** A key in the message box. */
  key(e: KeyboardEvent): void;
  /** The message box's text changed. */
  input(): void;
  /** The message box lost the focus. */
  blur(): void;
}

export const PLACEHOLDER = "Ask for an edit; @ mentions an asset or element";

/** Builds the panel into `root`. */
export function buildView(root: ShadowRoot, act: ViewActions): PanelUI {
  const style = h("style");
  style.textContent = PANEL_CSS;
  const permission = h(
    "select",
    {
      part: "permission",
      "aria-label": "Permission for edits",
      "data-automation-id": "agent.permission",
      onchange: () => act.permission(permission.value as PermissionMode),
    },
    ...PERMISSION_MODES.map((m) => h("option", { value: m.mode }, m.label)),
  ) as HTMLSelectElement;
  const sessions = h("select", {
    part: "sessions",
    "aria-label": "Conversation",
    "data-automation-id": "agent.sessions",
    onchange: () => act.switchSession(sessions.value),
  }) as HTMLSelectElement;
  const renameInput = h("input", { type: "text", "aria-label": "Conversation name", "data-automation-id": "agent.rename-input" }) as HTMLInputElement;
  const renameBar = h(
    "div",
    { class: "rename", hidden: true },
    renameInput,
    h("button", { type: "button", "data-automation-id": "agent.rename-save", onclick: () => act.rename(renameInput.value) }, "Save"),
    h("button", { type: "button", "data-automation-id": "agent.rename-cancel", onclick: () => act.showRename(false) }, "Cancel"),
  );
  renameInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      act.rename(renameInput.value);
    } else if (e.key === "Escape") {
      e.preventDefault();
      act.showRename(false);
    }
  });
  const sessionBar = h(
    "div",
    { class: "rename" },
    sessions,
    h("button", { type: "button", "data-automation-id": "agent.new-chat", title: "Start a new conversation", onclick: () => act.newSession() }, "New"),
    h("button", { type: "button", "data-automation-id": "agent.rename", title: "Rename this conversation", onclick: () => act.showRename(true) }, "Rename"),
    h("button", { type: "button", "data-automation-id": "agent.delete", title: "Delete this conversation", onclick: () => act.deleteSession() }, "Delete"),
  );
  const log = h("div", {
    class: "log",
    part: "log",
    role: "log",
    "aria-live": "polite",
    "aria-label": "Conversation with the assistant",
    tabindex: "0",
    "data-automation-id": "agent.log",
  });
  const mentions = h("ul", {
    class: "mentions",
    part: "mentions",
    role: "listbox",
    id: "mentions",
    "aria-label": "Mention an asset or element",
    hidden: true,
  }) as HTMLUListElement;
  const input = h("textarea", {
    rows: "2",
    part: "input",
    "aria-label": "Message to the assistant",
    "aria-autocomplete": "list",
    "aria-controls": "mentions",
    placeholder: PLACEHOLDER,
    "data-automation-id": "agent.input",
  }) as HTMLTextAreaElement;
  const send = h(
    "button",
    { type: "button", class: "primary", part: "send", "data-automation-id": "agent.send", onclick: () => act.send(input.value) },
    "Send",
  ) as HTMLButtonElement;
  const stop = h(
    "button",
    { type: "button", part: "stop", "data-automation-id": "agent.stop", title: "Stop (Escape)", hidden: true, onclick: () => act.stop() },
    "Stop",
  ) as HTMLButtonElement;
  const chips = h("div", { class: "chips", part: "chips" });
  const meters = h("div", { class: "meters", part: "progress" });
  const usage = h("div", { class: "usage", part: "usage", "aria-live": "polite" });
  const status = h("div", { class: "usage", role: "status" });
  input.addEventListener("keydown", (e) => act.key(e));
  // Keys typed into the panel's fields are text, not the host's shortcuts (Space, S, Delete,
  // Ctrl+Z): outside the shadow root their target is the panel element, which hosts' "is the
  // user typing?" checks do not recognise.
  for (const type of ["keydown", "keyup", "keypress"]) {
    root.addEventListener(type, (e) => {
      const t = e.composedPath()[0];
      if (t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type === "text")) e.stopPropagation();
    });
  }
  input.addEventListener("input", () => act.input());
  input.addEventListener("blur", () => act.blur());
  root.append(
    style,
    h("div", { class: "bar", part: "header" }, sessionBar, renameBar, permission),
    log,
    meters,
    usage,
    status,
    h("div", { class: "composer", part: "composer" }, mentions, chips, h("div", { class: "row" }, input, h("div", { class: "ask" }, send, stop))),
  );
  return { log, permission, sessions, sessionBar, renameBar, renameInput, input, send, stop, chips, mentions, meters, usage, status };
}
