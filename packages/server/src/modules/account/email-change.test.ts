import { AccountMessages, DAY, type Me, Messages, MINUTE } from '@fmk/core';
import { afterAll, describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { linkIn, type ReceivedMail, startSmtpSink } from '../../../test/smtp.ts';
import { IdentityService } from '../identity/service.ts';

// A real SMTP server on loopback: the app delivers every mail of these tests to it.
const sink = await startSmtpSink();
afterAll(() => sink.close());

const mailTo = (to: string, subject: string) => sink.waitFor((m) => m.envelopeTo.includes(to) && m.subject === subject);
const tokenOf = (mail: ReceivedMail) => new URLSearchParams(linkIn(mail).hash.slice(1)).get('token') ?? '';
const staff = { adminId: 'admin-1', reason: 'spam', ip: null };

describe.each(DB_KINDS)('changing the email address on %s', (kind) => {
  const t = useTestApp(kind, { env: { SMTP_URL: sink.url } });
  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t().app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers });
  const change = (headers: Record<string, string>, email: string, password = PASSWORD) =>
    post('/auth/email/change', { email, password }, headers);
  const login = (email: string, password = PASSWORD) => post('/auth/login', { email, password });
  const identity = () => new IdentityService({ config: t().config, clock: t().clock });

  it('needs the password; the new address takes over only when its link is opened, the old one kept as previous', async () => {
    const old = newEmail('old');
    const next = newEmail('next');
    const a = await signUp(t().app, { email: old });
    expect((await post('/auth/email/change', { email: next, password: PASSWORD })).statusCode).toBe(401);
    const wrong = await change(a.headers, next, 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(AccountMessages.wrongPassword);

    const asked = await change(a.headers, next.toUpperCase());
    expect(asked.statusCode).toBe(200);
    expect((asked.json() as Me).email).toBe(old);
    expect((asked.json() as Me).pendingEmail).toBe(next);
    // Nothing changes yet: the old address still signs in, the new one does not.
    expect((await login(old)).statusCode).toBe(200);
    expect((await login(next)).statusCode).toBe(401);

    const mail = await mailTo(next, 'Confirm your new email');
    expect(linkIn(mail).pathname).toBe('/verify');
    const confirmed = await post('/auth/verify', { token: tokenOf(mail) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ email: next, changed: true });

    const me = (await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: a.headers })).json() as Me;
    expect(me).toMatchObject({ email: next, pendingEmail: null, emailVerified: true });
    expect((await login(next)).statusCode).toBe(200);
    expect((await login(old)).statusCode).toBe(401);
    const mapping = await t()
      .db.selectFrom('identity_mappings')
      .selectAll()
      .where('user_id', '=', a.user.uid)
      .where('is_active', '=', true)
      .executeTakeFirstOrThrow();
    expect(mapping.email).toBe(next);
    expect(mapping.previous_emails).toEqual([old]);
    // The old address is told.
    const notice = await mailTo(old, 'Your email address was changed');
    expect(notice.text).toContain(next);

    const again = await post('/auth/verify', { token: tokenOf(mail) });
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toBe('link_used');
  });

  it("refuses a banned new address with the spec's words, at the request and at the link", async () => {
    const a = await signUp(t().app);
    const banned = newEmail('banned');
    await identity().banEmail(t().db, { email: banned, ...staff, permanent: true });
    const refused = await change(a.headers, banned);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'email_banned', message: Messages.newEmailBanned });

    // Banned after the request, before the link is opened: still refused, the address unchanged.
    const later = newEmail('later');
    expect((await change(a.headers, later)).statusCode).toBe(200);
    const token = tokenOf(await mailTo(later, 'Confirm your new email'));
    await identity().banEmail(t().db, { email: later, ...staff, permanent: true });
    const res = await post('/auth/verify', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(Messages.newEmailBanned);
    const row = await t().db.selectFrom('users').select('email').where('id', '=', a.user.uid).executeTakeFirstOrThrow();
    expect(row.email).toBe(a.user.email);
  });

  it("refuses the account's own address and one another account has", async () => {
    const a = await signUp(t().app);
    const b = await signUp(t().app);
    const same = await change(a.headers, a.user.email);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(AccountMessages.sameEmail);
    const taken = await change(a.headers, b.user.email);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(Messages.emailTaken);
  });

  it('a newer request or a cancel makes an older link useless; a link expires after 24 hours', async () => {
    const a = await signUp(t().app);
    const first = newEmail('first');
    const second = newEmail('second');
    await change(a.headers, first);
    const firstToken = tokenOf(await mailTo(first, 'Confirm your new email'));
    await change(a.headers, second);
    const secondToken = tokenOf(await mailTo(second, 'Confirm your new email'));
    const stale = await post('/auth/verify', { token: firstToken });
    expect(stale.statusCode).toBe(410);
    expect(stale.json().error).toBe('link_used');

    const cancelled = await post('/auth/email/cancel', {}, a.headers);
    expect(cancelled.statusCode).toBe(200);
    expect((cancelled.json() as Me).pendingEmail).toBeNull();
    expect((await post('/auth/verify', { token: secondToken })).statusCode).toBe(410);

    const third = newEmail('third');
    await change(a.headers, third);
    const thirdToken = tokenOf(await mailTo(third, 'Confirm your new email'));
    t().clock.advance(DAY + MINUTE);
    const late = await post('/auth/verify', { token: thirdToken });
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ error: 'link_expired', message: AccountMessages.linkExpired });
  });

  it('mails at most 3 new addresses an hour', async () => {
    const a = await signUp(t().app);
    for (let i = 0; i < 3; i++) expect((await change(a.headers, newEmail('many'))).statusCode).toBe(200);
    const limited = await change(a.headers, newEmail('many'));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(AccountMessages.tooManyRequests);
  });
});
