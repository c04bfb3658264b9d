import { randomUUID } from 'node:crypto';
import type { fixedClock } from '@fmk/core';
import { type LatLng, snap } from '@fmk/core';
import fc from 'fast-check';
import type { Db } from '../src/db/index.ts';
import { LocationService } from '../src/modules/discovery/service.ts';
import { SettingsService } from '../src/modules/settings/service.ts';
import { loadActor } from '../src/platform/access.ts';
import type { Bus } from '../src/platform/bus.ts';
import { AppError } from '../src/platform/errors.ts';
import { announceLocationChange } from '../src/platform/grid-cells.ts';
import { centredShift, east, placeUser, setPreferences, unlockProfile } from './discovery.ts';
import { block, setTier } from './factories.ts';

/**
 * Random small grid worlds and random changes to them, for the property test of the grid's
 * candidate lists (modules/discovery/candidates.test.ts). Men are put on a few spots (several to a
 * cell, so ties are common), between 0 and ~150 km from the town's centre; changes go through the
 * services that make them in the app (moves, stops, location safety) or straight to the tables as
 * other features write them (blocks, profiles, settings, opens), the latter announcing nothing.
 */

/** Offsets (km east, km north) of the spots men stand on: the same cell, neighbours, far away. */
const SPOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [0.05, 0.02],
  [0.6, 0],
  [0, 0.7],
  [1.3, -0.4],
  [3, 2],
  [-4.5, 0.2],
  [9, -6],
  [25, 3],
  [-40, 10],
  [80, 0],
  [150, -20],
];
export const spotArb = fc.integer({ min: 0, max: SPOTS.length - 1 });

export function spotAt(town: LatLng, spot: number): LatLng {
  const [e, n] = SPOTS[spot]!;
  const p = east(town, e);
  return { lat: p.lat + n / 111.32, lng: p.lng };
}

export interface WorldSpec {
  men: Array<{ spot: number; age: number; online: boolean; photo: boolean }>;
  viewers: Array<{ spot: number; tier: 'free' | 'premium' | 'platinum'; maxDistance: number }>;
}

