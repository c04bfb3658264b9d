import type { Clock } from '@fmk/core';

/**
 * At most `max` uses per key in any `windowMs` (a sliding window), counted in memory on the
 * injected clock. For the busiest writes (messages, live frames), where a database round trip per
 * request would cost more than the limit saves; each instance counts its own, so behind a load
 * balancer with n instances a member can reach at most n × max (docs/security.md).
 */
export class WindowLimiter {
  private readonly uses = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /**
   * Counts one use under `key` and answers 0, or, when the window is full, answers how many ms
   * until a use frees (the refused use is not counted).
   */
  take(key: string): number {
    const now = this.clock.now().getTime();
    this.sweep(now);
    const since = now - this.windowMs;
    const list = (this.uses.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.max) {
      this.uses.set(key, list);
      return Math.max(1, (list[0] as number) + this.windowMs - now);
    }
    list.push(now);
    this.uses.set(key, list);
    return 0;
  }

  /** Forgets the keys whose uses have all left the window (at most once a window). */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, list] of this.uses) if ((list.at(-1) ?? 0) <= now - this.windowMs) this.uses.delete(key);
  }
}
