import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BOOST_PRICE_CENTS,
  BoostMessages,
  type BoostStatus,
  boostStatusSchema,
  DAY,
  DEFAULT_MODE_VISIBILITY,
  type GridPage,
  gridPageSchema,
  type LatLng,
  MINUTE,
  type PaymentAnswer,
} from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { east, placeUser, setPreferences, unlockProfile } from '../../../test/discovery.ts';
import { block, PASSWORD, setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
type Tier = 'free' | 'premium' | 'platinum';

/** Each test works in its own town, far from the others' (the grid tests' scheme, other longitudes). */
let town = 0;
function newTown(): LatLng {
  town += 1;
  return { lat: -55 + (town % 18) * 6, lng: -160 + ((town * 29) % 320) };
}
let seq = 0;
const uid = (label: string) => `boost${++seq}-${label}`;
let keys = 0;
const key = () => `boost-key-${Date.now()}-${++keys}`;

describe.each(DB_KINDS)('boost on %s', (kind) => {
  const t = useTestApp(kind);
  const now = () => t().clock.now();
  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const status = async (h: Headers): Promise<BoostStatus> => {
    const res = await call('GET', '/boost', h);
    expect(res.statusCode, res.body).toBe(200);
    return boostStatusSchema.parse(res.json());
  };
  const buy = async (h: Headers, body: object) => {
    const res = await call('POST', '/boost/purchase', h, body);
    return { status: res.statusCode, body: res.json() as PaymentAnswer };
  };
  const grid = async (h: Headers, query: Record<string, string | number> = {}): Promise<GridPage> => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const res = await t().app.inject({ method: 'GET', url: `/api/v1/grid${qs ? `?${qs}` : ''}`, headers: h });
    expect(res.statusCode, res.body).toBe(200);
    return gridPageSchema.parse(res.json());
  };
  const ids = (p: GridPage) => p.items.map((i) => i.uid);
  const payments = (userId: string) =>
    t().db.selectFrom('payments').select(['kind', 'status', 'amount']).where('user_id', '=', userId).execute();

  const showInDating = (id: string, shown: boolean) =>
    t()
      .db.updateTable('users')
      .set({ mode_visibility: JSON.stringify({ ...DEFAULT_MODE_VISIBILITY, showInDating: shown, showInNow: shown }) })
      .where('id', '=', id)
      .execute();
  /**
   * A member on `tier`, aged 30, in metric units, sharing his location at `at` when given. Left out
   * of every grid (his mode visibility) so viewers see only the men a test places; `listed` shows him.
   */
  async function member(tier: Tier, at?: LatLng, prefs: Parameters<typeof setPreferences>[2] = {}, listed = false) {
    const m = await signUpMember(t().app, t().db);
    await setTier(t().db, m.user.uid, tier);
    await t().db.updateTable('users').set({ age: 30 }).where('id', '=', m.user.uid).execute();
    await showInDating(m.user.uid, listed);
    await setPreferences(t().db, m.user.uid, { units: 'metric', ...prefs });
    if (at) {
      const c = await t().app.inject({
        method: 'PUT',
        url: '/api/v1/me/location/consent',
        headers: m.headers,
        payload: { consent: true },
      });
      expect(c.statusCode).toBe(204);
      const l = await t().app.inject({ method: 'PUT', url: '/api/v1/me/location', headers: m.headers, payload: at });
      expect(l.statusCode, l.body).toBe(204);
    }
    return { id: m.user.uid, email: m.user.email as string, h: m.headers as Headers };
  }
  /** A fresh sign-in, after the clock moved past the access token's hour. */
  async function fresh(m: { email: string }): Promise<Headers> {
    const r = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: m.email, password: PASSWORD },
    });
    expect(r.statusCode, r.body).toBe(200);
    return { authorization: `Bearer ${r.json().token}` };
  }

  it('refuses Free and Premium members with the Platinum upgrade text, and charges nothing', async () => {
    for (const tier of ['free', 'premium'] as const) {
      const m = await member(tier);
      const start = await call('POST', '/boost', m.h);
      expect(start.statusCode).toBe(403);
      expect(start.json()).toEqual({ error: 'limit_reached', message: BoostMessages.upsell });
      expect(start.json().message).toContain('Platinum');
      const bought = await call('POST', '/boost/purchase', m.h, { source_id: 'cnon:card-nonce-ok', idempotency_key: key() });
      expect(bought.statusCode).toBe(403);
      expect(bought.json().message).toBe(BoostMessages.upsell);
      expect(await payments(m.id)).toEqual([]);
      expect(await status(m.h)).toMatchObject({
        available: false,
        upsell: BoostMessages.upsell,
        boost: null,
        includedLeftToday: 0,
      });
    }
    const platinum = await member('platinum');
    expect(await status(platinum.h)).toMatchObject({
      available: true,
      upsell: null,
      boost: null,
      includedPerDay: 1,
      includedLeftToday: 1,
      credits: 0,
      priceCents: BOOST_PRICE_CENTS,
      durationMinutes: 30,
    });
    // Bad input is a clear 400 and charges nothing.
    const bad = await call('POST', '/boost/purchase', platinum.h, { source_id: 'cnon:card-nonce-ok' });
    expect(bad.statusCode).toBe(400);
    expect(await payments(platinum.id)).toEqual([]);
  });

  it("includes one boost a UTC day; another needs a paid credit or the next day's", async () => {
    const m = await member('platinum');
    const first = await call('POST', '/boost', m.h);
    expect(first.statusCode, first.body).toBe(200);
    const s1 = boostStatusSchema.parse(first.json());
    expect(s1).toMatchObject({ includedLeftToday: 0, credits: 0 });
    expect(s1.boost).toMatchObject({ active: true, source: 'included', views: 0, startedAt: now().toISOString() });
    expect(new Date(s1.boost!.endsAt).getTime() - now().getTime()).toBe(30 * MINUTE);

    // One at a time: a second while it runs is refused, not extended.
    t().clock.advance(10 * MINUTE);
    const again = await call('POST', '/boost', m.h);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(BoostMessages.alreadyActive(20));
    expect((await status(m.h)).boost?.endsAt).toBe(s1.boost!.endsAt);

    // It ends by itself after 30 minutes; today's included one is spent.
    t().clock.advance(20 * MINUTE);
    expect((await status(m.h)).boost).toMatchObject({ active: false });
    const none = await call('POST', '/boost', m.h);
    expect(none.statusCode).toBe(403);
    expect(none.json()).toEqual({ error: 'limit_reached', message: BoostMessages.noneLeft });

    // A declined card buys nothing.
    const declined = await buy(m.h, { source_id: 'cnon:card-nonce-declined', idempotency_key: key() });
    expect(declined).toMatchObject({ status: 402, body: { success: false, error: 'Payment failed' } });
    expect((await status(m.h)).credits).toBe(0);

    // A paid credit, charged once for its key however often the request comes.
    const k = key();
    const paid = await buy(m.h, { source_id: 'cnon:card-nonce-ok', idempotency_key: k });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ success: true });
    const retried = await Promise.all([1, 2, 3].map(() => buy(m.h, { source_id: 'cnon:card-nonce-ok', idempotency_key: k })));
    for (const r of retried) expect(r.body.payment_id).toBe(paid.body.payment_id);
    expect((await payments(m.id)).filter((p) => p.status === 'completed')).toEqual([
      { kind: 'one_time', status: 'completed', amount: BOOST_PRICE_CENTS },
    ]);
    expect((await status(m.h)).credits).toBe(1);
    // Its receipt goes out by email.
    const outbox = t().config.mail.outboxDir;
    await expect
      .poll(() =>
        (existsSync(outbox) ? readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8')) : []).some(
          (mail) => mail.includes(m.email) && mail.includes('$2.99') && mail.includes('Boost'),
        ),
      )
      .toBe(true);

    const second = await call('POST', '/boost', m.h);
    expect(second.statusCode, second.body).toBe(200);
    expect(boostStatusSchema.parse(second.json())).toMatchObject({ credits: 0, boost: { active: true, source: 'credit' } });
    t().clock.advance(30 * MINUTE);
    expect((await call('POST', '/boost', await fresh(m))).statusCode).toBe(403);

    // The next UTC day brings a new included boost (the clock, not a waiting test).
    const midnight = new Date(Math.floor(now().getTime() / DAY) * DAY + DAY);
    t().clock.set(new Date(midnight.getTime() - MINUTE));
    const h = await fresh(m);
    expect((await call('POST', '/boost', h)).statusCode).toBe(403);
    t().clock.set(new Date(midnight.getTime() + MINUTE));
    const tomorrow = await call('POST', '/boost', h);
    expect(tomorrow.statusCode, tomorrow.body).toBe(200);
    expect(boostStatusSchema.parse(tomorrow.json())).toMatchObject({ includedLeftToday: 0, boost: { source: 'included' } });
  });

  it('puts him first in the grids of nearby men who would see him anyway, and nowhere else', async () => {
    const here = newTown();
    const n1 = await placeUser(t().db, { id: uid('n1'), at: east(here, 1) }, now());
    const n2 = await placeUser(t().db, { id: uid('n2'), at: east(here, 2) }, now());
    const n3 = await placeUser(t().db, { id: uid('n3'), at: east(here, 3) }, now());
    const boosted = await member('platinum', east(here, 20), {}, true);
    const viewer = await member('free', here);
    expect(ids(await grid(viewer.h))).toEqual([n1, n2, n3, boosted.id]);

    expect((await call('POST', '/boost', boosted.h)).statusCode).toBe(200);
    expect(ids(await grid(viewer.h))).toEqual([boosted.id, n1, n2, n3]);
    // Paged: first on the first page, never again on the next.
    const p1 = await grid(viewer.h, { limit: 2 });
    expect(ids(p1)).toEqual([boosted.id, n1]);
    const p2 = await grid(viewer.h, { limit: 2, cursor: p1.nextCursor! });
    expect(ids(p2)).toEqual([n2, n3]);
    expect(p2.nextCursor).toBeNull();
    // The boost opens nothing: once a free viewer's opens are spent, his cell is locked like any other.
    const elsewhere = newTown();
    for (const n of [n1, n2, await placeUser(t().db, { id: uid('x4'), at: elsewhere }, now())])
      await unlockProfile(t().db, viewer.id, n, now());
    expect((await grid(viewer.h)).items.map((c) => c.locked)).toEqual([false, false, false, false]);
    await unlockProfile(t().db, viewer.id, await placeUser(t().db, { id: uid('x5'), at: elsewhere }, now()), now());
    await unlockProfile(t().db, viewer.id, await placeUser(t().db, { id: uid('x6'), at: elsewhere }, now()), now());
    expect((await grid(viewer.h)).items.map((c) => [c.uid, c.locked])).toEqual([
      [boosted.id, true],
      [n1, false],
      [n2, false],
      [n3, true],
    ]);

    // Men who would not see him do not: blocked (either way), too far, filtered out.
    const blocker = await member('platinum', here);
    await block(t().db, blocker.id, boosted.id);
    expect(ids(await grid(blocker.h))).toEqual([n1, n2, n3]);
    const blockedByHim = await member('platinum', here);
    await block(t().db, boosted.id, blockedByHim.id);
    expect(ids(await grid(blockedByHim.h))).toEqual([n1, n2, n3]);
    const nearOnly = await member('platinum', here, { maxDistance: 10 });
    expect(ids(await grid(nearOnly.h))).toEqual([n1, n2, n3]);
    const older = await member('premium', here, { ageRange: [40, 50] });
    expect(ids(await grid(older.h))).toEqual([]);
    const premium = await member('premium', here);
    expect(ids(await grid(premium.h, { ageMin: 31, ageMax: 50 }))).toEqual([]);
    const farAway = await member('platinum', east(here, 200));
    expect(ids(await grid(farAway.h))).not.toContain(boosted.id);
    // He hides from the viewer's mode: a boost does not bring him back.
    await showInDating(boosted.id, false);
    expect(ids(await grid(premium.h))).toEqual([n1, n2, n3]);
    await showInDating(boosted.id, true);
    expect(ids(await grid(premium.h))).toEqual([boosted.id, n1, n2, n3]);
    // He never sees himself.
    expect(ids(await grid(boosted.h))).not.toContain(boosted.id);
  });

  it('counts each viewer once, only those shown him during the boost, and ends after 30 minutes', async () => {
    const here = newTown();
    const n1 = await placeUser(t().db, { id: uid('n1'), at: east(here, 1) }, now());
    const boosted = await member('platinum', east(here, 5), {}, true);
    const v1 = await member('free', here);
    const v2 = await member('premium', east(here, 2));
    const tooFar = await member('platinum', here, { maxDistance: 2 });

    expect((await call('POST', '/boost', boosted.h)).statusCode).toBe(200);
    for (let i = 0; i < 3; i += 1) expect(ids(await grid(v1.h))[0]).toBe(boosted.id);
    expect((await status(boosted.h)).boost?.views).toBe(1);
    expect(ids(await grid(v2.h))[0]).toBe(boosted.id);
    expect(ids(await grid(tooFar.h))).toEqual([n1]);
    expect((await status(boosted.h)).boost?.views).toBe(2);

    t().clock.advance(29 * MINUTE);
    expect(ids(await grid(v1.h))[0]).toBe(boosted.id);
    t().clock.advance(MINUTE);
    // Over: back in his place by distance, and later viewers are not counted.
    expect(ids(await grid(v1.h))).toEqual([n1, boosted.id]);
    const late = await member('free', here);
    expect(ids(await grid(late.h))).toEqual([n1, boosted.id]);
    expect((await status(boosted.h)).boost).toMatchObject({ active: false, views: 2 });
  });
});
