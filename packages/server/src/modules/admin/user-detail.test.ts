import { randomUUID } from 'node:crypto';
import type { AdminUserDetail } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { PASSWORD, signUpMember, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { neutralImage } from '../../../test/moderation-images.ts';
import { multipartFile } from '../../../test/multipart.ts';

type Headers = Record<string, string>;

/**
 * admin users/:id: his record with the reports filed against him and by him and his moderation
 * items; and the actions on him (ban until a date or for good, unban, deactivate, tier, anonymous
 * id), each refused without its permission or rank and audited in the same transaction as the change.
 */
describe.each(DB_KINDS)('a user as staff see him on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const detail = async (h: Headers, id: string) => {
    const res = await call('GET', `/admin/users/${id}`, h);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminUserDetail;
  };
  const auditCount = async () =>
    Number(
      (
        await t()
          .db.selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lastAudit = () => t().db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

  it('lists the reports against him and by him, with the other member by name, and his moderation items', async () => {
    const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
    const [him, accuser, other] = [
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
    ];
    await call('PATCH', '/me', accuser.headers, { displayName: 'Accuser' });
    await call('PATCH', '/me', other.headers, { displayName: 'Otto' });
    const against = await call('POST', `/users/${him.user.uid}/report`, accuser.headers, {
      reason: 'Threatened me',
      category: 'harassment',
    });
    const by = await call('POST', `/users/${other.user.uid}/report`, him.headers, {
      reason: 'Fake photos',
      category: 'fake_profile',
    });
    expect([against.statusCode, by.statusCode]).toEqual([201, 201]);
    const form = multipartFile(await neutralImage(3));
    const photo = await t().app.inject({
      method: 'POST',
      url: '/api/v1/me/photos',
      headers: { ...him.headers, ...form.headers },
      payload: form.payload,
    });
    expect(photo.statusCode, photo.body).toBe(201);
    await t().app.moderation.settle();

    const d = await detail(admin.staffHeaders, him.user.uid);
    expect(d).toMatchObject({ reportsAgainst: 1, reportsBy: 1, photos: 1 });
    expect(d.reports.against).toEqual([
      expect.objectContaining({
        id: against.json().id,
        category: 'harassment',
        reason: 'Threatened me',
        status: 'pending',
        other: expect.objectContaining({ id: accuser.user.uid, displayName: 'Accuser' }),
      }),
    ]);
    expect(d.reports.by).toEqual([
      expect.objectContaining({
        id: by.json().id,
        category: 'fake_profile',
        other: expect.objectContaining({ id: other.user.uid, displayName: 'Otto' }),
      }),
    ]);
    expect(d.moderationItems).toEqual([
      expect.objectContaining({ contentType: 'profile_photo', status: 'approved', flaggedReason: null }),
    ]);
    // Staff see names and anonymous ids, never an email.
    const body = JSON.stringify(d);
    for (const u of [him, accuser, other]) expect(body).not.toContain(u.user.email);
    expect((await call('GET', `/admin/users/${randomUUID()}`, admin.staffHeaders)).statusCode).toBe(404);
  });

  it('bans until a date, unbans with a reason and bans for good, each audited with the change', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    const u = await signUpMember(t().app, t().db);
    const until = new Date(t().clock.now().getTime() + 7 * 86_400_000).toISOString();
    const n0 = await auditCount();
    const past = new Date(t().clock.now().getTime() - 86_400_000).toISOString();
    // Bad input is refused with nothing written: no reason, a date in the past.
    expect((await call('POST', `/admin/users/${u.user.uid}/ban`, mod.staffHeaders, { reason: 'x' })).statusCode).toBe(400);
    expect(
      (await call('POST', `/admin/users/${u.user.uid}/ban`, mod.staffHeaders, { reason: 'Spam', until: past })).statusCode,
    ).toBe(400);
    expect(await auditCount()).toBe(n0);

    const ban = await call('POST', `/admin/users/${u.user.uid}/ban`, mod.staffHeaders, { reason: 'Spam links', until });
    expect(ban.statusCode, ban.body).toBe(204);
    expect((await lastAudit()).action).toBe('ban_email');
    expect((await detail(mod.staffHeaders, u.user.uid)).banned).toEqual({ reason: 'Spam links', until });
    expect((await call('GET', '/me', u.headers)).statusCode).toBe(401);
    expect((await call('POST', '/auth/login', {}, { email: u.user.email, password: PASSWORD })).statusCode).toBe(403);

    // Unban from his record: needs a reason; a record that is not banned is a 404, and writes nothing.
    expect((await call('POST', `/admin/users/${u.user.uid}/unban`, mod.staffHeaders, {})).statusCode).toBe(400);
    const lifted = await call('POST', `/admin/users/${u.user.uid}/unban`, mod.staffHeaders, { reason: 'Appeal accepted' });
    expect(lifted.statusCode, lifted.body).toBe(204);
    expect(await lastAudit()).toMatchObject({ action: 'unban_email', admin_id: mod.user.uid, reason: 'Appeal accepted' });
    expect(await detail(mod.staffHeaders, u.user.uid)).toMatchObject({ banned: null, isActive: true });
    expect((await call('POST', '/auth/login', {}, { email: u.user.email, password: PASSWORD })).statusCode).toBe(200);
    const n1 = await auditCount();
    expect((await call('POST', `/admin/users/${u.user.uid}/unban`, mod.staffHeaders, { reason: 'Again' })).statusCode).toBe(404);
    expect(await auditCount()).toBe(n1);

    expect(
      (await call('POST', `/admin/users/${u.user.uid}/ban`, mod.staffHeaders, { reason: 'Came back to spam' })).statusCode,
    ).toBe(204);
    expect((await detail(mod.staffHeaders, u.user.uid)).banned).toEqual({ reason: 'Came back to spam', until: null });
  });

  it('refuses each action without its permission or rank, writing nothing', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
    const u = await signUpMember(t().app, t().db);
    const n0 = await auditCount();
    // A moderator may view and ban, not edit: no deactivation, tier or new anonymous id.
    for (const [path, body] of [
      ['deactivate', { reason: 'Spam account' }],
      ['reactivate', { reason: 'Appeal' }],
      ['tier', { tier: 'platinum', reason: 'Goodwill' }],
      ['anonymous-id', { reason: 'Asked by him' }],
    ] as const) {
      expect((await call('POST', `/admin/users/${u.user.uid}/${path}`, mod.staffHeaders, body)).statusCode, path).toBe(403);
    }
    // A member's own session is no staff session.
    expect((await call('POST', `/admin/users/${u.user.uid}/unban`, u.headers, { reason: 'Let me in' })).statusCode).toBe(403);
    // Rank: staff never act on an equal or better, nor on themselves.
    for (const [by, target] of [
      [mod, admin],
      [admin, admin],
    ] as const) {
      const res = await call('POST', `/admin/users/${target.user.uid}/ban`, by.staffHeaders, { reason: 'Testing rank' });
      expect(res.statusCode).toBe(403);
    }
    expect(
      (await call('POST', `/admin/users/${u.user.uid}/tier`, admin.staffHeaders, { tier: 'gold', reason: 'x y z' })).statusCode,
    ).toBe(400);
    expect(await auditCount()).toBe(n0);
    expect(await detail(admin.staffHeaders, u.user.uid)).toMatchObject({ isActive: true, banned: null });
  });

  it('deactivates and reactivates with a reason, changes the tier and regenerates the anonymous id, each with one audit row', async () => {
    const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
    const u = await signUpMember(t().app, t().db);
    const before = (await detail(admin.staffHeaders, u.user.uid)).anonymousId;
    const steps: [string, object, string | RegExp][] = [
      ['deactivate', { reason: 'Spam account' }, 'deactivate_user'],
      ['reactivate', { reason: 'Appeal accepted' }, 'reactivate_user'],
      ['tier', { tier: 'platinum', reason: 'Goodwill after outage' }, /^change_tier:.*->platinum$/],
      ['anonymous-id', { reason: 'Asked by the member' }, 'regenerate_anonymous_id'],
    ];
    for (const [path, body, action] of steps) {
      const n = await auditCount();
      const res = await call('POST', `/admin/users/${u.user.uid}/${path}`, admin.staffHeaders, body);
      expect(res.statusCode, `${path}: ${res.body}`).toBeLessThan(300);
      expect(await auditCount(), path).toBe(n + 1);
      const row = await lastAudit();
      expect(row.action, path).toMatch(action);
      expect([row.admin_id, row.reason.startsWith((body as { reason: string }).reason)], path).toEqual([admin.user.uid, true]);
    }
    const after = await detail(admin.staffHeaders, u.user.uid);
    expect(after).toMatchObject({ isActive: true, tier: 'platinum' });
    expect(after.anonymousId).not.toBe(before);
  });
});