export const worldArb: fc.Arbitrary<WorldSpec> = fc.record({
  men: fc.array(fc.record({ spot: spotArb, age: fc.integer({ min: 18, max: 70 }), online: fc.boolean(), photo: fc.boolean() }), {
    minLength: 3,
    maxLength: 22,
  }),
  viewers: fc.array(
    fc.record({
      spot: spotArb,
      tier: fc.constantFrom('free' as const, 'premium' as const, 'platinum' as const),
      maxDistance: fc.constantFrom(1, 5, 30, 100, 500),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

export type Op =
  | { kind: 'move'; who: number; spot: number }
  | { kind: 'stop'; who: number }
  | { kind: 'block'; a: number; b: number }
  | { kind: 'profile'; who: number; age: number; photo: boolean; online: boolean; showOnline: boolean }
  | { kind: 'visibility'; who: number; inDating: boolean; inNow: boolean; incognito: boolean; hidden: boolean; sharing: boolean }
  | { kind: 'mode'; who: number; mode: 'dating' | 'now' }
  | { kind: 'byArea'; who: number; on: boolean }
  | { kind: 'unlock'; viewer: number; who: number }
  | { kind: 'tier'; viewer: number; tier: 'free' | 'premium' | 'platinum' }
  | { kind: 'days'; days: number }
  | { kind: 'boost'; who: number; minutes: number }
  | { kind: 'pair'; a: number; b: number; table: 'selections' | 'matches' | 'conversations' };

/** Indexes run over viewers and men together (viewers first), so a viewer can be moved or blocked too. */
const who = fc.nat({ max: 30 });
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('move' as const), who, spot: spotArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stop' as const), who }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('block' as const), a: who, b: who }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('profile' as const),
      who,
      age: fc.integer({ min: 18, max: 70 }),
      photo: fc.boolean(),
      online: fc.boolean(),
      showOnline: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('visibility' as const),
      who,
      inDating: fc.boolean(),
      inNow: fc.boolean(),
      incognito: fc.boolean(),
      hidden: fc.boolean(),
      sharing: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('mode' as const), who, mode: fc.constantFrom('dating' as const, 'now' as const) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('byArea' as const), who, on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unlock' as const), viewer: who, who }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('tier' as const),
      viewer: who,
      tier: fc.constantFrom('free' as const, 'premium' as const, 'platinum' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('days' as const), days: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('boost' as const), who, minutes: fc.integer({ min: 1, max: 40 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pair' as const),
      a: who,
      b: who,
      table: fc.constantFrom('selections' as const, 'matches' as const, 'conversations' as const),
    }),
  },
);

/** a chose b, or the two matched, or talked: written as the game and messaging write them. */
async function pair(db: Db, a: string, b: string, table: 'selections' | 'matches' | 'conversations', now: Date): Promise<void> {
  const id = randomUUID();
  const [ua, ub] = a < b ? [a, b] : [b, a];
  if (table === 'selections') {
    await db
      .insertInto('selections')
      .values({ id, chooser_id: a, target_id: b, action: 'fuck', client_id: id, created_at: now, updated_at: now })
      .execute();
  } else if (table === 'matches') {
    await db
      .insertInto('matches')
      .values({
        id,
        user_a: ua,
        user_b: ub,
        match_type: 'perfect-fuck',
        user_actions: JSON.stringify({}),
        created_at: now,
        matched_at: now,
      })
      .execute();
  } else {
    await db
      .insertInto('conversations')
      .values({ id, user_a: ua, user_b: ub, created_at: now, updated_at: now, last_activity: now })
      .execute();
  }
}

export interface World {
  town: LatLng;
  viewers: string[];
  /** Viewers first, then the men. */
  everyone: string[];
}

let worlds = 0;

/** Writes the world around a town of its own (far from every other world's). */
export async function buildWorld(db: Db, bus: Bus, spec: WorldSpec, now: Date): Promise<World> {
  worlds += 1;
  const town = { lat: -50 + (worlds % 25) * 4, lng: -175 + ((worlds * 47) % 350) };
  const tag = `w${worlds}-${Math.random().toString(36).slice(2, 7)}`;
  const viewers: string[] = [];
  for (const [i, v] of spec.viewers.entries()) {
    const id = await placeUser(db, { id: `${tag}-v${i}`, at: spotAt(town, v.spot) }, now);
    await setTier(db, id, v.tier);
    await setPreferences(db, id, { units: 'metric', maxDistance: v.maxDistance });
    viewers.push(id);
  }
  const men: string[] = [];
  for (const [i, m] of spec.men.entries()) {
    const at = spotAt(town, m.spot);
    men.push(
      await placeUser(db, { id: `${tag}-m${i}`, at, age: m.age, isOnline: m.online, photoURL: m.photo ? undefined : null }, now),
    );
  }
  // Written straight to the tables: announced as the location service would.
  const listed = (at: LatLng) => {
    const shift = centredShift(at);
    return { ...snap(at), shift_lat: shift.lat, shift_lng: shift.lng };
  };
  await announceLocationChange(bus, [
    ...spec.viewers.map((v) => listed(spotAt(town, v.spot))),
    ...spec.men.map((m) => listed(spotAt(town, m.spot))),
  ]);
  return { town, viewers, everyone: [...viewers, ...men] };
}

/** Applies one change; a refusal the app would answer with (too soon, impossible jump) changes nothing. */
export async function applyOp(db: Db, bus: Bus, clock: ReturnType<typeof fixedClock>, w: World, op: Op): Promise<void> {
  const pick = (i: number) => w.everyone[i % w.everyone.length]!;
  const locations = new LocationService({ db, clock, bus });
  const now = clock.now();
  try {
    switch (op.kind) {
      case 'move':
        clock.advance(10 * 60_000);
        await locations.update(pick(op.who), spotAt(w.town, op.spot));
        return;
      case 'stop':
        await locations.stop(pick(op.who));
        return;
      case 'block':
        if (pick(op.a) !== pick(op.b)) await block(db, pick(op.a), pick(op.b)).catch(() => undefined);
        return;
      case 'profile':
        await db
          .updateTable('users')
          .set({ age: op.age, photo_url: op.photo ? `/files/photos/${pick(op.who)}/b.webp` : null, is_online: op.online })
          .where('id', '=', pick(op.who))
          .execute();
        await db
          .updateTable('user_settings')
          .set({ show_online_status: op.showOnline })
          .where('user_id', '=', pick(op.who))
          .execute();
        return;
      case 'visibility':
        await db
          .updateTable('users')
          .set({ mode_visibility: JSON.stringify({ showInDating: op.inDating, showInNow: op.inNow }) })
          .where('id', '=', pick(op.who))
          .execute();
        await db
          .updateTable('user_settings')
          .set({
            incognito_mode: op.incognito,
            profile_visibility: op.hidden ? 'matches' : 'public',
            share_location_enabled: op.sharing,
          })
          .where('user_id', '=', pick(op.who))
          .execute();
        return;
      case 'mode':
        await db.updateTable('users').set({ current_mode: op.mode }).where('id', '=', pick(op.who)).execute();
        return;
      case 'byArea': {
        const actor = await loadActor(db, pick(op.who));
        await setTier(db, pick(op.who), 'platinum');
        const settings = new SettingsService({ db, clock, bus });
        await settings.update({ ...actor!, tier: 'platinum' }, { safety: { locationSafety: { hideExactLocation: op.on } } });
        return;
      }
      case 'unlock':
        if (pick(op.viewer) !== pick(op.who)) await unlockProfile(db, pick(op.viewer), pick(op.who), now).catch(() => undefined);
        return;
      case 'tier':
        await setTier(db, pick(op.viewer), op.tier);
        return;
      case 'days':
        clock.advance(op.days * 86_400_000);
        return;
      case 'boost':
        await db
          .insertInto('boosts')
          .values({
            id: randomUUID(),
            user_id: pick(op.who),
            source: 'included',
            started_at: now,
            ends_at: new Date(now.getTime() + op.minutes * 60_000),
          })
          .execute();
        return;
      case 'pair':
        // A pair that exists already is refused by its unique key: nothing changes.
        if (pick(op.a) !== pick(op.b)) await pair(db, pick(op.a), pick(op.b), op.table, now).catch(() => undefined);
        return;
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
}
