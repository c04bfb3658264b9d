import { randomUUID } from 'node:crypto';
import {
  areaCentre,
  type GridPage,
  type LatLng,
  type NearbyPage,
  observedAreaDistanceLabel,
  observedDistanceLabel,
  placeDistanceLabel,
} from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { locatedUser, placeCruiser } from '../../../test/cruise.ts';
import { east, placeOfUser } from '../../../test/discovery.ts';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
type Member = { user: { uid: string }; headers: Headers };

/** Each test in its own town, far from the others'. */
let town = 0;
const newTown = (): LatLng => {
  town += 1;
  return { lat: 30 + (town % 10), lng: -100 + town * 3 };
};

/**
 * locationSafety (shareLocationEnabled, shareOnlyWithMatches, hideExactLocation) as the OTHER man
 * sees it: the owner sets it through PATCH /me/settings (or, for cruisers placed in the tables,
 * in his settings row) and the viewer's grid and nearby list change.
 */
describe.each(DB_KINDS)('location safety seen from the other side on %s', (kind) => {
  const t = useTestApp(kind);
  const api = (u: { headers: Headers }, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });
  const ok = async (...args: Parameters<typeof api>) => {
    const res = await api(...args);
    expect([200, 201, 204], `${args[1]} ${args[2]}: ${res.body}`).toContain(res.statusCode);
    return res;
  };
  async function member(at?: LatLng): Promise<Member> {
    const m = await signUpMember(t().app, t().db);
    await setTier(t().db, m.user.uid, 'platinum');
    if (at) await locate(m, at);
    return m;
  }
  async function locate(m: Member, at: LatLng) {
    await ok(m, 'PUT', '/me/location/consent', { consent: true });
    await ok(m, 'PUT', '/me/location', at);
  }
  const locationSafety = (m: Member, change: object) => ok(m, 'PATCH', '/me/settings', { safety: { locationSafety: change } });
  const grid = async (v: Member) => (await ok(v, 'GET', '/grid')).json() as GridPage;
  const cellOf = async (v: Member, owner: Member) => (await grid(v)).items.find((i) => i.uid === owner.user.uid);
  async function match(a: Member, b: Member) {
    await ok(a, 'POST', '/selections', { targetId: b.user.uid, action: 'fuck', clientId: randomUUID() });
    await ok(b, 'POST', '/selections', { targetId: a.user.uid, action: 'fuck', clientId: randomUUID() });
  }
  const nearby = async (headers: Headers) => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/cruise/nearby', headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as NearbyPage;
  };
  /** The label of a man located through the API: from the viewer's cell to his place (his shift is his own). */
  const placeLabel = async (from: LatLng, m: Member) =>
    placeDistanceLabel(from, await placeOfUser(t().db, m.user.uid), 'imperial');
  const setRow = (
    id: string,
    change: { share_location_enabled?: boolean; share_only_with_matches?: boolean; hide_exact_location?: boolean },
  ) => t().db.updateTable('user_settings').set(change).where('user_id', '=', id).execute();

  /**
   * Two places in one 5 km area, one nearer the viewer than the area's centre and one farther,
   * and a plain man at the centre between them.
   */
  function oneArea(viewer: LatLng) {
    const centre = areaCentre(east(viewer, 10));
    const near = east(centre, -1.5);
    const far = east(centre, 1.5);
    expect(areaCentre(near)).toEqual(centre);
    expect(areaCentre(far)).toEqual(centre);
    return { centre, near, far };
  }

  it('shareLocationEnabled off: in no grid and no nearby list, for strangers and matches alike', async () => {
    const here = newTown();
    const owner = await member(east(here, 1));
    const viewer = await member(here);
    await match(viewer, owner);
    expect(await cellOf(viewer, owner)).toBeDefined();
    await locationSafety(owner, { shareLocationEnabled: false });
    expect(await cellOf(viewer, owner)).toBeUndefined();
    const stranger = await member(east(here, 2));
    expect(await cellOf(stranger, owner)).toBeUndefined();
    await locationSafety(owner, { shareLocationEnabled: true });
    expect(await cellOf(stranger, owner)).toBeDefined();

    const cruiser = `off-${kind}-${town}`;
    const watcher = await locatedUser(t().app, t().db, here);
    await placeCruiser(t().db, { id: cruiser, at: east(here, 1) }, t().clock.now());
    expect((await nearby(watcher.headers)).items.map((i) => i.uid)).toContain(cruiser);
    await setRow(cruiser, { share_location_enabled: false });
    expect((await nearby(watcher.headers)).items.map((i) => i.uid)).not.toContain(cruiser);
  });

  it('hideExactLocation: a label in 5 km steps from his area, and an order that says no more than the area', async () => {
    const here = newTown();
    const { centre, near, far } = oneArea(here);
    const viewer = await member(here);
    const plain = await member(centre);
    // One turns it on after sharing a location (his point moves), one before (stored as the area).
    const a = await member(near);
    await locationSafety(a, { hideExactLocation: true });
    const b = await member();
    await locationSafety(b, { hideExactLocation: true });
    await locate(b, far);

    const items = (await grid(viewer)).items;
    const at = (m: Member) => items.findIndex((i) => i.uid === m.user.uid);
    const label = observedAreaDistanceLabel(here, centre, 'imperial');
    expect(items[at(a)]!.distance).toBe(label);
    expect(items[at(b)]!.distance).toBe(label);
    expect(label).toMatch(/^(< 5|5|10|15|20|25|30|35|40|45|50\+) mi$/);
    // Placed by his cell, the near one would come before the man between them and the far one after.
    expect(at(a) < at(plain)).toBe(at(b) < at(plain));
    expect(items[at(plain)]!.distance).toBe(await placeLabel(here, plain));

    // Off again: his own cell, nearer than the plain man's.
    await locationSafety(a, { hideExactLocation: false });
    const again = (await grid(viewer)).items;
    const idx = (m: Member) => again.findIndex((i) => i.uid === m.user.uid);
    expect(again[idx(a)]!.distance).toBe(await placeLabel(here, a));
    expect(idx(a)).toBeLessThan(idx(plain));
  });

  it('shareOnlyWithMatches: listed for everyone, a distance only for his matches, placed by his area', async () => {
    const here = newTown();
    const { centre, near, far } = oneArea(here);
    const viewer = await member(here);
    const plain = await member(centre);
    const a = await member(near);
    const b = await member(far);
    await locationSafety(a, { shareOnlyWithMatches: true });
    await locationSafety(b, { shareOnlyWithMatches: true });

    const items = (await grid(viewer)).items;
    const at = (m: Member) => items.findIndex((i) => i.uid === m.user.uid);
    expect(at(a)).toBeGreaterThanOrEqual(0);
    expect(items[at(a)]!.distance).toBeNull();
    expect(items[at(b)]!.distance).toBeNull();
    expect(at(a) < at(plain)).toBe(at(b) < at(plain));

    await match(viewer, a);
    expect((await cellOf(viewer, a))!.distance).toBe(await placeLabel(here, a));
    expect((await cellOf(viewer, b))!.distance).toBeNull();
    // Both at once: his match sees the area's label.
    await locationSafety(a, { hideExactLocation: true });
    expect((await cellOf(viewer, a))!.distance).toBe(observedAreaDistanceLabel(here, near, 'imperial'));
  });

  it('among nearby cruisers: no pin and an area label when hidden; no distance for a non-match', async () => {
    const here = newTown();
    const watcher = await locatedUser(t().app, t().db, here);
    const now = t().clock.now();
    const hidden = `hide-${kind}-${town}`;
    const matchesOnly = `only-${kind}-${town}`;
    await placeCruiser(t().db, { id: hidden, at: east(here, 1.2) }, now);
    await placeCruiser(t().db, { id: matchesOnly, at: east(here, 2.2) }, now);
    await setRow(hidden, { hide_exact_location: true });
    await setRow(matchesOnly, { share_only_with_matches: true });

    const page = await nearby(watcher.headers);
    const row = (id: string) => page.items.find((i) => i.uid === id)!;
    expect(row(hidden).cell).toBeNull();
    expect(row(hidden).distance).toBe(observedAreaDistanceLabel(here, east(here, 1.2), 'imperial'));
    expect(row(matchesOnly).cell).toBeNull();
    expect(row(matchesOnly).distance).toBeNull();

    const [ua, ub] = [watcher.id, matchesOnly].sort();
    await t()
      .db.insertInto('matches')
      .values({
        id: randomUUID(),
        user_a: ua!,
        user_b: ub!,
        match_type: 'mixed',
        user_actions: '{}',
        created_at: now,
        matched_at: now,
      })
      .execute();
    const matched = (await nearby(watcher.headers)).items.find((i) => i.uid === matchesOnly)!;
    expect(matched.distance).toBe(observedDistanceLabel(here, east(here, 2.2), 'imperial'));
    expect(matched.cell).not.toBeNull();
  });
});
