import {
  ADVANCED_FILTERS_UPSELL,
  CLICKABLE_UPSELL,
  CLICKABLE_UPSELL_PLATINUM,
  type GridPage,
  gridCellSchema,
  gridPageSchema,
  type LatLng,
  observedDistanceLabel,
} from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { east, placeUser, setPreferences } from '../../../test/discovery.ts';
import { block, setTier, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;

/** Each test works around its own town, far (> 500 km) from the others'. */
let town = 0;
function newTown(): LatLng {
  town += 1;
  return { lat: -50 + town * 6, lng: -170 + town * 11 };
}
let seq = 0;
const uid = (label: string) => `g${++seq}-${label}`;

describe.each(DB_KINDS)('GET /grid on %s', (kind) => {
  const t = useTestApp(kind);
  const now = () => t().clock.now();
  const grid = async (headers: Headers, query: Record<string, string | number | boolean> = {}) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return t().app.inject({ method: 'GET', url: `/api/v1/grid${qs ? `?${qs}` : ''}`, headers });
  };
  const page = async (headers: Headers, query: Record<string, string | number | boolean> = {}): Promise<GridPage> => {
    const res = await grid(headers, query);
    expect(res.statusCode, res.body).toBe(200);
    return gridPageSchema.parse(res.json());
  };
  const ids = (p: GridPage) => p.items.map((i) => i.uid);
  const place = (id: string, at: LatLng, extra: Omit<Parameters<typeof placeUser>[1], 'id' | 'at'> = {}) =>
    placeUser(t().db, { id, at, ...extra }, now());

  /** A signed-up viewer sharing his location at `at`, on `tier`, with metric units unless told. */
  async function viewer(at: LatLng, tier: 'free' | 'premium' | 'platinum' = 'platinum', prefs = {}) {
    const v = await signUp(t().app);
    await setTier(t().db, v.user.uid, tier);
    await setPreferences(t().db, v.user.uid, { units: 'metric', ...prefs });
    const c = await t().app.inject({
      method: 'PUT',
      url: '/api/v1/me/location/consent',
      headers: v.headers,
      payload: { consent: true },
    });
    expect(c.statusCode).toBe(204);
    const l = await t().app.inject({ method: 'PUT', url: '/api/v1/me/location', headers: v.headers, payload: at });
    expect(l.statusCode).toBe(204);
    return v;
  }

  it('needs a session; without a shared location the grid is empty with hasLocation false', async () => {
    expect((await grid({})).statusCode).toBe(401);
    const v = await signUp(t().app);
    await setTier(t().db, v.user.uid, 'free');
    expect(await page(v.headers)).toEqual({ items: [], nextCursor: null, clickableLimit: 5, hasLocation: false });
  });

  it('orders by distance between cells, labels distances in buckets and never sends coordinates', async () => {
    const here = newTown();
    const far = await place(uid('far'), east(here, 30));
    const mid = await place(uid('mid'), east(here, 12));
    const near = await place(uid('near'), east(here, 0.2), { rightNowEnabled: true, nowProfile: { rightNow: 'Coffee?' } });
    const three = await place(uid('three'), east(here, 3), { nowProfile: { rightNow: 'hidden: right now is off' } });
    await place(uid('out'), east(here, 100));
    const v = await viewer(here);
    const res = await grid(v.headers);
    const p = gridPageSchema.parse(res.json());
    expect(ids(p)).toEqual([near, three, mid, far]);
    expect(p.items.map((i) => i.distance)).toEqual(
      [0.2, 3, 12, 30].map((km) => observedDistanceLabel(here, east(here, km), 'metric')),
    );
    expect(p.items.map((i) => i.distance)).toEqual(['< 1 km', '3 km', '10 km', '30 km']);
    expect(p.items[0]!.rightNow).toBe('Coffee?');
    expect(p.items[1]!.rightNow).toBeNull();
    // Privacy: exactly the contract's keys, no coordinates, no numeric distance anywhere.
    for (const item of res.json().items as object[])
      expect(Object.keys(item).sort()).toEqual(Object.keys(gridCellSchema.shape).sort());
    expect(res.body).not.toMatch(/lat|lng|latitude|longitude|geo|cell/i);
    for (const item of p.items) expect(item.distance).toMatch(/^(< 1|\d+|50\+) (km|mi)$/);
    // Imperial viewers get miles.
    await setPreferences(t().db, v.user.uid, { units: 'imperial' });
    expect((await page(v.headers)).items.map((i) => i.distance)).toEqual(['< 1 mi', '2 mi', '7 mi', '20 mi']);
  });

  it('never shows self, blocked (either way), inactive, banned, incognito, unfinished, hidden, stopped, withdrawn or stale users', async () => {
    const here = newTown();
    const v = await viewer(here);
    const shown = await place(uid('shown'), east(here, 1));
    const iBlocked = await place(uid('i-blocked'), east(here, 1));
    const blockedMe = await place(uid('blocked-me'), east(here, 1));
    await block(t().db, v.user.uid, iBlocked);
    await block(t().db, blockedMe, v.user.uid);
    await place(uid('inactive'), east(here, 1), { isActive: false });
    const banned = await place(uid('banned'), east(here, 1));
    await t().db.updateTable('users').set({ is_active: false }).where('id', '=', banned).execute();
    await place(uid('incognito'), east(here, 1), { incognito: true });
    await place(uid('unfinished'), east(here, 1), { onboardingComplete: false });
    await place(uid('not-in-dating'), east(here, 1), { modeVisibility: { showInDating: false, showInNow: true } });
    await place(uid('stopped'), east(here, 1), { locationActive: false });
    await place(uid('stale'), east(here, 1), { locationUpdated: new Date(now().getTime() - 31 * 86_400_000) });
    await place(uid('fresh-enough'), east(here, 1), { locationUpdated: new Date(now().getTime() - 29 * 86_400_000) });
    // A real user who shares, then withdraws his consent.
    const withdrawn = await viewer(east(here, 1));
    const w = await t().app.inject({
      method: 'PUT',
      url: '/api/v1/me/location/consent',
      headers: withdrawn.headers,
      payload: { consent: false },
    });
    expect(w.statusCode).toBe(204);
    const got = ids(await page(v.headers));
    expect(got.sort()).toEqual([shown, `g${seq}-fresh-enough`].sort());
    expect(got).not.toContain(v.user.uid);
  });

  it('filters by age range (preferences, then the query) and by distance in the viewer units', async () => {
    const here = newTown();
    const a25 = await place(uid('a25'), east(here, 1), { age: 25 });
    const a40 = await place(uid('a40'), east(here, 2), { age: 40 });
    await place(uid('a60'), east(here, 3), { age: 60 });
    const a30far = await place(uid('a30-far'), east(here, 40), { age: 30 });
    const v = await viewer(here, 'free', { ageRange: [20, 45], maxDistance: 50 });
    expect(ids(await page(v.headers))).toEqual([a25, a40, a30far]);
    expect(ids(await page(v.headers, { ageMin: 30, ageMax: 45 }))).toEqual([a40, a30far]);
    expect(ids(await page(v.headers, { maxDistance: 10 }))).toEqual([a25, a40]);
    // 30 miles is 48 km: the user 40 km away is inside for an imperial viewer, outside for a metric one.
    expect(ids(await page(v.headers, { maxDistance: 30 }))).toEqual([a25, a40]);
    await setPreferences(t().db, v.user.uid, { units: 'imperial', ageRange: [20, 45] });
    expect(ids(await page(v.headers, { maxDistance: 30 }))).toEqual([a25, a40, a30far]);
    const bad = await grid(v.headers, { ageMin: 50, ageMax: 30 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The minimum age must not be above the maximum age.');
  });

  it('shows dating-visible users in dating mode and now-visible users in hookup (now) mode', async () => {
    const here = newTown();
    const datingOnly = await place(uid('dating'), east(here, 1));
    const nowOnly = await place(uid('now'), east(here, 2), { modeVisibility: { showInDating: false, showInNow: true } });
    const both = await place(uid('both'), east(here, 3), { modeVisibility: { showInDating: true, showInNow: true } });
    const v = await viewer(here);
    expect(ids(await page(v.headers))).toEqual([datingOnly, both]);
    await t().db.updateTable('users').set({ current_mode: 'now' }).where('id', '=', v.user.uid).execute();
    expect(ids(await page(v.headers))).toEqual([nowOnly, both]);
  });

  it('refuses advanced filters to free users (403 with the upgrade text) and applies them for premium', async () => {
    const here = newTown();
    const top = await place(uid('top'), east(here, 1), {
      nowProfile: { position: 'Top', quickStats: { build: null, height: 185 } },
    });
    const bottom = await place(uid('bottom'), east(here, 2), {
      nowProfile: { position: 'Bottom', tribes: ['Bear'], quickStats: { build: null, height: 170 } },
      isOnline: true,
    });
    await place(uid('hidden-online'), east(here, 3), { isOnline: true, showOnlineStatus: false, photoURL: null });
    const free = await viewer(here, 'free');
    const advanced: Record<string, string | number | boolean>[] = [
      { onlineOnly: true },
      { withPhotos: true },
      { position: 'Top' },
      { tribe: 'Bear' },
      { heightMin: 180 },
    ];
    for (const q of advanced) {
      const res = await grid(free.headers, q);
      expect(res.statusCode, JSON.stringify(q)).toBe(403);
      expect(res.json()).toEqual({ error: 'limit_reached', message: ADVANCED_FILTERS_UPSELL });
    }
    const premium = await viewer(here, 'premium');
    expect(ids(await page(premium.headers, { position: 'Top' }))).toEqual([top]);
    expect(ids(await page(premium.headers, { tribe: 'Bear' }))).toEqual([bottom]);
    expect(ids(await page(premium.headers, { heightMin: 180 }))).toEqual([top]);
    expect(ids(await page(premium.headers, { heightMax: 175 }))).toEqual([bottom]);
    expect(ids(await page(premium.headers, { withPhotos: true }))).toEqual([top, bottom]);
    // Online only never reveals a status its owner hides.
    const online = await page(premium.headers, { onlineOnly: true });
    expect(ids(online)).toEqual([bottom]);
    expect(online.items[0]!.isOnline).toBe(true);
    expect((await page(premium.headers)).items.map((i) => i.isOnline)).toEqual([false, true, null]);
    // Cells show our photos as thumbnails (<photo>.t.webp), not the full photo; no photo stays none.
    expect((await page(premium.headers)).items.map((i) => i.photoURL)).toEqual([
      `/files/photos/${top}/a.t.webp`,
      `/files/photos/${bottom}/a.t.webp`,
      null,
    ]);
  });

  it('pages through ties and distances without duplicates or gaps, stable within the day', async () => {
    const here = newTown();
    const placed: string[] = [];
    // 16 users: 6 in the viewer's own cell (a tie), the rest spread out, some sharing cells.
    for (let i = 0; i < 16; i++) placed.push(await place(uid(`p${i}`), east(here, i < 6 ? 0 : Math.floor(i / 2) * 1.3)));
    const v = await viewer(here);
    const all = ids(await page(v.headers, { limit: 100 }));
    expect(all.sort()).toEqual([...placed].sort());
    const whole = ids(await page(v.headers, { limit: 100 }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const p: GridPage = await page(v.headers, { limit: 6, ...(cursor ? { cursor } : {}) });
      seen.push(...ids(p));
      cursor = p.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(whole);
    // Ties are shuffled per viewer: the first six (one cell) come in this viewer's order.
    expect(new Set(whole.slice(0, 6))).toEqual(new Set(placed.slice(0, 6)));
    // A cursor is opaque, bound to its viewer, and unforgeable.
    const first = await page(v.headers, { limit: 6 });
    const other = await viewer(here);
    expect((await grid(other.headers, { cursor: first.nextCursor! })).statusCode).toBe(400);
    const forged = `${first.nextCursor!.slice(0, -2)}AA`;
    expect((await grid(v.headers, { cursor: forged })).statusCode).toBe(400);
  });

  it('opens the first 5 for free users; the server refuses the rest (403) but opens matches', async () => {
    const here = newTown();
    const placed: string[] = [];
    for (let i = 0; i < 8; i++) placed.push(await place(uid(`c${i}`), east(here, 1 + i)));
    const v = await viewer(here, 'free');
    const p = await page(v.headers);
    expect(p.clickableLimit).toBe(5);
    expect(ids(p)).toEqual(placed);
    expect(p.items.map((i) => i.locked)).toEqual([false, false, false, false, false, true, true, true]);
    const profile = (id: string) => t().app.inject({ method: 'GET', url: `/api/v1/users/${id}`, headers: v.headers });
    expect((await profile(placed[0]!)).statusCode).toBe(200);
    expect((await profile(placed[4]!)).statusCode).toBe(200);
    const refused = await profile(placed[5]!);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'limit_reached', message: CLICKABLE_UPSELL });
    // Serving the grid again does not unlock more the same day.
    await page(v.headers);
    expect((await profile(placed[6]!)).statusCode).toBe(403);
    // Matches (and conversation partners) always open.
    const [a, b] = [v.user.uid, placed[6]!].sort() as [string, string];
    await t()
      .db.insertInto('matches')
      .values({
        id: `m-${a}-${b}`,
        user_a: a,
        user_b: b,
        match_type: 'mixed',
        user_actions: JSON.stringify({ [a]: 'fuck', [b]: 'marry' }),
        created_at: now(),
        matched_at: now(),
      })
      .execute();
    expect((await profile(placed[6]!)).statusCode).toBe(200);
    expect((await page(v.headers)).items.map((i) => i.locked)).toEqual([false, false, false, false, false, true, false, true]);
    // Your own profile always opens; an unknown one is still 'User not found'.
    expect((await profile(v.user.uid)).statusCode).toBe(200);
    expect((await profile('no-such-user')).statusCode).toBe(404);
  });

  it('opens 25 for premium (then the Platinum upsell) and everything for platinum', async () => {
    const here = newTown();
    const placed: string[] = [];
    for (let i = 0; i < 27; i++) placed.push(await place(uid(`k${i}`), east(here, 0.6 * i)));
    const premium = await viewer(here, 'premium');
    const p = await page(premium.headers, { limit: 10 });
    expect(p.clickableLimit).toBe(25);
    const all = [...p.items];
    let cursor = p.nextCursor;
    while (cursor) {
      const next = await page(premium.headers, { limit: 10, cursor });
      all.push(...next.items);
      cursor = next.nextCursor;
    }
    expect(all.filter((i) => !i.locked)).toHaveLength(25);
    expect(all.slice(0, 25).every((i) => !i.locked)).toBe(true);
    const locked = all.find((i) => i.locked)!;
    const res = await t().app.inject({ method: 'GET', url: `/api/v1/users/${locked.uid}`, headers: premium.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(CLICKABLE_UPSELL_PLATINUM);

    const platinum = await viewer(here, 'platinum');
    const pp = await page(platinum.headers, { limit: 100 });
    expect(pp.clickableLimit).toBe(-1);
    expect(pp.items.every((i) => !i.locked)).toBe(true);
    const open = await t().app.inject({ method: 'GET', url: `/api/v1/users/${locked.uid}`, headers: platinum.headers });
    expect(open.statusCode).toBe(200);
  });
});
