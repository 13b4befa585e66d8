// `neuralcut/panel`: <neuralcut-agent-panel>, a drop-in agent sidebar for any host page. The host
// gives it an editor and the proxy's URL (or an agent it made); the panel runs the agent loop and
// shows the conversation: streamed replies, one card per tool call, inline approvals, plans and
// questions, the end of each run (what changed, a thumbnail, Undo run), chat sessions per project
// in IndexedDB, @-mentions of assets and timeline elements, token counts and progress bars.
// Framework-free; everything lives in an open shadow root styled by --nc-panel-* properties.

import { AgentError, createAgent, DEFAULT_MODEL, MENTIONS_START, mentionLabel, type Agent, type AgentEvent, type AgentOptions, type ConfirmRequest, type Content, type Mention as AgentMention, type ProxyHeaders } from "../agent/index.js";
import type { NeuralCutEditor } from "../editor.js";
import { openSessionStore, titleFrom, type CardStatus, type SessionRecord, type SessionStore, type TranscriptItem } from "./sessions.js";
import { PANEL_CSS } from "./style.js";

export { openSessionStore, titleFrom } from "./sessions.js";
export type { CardStatus, SessionRecord, SessionStore, TranscriptItem } from "./sessions.js";
export { PANEL_CSS } from "./style.js";

export const PANEL_TAG = "neuralcut-agent-panel";

/** How edits are handled: ask before each, run them, or refuse them. */
export type PermissionMode = "ask" | "allow" | "readonly";
export const PERMISSION_MODES: readonly { mode: PermissionMode; label: string }[] = [
  { mode: "ask", label: "Ask before each edit" },
  { mode: "allow", label: "Allow edits" },
  { mode: "readonly", label: "Read only" },
];

/** Where the permission mode is remembered, per project. */
export const permissionKey = (projectId: string) => `neuralcut-panel:permission:${projectId}`;

/** What the plan card answers the agent's onPlan. */
export interface PlanDecision {
  decision: "approve" | "reject" | "edit";
  steps?: string[];
  feedback?: string;
}

/** The mentions' details reach the model in a part of their own, between these lines (see the
 * agent's Mentions); the user's words carry only each mention's short label. */
export { MENTIONS_START, MENTIONS_END, mentionLabel } from "../agent/index.js";

/** The user's words of a sent message, without a mentions block (messages of older versions
 * carried it in the same text). */
export function messageText(sent: string): string {
  const at = sent.indexOf(`\n\n${MENTIONS_START}`);
  return at < 0 ? sent : sent.slice(0, at);
}

/** Events of newer agents, handled when they come (the panel works without them). */
type ExtraEvent =
  | { type: "text_delta"; text: string }
  | { type: "permission"; mode: PermissionMode }
  | { type: "stopped" }
  | { type: "usage"; last?: Usage; session?: Usage }
  | { type: "progress"; kind: "upload" | "transcription"; assetId: string; fraction: number }
  | { type: "run_summary"; added: unknown; removed: unknown; changed: unknown };
interface Usage {
  promptTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}
type PanelEvent = AgentEvent | ExtraEvent;

/** What newer agents add; each is used only when present. */
interface AgentExtras {
  stop?(): void;
  retry?(): Promise<string>;
  setPermission?(mode: PermissionMode): void;
  restore?(contents: Content[]): void;
}

interface Mention {
  kind: "asset" | "element";
  id: string;
  /** Short and sanitized (mentionLabel), unique in the list: what goes in the message. */
  label: string;
  /** The item's own name, shown in the list only. */
  name: string;
  detail: string;
  data: Record<string, unknown>;
}

interface Card {
  item: Extract<TranscriptItem, { kind: "card" }>;
  node: HTMLElement;
  status: HTMLElement;
  result: HTMLElement;
  asked?: boolean;
}

interface Run {
  controller: AbortController;
  before: Map<string, string>;
  /** Committed tool changes during the run: the most undo steps Undo run takes. */
  changes: number;
  summary?: { added: number; removed: number; changed: number };
  stopped: boolean;
}

type Child = Node | string | null | undefined | false;
function h(tag: string, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") node.className = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

function json(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? "";
  return text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text;
}

function seconds(v: unknown): string {
  return typeof v === "number" ? `${Math.round(v * 100) / 100} s` : String(v);
}

/** A readable line for a call when the agent gives none: the tool and its main arguments. */
function fallbackSummary(name: string, args: Record<string, unknown>): string {
  const parts = Object.entries(args)
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v) || (Array.isArray(v) && v.length <= 4 && v.every((x) => typeof x !== "object")))
    .slice(0, 3)
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.map(seconds).join(", ") : typeof v === "number" ? seconds(v) : String(v).slice(0, 40)}`);
  return `${name.replace(/_/g, " ")}${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

function elementsOf(editor: NeuralCutEditor): Map<string, string> {
  const map = new Map<string, string>();
  const tracks = (editor.project() as { timeline?: { tracks?: { id: string; elements?: { id: string }[] }[] } }).timeline?.tracks ?? [];
  for (const t of tracks) for (const e of t.elements ?? []) map.set(e.id, JSON.stringify({ track: t.id, ...e }));
  return map;
}

function diff(before: Map<string, string>, after: Map<string, string>) {
  let added = 0;
  let changed = 0;
  for (const [id, v] of after) {
    if (!before.has(id)) added++;
    else if (before.get(id) !== v) changed++;
  }
  let removed = 0;
  for (const id of before.keys()) if (!after.has(id)) removed++;
  return { added, removed, changed };
}

function isStop(e: unknown): boolean {
  const x = e as { name?: string; code?: string };
  return x?.name === "AbortError" || x?.code === "STOPPED";
}

/** Tools the user answers in a card of their own (plan, question) rather than a tool card. */
const INTERACTIVE_TOOLS = new Set(["submit_plan", "ask_user"]);

let sessionCounter = 0;
const newId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `s${Date.now()}_${++sessionCounter}`);

