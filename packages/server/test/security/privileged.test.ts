import { describe, expect, it, vi } from 'vitest';
import { setTier, signUpMember } from '../factories.ts';
import { DB_KINDS, useTestApp } from '../harness.ts';
import { MEMBER_ROUTES } from './member-routes.ts';
import { apiRoutes, exampleOf, fill } from './routes.ts';
import { recordScore } from './scoreboard.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 600_000 });

/** Fields a member must never set for himself, in the spellings a client might try. */
function privilegedFields(otherId: string): Record<string, unknown> {
  return {
    role: 'owner',
    isAdmin: true,
    permissions: ['users.ban'],
    tier: 'platinum',
    subscriptionTier: 'platinum',
    subscription_tier: 'platinum',
    isPremium: true,
    hasLifetimePremium: true,
    isBetaUser: true,
    banned: false,
    isBanned: false,
    isActive: true,
    verified: true,
    isVerified: true,
    emailVerified: true,
    phoneVerified: true,
    anonymousId: 'chosen-by-me',
    lat: 1.2345,
    lng: 1.2345,
    location: { lat: 1.2345, lng: 1.2345 },
    userId: otherId,
    uid: otherId,
    ownerId: otherId,
  };
}

/**
 * Privileged fields sent on write: every member write route gets a body that passes validation
 * plus the fields above (those the route itself takes, such as lat on PUT /me/location, left out),
 * and afterwards the member's tier, role, verification, anonymous id and position are what they were.
 */
describe.each(DB_KINDS)('privileged fields on write on %s', (kind) => {
  const t = useTestApp(kind);

  it('are ignored or refused on every member write route', async () => {
    const m = await signUpMember(t().app, t().db);
    await setTier(t().db, m.user.uid, 'free');
    const other = await signUpMember(t().app, t().db);
    const state = async () => ({
      user: await t()
        .db.selectFrom('users')
        .select([
          'subscription_tier',
          'has_lifetime_premium',
          'is_beta_user',
          'is_active',
          'email',
          'email_verified_at',
          'phone_verified_at',
          'anonymous_id',
        ])
        .where('id', '=', m.user.uid)
        .executeTakeFirst(),
      staff: await t().db.selectFrom('admin_users').select('role').where('user_id', '=', m.user.uid).execute(),
      location: await t().db.selectFrom('user_locations').select(['lat', 'lng']).where('user_id', '=', m.user.uid).execute(),
      subscriptions: await t().db.selectFrom('subscriptions').select('id').where('user_id', '=', m.user.uid).execute(),
    });
    const before = await state();
    const writes = apiRoutes(t().app).filter(
      (r) =>
        r.method !== 'GET' &&
        r.method !== 'DELETE' &&
        !r.multipart &&
        MEMBER_ROUTES[r.key] !== undefined &&
        MEMBER_ROUTES[r.key] !== 'open' &&
        MEMBER_ROUTES[r.key] !== 'provider' &&
        !['POST /auth/logout', 'POST /auth/sessions/sign-out-others', 'POST /account/delete'].includes(r.key),
    );
    const taken: string[] = [];
    let sent = 0;
    for (const r of writes) {
      const own = new Set(Object.keys(r.body?.properties ?? {}));
      const extra = Object.fromEntries(Object.entries(privilegedFields(other.user.uid)).filter(([k]) => !own.has(k)));
      const base = (exampleOf(r.body ?? undefined) as Record<string, unknown> | null) ?? {};
      const res = await t().app.inject({
        method: r.method,
        url: fill(r, ['00000000-0000-4000-8000-00000000beef']),
        headers: m.headers,
        payload: { ...base, ...extra },
      });
      sent += Object.keys(extra).length;
      if (res.statusCode >= 500) taken.push(`${r.key}: ${res.statusCode}`);
      const now = await state();
      if (JSON.stringify(now) !== JSON.stringify(before)) {
        taken.push(`${r.key}: ${JSON.stringify(before)} -> ${JSON.stringify(now)}`);
        break;
      }
    }
    recordScore({
      id: '03-privileged',
      db: kind,
      measure: 'Privileged fields (role, tier, banned, verified, anonymous id, location, owner) sent on every member write',
      figure: `${taken.length} taken of ${sent} sent on ${writes.length} routes`,
      goal: '0',
      pass: taken.length === 0,
    });
    expect(writes.length).toBeGreaterThan(40);
    expect(taken).toEqual([]);
  });
});
