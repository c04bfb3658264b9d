import type { AiAnalysis } from '@fmk/core/moderation';
import type { Db } from '../../db/index.ts';
import type { ModerationItemsTable } from '../../db/schema.ts';

export type ModerationItemRow = Omit<ModerationItemsTable, 'ai_analysis'> & { ai_analysis: AiAnalysis };

const COLUMNS = [
  'id',
  'content_type',
  'content_id',
  'user_id',
  'storage_key',
  'status',
  'flagged_reason',
  'confidence',
  'ai_analysis',
  'moderator_id',
  'moderator_notes',
  'created_at',
  'reviewed_at',
] as const;

/** Both databases parse jsonb; Number() keeps the double a number whatever the driver's parser. */
function toRow(r: ModerationItemRow): ModerationItemRow {
  return { ...r, confidence: Number(r.confidence) };
}

/** One item per piece of content: scoring twice (a retried job) keeps the first. */
export async function insertItem(db: Db, item: ModerationItemRow): Promise<boolean> {
  const r = await db
    .insertInto('moderation_items')
    .values({ ...item, ai_analysis: JSON.stringify(item.ai_analysis) })
    .onConflict((oc) => oc.columns(['content_type', 'content_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * A page of a queue: the pending oldest first (first come, first reviewed), the decided newest
 * first; ties by id in the same direction, so pages never repeat or skip a row. With the count of
 * the queue, for "n of m".
 */
export async function listItems(
  db: Db,
  status: ModerationItemRow['status'],
  page: { limit: number; offset: number },
): Promise<{ rows: ModerationItemRow[]; total: number }> {
  const order = status === 'pending' ? 'asc' : 'desc';
  const [rows, count] = await Promise.all([
    db
      .selectFrom('moderation_items')
      .select(COLUMNS)
      .where('status', '=', status)
      .orderBy('created_at', order)
      .orderBy('id', order)
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('moderation_items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', status)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRow), total: Number(count.n) };
}

export async function findItem(db: Db, id: string): Promise<ModerationItemRow | undefined> {
  const r = await db.selectFrom('moderation_items').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/** The item, locked until the transaction ends: one decision wins when two staff click at once. */
export async function lockedItem(db: Db, id: string): Promise<ModerationItemRow | undefined> {
  const r = await db.selectFrom('moderation_items').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  return r ? toRow(r) : undefined;
}

export async function decideItem(
  db: Db,
  id: string,
  decision: { status: 'approved' | 'rejected'; moderatorId: string; notes: string | null; at: Date },
): Promise<void> {
  await db
    .updateTable('moderation_items')
    .set({
      status: decision.status,
      moderator_id: decision.moderatorId,
      moderator_notes: decision.notes,
      reviewed_at: decision.at,
      ...(decision.status === 'rejected' ? { storage_key: null } : {}),
    })
    .where('id', '=', id)
    .execute();
}
