import { type Actor, type AdminMe, Messages, type StaffAction } from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.ts';
import { actorOf, requireAccess } from '../../platform/access.ts';
import { unauthorized } from '../../platform/errors.ts';

/**
 * Staff verification (spec sections 4, 5, 8): an admin record must exist ('User is not an
 * admin') and be active ('Admin account is inactive').
 */
export function verifyAdmin(actor: Actor): AdminMe {
  requireAccess(actor, 'admin.access');
  const staff = actor.staff!;
  return { role: staff.role, permissions: staff.permissions ? [...staff.permissions] : null };
}

/**
 * preHandler factory: the one admin gate for staff endpoints. Unauthenticated is 401 'Not
 * authenticated'; anyone the staff action refuses (not staff, inactive, wrong role) is 403
 * 'Admin access required', one answer for every case (spec section 8, prompt analytics).
 */
export function requireAdmin(db: Db, action: StaffAction) {
  return async (req: FastifyRequest): Promise<void> => {
    if (!req.auth) throw unauthorized(Messages.notAuthenticated);
    requireAccess(await actorOf(req, db), action);
  };
}
