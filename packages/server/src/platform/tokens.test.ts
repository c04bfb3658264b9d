import { createHmac } from 'node:crypto';
import { fixedClock } from '@fmk/core';
import fc from 'fast-check';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenService } from './auth.ts';

const SECRET = 'a-test-secret-that-is-at-least-32-characters-long';
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const signWith = (secret: string, header: object, payload: object) => {
  const body = `${b64(header)}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
};

describe('TokenService', () => {
  const clock = fixedClock('2026-06-01T12:00:00Z');
  const tokens = new TokenService(SECRET, 60, clock);
  const nowS = Math.floor(clock.now().getTime() / 1000);

  it('verifies what it issues, with the session, user and expiry', async () => {
    const { token, expiresAt } = await tokens.issue('user-1', 'session-1');
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', sessionId: 'session-1', expiresAt, staff: false });
    // A staff session's token says so, and lives as long as it was asked to.
    const staff = await tokens.issue('user-1', 'session-2', { staff: true, ttlMinutes: 5 });
    expect(await tokens.verify(staff.token)).toEqual({
      userId: 'user-1',
      sessionId: 'session-2',
      expiresAt: staff.expiresAt,
      staff: true,
    });
    expect(staff.expiresAt.getTime() - clock.now().getTime()).toBe(5 * 60_000);
  });

  it('refuses a token past its expiry, signed with another key, tampered with, or not HS256', async () => {
    const { token } = await tokens.issue('user-1', 'session-1');
    const later = new TokenService(SECRET, 60, fixedClock(new Date(clock.now().getTime() + 60 * 60_000)));
    expect(await later.verify(token)).toBeNull();
    expect(await new TokenService(`${SECRET}x`, 60, clock).verify(token)).toBeNull();
    const [h, p, s] = token.split('.') as [string, string, string];
    const forged = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'user-2' });
    expect(await tokens.verify(`${h}.${forged}.${s}`)).toBeNull();
    const claims = { sub: 'user-1', sid: 's', exp: nowS + 60 };
    expect(await tokens.verify(`${b64({ alg: 'none' })}.${b64(claims)}.`)).toBeNull();
    expect(await tokens.verify(signWith(SECRET, { alg: 'HS512' }, claims))).toBeNull();
    expect(await tokens.verify(signWith(SECRET, { alg: 'HS256', crit: ['x'] }, claims))).toBeNull();
    expect(await tokens.verify(signWith(SECRET, { alg: 'HS256' }, { ...claims, nbf: nowS + 30 }))).toBeNull();
    expect(await tokens.verify(signWith(SECRET, { alg: 'HS256' }, { sid: 's', exp: nowS + 60 }))).toBeNull();
    expect(await tokens.verify(signWith(SECRET, { alg: 'HS256' }, claims))).toMatchObject({ userId: 'user-1', sessionId: 's' });
    for (const bad of ['', 'a.b', 'a.b.c.d', '...', `${h}.${p}`, `${h}.${p}.${s}x`, `${h}!.${p}.${s}`])
      expect(await tokens.verify(bad)).toBeNull();
  });

  it('still refuses a token it verified before once the token has expired', async () => {
    const clock2 = fixedClock('2026-06-01T12:00:00Z');
    const svc = new TokenService(SECRET, 60, clock2);
    const { token } = await svc.issue('user-1', 'session-1');
    expect(await svc.verify(token)).not.toBeNull();
    expect(await svc.verify(token)).not.toBeNull();
    clock2.advance(60 * 60_000);
    expect(await svc.verify(token)).toBeNull();
  });

  it('agrees with jose on random claims and random corruptions', async () => {
    const key = new TextEncoder().encode(SECRET);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: -3600, max: 3600 }),
        fc.nat(200),
        fc.integer({ min: 0, max: 255 }),
        async (sub, sid, ttl, at, byte) => {
          const good = await new SignJWT({ sid })
            .setProtectedHeader({ alg: 'HS256' })
            .setSubject(sub)
            .setExpirationTime(nowS + ttl)
            .sign(key);
          const chars = [...good];
          const i = at % chars.length;
          if (chars[i] !== '.') chars[i] = String.fromCharCode(byte);
          for (const token of [good, chars.join('')]) {
            const ours = await tokens.verify(token);
            const theirs = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: clock.now() }).then(
              (r) => r.payload,
              () => null,
            );
            expect(ours === null).toBe(theirs === null);
            if (ours && theirs) expect([ours.userId, ours.sessionId]).toEqual([theirs.sub, theirs.sid]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
