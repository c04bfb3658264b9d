import { describe, expect, it } from 'vitest';
import { signUpMember, signUpStaff } from '../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../test/harness.ts';
import { NUL_MESSAGE } from './input-text.ts';

/**
 * A NUL character in a path parameter, a query string or a JSON body was a 500 on 22 routes
 * (the fuzzer, test/security/fuzz.test.ts): PostgreSQL's text cannot hold it. Every route now
 * refuses it with a 400, after the session check.
 */
describe.each(DB_KINDS)('text with a NUL character on %s', (kind) => {
  const t = useTestApp(kind);

  it('is refused with a 400 in a path, a query or a body, and an anonymous caller still gets 401', async () => {
    const m = await signUpMember(t().app, t().db);
    const staff = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const cases: { method: 'GET' | 'POST' | 'DELETE' | 'PATCH'; url: string; headers: object; payload?: object }[] = [
      { method: 'GET', url: '/api/v1/support/threads/%00', headers: m.headers },
      { method: 'DELETE', url: '/api/v1/health/medications/%2Fetc%2Fpasswd%00.jpg', headers: m.headers },
      { method: 'POST', url: '/api/v1/calls/%00/hangup', headers: m.headers, payload: {} },
      { method: 'GET', url: '/api/v1/cruise/events/%00', headers: m.headers },
      { method: 'GET', url: '/api/v1/admin/users/%00', headers: staff.headers },
      { method: 'PATCH', url: '/api/v1/me', headers: m.headers, payload: { bio: 'hi\u0000there' } },
      { method: 'GET', url: '/api/v1/grid?tribe=%00', headers: m.headers },
    ];
    for (const c of cases) {
      const res = await t().app.inject({ ...c, headers: c.headers as Record<string, string> });
      expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_input', message: NUL_MESSAGE });
    }
    const anonymous = await t().app.inject({ method: 'GET', url: '/api/v1/support/threads/%00' });
    expect(anonymous.statusCode).toBe(401);
  });
});
