// The project's conversations: opening the newest, starting, switching, renaming and deleting
// them in the session store (sessions.ts), with the agent's history taken back on opening.
import type { Agent, Content } from "../agent/index.js";
import type { PermissionMode } from "../agent/types.js";
import { h } from "./dom.js";
import type { ConversationLog } from "./log.js";
import type { SessionRecord, SessionStore } from "./sessions.js";
import type { PanelUI } from "./view.js";

/** What newer agents add; each is used only when present. */
export interface AgentExtras {
  stop?(): void;
  retry?(): Promise<string>;
  setPermission?(mode: PermissionMode): void;
  restore?(contents: Content[]): void;
}

export interface ConversationHost {
  readonly ui: PanelUI;
  readonly log: ConversationLog;
  projectId(): string;
  agent(): (Agent & AgentExtras) | undefined;
  stop(): void;
  /** Shows the project's permission mode and gives it to the agent. */
  showPermission(): void;
  applyPermission(): void;
  clearLog(): void;
  showUsage(): void;
}

let sessionCounter = 0;
const newId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `s${Date.now()}_${++sessionCounter}`);

export class Conversations {
  session?: SessionRecord;
  store?: Promise<SessionStore>;

  constructor(readonly host: ConversationHost) {}

  /** Opens the project's newest conversation, or a new one. */
  async openProject(): Promise<void> {
    const store = await this.store!;
    this.host.showPermission();
    const list = await store.list(this.host.projectId());
    if (list.length) await this.#load(list[0]);
    else this.fresh();
    await this.renderList();
  }

  /** A new, empty conversation (stored once it has a message). */
  fresh(): void {
    this.session = {
      id: newId(),
      projectId: this.host.projectId(),
      title: "New conversation",
      created: Date.now(),
      updated: Date.now(),
      history: [],
      transcript: [],
    };
    this.host.log.transcript = this.session.transcript;
    this.host.clearLog();
    this.host.showUsage();
    this.host.agent()?.reset();
    this.host.applyPermission();
  }

  /** The project's conversations in the selector, the current one chosen. */
  async renderList(): Promise<void> {
    const store = await this.store!;
    const list = await store.list(this.host.projectId());
    const current = this.session;
    if (current && !list.some((s) => s.id === current.id)) list.unshift(current);
    this.host.ui.sessions.replaceChildren(...list.map((s) => h("option", { value: s.id }, s.title)));
    if (current) this.host.ui.sessions.value = current.id;
  }

  /** Stores the conversation (its transcript and the agent's history) once it has a message. */
  async save(): Promise<void> {
    const s = this.session;
    if (!s || !this.store || s.transcript.length === 0) return;
    s.updated = Date.now();
    const agent = this.host.agent();
    if (agent) s.history = agent.history();
    await (await this.store).put(s);
    await this.renderList();
  }

  async #load(record: SessionRecord): Promise<void> {
    this.session = record;
    this.host.log.transcript = record.transcript;
    this.host.clearLog();
    this.host.agent()?.reset();
    this.host.applyPermission();
    const agent = this.host.agent();
    if (record.history.length && agent) {
      if (typeof agent.restore === "function") {
        try {
          agent.restore(record.history);
        } catch (e) {
          this.host.log.notice(
            `The assistant could not take this conversation back (${e instanceof Error ? e.message : String(e)}); it starts fresh.`,
            "notice",
            false,
          );
        }
      } else
        this.host.log.notice("This agent cannot restore a conversation: the assistant starts fresh, the messages are shown for reference.", "notice", false);
    }
    for (const item of record.transcript) this.host.log.draw(item);
    this.host.showUsage();
    this.host.log.scroll();
  }

  async switchTo(id: string): Promise<void> {
    if (this.session?.id === id) return;
    this.host.stop();
    const record = await (await this.store!).get(id);
    if (record) await this.#load(record);
    await this.renderList();
  }

  async startNew(): Promise<void> {
    this.host.stop();
    await this.save();
    this.fresh();
    await this.renderList();
    this.host.ui.input.focus();
  }

  showRename(on: boolean): void {
    this.host.ui.renameBar.hidden = !on;
    this.host.ui.sessionBar.hidden = on;
    if (on) {
      this.host.ui.renameInput.value = this.session?.title ?? "";
      this.host.ui.renameInput.focus();
      this.host.ui.renameInput.select();
    } else this.host.ui.sessions.focus();
  }

  async rename(title: string): Promise<void> {
    const s = this.session;
    const clean = title.replace(/\s+/g, " ").trim().slice(0, 120);
    if (s && clean) {
      s.title = clean;
      s.named = true;
      if (s.transcript.length) await this.save();
    }
    await this.renderList();
    this.showRename(false);
  }

  async remove(): Promise<void> {
    const s = this.session;
    if (!s) return;
    this.host.stop();
    await (await this.store!).delete(s.id);
    const list = await (await this.store!).list(this.host.projectId());
    if (list.length) await this.#load(list[0]);
    else this.fresh();
    await this.renderList();
    this.host.ui.sessions.focus();
  }
}
