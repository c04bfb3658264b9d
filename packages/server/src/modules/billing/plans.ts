import { type Plan, type PlanPatch, type PlanRecord, planFromRecord } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { notFound } from '../../platform/errors.ts';
import { findPlan, selectPlans, updatePlan } from './repo/plans.ts';

/**
 * The plans on sale, from the database. A checkout and a plan change read the plan here; a
 * plan staff took off sale (or an unknown id) is none. Existing subscriptions never read it
 * again: each keeps the amount it was sold at, so an edit reaches new subscriptions only.
 */
export async function planOnSale(db: Db, id: string): Promise<Plan | undefined> {
  const r = await findPlan(db, id);
  return r?.active ? planFromRecord(r) : undefined;
}

export const listPlans = (db: Db): Promise<PlanRecord[]> => selectPlans(db);

export const plansOnSale = async (db: Db): Promise<PlanRecord[]> => (await selectPlans(db)).filter((p) => p.active);

/** Staff edit a plan (subscriptions.configure); the change commits with its audit row. */
export async function editPlan(db: Db, id: string, patch: PlanPatch, now: Date, by: StaffBy): Promise<PlanRecord> {
  return db.transaction().execute(async (trx) => {
    const before = await findPlan(trx, id, { lock: true });
    if (!before) throw notFound('Plan not found');
    await updatePlan(trx, id, patch, now);
    const what: string[] = [];
    if (patch.priceCents !== undefined) what.push(`price: ${before.priceCents} -> ${patch.priceCents}`);
    if (patch.features !== undefined) what.push(`features: ${patch.features.join(' | ')}`);
    if (patch.active !== undefined) what.push(`active: ${patch.active}`);
    await auditStaff(trx, by, {
      action: 'plan_edit',
      targetType: 'plan',
      targetId: id,
      reason: [patch.reason, what.join('; ')].filter(Boolean).join(' — '),
      now,
    });
    return (await findPlan(trx, id)) as PlanRecord;
  });
}
