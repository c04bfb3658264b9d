import { describe, expect, it } from 'vitest';
import { signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('per-member permission overrides on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const staff = (role: 'owner' | 'super_admin' | 'admin' | 'moderator') => signUpStaff(t().app, t().db, role, t().clock.now());
  const setPermissions = (by: Headers, userId: string, permissions: string[] | null) =>
    call('PATCH', `/admin/team/members/${userId}`, by, { permissions });

  it('refuses (403) anyone but a higher rank with team edit rights, and leaves the list unchanged', async () => {
    const [owner, sa, admin, admin2, mod] = [
      await staff('owner'),
      await staff('super_admin'),
      await staff('admin'),
      await staff('admin'),
      await staff('moderator'),
    ];
    // Nobody edits the owner: not a super admin, not an admin.
    for (const by of [sa, admin]) {
      const res = await setPermissions(by.staffHeaders, owner.user.uid, ['users.view']);
      expect(res.statusCode).toBe(403);
    }
    // A peer cannot, nor oneself.
    expect((await setPermissions(admin.staffHeaders, admin2.user.uid, ['users.view'])).statusCode).toBe(403);
    expect((await setPermissions(sa.staffHeaders, sa.user.uid, ['system_admin.emergency_access'])).json().message).toBe(
      'Only a higher rank can manage this user.',
    );
    // An admin holds team_management.view only: editing a moderator below him is still refused by the gate.
    expect((await setPermissions(admin.staffHeaders, mod.user.uid, ['users.view'])).statusCode).toBe(403);
    // A moderator has no team rights at all.
    expect((await setPermissions(mod.staffHeaders, admin.user.uid, ['users.view'])).statusCode).toBe(403);
    const members = (await call('GET', '/admin/team/members', owner.staffHeaders)).json().rows as {
      userId: string;
      permissions: string[] | null;
    }[];
    for (const m of members.filter((r) => [owner, sa, admin, admin2, mod].some((s) => s.user.uid === r.userId)))
      expect(m.permissions, m.userId).toBeNull();
  });

  it('an override that removes or grants a permission changes what the member’s routes answer; each change is audited', async () => {
    const sa = await staff('super_admin');
    const admin = await staff('admin');
    expect((await call('GET', '/admin/users', admin.staffHeaders)).statusCode).toBe(200);
    expect((await call('GET', '/admin/system/health', admin.staffHeaders)).statusCode).toBe(403);
    // Removing users.view (the list holds only what it names) and granting system_admin.view.
    expect((await setPermissions(sa.staffHeaders, admin.user.uid, ['locations.view', 'system_admin.view'])).statusCode).toBe(204);
    expect((await call('GET', '/admin/users', admin.staffHeaders)).statusCode).toBe(403);
    expect((await call('GET', '/admin/system/health', admin.staffHeaders)).statusCode).toBe(200);
    expect((await call('GET', '/admin/locations', admin.staffHeaders)).statusCode).toBe(200);
    // The read-only rule binds even an explicit list: an admin's settings module never writes.
    expect(
      (await setPermissions(sa.staffHeaders, admin.user.uid, ['system_admin.view', 'system_admin.configure'])).statusCode,
    ).toBe(204);
    const me = (await call('GET', '/admin/me', admin.staffHeaders)).json();
    expect(me.permissions).toEqual(['system_admin.view', 'system_admin.configure']);
    // Back to the role's defaults.
    expect((await setPermissions(sa.staffHeaders, admin.user.uid, null)).statusCode).toBe(204);
    expect((await call('GET', '/admin/users', admin.staffHeaders)).statusCode).toBe(200);
    expect((await call('GET', '/admin/system/health', admin.staffHeaders)).statusCode).toBe(403);
    const rows = await t()
      .db.selectFrom('audit_log')
      .select(['admin_id', 'action', 'target_id', 'reason'])
      .where('action', '=', 'staff_updated')
      .where('target_id', '=', admin.user.uid)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => JSON.parse(r.reason).permissions)).toEqual([
      ['locations.view', 'system_admin.view'],
      ['system_admin.view', 'system_admin.configure'],
      null,
    ]);
    expect(rows.every((r) => r.admin_id === sa.user.uid)).toBe(true);
  });
});
