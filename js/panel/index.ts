// `neuralcut/panel`: <neuralcut-agent-panel>, a drop-in agent sidebar for any host page. The host
// gives it an editor and the proxy's URL (or an agent it made); the panel runs the agent loop and
// shows the conversation: streamed replies, one card per tool call, inline approvals, plans and
// questions, the end of each run (what changed, a thumbnail, Undo run), chat sessions per project
// in IndexedDB, @-mentions of assets and timeline elements, token counts and progress bars.
// Framework-free; everything lives in an open shadow root styled by --nc-panel-* properties.
// This class holds the host-facing properties and the run; the parts are files of their own.

import {
  AgentError,
  createAgent,
  DEFAULT_MODEL,
  type Agent,
  type AgentEvent,
  type AgentOptions,
  type ConfirmRequest,
  type Mention as AgentMention,
  type PermissionMode,
  type ProxyHeaders,
} from "../agent/index.js";
import { INTERACTIVE_TOOLS } from "../agent/own-tools.js";
import { snapshot } from "../agent/run-diff.js";
import { formatTime } from "../agent/summary.js";
import type { NeuralCutEditor } from "../editor.js";
import { Asks } from "./asks.js";
import { Conversations, type AgentExtras } from "./conversations.js";
import { h, stopped } from "./dom.js";
import { counts, fallbackSummary, isStop, messageText } from "./format.js";
import { ConversationLog } from "./log.js";
import { MentionPicker } from "./mentions.js";
import { Meters } from "./meters.js";
import { PERMISSION_MODES, storedPermission, storePermission } from "./permission.js";
import { openSessionStore, titleFrom, type TranscriptItem } from "./sessions.js";
import { RunEnd, type Run } from "./undo-run.js";
import { buildView, PLACEHOLDER, type PanelUI } from "./view.js";
import { NeuralCutError } from "../errors.js";

export { openSessionStore, titleFrom } from "./sessions.js";
export type { CardStatus, SessionRecord, SessionStore, TranscriptItem } from "./sessions.js";
export { PANEL_CSS } from "./style.js";
/** How edits are handled (ask before each, run them, refuse them), and what the plan card answers the agent's onPlan. */
export type { PermissionMode, PlanDecision } from "../agent/index.js";
export { PERMISSION_MODES, permissionKey } from "./permission.js";
export { messageText } from "./format.js";

export const PANEL_TAG = "neuralcut-agent-panel";

/** The mentions' details reach the model in a part of their own, between these lines (see the
 * agent's Mentions); the user's words carry only each mention's short label. */
export { MENTIONS_START, MENTIONS_END, mentionLabel } from "../agent/index.js";

/** Events of newer agents, handled when they come (the panel works without them). */
type ExtraEvent =
  | { type: "text_delta"; text: string }
  | { type: "permission"; mode: PermissionMode }
  | { type: "stopped" }
  | { type: "usage"; last?: Usage; session?: Usage }
  | { type: "progress"; kind: "upload" | "transcription"; assetId: string; fraction: number; phase?: "loading" }
  | { type: "run_summary"; added: unknown; removed: unknown; changed: unknown }
  | { type: "check"; findings: { kind: string; start: number; end: number; message: string }[] };
interface Usage {
  promptTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}
