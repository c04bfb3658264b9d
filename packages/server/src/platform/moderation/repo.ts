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

export async function listItems(db: Db, status: ModerationItemRow['status'], limit: number): Promise<ModerationItemRow[]> {
  const rows = await db
    .selectFrom('moderation_items')
    .select(COLUMNS)
    .where('status', '=', status)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toRow);
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
