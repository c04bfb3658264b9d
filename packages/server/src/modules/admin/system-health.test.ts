import { errorRatePercent, healthChecks, type SystemHealth } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { RequestMetrics } from '../../platform/metrics.ts';

describe.each(DB_KINDS)('system/health on %s', (kind) => {
  // Test-only routes, registered in this suite's app alone: one slower than the 1 s threshold, one that fails.
  const t = useTestApp(kind, {
    setup: (app) => {
      app.get('/api/v1/test-only/slow/:n', async () => {
        await new Promise((r) => setTimeout(r, 1050));
        return { ok: true };
      });
      app.get('/api/v1/test-only/boom', async () => {
        throw new Error('boom');
      });
    },
  });

  it('counts a call slower than 1 s under its route pattern and computes the 5xx share of all calls', async () => {
    const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const read = async () => {
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/admin/system/health', headers: owner.staffHeaders });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as SystemHealth;
    };
    const before = (await read()).requests;
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/test-only/slow/7' })).statusCode).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await t().app.inject({ method: 'GET', url: '/api/v1/test-only/boom' })).statusCode).toBe(500);
    const h = await read();
    // The health call before, the slow call, two failures (the health call itself is counted after it answers).
    expect(h.requests.total).toBe(before.total + 4);
    expect(h.requests.errors).toBe(before.errors + 2);
    // At least the slow route (on a loaded machine the health call may be slow too).
    expect(h.requests.slow).toBeGreaterThanOrEqual(before.slow + 1);
    const slow = h.requests.slowRoutes.find((r) => r.route === 'GET /api/v1/test-only/slow/:n');
    expect(slow).toMatchObject({ count: 1 });
    expect(slow!.maxMs).toBeGreaterThanOrEqual(1000);
    // Keyed by the route's pattern, not its URL: no key per id.
    expect(h.requests.slowRoutes.some((r) => r.route.includes('/slow/7'))).toBe(false);
    const checks = Object.fromEntries(healthChecks(h).map((c) => [c.key, c]));
    expect(checks.slow!.state).toBe('warn');
    // 2 failures of the calls in the window: above 5 % here, so red.
    expect(errorRatePercent(h.requests.total, h.requests.errors)).toBeGreaterThan(5);
    expect(checks.errors!.state).toBe('red');
    expect(h.database).toMatchObject({ kind, ok: true });
    expect(h.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(h.database.sizeMb === null || h.database.sizeMb > 0).toBe(true);
    if (kind === 'postgres') expect(h.database.connections).toBeGreaterThan(0);
    expect(h.memory.heapUsedMb).toBeGreaterThan(0);
    expect(h.memory.rssMb).toBeGreaterThanOrEqual(h.memory.heapUsedMb);
    expect(h.bus.connected).toBe(true);
    // The app's interval jobs (check-in sweep, billing renewals, ...) are listed once started.
    expect(h.jobs.map((j) => j.name)).toContain('check-in sweep');
  });

  it('is refused to staff without system_admin.view', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/admin/system/health', headers: mod.staffHeaders });
    expect(res.statusCode).toBe(403);
  });
});

describe('request metrics window', () => {
  it('forgets calls older than 15 minutes and ranks slow routes by their slowest call', () => {
    let now = Date.parse('2026-06-01T12:00:00Z');
    const m = new RequestMetrics(() => now);
    m.record('GET /a', 200, 1500);
    m.record('GET /b', 503, 2500);
    m.record('GET /c', 200, 20);
    expect(m.figures()).toMatchObject({ total: 3, errors: 1, slow: 2 });
    expect(m.figures().slowRoutes.map((r) => r.route)).toEqual(['GET /b', 'GET /a']);
    now += 14 * 60_000;
    m.record('GET /a', 200, 1200);
    expect(m.figures()).toMatchObject({ total: 4, slow: 3 });
    expect(m.figures().slowRoutes.find((r) => r.route === 'GET /a')).toMatchObject({ count: 2, maxMs: 1500 });
    now += 60_000;
    // The first minute has left the window.
    expect(m.figures()).toMatchObject({ total: 1, errors: 0, slow: 1 });
  });

  it('states are ok, warn and red by threshold', () => {
    expect(errorRatePercent(0, 0)).toBe(0);
    expect(errorRatePercent(100, 5)).toBe(5);
    expect(errorRatePercent(1000, 51)).toBe(5.1);
  });
});
