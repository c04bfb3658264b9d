import { deviceSessionsSchema, LIVE_CLOSE_UNAUTHORIZED, SessionMessages } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe.each(DB_KINDS)("where you're signed in, on %s", (kind) => {
  const t = useTestApp(kind);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const login = async (email: string, userAgent: string) => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: PASSWORD },
      headers: { 'user-agent': userAgent },
    });
    expect(res.statusCode).toBe(200);
    return res.json().token as string;
  };
  const list = (token: string) => t().app.inject({ method: 'GET', url: '/api/v1/auth/sessions', headers: bearer(token) });
  const me = async (token: string) =>
    (await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) })).statusCode;

  it('lists my live sessions with their devices, this one first, and never another user’s', async () => {
    const email = newEmail('devices');
    await signUp(t().app, { email });
    const phone = await login(email, PHONE);
    const laptop = await login(email, LAPTOP);
    await signUp(t().app); // someone else's session must not show

    const res = await list(laptop);
    expect(res.statusCode).toBe(200);
    const { sessions } = deviceSessionsSchema.parse(res.json());
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ device: 'Firefox on Windows', current: true });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.map((s) => s.device)).toContain('Safari on iPhone');
    // The address and the user agent itself stay on the server.
    for (const s of res.json().sessions)
      expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'device', 'id', 'lastUsedAt']);
    expect(res.body).not.toMatch(/127\.0\.0\.1|Mozilla/);
    expect(await me(phone)).toBe(200);
  });

  it('signs one session out: its token stops working and its socket closes; others go on', async () => {
    const email = newEmail('one');
    const here = await signUp(t().app, { email });
    const phone = await login(email, PHONE);
    const phoneSocket = await openLive(t().app, phone);
    const { sessions } = deviceSessionsSchema.parse((await list(here.token)).json());
    const target = sessions.find((s) => s.device === 'Safari on iPhone')!;

    const res = await t().app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${target.id}`, headers: here.headers });
    expect(res.statusCode).toBe(204);
    expect(await phoneSocket.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    expect(await me(phone)).toBe(401);
    expect(await me(here.token)).toBe(200);

    // Ended once, it is gone: a second try is 404 with a clear message.
    const again = await t().app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${target.id}`, headers: here.headers });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(SessionMessages.notFound);
  });

  it('refuses to sign out another user’s session, and changes nothing', async () => {
    const victimEmail = newEmail('victim');
    await signUp(t().app, { email: victimEmail });
    const victimPhone = await login(victimEmail, PHONE);
    const { sessions } = deviceSessionsSchema.parse((await list(victimPhone)).json());
    const attacker = await signUp(t().app);

    for (const s of sessions) {
      const res = await t().app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${s.id}`, headers: attacker.headers });
      expect(res.statusCode).toBe(404);
    }
    expect(await me(victimPhone)).toBe(200);
    expect(deviceSessionsSchema.parse((await list(victimPhone)).json()).sessions).toHaveLength(2);
    const odd = await t().app.inject({
      method: 'DELETE',
      url: `/api/v1/auth/sessions/${'x'.repeat(300)}`,
      headers: attacker.headers,
    });
    // Fastify refuses a path parameter over 100 characters before the route runs.
    expect(odd.statusCode).toBe(414);
    const anonymous = await t().app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${sessions[0]!.id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('signs out everywhere else: every other session ends, this one stays', async () => {
    const email = newEmail('everywhere');
    const here = await signUp(t().app, { email });
    const phone = await login(email, PHONE);
    const laptop = await login(email, LAPTOP);
    const laptopSocket = await openLive(t().app, laptop);
    const hereSocket = await openLive(t().app, here.token);

    const res = await t().app.inject({ method: 'POST', url: '/api/v1/auth/sessions/sign-out-others', headers: here.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ signedOut: 2 });
    expect(await laptopSocket.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    expect(await me(phone)).toBe(401);
    expect(await me(laptop)).toBe(401);
    expect(await me(here.token)).toBe(200);
    expect(hereSocket.ws.readyState).toBe(hereSocket.ws.OPEN);
    await hereSocket.close();
    const { sessions } = deviceSessionsSchema.parse((await list(here.token)).json());
    expect(sessions).toEqual([expect.objectContaining({ current: true })]);

    // Nothing left to end: still fine, and says so.
    const none = await t().app.inject({ method: 'POST', url: '/api/v1/auth/sessions/sign-out-others', headers: here.headers });
    expect(none.json()).toEqual({ signedOut: 0 });
  });
});
