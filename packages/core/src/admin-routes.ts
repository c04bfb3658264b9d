import type { Permission } from './admin.ts';

/**
 * What every staff endpoint asks of the caller: `open` needs nothing (the sign-in and
 * the invite's acceptance), `staff` a verified staff session, and a permission that session's
 * record must hold (`staffCan`). The server puts the check in front of each /admin route from
 * this table, and a route missing from it is refused to everyone; a test walks the whole
 * (route × role) matrix against Fastify's own route list.
 */
export const ADMIN_ROUTES = {
  'POST /admin/login': 'open',
  'POST /admin/login/verify': 'open',
  'GET /admin/invites/:token': 'open',
  'POST /admin/invites/accept': 'open',
  'POST /admin/logout': 'staff',
  'GET /admin/me': 'staff',
  'POST /admin/me/recovery-codes': 'staff',
  'GET /admin/dashboard': 'analytics.view',
  'GET /admin/analytics': 'analytics.view',
  'GET /admin/analytics/export': 'analytics.export',
  'GET /admin/users': 'users.view',
  'GET /admin/users/:id': 'users.view',
  'POST /admin/users/:id/ban': 'users.ban',
  'POST /admin/users/:id/unban': 'users.ban',
  'POST /admin/users/:id/deactivate': 'users.edit',
  'POST /admin/users/:id/reactivate': 'users.edit',
  'POST /admin/users/:id/anonymous-id': 'users.edit',
  'POST /admin/users/:id/tier': 'users.edit',
  'POST /admin/identity/lookup': 'users.view',
  'GET /admin/bans': 'users.view',
  'DELETE /admin/bans/:hash': 'users.ban',
  'GET /admin/team/members': 'team_management.view',
  'PATCH /admin/team/members/:userId': 'team_management.edit',
  'DELETE /admin/team/members/:userId': 'team_management.revoke',
  'GET /admin/team/invites': 'team_management.view',
  'POST /admin/team/invites': 'team_management.invite',
  'DELETE /admin/team/invites/:id': 'team_management.revoke',
  'GET /admin/audit': 'audit_logs.view',
  'GET /admin/audit/export': 'audit_logs.export',
  'GET /admin/system/settings': 'system_admin.view',
  'PUT /admin/system/settings': 'system_admin.configure',
  'GET /admin/system/health': 'system_admin.view',
  'GET /admin/moderation/items': 'content.view',
  'PATCH /admin/moderation/items/:id': 'content.approve',
  'GET /admin/moderation/items/:id/photo': 'content.view',
  'GET /admin/reports': 'reports.view',
  'PATCH /admin/reports/:id': 'reports.edit',
  'GET /admin/safety/flags': 'reports.view',
  // Spec section 6 has no messages module: the evidence belongs to its report, so reports.view reads it.
  'GET /admin/messages': 'reports.view',
  'GET /admin/messages/photos/:id': 'reports.view',
  'GET /admin/prompts': 'prompts.view',
  'GET /admin/prompts/analytics': 'prompts.view',
  'POST /admin/prompts': 'prompts.create',
  'POST /admin/prompts/seed': 'prompts.create',
  'PATCH /admin/prompts/:id': 'prompts.edit',
  'DELETE /admin/prompts/:id': 'prompts.delete',
  'GET /admin/support/reports': 'reports.view',
  'PATCH /admin/support/reports/:id': 'reports.edit',
  'GET /admin/support/threads': 'reports.view',
  'GET /admin/support/threads/:id': 'reports.view',
  'POST /admin/support/threads/:id/messages': 'reports.edit',
  'PATCH /admin/support/threads/:id': 'reports.edit',
  'GET /admin/features': 'subscriptions.view',
  'PATCH /admin/features/:id': 'subscriptions.configure',
  'GET /admin/plans': 'subscriptions.view',
  'GET /admin/subscriptions': 'subscriptions.view',
  'GET /admin/financial': 'financial.view',
  'PATCH /admin/plans/:id': 'subscriptions.configure',
  'GET /admin/payments': 'payments.view',
  'GET /admin/payments/:id': 'payments.view',
  // A refund changes a payment: the payments module's edit (the owner's; others hold it read-only).
  'POST /admin/payments/:id/refund': 'payments.edit',
  'GET /admin/locations': 'locations.view',
  'POST /admin/locations/:id/approve': 'locations.approve',
  'POST /admin/locations/:id/reject': 'locations.approve',
  'PATCH /admin/locations/:id': 'locations.edit',
} as const satisfies Record<string, 'open' | 'staff' | Permission>;

export type AdminRouteKey = keyof typeof ADMIN_ROUTES;
export type AdminRouteNeed = 'open' | 'staff' | Permission;

/** The admin screens (spec section 2) and what each needs; the navigation shows only what the member may use. */
export const ADMIN_SCREENS = [
  { path: 'dashboard', label: 'Dashboard', needs: 'analytics.view' },
  { path: 'analytics', label: 'Analytics', needs: 'analytics.view' },
  { path: 'users', label: 'Users', needs: 'users.view' },
  { path: 'users/banned', label: 'Banned', needs: 'users.view' },
  { path: 'users/reports', label: 'Reports', needs: 'reports.view' },
  { path: 'reports', label: 'Report triage', needs: 'reports.view' },
  { path: 'messages', label: 'Reported messages', needs: 'reports.view' },
  { path: 'content/pending', label: 'Photos', needs: 'content.view' },
  { path: 'locations', label: 'Locations', needs: 'locations.view' },
  { path: 'support', label: 'Support', needs: 'reports.view' },
  { path: 'feedback', label: 'Bugs & feedback', needs: 'reports.view' },
  { path: 'prompts', label: 'Prompts', needs: 'prompts.view' },
  { path: 'subscriptions', label: 'Subscriptions', needs: 'subscriptions.view' },
  { path: 'subscriptions/pricing', label: 'Pricing', needs: 'subscriptions.view' },
  { path: 'subscriptions/limits', label: 'Limits', needs: 'subscriptions.view' },
  { path: 'payments', label: 'Payments', needs: 'payments.view' },
  { path: 'financial', label: 'Financial', needs: 'financial.view' },
  { path: 'financial/revenue', label: 'Revenue', needs: 'financial.view' },
  { path: 'financial/forecasting', label: 'Forecast', needs: 'financial.view' },
  { path: 'team/members', label: 'Team', needs: 'team_management.view' },
  { path: 'team/invites', label: 'Invites', needs: 'team_management.view' },
  { path: 'team/permissions', label: 'Permissions', needs: 'team_management.view' },
  { path: 'system/audit', label: 'Audit log', needs: 'audit_logs.view' },
  { path: 'system/settings', label: 'Beta settings', needs: 'system_admin.view' },
  { path: 'system/health', label: 'Health', needs: 'system_admin.view' },
  { path: 'settings', label: 'My account', needs: 'staff' },
] as const satisfies readonly { path: string; label: string; needs: AdminRouteNeed }[];

/** A staff session lasts 8 hours, against 30 days for a member's: sign in again each working day. */
export const STAFF_SESSION_MINUTES = 8 * 60;
/** An invite link is good for 72 hours. */
export const INVITE_TTL_HOURS = 72;
/** Recovery codes given with the second factor, each good once. */
export const RECOVERY_CODE_COUNT = 10;
/** Spec section 9: the audit log's page. */
export const AUDIT_PAGE = 100;
