import { createHash } from 'node:crypto';
import { AccountMessages, DAY, HOUR, type Me, MINUTE } from '@fmk/core';
import { afterAll, describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { linkIn, startSmtpSink } from '../../../test/smtp.ts';

// A real SMTP server on loopback: the app delivers every mail of these tests to it.
const sink = await startSmtpSink();
afterAll(() => sink.close());

const mailTo = (to: string, subject: string) => sink.waitFor((m) => m.envelopeTo.includes(to) && m.subject === subject);
/** The token of the link in the newest mail to `to` with this subject. */
const tokenOf = (mail: { text: string }) => {
  const url = linkIn(mail);
  return new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
};

describe.each(DB_KINDS)('confirming the email address on %s', (kind) => {
  const t = useTestApp(kind, { env: { SMTP_URL: sink.url, MAIL_FROM: 'Account <no-reply@example.com>' } });
  const verify = (token: unknown) => t().app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { token } });
  const me = async (authorization: string) =>
    (await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization } })).json() as Me;
  const resend = (authorization: string) =>
    t().app.inject({ method: 'POST', url: '/api/v1/auth/verify/resend', headers: { authorization } });

  it('mails a link at sign-up that confirms the address once; a second use says it was used', async () => {
    const email = newEmail('verify');
    const a = await signUp(t().app, { email });
    expect(a.user.emailVerified).toBe(false);
    const mail = await mailTo(email, 'Confirm your email');
    expect(mail.envelopeFrom).toBe('no-reply@example.com');
    // Both parts, one link: to the web app's /verify page, the token in the fragment.
    expect(mail.html).toContain('Confirm email');
    const url = linkIn(mail);
    expect(`${url.origin}${url.pathname}`).toBe(`${t().config.publicUrl}/verify`);
    expect(mail.html).toContain(url.href);
    expect(mail.text).toMatch(/24 hours/);

    const first = await verify(tokenOf(mail));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ email, changed: false });
    expect((await me(a.headers.authorization)).emailVerified).toBe(true);

    const again = await verify(tokenOf(mail));
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ error: 'link_used', message: AccountMessages.linkUsed });
  });

  it('keeps only a hash of the token', async () => {
    const email = newEmail('hash');
    const a = await signUp(t().app, { email });
    const token = tokenOf(await mailTo(email, 'Confirm your email'));
    const rows = await t().db.selectFrom('account_links').selectAll().where('user_id', '=', a.user.uid).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('refuses a link after 24 hours with a clear message, and a link it never made', async () => {
    const email = newEmail('late');
    const a = await signUp(t().app, { email });
    const token = tokenOf(await mailTo(email, 'Confirm your email'));
    t().clock.advance(DAY + MINUTE);
    const late = await verify(token);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ error: 'link_expired', message: AccountMessages.linkExpired });
    const row = await t()
      .db.selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', a.user.uid)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeNull();

    const unknown = await verify('A'.repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'link_unknown', message: AccountMessages.linkUnknown });
    // A cut or mangled token is refused by the schema with the same words.
    for (const bad of ['short', 'has spaces in it and more', 42]) {
      const res = await verify(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(AccountMessages.linkUnknown);
    }
  });

  it("does not confirm an address that is no longer the account's", async () => {
    const email = newEmail('moved');
    const a = await signUp(t().app, { email });
    const token = tokenOf(await mailTo(email, 'Confirm your email'));
    await t()
      .db.updateTable('users')
      .set({ email: newEmail('elsewhere') })
      .where('id', '=', a.user.uid)
      .execute();
    const res = await verify(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AccountMessages.linkForOldAddress);
  });

  it("'Resend' mails a new link, three times an hour, and never to a confirmed address", async () => {
    const email = newEmail('resend');
    const a = await signUp(t().app, { email });
    await mailTo(email, 'Confirm your email');
    expect((await t().app.inject({ method: 'POST', url: '/api/v1/auth/verify/resend' })).statusCode).toBe(401);

    for (let i = 0; i < 3; i++) expect((await resend(a.headers.authorization)).statusCode).toBe(204);
    const limited = await resend(a.headers.authorization);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(AccountMessages.tooManyRequests);
    await expect.poll(() => sink.received.filter((m) => m.envelopeTo.includes(email)).length).toBe(4);

    // Each mail has its own link. An hour on, 'Resend' works again (a new sign-in: access tokens
    // last an hour), and the newest link confirms the address.
    const mails = sink.received.filter((m) => m.envelopeTo.includes(email));
    expect(new Set(mails.map(tokenOf)).size).toBe(4);
    t().clock.advance(HOUR);
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: PASSWORD },
    });
    const again = `Bearer ${login.json().token}`;
    expect((await resend(again)).statusCode).toBe(204);
    await expect.poll(() => sink.received.filter((m) => m.envelopeTo.includes(email)).length).toBe(5);
    const newest = sink.received.filter((m) => m.envelopeTo.includes(email)).at(-1)!;
    expect((await verify(tokenOf(newest))).statusCode).toBe(200);
    const done = await resend(again);
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toBe(AccountMessages.alreadyVerified);
  });
});
