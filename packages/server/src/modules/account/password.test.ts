import { AccountMessages, LIVE_CLOSE_UNAUTHORIZED, MINUTE } from '@fmk/core';
import { afterAll, describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { linkIn, type ReceivedMail, startSmtpSink } from '../../../test/smtp.ts';

// A real SMTP server on loopback: the app delivers every mail of these tests to it.
const sink = await startSmtpSink();
afterAll(() => sink.close());

const NEW_PASSWORD = 'a brand new passphrase';
const mailTo = (to: string, subject: string) => sink.waitFor((m) => m.envelopeTo.includes(to) && m.subject === subject);
const tokenOf = (mail: ReceivedMail) => new URLSearchParams(linkIn(mail).hash.slice(1)).get('token') ?? '';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe.each(DB_KINDS)('password reset and change on %s', (kind) => {
  const t = useTestApp(kind, { env: { SMTP_URL: sink.url } });
  const post = (url: string, payload?: object, headers: Record<string, string> = {}, ip?: string) =>
    t().app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers, ...(ip ? { remoteAddress: ip } : {}) });
  const login = (email: string, password: string) => post('/auth/login', { email, password });
  let ipCounter = 0;
  /** A network address of its own for each test, so the per-address limit of one test never bites another. */
  const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

  it('mails a reset link that sets a new password once, ends every session and closes their sockets', async () => {
    const email = newEmail('reset');
    const a = await signUp(t().app, { email });
    const socket = await openLive(t().app, a.token);

    const asked = await post('/auth/password/forgot', { email: email.toUpperCase() }, {}, freshIp());
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: AccountMessages.resetRequested });
    const mail = await mailTo(email, 'Reset your password');
    const url = linkIn(mail);
    expect(`${url.origin}${url.pathname}`).toBe(`${t().config.publicUrl}/reset-password`);
    expect(mail.text).toMatch(/30 minutes/);
    expect(mail.html).toContain(url.href);

    const reset = await post('/auth/password/reset', { token: tokenOf(mail), password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ email });
    // Whoever was signed in is out, his live socket closed; the owner is told by mail.
    expect(await socket.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: a.headers })).statusCode).toBe(401);
    await mailTo(email, 'Your password was changed');
    expect((await login(email, PASSWORD)).statusCode).toBe(401);
    const signedIn = await login(email, NEW_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    // Opening the mailed link proved the address too.
    expect(signedIn.json().user.emailVerified).toBe(true);

    const again = await post('/auth/password/reset', { token: tokenOf(mail), password: 'yet another passphrase' });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ error: 'link_used', message: AccountMessages.linkUsed });
  });

  it('refuses a reset link after 30 minutes, one it never made, and a too short password', async () => {
    const email = newEmail('late');
    await signUp(t().app, { email });
    await post('/auth/password/forgot', { email }, {}, freshIp());
    const token = tokenOf(await mailTo(email, 'Reset your password'));

    const short = await post('/auth/password/reset', { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Passwords must be at least 8 characters.');

    t().clock.advance(30 * MINUTE + 1000);
    const late = await post('/auth/password/reset', { token, password: NEW_PASSWORD });
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ error: 'link_expired', message: AccountMessages.linkExpired });
    expect((await login(email, PASSWORD)).statusCode).toBe(200);

    const unknown = await post('/auth/password/reset', { token: 'B'.repeat(43), password: NEW_PASSWORD });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'link_unknown', message: AccountMessages.linkUnknown });
  });

  it('a confirmation link is no reset link, nor the other way round', async () => {
    const email = newEmail('cross');
    await signUp(t().app, { email });
    const confirm = tokenOf(await mailTo(email, 'Confirm your email'));
    const res = await post('/auth/password/reset', { token: confirm, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('link_unknown');
    expect((await post('/auth/verify', { token: confirm })).statusCode).toBe(200);
  });

  it('answers the same, in about the same time, whether or not the address has an account', async () => {
    const known: string[] = [];
    for (let i = 0; i < 8; i++) known.push((await signUp(t().app)).user.email);
    const unknown = Array.from({ length: 8 }, () => newEmail('nobody'));
    const times = { known: [] as number[], unknown: [] as number[] };
    const bodies = new Set<string>();
    for (let i = 0; i < 8; i++) {
      for (const [kind, email] of [
        ['known', known[i]!],
        ['unknown', unknown[i]!],
      ] as const) {
        const start = performance.now();
        const res = await post('/auth/password/forgot', { email }, {}, freshIp());
        times[kind].push(performance.now() - start);
        expect(res.statusCode).toBe(202);
        bodies.add(res.body);
        // The mail is made and sent after the answer; let it go before timing the next one.
        if (kind === 'known') await mailTo(email, 'Reset your password');
      }
    }
    expect([...bodies]).toEqual([JSON.stringify({ message: AccountMessages.resetRequested })]);
    // The answer waits for the limits alone, the same work for any address.
    // (Measured here: medians 20-45 ms each, apart by 0-15 ms either way on a busy machine.)
    const [a, b] = [median(times.known), median(times.unknown)];
    expect(Math.abs(a - b)).toBeLessThan(Math.max(25, 0.5 * Math.max(a, b)));
    expect(sink.received.some((m) => unknown.some((u) => m.envelopeTo.includes(u)))).toBe(false);
  });

  it('limits requests per address (known or not) and per network address', async () => {
    const ip = freshIp();
    for (const email of [(await signUp(t().app)).user.email, newEmail('nobody')]) {
      for (let i = 0; i < 3; i++) expect((await post('/auth/password/forgot', { email }, {}, ip)).statusCode).toBe(202);
      const limited = await post('/auth/password/forgot', { email }, {}, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toBe(AccountMessages.tooManyRequests);
    }
    // Six counted from this address so far; the tenth is the last it may send.
    const many = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++)
      codes.push((await post('/auth/password/forgot', { email: newEmail('spray') }, {}, many)).statusCode);
    expect(codes.filter((c) => c === 202)).toHaveLength(10);
    expect(codes.at(-1)).toBe(429);
  });

  it('changing the password needs the current one and ends every other session, closing their sockets', async () => {
    const email = newEmail('change');
    const here = await signUp(t().app, { email });
    const there = await login(email, PASSWORD);
    const thereHeaders = { authorization: `Bearer ${there.json().token}` };
    const hereSocket = await openLive(t().app, here.token);
    const thereSocket = await openLive(t().app, there.json().token);

    expect((await post('/auth/password/change', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(401);
    const wrong = await post(
      '/auth/password/change',
      { currentPassword: 'not it at all', newPassword: NEW_PASSWORD },
      here.headers,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      error: 'wrong_password',
      message: AccountMessages.wrongPassword,
      fields: { currentPassword: AccountMessages.wrongPassword },
    });
    const same = await post('/auth/password/change', { currentPassword: PASSWORD, newPassword: PASSWORD }, here.headers);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(AccountMessages.samePassword);

    const ok = await post('/auth/password/change', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, here.headers);
    expect(ok.statusCode).toBe(204);
    expect(await thereSocket.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: thereHeaders })).statusCode).toBe(401);
    // This session goes on, its socket open.
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: here.headers })).statusCode).toBe(200);
    expect(hereSocket.ws.readyState).toBe(hereSocket.ws.OPEN);
    await hereSocket.close();
    await mailTo(email, 'Your password was changed');
    expect((await login(email, PASSWORD)).statusCode).toBe(401);
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a reset link mailed before a change no longer works after it', async () => {
    const email = newEmail('stale');
    const a = await signUp(t().app, { email });
    await post('/auth/password/forgot', { email }, {}, freshIp());
    const token = tokenOf(await mailTo(email, 'Reset your password'));
    expect(
      (await post('/auth/password/change', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, a.headers)).statusCode,
    ).toBe(204);
    const res = await post('/auth/password/reset', { token, password: 'someone elses choice' });
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toBe('link_used');
  });

  it('stops guessing the current password after 5 wrong tries', async () => {
    const a = await signUp(t().app);
    const tryOnce = (currentPassword: string) =>
      post('/auth/password/change', { currentPassword, newPassword: NEW_PASSWORD }, a.headers);
    for (let i = 0; i < 5; i++) expect((await tryOnce(`wrong guess ${i}`)).statusCode).toBe(400);
    const limited = await tryOnce(PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(AccountMessages.tooManyPasswordChecks);
  });

  it('tells an account with no password (Google only) how to set one', async () => {
    const a = await signUp(t().app);
    await t().db.updateTable('users').set({ password_hash: null }).where('id', '=', a.user.uid).execute();
    const res = await post('/auth/password/change', { currentPassword: 'anything', newPassword: NEW_PASSWORD }, a.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AccountMessages.noPasswordYet);
  });
});
