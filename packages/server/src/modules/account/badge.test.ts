import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Conversation, GridPage, LatLng, LikesPage, Match, Me, PublicProfile } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { east, setPreferences } from '../../../test/discovery.ts';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { loadActor } from '../../platform/access.ts';

const HERE: LatLng = { lat: 48.8566, lng: 2.3522 };
const PHONE = '+33612345678';

describe.each(DB_KINDS)('the verified badge, seen by another man on %s', (kind) => {
  const t = useTestApp(kind);
  const get = async <T>(url: string, headers: Record<string, string>): Promise<T> => {
    const res = await t().app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    expect(res.statusCode).toBe(200);
    return res.json() as T;
  };
  /** A member sharing his location at `at`. */
  async function member(at: LatLng) {
    const m = await signUpMember(t().app, t().db);
    await setTier(t().db, m.user.uid, 'platinum');
    await setPreferences(t().db, m.user.uid, { units: 'metric' });
    const consent = {
      method: 'PUT' as const,
      url: '/api/v1/me/location/consent',
      headers: m.headers,
      payload: { consent: true },
    };
    expect((await t().app.inject(consent)).statusCode).toBe(204);
    const loc = await t().app.inject({ method: 'PUT', url: '/api/v1/me/location', headers: m.headers, payload: at });
    expect(loc.statusCode).toBe(204);
    return m;
  }
  async function verifyPhone(headers: Record<string, string>, phone: string) {
    expect((await t().app.inject({ method: 'POST', url: '/api/v1/me/phone', headers, payload: { phone } })).statusCode).toBe(200);
    const sms = t().config.sms;
    if (sms.kind !== 'outbox') throw new Error('tests text to the outbox');
    const newest = readdirSync(sms.outboxDir).sort().at(-1) ?? '';
    const code = /^(\d{6})/.exec(
      (JSON.parse(readFileSync(path.join(sms.outboxDir, newest), 'utf8')) as { body: string }).body,
    )?.[1];
    const res = await t().app.inject({ method: 'POST', url: '/api/v1/me/phone/verify', headers, payload: { code } });
    expect(res.json()).toMatchObject({ verified: true });
  }

  it('shows on his grid cell and his profile, never with the number; and on his own record', async () => {
    const verified = await member(east(HERE, 2));
    const plain = await member(east(HERE, 4));
    const viewer = await member(HERE);
    await verifyPhone(verified.headers, PHONE);

    const grid = await get<GridPage>('/grid', viewer.headers);
    const cells = new Map(grid.items.map((c) => [c.uid, c]));
    expect(cells.get(verified.user.uid)?.verified).toBe(true);
    expect(cells.get(plain.user.uid)?.verified).toBe(false);

    const profile = await get<PublicProfile>(`/users/${verified.user.uid}`, viewer.headers);
    expect(profile.verified).toBe(true);
    expect((await get<PublicProfile>(`/users/${plain.user.uid}`, viewer.headers)).verified).toBe(false);

    // The number is his alone: in no answer about him to another man.
    const digits = PHONE.slice(1);
    for (const url of ['/grid', `/users/${verified.user.uid}`]) {
      const res = await t().app.inject({ method: 'GET', url: `/api/v1${url}`, headers: viewer.headers });
      expect(res.body).not.toContain(digits);
    }
    expect((await get<Me>('/me', verified.headers)).verified).toBe(true);
    expect((await get<PublicProfile>(`/users/${verified.user.uid}`, verified.headers)).verified).toBe(true);

    // The access rules see the same: the actor core's can() is asked about is verified.
    expect((await loadActor(t().db, verified.user.uid))?.verified).toBe(true);
    expect((await loadActor(t().db, plain.user.uid))?.verified).toBe(false);

    // Removing the number takes the badge away.
    await t().app.inject({ method: 'DELETE', url: '/api/v1/me/phone', headers: verified.headers });
    expect((await get<PublicProfile>(`/users/${verified.user.uid}`, viewer.headers)).verified).toBe(false);
    expect((await loadActor(t().db, verified.user.uid))?.verified).toBe(false);
  });

  it('shows on the match card and the conversation list of the man he matched', async () => {
    const verified = await member(east(HERE, 1));
    const partner = await member(east(HERE, 3));
    await verifyPhone(verified.headers, '+33698765432');
    for (const [from, to] of [
      [verified, partner],
      [partner, verified],
    ] as const) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/v1/selections',
        headers: from.headers,
        payload: { targetId: to.user.uid, action: 'fuck', super: false, clientId: randomUUID() },
      });
      expect(res.statusCode).toBe(200);
    }
    const [match] = await get<Match[]>('/matches', partner.headers);
    expect(match?.other).toMatchObject({ uid: verified.user.uid, verified: true });
    const [mine] = await get<Match[]>('/matches', verified.headers);
    expect(mine?.other).toMatchObject({ uid: partner.user.uid, verified: false });
    const conversations = await get<Conversation[]>('/conversations', partner.headers);
    expect(conversations.find((c) => c.other.uid === verified.user.uid)?.other.verified).toBe(true);
  });

  it('shows on his card in the likes of the man he picked (a tier that sees who likes him)', async () => {
    const verified = await member(east(HERE, 1));
    const liked = await member(east(HERE, 2));
    await verifyPhone(verified.headers, '+33611223344');
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers: verified.headers,
      payload: { targetId: liked.user.uid, action: 'marry', super: false, clientId: randomUUID() },
    });
    expect(res.statusCode).toBe(200);
    const likes = await get<LikesPage>('/likes', liked.headers);
    expect(likes.items.map((i) => [i.user?.uid, i.user?.verified])).toEqual([[verified.user.uid, true]]);
    expect(JSON.stringify(likes)).not.toContain('611223344');
  });
});