type PanelEvent = AgentEvent | ExtraEvent;

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
  #ui!: PanelUI;
  #log!: ConversationLog;
  #asks!: Asks;
  #meters!: Meters;
  #mentions!: MentionPicker;
  #runEnd!: RunEnd;
  #chats!: Conversations;
  #built = false;
  #setupQueued = false;
  #run?: Run;
  #lastText?: string;
  #lastMentions: AgentMention[] = [];
  /** Labels of the mentions the message being sent carries. */
  #sentMentions: string[] = [];
  #unsubscribe?: () => void;

  // ---- host-facing properties ----

  get editor(): NeuralCutEditor | undefined {
    return this.#editor;
  }
  set editor(editor: NeuralCutEditor | undefined) {
    this.#editor = editor;
    this.#unsubscribe?.();
    this.#unsubscribe = editor?.onChange((e) => {
      if (this.#run && e.source === "tool") this.#run.changes++;
      this.#runEnd?.refresh();
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
    if (this.#built) {
      this.#chats.session = undefined;
      void this.#chats.openProject();
    }
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
    if (this.#built && reason) this.#log.notice(reason, "error", false);
    this.#updateControls();
  }

  /** The options that connect an agent to this panel (onEvent, confirm, onPlan, askUser, ...). */
  agentHooks(): Partial<AgentOptions> & Record<string, unknown> {
    return {
      onEvent: (e: AgentEvent) => this.#onEvent(e as PanelEvent),
      // Before the panel is built there is no card to ask in: the mode alone answers edits.
      confirm: (r: ConfirmRequest) => (this.#built ? this.#asks.confirm(r) : r.kind === "tool" && this.permission === "allow"),
      onPlan: (plan: { steps?: unknown[]; summary?: string }, o?: { signal?: AbortSignal }) => this.#asks.plan(plan, o?.signal),
      askUser: (q: { question: string; options?: string[] }, o?: { signal?: AbortSignal }) => this.#asks.question(q, o?.signal),
      permission: this.permission,
      stream: true,
      group: true,
    };
  }

  /** The current permission mode. */
  get permission(): PermissionMode {
    return storedPermission(this.#projectId);
  }
  set permission(mode: PermissionMode) {
    if (!PERMISSION_MODES.some((m) => m.mode === mode))
      throw new NeuralCutError("INVALID_OPTIONS", `permission must be ask, allow or readonly, not ${String(mode)}`);
    storePermission(this.#projectId, mode);
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
    this.#asks.cancelAll();
    if (typeof this.#agent?.stop === "function") this.#agent.stop();
    run.controller.abort(stopped());
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
    for (const key of [
      "agentOptions",
      "renderFrame",
      "playhead",
      "wrapRun",
      "undoRun",
      "projectId",
      "model",
      "headers",
      "disabledReason",
      "editor",
      "proxyUrl",
      "agent",
    ] as const) {
      if (Object.hasOwn(this, key)) {
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
        if (this.#chats.session?.history.length) {
          try {
            this.#agent.restore?.(this.#chats.session.history);
          } catch {
            // A stored conversation the agent refuses: it starts fresh; the messages stay shown.
          }
        }
      }
      this.#updateControls();
      if (!this.#chats.store) {
        this.#chats.store = openSessionStore();
        void this.#chats.openProject();
      }
    });
  }

  #build() {
    this.#built = true;
    this.#root = this.attachShadow({ mode: "open" });
    const ui = buildView(this.#root, {
      permission: (mode) => (this.permission = mode),
      switchSession: (id) => void this.#chats.switchTo(id),
      newSession: () => void this.#chats.startNew(),
      showRename: (on) => this.#chats.showRename(on),
      rename: (title) => void this.#chats.rename(title),
      deleteSession: () => void this.#chats.remove(),
      send: (text) => void this.#submit(text),
      stop: () => this.stop(),
      key: (e) => this.#onKey(e),
      input: () => void this.#mentions.update(),
      // Clicking an option blurs the box first: close a moment later, unless the focus came back.
      blur: () => setTimeout(() => this.#root.activeElement !== ui.input && this.#mentions.close(), 150),
    });
    this.#ui = ui;
    const log = (this.#log = new ConversationLog(ui.log));
    this.#asks = new Asks(log, { permission: () => this.permission, stopped: () => !!this.#run?.stopped });
    this.#meters = new Meters(ui.meters, ui.usage);
    this.#mentions = new MentionPicker(
      ui,
      () => this.#editor,
      () => this.#built,
    );
    const panel = this;
    this.#runEnd = new RunEnd(log, {
      editor: () => this.#editor,
      // Called as the panel's own methods, as a host may expect.
      get renderFrame() {
        return panel.renderFrame && ((s: number) => panel.renderFrame!(s));
      },
      playhead: () => this.playhead(),
      get undoRun() {
        return panel.undoRun && (() => panel.undoRun!());
      },
      focusInput: () => ui.input.focus(),
    });
    this.#chats = new Conversations({
      ui,
      log,
      projectId: () => this.#projectId,
      agent: () => this.#agent,
      stop: () => this.stop(),
      showPermission: () => {
        ui.permission.value = this.permission;
        this.#applyPermission();
      },
      applyPermission: () => this.#applyPermission(),
      clearLog: () => this.#clearLog(),
      showUsage: () => this.#meters.showUsage(this.#chats.session?.tokens),
    });
    ui.permission.value = this.permission;
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
    this.#ui.input.placeholder = ready ? PLACEHOLDER : (this.#disabledReason ?? "The assistant is not connected (set editor and proxyUrl)");
  }

  #applyPermission() {
    const mode = this.permission;
    if (typeof this.#agent?.setPermission === "function") this.#agent.setPermission(mode);
  }

  #clearLog() {
    this.#log.clear();
    if (this.#disabledReason) this.#log.draw({ kind: "error", text: this.#disabledReason });
    this.#runEnd.clear();
    this.#meters.clear();
  }

  // ---- agent events ----

  #onEvent(event: PanelEvent) {
    if (!this.#built) return;
    const log = this.#log;
    switch (event.type) {
      case "user": {
        const item: TranscriptItem = { kind: "user", text: messageText(event.text) };
        if (this.#sentMentions.length) (item as { mentions?: string[] }).mentions = this.#sentMentions;
        log.record(item);
        log.draw(item);
        break;
      }
      case "text_delta":
        log.delta(event.text);
        break;
      case "text":
        log.text(event.text);
        break;
      case "tool_call": {
        log.streaming = undefined;
        // A plan or a question is drawn as its own card by onPlan / askUser.
        if (INTERACTIVE_TOOLS.has(event.name)) break;
        const e = event as typeof event & { summary?: string };
        log.call({
          kind: "card",
          id: e.id,
          name: e.name,
          summary: typeof e.summary === "string" && e.summary ? e.summary : fallbackSummary(e.name, e.args),
          status: "running",
          args: e.args,
        });
        break;
      }
      case "tool_result":
        log.result(event.id, event.result, event.isError);
        break;
      case "notice":
        log.notice(event.message, "notice");
        break;
      case "error":
        log.notice(event.message, "error");
        break;
      case "permission":
        if (this.#ui.permission.value !== event.mode) {
          storePermission(this.#projectId, event.mode);
          this.#ui.permission.value = event.mode;
        }
        break;
      case "usage": {
        // The conversation's total is the panel's: the agent's counts its whole life, across
        // New and reopened conversations.
        const u = event.last;
        const last = u?.totalTokens ?? (u?.promptTokens ?? 0) + (u?.outputTokens ?? 0);
        const session = this.#chats.session;
        if (session) session.tokens = (session.tokens ?? 0) + last;
        this.#meters.showUsage(session?.tokens, last);
        break;
      }
      case "progress":
        this.#meters.progress(event.kind, event.assetId, () => this.#assetName(event.assetId), event.fraction, event.phase);
        break;
      case "run_summary":
        if (this.#run) this.#run.summary = counts(event);
        break;
      case "check":
        // The end-of-run check: each finding a line under the run (none: one line saying so).
        if (event.findings.length === 0) this.#log.notice("Check: nothing found.", "notice");
        for (const f of event.findings) this.#log.notice(`Check: ${f.kind} ${formatTime(f.start)}–${formatTime(f.end)}: ${f.message}`, "notice");
        break;
      case "done": {
        const changes = (event as { changes?: unknown }).changes;
        if (this.#run && changes && typeof changes === "object") this.#run.summary = counts(changes as Record<string, unknown>);
        break;
      }
    }
  }

  #assetName(assetId: string): string {
    const assets = (this.#editor?.project() as { assets?: { id: string; name?: string }[] } | undefined)?.assets ?? [];
    return assets.find((a) => a.id === assetId)?.name ?? assetId;
  }

  // ---- sending ----

  async #submit(raw: string, retry = false): Promise<void> {
    const agent = this.#agent;
    const editor = this.#editor;
    if (!agent || !editor || this.#run || this.#disabledReason) return;
    const typed = raw.trim();
    if (!retry && !typed) return;
    const mentions = this.#mentions.in(typed);
    // The message is what was typed (with the mentions' short labels); their details go as data.
    const text = retry ? this.#lastText! : typed;
    if (!retry) {
      this.#sentMentions = mentions.map((m) => m.label);
      this.#ui.input.value = "";
      this.#lastText = text;
      this.#lastMentions = mentions.map((m) => ({ kind: m.kind, id: m.id, label: m.label, details: m.data }));
    }
    const sent = this.#lastMentions;
    this.#mentions.close();
    this.#root.querySelectorAll(".retry").forEach((n) => n.remove());
    const session = this.#chats.session!;
    if (session.transcript.length === 0 && !session.named) {
      session.title = titleFrom(typed);
      void this.#chats.renderList();
    }
    this.#runEnd.disable();
    const run: Run = { controller: new AbortController(), before: snapshot(editor), changes: 0, stopped: false };
    this.#run = run;
    this.#updateControls();
    this.#ui.status.textContent = "The assistant is working…";
    let outcome: "done" | "stopped" | "error" = "done";
    try {
      const work = () =>
        retry && typeof agent.retry === "function"
          ? agent.retry()
          : agent.send(text, { signal: run.controller.signal, ...(sent.length ? { mentions: sent } : {}) });
      await (this.wrapRun ? this.wrapRun(work) : work());
    } catch (e) {
      if (run.stopped || isStop(e)) outcome = "stopped";
      else {
        outcome = "error";
        // The loop reports its own failures as events; anything else is shown here.
        if (!(e instanceof AgentError) || e.code === "BUSY") this.#log.notice(e instanceof Error ? e.message : String(e), "error");
      }
    } finally {
      this.#mentions.release(mentions);
      this.#run = undefined;
      this.#log.streaming = undefined;
      this.#log.settle(outcome);
      this.#meters.clear();
      this.#updateControls();
    }
    if (outcome === "stopped") this.#log.notice("Stopped.", "notice");
    if (outcome === "error") {
      const retryButton = h(
        "button",
        { type: "button", class: "retry", part: "retry", "data-automation-id": "agent.retry", onclick: () => void this.#submit("", true) },
        "Retry",
      );
      this.#ui.log.append(h("div", { class: "ask retry" }, retryButton));
    }
    await this.#runEnd.show(run, editor);
    this.#ui.status.textContent = outcome === "done" ? "The assistant is done." : outcome === "stopped" ? "Stopped." : "The message failed.";
    await this.#chats.save();
    if (outcome === "error") (this.#root.querySelector(".retry button") as HTMLButtonElement | null)?.focus();
    else this.#ui.input.focus();
    this.dispatchEvent(new CustomEvent("run-end", { detail: { outcome, summary: run.summary ?? null } }));
  }

  // ---- keys ----

  #onKey(e: KeyboardEvent) {
    if (this.#mentions.onKey(e)) return;
    if (e.key === "Escape" && this.#run) {
      e.preventDefault();
      this.stop();
    } else if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void this.#submit(this.#ui.input.value);
    }
  }
}

/** Registers <neuralcut-agent-panel> (once); returns the class. Importing the module does it too. */
export function definePanel(tag = PANEL_TAG): typeof NeuralCutAgentPanel {
  if (typeof customElements !== "undefined" && !customElements.get(tag))
    customElements.define(tag, tag === PANEL_TAG ? NeuralCutAgentPanel : class extends NeuralCutAgentPanel {});
  return NeuralCutAgentPanel;
}

definePanel();

declare global {
  interface HTMLElementTagNameMap {
    "neuralcut-agent-panel": NeuralCutAgentPanel;
  }
}
