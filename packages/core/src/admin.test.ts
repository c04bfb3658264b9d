import { describe, expect, it } from 'vitest';
import { canManagePrompts, PROMPT_MANAGER_ROLES } from './admin.ts';
import { STAFF_ROLES } from './tiers.ts';

describe('canManagePrompts', () => {
  it('lets active owners, super admins and admins manage prompts', () => {
    for (const role of ['owner', 'super_admin', 'admin'] as const)
      expect(canManagePrompts({ role, isActive: true }), role).toBe(true);
  });

  it('refuses moderators, inactive staff and non-staff', () => {
    expect(canManagePrompts({ role: 'moderator', isActive: true })).toBe(false);
    for (const role of STAFF_ROLES) expect(canManagePrompts({ role, isActive: false }), role).toBe(false);
    expect(canManagePrompts(null)).toBe(false);
  });

  it('names only staff roles', () => {
    for (const r of PROMPT_MANAGER_ROLES) expect(STAFF_ROLES).toContain(r);
  });
});
