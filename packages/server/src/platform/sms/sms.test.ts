import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TWILIO_SID as SID, TWILIO_TOKEN as TOKEN, TwilioStandIn, twilioError } from '../../../test/twilio.ts';
import { createSmsProvider } from './index.ts';
import { TwilioSmsProvider } from './twilio.ts';
import { SmsError } from './types.ts';

describe('texts through a Twilio-style HTTP API', () => {
  const api = new TwilioStandIn();
  beforeAll(() => api.start());
  afterAll(() => api.close());
  const provider = (over: Partial<{ authToken: string; from: string; apiUrl: string }> = {}) =>
    new TwilioSmsProvider({ apiUrl: api.url, accountSid: SID, authToken: TOKEN, from: '+15005550006', ...over });
  const failure = async (p: Promise<void>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SmsError);
    return err as SmsError;
  };

  it("POSTs the account's Messages.json with basic auth and a form-encoded To, From and Body", async () => {
    await provider().send({ to: '+14155550123', body: 'Your code: 123456 & more' });
    const got = api.received.at(-1)!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(Object.fromEntries(got.form)).toEqual({ To: '+14155550123', From: '+15005550006', Body: 'Your code: 123456 & more' });
  });

  it('sends from a Messaging Service when SMS_FROM is its SID', async () => {
    const mg = `MG${'a'.repeat(32)}`;
    await provider({ from: mg }).send({ to: '+14155550123', body: 'x' });
    const form = api.received.at(-1)!.form;
    expect(form.get('MessagingServiceSid')).toBe(mg);
    expect(form.has('From')).toBe(false);
  });

  it("answers the number's own faults as undeliverable, with Twilio's code", async () => {
    for (const [code, message] of [
      [21211, "The 'To' number +1555 is not a valid phone number."],
      [21614, "'To' number is not a valid mobile number"],
      [21610, 'Attempt to send to unsubscribed recipient'],
      [21408, 'Permission to send an SMS has not been enabled for the region indicated by the To number'],
    ] as const) {
      api.answerNext(400, twilioError(code, message));
      const err = await failure(provider().send({ to: '+1555', body: 'x' }));
      expect(err.failure).toBe('undeliverable');
      expect(err.providerCode).toBe(code);
      expect(err.message).toContain(message);
    }
  });

  it('answers wrong credentials, rate limits, outages and unknown refusals as unavailable', async () => {
    const wrong = await failure(provider({ authToken: 'wrong' }).send({ to: '+14155550123', body: 'x' }));
    expect(wrong.failure).toBe('unavailable');
    expect(wrong.providerCode).toBe(20003);

    api.answerNext(429, twilioError(20429, 'Too Many Requests', 429));
    expect((await failure(provider().send({ to: '+14155550123', body: 'x' }))).failure).toBe('unavailable');
    // A 400 that is not about the number (here a missing From) is ours to fix, not the person's.
    api.answerNext(400, twilioError(21603, "The 'From' phone number is required."));
    expect((await failure(provider().send({ to: '+14155550123', body: 'x' }))).failure).toBe('unavailable');
    api.answerNext(503, '<html>Service Unavailable</html>', 'text/html');
    const down = await failure(provider().send({ to: '+14155550123', body: 'x' }));
    expect(down.failure).toBe('unavailable');
    expect(down.message).toContain('503');
  });

  it('answers an unreachable API as unavailable', async () => {
    // Port 1 on loopback: nothing listens there.
    const err = await failure(provider({ apiUrl: 'http://127.0.0.1:1' }).send({ to: '+14155550123', body: 'x' }));
    expect(err.failure).toBe('unavailable');
    expect(err.message).toMatch(/unreachable/);
  });
});

describe('the development SMS outbox', () => {
  it('writes each text as a JSON file and logs one line with the text', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fmk-sms-'));
    try {
      const log = { info: vi.fn() };
      const outboxDir = path.join(dir, 'sms-outbox');
      const sms = createSmsProvider({ sms: { kind: 'outbox', outboxDir } }, log)!;
      await sms.send({ to: '+14155550123', body: '123456 is your code.' });
      const files = readdirSync(outboxDir);
      expect(files).toHaveLength(1);
      const text = JSON.parse(readFileSync(path.join(outboxDir, files[0]!), 'utf8')) as Record<string, string>;
      expect(text).toMatchObject({ to: '+14155550123', body: '123456 is your code.' });
      expect(log.info).toHaveBeenCalledTimes(1);
      // Where it is, not the number nor the code.
      expect(log.info.mock.calls[0]?.[0]).toMatch(/^SMS written to .+\.json$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is null when SMS is off, and Twilio when configured', () => {
    const log = { info: vi.fn() };
    expect(createSmsProvider({ sms: { kind: 'off' } }, log)).toBeNull();
    const twilio = createSmsProvider(
      { sms: { kind: 'twilio', apiUrl: 'http://127.0.0.1:1', accountSid: SID, authToken: TOKEN, from: '+15005550006' } },
      log,
    );
    expect(twilio).toBeInstanceOf(TwilioSmsProvider);
  });
});
