import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HOUR, MINUTE, PHONE_CODE_TRIES, PhoneMessages, type PhoneStatus } from '@fmk/core';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { TwilioStandIn, twilioError } from '../../../test/twilio.ts';

// A local stand-in of Twilio's API, for the suites that text through it.
const twilio = new TwilioStandIn();
await twilio.start();
afterAll(() => twilio.close());

let n = 0;
/** A number no other test of the process uses, so the per-number limit counts only this test's texts. */
const newPhone = () => {
  n += 1;
  return `+1415${String(Date.now() % 100_000).padStart(5, '0')}${String(n).padStart(2, '0')}`;
};

type Inject = (opts: { method: 'GET' | 'POST' | 'DELETE'; url: string; headers: object; payload?: unknown }) => Promise<{
  statusCode: number;
  json(): unknown;
}>;

const phoneApi = (inject: () => Inject) => ({
  status: (headers: object) => inject()({ method: 'GET', url: '/api/v1/me/phone', headers }),
  send: (headers: object, phone: unknown) => inject()({ method: 'POST', url: '/api/v1/me/phone', headers, payload: { phone } }),
  verify: (headers: object, code: unknown) =>
    inject()({ method: 'POST', url: '/api/v1/me/phone/verify', headers, payload: { code } }),
  remove: (headers: object) => inject()({ method: 'DELETE', url: '/api/v1/me/phone', headers }),
});

/** The newest code texted to `to`, from the development outbox. */
function codeFromOutbox(dir: string, to: string): string {
  const texts = readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: string; body: string })
    .filter((t) => t.to === to);
  const body = texts.at(-1)?.body ?? '';
  return /^(\d{6}) is your verification code/.exec(body)?.[1] ?? '';
}

