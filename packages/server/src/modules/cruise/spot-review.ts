import {
  type Actor,
  ADMIN_SPOTS_PAGE,
  type AdminSpot,
  AdminSpotMessages,
  type AdminSpotsPage,
  type SpotEditBody,
  type SpotStatus,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import {
  countSpotsByStatus,
  editSpot,
  listStaffSpots,
  lockedStaffSpot,
  reviewSpot,
  type StaffSpotRow,
} from './repo/spot-review.ts';
import type { CruiseDeps } from './sessions.ts';

function present(r: StaffSpotRow): AdminSpot {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    description: r.description,
    lat: r.lat,
    lng: r.lng,
    status: r.status,
    proposedBy: r.proposed_by,
    reviewedBy: r.reviewed_by,
    reviewedAt: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null,
    reviewNote: r.review_note,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/**
 * Staff's review of the spots members propose (the admin area's locations screens). The staff
 * gate has checked the session and the permission before any of this runs; each method checks
 * it again (the access layer's rule), and every write commits with its audit row.
 */
export class SpotReviewService {
  constructor(private readonly deps: CruiseDeps & { map: AdminSpotsPage['map'] }) {}

  async list(
    actor: Actor,
    f: { status?: SpotStatus | undefined; q?: string | undefined; page: number },
  ): Promise<AdminSpotsPage> {
    requireAccess(actor, 'admin.locations.view');
    const [{ rows, total }, counts] = await Promise.all([
      listStaffSpots(this.deps.db, f, { limit: ADMIN_SPOTS_PAGE, offset: (f.page - 1) * ADMIN_SPOTS_PAGE }),
      countSpotsByStatus(this.deps.db),
    ]);
    return { rows: rows.map(present), total, page: f.page, pageSize: ADMIN_SPOTS_PAGE, counts, map: this.deps.map };
  }

  /** Approves a pending or rejected spot: members near it see it from now on. */
  review(actor: Actor, id: string, decision: 'approve' | 'reject', note: string | undefined, by: StaffBy): Promise<AdminSpot> {
    requireAccess(actor, 'admin.locations.approve');
    const status = decision === 'approve' ? 'approved' : 'rejected';
    return this.change(id, async (trx, spot, now) => {
      if (spot.status === status)
        throw conflict(status === 'approved' ? AdminSpotMessages.alreadyApproved : AdminSpotMessages.alreadyRejected);
      await reviewSpot(trx, id, { status, by: by.adminId, at: now, note: note || null });
      await auditStaff(trx, by, {
        action: `location_${decision}`,
        targetType: 'spot',
        targetId: id,
        reason: note || `${spot.status} → ${status}`,
        now,
      });
    });
  }

  /** Corrects a spot's name, kind or description, whatever its status. */
  edit(actor: Actor, id: string, body: SpotEditBody, by: StaffBy): Promise<AdminSpot> {
    requireAccess(actor, 'admin.locations.edit');
    const { reason, ...change } = body;
    return this.change(id, async (trx, spot, now) => {
      const what = (['name', 'kind', 'description'] as const)
        .filter((k) => change[k] !== undefined && change[k] !== spot[k])
        .map((k) => `${k}: ${JSON.stringify(spot[k])} → ${JSON.stringify(change[k])}`);
      await editSpot(trx, id, change);
      await auditStaff(trx, by, {
        action: 'location_edit',
        targetType: 'spot',
        targetId: id,
        reason: [reason, ...what].filter(Boolean).join('; ') || 'no change',
        now,
      });
    });
  }

  private async change(id: string, fn: (trx: Db, spot: StaffSpotRow, now: Date) => Promise<void>): Promise<AdminSpot> {
    const now = this.deps.clock.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const spot = await lockedStaffSpot(trx, id);
      if (!spot) throw notFound(AdminSpotMessages.notFound);
      await fn(trx, spot, now);
      return lockedStaffSpot(trx, id);
    });
    return present(row!);
  }
}
