import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CACHE_DEFAULT_TTL_MS, CACHE_MAX_ENTRIES, TtlCache, USER_DATA_TTL_MS } from './cache.ts';
import { MINUTE } from './clock.ts';

function setup(max?: number) {
  let now = 1_000_000;
  const cache = new TtlCache<number>(() => now, max);
  return {
    cache,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('TtlCache', () => {
  it('holds at most 50 entries for 5 minutes by default; user data for 5 minutes (spec section 9)', () => {
    expect(CACHE_MAX_ENTRIES).toBe(50);
    expect(CACHE_DEFAULT_TTL_MS).toBe(5 * MINUTE);
    expect(USER_DATA_TTL_MS).toBe(5 * MINUTE);
  });

  it('returns an entry until its lifetime ends, then forgets it', () => {
    const { cache, advance } = setup();
    cache.set('a', 1);
    advance(5 * MINUTE - 1);
    expect(cache.get('a')).toBe(1);
    advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('takes a lifetime per entry', () => {
    const { cache, advance } = setup();
    cache.set('short', 1, 1000);
    cache.set('long', 2, 10 * MINUTE);
    advance(1000);
    expect(cache.get('short')).toBeUndefined();
    advance(6 * MINUTE);
    expect(cache.get('long')).toBe(2);
  });

  it('on overflow drops expired entries first and keeps the rest', () => {
    const { cache, advance } = setup();
    for (let i = 0; i < 10; i++) cache.set(`old${i}`, i, 1000);
    for (let i = 0; i < 40; i++) cache.set(`live${i}`, i);
    advance(1000);
    cache.set('new', 99);
    expect(cache.size).toBe(41);
    expect(cache.keys().filter((k) => k.startsWith('old'))).toEqual([]);
    expect(cache.get('live0')).toBe(0);
    expect(cache.get('new')).toBe(99);
  });

  it('when nothing has expired drops the oldest half', () => {
    const { cache, advance } = setup();
    for (let i = 0; i < 50; i++) {
      cache.set(`k${i}`, i);
      advance(10);
    }
    cache.set('new', 50);
    expect(cache.size).toBe(26);
    for (let i = 0; i < 25; i++) expect(cache.get(`k${i}`)).toBeUndefined();
    for (let i = 25; i < 50; i++) expect(cache.get(`k${i}`)).toBe(i);
    expect(cache.get('new')).toBe(50);
  });

  it('does not evict when an existing key is replaced in a full cache', () => {
    const { cache } = setup();
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, i);
    cache.set('k0', 100);
    expect(cache.size).toBe(50);
    expect(cache.get('k0')).toBe(100);
    expect(cache.get('k1')).toBe(1);
  });

  it('a replaced entry counts as new for age and lifetime', () => {
    const { cache, advance } = setup(4);
    for (const k of ['a', 'b', 'c', 'a', 'd']) {
      cache.set(k, 1);
      advance(10);
    }
    cache.set('e', 1); // overflow: the oldest half is b and c, since a was stored again
    expect(cache.keys().sort()).toEqual(['a', 'd', 'e']);
  });

  it('deletes and clears', () => {
    const { cache } = setup();
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('a');
    expect(cache.keys()).toEqual(['b']);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('never exceeds its bound and never returns an expired value, whatever happens', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        key: fc.integer({ min: 0, max: 80 }),
        ttl: fc.integer({ min: 1, max: 20 * MINUTE }),
      }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 80 }) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3 * MINUTE }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.array(op, { maxLength: 300 }), (max, ops) => {
        const { cache, advance } = setup(max);
        let t = 0;
        const expiry = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === 'wait') {
            advance(o.ms);
            t += o.ms;
          } else if (o.kind === 'set') {
            cache.set(String(o.key), o.key, o.ttl);
            expiry.set(String(o.key), t + o.ttl);
          } else if (cache.get(String(o.key)) !== undefined) {
            expect(expiry.get(String(o.key))!).toBeGreaterThan(t);
          }
          expect(cache.size).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});
