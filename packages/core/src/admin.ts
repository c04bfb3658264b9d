import { STAFF_ROLES, type StaffRole } from './tiers.ts';

/** A staff record as access checks need it: its role and whether it is active. */
export interface StaffRecord {
  role: StaffRole;
  isActive: boolean;
}

/** The admin modules of spec section 6, plus prompts (section 6 gives them to "admins"). */
export const ADMIN_MODULES = [
  'users',
  'content',
  'reports',
  'locations',
  'subscriptions',
  'analytics',
  'settings',
  'financial',
  'payments',
  'team_management',
  'system_admin',
  'audit_logs',
  'user_locations',
  'prompts',
] as const;
export type AdminModule = (typeof ADMIN_MODULES)[number];

/** The module actions of spec section 6. */
export const MODULE_ACTIONS = [
  'view',
  'create',
  'edit',
  'delete',
  'approve',
  'ban',
  'configure',
  'export',
  'invite',
  'revoke',
  'emergency_access',
] as const;
export type ModuleAction = (typeof MODULE_ACTIONS)[number];

/** One permission, written `module.action` as on a staff record's explicit list. */
export type Permission = `${AdminModule}.${ModuleAction}`;

type Grants = Partial<Record<AdminModule, readonly ModuleAction[]>>;

const CRUD: readonly ModuleAction[] = ['view', 'create', 'edit', 'delete', 'approve'];
const VIEW: readonly ModuleAction[] = ['view'];

/**
 * The role defaults, word for word from spec section 6. Where the spec says "limited" (a
 * super_admin's settings, financial and payments) this reads it as view and export, no writes;
 * `user_locations` is granted as the spec says but no route serves exact locations to staff.
 */
export const ROLE_GRANTS: Record<StaffRole, Grants> = {
  owner: {
    users: [...CRUD, 'ban'],
    content: CRUD,
    reports: CRUD,
    locations: CRUD,
    subscriptions: [...CRUD, 'configure'],
    analytics: ['view', 'export'],
    settings: [...CRUD, 'configure', 'export'],
    financial: [...CRUD, 'export'],
    payments: [...CRUD, 'export'],
    team_management: [...CRUD, 'invite', 'revoke'],
    system_admin: [...CRUD, 'configure', 'emergency_access'],
    audit_logs: ['view', 'export'],
    user_locations: VIEW,
    prompts: CRUD,
  },
  super_admin: {
    users: [...CRUD, 'ban'],
    content: CRUD,
    reports: CRUD,
    locations: CRUD,
    subscriptions: ['view', 'create', 'edit', 'approve', 'configure'],
    analytics: ['view', 'export'],
    settings: ['view', 'export'],
    financial: ['view', 'export'],
    payments: ['view', 'export'],
    team_management: ['view', 'create', 'edit', 'invite'],
    system_admin: [...CRUD, 'configure', 'emergency_access'],
    audit_logs: VIEW,
    user_locations: VIEW,
    prompts: CRUD,
  },
  admin: {
    users: ['view', 'edit', 'approve', 'ban'],
    content: ['view', 'edit', 'approve'],
    reports: ['view', 'edit'],
    locations: ['view', 'edit', 'approve'],
    subscriptions: VIEW,
    analytics: VIEW,
    settings: VIEW,
    financial: VIEW,
    payments: VIEW,
    team_management: VIEW,
    user_locations: VIEW,
    prompts: CRUD,
  },
  moderator: {
    users: ['view', 'ban'],
    content: ['view', 'edit', 'approve'],
    reports: ['view', 'edit'],
    locations: VIEW,
    subscriptions: VIEW,
    analytics: VIEW,
  },
};

/**
 * Modules each role holds read-only (spec section 5: "read-only restricted admin modules block
 * create, edit and delete"). It binds even when an explicit list grants more.
 */
export const READ_ONLY_MODULES: Record<StaffRole, readonly AdminModule[]> = {
  owner: [],
  super_admin: ['settings', 'financial', 'payments'],
  admin: ['settings', 'financial', 'payments'],
  moderator: ['subscriptions', 'analytics'],
};

const WRITES: readonly ModuleAction[] = ['create', 'edit', 'delete'];

/** The staff record as the permission check reads it. */
export interface StaffPermissionsRecord extends StaffRecord {
  /** The explicit list (spec section 6: overrides the role's defaults); null for the defaults. */
  permissions: readonly string[] | null;
}

/**
 * The one staff permission check (spec sections 5 and 6): an active record, the explicit list
 * when it has one or else the role's defaults, and a read-only module never writes.
 */
export function staffCan(staff: StaffPermissionsRecord | null, module: AdminModule, action: ModuleAction): boolean {
  if (!staff?.isActive) return false;
  if (WRITES.includes(action) && READ_ONLY_MODULES[staff.role].includes(module)) return false;
  if (staff.permissions) return staff.permissions.includes(`${module}.${action}`) || staff.permissions.includes(`${module}.*`);
  return ROLE_GRANTS[staff.role][module]?.includes(action) ?? false;
}

/** Whether the record may use the permission written `module.action`. */
export function staffHas(staff: StaffPermissionsRecord | null, permission: Permission): boolean {
  const [module, action] = permission.split('.') as [AdminModule, ModuleAction];
  return staffCan(staff, module, action);
}

/** Every permission a role holds by default, for the team/permissions matrix. */
export function roleDefaults(role: StaffRole): Permission[] {
  const out: Permission[] = [];
  for (const m of ADMIN_MODULES) for (const a of ROLE_GRANTS[role][m] ?? []) out.push(`${m}.${a}`);
  return out;
}

/** Every permission there is: module × action. */
export const ALL_PERMISSIONS: readonly Permission[] = ADMIN_MODULES.flatMap((m) =>
  MODULE_ACTIONS.map((a) => `${m}.${a}` as Permission),
);

/** Whether a string names a permission (the explicit list accepts `module.*` too). */
export function isPermission(p: string): boolean {
  if (p.endsWith('.*')) return (ADMIN_MODULES as readonly string[]).includes(p.slice(0, -2));
  return (ALL_PERMISSIONS as readonly string[]).includes(p);
}

/** Rank order of spec section 5: owner above super_admin above admin above moderator; members rank 0. */
export function staffRank(role: StaffRole | null): number {
  return role ? STAFF_ROLES.length - STAFF_ROLES.indexOf(role) : 0;
}

/** The rank rule (spec section 5): only a strictly higher rank manages a user. */
export function outranks(actor: StaffRole, target: StaffRole | null): boolean {
  return staffRank(actor) > staffRank(target);
}

/** Team size limits (spec sections 6, 9): how many staff each role may bring in; null is unlimited. */
export const TEAM_LIMITS: Record<StaffRole, number | null> = { owner: null, super_admin: 10, admin: 3, moderator: 0 };

/** Whether one more team member fits under the role's limit, given how many he already manages. */
export function teamHasRoom(role: StaffRole, managed: number): boolean {
  const limit = TEAM_LIMITS[role];
  return limit === null || managed < limit;
}

export const TEAM_LIMIT_TEXT = (limit: number) => `Team size limit reached: at most ${limit} members.`;
export const RANK_TEXT = 'Only a higher rank can manage this user.';

/** Whether a caller with this staff record may manage prompts (kept for existing callers). */
export function canManagePrompts(staff: StaffRecord | null): boolean {
  return staffCan(staff ? { ...staff, permissions: null } : null, 'prompts', 'edit');
}
