import { type CruiseStatus, cruiseLimitText, MINUTE } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { locatedUser, signInAgain } from '../../../test/cruise.ts';
import { signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { CruiseSweeper } from './sessions.ts';

type Headers = Record<string, string>;
const BERLIN = { lat: 52.52, lng: 13.405 };

describe.each(DB_KINDS)('cruise sessions on %s', (kind) => {
  const t = useTestApp(kind);
  const start = (headers: Headers, payload: object = {}) =>
    t().app.inject({ method: 'POST', url: '/api/v1/cruise/session', headers, payload });
  const end = (headers: Headers) => t().app.inject({ method: 'POST', url: '/api/v1/cruise/session/end', headers, payload: {} });
  const status = async (headers: Headers) =>
    (await t().app.inject({ method: 'GET', url: '/api/v1/cruise/session', headers })).json() as CruiseStatus;
  const sessionRows = (userId: string) =>
    t().db.selectFrom('cruise_sessions').selectAll().where('user_id', '=', userId).orderBy('started_at').execute();

  it('starts a 30-minute session, puts the user in now mode, and counts it when ended', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'free');
    const now = t().clock.now();
    const res = await start(u.headers, { rightNow: 'Coffee and more' });
    expect(res.statusCode).toBe(200);
    const s = res.json() as CruiseStatus;
    expect(s.session).toMatchObject({ startedAt: now.toISOString(), rightNow: 'Coffee and more' });
    expect(new Date(s.session!.endsAt).getTime() - now.getTime()).toBe(30 * MINUTE);
    expect(s).toMatchObject({ period: 'week', sessionsLeft: 0, sessionsThisPeriod: 0, totalSessions: 0 });
    const user = await t().db.selectFrom('users').select('current_mode').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(user.current_mode).toBe('now');

    // A retried tap returns the running session instead of a second one.
    const again = await start(u.headers);
    expect(again.statusCode).toBe(200);
    expect((again.json() as CruiseStatus).session?.id).toBe(s.session?.id);

    t().clock.advance(12 * MINUTE);
    const ended = (await end(u.headers)).json() as CruiseStatus;
    expect(ended.session).toBeNull();
    expect(ended).toMatchObject({ sessionsThisPeriod: 1, minutesThisPeriod: 12, totalSessions: 1, totalMinutes: 12 });
    expect(await sessionRows(u.id)).toMatchObject([{ minutes: 12, end_reason: 'user' }]);
    // Ending twice changes nothing.
    expect(((await end(u.headers)).json() as CruiseStatus).totalSessions).toBe(1);
  });

  it('free: one session a week, refused with the upgrade prompt (403) until 7 days after the first', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'free');
    const first = t().clock.now();
    expect((await start(u.headers)).statusCode).toBe(200);
    await end(u.headers);
    t().clock.advance(3 * 24 * 60 * MINUTE);
    await signInAgain(t().app, u);
    const refused = await start(u.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'limit_reached', message: cruiseLimitText('free') });
    expect(refused.json().message).toContain('Premium membership...');
    const s = await status(u.headers);
    expect(s.nextStartAt).toBe(new Date(first.getTime() + 7 * 24 * 60 * MINUTE).toISOString());
    expect(s.upsell).toBe(cruiseLimitText('free'));
    t().clock.set(new Date(first.getTime() + 7 * 24 * 60 * MINUTE));
    await signInAgain(t().app, u);
    expect((await start(u.headers)).statusCode).toBe(200);
    expect(await sessionRows(u.id)).toHaveLength(2);
  });

  it('premium: one a day, the next after the date changes', async () => {
    t().clock.set('2026-06-10T20:00:00Z');
    const u = await locatedUser(t().app, t().db, BERLIN, 'premium');
    expect((await start(u.headers)).statusCode).toBe(200);
    t().clock.advance(40 * MINUTE);
    const refused = await start(u.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(cruiseLimitText('premium'));
    t().clock.set('2026-06-11T00:00:00Z');
    await signInAgain(t().app, u);
    expect((await start(u.headers)).statusCode).toBe(200);
  });

  it('platinum: unlimited sessions', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    for (let i = 0; i < 4; i++) {
      const res = await start(u.headers);
      expect(res.statusCode).toBe(200);
      expect((res.json() as CruiseStatus).sessionsLeft).toBe(-1);
      t().clock.advance(5 * MINUTE);
      await end(u.headers);
    }
    expect((await status(u.headers)).totalSessions).toBe(4);
  });

  it('two concurrent starts open one session and use the quota once', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'free');
    const results = await Promise.all([start(u.headers), start(u.headers), start(u.headers)]);
    for (const r of results) expect(r.statusCode).toBe(200);
    expect(await sessionRows(u.id)).toHaveLength(1);
    const c = await t().db.selectFrom('cruise_counters').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(c.starts).toBe(1);
  });

  it('ends by itself at 30 minutes: over for every read at once, counted by the sweeper once', async () => {
    const sweeper = new CruiseSweeper({ db: t().db, clock: t().clock });
    await sweeper.sweep(); // sessions left running by earlier tests
    const u = await locatedUser(t().app, t().db, BERLIN, 'premium');
    const started = t().clock.now();
    await start(u.headers);
    t().clock.advance(29 * MINUTE);
    await sweeper.sweep();
    expect((await sessionRows(u.id))[0]?.ended_at).toBeNull();
    t().clock.advance(16 * MINUTE);
    // Two sweepers at once (two instances), then a third pass: the session is counted once.
    const other = new CruiseSweeper({ db: t().db, clock: t().clock });
    const [a, b] = await Promise.all([sweeper.sweep(), other.sweep()]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await sweeper.sweep()).toBe(0);
    const rows = await sessionRows(u.id);
    expect(rows).toMatchObject([{ minutes: 30, end_reason: 'expired' }]);
    expect(rows[0]!.ended_at).toEqual(new Date(started.getTime() + 30 * MINUTE));
    const s = await status(u.headers);
    expect(s).toMatchObject({ session: null, sessionsThisPeriod: 1, minutesThisPeriod: 30, totalSessions: 1, totalMinutes: 30 });
  });

  it('a session past its end is over without the sweeper: status counts it, nothing twice', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    await start(u.headers);
    t().clock.advance(31 * MINUTE);
    const s = await status(u.headers);
    expect(s.session).toBeNull();
    expect(s.totalMinutes).toBe(30);
    await new CruiseSweeper({ db: t().db, clock: t().clock }).sweep();
    expect((await status(u.headers)).totalSessions).toBe(1);
  });

  it('the sweeper runs on its own timer with the app and stops cleanly', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    await start(u.headers);
    t().clock.advance(31 * MINUTE);
    const sweeper = new CruiseSweeper({ db: t().db, clock: t().clock }, 10);
    sweeper.start();
    await expect.poll(async () => (await sessionRows(u.id))[0]?.end_reason, { timeout: 5000 }).toBe('expired');
    await sweeper.stop();
  });

  it('needs location consent and a shared location', async () => {
    const u = await signUp(t().app);
    const noConsent = await start(u.headers);
    expect(noConsent.statusCode).toBe(403);
    expect(noConsent.json()).toMatchObject({ error: 'consent_required', message: 'Turn on location sharing to cruise.' });
    await t().app.inject({ method: 'PUT', url: '/api/v1/me/location/consent', headers: u.headers, payload: { consent: true } });
    const noLocation = await start(u.headers);
    expect(noLocation.statusCode).toBe(403);
    expect(noLocation.json()).toMatchObject({ error: 'location_required' });
    expect(await sessionRows(u.user.uid)).toHaveLength(0);
  });

  it('refuses every cruise call in marry-only mode or with cruising off', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    const calls = [
      { method: 'GET' as const, url: '/api/v1/cruise/session' },
      { method: 'POST' as const, url: '/api/v1/cruise/session', payload: {} },
      { method: 'POST' as const, url: '/api/v1/cruise/session/end', payload: {} },
      { method: 'GET' as const, url: '/api/v1/cruise/nearby' },
      { method: 'GET' as const, url: '/api/v1/cruise/spots' },
      { method: 'GET' as const, url: '/api/v1/cruise/events' },
    ];
    for (const set of [{ app_mode: 'marry' as const }, { cruising_enabled: false }]) {
      await t().db.updateTable('users').set(set).where('id', '=', u.id).execute();
      for (const c of calls) {
        const res = await t().app.inject({ ...c, headers: u.headers });
        expect(res.statusCode, `${c.method} ${c.url}`).toBe(403);
        expect(res.json().error).toBe('cruising_disabled');
      }
      await t().db.updateTable('users').set({ app_mode: 'both', cruising_enabled: true }).where('id', '=', u.id).execute();
    }
    expect(await sessionRows(u.id)).toHaveLength(0);
  });

  it("needs a session: 401, and 'User not authenticated' for location updates", async () => {
    const res = await t().app.inject({ method: 'POST', url: '/api/v1/cruise/session', payload: {} });
    expect(res.statusCode).toBe(401);
    const loc = await t().app.inject({ method: 'PUT', url: '/api/v1/me/location', payload: BERLIN });
    expect(loc.statusCode).toBe(401);
    expect(loc.json().message).toBe('User not authenticated');
  });

  it('rejects a Right Now longer than 140 characters (400, nothing started)', async () => {
    const u = await locatedUser(t().app, t().db, BERLIN, 'platinum');
    const res = await start(u.headers, { rightNow: 'x'.repeat(141) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Keep it under 140 characters.');
    expect(await sessionRows(u.id)).toHaveLength(0);
  });
});
