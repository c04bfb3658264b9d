import { describe, expect, it } from 'vitest';
import { useTestApp } from './harness.ts';

/**
 * Every route of Fastify's route list, asked anonymously with a body, a query and parameters that
 * are all wrong: a route that needs a signed-in user must answer 401 before it reads any of them
 * (no field errors, which would teach an anonymous caller the route's schema). A route open to
 * anonymous callers is listed here with the reason, so a new open route is a decision, not an accident.
 */
const OPEN: Record<string, string> = {
  'GET /api/health': 'liveness, for the load balancer',
  'POST /api/v1/auth/signup': 'creates the account',
  'POST /api/v1/auth/login': 'signs in',
  'GET /api/v1/auth/google/start': 'starts Google sign-in',
  'GET /api/v1/auth/google/callback': "Google's redirect back",
  'POST /api/v1/auth/redirect-result': 'redeems the one-time code of a redirect sign-in',
  'POST /api/v1/auth/verify': 'the link from the confirmation email (its token is the credential)',
  'POST /api/v1/auth/password/forgot': 'asks for a reset link by email',
  'POST /api/v1/auth/password/reset': 'the link from the reset email (its token is the credential)',
  'POST /api/v1/admin/login': "staff sign-in's first step",
  'POST /api/v1/admin/login/verify': "staff sign-in's second factor",
  'GET /api/v1/admin/invites/:token': 'a staff invitation link (its token is the credential)',
  'POST /api/v1/admin/invites/accept': 'accepts a staff invitation (its token is the credential)',
  'GET /api/v1/config': 'the public configuration the sign-in screen reads',
  'GET /api/v1/plans': 'the plans on sale and their prices, shown before anyone pays',
  'POST /api/v1/billing/webhooks': "the payment provider's signed webhooks",
  'GET /api/v1/messages/photos/:id':
    'a chat photo on its signed URL (an <img> cannot send the token; the signature names a member)',
  'GET /api/v1/live': 'the WebSocket authenticates with its first frame (browsers cannot set headers)',
};

const WRONG_BODY = { email: 5, password: [], text: {}, id: 'not an id', __proto__x: 1, amount: 'lots', nested: { a: [[[]]] } };
const WRONG_QUERY = 'limit=-5&cursor=%00&page=abc&lat=north&lng=999&mode=nope';

describe('anonymous requests', () => {
  // Routes and their hooks do not depend on the database: PGlite alone.
  const t = useTestApp('pglite');

  it('are answered 401 without field errors on every route that is not open', async () => {
    const routes = t().app.routeList.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD' && r.method !== 'OPTIONS',
    );
    expect(routes.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    const open: string[] = [];
    for (const r of routes) {
      const key = `${r.method} ${r.url}`;
      if (key in OPEN) {
        open.push(key);
        continue;
      }
      const url = `${r.url.replace(/:\w+/g, 'x%20y').replace('*', 'x')}?${WRONG_QUERY}`;
      const withBody = r.method !== 'GET' && r.method !== 'DELETE';
      const res = await t().app.inject({ method: r.method as 'GET', url, ...(withBody ? { payload: WRONG_BODY } : {}) });
      const body = String(res.headers['content-type']).includes('json') ? (res.json() as { fields?: unknown }) : {};
      if (res.statusCode !== 401 || body.fields !== undefined) wrong.push(`${key} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    // A reason for a route that is gone is a stale one.
    expect(Object.keys(OPEN).filter((k) => !open.includes(k))).toEqual([]);
  });
});
