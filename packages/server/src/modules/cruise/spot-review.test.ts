import { ADMIN_SPOTS_PAGE, type AdminSpot, type AdminSpotsPage, type SpotList } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { locatedUser } from '../../../test/cruise.ts';
import { east } from '../../../test/discovery.ts';
import { signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { verifyAudit } from '../../platform/audit/repo.ts';

type Headers = Record<string, string>;

/**
 * The admin area's locations: staff list the spots members propose (by status, by name, a page
 * at a time), approve, correct and reject them with a note, each write audited in its own
 * transaction. Only a staff session with the locations permissions reaches any of it.
 */
describe.each(DB_KINDS)('staff review of cruising spots on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  let city = 0;
  const nextCity = () => ({ lat: 40 + city++ * 0.7, lng: -3.7 });
  const tag = () => `t${Math.random().toString(36).slice(2, 8)}`;

  async function propose(by: Headers, name: string, at: { lat: number; lng: number }): Promise<string> {
    const res = await call('POST', '/cruise/spots', by, { name, kind: 'park', description: 'Behind the lake', ...at });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }
  const list = async (h: Headers, query: string) => {
    const res = await call('GET', `/admin/locations?${query}`, h);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminSpotsPage;
  };
  const auditOf = (targetId: string) =>
    t().db.selectFrom('audit_log').selectAll().where('target_id', '=', targetId).orderBy('id').execute();

  it('lists by status and name with counts; approve, edit and reject are audited and change what members see', async () => {
    const here = nextCity();
    const author = await locatedUser(t().app, t().db, here);
    const member = await locatedUser(t().app, t().db, east(here, 1));
    const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
    const name = tag();
    const a = await propose(author.headers, `${name} Park`, east(here, 0.5));
    // The queue is oldest first.
    t().clock.advance(1000);
    const b = await propose(author.headers, `${name} Beach`, east(here, 0.8));

    const pending = await list(admin.staffHeaders, `status=pending&q=${name}`);
    expect(pending.rows.map((r) => r.id)).toEqual([a, b]);
    expect(pending.rows[0]).toMatchObject({ status: 'pending', proposedBy: author.id, reviewNote: null, kind: 'park' });
    expect(pending).toMatchObject({ total: 2, page: 1, pageSize: ADMIN_SPOTS_PAGE });
    expect(pending.counts.pending).toBeGreaterThanOrEqual(2);
    expect(pending.map).toEqual({ tileUrl: null, tileAttribution: null });
    // The name search is a plain substring, case-insensitive; % and _ are literal.
    expect((await list(admin.staffHeaders, `q=${name.toUpperCase()}%20BEACH`)).rows.map((r) => r.id)).toEqual([b]);
    expect((await list(admin.staffHeaders, `q=${name}%25`)).rows).toEqual([]);

    const approved = await call('POST', `/admin/locations/${a}/approve`, admin.staffHeaders, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', reviewedBy: admin.user.uid, reviewNote: null });
    const seen = (await call('GET', '/cruise/spots', member.headers)).json() as SpotList;
    expect(seen.items.map((s) => s.id)).toEqual([a]);
    const twice = await call('POST', `/admin/locations/${a}/approve`, admin.staffHeaders, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This spot is already approved');

    const edited = await call('PATCH', `/admin/locations/${a}`, admin.staffHeaders, {
      name: `${name} Retiro`,
      kind: 'woods',
      reason: 'Its real name',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json() as AdminSpot).toMatchObject({ name: `${name} Retiro`, kind: 'woods', status: 'approved' });
    expect(((await call('GET', '/cruise/spots', member.headers)).json() as SpotList).items[0]?.name).toBe(`${name} Retiro`);

    const rejected = await call('POST', `/admin/locations/${b}/reject`, admin.staffHeaders, { note: 'A private garden' });
    expect(rejected.json()).toMatchObject({ status: 'rejected', reviewNote: 'A private garden' });
    // Taking an approved spot down is a rejection too.
    await call('POST', `/admin/locations/${a}/reject`, admin.staffHeaders, { note: 'Closed for good' });
    expect(((await call('GET', '/cruise/spots', member.headers)).json() as SpotList).items).toEqual([]);
    expect((await list(admin.staffHeaders, `status=rejected&q=${name}`)).rows.map((r) => r.id).sort()).toEqual([a, b].sort());

    const rowsA = await auditOf(a);
    expect(rowsA.map((r) => [r.action, r.reason, r.admin_id, r.target_type])).toEqual([
      ['location_approve', 'pending → approved', admin.user.uid, 'spot'],
      ['location_edit', `Its real name; name: "${name} Park" → "${name} Retiro"; kind: "park" → "woods"`, admin.user.uid, 'spot'],
      ['location_reject', 'Closed for good', admin.user.uid, 'spot'],
    ]);
    expect(rowsA.every((r) => r.ip_address)).toBe(true);
    expect((await auditOf(b)).map((r) => [r.action, r.reason])).toEqual([['location_reject', 'A private garden']]);
    expect(await verifyAudit(t().db)).toMatchObject({ ok: true });
  });

  it('pages through the list, 50 at a time', async () => {
    const here = nextCity();
    const staff = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const name = tag();
    // Proposals are capped at 10 waiting per member: several members propose.
    for (let m = 0; m < 6; m++) {
      const u = await locatedUser(t().app, t().db, here);
      for (let i = 0; i < 9; i++) await propose(u.headers, `${name} ${m}-${i}`, east(here, 0.1 * i));
    }
    const first = await list(staff.staffHeaders, `q=${name}`);
    const second = await list(staff.staffHeaders, `q=${name}&page=2`);
    expect([first.total, first.rows.length, second.rows.length, second.page]).toEqual([54, 50, 4, 2]);
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(54);
  });

  it('refuses bad input with a clear 400, unknown spots with 404, and writes nothing', async () => {
    const here = nextCity();
    const author = await locatedUser(t().app, t().db, here);
    const staff = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const id = await propose(author.headers, tag(), here);
    const before = await auditOf(id);
    const cases: [string, string, object, string][] = [
      ['POST', `/admin/locations/${id}/reject`, {}, 'Say why the spot is rejected.'],
      ['POST', `/admin/locations/${id}/reject`, { note: '   ' }, 'Say why the spot is rejected.'],
      ['PATCH', `/admin/locations/${id}`, { reason: 'nothing' }, 'Change the name, kind or description.'],
      ['PATCH', `/admin/locations/${id}`, { name: '' }, 'Name is required.'],
      [
        'PATCH',
        `/admin/locations/${id}`,
        { kind: 'castle' },
        'Kind must be one of: park, beach, sauna, bar, club, gym, woods, other.',
      ],
      ['POST', `/admin/locations/${id}/approve`, { note: 'x'.repeat(501) }, 'Keep the note under 500 characters.'],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await call(method as 'POST', url, staff.staffHeaders, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const bad = await call('GET', '/admin/locations?status=lost', staff.staffHeaders);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Status must be one of: pending, approved, rejected.');
    expect((await call('POST', '/admin/locations/nope/approve', staff.staffHeaders, {})).statusCode).toBe(404);
    expect(await auditOf(id)).toEqual(before);
    const row = await t()
      .db.selectFrom('cruising_spots')
      .select(['status', 'name'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('needs a staff session with the permission: members, member sessions and a moderator’s writes are refused', async () => {
    const here = nextCity();
    const author = await locatedUser(t().app, t().db, here);
    const id = await propose(author.headers, tag(), here);
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());

    expect((await call('GET', '/admin/locations', author.headers)).statusCode).toBe(403);
    expect((await call('POST', `/admin/locations/${id}/approve`, author.headers, {})).statusCode).toBe(403);
    // A staff member's own member session is not a staff session.
    const viaMember = await call('POST', `/admin/locations/${id}/approve`, admin.member, {});
    expect(viaMember.statusCode).toBe(401);
    // A moderator sees the list (locations: view) but may not approve or edit.
    expect((await call('GET', '/admin/locations', mod.staffHeaders)).statusCode).toBe(200);
    const modApprove = await call('POST', `/admin/locations/${id}/approve`, mod.staffHeaders, {});
    expect(modApprove.statusCode).toBe(403);
    expect(modApprove.json().message).toBe('Admin access required');
    expect((await call('PATCH', `/admin/locations/${id}`, mod.staffHeaders, { name: 'X' })).statusCode).toBe(403);
    expect((await auditOf(id)).length).toBe(0);
  });
});
