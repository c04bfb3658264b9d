import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_MODULES,
  ALL_PERMISSIONS,
  canManagePrompts,
  isPermission,
  MODULE_ACTIONS,
  outranks,
  READ_ONLY_MODULES,
  roleDefaults,
  staffCan,
  teamHasRoom,
} from './admin.ts';
import { STAFF_ROLES, type StaffRole } from './tiers.ts';

const rec = (role: StaffRole, permissions: string[] | null = null, isActive = true) => ({ role, isActive, permissions });

describe('staffCan: the role defaults of spec section 6', () => {
  it('gives the owner every module, team invites and revokes, and emergency access', () => {
    for (const p of ['users.ban', 'users.delete', 'subscriptions.configure', 'team_management.invite', 'team_management.revoke'])
      expect(roleDefaults('owner')).toContain(p);
    expect(staffCan(rec('owner'), 'system_admin', 'emergency_access')).toBe(true);
    expect(staffCan(rec('owner'), 'analytics', 'export')).toBe(true);
  });

  it('gives the super admin the owner’s set except subscription deletes, team revokes and audit exports', () => {
    expect(staffCan(rec('super_admin'), 'subscriptions', 'delete')).toBe(false);
    expect(staffCan(rec('super_admin'), 'subscriptions', 'configure')).toBe(true);
    expect(staffCan(rec('super_admin'), 'team_management', 'invite')).toBe(true);
    expect(staffCan(rec('super_admin'), 'team_management', 'revoke')).toBe(false);
    expect(staffCan(rec('super_admin'), 'audit_logs', 'view')).toBe(true);
    expect(staffCan(rec('super_admin'), 'audit_logs', 'export')).toBe(false);
  });

  it('gives the admin users view/edit/approve/ban and team view only', () => {
    expect(['view', 'edit', 'approve', 'ban'].every((a) => staffCan(rec('admin'), 'users', a as 'view'))).toBe(true);
    expect(staffCan(rec('admin'), 'users', 'delete')).toBe(false);
    expect(staffCan(rec('admin'), 'team_management', 'view')).toBe(true);
    expect(staffCan(rec('admin'), 'team_management', 'invite')).toBe(false);
    expect(staffCan(rec('admin'), 'audit_logs', 'view')).toBe(false);
  });

  it('gives the moderator users view and ban, content and reports work, and nothing of the team or system', () => {
    expect(roleDefaults('moderator').sort()).toEqual(
      [
        'users.view',
        'users.ban',
        'content.view',
        'content.edit',
        'content.approve',
        'reports.view',
        'reports.edit',
        'locations.view',
        'subscriptions.view',
        'analytics.view',
      ].sort(),
    );
  });

  it('refuses inactive staff and non-staff everything', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STAFF_ROLES),
        fc.constantFrom(...ADMIN_MODULES),
        fc.constantFrom(...MODULE_ACTIONS),
        (r, m, a) => {
          expect(staffCan(rec(r, null, false), m, a)).toBe(false);
          expect(staffCan(rec(r, [`${m}.${a}`], false), m, a)).toBe(false);
          expect(staffCan(null, m, a)).toBe(false);
        },
      ),
    );
  });

  it('never lets a lower rank hold a permission the higher rank lacks, read-only modules aside', () => {
    for (let i = 1; i < STAFF_ROLES.length; i++) {
      const higher = new Set(roleDefaults(STAFF_ROLES[i - 1]!));
      for (const p of roleDefaults(STAFF_ROLES[i]!)) expect(higher.has(p), `${STAFF_ROLES[i]} ${p}`).toBe(true);
    }
  });
});

describe('read-only modules', () => {
  it('block create, edit and delete even when an explicit list grants them', () => {
    for (const role of STAFF_ROLES)
      for (const m of READ_ONLY_MODULES[role])
        for (const a of ['create', 'edit', 'delete'] as const) {
          expect(staffCan(rec(role), m, a), `${role} ${m}.${a}`).toBe(false);
          expect(staffCan(rec(role, [`${m}.${a}`, `${m}.*`]), m, a), `${role} ${m}.${a} override`).toBe(false);
        }
  });

  it('still let them be viewed', () => {
    for (const role of STAFF_ROLES) for (const m of READ_ONLY_MODULES[role]) expect(staffCan(rec(role), m, 'view')).toBe(true);
  });
});

describe('explicit permissions', () => {
  it('replace the role defaults: grant what the role lacks and take away what it has', () => {
    const mod = rec('moderator', ['audit_logs.view']);
    expect(staffCan(mod, 'audit_logs', 'view')).toBe(true);
    expect(staffCan(mod, 'users', 'view')).toBe(false);
    const owner = rec('owner', ['users.view']);
    expect(staffCan(owner, 'users', 'ban')).toBe(false);
    expect(staffCan(rec('admin', ['content.*']), 'content', 'delete')).toBe(true);
  });

  it('an empty list grants nothing', () => {
    for (const p of ALL_PERMISSIONS) expect(staffCan(rec('owner', []), ...(p.split('.') as ['users', 'view']))).toBe(false);
  });

  it('names only real permissions', () => {
    expect(isPermission('users.ban')).toBe(true);
    expect(isPermission('users.*')).toBe(true);
    expect(isPermission('users.fly')).toBe(false);
    expect(isPermission('nothing.view')).toBe(false);
  });
});

describe('the rank rule and team limits', () => {
  it('lets only a strictly higher rank manage', () => {
    expect(outranks('owner', 'super_admin')).toBe(true);
    expect(outranks('super_admin', 'admin')).toBe(true);
    expect(outranks('admin', 'moderator')).toBe(true);
    expect(outranks('moderator', null)).toBe(true);
    for (const r of STAFF_ROLES) expect(outranks(r, r)).toBe(false);
    expect(outranks('admin', 'super_admin')).toBe(false);
    expect(outranks('moderator', 'owner')).toBe(false);
  });

  it('caps the super admin at 10 and the admin at 3; the owner has no cap', () => {
    expect(teamHasRoom('super_admin', 9)).toBe(true);
    expect(teamHasRoom('super_admin', 10)).toBe(false);
    expect(teamHasRoom('admin', 2)).toBe(true);
    expect(teamHasRoom('admin', 3)).toBe(false);
    expect(teamHasRoom('owner', 10_000)).toBe(true);
  });
});

describe('canManagePrompts', () => {
  it('lets active owners, super admins and admins manage prompts, not moderators', () => {
    for (const role of ['owner', 'super_admin', 'admin'] as const) expect(canManagePrompts({ role, isActive: true })).toBe(true);
    expect(canManagePrompts({ role: 'moderator', isActive: true })).toBe(false);
    expect(canManagePrompts(null)).toBe(false);
  });
});
