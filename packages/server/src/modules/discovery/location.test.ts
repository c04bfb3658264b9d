import { cellOf, snap } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
const SF = { lat: 37.77493, lng: -122.41942 };

describe.each(DB_KINDS)('PUT /me/location on %s', (kind) => {
  const t = useTestApp(kind);
  const put = (headers: Headers, payload: unknown) =>
    t().app.inject({ method: 'PUT', url: '/api/v1/me/location', headers, payload: payload as object });
  const consent = (headers: Headers, value: boolean) =>
    t().app.inject({ method: 'PUT', url: '/api/v1/me/location/consent', headers, payload: { consent: value } });
  const stored = (userId: string) =>
    t().db.selectFrom('user_locations').selectAll().where('user_id', '=', userId).executeTakeFirst();

  async function sharingUser() {
    const u = await signUp(t().app);
    expect((await consent(u.headers, true)).statusCode).toBe(204);
    return u;
  }

  it("answers 'User not authenticated' without a session, before looking at the body", async () => {
    for (const req of [
      { method: 'PUT' as const, url: '/api/v1/me/location', payload: { lat: 'x' } },
      { method: 'PUT' as const, url: '/api/v1/me/location/consent', payload: { consent: true } },
      { method: 'DELETE' as const, url: '/api/v1/me/location' },
    ]) {
      const res = await t().app.inject({ ...req, headers: { authorization: 'Bearer nope' } });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('User not authenticated');
    }
  });

  it('refuses bad coordinates with core messages and writes nothing', async () => {
    const u = await sharingUser();
    const cases: [unknown, string][] = [
      [{ lat: 91, lng: 0 }, 'Latitude must be between -90 and 90.'],
      [{ lat: 0, lng: -180.5 }, 'Longitude must be between -180 and 180.'],
      [{ lat: 'north', lng: 0 }, 'Latitude must be a number.'],
      [{ lat: 10 }, 'Longitude must be a number.'],
    ];
    for (const [body, message] of cases) {
      const res = await put(u.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await stored(u.user.uid)).toBeUndefined();
  });

  it('needs consent (403, nothing stored); with it stores only the cell centre', async () => {
    const u = await signUp(t().app);
    const refused = await put(u.headers, SF);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Turn on location sharing to use your location.');
    expect(await stored(u.user.uid)).toBeUndefined();

    expect((await consent(u.headers, true)).statusCode).toBe(204);
    expect((await put(u.headers, SF)).statusCode).toBe(204);
    const row = await stored(u.user.uid);
    const centre = snap(SF);
    expect(row).toMatchObject({ lat: centre.lat, lng: centre.lng, is_active: true, mode: 'dating', flagged_at: null });
    expect({ row: row!.cell_row, col: row!.cell_col }).toEqual(cellOf(SF));
    expect(row!.lat).not.toBe(SF.lat);
  });

  it('rate-limits updates to one per 30 s (429, nothing changed)', async () => {
    const u = await sharingUser();
    expect((await put(u.headers, SF)).statusCode).toBe(204);
    const before = await stored(u.user.uid);
    t().clock.advance(29_000);
    const res = await put(u.headers, { lat: 37.8, lng: -122.45 });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe('You can update your location once every 30 seconds. Please wait a moment and try again.');
    expect(await stored(u.user.uid)).toEqual(before);
    t().clock.advance(1_000);
    expect((await put(u.headers, { lat: 37.8, lng: -122.45 })).statusCode).toBe(204);
    expect((await stored(u.user.uid))!.lat).toBe(snap({ lat: 37.8, lng: -122.45 }).lat);
  });

  it('flags an impossible jump (422), keeps the position, and accepts the same move once it is plausible', async () => {
    const u = await sharingUser();
    expect((await put(u.headers, SF)).statusCode).toBe(204);
    t().clock.advance(60_000);
    const SACRAMENTO = { lat: 38.5816, lng: -121.4944 };
    const res = await put(u.headers, SACRAMENTO);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('That location change is not possible so quickly.');
    const row = await stored(u.user.uid);
    expect(row).toMatchObject({ lat: snap(SF).lat, lng: snap(SF).lng, flag_reason: 'impossible_jump' });
    expect(row!.flagged_at).toEqual(t().clock.now());
    // ~120 km in 10 minutes is an airliner: plausible.
    t().clock.advance(10 * 60_000);
    expect((await put(u.headers, SACRAMENTO)).statusCode).toBe(204);
    expect((await stored(u.user.uid))!.lat).toBe(snap(SACRAMENTO).lat);
  });

  it("records the user's current mode", async () => {
    const u = await sharingUser();
    await t().db.updateTable('users').set({ current_mode: 'now' }).where('id', '=', u.user.uid).execute();
    expect((await put(u.headers, SF)).statusCode).toBe(204);
    expect((await stored(u.user.uid))!.mode).toBe('now');
  });

  it('stops sharing on DELETE and when consent is withdrawn; no update without consent', async () => {
    const u = await sharingUser();
    expect((await put(u.headers, SF)).statusCode).toBe(204);
    const del = await t().app.inject({ method: 'DELETE', url: '/api/v1/me/location', headers: u.headers });
    expect(del.statusCode).toBe(204);
    expect((await stored(u.user.uid))!.is_active).toBe(false);

    t().clock.advance(60_000);
    expect((await put(u.headers, SF)).statusCode).toBe(204);
    expect((await stored(u.user.uid))!.is_active).toBe(true);
    expect((await consent(u.headers, false)).statusCode).toBe(204);
    expect((await stored(u.user.uid))!.is_active).toBe(false);
    t().clock.advance(60_000);
    expect((await put(u.headers, SF)).statusCode).toBe(403);
    expect((await stored(u.user.uid))!.is_active).toBe(false);
    const bad = await t().app.inject({ method: 'PUT', url: '/api/v1/me/location/consent', headers: u.headers, payload: {} });
    expect(bad.statusCode).toBe(400);
  });
});
