import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { PASSWORD, signUpMember, signUpStaff } from '../factories.ts';
import { DB_KINDS, useTestApp } from '../harness.ts';
import { openLive } from '../live.ts';
import { recordScore } from './scoreboard.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });

const CLOSE_WITHIN_MS = 5_000;

/**
 * Sessions end when they should: after sign-out, a password change, a ban, erasure and a staff
 * revocation, the old access token is refused and the open live socket closes within 5 s.
 */
describe.each(DB_KINDS)('ended sessions on %s', (kind) => {
  const t = useTestApp(kind);

  it('refuse the old token and close the socket within 5 s, for every way a session ends', async () => {
    const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: object, payload?: object) =>
      t().app.inject({
        method,
        url: `/api/v1${url}`,
        headers: headers as Record<string, string>,
        ...(payload ? { payload } : {}),
      });
    const endings: Record<string, (m: Awaited<ReturnType<typeof signUpMember>>) => Promise<unknown>> = {
      'sign-out': (m) => inject('POST', '/auth/logout', m.headers),
      // The device that changes the password stays signed in (it proved the password); every other session ends.
      'password change': async (m) => {
        const here = await inject('POST', '/auth/login', {}, { email: m.user.email, password: PASSWORD });
        return inject(
          'POST',
          '/auth/password/change',
          { authorization: `Bearer ${here.json().token}` },
          {
            currentPassword: PASSWORD,
            newPassword: `new ${randomUUID()}`,
          },
        );
      },
      ban: (m) => inject('POST', `/admin/users/${m.user.uid}/ban`, owner.staffHeaders, { reason: 'Scam account' }),
      erasure: (m) => inject('POST', '/account/delete', m.headers, { password: PASSWORD }),
    };
    const results: string[] = [];
    const slow: string[] = [];
    for (const [name, end] of Object.entries(endings)) {
      const m = await signUpMember(t().app, t().db);
      const socket = await openLive(t().app, m.token);
      const started = Date.now();
      const res = (await end(m)) as { statusCode: number; body: string };
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
      const closed = await Promise.race([
        socket.closed.then(() => Date.now() - started),
        new Promise<null>((r) => setTimeout(() => r(null), CLOSE_WITHIN_MS)),
      ]);
      const after = await inject('GET', '/me', m.headers);
      results.push(`${name}: token ${after.statusCode}, socket ${closed === null ? 'open' : `closed in ${closed} ms`}`);
      if (after.statusCode !== 401 || closed === null) slow.push(results.at(-1) as string);
    }
    // Staff revocation: the staff session stops opening the admin area at once.
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    expect((await inject('GET', '/admin/me', mod.staffHeaders)).statusCode).toBe(200);
    const revoked = await inject('DELETE', `/admin/team/members/${mod.user.uid}`, owner.staffHeaders);
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    const staffAfter = await inject('GET', '/admin/me', mod.staffHeaders);
    results.push(`staff revocation: staff token ${staffAfter.statusCode}`);
    if (![401, 403].includes(staffAfter.statusCode)) slow.push(results.at(-1) as string);

    // What a token's secret part is made of: an HMAC-SHA256 signature (256 bits) under the server's secret.
    const signature = Buffer.from((owner.token.split('.')[2] ?? '').replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    const secretBits = Buffer.from(t().config.tokenSecret, 'hex').length * 8;
    recordScore({
      id: '06-sessions',
      db: kind,
      measure:
        'Sessions: after sign-out, password change, ban, erasure and staff revocation the old token is refused and sockets close ≤ 5 s; token entropy',
      figure: `${5 - slow.length} / 5 endings (${results.join('; ')}); signature ${signature.length * 8} bits under a ${secretBits}-bit secret`,
      goal: '5 / 5, ≥ 128 bits',
      pass: slow.length === 0 && signature.length * 8 >= 128 && secretBits >= 128,
    });
    expect(slow).toEqual([]);
    expect(signature.length * 8).toBeGreaterThanOrEqual(128);
  });
});
