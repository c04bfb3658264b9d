import { MINUTE } from './clock.ts';

/** Client cache rule (spec section 9): at most 50 entries, 5 minutes by default. */
export const CACHE_MAX_ENTRIES = 50;
export const CACHE_DEFAULT_TTL_MS = 5 * MINUTE;
export const USER_DATA_TTL_MS = 5 * MINUTE;

interface Entry<V> {
  value: V;
  storedAt: number;
  expiresAt: number;
}

/**
 * A small time-bounded cache. On overflow expired entries go first, then the oldest half
 * (by time stored). Time comes from the injected `now`.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  constructor(
    private readonly now: () => number,
    private readonly max = CACHE_MAX_ENTRIES,
    private readonly defaultTtl = CACHE_DEFAULT_TTL_MS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: V, ttl = this.defaultTtl): void {
    const t = this.now();
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.evict(t);
    this.entries.set(key, { value, storedAt: t, expiresAt: t + ttl });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  private evict(t: number): void {
    for (const [k, e] of this.entries) if (e.expiresAt <= t) this.entries.delete(k);
    if (this.entries.size < this.max) return;
    const oldest = [...this.entries.entries()].sort((a, b) => a[1].storedAt - b[1].storedAt);
    for (const [k] of oldest.slice(0, Math.ceil(oldest.length / 2))) this.entries.delete(k);
  }
}
