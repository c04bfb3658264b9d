import { type AdminMe, Messages, type StaffRecord } from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.ts';
import { forbidden, unauthorized } from '../../platform/errors.ts';
import { findAdmin } from '../identity/service.ts';

export const NOT_AN_ADMIN = 'User is not an admin';
export const ADMIN_INACTIVE = 'Admin account is inactive';

/** Staff verification (spec sections 4, 5, 8): an admin record must exist and be active. */
export async function verifyAdmin(db: Db, userId: string): Promise<AdminMe> {
  const admin = await findAdmin(db, userId);
  if (!admin) throw forbidden(NOT_AN_ADMIN, 'not_admin');
  if (!admin.is_active) throw forbidden(ADMIN_INACTIVE, 'admin_inactive');
  return { role: admin.role, permissions: admin.permissions ?? null };
}

/**
 * preHandler factory: the one admin gate for staff endpoints. Unauthenticated is 401 'Not
 * authenticated', anyone the core rule `can` refuses (not staff, inactive, wrong role) is 403
 * 'Admin access required' (spec section 8, prompt analytics).
 */
export function requireAdmin(db: Db, can: (staff: StaffRecord | null) => boolean) {
  return async (req: FastifyRequest): Promise<void> => {
    if (!req.auth) throw unauthorized(Messages.notAuthenticated);
    const row = await findAdmin(db, req.auth.userId);
    if (!can(row ? { role: row.role, isActive: row.is_active } : null)) throw forbidden(Messages.adminRequired, 'admin_required');
  };
}
