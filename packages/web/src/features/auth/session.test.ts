import { AUTH_STORAGE_KEYS, type AuthResult, type Me } from '@fmk/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession, EXPIRES_AT_KEY, readSession, shouldRefresh, withRetries, writeSession } from './session.ts';

const user = { uid: 'u1', email: 'a@b.co', onboardingComplete: false } as Me;
const result: AuthResult = { token: 'tok', expiresAt: '2030-01-01T00:00:00.000Z', user };

describe('stored session', () => {
  beforeEach(() => localStorage.clear());

  it('stores auth_token, auth_user and the expiry, and reads them back', () => {
    writeSession(result);
    expect(localStorage.getItem(AUTH_STORAGE_KEYS.token)).toBe('tok');
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEYS.user) ?? '{}').uid).toBe('u1');
    expect(localStorage.getItem(EXPIRES_AT_KEY)).toBe(result.expiresAt);
    const s = readSession();
    expect(s.token).toBe('tok');
    expect(s.user?.uid).toBe('u1');
    expect(s.expiresAt?.toISOString()).toBe(result.expiresAt);
  });

  it('clears everything on sign-out but leaves other keys', () => {
    writeSession(result);
    localStorage.setItem('appPreferences', '{}');
    clearSession();
    expect(readSession()).toEqual({ token: null, user: null, expiresAt: null });
    expect(localStorage.getItem('appPreferences')).toBe('{}');
  });

  it('treats a corrupt user or expiry as missing', () => {
    localStorage.setItem(AUTH_STORAGE_KEYS.user, '{oops');
    localStorage.setItem(EXPIRES_AT_KEY, 'not a date');
    expect(readSession()).toEqual({ token: null, user: null, expiresAt: null });
  });
});

describe('shouldRefresh', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  it('refreshes inside the 15-minute window only', () => {
    expect(shouldRefresh(new Date(now.getTime() + 14 * 60_000), now)).toBe(true);
    expect(shouldRefresh(new Date(now.getTime() + 16 * 60_000), now)).toBe(false);
    expect(shouldRefresh(null, now)).toBe(false);
  });
});

describe('withRetries (redirect result: 3 attempts, 1 s apart)', () => {
  it('stops at the first success', async () => {
    const waits: number[] = [];
    let calls = 0;
    const v = await withRetries(
      async () => {
        calls++;
        if (calls < 2) throw new Error('not yet');
        return 'ok';
      },
      3,
      1000,
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(v).toBe('ok');
    expect(calls).toBe(2);
    expect(waits).toEqual([1000]);
  });

  it('gives up after the last attempt with its error', async () => {
    let calls = 0;
    const run = withRetries(
      async () => {
        calls++;
        throw new Error(`fail ${calls}`);
      },
      3,
      1000,
      async () => {},
    );
    await expect(run).rejects.toThrow('fail 3');
    expect(calls).toBe(3);
  });
});
