import { randomUUID } from 'node:crypto';
import { type Alert, LOCATION_WARNINGS, PUBLIC_PLACE_ADVICE, SAFETY_REMINDERS } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { locatedUser } from '../../../test/cruise.ts';
import { signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;
const BERLIN = { lat: 52.52, lng: 13.405 };

describe.each(DB_KINDS)('location warnings and safety reminders on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  // A sent text is screened (the chat's meetup reminder) after its send answers: settle first.
  const alertsOf = async (headers: Headers) => {
    await t().app.notifier.settle();
    return (await call('GET', '/me/alerts', headers)).json() as Alert[];
  };
  const kinds = async (headers: Headers) => (await alertsOf(headers)).map((a) => [a.type, a.title]).sort();

  it('reminds a cruiser of the public-place advice and warns him while his exact area is pinned', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    // Approximate first: a session then brings the reminder only.
    expect((await call('PUT', '/cruise/precision', u.headers, { locationPrecision: 'approximate' })).statusCode).toBe(200);
    const started = await call('POST', '/cruise/session', u.headers, {});
    expect(started.statusCode, started.body).toBe(200);
    const sessionId = started.json().session.id as string;
    const [reminder] = await alertsOf(u.headers);
    expect(reminder).toMatchObject({ type: 'safety_reminder', severity: 'low', contentId: sessionId, actions: [] });
    expect(reminder!.message).toContain('busy public place');
    // A retried start raises nothing more.
    await call('POST', '/cruise/session', u.headers, {});
    expect(await alertsOf(u.headers)).toHaveLength(1);

    // Exact during the session: a location warning with the way to the settings, once a session.
    expect((await call('PUT', '/cruise/precision', u.headers, { locationPrecision: 'exact' })).statusCode).toBe(200);
    await call('PUT', '/cruise/precision', u.headers, { locationPrecision: 'exact' });
    const warnings = (await alertsOf(u.headers)).filter((a) => a.type === 'location_warning');
    expect(warnings).toMatchObject([
      {
        severity: 'medium',
        title: LOCATION_WARNINGS.exactWhileCruising.title,
        contentId: sessionId,
        actions: [{ type: 'open_settings', label: 'Open settings' }],
      },
    ]);
    // The next session the same day, already exact: its own warning, no second reminder that day.
    await call('POST', '/cruise/session/end', u.headers, {});
    t().clock.advance(60_000);
    await call('POST', '/cruise/session', u.headers, {});
    expect(await kinds(u.headers)).toEqual([
      ['location_warning', LOCATION_WARNINGS.exactWhileCruising.title],
      ['location_warning', LOCATION_WARNINGS.exactWhileCruising.title],
      ['safety_reminder', SAFETY_REMINDERS.cruise.title],
    ]);
  });

  it('raises nothing when a man sets exact precision with no session running', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    expect((await call('PUT', '/cruise/precision', u.headers, { locationPrecision: 'exact' })).statusCode).toBe(200);
    expect(await alertsOf(u.headers)).toEqual([]);
  });

  it('warns a man live when his location jumps impossibly, once a day', async () => {
    const u = await locatedUser(t().app, t().db, { lat: 37.77493, lng: -122.41942 }, 'free');
    const live = await openLive(t().app, u.headers.authorization!.slice('Bearer '.length));
    t().clock.advance(60_000);
    const jump = await call('PUT', '/me/location', u.headers, { lat: 38.5816, lng: -121.4944 });
    expect(jump.statusCode).toBe(422);
    const alert = (await live.next('alert')).alert;
    expect(alert).toMatchObject({
      type: 'location_warning',
      severity: 'high',
      title: LOCATION_WARNINGS.impossibleJump.title,
      actions: [{ type: 'open_settings' }],
    });
    t().clock.advance(60_000);
    expect((await call('PUT', '/me/location', u.headers, { lat: 40.71, lng: -74.0 })).statusCode).toBe(422);
    expect(await alertsOf(u.headers)).toHaveLength(1);
    await live.close();
  });

  it('gives both men the public-place advice once, the first time their chat talks about meeting up', async () => {
    const [a, b, c] = [
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
    ];
    const choose = (from: Member, to: Member) =>
      call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(a, b);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    const send = async (u: Member, content: string) => {
      const res = await call('POST', `/conversations/${conversationId}/messages`, u.headers, { clientId: randomUUID(), content });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    await send(a, 'hey, how was your weekend?');
    expect(await alertsOf(a.headers)).toEqual([]);
    const id = await send(b, 'Great! Wanna meet up for a drink tonight?');
    for (const u of [a, b])
      expect(await alertsOf(u.headers)).toMatchObject([
        {
          type: 'safety_reminder',
          title: SAFETY_REMINDERS.chat.title,
          contentId: id,
          message: expect.stringContaining(PUBLIC_PLACE_ADVICE),
        },
      ]);
    await send(a, 'Sure, come over to my place after');
    expect(await alertsOf(a.headers)).toHaveLength(1);
    expect(await alertsOf(c.headers)).toEqual([]);
  });

  it('respects his reminder settings: publicPlaceReminders off, no meetup advice for him; locationReminders off, no warning', async () => {
    const [a, b] = [await signUpMember(t().app, t().db), await signUpMember(t().app, t().db)];
    const off = await call('PATCH', '/me/settings', a.headers, { safety: { meetupSafety: { publicPlaceReminders: false } } });
    expect(off.statusCode, off.body).toBe(200);
    const choose = (from: Member, to: Member) =>
      call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(a, b);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    const sent = await call('POST', `/conversations/${conversationId}/messages`, b.headers, {
      clientId: randomUUID(),
      content: 'can you host tonight?',
    });
    expect(sent.statusCode).toBe(201);
    expect(await alertsOf(a.headers)).toEqual([]);
    expect(await kinds(b.headers)).toEqual([['safety_reminder', SAFETY_REMINDERS.chat.title]]);

    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    await call('PATCH', '/me/settings', u.headers, { safety: { locationSafety: { locationReminders: false } } });
    expect((await call('POST', '/cruise/session', u.headers, {})).statusCode).toBe(200);
    expect(await kinds(u.headers)).toEqual([['safety_reminder', SAFETY_REMINDERS.cruise.title]]);
  });
});
