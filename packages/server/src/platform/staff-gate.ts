import { ADMIN_ROUTES, type AdminRouteNeed, Messages, type Permission } from '@fmk/core';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Db } from '../db/index.ts';
import { actorOf, requireAccess } from './access.ts';
import type { StaffBy } from './audit/repo.ts';
import { authUser } from './auth.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';

const PREFIX = '/api/v1';
export const STAFF_SIGN_IN_REQUIRED = 'Staff sign-in required';
const NOT_IN_TABLE = 'This staff route has no permission in the table';

/** 'METHOD /admin/...' of a route as registered, or null when it is not a staff route. */
export function adminRouteKey(method: string, url: string): string | null {
  if (!url.startsWith(`${PREFIX}/admin/`) && url !== `${PREFIX}/admin`) return null;
  return `${method} ${url.slice(PREFIX.length)}`;
}

/** What the table says the route needs; undefined for a route missing from it (refused to all). */
export function needOf(key: string): AdminRouteNeed | undefined {
  return (ADMIN_ROUTES as Record<string, AdminRouteNeed>)[key];
}

/**
 * The one gate of the admin area: every /admin route gets, before its body is even
 * validated, the check its row of ADMIN_ROUTES names. A staff route needs a staff session (a
 * member's token is not enough: 401, so the web goes to /admin/login) of an active staff record
 * holding the permission (core `staffCan`, through `can`: 403 otherwise).
 */
export function staffGate(db: Db, need: AdminRouteNeed | undefined) {
  return async (req: FastifyRequest): Promise<void> => {
    if (need === 'open') return;
    // Spec section 8 (prompt analytics): 'Not authenticated', then 'Admin access required'.
    if (!req.auth) throw unauthorized(Messages.notAuthenticated);
    const actor = await actorOf(req, db);
    if (need === undefined) throw forbidden(NOT_IN_TABLE);
    requireAccess(actor, need === 'staff' ? 'admin.access' : `admin.${need as Permission}`);
    if (!req.auth.staff) throw new AppError(401, 'staff_sign_in_required', STAFF_SIGN_IN_REQUIRED);
  };
}

/** Puts the gate in front of every /admin route registered after this call. */
export function installStaffGate(app: FastifyInstance, db: Db): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const key = adminRouteKey(method, route.url);
      if (!key) continue;
      const gate = staffGate(db, needOf(key));
      const existing = route.preValidation;
      route.preValidation = existing ? [gate, ...(Array.isArray(existing) ? existing : [existing])] : [gate];
    }
  });
}

/** The staff member behind a request and his address, for the audit row of the write it makes. */
export function staffBy(req: FastifyRequest): StaffBy {
  return { adminId: authUser(req).userId, ip: req.ip || 'unknown' };
}
