import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('platform on %s', (kind) => {
  const t = useTestApp(kind);

  it('answers /api/health with the database kind', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: kind });
  });

  it('serves OpenAPI JSON at /api/docs/json', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health']).toBeDefined();
  });

  it('sends the security headers on every answer, errors included: the REST set on the API, the page set elsewhere', async () => {
    for (const url of ['/api/health', '/api/v1/nope', '/api/v1/auth/check']) {
      const res = await t().app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    for (const url of ['/', '/grid', '/files/nope.webp', '/api/docs']) {
      const res = await t().app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('answers unknown API paths with a JSON 404, not the web app', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  });
});