const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe.each(DB_KINDS)('verifying the phone number on %s', (kind) => {
  const t = useTestApp(kind);
  const api = phoneApi(() => t().app.inject.bind(t().app) as unknown as Inject);
  const outbox = () => {
    const sms = t().config.sms;
    if (sms.kind !== 'outbox') throw new Error('tests text to the outbox');
    return sms.outboxDir;
  };
  const codeFor = (to: string) => codeFromOutbox(outbox(), to);
  /** Past the wait between two texts. */
  const afterWait = () => t().clock.advance(MINUTE + 1000);

  it('texts a code to the number and verifies it when the code comes back; only an HMAC of the code is kept', async () => {
    const a = await signUp(t().app);
    expect((await api.status(a.headers)).json()).toEqual({ phone: null, verified: false, pending: null });
    const phone = newPhone();
    // People type spaces, dashes and brackets; the number is kept in E.164.
    const spaced = `${phone.slice(0, 2)} (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    const sent = await api.send(a.headers, spaced);
    expect(sent.statusCode).toBe(200);
    const now = t().clock.now().getTime();
    expect(sent.json()).toEqual({
      phone,
      verified: false,
      pending: { expiresAt: new Date(now + 10 * MINUTE).toISOString(), resendAt: new Date(now + MINUTE).toISOString() },
    });
    const code = codeFor(phone);
    expect(code).toMatch(/^\d{6}$/);
    const row = await t().db.selectFrom('phone_codes').selectAll().where('user_id', '=', a.user.uid).executeTakeFirstOrThrow();
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(code);

    const ok = await api.verify(a.headers, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ phone, verified: true, pending: null });
    expect(await t().db.selectFrom('phone_codes').selectAll().where('user_id', '=', a.user.uid).execute()).toEqual([]);
    // Used once: typing it again finds nothing waiting.
    const again = await api.verify(a.headers, code);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: PhoneMessages.alreadyVerified });
    const resend = await api.send(a.headers, phone);
    expect(resend.statusCode).toBe(409);
    expect(resend.json()).toMatchObject({ message: PhoneMessages.alreadyVerified });
  });

  it('refuses a number that is not E.164 and a code that is not six digits, changing nothing', async () => {
    const a = await signUp(t().app);
    for (const bad of ['4155550123', '+0415555012', '+1 415', 'phone', '+1234567890123456', 42, '']) {
      const res = await api.send(a.headers, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: PhoneMessages.invalidNumber });
    }
    expect((await api.status(a.headers)).json()).toEqual({ phone: null, verified: false, pending: null });
    const noNumber = await api.verify(a.headers, '123456');
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json()).toMatchObject({ message: PhoneMessages.noNumber });
    for (const bad of ['12345', '1234567', 'abcdef', 123456]) {
      const res = await api.verify(a.headers, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: PhoneMessages.invalidCode });
    }
    const unsigned = await t().app.inject({ method: 'POST', url: '/api/v1/me/phone', payload: { phone: newPhone() } });
    expect(unsigned.statusCode).toBe(401);
  });

  it('counts wrong codes: the fifth spends the code, and even the right one then fails', async () => {
    const a = await signUp(t().app);
    const phone = newPhone();
    await api.send(a.headers, phone);
    const code = codeFor(phone);
    for (let left = PHONE_CODE_TRIES - 1; left >= 1; left -= 1) {
      const res = await api.verify(a.headers, other(code));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'wrong_code', message: PhoneMessages.wrongCode(left) });
    }
    expect(PhoneMessages.wrongCode(1)).toBe("That code isn't right. 1 try left.");
    const fifth = await api.verify(a.headers, other(code));
    expect(fifth.statusCode).toBe(410);
    expect(fifth.json()).toMatchObject({ error: 'code_spent', message: PhoneMessages.codeSpent });
    const right = await api.verify(a.headers, code);
    expect(right.statusCode).toBe(410);
    expect(right.json()).toMatchObject({ message: PhoneMessages.codeSpent });
    expect((await api.status(a.headers)).json()).toEqual({ phone, verified: false, pending: null });

    // A new code starts again with five tries.
    afterWait();
    await api.send(a.headers, phone);
    expect((await api.verify(a.headers, codeFor(phone))).json()).toMatchObject({ verified: true });
  });

  it('refuses a code after 10 minutes', async () => {
    const a = await signUp(t().app);
    const phone = newPhone();
    await api.send(a.headers, phone);
    const code = codeFor(phone);
    t().clock.advance(10 * MINUTE + 1000);
    const late = await api.verify(a.headers, code);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ error: 'code_expired', message: PhoneMessages.codeExpired });
    expect((await api.status(a.headers)).json()).toEqual({ phone, verified: false, pending: null });
  });

  it('makes a resend wait a minute, and limits texts per number and per account in an hour (429)', async () => {
    const a = await signUp(t().app);
    const phone = newPhone();
    expect((await api.send(a.headers, phone)).statusCode).toBe(200);
    const first = codeFor(phone);
    t().clock.advance(20_000);
    const early = await api.send(a.headers, phone);
    expect(early.statusCode).toBe(429);
    expect(early.json()).toMatchObject({ error: 'rate_limited', message: PhoneMessages.resendWait(40) });
    afterWait();
    expect((await api.send(a.headers, phone)).statusCode).toBe(200);
    const second = codeFor(phone);
    // The newer code replaces the older one.
    if (second !== first) expect((await api.verify(a.headers, first)).statusCode).toBe(400);
    afterWait();
    expect((await api.send(a.headers, phone)).statusCode).toBe(200);
    afterWait();
    // Three texts to one number in an hour, whichever account asks.
    const b = await signUp(t().app);
    const fourth = await api.send(b.headers, phone);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ message: PhoneMessages.tooManyTexts });
    expect((await api.status(b.headers)).json()).toEqual({ phone: null, verified: false, pending: null });
    // Five texts an account, whatever the numbers.
    for (let i = 0; i < 2; i += 1) {
      expect((await api.send(a.headers, newPhone())).statusCode).toBe(200);
      afterWait();
    }
    // The per-number count is kept under a keyed hash, never the number.
    const keys = await t().db.selectFrom('auth_attempts').select('key').where('key', 'like', 'sms:phone:%').execute();
    expect(keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys)).not.toContain(phone.slice(1));
    const sixth = await api.send(a.headers, newPhone());
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ message: PhoneMessages.tooManyTexts });
    t().clock.advance(HOUR);
    // An hour on, the access token has expired too: sign in again.
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: a.user.email, password: PASSWORD },
    });
    const headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
    expect((await api.send(headers, newPhone())).statusCode).toBe(200);
  });

  it('keeps a number to one verified account, telling only whoever holds the phone that it is taken', async () => {
    const a = await signUp(t().app);
    const b = await signUp(t().app);
    const phone = newPhone();
    await api.send(a.headers, phone);
    await api.verify(a.headers, codeFor(phone));
    // B is not told at this step whether the number is on another account: the text goes.
    const sent = await api.send(b.headers, phone);
    expect(sent.statusCode).toBe(200);
    const taken = await api.verify(b.headers, codeFor(phone));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ message: PhoneMessages.takenNumber });
    expect((await api.status(b.headers)).json()).toMatchObject({ phone, verified: false });
    expect((await api.status(a.headers)).json()).toMatchObject({ phone, verified: true });
  });

  it('resets verification when the number changes, and removing the number removes it', async () => {
    const a = await signUp(t().app);
    const first = newPhone();
    await api.send(a.headers, first);
    await api.verify(a.headers, codeFor(first));
    afterWait();
    const second = newPhone();
    const changed = await api.send(a.headers, second);
    expect(changed.json()).toMatchObject({ phone: second, verified: false });
    // The old number's code, had one been waiting, is gone: only the new number's works.
    expect((await api.verify(a.headers, codeFor(second))).json()).toMatchObject({ phone: second, verified: true });

    const removed = await api.remove(a.headers);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ phone: null, verified: false, pending: null });
    const row = await t()
      .db.selectFrom('users')
      .select(['phone_number', 'phone_verified_at'])
      .where('id', '=', a.user.uid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ phone_number: null, phone_verified_at: null });
    // Removed, the number is free for another account.
    afterWait();
    const b = await signUp(t().app);
    await api.send(b.headers, second);
    expect((await api.verify(b.headers, codeFor(second))).json()).toMatchObject({ verified: true });
  });
});

describe.each(DB_KINDS)('texting codes through a Twilio-style API on %s', (kind) => {
  const t = useTestApp(kind, { env: twilio.env() });
  const api = phoneApi(() => t().app.inject.bind(t().app) as unknown as Inject);

  it('sends the code in the text, with the WebOTP line for the app', async () => {
    const a = await signUp(t().app);
    const phone = newPhone();
    expect((await api.send(a.headers, phone)).statusCode).toBe(200);
    const got = twilio.received.at(-1)!;
    expect(got.form.get('To')).toBe(phone);
    expect(got.form.get('From')).toBe('+15005550006');
    const body = got.form.get('Body') ?? '';
    const code = /^(\d{6}) is your verification code/.exec(body)?.[1] ?? '';
    expect(body).toContain(`@${new URL(t().config.publicUrl).host} #${code}`);
    expect((await api.verify(a.headers, code)).json()).toMatchObject({ phone, verified: true });
  });

  it('answers a number the provider cannot text with a clear 400, and an outage with 503; neither changes the account', async () => {
    const a = await signUp(t().app);
    twilio.answerNext(400, twilioError(21614, "'To' number is not a valid mobile number"));
    const landline = await api.send(a.headers, newPhone());
    expect(landline.statusCode).toBe(400);
    expect(landline.json()).toMatchObject({
      message: PhoneMessages.undeliverable,
      fields: { phone: PhoneMessages.undeliverable },
    });
    expect((await api.status(a.headers)).json()).toEqual({ phone: null, verified: false, pending: null });

    twilio.answerNext(503, '<html>Service Unavailable</html>');
    const down = await api.send(a.headers, newPhone());
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ error: 'sms_unavailable', message: PhoneMessages.smsUnavailable });
    expect((await api.status(a.headers)).json()).toEqual({ phone: null, verified: false, pending: null });
  });
});

describe('phone verification with SMS off', () => {
  const t = useTestApp('pglite', { env: { SMS_ENABLED: 'false' } });
  const api = phoneApi(() => t().app.inject.bind(t().app) as unknown as Inject);

  it('says so instead of pretending to text', async () => {
    const a = await signUp(t().app);
    const res = await api.send(a.headers, newPhone());
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: 'sms_off', message: PhoneMessages.smsOff });
    expect(((await api.status(a.headers)).json() as PhoneStatus).phone).toBeNull();
  });
});
