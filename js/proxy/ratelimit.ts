// A fixed-window request counter per key, in memory. Per process: behind several instances each
// counts its own share (docs/proxy.md says so).

const MAX_KEYS = 50_000;

export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs: number) {}

  /** Counts one request for `key`. Null when allowed; else milliseconds until the window resets. */
  take(key: string, max: number): number | null {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size >= MAX_KEYS) this.sweep(now);
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    if (w.count >= max) return Math.max(1, w.resetAt - now);
    w.count++;
    return null;
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    // Still full: forget the oldest half rather than grow without bound.
    if (this.windows.size >= MAX_KEYS) {
      let n = 0;
      for (const k of this.windows.keys()) {
        if (n++ >= MAX_KEYS / 2) break;
        this.windows.delete(k);
      }
    }
  }
}
