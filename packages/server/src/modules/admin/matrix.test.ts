import { ADMIN_ROUTES, type AdminRouteNeed, type Permission, STAFF_ROLES, staffHas } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { makeStaff, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

const PREFIX = '/api/v1';

/**
 * The (route × role) matrix: every /admin route Fastify has is in core's
 * ADMIN_ROUTES, and each answers each role exactly as `staffCan` says, refusals first, before
 * the body is looked at. A member's session is never enough, and no one outside the staff passes.
 */
describe.each(DB_KINDS)('the admin route matrix on %s', (kind) => {
  const t = useTestApp(kind);

  function adminRoutes(): string[] {
    const paths = t().app.swagger().paths ?? {};
    return Object.entries(paths).flatMap(([path, item]) =>
      path.startsWith(`${PREFIX}/admin`)
        ? Object.keys(item ?? {})
            .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
            .map((m) => `${m.toUpperCase()} ${path.slice(PREFIX.length).replace(/\{(\w+)\}/g, ':$1')}`)
        : [],
    );
  }

  it('has every /admin route in the table, and nothing in the table that is not a route', () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => !(r in ADMIN_ROUTES))).toEqual([]);
    expect(Object.keys(ADMIN_ROUTES).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('answers every route for every role as core’s permission check says', async () => {
    const now = t().clock.now();
    const staff = await Promise.all(
      STAFF_ROLES.map(async (role) => ({ role, u: await signUpStaff(t().app, t().db, role, now) })),
    );
    const member = await signUp(t().app);
    const inactive = await signUp(t().app);
    await makeStaff(t().db, inactive.user.uid, 'owner', false);
    // Sign-out last: it ends the session the rest use.
    const routes = adminRoutes().sort((a, b) => Number(a === 'POST /admin/logout') - Number(b === 'POST /admin/logout'));
    const call = (key: string, authorization?: string) => {
      const [method, path] = key.split(' ') as [string, string];
      const url = PREFIX + path.replace(/:(\w+)/g, 'x0000000000000000');
      return t().app.inject({
        method: method as 'GET',
        url,
        headers: authorization ? { authorization } : {},
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
    };
    let checked = 0;
    for (const key of routes) {
      const need = ADMIN_ROUTES[key as keyof typeof ADMIN_ROUTES] as AdminRouteNeed;
      if (need === 'open') {
        const res = await call(key);
        expect([401, 403], `${key} open`).not.toContain(res.statusCode);
        continue;
      }
      expect((await call(key)).statusCode, `${key} signed out`).toBe(401);
      expect((await call(key, member.headers.authorization)).statusCode, `${key} member`).toBe(403);
      expect((await call(key, inactive.headers.authorization)).statusCode, `${key} inactive staff`).toBe(403);
      for (const { role, u } of staff) {
        const allowed = need === 'staff' || staffHas({ role, isActive: true, permissions: null }, need as Permission);
        // A staff member's own member session never opens the admin area.
        const viaMember = await call(key, u.member.authorization);
        expect(viaMember.statusCode, `${key} ${role} member session`).toBe(allowed ? 401 : 403);
        const res = await call(key, u.staffHeaders.authorization);
        if (allowed) expect([401, 403], `${key} ${role}: ${res.body}`).not.toContain(res.statusCode);
        else expect(res.statusCode, `${key} ${role}`).toBe(403);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});
