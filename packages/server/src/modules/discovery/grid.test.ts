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
import { block, PASSWORD, setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;

/** Each test works around its own town, far (> 500 km) from the others'. */
let town = 0;
function newTown(): LatLng {
  town += 1;
  // Both databases' suites share this counter: wrap within valid latitudes (6° apart is > 600 km).
  return { lat: -60 + (town % 20) * 6, lng: -170 + ((Math.floor(town / 20) * 37 + town * 11) % 340) };
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
    const v = await signUpMember(t().app, t().db);
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
    const v = await signUpMember(t().app, t().db);
    await setTier(t().db, v.user.uid, 'free');
    expect(await page(v.headers)).toEqual({ items: [], nextCursor: null, clickableLimit: 5, opensLeft: 5, hasLocation: false });
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
    // Privacy: exactly the contract's keys, no coordinates, no numeric distance anywhere. The photo
    // filter's two keys come only with a photo the viewer's filter hides or blurs, and none is here.
    const always = Object.keys(gridCellSchema.shape).filter((k) => k !== 'photoHidden' && k !== 'photoBlurred');
    for (const item of res.json().items as object[]) expect(Object.keys(item).sort()).toEqual(always.sort());
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
    // Elsewhere: a finished profile, he would be listed in the premium viewer's grid.
    const free = await viewer(newTown(), 'free');
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

  const profile = (headers: Headers, id: string) => t().app.inject({ method: 'GET', url: `/api/v1/users/${id}`, headers });
  const choose = (headers: Headers, targetId: string, action: 'fuck' | 'marry' | 'kill') =>
    t().app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers,
      payload: { targetId, action, clientId: `c-${targetId}-${action}-${Math.random().toString(36).slice(2)}` },
    });
  const lockedOf = async (headers: Headers) => (await page(headers)).items.map((i) => i.locked);

  it('lets a free user open any 5 profiles a day, from anywhere in the grid; the server refuses the 6th', async () => {
    const here = newTown();
    const placed: string[] = [];
    for (let i = 0; i < 8; i++) placed.push(await place(uid(`c${i}`), east(here, 1 + i)));
    const v = await viewer(here, 'free');
    const p = await page(v.headers);
    expect(p.clickableLimit).toBe(5);
    expect(p.opensLeft).toBe(5);
    expect(ids(p)).toEqual(placed);
    // Nothing is locked while opens are left: the choice is the viewer's.
    expect(p.items.every((i) => !i.locked)).toBe(true);
    // Opened from the far end of the grid, not its first five.
    for (const [n, id] of [placed[7], placed[6], placed[5], placed[4]].entries()) {
      expect((await profile(v.headers, id!)).statusCode).toBe(200);
      expect((await page(v.headers)).opensLeft).toBe(4 - n);
    }
    // Opening one already opened today costs nothing.
    expect((await profile(v.headers, placed[7]!)).statusCode).toBe(200);
    expect((await page(v.headers)).opensLeft).toBe(1);
    expect((await profile(v.headers, placed[0]!)).statusCode).toBe(200);
    const spent = await page(v.headers);
    expect(spent.opensLeft).toBe(0);
    // Now the ones not opened are locked; the opened ones stay open all day.
    expect(spent.items.map((i) => i.locked)).toEqual([false, true, true, true, false, false, false, false]);
    const refused = await profile(v.headers, placed[1]!);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'limit_reached', message: CLICKABLE_UPSELL });
    expect((await profile(v.headers, placed[5]!)).statusCode).toBe(200);
    // Your own profile always opens; an unknown one is still 'User not found'.
    expect((await profile(v.headers, v.user.uid)).statusCode).toBe(200);
    expect((await profile(v.headers, 'no-such-user')).statusCode).toBe(404);
    // A new UTC day gives five new opens.
    t().clock.advance(24 * 3_600_000);
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: v.user.email, password: PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const tomorrow = await page({ authorization: `Bearer ${login.json().token}` });
    expect(tomorrow.opensLeft).toBe(5);
    expect(tomorrow.items.every((i) => !i.locked)).toBe(true);
  });

  it('opens a man who joined after the grid was first served the same day', async () => {
    const here = newTown();
    for (let i = 0; i < 6; i++) await place(uid(`early${i}`), east(here, 2 + i));
    const v = await viewer(here, 'free');
    expect((await page(v.headers)).opensLeft).toBe(5);
    // A friend signs up later that day, next door (his place, drawn at random, is within 1.3 km).
    const friend = await viewer(east(here, 0.1), 'free');
    await t().db.updateTable('users').set({ onboarding_complete: true }).where('id', '=', friend.user.uid).execute();
    const p = await page(v.headers);
    expect(ids(p)[0]).toBe(friend.user.uid);
    expect(p.items[0]!.locked).toBe(false);
    expect((await profile(v.headers, friend.user.uid)).statusCode).toBe(200);
    expect((await profile(friend.headers, v.user.uid)).statusCode).toBe(200);
    // Both choose: a match, reached through the API alone.
    expect((await choose(v.headers, friend.user.uid, 'fuck')).statusCode).toBe(200);
    const back = await choose(friend.headers, v.user.uid, 'marry');
    expect(back.statusCode).toBe(200);
    expect(back.json().match).toMatchObject({ matchType: 'mixed' });
  });

  it('never spends an open on a man who liked you, a match or a partner, even with none left', async () => {
    const here = newTown();
    const placed: string[] = [];
    for (let i = 0; i < 7; i++) placed.push(await place(uid(`l${i}`), east(here, 1 + i)));
    const v = await viewer(here, 'free');
    for (const id of placed.slice(0, 5)) expect((await profile(v.headers, id)).statusCode).toBe(200);
    expect(await lockedOf(v.headers)).toEqual([false, false, false, false, false, true, true]);
    // placed[5] chooses marry on the viewer: in his "Likes you", so he must open.
    const liker = placed[5]!;
    await t()
      .db.insertInto('selections')
      .values({
        id: `s-${liker}`,
        chooser_id: liker,
        target_id: v.user.uid,
        action: 'marry',
        is_super: false,
        client_id: `seed-${liker}`,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    expect(await lockedOf(v.headers)).toEqual([false, false, false, false, false, false, true]);
    expect((await profile(v.headers, liker)).statusCode).toBe(200);
    expect((await page(v.headers)).opensLeft).toBe(0);
    const match = await choose(v.headers, liker, 'marry');
    expect(match.statusCode).toBe(200);
    expect(match.json().match).toMatchObject({ matchType: 'perfect-marry' });
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
    expect((await profile(v.headers, placed[6]!)).statusCode).toBe(200);
    expect(await lockedOf(v.headers)).toEqual([false, false, false, false, false, false, false]);
  });

  it('counts opens made at the same moment one at a time: never more than the allowance', async () => {
    const here = newTown();
    const placed: string[] = [];
    for (let i = 0; i < 12; i++) placed.push(await place(uid(`r${i}`), east(here, 1 + i)));
    const v = await viewer(here, 'free');
    const codes = await Promise.all(placed.map(async (id) => (await profile(v.headers, id)).statusCode));
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 403)).toHaveLength(7);
    expect((await page(v.headers)).opensLeft).toBe(0);
  });

  it('opens 25 for premium (then the Platinum upsell) and everything for platinum', async () => {
    const here = newTown();
    const placed: string[] = [];
    for (let i = 0; i < 27; i++) placed.push(await place(uid(`k${i}`), east(here, 0.6 * i)));
    const premium = await viewer(here, 'premium');
    expect((await page(premium.headers)).opensLeft).toBe(25);
    for (const id of placed.slice(2)) expect((await profile(premium.headers, id)).statusCode).toBe(200);
    const all = (await page(premium.headers, { limit: 100 })).items;
    expect(all.filter((i) => i.locked).map((i) => i.uid)).toEqual(placed.slice(0, 2));
    const res = await profile(premium.headers, placed[0]!);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(CLICKABLE_UPSELL_PLATINUM);

    const platinum = await viewer(here, 'platinum');
    const pp = await page(platinum.headers, { limit: 100 });
    expect(pp.clickableLimit).toBe(-1);
    expect(pp.opensLeft).toBe(-1);
    expect(pp.items.every((i) => !i.locked)).toBe(true);
    for (const id of placed) expect((await profile(platinum.headers, id)).statusCode).toBe(200);
  });
});
