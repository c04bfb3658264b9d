import type { PlanRecord } from '@fmk/core';
import type { Db } from '../../../db/index.ts';

/** SQL of the plans on sale (admin subscriptions/pricing); the checkout reads its plan here. */

type PlanRow = {
  id: string;
  tier: 'premium' | 'platinum';
  name: string;
  price_cents: number;
  currency: string;
  interval: 'monthly';
  features: string[];
  active: boolean;
  updated_at: Date | string;
};

const toPlan = (r: PlanRow): PlanRecord => ({
  id: r.id,
  tier: r.tier,
  name: r.name,
  priceCents: r.price_cents,
  currency: r.currency,
  interval: r.interval,
  features: r.features,
  active: r.active,
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function selectPlans(db: Db): Promise<PlanRecord[]> {
  const rows = await db.selectFrom('plans').selectAll().orderBy('sort').orderBy('id').execute();
  return rows.map((r) => toPlan(r as PlanRow));
}

export async function findPlan(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<PlanRecord | undefined> {
  const q = db.selectFrom('plans').selectAll().where('id', '=', id);
  const r = await (opts.lock ? q.forUpdate() : q).executeTakeFirst();
  return r ? toPlan(r as PlanRow) : undefined;
}

export async function updatePlan(
  db: Db,
  id: string,
  patch: { priceCents?: number | undefined; features?: string[] | undefined; active?: boolean | undefined },
  now: Date,
): Promise<void> {
  await db
    .updateTable('plans')
    .set({
      ...(patch.priceCents === undefined ? {} : { price_cents: patch.priceCents }),
      ...(patch.features === undefined ? {} : { features: JSON.stringify(patch.features) }),
      ...(patch.active === undefined ? {} : { active: patch.active }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}
