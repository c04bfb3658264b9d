import { fixedClock, type GridPage, type GridQuery, snap } from '@fmk/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyOp, buildWorld, opArb, worldArb } from '../../../test/grid-world.ts';
import { DB_KINDS, openTestDatabase } from '../../../test/harness.ts';
import type { Database } from '../../db/index.ts';
import { loadActor } from '../../platform/access.ts';
import { type Bus, LocalBus, PgBus } from '../../platform/bus.ts';
import { AppError } from '../../platform/errors.ts';
import { CandidateCache } from './candidates.ts';
import { CursorSealer } from './cursor.ts';
import { GridMemory } from './memory.ts';
import { GridService } from './service.ts';

/**
 * The grid served from per-cell candidate lists returns exactly what the plain walk returns:
 * every page, in order, with the same opens, locks and (sealed) cursors, on random small worlds
 * after random changes. Lists of three sizes run side by side: the app's own, and tiny ones
 * that must grow, get cut at their ceiling (the plain walk then serves) and be evicted. The rules in
 * memory (memory.ts) run over two of them, one of them holding at most three men and one viewer;
 * the changes are written straight to the tables too, so only the change log can tell memory.
 */
const RUNS = Number(process.env.GRID_PROPERTY_RUNS ?? 25);
const SECRET = 'grid property test secret';

const queryArb: fc.Arbitrary<GridQuery> = fc.record(
  {
    limit: fc.integer({ min: 1, max: 7 }),
    maxDistance: fc.constantFrom(1, 3, 10, 50, 200, 500),
    ageMin: fc.integer({ min: 18, max: 45 }),
    ageMax: fc.integer({ min: 30, max: 99 }),
    onlineOnly: fc.boolean(),
    withPhotos: fc.boolean(),
  },
  { requiredKeys: ['limit'] },
);

describe.each(DB_KINDS)('grid candidate lists on %s', (kind) => {
  let database: Database;
  let bus: Bus;
  const clock = fixedClock('2026-06-01T12:00:00Z');
  const sealer = new CursorSealer(SECRET);
  const caches = [
    new CandidateCache(),
    new CandidateCache({ firstList: 2, maxList: 8, maxEntries: 24 }),
    new CandidateCache({ firstList: 3, maxList: 200, maxEntries: 400 }),
  ];
  const memories = [new GridMemory(), new GridMemory({ profiles: 3, viewers: 1 })];
  let plain: GridService;
  let listed: GridService[];
  const seen = { pages: 0, items: 0, refusals: 0 };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    bus =
      kind === 'postgres' ? await PgBus.create({ url: database.url!, schema: database.schema, db: database.db }) : new LocalBus();
    for (const c of caches) c.listen(bus);
    const deps = { db: database.db, clock };
    plain = new GridService(deps, SECRET);
    listed = [
      ...caches.map((c) => new GridService(deps, SECRET, c)),
      new GridService(deps, SECRET, caches[0], memories[0]),
      new GridService(deps, SECRET, caches[2], memories[1]),
    ];
  }, 300_000);

  afterAll(async () => {
    for (const c of caches) c.close();
    await bus?.close();
    await database?.close();
  });

  /** Every page of the viewer's grid for this query, cursors opened (they are sealed with a random iv). */
  async function pages(grid: GridService, viewerId: string, q: GridQuery): Promise<unknown[]> {
    const out: unknown[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 40; i++) {
      let page: GridPage;
      try {
        // As the route asks: the services with memory hold the actor too.
        page = await grid.pageFor(viewerId, cursor ? { ...q, cursor } : q, async () => (await loadActor(database.db, viewerId))!);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        out.push({ refused: err.status, message: err.message });
        return out;
      }
      out.push({ ...page, nextCursor: page.nextCursor ? sealer.open(page.nextCursor, viewerId) : null });
      if (!page.nextCursor) return out;
      cursor = page.nextCursor;
    }
    return out;
  }

  async function same(viewerId: string, q: GridQuery): Promise<void> {
    const expected = await pages(plain, viewerId, q);
    for (const [i, grid] of listed.entries()) {
      expect(await pages(grid, viewerId, q), `lists #${i}, viewer ${viewerId}, ${JSON.stringify(q)}`).toEqual(expected);
    }
    for (const p of expected as Array<{ items?: unknown[] }>) {
      seen.pages += 1;
      if (p.items) seen.items += p.items.length;
      else seen.refusals += 1;
    }
  }

  it('returns exactly the plain walk on random worlds after random changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        worldArb,
        fc.array(fc.tuple(opArb, fc.nat(), queryArb), { minLength: 1, maxLength: 8 }),
        async (spec, steps) => {
          const world = await buildWorld(database.db, bus, spec, clock.now());
          const viewerOf = (i: number) => world.viewers[i % world.viewers.length]!;
          // Every viewer first, with his own preferences: the lists are filled before the changes.
          for (const v of world.viewers) await same(v, { limit: 4 });
          for (const [op, viewer, q] of steps) {
            await applyOp(database.db, bus, clock, world, op);
            await same(viewerOf(viewer), q);
          }
        },
      ),
      { numRuns: RUNS },
    );
    // Not vacuous: pages were compared, most of them with men on them.
    expect(seen.pages).toBeGreaterThan(RUNS * 2);
    expect(seen.items).toBeGreaterThan(RUNS * 4);
    // And memory served them: it holds men and viewers (the small one no more than its limits).
    expect(memories[0]!.stats().profiles).toBeGreaterThan(0);
    expect(memories[0]!.stats().viewers).toBeGreaterThan(0);
    expect(memories[0]!.stats().actors).toBeGreaterThan(0);
    expect(memories[1]!.stats().profiles).toBeLessThanOrEqual(3);
    expect(memories[1]!.stats().viewers).toBeLessThanOrEqual(1);
  }, 1_200_000);

  it('drops a list when someone moves into its reach, and not when he moves far from it', async () => {
    const world = await buildWorld(
      database.db,
      bus,
      { men: [{ spot: 0, age: 30, online: true, photo: true }], viewers: [{ spot: 0, tier: 'platinum', maxDistance: 500 }] },
      clock.now(),
    );
    const cache = new CandidateCache({ firstList: 1, maxList: 1 });
    cache.listen(bus);
    try {
      const grid = new GridService({ db: database.db, clock }, SECRET, cache);
      const viewer = world.viewers[0]!;
      const first = await grid.page((await loadActor(database.db, viewer))!, { limit: 1 });
      expect(first.items).toHaveLength(1);
      expect(cache.stats()).toEqual({ lists: 1, entries: 1 });
      // 8,000 km away: beyond the one-entry list's reach.
      cache.invalidate([{ lat: world.town.lat > 0 ? world.town.lat - 70 : world.town.lat + 70, lng: world.town.lng }]);
      expect(cache.stats().lists).toBe(1);
      cache.invalidate([snap(world.town)]);
      expect(cache.stats().lists).toBe(0);
    } finally {
      cache.close();
    }
  });
});