// HTMLElement does not exist in Node: the module still imports there (for its types and helpers).
const Base = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

export class NeuralCutAgentPanel extends Base {
  static get observedAttributes() {
    return ["proxy-url", "project-id", "model"];
  }

  #editor?: NeuralCutEditor;
  #agent?: Agent & AgentExtras;
  #ownAgent = false;
  #proxyUrl?: string;
  #projectId = "default";
  #model?: string;
  #headers?: ProxyHeaders;
  #disabledReason?: string;
  /** Extra createAgent options (clientId, tools, transcriber, ...) for the agent the panel makes. */
  agentOptions: Partial<AgentOptions> & Record<string, unknown> = {};
  /** Draws the frame at `seconds` for the thumbnail after a run. */
  renderFrame?: (seconds: number) => Promise<Blob>;
  /** The playhead, for that thumbnail. */
  playhead: () => number = () => 0;
  /** Wraps each message's work, e.g. `(work) => bridge.run(work)` so that an OpenCut host writes
   * the whole run back as one of its own undo steps. */
  wrapRun?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Replaces what "Undo run" does (default: undo the run in the editor), e.g. OpenCut's own
   * `() => core.command.undo()` when wrapRun made the run one OpenCut step. */
  undoRun?: () => void | Promise<void>;

  #root!: ShadowRoot;
  #ui!: {
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
  };
  #built = false;
  #setupQueued = false;
  #store?: Promise<SessionStore>;
  #session?: SessionRecord;
  #transcript: TranscriptItem[] = [];
  #cards = new Map<string, Card>();
  #streaming?: HTMLElement;
  #run?: Run;
  #lastText?: string;
  #lastMentions: AgentMention[] = [];
  #pending = new Set<(ok: boolean) => void>();
  #chosen: Mention[] = [];
  /** Labels of the mentions the message being sent carries. */
  #sentMentions: string[] = [];
  #mentionItems: Mention[] = [];
  #mentionIndex = 0;
  #mentionOpen = false;
  #unsubscribe?: () => void;
  #revisionAtEnd?: number;
  #undoButton?: HTMLButtonElement;
  #thumbUrl?: string;
  #meters = new Map<string, HTMLElement>();

  // ---- host-facing properties ----

  get editor(): NeuralCutEditor | undefined {
    return this.#editor;
  }
  set editor(editor: NeuralCutEditor | undefined) {
    this.#editor = editor;
    this.#unsubscribe?.();
    this.#unsubscribe = editor?.onChange((e) => {
      if (this.#run && e.source === "tool") this.#run.changes++;
      this.#refreshUndo();
    });
    this.#replaceAgent();
  }
  get proxyUrl(): string | undefined {
    return this.#proxyUrl;
  }
  set proxyUrl(url: string | undefined) {
    this.#proxyUrl = url;
    this.#replaceAgent();
  }
  get projectId(): string {
    return this.#projectId;
  }
  set projectId(id: string) {
    const next = String(id || "default");
    if (next === this.#projectId) return;
    this.stop();
    this.#projectId = next;
    this.#session = undefined;
    if (this.#built) void this.#openProject();
  }
  get model(): string | undefined {
    return this.#model;
  }
  set model(model: string | undefined) {
    this.#model = model;
    this.#replaceAgent();
  }
  get headers(): ProxyHeaders | undefined {
    return this.#headers;
  }
  set headers(headers: ProxyHeaders | undefined) {
    this.#headers = headers;
    this.#replaceAgent();
  }
  /** An agent the host made; it must be created with this panel's hooks: `createAgent({ ...,
   * ...panel.agentHooks() })`. Setting it replaces the panel's own. */
  get agent(): Agent | undefined {
    return this.#agent;
  }
  set agent(agent: Agent | undefined) {
    if (this.#ownAgent) this.#agent?.reset();
    this.#agent = agent as Agent & AgentExtras;
    this.#ownAgent = false;
    this.#applyPermission();
    this.#updateControls();
  }
  /** When set, the panel shows this and cannot send (e.g. "no API key on the server"). */
  get disabledReason(): string | undefined {
    return this.#disabledReason;
  }
  set disabledReason(reason: string | undefined) {
    this.#disabledReason = reason || undefined;
    if (this.#built && reason) this.#notice(reason, "error", false);
    this.#updateControls();
  }

  /** The options that connect an agent to this panel (onEvent, confirm, onPlan, askUser, ...). */
  agentHooks(): Partial<AgentOptions> & Record<string, unknown> {
    return {
      onEvent: (e: AgentEvent) => this.#onEvent(e as PanelEvent),
      confirm: (r: ConfirmRequest) => this.#confirm(r),
      onPlan: (plan: { steps?: unknown[]; summary?: string }, o?: { signal?: AbortSignal }) => this.#planCard(plan, o?.signal),
      askUser: (q: { question: string; options?: string[] }, o?: { signal?: AbortSignal }) => this.#questionCard(q, o?.signal),
      permission: this.permission,
      stream: true,
      group: true,
    };
  }

  /** The current permission mode. */
  get permission(): PermissionMode {
    const stored = this.#storage()?.getItem(permissionKey(this.#projectId));
    return stored === "allow" || stored === "readonly" || stored === "ask" ? stored : "ask";
  }
  set permission(mode: PermissionMode) {
    if (!PERMISSION_MODES.some((m) => m.mode === mode)) throw new TypeError(`permission must be ask, allow or readonly, not ${String(mode)}`);
    this.#storage()?.setItem(permissionKey(this.#projectId), mode);
    if (this.#built) this.#ui.permission.value = mode;
    this.#applyPermission();
  }

  /** Sends a message as if typed (mentions chosen in the box go with it). */
  send(text: string): Promise<void> {
    return this.#submit(text);
  }
  /** Stops the running message: the model call, the running tool, pending approvals (declined). */
  stop(): void {
    const run = this.#run;
    if (!run) return;
    run.stopped = true;
    for (const answer of [...this.#pending]) answer(false);
    if (typeof this.#agent?.stop === "function") this.#agent.stop();
    const e = new Error("Stopped by the user");
    e.name = "AbortError";
    run.controller.abort(e);
  }
  /** Whether a message is being answered. */
  running(): boolean {
    return this.#run !== undefined;
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null) {
    if (name === "proxy-url") this.proxyUrl = value ?? undefined;
    else if (name === "project-id") this.projectId = value ?? "default";
    else if (name === "model") this.model = value ?? undefined;
  }

  connectedCallback() {
    // Properties a host set before the element was defined are own properties hiding the
    // accessors: take them over.
    for (const key of ["agentOptions", "renderFrame", "playhead", "wrapRun", "undoRun", "projectId", "model", "headers", "disabledReason", "editor", "proxyUrl", "agent"] as const) {
      if (Object.prototype.hasOwnProperty.call(this, key)) {
        const value = (this as unknown as Record<string, unknown>)[key];
        delete (this as unknown as Record<string, unknown>)[key];
        (this as unknown as Record<string, unknown>)[key] = value;
      }
    }
    if (!this.#built) this.#build();
    this.#queueSetup();
  }

  disconnectedCallback() {
    this.stop();
  }

  // ---- setup ----

  #storage(): Storage | undefined {
    try {
      return typeof localStorage === "undefined" ? undefined : localStorage;
    } catch {
      return undefined;
    }
  }

  #replaceAgent() {
    if (this.#agent && !this.#ownAgent) return;
    if (this.#ownAgent) {
      this.#agent?.reset();
      this.#agent = undefined;
      this.#ownAgent = false;
    }
    this.#queueSetup();
  }

  #queueSetup() {
    if (this.#setupQueued) return;
    this.#setupQueued = true;
    queueMicrotask(() => {
      this.#setupQueued = false;
      if (!this.#built) return;
      if (!this.#agent && this.#editor && this.#proxyUrl) {
        this.#agent = createAgent({
          ...this.agentOptions,
          editor: this.#editor,
          proxyUrl: this.#proxyUrl,
          model: this.#model ?? (this.agentOptions.model as string | undefined) ?? DEFAULT_MODEL,
          headers: this.#headers ?? this.agentOptions.headers,
          ...this.agentHooks(),
        } as AgentOptions) as Agent & AgentExtras;
        this.#ownAgent = true;
        if (this.#session?.history.length) {
          try {
            this.#agent.restore?.(this.#session.history);
          } catch {
            // A stored conversation the agent refuses: it starts fresh; the messages stay shown.
          }
        }
      }
      this.#updateControls();
      if (!this.#store) {
        this.#store = openSessionStore();
        void this.#openProject();
      }
    });
  }

  #build() {
    this.#built = true;
    this.#root = this.attachShadow({ mode: "open" });
    const style = h("style");
    style.textContent = PANEL_CSS;
    const permission = h(
      "select",
      { part: "permission", "aria-label": "Permission for edits", "data-automation-id": "agent.permission", onchange: () => (this.permission = permission.value as PermissionMode) },
      ...PERMISSION_MODES.map((m) => h("option", { value: m.mode }, m.label)),
    ) as HTMLSelectElement;
    const sessions = h("select", { part: "sessions", "aria-label": "Conversation", "data-automation-id": "agent.sessions", onchange: () => void this.#switchSession(sessions.value) }) as HTMLSelectElement;
    const renameInput = h("input", { type: "text", "aria-label": "Conversation name", "data-automation-id": "agent.rename-input" }) as HTMLInputElement;
    const renameBar = h(
      "div",
      { class: "rename", hidden: true },
      renameInput,
      h("button", { type: "button", "data-automation-id": "agent.rename-save", onclick: () => void this.#rename(renameInput.value) }, "Save"),
      h("button", { type: "button", "data-automation-id": "agent.rename-cancel", onclick: () => this.#showRename(false) }, "Cancel"),
    );
    renameInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        void this.#rename(renameInput.value);
      } else if (e.key === "Escape") {
        e.preventDefault();
        this.#showRename(false);
      }
    });
    const sessionBar = h(
      "div",
      { class: "rename" },
      sessions,
      h("button", { type: "button", "data-automation-id": "agent.new-chat", title: "Start a new conversation", onclick: () => void this.#newSession() }, "New"),
      h("button", { type: "button", "data-automation-id": "agent.rename", title: "Rename this conversation", onclick: () => this.#showRename(true) }, "Rename"),
      h("button", { type: "button", "data-automation-id": "agent.delete", title: "Delete this conversation", onclick: () => void this.#deleteSession() }, "Delete"),
    );
    const log = h("div", { class: "log", part: "log", role: "log", "aria-live": "polite", "aria-label": "Conversation with the assistant", tabindex: "0", "data-automation-id": "agent.log" });
    const mentions = h("ul", { class: "mentions", part: "mentions", role: "listbox", id: "mentions", "aria-label": "Mention an asset or element", hidden: true }) as HTMLUListElement;
    const input = h("textarea", {
      rows: "2",
      part: "input",
      "aria-label": "Message to the assistant",
      "aria-autocomplete": "list",
      "aria-controls": "mentions",
      placeholder: "Ask for an edit; @ mentions an asset or element",
      "data-automation-id": "agent.input",
    }) as HTMLTextAreaElement;
    const send = h("button", { type: "button", class: "primary", part: "send", "data-automation-id": "agent.send", onclick: () => void this.#submit(input.value) }, "Send") as HTMLButtonElement;
    const stop = h("button", { type: "button", part: "stop", "data-automation-id": "agent.stop", title: "Stop (Escape)", hidden: true, onclick: () => this.stop() }, "Stop") as HTMLButtonElement;
    const chips = h("div", { class: "chips", part: "chips" });
    const meters = h("div", { class: "meters", part: "progress" });
    const usage = h("div", { class: "usage", part: "usage", "aria-live": "polite" });
    const status = h("div", { class: "usage", role: "status" });
    this.#ui = { log, permission, sessions, sessionBar, renameBar, renameInput, input, send, stop, chips, mentions, meters, usage, status };
    input.addEventListener("keydown", (e) => this.#onKey(e));
    // Keys typed into the panel's fields are text, not the host's shortcuts (Space, S, Delete,
    // Ctrl+Z): outside the shadow root their target is the panel element, which hosts' "is the
    // user typing?" checks do not recognise.
    for (const type of ["keydown", "keyup", "keypress"]) {
      this.#root.addEventListener(type, (e) => {
        const t = e.composedPath()[0];
        if (t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type === "text")) e.stopPropagation();
      });
    }
    input.addEventListener("input", () => void this.#updateMentions());
    // Clicking an option blurs the box first: close a moment later, unless the focus came back.
    input.addEventListener("blur", () => setTimeout(() => this.#root.activeElement !== input && this.#closeMentions(), 150));
    this.#root.append(
      style,
      h("div", { class: "bar", part: "header" }, sessionBar, renameBar, permission),
      log,
      meters,
      usage,
      status,
      h("div", { class: "composer", part: "composer" }, mentions, chips, h("div", { class: "row" }, input, h("div", { class: "ask" }, send, stop))),
    );
    permission.value = this.permission;
    this.#updateControls();
  }

  #updateControls() {
    if (!this.#built) return;
    const ready = !!this.#agent && !this.#disabledReason;
    const busy = !!this.#run;
    this.#ui.input.disabled = !ready;
    this.#ui.send.disabled = !ready || busy;
    this.#ui.send.hidden = busy;
    this.#ui.stop.hidden = !busy;
    if (!ready) this.#ui.input.placeholder = this.#disabledReason ?? "The assistant is not connected (set editor and proxyUrl)";
    else this.#ui.input.placeholder = "Ask for an edit; @ mentions an asset or element";
  }

  #applyPermission() {
    const mode = this.permission;
    if (typeof this.#agent?.setPermission === "function") this.#agent.setPermission(mode);
  }

  // ---- sessions ----

  async #openProject() {
    const store = await this.#store!;
    if (this.#built) this.#ui.permission.value = this.permission;
    this.#applyPermission();
    const list = await store.list(this.#projectId);
    if (list.length) await this.#load(list[0]);
    else this.#fresh();
    await this.#renderSessionList();
  }

  #fresh() {
    this.#session = { id: newId(), projectId: this.#projectId, title: "New conversation", created: Date.now(), updated: Date.now(), history: [], transcript: [] };
    this.#transcript = this.#session.transcript;
    this.#clearLog();
    this.#showUsage();
    this.#agent?.reset();
    this.#applyPermission();
  }

  async #renderSessionList() {
    const store = await this.#store!;
    const list = await store.list(this.#projectId);
    const current = this.#session;
    if (current && !list.some((s) => s.id === current.id)) list.unshift(current);
    this.#ui.sessions.replaceChildren(...list.map((s) => h("option", { value: s.id }, s.title)));
    if (current) this.#ui.sessions.value = current.id;
  }

  async #save() {
    const s = this.#session;
    if (!s || !this.#store || s.transcript.length === 0) return;
    s.updated = Date.now();
    if (this.#agent) s.history = this.#agent.history();
    await (await this.#store).put(s);
    await this.#renderSessionList();
  }

  async #load(record: SessionRecord) {
    this.#session = record;
    this.#transcript = record.transcript;
    this.#clearLog();
    this.#agent?.reset();
    this.#applyPermission();
    if (record.history.length && this.#agent) {
      if (typeof this.#agent.restore === "function") {
        try {
          this.#agent.restore(record.history);
        } catch (e) {
          this.#notice(`The assistant could not take this conversation back (${e instanceof Error ? e.message : String(e)}); it starts fresh.`, "notice", false);
        }
      } else this.#notice("This agent cannot restore a conversation: the assistant starts fresh, the messages are shown for reference.", "notice", false);
    }
    for (const item of record.transcript) this.#draw(item);
    this.#showUsage();
    this.#scroll();
  }

  async #switchSession(id: string) {
    if (this.#session?.id === id) return;
    this.stop();
    const record = await (await this.#store!).get(id);
    if (record) await this.#load(record);
    await this.#renderSessionList();
  }

  async #newSession() {
    this.stop();
    await this.#save();
    this.#fresh();
    await this.#renderSessionList();
    this.#ui.input.focus();
  }

  #showRename(on: boolean) {
    this.#ui.renameBar.hidden = !on;
    this.#ui.sessionBar.hidden = on;
    if (on) {
      this.#ui.renameInput.value = this.#session?.title ?? "";
      this.#ui.renameInput.focus();
      this.#ui.renameInput.select();
    } else this.#ui.sessions.focus();
  }

  async #rename(title: string) {
    const s = this.#session;
    const clean = title.replace(/\s+/g, " ").trim().slice(0, 120);
    if (s && clean) {
      s.title = clean;
      s.named = true;
      if (s.transcript.length) await this.#save();
    }
    await this.#renderSessionList();
    this.#showRename(false);
  }

  async #deleteSession() {
    const s = this.#session;
    if (!s) return;
    this.stop();
    await (await this.#store!).delete(s.id);
    const list = await (await this.#store!).list(this.#projectId);
    if (list.length) await this.#load(list[0]);
    else this.#fresh();
    await this.#renderSessionList();
    this.#ui.sessions.focus();
  }

  // ---- the log ----

  #clearLog() {
    this.#ui.log.replaceChildren();
    if (this.#disabledReason) this.#draw({ kind: "error", text: this.#disabledReason });
    this.#cards.clear();
    this.#streaming = undefined;
    this.#undoButton = undefined;
    if (this.#thumbUrl) URL.revokeObjectURL(this.#thumbUrl);
    this.#thumbUrl = undefined;
    for (const m of this.#meters.values()) m.remove();
    this.#meters.clear();
  }

  #scroll() {
    const log = this.#ui.log;
    log.scrollTop = log.scrollHeight;
  }

  #record(item: TranscriptItem) {
    this.#transcript.push(item);
  }

  #notice(text: string, kind: "notice" | "error", keep = true) {
    const item = { kind, text } as TranscriptItem;
    if (keep) this.#record(item);
    this.#draw(item);
  }

  /** Draws one transcript item at the end of the log; cards come back as cards. */
  #draw(item: TranscriptItem): HTMLElement {
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
    this.#ui.log.append(node);
    this.#scroll();
    return node;
  }

  #cardNode(item: Extract<TranscriptItem, { kind: "card" }>): Card {
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
    this.#cards.set(item.id, card);
    return card;
  }

  #showResult(card: Card, result: unknown) {
    card.result.replaceChildren(h("details", { part: "result" }, h("summary", {}, "Result"), h("pre", {}, json(result))));
  }

  #setStatus(card: Card, status: CardStatus) {
    card.item.status = status;
    card.node.dataset.status = status;
    card.status.textContent = statusText(status);
  }

  // ---- agent events ----

  #onEvent(event: PanelEvent) {
    if (!this.#built) return;
    switch (event.type) {
      case "user": {
        const item: TranscriptItem = { kind: "user", text: messageText(event.text) };
        if (this.#sentMentions.length) (item as { mentions?: string[] }).mentions = this.#sentMentions;
        this.#record(item);
        this.#draw(item);
        break;
      }
      case "text_delta": {
        if (!this.#streaming) this.#streaming = this.#draw({ kind: "model", text: "" });
        this.#streaming.textContent += event.text;
        this.#scroll();
        break;
      }
      case "text": {
        const item: TranscriptItem = { kind: "model", text: event.text };
        this.#record(item);
        if (this.#streaming) this.#streaming.textContent = event.text;
        else this.#draw(item);
        this.#streaming = undefined;
        break;
      }
      case "tool_call": {
        this.#streaming = undefined;
        // A plan or a question is drawn as its own card by onPlan / askUser.
        if (INTERACTIVE_TOOLS.has(event.name)) break;
        const e = event as typeof event & { summary?: string };
        const item: Extract<TranscriptItem, { kind: "card" }> = {
          kind: "card",
          id: e.id,
          name: e.name,
          summary: typeof e.summary === "string" && e.summary ? e.summary : fallbackSummary(e.name, e.args),
          status: "running",
          args: e.args,
        };
        this.#record(item);
        this.#draw(item);
        break;
      }
      case "tool_result": {
        const card = this.#cards.get(event.id);
        if (!card) break;
        const code = (event.result as { code?: unknown }).code;
        const status: CardStatus = !event.isError ? "done" : code === "DECLINED" || code === "READ_ONLY" ? "declined" : code === "CANCELLED" || code === "STOPPED" ? "stopped" : "error";
        this.#setStatus(card, status);
        card.item.result = event.result;
        this.#showResult(card, event.result);
        break;
      }
      case "notice":
        this.#notice(event.message, "notice");
        break;
      case "error":
        this.#notice(event.message, "error");
        break;
      case "permission":
        if (this.#ui.permission.value !== event.mode) {
          this.#storage()?.setItem(permissionKey(this.#projectId), event.mode);
          this.#ui.permission.value = event.mode;
        }
        break;
      case "usage": {
        // The conversation's total is the panel's: the agent's counts its whole life, across
        // New and reopened conversations.
        const u = event.last;
        const last = u?.totalTokens ?? (u?.promptTokens ?? 0) + (u?.outputTokens ?? 0);
        if (this.#session) this.#session.tokens = (this.#session.tokens ?? 0) + last;
        this.#showUsage(last);
        break;
      }
      case "progress":
        this.#progress(event.kind, event.assetId, event.fraction);
        break;
      case "run_summary":
        if (this.#run) this.#run.summary = counts(event);
        break;
      case "done": {
        const changes = (event as { changes?: unknown }).changes;
        if (this.#run && changes && typeof changes === "object") this.#run.summary = counts(changes as Record<string, unknown>);
        break;
      }
    }
  }

  #showUsage(last?: number) {
    const total = this.#session?.tokens;
    const usage = this.#ui.usage;
    if (total === undefined) {
      usage.textContent = "";
      delete usage.dataset.last;
      delete usage.dataset.session;
      return;
    }
    usage.dataset.session = String(total);
    if (last !== undefined) usage.dataset.last = String(last);
    else delete usage.dataset.last;
    usage.textContent = `Tokens: ${last !== undefined ? `last request ${last.toLocaleString("en")}, ` : ""}this conversation ${total.toLocaleString("en")}`;
  }

  #progress(kind: "upload" | "transcription", assetId: string, fraction: number) {
    const key = `${kind}:${assetId}`;
    let meter = this.#meters.get(key);
    if (fraction >= 1) {
      meter?.remove();
      this.#meters.delete(key);
      return;
    }
    const assets = (this.#editor?.project() as { assets?: { id: string; name?: string }[] } | undefined)?.assets ?? [];
    const name = assets.find((a) => a.id === assetId)?.name ?? assetId;
    const label = `${kind === "upload" ? "Uploading" : "Transcribing"} ${name}`;
    if (!meter) {
      meter = h("div", { class: "meter", "data-kind": kind, "data-asset-id": assetId }, h("span", {}, label), h("progress", { max: "1", value: "0", "aria-label": label }));
      this.#meters.set(key, meter);
      this.#ui.meters.append(meter);
    }
    (meter.querySelector("progress") as HTMLProgressElement).value = Math.max(0, Math.min(1, fraction));
  }

  // ---- approvals, plans, questions ----

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
      this.#scroll();
      (row.querySelector("button.primary") as HTMLButtonElement).focus();
    });
  }

  async #confirm(request: ConfirmRequest): Promise<boolean> {
    const card = [...this.#cards.values()].reverse().find((c) => c.item.name === request.name && c.item.status === "running" && !c.asked);
    if (request.kind === "upload") {
      const size = request.upload ? ` (${(request.upload.sizeBytes / 1e6).toFixed(1)} MB)` : "";
      return this.#askIn(card?.node ?? this.#ui.log, `Send "${request.upload?.assetName ?? "this asset"}"${size} to Google Gemini so the assistant can watch it?`, request.signal, ["Send", "Don't send"]);
    }
    const mode = this.permission;
    if (mode === "allow") return true;
    if (mode === "readonly") return false;
    if (!card) return false;
    card.asked = true;
    this.#setStatus(card, "waiting");
    const ok = await this.#askIn(card.node, `${request.title}: allow this change?`, request.signal);
    if (card.item.status === "waiting") this.#setStatus(card, ok ? "running" : this.#run?.stopped ? "stopped" : "declined");
    return ok;
  }

  #planCard(plan: { steps?: unknown[]; summary?: string }, signal?: AbortSignal): Promise<PlanDecision> {
    const steps = (plan.steps ?? []).map((s) => (typeof s === "string" ? s : String((s as { description?: unknown; title?: unknown; text?: unknown })?.description ?? (s as { title?: unknown })?.title ?? (s as { text?: unknown })?.text ?? JSON.stringify(s))));
    this.#streaming = undefined;
    return new Promise((resolve, reject) => {
      const list = h("ol", {}, ...steps.map((s) => h("li", {}, s)));
      const editor = h("textarea", { rows: String(Math.max(3, steps.length + 1)), "aria-label": "Plan steps, one per line", "data-automation-id": "agent.plan-steps", hidden: true }) as HTMLTextAreaElement;
      editor.value = steps.join("\n");
      const feedback = h("textarea", { rows: "2", "aria-label": "Why reject the plan (optional)", "data-automation-id": "agent.plan-feedback", hidden: true }) as HTMLTextAreaElement;
      const status = h("span", { class: "status", part: "status" }, "waiting for you");
      const buttons = h("div", { class: "ask" });
      const card = h("div", { class: "card plan", part: "card plan", "data-status": "waiting" }, h("div", { class: "head" }, h("span", { class: "summary-text" }, plan.summary || "Proposed plan"), status), list, editor, feedback, buttons);
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
        this.#record({ kind: "card", id: `plan-${Date.now()}`, name: "submit_plan", summary: plan.summary || "Proposed plan", status: card.dataset.status as CardStatus, args: { steps: shown }, result: d ?? undefined });
        if (d) resolve(d);
        else {
          const e = new Error("Stopped by the user");
          e.name = "AbortError";
          reject(e);
        }
      };
      const cancel = () => finish(null, "stopped");
      const onAbort = cancel;
      const btn = (label: string, id: string, onclick: () => void, primary = false) => h("button", { type: "button", class: primary ? "primary" : undefined, "data-automation-id": id, onclick }, label);
      const approve = btn("Approve", "agent.plan-approve", () => finish({ decision: "approve" }, "approved"), true);
      const edit = btn("Edit", "agent.plan-edit", () => {
        list.hidden = true;
        editor.hidden = false;
        buttons.replaceChildren(
          btn("Approve edited plan", "agent.plan-save", () => finish({ decision: "edit", steps: editor.value.split("\n").map((s) => s.trim()).filter(Boolean) }, "approved with edits"), true),
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
          btn("Send rejection", "agent.plan-reject-send", () => finish({ decision: "reject", ...(feedback.value.trim() ? { feedback: feedback.value.trim() } : {}) }, "rejected"), true),
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
      this.#ui.log.append(card);
      this.#scroll();
      approve.focus();
    });
  }

  #questionCard(q: { question: string; options?: string[] }, signal?: AbortSignal): Promise<string> {
    this.#streaming = undefined;
    return new Promise((resolve, reject) => {
      const status = h("span", { class: "status", part: "status" }, "waiting for you");
      const free = h("input", { type: "text", "aria-label": "Your answer", "data-automation-id": "agent.answer-input" }) as HTMLInputElement;
      const answers = h("div", { class: "ask" });
      const card = h("div", { class: "card question", part: "card question", "data-status": "waiting" }, h("div", { class: "head" }, h("span", { class: "summary-text" }, q.question), status), answers);
      const finish = (answer: string | null) => {
        this.#pending.delete(cancel);
        signal?.removeEventListener("abort", onAbort);
        answers.remove();
        card.dataset.status = answer === null ? "stopped" : "done";
        status.textContent = answer === null ? "stopped" : "answered";
        if (answer !== null) card.append(h("div", { class: "msg user" }, answer));
        this.#record({ kind: "card", id: `question-${Date.now()}`, name: "ask_user", summary: q.question, status: card.dataset.status as CardStatus, args: q, result: answer ?? undefined });
        if (answer !== null) resolve(answer);
        else {
          const e = new Error("Stopped by the user");
          e.name = "AbortError";
          reject(e);
        }
      };
      const cancel = () => finish(null);
      const onAbort = cancel;
      const options = Array.isArray(q.options) ? q.options.filter((o) => typeof o === "string") : [];
      options.forEach((o, i) => answers.append(h("button", { type: "button", class: i === 0 ? "primary" : undefined, "data-automation-id": `agent.answer-${i}`, onclick: () => finish(o) }, o)));
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
      this.#ui.log.append(card);
      this.#scroll();
      ((answers.querySelector("button") as HTMLElement | null) ?? free).focus();
    });
  }

  // ---- sending ----

  async #submit(raw: string, retry = false): Promise<void> {
    const agent = this.#agent;
    const editor = this.#editor;
    if (!agent || !editor || this.#run || this.#disabledReason) return;
    const typed = raw.trim();
    if (!retry && !typed) return;
    const mentions = this.#chosen.filter((m) => typed.includes(`@${m.label}`));
    // The message is what was typed (with the mentions' short labels); their details go as data.
    const text = retry ? this.#lastText! : typed;
    if (!retry) {
      this.#sentMentions = mentions.map((m) => m.label);
      this.#ui.input.value = "";
      this.#lastText = text;
      this.#lastMentions = mentions.map((m) => ({ kind: m.kind, id: m.id, label: m.label, details: m.data }));
    }
    const sent = this.#lastMentions;
    this.#closeMentions();
    this.#root.querySelectorAll(".retry").forEach((n) => n.remove());
    const session = this.#session!;
    if (session.transcript.length === 0 && !session.named) {
      session.title = titleFrom(typed);
      void this.#renderSessionList();
    }
    this.#disableUndo();
    const run: Run = { controller: new AbortController(), before: elementsOf(editor), changes: 0, stopped: false };
    this.#run = run;
    this.#updateControls();
    this.#ui.status.textContent = "The assistant is working…";
    let outcome: "done" | "stopped" | "error" = "done";
    try {
      const work = () => (retry && typeof agent.retry === "function" ? agent.retry() : agent.send(text, { signal: run.controller.signal, ...(sent.length ? { mentions: sent } : {}) }));
      await (this.wrapRun ? this.wrapRun(work) : work());
    } catch (e) {
      if (run.stopped || isStop(e)) outcome = "stopped";
      else {
        outcome = "error";
        // The loop reports its own failures as events; anything else is shown here.
        if (!(e instanceof AgentError) || e.code === "BUSY") this.#notice(e instanceof Error ? e.message : String(e), "error");
      }
    } finally {
      this.#chosen = this.#chosen.filter((m) => !mentions.includes(m));
      this.#drawChips();
      this.#run = undefined;
      this.#streaming = undefined;
      for (const card of this.#cards.values()) if (card.item.status === "running" || card.item.status === "waiting") this.#setStatus(card, outcome === "stopped" ? "stopped" : "error");
      for (const m of this.#meters.values()) m.remove();
      this.#meters.clear();
      this.#updateControls();
    }
    if (outcome === "stopped") this.#notice("Stopped.", "notice");
    if (outcome === "error") {
      const retryButton = h("button", { type: "button", class: "retry", part: "retry", "data-automation-id": "agent.retry", onclick: () => void this.#submit("", true) }, "Retry");
      this.#ui.log.append(h("div", { class: "ask retry" }, retryButton));
    }
    await this.#endRun(run, editor);
    this.#ui.status.textContent = outcome === "done" ? "The assistant is done." : outcome === "stopped" ? "Stopped." : "The message failed.";
    await this.#save();
    if (outcome === "error") (this.#root.querySelector(".retry button") as HTMLButtonElement | null)?.focus();
    else this.#ui.input.focus();
    this.dispatchEvent(new CustomEvent("run-end", { detail: { outcome, summary: run.summary ?? null } }));
  }

  async #endRun(run: Run, editor: NeuralCutEditor) {
    const after = elementsOf(editor);
    const summary = run.summary ?? diff(run.before, after);
    run.summary = summary;
    if (summary.added + summary.removed + summary.changed === 0 || run.changes === 0) return;
    const item: TranscriptItem = { kind: "summary", ...summary };
    this.#record(item);
    const box = h("div", { class: "run-end", part: "run-summary", "data-added": summary.added, "data-removed": summary.removed, "data-changed": summary.changed });
    const undo = h("button", { type: "button", "data-automation-id": "agent.undo-run", title: "Undo every change of this message at once", onclick: () => this.#undoRun(run, box) }, "Undo run") as HTMLButtonElement;
    box.append(h("div", { class: "row" }, h("span", {}, summaryLine(summary)), undo));
    this.#ui.log.append(box);
    this.#undoButton = undo;
    this.#revisionAtEnd = editor.revision();
    this.#refreshUndo();
    this.#scroll();
    if (this.renderFrame) {
      const at = this.playhead();
      try {
        const blob = await this.renderFrame(at);
        if (this.#thumbUrl) URL.revokeObjectURL(this.#thumbUrl);
        this.#thumbUrl = URL.createObjectURL(blob);
        box.append(h("img", { src: this.#thumbUrl, part: "thumbnail", alt: `The frame at ${Math.round(at * 100) / 100} s after this message's changes` }));
        this.#scroll();
      } catch (e) {
        box.append(h("span", { class: "msg notice" }, `No thumbnail: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
  }

  /** Undoes the run: one editor.undo() when the agent grouped it, else as many as it took, stopping
   * once the timeline is back to how it was. Refused once anything else changed the project. */
  #undoRun(run: Run, box: HTMLElement) {
    const editor = this.#editor;
    if (!editor || editor.revision() !== this.#revisionAtEnd) return;
    this.#disableUndo();
    box.dataset.undone = "true";
    box.append(h("span", { class: "msg notice" }, "Undone."));
    this.#ui.input.focus();
    if (this.undoRun) return void this.undoRun();
    const target = [...run.before].join("\n");
    let left = run.changes;
    while (left-- > 0 && editor.canUndo()) {
      editor.undo();
      if ([...elementsOf(editor)].join("\n") === target) break;
    }
  }

  #disableUndo() {
    if (this.#undoButton) this.#undoButton.disabled = true;
    this.#undoButton = undefined;
  }

  #refreshUndo() {
    if (this.#undoButton && this.#editor && this.#revisionAtEnd !== undefined && this.#editor.revision() !== this.#revisionAtEnd) this.#disableUndo();
  }

  // ---- keyboard and mentions ----

  #onKey(e: KeyboardEvent) {
    if (this.#mentionOpen) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const n = this.#mentionItems.length;
        this.#mentionIndex = (this.#mentionIndex + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
        this.#drawMentions();
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        this.#choose(this.#mentionItems[this.#mentionIndex]);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        this.#closeMentions();
        return;
      }
    }
    if (e.key === "Escape" && this.#run) {
      e.preventDefault();
      this.stop();
    } else if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void this.#submit(this.#ui.input.value);
    }
  }

  #mentionQuery(): string | null {
    const input = this.#ui.input;
    const before = input.value.slice(0, input.selectionStart ?? input.value.length);
    const m = /(?:^|\s)@([^\s@]*)$/.exec(before);
    return m ? m[1] : null;
  }

  async #updateMentions() {
    const query = this.#mentionQuery();
    if (query === null || !this.#editor) return this.#closeMentions();
    if (!this.#mentionOpen) this.#mentionPool = await this.#candidates();
    const q = query.toLowerCase();
    this.#mentionItems = this.#mentionPool.filter((m) => !q || m.label.toLowerCase().includes(q) || m.name.toLowerCase().includes(q) || m.id.toLowerCase().includes(q)).slice(0, 30);
    if (this.#mentionItems.length === 0) return this.#closeMentions();
    this.#mentionOpen = true;
    this.#mentionIndex = Math.min(this.#mentionIndex, this.#mentionItems.length - 1);
    this.#drawMentions();
  }

  #mentionPool: Mention[] = [];

  async #candidates(): Promise<Mention[]> {
    const editor = this.#editor!;
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
      out.push({ kind: "asset", id: a.id, label: label(a.name, "asset"), name: a.name, detail: `${a.type}${a.duration !== undefined ? `, ${seconds(a.duration)}` : ""}`, data: { ...a } });
    }
    const timeline = (await editor.callToolUntyped("list_timeline", {})) as { tracks?: { trackId: string; type: string; elements: Record<string, unknown>[] }[] };
    for (const t of timeline.tracks ?? []) {
      for (const e of t.elements ?? []) {
        const id = String(e.elementId);
        const name = String(e.ref ?? e.name ?? id);
        const what = typeof e.text === "string" ? `"${e.text.slice(0, 30)}"` : String(e.type);
        out.push({ kind: "element", id, label: label(name, "element"), name, detail: `${what}, ${seconds(e.start)}–${seconds(e.end)}`, data: { trackId: t.trackId, trackType: t.type, ...e } });
      }
    }
    return out;
  }

  #drawMentions() {
    const list = this.#ui.mentions;
    list.replaceChildren(
      ...this.#mentionItems.map((m, i) =>
        h(
          "li",
          { role: "option", id: `mention-${i}`, "aria-selected": i === this.#mentionIndex ? "true" : "false", "data-mention-id": m.id, onmousedown: (e: Event) => (e.preventDefault(), this.#choose(m)) },
          h("span", { title: m.name }, `@${m.label}`),
          h("span", { class: "kind" }, `${m.kind === "asset" ? "asset" : "element"} · ${m.detail}`),
        ),
      ),
    );
    list.hidden = false;
    this.#ui.input.setAttribute("aria-activedescendant", `mention-${this.#mentionIndex}`);
    list.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: "nearest" });
  }

  #closeMentions() {
    this.#mentionOpen = false;
    this.#mentionIndex = 0;
    if (!this.#built) return;
    this.#ui.mentions.hidden = true;
    this.#ui.mentions.replaceChildren();
    this.#ui.input.removeAttribute("aria-activedescendant");
  }

  #choose(m: Mention | undefined) {
    if (!m) return;
    const input = this.#ui.input;
    const caret = input.selectionStart ?? input.value.length;
    const before = input.value.slice(0, caret).replace(/@([^\s@]*)$/, `@${m.label} `);
    input.value = before + input.value.slice(caret);
    input.setSelectionRange(before.length, before.length);
    if (!this.#chosen.some((c) => c.id === m.id)) this.#chosen.push(m);
    this.#closeMentions();
    this.#drawChips();
    input.focus();
  }

  #drawChips() {
    if (!this.#built) return;
    this.#ui.chips.replaceChildren(
      ...this.#chosen.map((m) =>
        h(
          "span",
          { class: "chip", part: "chip", "data-mention-id": m.id },
          `@${m.label}`,
          h("button", { type: "button", "aria-label": `Remove the mention of ${m.label}`, "data-automation-id": "agent.mention-remove", onclick: () => this.#unmention(m) }, "×"),
        ),
      ),
    );
  }

  #unmention(m: Mention) {
    this.#chosen = this.#chosen.filter((c) => c !== m);
    this.#ui.input.value = this.#ui.input.value.replace(`@${m.label} `, "").replace(`@${m.label}`, "");
    this.#drawChips();
    this.#ui.input.focus();
  }
}

/** Added / removed / changed as counts, from lists of elements or numbers. */
function counts(c: { added?: unknown; removed?: unknown; changed?: unknown }) {
  const n = (v: unknown) => (Array.isArray(v) ? v.length : typeof v === "number" ? v : 0);
  return { added: n(c.added), removed: n(c.removed), changed: n(c.changed) };
}

function statusText(status: CardStatus): string {
  return { running: "running…", waiting: "waiting for you", done: "done", error: "error", declined: "declined", stopped: "stopped" }[status];
}

function summaryLine(s: { added: number; removed: number; changed: number }): string {
  const n = (k: number, one: string) => `${k} ${one}${k === 1 ? "" : "s"}`;
  return `This message: ${n(s.added, "element")} added, ${s.removed} removed, ${s.changed} changed.`;
}

/** Registers <neuralcut-agent-panel> (once); returns the class. Importing the module does it too. */
export function definePanel(tag = PANEL_TAG): typeof NeuralCutAgentPanel {
  if (typeof customElements !== "undefined" && !customElements.get(tag)) customElements.define(tag, tag === PANEL_TAG ? NeuralCutAgentPanel : class extends NeuralCutAgentPanel {});
  return NeuralCutAgentPanel;
}

definePanel();

declare global {
  interface HTMLElementTagNameMap {
    "neuralcut-agent-panel": NeuralCutAgentPanel;
  }
}
