// Per-user and global budgets over a BudgetStore. A user's requests count against that user's
// budgets whatever happens to them; the global budgets count only what was admitted (a user over
// their own budget, or a refused request, never uses up everyone's share).
//
// Tokens are reserved before a call goes upstream and settled after it (reserve, then refund what
// it did not use or add what it used beyond), so parallel calls cannot all pass one check. What
// the store could not take back or add when the call ended (an outage) is owed: kept here and
// retried until the store answers or the counter would have expired anyway.

import type { ProxyBudgets } from "./config.js";
import { BudgetError, StoreError } from "./errors.js";
import type { BudgetStore, CounterState } from "./store.js";

const MINUTE = 60_000;
const DAY = 24 * 3600_000;
/** Gemini keeps an uploaded file 48 hours; a stored-bytes counter lives as long as its newest file. */
const FILE_LIFETIME = 48 * 3600_000;
/** A concurrency slot is a lease: renewed while its upload runs, gone this long after it stops. */
const SLOT_LEASE = 120_000;
const SLOT_RENEW = 30_000;
/** Owed adjustments kept at most (one per counter); past that the oldest are dropped with a warning. */
const MAX_DEBTS = 10_000;
const RETRY_MS = 1000;

/** What `startUpload` reserved; give it back with `finish`. */
export interface UploadReservation {
  /** Frees the concurrency slots; `stored: false` also gives back the storage it reserved. */
  finish(stored: boolean): Promise<void>;
}

/** What `reserveTokens` took; `settle` once the call is over. */
export interface TokenReservation {
  /** Tokens reserved against the user's day budget. */
  readonly reserved: number;
  /** Counts `used` tokens instead of the reservation; `undefined` (usage unknown) keeps the
   * reservation as the count. Never throws: what the store cannot take is owed. */
  settle(used: number | undefined): Promise<void>;
}

interface Taken {
  key: string;
  amount: number;
  ttl: number;
}

