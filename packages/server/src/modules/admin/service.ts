import type { AdminMe } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { forbidden } from '../../platform/errors.ts';
import { findAdmin } from '../identity/repo.ts';

export const NOT_AN_ADMIN = 'User is not an admin';
export const ADMIN_INACTIVE = 'Admin account is inactive';

/** Staff verification (spec sections 4, 5, 8): an admin record must exist and be active. */
export async function verifyAdmin(db: Db, userId: string): Promise<AdminMe> {
  const admin = await findAdmin(db, userId);
  if (!admin) throw forbidden(NOT_AN_ADMIN, 'not_admin');
  if (!admin.is_active) throw forbidden(ADMIN_INACTIVE, 'admin_inactive');
  return { role: admin.role, permissions: admin.permissions ?? null };
}
