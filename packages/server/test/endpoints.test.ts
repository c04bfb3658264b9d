import { describe, expect, it } from 'vitest';
import { endpoints } from '../../web/src/api/endpoints.ts';
import { useTestApp } from './harness.ts';

/**
 * The web app's endpoint table (packages/web/src/api/endpoints.ts) held to the server's routes,
 * both ways: every entry is a route with that method and path, and every documented route under
 * /api/v1 is in the table or listed here with the reason the web never calls it through the table.
 */
const NOT_IN_TABLE: Record<string, string> = {
  'GET /admin/audit/export': 'a CSV download, fetched as bytes (features/admin/AuditScreen)',
  'GET /admin/analytics/export': 'a CSV download, fetched as bytes (features/admin/AnalyticsScreen)',
  'GET /auth/check': 'the cheap token check, for the benchmark and other clients; the web asks /auth/session',
  'GET /auth/google/start': 'a page navigation to the provider (AuthScreen), not a fetch',
  'GET /auth/google/callback': 'the provider sends the browser here',
  'GET /me/private-data': 'a file download, fetched as bytes (features/health/privacy.ts)',
  'GET /account/export/:id/download': 'a zip download, fetched as bytes (features/account/queries.ts downloadExport)',
  'GET /activity/contacts/:id/photo': "bytes, fetched by apiBlob from the contact's photoURL",
  'GET /support/screenshots/:id': 'bytes, fetched by apiBlob for the report list (features/support)',
  'GET /reports/screenshots/:id': 'bytes, fetched with the token by the reporter and by the staff reports screen',
  'GET /messages/photos/:id': 'an <img> source: the signed URL a message carries',
  'GET /admin/moderation/items/:id/photo': 'bytes, fetched with the staff token by the photos queue (features/admin/StaffPhoto)',
  'GET /admin/messages/photos/:id':
    'bytes, fetched with the staff token for a reported photo message (features/admin/StaffPhoto)',
  'POST /billing/webhooks': "the payment provider's signed webhooks, never the web app",
};

const PREFIX = '/api/v1';

describe('the web endpoint table', () => {
  // Routes do not depend on the database: PGlite alone.
  const t = useTestApp('pglite');
  const table = Object.keys(endpoints);

  /** Every documented route under /api/v1 as 'METHOD /path/:param' (the docs write {param}). */
  function documentedRoutes(): string[] {
    const paths = t().app.swagger().paths ?? {};
    return Object.entries(paths).flatMap(([path, item]) =>
      path.startsWith(`${PREFIX}/`)
        ? Object.keys(item ?? {})
            .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
            .map((m) => `${m.toUpperCase()} ${path.slice(PREFIX.length).replace(/\{(\w+)\}/g, ':$1')}`)
        : [],
    );
  }

  it('names only routes the server has, with their method and parameter names', () => {
    // hasRoute also sees undocumented routes but takes any parameter names; the docs hold the names.
    const documented = new Set(documentedRoutes());
    const missing = table.filter((key) => {
      const [method, path] = key.split(' ') as [string, string];
      const url = `${PREFIX}${path}`;
      return !t().app.hasRoute({ method: method as 'GET', url }) || !documented.has(key);
    });
    expect(missing).toEqual([]);
  });

  it('covers every route the server documents, or says why the web does not call it', () => {
    const inTable = new Set(table);
    const documented = documentedRoutes();
    expect(documented.length).toBeGreaterThan(80);
    expect(documented.filter((r) => !inTable.has(r) && !(r in NOT_IN_TABLE))).toEqual([]);
    // A reason for a route that has gone, or that the table now has, is a stale one.
    expect(Object.keys(NOT_IN_TABLE).filter((r) => !documented.includes(r) || inTable.has(r))).toEqual([]);
  });
});
