import { beforeAll, describe, expect, it } from 'vitest';
import { seedAdminWorld } from '../../../test/admin-world.ts';
import { signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

describe.each(DB_KINDS)('the admin dashboard and analytics on %s', (kind) => {
  const t = useTestApp(kind);
  let world: Awaited<ReturnType<typeof seedAdminWorld>>;
  beforeAll(async () => {
    world = await seedAdminWorld(t().app, t().db, t().clock.now());
  }, 120_000);
  const get = (url: string, headers: Record<string, string>) => t().app.inject({ method: 'GET', url: `/api/v1${url}`, headers });

  it('counts today and each of the last 30 UTC days from the data, a zero on every empty day', async () => {
    const res = await get('/admin/dashboard', world.owner.staffHeaders);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d.today).toEqual({
      signups: 1,
      activeUsers: 2,
      matches: 1,
      messages: 3,
      revenue: 999,
      openReports: 1,
      pendingModeration: 1,
    });
    expect(d.totals).toEqual({ users: 5, activeUsers30d: 3, revenue30d: 999 + 1999 - 300, openReports: 1, pendingModeration: 1 });
    expect(d.currency).toBe('USD');
    expect(d.activeMeans).toMatch(/seen in the app/);

    // Every series is the same 30 days, 2026-05-03 to 2026-06-01, with nothing missing.
    const days = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 4, 3 + i)).toISOString().slice(0, 10));
    for (const series of Object.values(d.days) as { day: string; n: number }[][]) expect(series.map((s) => s.day)).toEqual(days);
    const nonZero = (k: string) =>
      Object.fromEntries((d.days[k] as { day: string; n: number }[]).filter((s) => s.n !== 0).map((s) => [s.day, s.n]));
    expect(nonZero('signups')).toEqual({ '2026-05-22': 1, '2026-05-31': 1, '2026-06-01': 1 });
    expect(nonZero('activeUsers')).toEqual({ '2026-05-31': 1, '2026-06-01': 2 });
    expect(nonZero('matches')).toEqual({ '2026-05-20': 1, '2026-06-01': 1 });
    expect(nonZero('messages')).toEqual({ '2026-06-01': 3 });
    // A failed payment is no revenue; a refund takes its amount off its day.
    expect(nonZero('revenue')).toEqual({ '2026-05-30': 1699, '2026-06-01': 999 });
    expect(nonZero('reports')).toEqual({ '2026-05-28': 1, '2026-06-01': 1 });
    expect(nonZero('moderation')).toEqual({ '2026-05-29': 1, '2026-06-01': 1 });
  });

  it('shapes retention by weekly sign-up cohort, the funnel and the mix from the data', async () => {
    const res = await get('/admin/analytics', world.owner.staffHeaders);
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json();
    expect(a.currentWeek).toBe('2026-06-01');
    expect(a.from).toBe('2026-03-16');
    // The owner joined before the window; a, b, c and d fall in four cohorts.
    const byCohort = Object.fromEntries(
      (a.cohorts as { cohort: string; size: number; weeks: { week: number; active: number; percent: number }[] }[]).map((c) => [
        c.cohort,
        { size: c.size, active: c.weeks.map((w) => w.active) },
      ]),
    );
    expect(byCohort).toEqual({
      '2026-06-01': { size: 1, active: [1] },
      '2026-05-25': { size: 1, active: [0, 1] },
      '2026-05-18': { size: 1, active: [0, 0, 0] },
      '2026-03-30': { size: 1, active: [0, 1, 0, 0, 0, 0, 0, 0, 1, 0] },
    });
    expect(a.cohorts[0].weeks[0].percent).toBe(100);
    expect(a.funnel.map((f: { count: number }) => f.count)).toEqual([4, 3, 3, 2]);
    expect(a.funnel.map((f: { ofPrevious: number }) => f.ofPrevious)).toEqual([100, 75, 100, 66.7]);
    expect(a.modeMix).toEqual([
      { key: 'dating', count: 4, percent: 80 },
      { key: 'now', count: 1, percent: 20 },
    ]);
    expect(a.tierMix).toEqual([
      { key: 'free', count: 3, percent: 60 },
      { key: 'platinum', count: 1, percent: 20 },
      { key: 'premium', count: 1, percent: 20 },
    ]);
  });

  it('exports each part as CSV, audited, with counts only; a bad kind is a 400', async () => {
    const before = await t().db.selectFrom('audit_log').select('id').execute();
    const res = await get('/admin/analytics/export?kind=funnel', world.owner.staffHeaders);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.body).toBe(
      'step,members,percent_of_previous,percent_of_signed_up\r\nSigned up,4,100,100\r\nOnboarding complete,3,75,75\r\nFirst match,3,100,75\r\nFirst message,2,66.7,50\r\n',
    );
    const cohorts = await get('/admin/analytics/export?kind=cohorts', world.owner.staffHeaders);
    expect(cohorts.body.split('\r\n')[0]).toBe('cohort_week,members,week,active,percent_active');
    expect(cohorts.body).toContain('2026-03-30,1,8,1,100');
    const mix = await get('/admin/analytics/export?kind=mix', world.owner.staffHeaders);
    expect(mix.body).toContain('tier,premium,1,20');
    // No member is named in any export: no email, no id.
    const ids = [world.a, world.b, world.c, world.d, world.owner.user.uid, world.owner.user.email];
    for (const body of [res.body, cohorts.body, mix.body]) for (const id of ids) expect(body).not.toContain(id);
    expect(res.body + cohorts.body + mix.body).not.toContain('@');

    const rows = await t()
      .db.selectFrom('audit_log')
      .select(['admin_id', 'action', 'target_type'])
      .where('id', 'not in', before.length ? before.map((r) => r.id) : [-1])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['export_analytics:funnel', 'export_analytics:cohorts', 'export_analytics:mix']);
    expect(rows.every((r) => r.admin_id === world.owner.user.uid && r.target_type === 'analytics')).toBe(true);

    const bad = await get('/admin/analytics/export?kind=emails', world.owner.staffHeaders);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/cohorts, funnel, mix/);
  });

  it('is refused to staff whose permissions list leaves out analytics.view', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    await t()
      .db.updateTable('admin_users')
      .set({ permissions: JSON.stringify(['reports.view']) })
      .where('user_id', '=', mod.user.uid)
      .execute();
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/admin/dashboard', headers: mod.staffHeaders });
    expect(res.statusCode).toBe(403);
  });

  it('lets a moderator read analytics but not export it (analytics.export)', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    expect((await get('/admin/analytics', mod.staffHeaders)).statusCode).toBe(200);
    const res = await get('/admin/analytics/export?kind=funnel', mod.staffHeaders);
    expect(res.statusCode).toBe(403);
  });
});
