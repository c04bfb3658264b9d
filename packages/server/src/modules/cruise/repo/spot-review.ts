import type { SpotStatus } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

// Staff's side of the cruising spots: the review list with its counts, and the review's writes.

const columns = [
  'id',
  'name',
  'kind',
  'description',
  'lat',
  'lng',
  'status',
  'proposed_by',
  'reviewed_by',
  'reviewed_at',
  'review_note',
  'created_at',
] as const;

export interface StaffSpotFilter {
  status?: SpotStatus | undefined;
  q?: string | undefined;
}

function filtered(db: Db, f: StaffSpotFilter) {
  let q = db.selectFrom('cruising_spots');
  if (f.status) q = q.where('status', '=', f.status);
  if (f.q) q = q.where('name', 'ilike', `%${f.q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  return q;
}

/** One page of spots, newest first (pending ones oldest first: the queue's order). */
export async function listStaffSpots(db: Db, f: StaffSpotFilter, page: { limit: number; offset: number }) {
  const q = filtered(db, f);
  const [rows, total] = await Promise.all([
    q
      .select(columns)
      .orderBy('created_at', f.status === 'pending' ? 'asc' : 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type StaffSpotRow = Awaited<ReturnType<typeof listStaffSpots>>['rows'][number];

/** How many spots there are of each status. */
export async function countSpotsByStatus(db: Db): Promise<Record<SpotStatus, number>> {
  const rows = await db
    .selectFrom('cruising_spots')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .groupBy('status')
    .execute();
  const out: Record<SpotStatus, number> = { pending: 0, approved: 0, rejected: 0 };
  for (const r of rows) out[r.status] = r.n;
  return out;
}

/** The spot, locked until the transaction ends: of two staff acting at once, the second sees the first's result. */
export function lockedStaffSpot(trx: Db, id: string): Promise<StaffSpotRow | undefined> {
  return trx.selectFrom('cruising_spots').select(columns).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function reviewSpot(
  trx: Db,
  id: string,
  r: { status: 'approved' | 'rejected'; by: string; at: Date; note: string | null },
): Promise<void> {
  await trx
    .updateTable('cruising_spots')
    .set({ status: r.status, reviewed_by: r.by, reviewed_at: r.at, review_note: r.note })
    .where('id', '=', id)
    .execute();
}

export async function editSpot(
  trx: Db,
  id: string,
  change: { name?: string | undefined; kind?: StaffSpotRow['kind'] | undefined; description?: string | undefined },
): Promise<void> {
  await trx
    .updateTable('cruising_spots')
    .set({
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.kind === undefined ? {} : { kind: change.kind }),
      ...(change.description === undefined ? {} : { description: change.description }),
    })
    .where('id', '=', id)
    .execute();
}
