import type { LatLng } from '@fmk/core';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/index.ts';
import { type PlacedUser, placeUser } from './discovery.ts';
import { PASSWORD, setTier, signUp } from './factories.ts';

type Headers = Record<string, string>;

/** A signed-up user with a complete profile, consent and a shared location, on `tier`. */
export async function locatedUser(
  app: FastifyInstance,
  db: Db,
  at: LatLng,
  tier: 'free' | 'premium' | 'platinum' = 'free',
): Promise<{ id: string; email: string; headers: Headers }> {
  const u = await signUp(app);
  await setTier(db, u.user.uid, tier);
  await db.updateTable('users').set({ onboarding_complete: true, display_name: 'Me' }).where('id', '=', u.user.uid).execute();
  const consent = await app.inject({
    method: 'PUT',
    url: '/api/v1/me/location/consent',
    headers: u.headers,
    payload: { consent: true },
  });
  if (consent.statusCode !== 204) throw new Error(`consent: ${consent.body}`);
  const put = await app.inject({ method: 'PUT', url: '/api/v1/me/location', headers: u.headers, payload: at });
  if (put.statusCode !== 204) throw new Error(`location: ${put.body}`);
  return { id: u.user.uid, email: u.user.email, headers: u.headers };
}

/** Signs the user in again (after the clock moved past his access token's life); mutates `u.headers`. */
export async function signInAgain(app: FastifyInstance, u: { email: string; headers: Headers }): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: u.email, password: PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`login: ${res.body}`);
  u.headers.authorization = `Bearer ${(res.json() as { token: string }).token}`;
}

/**
 * A cruiser written straight to the tables (like placeUser): now mode, location in now mode,
 * and a session (by default one started `now`; none when null).
 */
export async function placeCruiser(
  db: Db,
  u: PlacedUser & { session?: { startedAt: Date; endedAt?: Date | null } | null; precision?: 'exact' | 'approximate' },
  now: Date,
): Promise<string> {
  await placeUser(db, { currentMode: 'now', ...u }, now);
  const mode = u.currentMode ?? 'now';
  await db.updateTable('user_locations').set({ mode }).where('user_id', '=', u.id).execute();
  if (u.precision)
    await db.updateTable('user_settings').set({ location_precision: u.precision }).where('user_id', '=', u.id).execute();
  const session = u.session === undefined ? { startedAt: now } : u.session;
  if (session) {
    await db
      .insertInto('cruise_sessions')
      .values({
        id: `s-${u.id}`,
        user_id: u.id,
        started_at: session.startedAt,
        ends_at: new Date(session.startedAt.getTime() + 30 * 60_000),
        ended_at: session.endedAt ?? null,
      })
      .execute();
  }
  return u.id;
}
