// Where budget counters live. One operation is enough for every budget: add to a counter that
// expires, unless that would pass a limit. In memory by default (one process); the Redis store
// (redis.ts) gives several proxy instances one set of counters.

import { NeuralCutError } from "../errors.js";
import { StoreError } from "./errors.js";

/** The answer of `BudgetStore.add`. */
export interface CounterState {
  /** Whether the amount was added (false: it would have passed the limit; nothing changed). */
  ok: boolean;
  /** The counter's value afterwards (0 for a counter that does not exist). */
  value: number;
  /** When the counter expires, in milliseconds since the epoch (now + ttl for a new one). */
  resetAt: number;
}

export interface BudgetStore {
  /**
   * Adds `amount` (a whole number, may be negative or 0) to the counter `key`.
   * - A counter that does not exist starts at 0 and expires `ttlMs` from now; adding 0 to it
   *   creates nothing.
   * - With `limit`, a positive amount that would take the value above `limit` is refused and
   *   changes nothing. Negative amounts are never refused, and the value never goes below 0.
   * - A counter brought down to 0 may be dropped (it reads as one that does not exist).
   * - With `extend`, a successful add of 0 or more to an existing counter (or a new one) moves
   *   the expiry to `ttlMs` from now: a lease renewed by adding 0.
   * Must be atomic across every proxy instance that shares the store. Throws when it cannot
   * count (the proxy then refuses the request: fails closed).
   */
  add(key: string, amount: number, ttlMs: number, limit?: number, extend?: boolean): Promise<CounterState>;
}

export interface MemoryStoreOptions {
  /** Most counters held. 100 000. When full and none has expired, new counters are refused. */
  maxKeys?: number;
}

/** Counters in this process's memory: exact for one instance, per-instance behind several. */
export class MemoryStore implements BudgetStore {
  private readonly counters = new Map<string, { value: number; resetAt: number }>();
  private readonly maxKeys: number;
  /** No counter expires before this: a full store is swept only once something can have expired. */
  private earliest = Infinity;

  constructor(options: MemoryStoreOptions = {}) {
    const n = options.maxKeys ?? 100_000;
    if (!Number.isInteger(n) || n < 1) throw new NeuralCutError("INVALID_OPTIONS", "MemoryStore: maxKeys must be a positive whole number");
    this.maxKeys = n;
  }

  async add(key: string, amount: number, ttlMs: number, limit?: number, extend = false): Promise<CounterState> {
    const now = Date.now();
    let c = this.counters.get(key);
    if (c && c.resetAt <= now) {
      this.counters.delete(key);
      c = undefined;
    }
    const value = c?.value ?? 0;
    const resetAt = c?.resetAt ?? now + ttlMs;
    if (amount > 0 && limit !== undefined && value + amount > limit) return { ok: false, value, resetAt };
    if (!c && amount <= 0) return { ok: true, value: 0, resetAt };
    if (!c) {
      // Never forget a live counter to make room (a day budget would reset): refuse instead.
      if (this.counters.size >= this.maxKeys && !this.sweep(now)) {
        throw new StoreError("STORE_FULL", `the memory budget store holds ${this.maxKeys} live counters`);
      }
      c = { value: 0, resetAt };
      this.counters.set(key, c);
    }
    c.value = Math.max(0, c.value + amount);
    if (extend && amount >= 0) c.resetAt = now + ttlMs;
    this.earliest = Math.min(this.earliest, c.resetAt);
    const out = { ok: true, value: c.value, resetAt: c.resetAt };
    // A counter back at 0 holds nothing: dropped, so refused and refunded requests leave no key.
    if (c.value === 0) this.counters.delete(key);
    return out;
  }

  /** Drops expired counters; true when that made room. */
  private sweep(now: number): boolean {
    if (now < this.earliest) return false;
    let earliest = Infinity;
    for (const [k, c] of this.counters) {
      if (c.resetAt <= now) this.counters.delete(k);
      else earliest = Math.min(earliest, c.resetAt);
    }
    this.earliest = earliest;
    return this.counters.size < this.maxKeys;
  }
}
