import { describe, expect, it } from 'vitest';
import { PASSWORD, signUpMember, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
type Ban = { hash: string; reason: string; bannedBy: string; bannedByName: string | null; associatedAnonymousIds: string[] };

describe.each(DB_KINDS)('users/banned on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const list = async (h: Headers, query = '') => {
    const res = await call('GET', `/admin/bans${query}`, h);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { rows: Ban[]; total: number; page: number; pageSize: number };
  };

  it('searches by reason, anonymous id, staff name, exact email and hash start; pages by 50; no email comes back', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    await call('PATCH', '/me', mod.member, { displayName: 'Modesty' });
    const bad = await signUpMember(t().app, t().db);
    const anon = (
      await t().db.selectFrom('users').select('anonymous_id').where('id', '=', bad.user.uid).executeTakeFirstOrThrow()
    ).anonymous_id!;
    expect(
      (await call('POST', `/admin/users/${bad.user.uid}/ban`, mod.staffHeaders, { reason: 'Scam links in chat' })).statusCode,
    ).toBe(204);
    // Older records, written directly: enough for a second page.
    const at = new Date(t().clock.now().getTime() - 86_400_000);
    await t()
      .db.insertInto('banned_emails')
      .values(
        Array.from({ length: 55 }, (_, i) => ({
          email_hash: `f${String(i).padStart(63, '0')}`,
          email: `old${i}@example.com`,
          banned_at: new Date(at.getTime() - i * 1000),
          banned_by: mod.user.uid,
          reason: `old case ${i}`,
          associated_anonymous_ids: JSON.stringify([]) as never,
          is_permanent: true,
          expires_at: null,
        })),
      )
      .execute();
    const first = await list(mod.staffHeaders);
    expect(first).toMatchObject({ total: 56, page: 1, pageSize: 50 });
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]).toMatchObject({ reason: 'Scam links in chat', bannedBy: mod.user.uid, bannedByName: 'Modesty' });
    expect(first.rows[0]!.associatedAnonymousIds).toContain(anon);
    const second = await list(mod.staffHeaders, '?page=2');
    expect(second.rows).toHaveLength(6);
    expect(second.rows.map((r) => r.hash)).not.toContain(first.rows[49]!.hash);
    const hash = first.rows[0]!.hash;
    for (const q of ['scam LINKS', anon, 'modest', bad.user.email.toUpperCase(), hash.slice(0, 10)]) {
      const found = await list(mod.staffHeaders, `?q=${encodeURIComponent(q)}`);
      expect(
        found.rows.map((r) => r.hash),
        q,
      ).toContain(hash);
      if (q !== 'modest') expect(found.total, q).toBe(1);
    }
    expect((await list(mod.staffHeaders, '?q=nothing-like-this')).total).toBe(0);
    const body = JSON.stringify(first);
    expect(body).not.toContain(bad.user.email);
    expect(body).not.toContain('old0@example.com');
    expect((await call('GET', '/admin/bans?page=0', mod.staffHeaders)).statusCode).toBe(400);
  });

  it('lifting a ban needs users.ban, is audited in the same step, and lets the email back in', async () => {
    const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
    const bad = await signUpMember(t().app, t().db);
    await call('POST', `/admin/users/${bad.user.uid}/ban`, admin.staffHeaders, { reason: 'Repeated harassment' });
    const hash = (await list(admin.staffHeaders, '?q=repeated')).rows[0]!.hash;
    // A member's session, or staff without users.ban, cannot lift it.
    expect((await call('DELETE', `/admin/bans/${hash}`, admin.member)).statusCode).toBe(401);
    const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const viewer = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
    await call('PATCH', `/admin/team/members/${viewer.user.uid}`, owner.staffHeaders, { permissions: ['users.view'] });
    expect((await call('DELETE', `/admin/bans/${hash}`, viewer.staffHeaders)).statusCode).toBe(403);
    expect((await list(admin.staffHeaders, '?q=repeated')).total).toBe(1);
    const before = await t().db.selectFrom('audit_log').select('id').where('action', '=', 'unban_email').execute();
    expect((await call('DELETE', `/admin/bans/${hash}`, admin.staffHeaders)).statusCode).toBe(204);
    const rows = await t().db.selectFrom('audit_log').selectAll().where('action', '=', 'unban_email').orderBy('id').execute();
    expect(rows.length).toBe(before.length + 1);
    expect(rows.at(-1)).toMatchObject({ admin_id: admin.user.uid });
    expect(rows.at(-1)!.ip_address).toBeTruthy();
    expect((await list(admin.staffHeaders, '?q=repeated')).total).toBe(0);
    expect((await call('DELETE', `/admin/bans/${hash}`, admin.staffHeaders)).statusCode).toBe(404);
    expect((await call('POST', '/auth/login', {}, { email: bad.user.email, password: PASSWORD })).statusCode).toBe(200);
  });
});
