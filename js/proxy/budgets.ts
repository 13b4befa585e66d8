// Per-user and global budgets over a BudgetStore. A user's requests count against that user's
// budgets whatever happens to them; the global budgets count only what was admitted (a user over
// their own budget, or a refused request, never uses up everyone's share).

import type { ProxyBudgets } from "./config.js";
import { BudgetError } from "./errors.js";
import type { BudgetStore } from "./store.js";

const MINUTE = 60_000;
const DAY = 24 * 3600_000;
/** Gemini keeps an uploaded file 48 hours; a stored-bytes counter lives as long as its newest file. */
const FILE_LIFETIME = 48 * 3600_000;
/** A concurrency slot not released (a crashed instance) frees itself after this long. */
const SLOT_LIFETIME = 3600_000;

/** What `startUpload` reserved; give it back with `finish`. */
export interface UploadReservation {
  /** Frees the concurrency slots; `stored: false` also gives back the storage it reserved. */
  finish(stored: boolean): Promise<void>;
}

interface Taken {
  key: string;
  amount: number;
  ttl: number;
}

export class Budgets {
  constructor(
    private readonly store: BudgetStore,
    private readonly b: Required<ProxyBudgets>,
  ) {}

  private async take(key: string, amount: number, ttl: number, limit: number, name: keyof ProxyBudgets, extend = false): Promise<Taken> {
    const scope = key.startsWith("g:") ? "global" : "user";
    const r = await this.store.add(key, amount, ttl, limit, extend);
    if (!r.ok) throw new BudgetError(name, scope, limit, r.resetAt);
    return { key, amount, ttl };
  }

  private async giveBack(taken: Taken[]): Promise<void> {
    await Promise.all(taken.map((t) => this.store.add(t.key, -t.amount, t.ttl).catch(() => undefined)));
  }

  /** Counts one request of `user` (every request, refused or not). */
  async request(user: string): Promise<void> {
    await this.take(`r:${user}`, 1, MINUTE, this.b.requestsPerMinute, "requestsPerMinute");
  }

  /** Counts one admitted request against the global budget, just before it goes upstream. */
  async admit(): Promise<void> {
    await this.take("g:r", 1, MINUTE, this.b.globalRequestsPerMinute, "globalRequestsPerMinute");
  }

  /** Refuses a generate call once the user's (or everyone's) tokens for the day are spent. */
  async checkTokens(user: string): Promise<void> {
    for (const [key, limit, name] of [
      [`t:${user}`, this.b.tokensPerDay, "tokensPerDay"],
      ["g:t", this.b.globalTokensPerDay, "globalTokensPerDay"],
    ] as const) {
      const r = await this.store.add(key, 0, DAY);
      if (r.value >= limit) throw new BudgetError(name, key.startsWith("g:") ? "global" : "user", limit, r.resetAt);
    }
  }

  /** Adds what a call used (after it ran: Gemini says how much in usageMetadata). */
  async spendTokens(user: string, tokens: number): Promise<void> {
    const n = Math.max(0, Math.ceil(tokens));
    if (!(n > 0)) return;
    await Promise.all([this.store.add(`t:${user}`, n, DAY), this.store.add("g:t", n, DAY)]);
  }

  /** Reserves everything one upload of `size` bytes needs, or throws naming the first budget spent. */
  async startUpload(user: string, size: number): Promise<UploadReservation> {
    await this.take(`u:${user}`, 1, MINUTE, this.b.uploadsPerMinute, "uploadsPerMinute");
    const slots: Taken[] = [];
    const storage: Taken[] = [];
    try {
      slots.push(await this.take(`c:${user}`, 1, SLOT_LIFETIME, this.b.concurrentUploads, "concurrentUploads", true));
      slots.push(await this.take("g:c", 1, SLOT_LIFETIME, this.b.globalConcurrentUploads, "globalConcurrentUploads", true));
      storage.push(await this.take(`s:${user}`, size, FILE_LIFETIME, this.b.storedBytes, "storedBytes", true));
      storage.push(await this.take("g:s", size, FILE_LIFETIME, this.b.globalStoredBytes, "globalStoredBytes", true));
      // Last: bytes a day are spent once the upload starts, whatever becomes of it.
      await this.take(`b:${user}`, size, DAY, this.b.uploadBytesPerDay, "uploadBytesPerDay");
    } catch (e) {
      await this.giveBack([...slots, ...storage]);
      throw e;
    }
    let done = false;
    return {
      finish: async (stored) => {
        if (done) return;
        done = true;
        await this.giveBack(stored ? slots : [...slots, ...storage]);
      },
    };
  }

  /** A file of `size` bytes was deleted: its storage is free again. */
  async deleted(user: string, size: number): Promise<void> {
    if (!(size > 0)) return;
    await this.giveBack([
      { key: `s:${user}`, amount: size, ttl: FILE_LIFETIME },
      { key: "g:s", amount: size, ttl: FILE_LIFETIME },
    ]);
  }
}
