import { fixedClock, type GridPage, gridPageSchema, type LatLng } from '@fmk/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { east } from '../../../test/discovery.ts';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, openTestDatabase, testConfig } from '../../../test/harness.ts';
import { createApp } from '../../app.ts';
import { type Database, openDatabase } from '../../db/index.ts';

/**
 * Two instances of the app on one PostgreSQL, each with its own grid candidate lists and its own
 * bus connection (LISTEN/NOTIFY): a move made through one shows in the other's grid within 2 s,
 * although the other had already listed that area (PGlite is one process: nothing to share).
 */
describe.each(DB_KINDS.filter((k) => k === 'postgres'))('grid lists across two instances on %s', (kind) => {
  const clock = fixedClock('2026-06-01T12:00:00Z');
  const config = testConfig();
  let first: Database;
  let second: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    first = await openTestDatabase(kind);
    second = await openDatabase({ databaseUrl: first.url, schema: first.schema! });
    a = await createApp({ config, database: first, clock, logger: false });
    b = await createApp({ config, database: second, clock, logger: false });
    await Promise.all([a.ready(), b.ready()]);
  }, 300_000);

  afterAll(async () => {
    await b?.close();
    await second?.close();
    await a?.close();
  });

  async function located(app: FastifyInstance, at: LatLng) {
    const m = await signUpMember(app, first.db);
    await setTier(first.db, m.user.uid, 'platinum');
    const consent = await app.inject({
      method: 'PUT',
      url: '/api/v1/me/location/consent',
      headers: m.headers,
      payload: { consent: true },
    });
    expect(consent.statusCode).toBe(204);
    const put = await app.inject({ method: 'PUT', url: '/api/v1/me/location', headers: m.headers, payload: at });
    expect(put.statusCode).toBe(204);
    return m;
  }

  const gridOf = async (app: FastifyInstance, headers: Record<string, string>): Promise<GridPage> => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/grid?maxDistance=20', headers });
    expect(res.statusCode, res.body).toBe(200);
    return gridPageSchema.parse(res.json());
  };

  it('shows a move made on one instance in the grid of the other within 2 s', async () => {
    const here = { lat: 48.85, lng: 2.35 };
    const neighbour = await located(b, east(here, 1));
    const viewer = await located(b, here);
    const mover = await located(a, east(here, 40));
    // The viewer's instance lists his cell now: the neighbour, not the mover (40 km away).
    expect((await gridOf(b, viewer.headers)).items.map((i) => i.uid)).toEqual([neighbour.user.uid]);

    // Long enough for a plausible 37 km move, short of the access token's lifetime.
    clock.advance(5 * 60_000);
    const moved = await a.inject({ method: 'PUT', url: '/api/v1/me/location', headers: mover.headers, payload: east(here, 3) });
    expect(moved.statusCode).toBe(204);
    const t0 = performance.now();
    let uids: string[] = [];
    while (performance.now() - t0 < 5000) {
      uids = (await gridOf(b, viewer.headers)).items.map((i) => i.uid);
      if (uids.includes(mover.user.uid)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const seenAfterMs = performance.now() - t0;
    expect(uids).toEqual([neighbour.user.uid, mover.user.uid]);
    expect(seenAfterMs).toBeLessThan(2000);

    // And away again, past 20 miles (the default units are imperial): gone from the other instance as quickly.
    clock.advance(5 * 60_000);
    const away = await a.inject({ method: 'PUT', url: '/api/v1/me/location', headers: mover.headers, payload: east(here, 39) });
    expect(away.statusCode).toBe(204);
    const t1 = performance.now();
    while (performance.now() - t1 < 5000) {
      uids = (await gridOf(b, viewer.headers)).items.map((i) => i.uid);
      if (!uids.includes(mover.user.uid)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(uids).toEqual([neighbour.user.uid]);
    expect(performance.now() - t1).toBeLessThan(2000);
  });
});
