import { ADMIN_ROUTES } from '@fmk/core';
import { describe, expect, it, vi } from 'vitest';
import { finishOnboarding, setTier, signUp } from '../factories.ts';
import { DB_KINDS, useTestApp } from '../harness.ts';
import { MEMBER_ROUTES, type RouteAccess } from './member-routes.ts';
import { apiRoutes, exampleOf, fill, type RouteInfo } from './routes.ts';
import { recordScore } from './scoreboard.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 600_000 });

type Role = 'anonymous' | 'incomplete' | 'free' | 'premium' | 'platinum';
const ROLES: Role[] = ['anonymous', 'incomplete', 'free', 'premium', 'platinum'];

/** Whether `role` may call a route of `access` (the declared matrix). */
function allowed(access: RouteAccess, role: Role): boolean {
  switch (access) {
    case 'open':
      return true;
    case 'provider':
      return false;
    case 'own':
      return role !== 'anonymous';
    case 'social':
      return role !== 'anonymous' && role !== 'incomplete';
    case 'platinum':
      return role === 'platinum';
  }
}

/** Codes of a refusal because of who the caller is (not of what he asked). */
const ROLE_REFUSALS = new Set(['profile_incomplete', 'limit_reached']);

// Routes that end the caller's session or account go last, so the rest run signed in.
const ENDS_SESSION = [
  'POST /auth/sessions/sign-out-others',
  'DELETE /auth/sessions/:id',
  'POST /account/delete',
  'POST /auth/logout',
];

/**
 * The member half of the authorization matrix: every route Fastify has × every member role, each
 * answered as MEMBER_ROUTES declares (refused: 401 for no session, 403 with a role code for an
 * incomplete profile or a lower tier; allowed: anything but those). Staff routes are ADMIN_ROUTES'
 * and the admin matrix's; a route in neither table fails here.
 */
describe.each(DB_KINDS)('the authorization matrix on %s', (kind) => {
  const t = useTestApp(kind);

  it('answers every route for every role as declared, and every route is declared', async () => {
    const routes = apiRoutes(t().app);
    const undeclared = routes.filter((r) => !(r.key in MEMBER_ROUTES) && !(r.key in ADMIN_ROUTES));
    const stale = Object.keys(MEMBER_ROUTES).filter((k) => !routes.some((r) => r.key === k));

    const member = async (tier: 'free' | 'premium' | 'platinum') => {
      const u = await signUp(t().app);
      await finishOnboarding(t().db, u.user.uid);
      await setTier(t().db, u.user.uid, tier);
      return u.headers;
    };
    const headers: Record<Role, Record<string, string>> = {
      anonymous: {},
      incomplete: (await signUp(t().app)).headers,
      free: await member('free'),
      premium: await member('premium'),
      platinum: await member('platinum'),
    };
    const call = (r: RouteInfo, h: Record<string, string>) =>
      t().app.inject({
        method: r.method,
        url: fill(r, ['00000000-0000-4000-8000-00000000beef']),
        headers: h,
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: (exampleOf(r.body ?? undefined) as object) ?? {} }),
      });

    const noSession = (await t().app.inject({ method: 'GET', url: '/api/v1/me' })).json().message as string;
    const memberRoutes = routes
      .filter((r) => r.key in MEMBER_ROUTES)
      .sort((a, b) => ENDS_SESSION.indexOf(a.key) - ENDS_SESSION.indexOf(b.key));
    const wrong: string[] = [];
    let cells = 0;
    for (const r of memberRoutes) {
      const access = MEMBER_ROUTES[r.key] as RouteAccess;
      for (const role of ROLES) {
        const res = await call(r, headers[role]);
        const body = (() => {
          try {
            return res.json() as { error?: string; message?: string };
          } catch {
            return {};
          }
        })();
        const refused =
          (res.statusCode === 401 && body.message === noSession) ||
          (res.statusCode === 403 && ROLE_REFUSALS.has(body.error ?? ''));
        const expected = allowed(access, role);
        // An allowed call may still fail for what it asked (400, 404, 409...): only a refusal of the caller counts.
        // A refused caller must learn nothing: no session is answered 401 before the body is read; a
        // signed-in member below the route's need may hear his body is wrong, but never succeeds.
        const ok = expected
          ? !refused
          : access === 'provider'
            ? res.statusCode >= 400
            : role === 'anonymous'
              ? res.statusCode === 401
              : refused || (res.statusCode >= 400 && res.statusCode !== 401);
        if (!ok) {
          wrong.push(
            `${r.key} as ${role}: ${res.statusCode} ${res.body.slice(0, 120)} (expected ${expected ? 'allowed' : 'refused'})`,
          );
        }
        if (res.statusCode >= 500) wrong.push(`${r.key} as ${role}: ${res.statusCode}`);
        cells += 1;
      }
    }
    const covered = routes.length - undeclared.length;
    recordScore({
      id: '01-matrix',
      db: kind,
      measure:
        'Authorization matrix: routes × roles (anonymous, incomplete, free, premium, platinum; staff roles in the admin matrix)',
      figure: `${covered} / ${routes.length} routes covered (${((100 * covered) / routes.length).toFixed(1)} %), ${cells} member cells, ${wrong.length} wrong`,
      goal: '100 %, 0 wrong',
      pass: undeclared.length === 0 && wrong.length === 0,
    });
    expect(undeclared.map((r) => r.key)).toEqual([]);
    expect(stale).toEqual([]);
    expect(wrong).toEqual([]);
  });
});
