import { randomUUID } from 'node:crypto';
import { type Alert, HOUR, MeetupMessages, MINUTE } from '@fmk/core';
import { afterAll, describe, expect, it } from 'vitest';
import { signInAgain } from '../../../test/cruise.ts';
import { newEmail, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { startSmtpSink } from '../../../test/smtp.ts';
import { LocalBus } from '../../platform/bus.ts';
import { createMailer } from '../../platform/mail/mailer.ts';
import { AlertsService } from './alerts.ts';
import { MeetupService } from './meetup.ts';

// A real SMTP server on loopback: the trusted contact's mailbox.
const sink = await startSmtpSink();
afterAll(() => sink.close());

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;
const quiet = { info: () => undefined, error: () => undefined };

describe.each(DB_KINDS)('meetup check-ins and the safe word on %s', (kind) => {
  const t = useTestApp(kind, { env: { SMTP_URL: sink.url } });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  // A sent text is screened after its send answers: settle first.
  const alertsOf = async (h: Headers) => {
    await t().app.notifier.settle();
    return (await call('GET', '/me/alerts', h)).json() as Alert[];
  };
  const meetupSettings = (h: Headers, on: Record<string, boolean>) =>
    call('PATCH', '/me/settings', h, { safety: { meetupSafety: on } });
  /** The sweeper as the app runs it every 30 s, on the test's clock and the same SMTP server. */
  const sweeper = () => {
    const alerts = new AlertsService({ db: t().db, clock: t().clock, bus: new LocalBus() });
    return new MeetupService({
      db: t().db,
      clock: t().clock,
      mail: createMailer(t().config, quiet),
      raise: (id, a) => alerts.raise(id, a),
    });
  };
  const at = (ms: number) => new Date(t().clock.now().getTime() + ms).toISOString();

  async function withContact(): Promise<{ u: Member; email: string }> {
    const u = await signUpMember(t().app, t().db);
    const email = newEmail('contact');
    const res = await call('PUT', '/me/safety-contact', u.headers, { name: 'Sam', email, safeWord: 'Pineapple' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ name: 'Sam', email, safeWord: 'Pineapple' });
    return { u, email };
  }

  it('shares a meetup with the contact, and emails him the details when no check-in comes by the time set', async () => {
    const { u, email } = await withContact();
    const body = { meetingWho: 'Dan from the grid', place: 'Blue Bar, 12 Main St', startsAt: at(HOUR), checkInBy: at(3 * HOUR) };
    // Off by default (docs/settings.md): refused with the way to turn it on, nothing stored.
    const off = await call('POST', '/me/checkins', u.headers, body);
    expect([off.statusCode, off.json().message]).toEqual([403, MeetupMessages.checkinsOff]);
    expect((await meetupSettings(u.headers, { friendNotificationEnabled: true, emergencyContactEnabled: true })).statusCode).toBe(
      200,
    );
    const late = await call('POST', '/me/checkins', u.headers, { ...body, checkInBy: at(30 * HOUR) });
    expect([late.statusCode, late.json().message]).toEqual([400, MeetupMessages.badTimes]);
    const bad = await call('POST', '/me/checkins', u.headers, { ...body, startsAt: 'tonight' });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', '/me/checkins', u.headers)).json()).toEqual([]);

    const created = await call('POST', '/me/checkins', u.headers, body);
    expect(created.statusCode, created.body).toBe(201);
    const checkin = created.json();
    expect(checkin).toMatchObject({ status: 'active', contactTold: true, meetingWho: body.meetingWho });
    const shared = await sink.waitFor((m) => m.envelopeTo.includes(email) && /shared a meetup/.test(m.subject));
    expect(shared.text).toContain('Blue Bar, 12 Main St');
    expect(shared.text).toContain('Dan from the grid');

    // Not yet due: nothing. Past the time: overdue, one email, a high alert for him, once.
    expect(await sweeper().sweep()).toBe(0);
    t().clock.advance(3 * HOUR + MINUTE);
    expect(await sweeper().sweep()).toBe(1);
    const overdue = await sink.waitFor((m) => m.envelopeTo.includes(email) && /has not checked in/.test(m.subject));
    expect(overdue.text).toContain('Blue Bar, 12 Main St');
    expect(await sweeper().sweep()).toBe(0);
    // Hours later: his access token has expired, he signs in again.
    await signInAgain(t().app, { email: u.user.email, headers: u.headers });
    expect((await call('GET', '/me/checkins', u.headers)).json()).toMatchObject([{ id: checkin.id, status: 'overdue' }]);
    expect(await alertsOf(u.headers)).toMatchObject([
      { type: 'safety_reminder', severity: 'high', title: 'You missed your check-in' },
    ]);
    // Closed now: too late to check in.
    expect((await call('POST', `/me/checkins/${checkin.id}/done`, u.headers)).statusCode).toBe(409);
  });

  it('sends nothing once he checks in, and no other member can check in or read his', async () => {
    const { u, email } = await withContact();
    await meetupSettings(u.headers, { emergencyContactEnabled: true });
    const body = { meetingWho: 'Leo', place: 'The park', startsAt: at(10 * MINUTE), checkInBy: at(2 * HOUR) };
    const checkin = (await call('POST', '/me/checkins', u.headers, body)).json();
    // Emergency contact only: the contact is not told at creation.
    expect(checkin.contactTold).toBe(false);
    const other = await signUpMember(t().app, t().db);
    expect((await call('POST', `/me/checkins/${checkin.id}/done`, other.headers)).statusCode).toBe(404);
    expect((await call('GET', '/me/checkins', other.headers)).json()).toEqual([]);
    expect((await call('GET', '/me/safety-contact', other.headers)).json()).toBeNull();
    const done = await call('POST', `/me/checkins/${checkin.id}/done`, u.headers);
    expect(done.json()).toMatchObject({ status: 'checked_in' });
    t().clock.advance(3 * HOUR);
    expect(await sweeper().sweep()).toBe(0);
    expect(sink.received.some((m) => m.envelopeTo.includes(email))).toBe(false);
  });

  it('raises a high alert and emails the contact when he sends his safe word in a chat, only with safeWordEnabled', async () => {
    const { u, email } = await withContact();
    const him = await signUpMember(t().app, t().db);
    const choose = (from: Member, to: Member) =>
      call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(u, him);
    const conversationId = (await choose(him, u)).json().match.conversationId as string;
    const send = (content: string) =>
      call('POST', `/conversations/${conversationId}/messages`, u.headers, { clientId: randomUUID(), content });
    expect((await send('pineapple')).statusCode).toBe(201);
    expect(await alertsOf(u.headers)).toEqual([]);

    await meetupSettings(u.headers, { safeWordEnabled: true });
    expect((await send('I love PINEAPPLE!')).statusCode).toBe(201);
    const mail = await sink.waitFor((m) => m.envelopeTo.includes(email) && /sent their safe word/.test(m.subject));
    expect(mail.text).toMatch(/try to reach/);
    expect(await alertsOf(u.headers)).toMatchObject([{ type: 'safety_reminder', severity: 'high', title: 'Safe word sent' }]);
    // The man he is talking to sees nothing of it.
    expect(await alertsOf(him.headers)).toEqual([]);
    const page = (await call('GET', `/conversations/${conversationId}/messages`, him.headers)).body;
    expect(page).not.toContain(email);
  });

  it('refuses a bad contact with a clear message and changes nothing', async () => {
    const u = await signUpMember(t().app, t().db);
    const bad = await call('PUT', '/me/safety-contact', u.headers, { name: 'Sam', email: 'not-an-email' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, MeetupMessages.badEmail]);
    const short = await call('PUT', '/me/safety-contact', u.headers, { name: 'Sam', email: newEmail('c'), safeWord: 'ab' });
    expect([short.statusCode, short.json().message]).toEqual([400, MeetupMessages.safeWordLength]);
    expect((await call('GET', '/me/safety-contact', u.headers)).json()).toBeNull();
  });
});
