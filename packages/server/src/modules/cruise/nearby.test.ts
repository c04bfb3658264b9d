import { type CruiseStatus, MINUTE, type NearbyPage, observedDistanceLabel, placeDistanceLabel, snap } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { locatedUser, placeCruiser } from '../../../test/cruise.ts';
import { east, placeOfUser } from '../../../test/discovery.ts';
import { block, signUp, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('GET /cruise/nearby on %s', (kind) => {
  const t = useTestApp(kind);
  const nearby = async (headers: Headers, query = '') => {
    const res = await t().app.inject({ method: 'GET', url: `/api/v1/cruise/nearby${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as NearbyPage;
  };
  let city = 0;
  /** A city of its own per test, so tests do not see each other's cruisers. */
  const nextCity = () => ({ lat: 40 + city++ * 0.5, lng: -3.7 });

  it('lists only now-mode, active, fresh users in a live session within 5 km, nearest first', async () => {
    const here = nextCity();
    const viewer = await locatedUser(t().app, t().db, here);
    const now = t().clock.now();
    const p = (id: string) => `${id}-${kind}`;
    await placeCruiser(t().db, { id: p('near'), at: east(here, 1.2) }, now);
    await placeCruiser(t().db, { id: p('nearest'), at: east(here, 0.2) }, now);
    await placeCruiser(t().db, { id: p('edge'), at: east(here, 4.4) }, now);
    await placeCruiser(t().db, { id: p('approx'), at: east(here, 2.5), precision: 'approximate' }, now);
    // Each of these fails exactly one rule.
    await placeCruiser(t().db, { id: p('dating'), at: east(here, 1), currentMode: 'dating' }, now);
    await placeCruiser(t().db, { id: p('no-session'), at: east(here, 1), session: null }, now);
    await placeCruiser(t().db, { id: p('ended'), at: east(here, 1), session: { startedAt: now, endedAt: now } }, now);
    await placeCruiser(
      t().db,
      { id: p('expired'), at: east(here, 1), session: { startedAt: new Date(now.getTime() - 31 * MINUTE) } },
      now,
    );
    await placeCruiser(
      t().db,
      { id: p('stale'), at: east(here, 1), locationUpdated: new Date(now.getTime() - 31 * MINUTE) },
      now,
    );
    await placeCruiser(t().db, { id: p('far'), at: east(here, 7) }, now);
    await placeCruiser(t().db, { id: p('banned'), at: east(here, 1), isActive: false }, now);
    await placeCruiser(t().db, { id: p('hidden'), at: east(here, 1), locationActive: false }, now);
    await placeCruiser(t().db, { id: p('incognito'), at: east(here, 1), incognito: true }, now);
    await placeCruiser(t().db, { id: p('blocked'), at: east(here, 1) }, now);
    await block(t().db, p('blocked'), viewer.id);

    const page = await nearby(viewer.headers);
    expect(page.items.map((i) => i.uid)).toEqual([p('nearest'), p('near'), p('approx'), p('edge')]);
    expect(page.me).toEqual(snap(here));
    expect(page.radiusKm).toBe(5);

    // Pins are places (never cells) and distances the grid's labels; approximate users get no pin.
    const near = page.items[1]!;
    expect(near.cell).toEqual(await placeOfUser(t().db, p('near')));
    expect(near.distance).toBe(observedDistanceLabel(here, east(here, 1.2), 'imperial'));
    expect(page.items[2]!.cell).toBeNull();
    const json = JSON.stringify(page);
    for (const km of [0.2, 1.2, 2.5, 4.4]) {
      const raw = east(here, km);
      expect(json).not.toContain(String(raw.lng));
    }

    // A wider radius brings the far one in; the 30-minute window still applies.
    expect((await nearby(viewer.headers, '?radiusKm=10')).items.map((i) => i.uid)).toContain(p('far'));
  });

  it('carries the verified badge of a cruiser who verified his phone, never the number', async () => {
    const here = nextCity();
    const viewer = await locatedUser(t().app, t().db, here);
    const now = t().clock.now();
    const [verified, plain] = [`verified-${kind}`, `plain-${kind}`];
    await placeCruiser(t().db, { id: verified, at: east(here, 0.5) }, now);
    await placeCruiser(t().db, { id: plain, at: east(here, 1) }, now);
    await t()
      .db.updateTable('users')
      .set({ phone_number: '+34612345678', phone_verified_at: now })
      .where('id', '=', verified)
      .execute();
    const page = await nearby(viewer.headers);
    expect(page.items.map((i) => [i.uid, i.verified])).toEqual([
      [verified, true],
      [plain, false],
    ]);
    expect(JSON.stringify(page)).not.toContain('612345678');
  });

  it('looks further when the nearest now-mode users are not cruising (sparse areas)', async () => {
    const here = nextCity();
    const viewer = await locatedUser(t().app, t().db, here);
    const now = t().clock.now();
    // Twelve located men in now mode close by, none in a session: the first look (4 × limit) sees only them.
    for (let i = 0; i < 12; i++)
      await placeCruiser(t().db, { id: `idle-${kind}-${i}`, at: east(here, 0.1 * i), session: null }, now);
    await placeCruiser(t().db, { id: `far-cruiser-${kind}`, at: east(here, 3) }, now);
    await placeCruiser(t().db, { id: `outside-${kind}`, at: east(here, 9) }, now);
    const page = await nearby(viewer.headers, '?limit=2');
    expect(page.items.map((i) => i.uid)).toEqual([`far-cruiser-${kind}`]);
  });

  it('shows Right Now only when the cruiser has it on, the session text before the profile text', async () => {
    const here = nextCity();
    const viewer = await locatedUser(t().app, t().db, here);
    const now = t().clock.now();
    await placeCruiser(
      t().db,
      { id: `rn-on-${kind}`, at: east(here, 1), rightNowEnabled: true, nowProfile: { rightNow: 'Up for a drink' } },
      now,
    );
    await placeCruiser(
      t().db,
      { id: `rn-off-${kind}`, at: east(here, 2), rightNowEnabled: false, nowProfile: { rightNow: 'Secret' } },
      now,
    );
    const page = await nearby(viewer.headers);
    expect(page.items.map((i) => [i.uid, i.rightNow])).toEqual([
      [`rn-on-${kind}`, 'Up for a drink'],
      [`rn-off-${kind}`, null],
    ]);
  });

  it("a session started through the API puts the user in the other user's list until it ends", async () => {
    const here = nextCity();
    const a = await locatedUser(t().app, t().db, east(here, 0.8), 'platinum');
    const b = await locatedUser(t().app, t().db, here);
    expect((await nearby(b.headers)).items).toEqual([]);
    const started = await t().app.inject({ method: 'POST', url: '/api/v1/cruise/session', headers: a.headers, payload: {} });
    expect(started.statusCode).toBe(200);
    const seen = await nearby(b.headers);
    expect(seen.items.map((i) => i.uid)).toEqual([a.id]);
    expect(seen.items[0]!.endsAt).toBe((started.json() as CruiseStatus).session!.endsAt);
    // The viewer himself is never in his own list.
    expect((await nearby(a.headers)).items).toEqual([]);
    t().clock.advance(30 * MINUTE);
    expect((await nearby(b.headers)).items).toEqual([]);
  });

  it('approximate precision, chosen through the API, lists the cruiser without a pin', async () => {
    const here = nextCity();
    const a = await locatedUser(t().app, t().db, east(here, 1.5), 'platinum');
    const b = await locatedUser(t().app, t().db, here);
    await t().app.inject({ method: 'POST', url: '/api/v1/cruise/session', headers: a.headers, payload: {} });
    const place = await placeOfUser(t().db, a.id);
    expect((await nearby(b.headers)).items[0]?.cell).toEqual(place);
    const set = await t().app.inject({
      method: 'PUT',
      url: '/api/v1/cruise/precision',
      headers: a.headers,
      payload: { locationPrecision: 'approximate' },
    });
    expect(set.statusCode).toBe(200);
    expect((set.json() as CruiseStatus).locationPrecision).toBe('approximate');
    const item = (await nearby(b.headers)).items[0]!;
    expect(item).toMatchObject({ uid: a.id, cell: null, distance: placeDistanceLabel(here, place, 'imperial') });
    const bad = await t().app.inject({
      method: 'PUT',
      url: '/api/v1/cruise/precision',
      headers: a.headers,
      payload: { locationPrecision: 'gps' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Location precision must be exact or approximate.');
  });

  it('is empty, saying so, without consent or a location', async () => {
    const u = await signUpMember(t().app, t().db);
    expect(await nearby(u.headers)).toEqual({ items: [], hasLocation: false, me: null, radiusKm: 5 });
  });

  it('rejects a bad radius with a clear message', async () => {
    const u = await signUp(t().app);
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/cruise/nearby?radiusKm=500', headers: u.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('radiusKm must be between 1 and 50.');
  });
});
