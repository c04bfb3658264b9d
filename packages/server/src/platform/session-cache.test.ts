import { describe, expect, it } from 'vitest';
import { SessionCache } from './auth.ts';

describe('SessionCache', () => {
  const at = new Date('2026-06-01T13:00:00Z');

  it('keeps a live session for ttlMs of monotonic time, then asks again', () => {
    let t = 0;
    const cache = new SessionCache(5000, 10, () => t);
    cache.set('s1', 'u1', at);
    expect(cache.get('s1', 'u1')).toEqual(at);
    t = 4999;
    expect(cache.get('s1', 'u1')).toEqual(at);
    t = 5000;
    expect(cache.get('s1', 'u1')).toBeNull();
  });

  it('never answers for another user than the session was found for', () => {
    const cache = new SessionCache(5000, 10, () => 0);
    cache.set('s1', 'u1', at);
    expect(cache.get('s1', 'u2')).toBeNull();
    expect(cache.get('s1', 'u1')).toBeNull();
  });

  it('forgets a session, and every session of given users', () => {
    const cache = new SessionCache(5000, 10, () => 0);
    cache.set('s1', 'u1', at);
    cache.set('s2', 'u1', at);
    cache.set('s3', 'u2', at);
    cache.forgetSession('s3');
    expect(cache.get('s3', 'u2')).toBeNull();
    cache.forgetUsers(['u1']);
    expect(cache.get('s1', 'u1')).toBeNull();
    expect(cache.get('s2', 'u1')).toBeNull();
  });

  it('holds at most max entries, dropping the oldest', () => {
    const cache = new SessionCache(5000, 2, () => 0);
    cache.set('s1', 'u1', at);
    cache.set('s2', 'u2', at);
    cache.set('s3', 'u3', at);
    expect(cache.get('s1', 'u1')).toBeNull();
    expect(cache.get('s2', 'u2')).toEqual(at);
    expect(cache.get('s3', 'u3')).toEqual(at);
  });
});