export class Budgets {
  private readonly debts = new Map<string, { amount: number; ttl: number; until: number }>();
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: BudgetStore,
    private readonly b: Required<ProxyBudgets>,
    private readonly warn: (line: string) => void = () => {},
  ) {}

  /** The store's add; a store that fails becomes a StoreError (503), its detail kept from the client. */
  private async add(key: string, amount: number, ttl: number, limit?: number, extend = false): Promise<CounterState> {
    try {
      return await this.store.add(key, amount, ttl, limit, extend);
    } catch (e) {
      if (e instanceof StoreError) throw e;
      this.warn(`budget store failed (${e instanceof Error ? e.name : "error"}); refusing until it answers`);
      throw new StoreError("STORE_UNAVAILABLE", "The budget store is unavailable; try again shortly");
    }
  }

  private async take(key: string, amount: number, ttl: number, limit: number, name: keyof ProxyBudgets, extend = false): Promise<Taken> {
    const scope = key.startsWith("g:") ? "global" : "user";
    const r = await this.add(key, amount, ttl, limit, extend);
    if (!r.ok) throw new BudgetError(name, scope, limit, r.resetAt);
    return { key, amount, ttl };
  }

  /**
   * Takes `want`. When less is left, the call takes the rest under the limit (a racer that took
   * it first makes this add refuse: the store checks the limit atomically), then the remainder
   * of its worst case beyond the limit. So the counter holds every call in flight at its worst
   * case, a refund frees only what a call did not use, and the day ends at most one call's worst
   * case over the budget. (Taking only the rest let a refund of an earlier call open room that
   * the rest-takers had already spent: 3 of 30 parallel 1M calls through a 2M budget.)
   */
  private async takeUpTo(key: string, want: number, ttl: number, limit: number, name: keyof ProxyBudgets): Promise<Taken> {
    const now = await this.add(key, 0, ttl);
    if (now.value >= limit) throw new BudgetError(name, key.startsWith("g:") ? "global" : "user", limit, now.resetAt);
    const left = limit - now.value;
    const taken = await this.take(key, Math.min(want, left), ttl, limit, name);
    if (want <= left) return taken;
    try {
      await this.add(key, want - left, ttl);
    } catch (e) {
      await this.giveBack([taken]);
      throw e;
    }
    return { key, amount: want, ttl };
  }

  /** Adds `amount`; when the store fails, owes it. Never throws. */
  private async adjust(key: string, amount: number, ttl: number): Promise<void> {
    if (amount === 0) return;
    try {
      await this.store.add(key, amount, ttl);
    } catch {
      this.owe(key, amount, ttl);
    }
  }

  private async giveBack(taken: Taken[]): Promise<void> {
    await Promise.all(taken.map((t) => this.adjust(t.key, -t.amount, t.ttl)));
  }

  private owe(key: string, amount: number, ttl: number): void {
    const d = this.debts.get(key);
    if (d) {
      d.amount += amount;
      d.until = Math.max(d.until, Date.now() + ttl);
    } else {
      if (this.debts.size >= MAX_DEBTS) {
        const oldest = this.debts.keys().next().value as string;
        this.debts.delete(oldest);
        this.warn("budget store: too many adjustments owed; the oldest was dropped");
      }
      this.debts.set(key, { amount, ttl, until: Date.now() + ttl });
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retry || this.debts.size === 0) return;
    this.retry = setTimeout(() => void this.payDebts(), RETRY_MS);
    (this.retry as { unref?: () => void }).unref?.();
  }

  private async payDebts(): Promise<void> {
    const now = Date.now();
    for (const [key, d] of [...this.debts]) {
      // Past the counter's life the adjustment means nothing (and would hit a newer counter).
      if (d.until <= now || d.amount === 0) {
        this.debts.delete(key);
        continue;
      }
      try {
        await this.store.add(key, d.amount, d.ttl);
        this.debts.delete(key);
      } catch {
        break; // still down: try again later
      }
    }
    this.retry = undefined;
    this.scheduleRetry();
  }

  /** Counts one request of `user` (every request, refused or not). */
  async request(user: string): Promise<void> {
    await this.take(`r:${user}`, 1, MINUTE, this.b.requestsPerMinute, "requestsPerMinute");
  }

  /** Counts one admitted request against the global budget, just before it goes upstream. */
  async admit(): Promise<void> {
    await this.take("g:r", 1, MINUTE, this.b.globalRequestsPerMinute, "globalRequestsPerMinute");
  }

  /** Reserves `worst` tokens (or what is left of a budget) from the user's and the global day
   * budgets, or throws naming the one spent. */
  async reserveTokens(user: string, worst: number): Promise<TokenReservation> {
    const want = Math.max(1, Math.ceil(worst));
    const mine = await this.takeUpTo(`t:${user}`, want, DAY, this.b.tokensPerDay, "tokensPerDay");
    let all: Taken;
    try {
      all = await this.takeUpTo("g:t", want, DAY, this.b.globalTokensPerDay, "globalTokensPerDay");
    } catch (e) {
      await this.giveBack([mine]);
      throw e;
    }
    let done = false;
    return {
      reserved: mine.amount,
      settle: async (used) => {
        if (done) return;
        done = true;
        if (used === undefined) return;
        const n = Math.max(0, Math.ceil(used));
        await Promise.all([mine, all].map((t) => this.adjust(t.key, n - t.amount, t.ttl)));
      },
    };
  }

  /** Reserves everything one upload of `size` bytes needs, or throws naming the first budget spent. */
  async startUpload(user: string, size: number): Promise<UploadReservation> {
    await this.take(`u:${user}`, 1, MINUTE, this.b.uploadsPerMinute, "uploadsPerMinute");
    const slots: Taken[] = [];
    const storage: Taken[] = [];
    try {
      slots.push(await this.take(`c:${user}`, 1, SLOT_LEASE, this.b.concurrentUploads, "concurrentUploads", true));
      slots.push(await this.take("g:c", 1, SLOT_LEASE, this.b.globalConcurrentUploads, "globalConcurrentUploads", true));
      storage.push(await this.take(`s:${user}`, size, FILE_LIFETIME, this.b.storedBytes, "storedBytes", true));
      storage.push(await this.take("g:s", size, FILE_LIFETIME, this.b.globalStoredBytes, "globalStoredBytes", true));
      // Last: bytes a day are spent once the upload starts, whatever becomes of it.
      await this.take(`b:${user}`, size, DAY, this.b.uploadBytesPerDay, "uploadBytesPerDay");
    } catch (e) {
      await this.giveBack([...slots, ...storage]);
      throw e;
    }
    // The slots' lease is renewed while the upload runs; a crashed instance's lapses by itself.
    const renew = setInterval(() => {
      for (const s of slots) void this.store.add(s.key, 0, SLOT_LEASE, undefined, true).catch(() => {});
    }, SLOT_RENEW);
    (renew as { unref?: () => void }).unref?.();
    let done = false;
    return {
      finish: async (stored) => {
        if (done) return;
        done = true;
        clearInterval(renew);
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
