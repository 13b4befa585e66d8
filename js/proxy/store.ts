// Where budget counters live. One operation is enough for every budget: add to a counter that
// expires, unless that would pass a limit. In memory by default (one process); the Redis store
// (redis.ts) gives several proxy instances one set of counters.

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
   * - With `extend`, a successful positive add moves the expiry to `ttlMs` from now.
   * Must be atomic across every proxy instance that shares the store.
   */
  add(key: string, amount: number, ttlMs: number, limit?: number, extend?: boolean): Promise<CounterState>;
}

const MAX_KEYS = 100_000;

/** Counters in this process's memory: exact for one instance, per-instance behind several. */
export class MemoryStore implements BudgetStore {
  private readonly counters = new Map<string, { value: number; resetAt: number }>();

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
      if (this.counters.size >= MAX_KEYS) this.sweep(now);
      c = { value: 0, resetAt };
      this.counters.set(key, c);
    }
    c.value = Math.max(0, c.value + amount);
    if (extend && amount > 0) c.resetAt = now + ttlMs;
    return { ok: true, value: c.value, resetAt: c.resetAt };
  }

  private sweep(now: number): void {
    for (const [k, c] of this.counters) if (c.resetAt <= now) this.counters.delete(k);
    // Still full: forget the oldest half rather than grow without bound.
    if (this.counters.size >= MAX_KEYS) {
      let n = 0;
      for (const k of this.counters.keys()) {
        if (n++ >= MAX_KEYS / 2) break;
        this.counters.delete(k);
      }
    }
  }
}
