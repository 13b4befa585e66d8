// Chat sessions per project, kept in IndexedDB: what the panel shows (the transcript) and what the
// agent needs to go on (its Gemini history). One object store keyed by id, indexed by project.

import type { Content } from "../agent/index.js";

/** One thing the panel showed, enough to draw it again. */
export type TranscriptItem =
  | { kind: "user"; text: string; mentions?: string[] }
  | { kind: "model"; text: string }
  | { kind: "notice" | "error"; text: string }
  | { kind: "card"; id: string; name: string; summary: string; status: CardStatus; args: unknown; result?: unknown }
  | { kind: "summary"; added: number; removed: number; changed: number };

export type CardStatus = "running" | "waiting" | "done" | "error" | "declined" | "stopped";

export interface SessionRecord {
  id: string;
  projectId: string;
  /** The first message, shortened, until the user renames it. */
  title: string;
  created: number;
  updated: number;
  /** The agent's conversation (Gemini contents, model turns verbatim). */
  history: Content[];
  transcript: TranscriptItem[];
  /** The user renamed it: the first message no longer names it. */
  named?: boolean;
  /** Tokens of every request of this conversation (prompt and output). */
  tokens?: number;
}

export interface SessionStore {
  list(projectId: string): Promise<SessionRecord[]>;
  get(id: string): Promise<SessionRecord | undefined>;
  put(record: SessionRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

const DB_NAME = "neuralcut-panel";
const STORE = "sessions";

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Opens the store; resolves to an in-memory one when the browser has no IndexedDB (private
 * modes, Node), so the panel still works for the page's lifetime. */
export async function openSessionStore(name = DB_NAME): Promise<SessionStore> {
  if (typeof indexedDB === "undefined") return memoryStore();
  let db: IDBDatabase;
  try {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore(STORE, { keyPath: "id" });
      store.createIndex("projectId", "projectId");
    };
    db = await done(open);
  } catch {
    return memoryStore();
  }
  const tx = (mode: IDBTransactionMode) => db.transaction(STORE, mode).objectStore(STORE);
  return {
    async list(projectId) {
      const all = (await done(tx("readonly").index("projectId").getAll(projectId))) as SessionRecord[];
      return all.sort((a, b) => b.updated - a.updated);
    },
    get: async (id) => (await done(tx("readonly").get(id))) as SessionRecord | undefined,
    async put(record) {
      // Structured clone refuses functions and the like: store plain JSON.
      await done(tx("readwrite").put(JSON.parse(JSON.stringify(record))));
    },
    async delete(id) {
      await done(tx("readwrite").delete(id));
    },
  };
}

function memoryStore(): SessionStore {
  const records = new Map<string, SessionRecord>();
  return {
    list: async (projectId) => [...records.values()].filter((r) => r.projectId === projectId).sort((a, b) => b.updated - a.updated),
    get: async (id) => records.get(id),
    put: async (record) => void records.set(record.id, structuredClone(record)),
    delete: async (id) => void records.delete(id),
  };
}

/** A session's title from its first message: one line, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || "New conversation";
}
