import { type AlertState, matchPair } from '@fmk/core';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { SafetyAlertsTable } from '../../../db/schema.ts';

export type AlertRow = Selectable<SafetyAlertsTable>;

/** Inserts the alert unless one with the same dedupe key exists for him; true when inserted. */
export async function insertAlert(db: Db, row: Insertable<SafetyAlertsTable>): Promise<boolean> {
  const res = await db
    .insertInto('safety_alerts')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findAlert(db: Db, id: string): Promise<AlertRow | undefined> {
  return db.selectFrom('safety_alerts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** His alerts still on his list (dismissed ones are gone), newest first. */
export function listAlertsOf(db: Db, userId: string, limit: number): Promise<AlertRow[]> {
  return db
    .selectFrom('safety_alerts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '<>', 'dismissed')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Moves his alert on only from `from` (compare-and-set). */
export async function setAlertState(db: Db, id: string, from: AlertState, to: AlertState, at: Date): Promise<boolean> {
  const res = await db
    .updateTable('safety_alerts')
    .set({ state: to, updated_at: at })
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A sender as the spam rules judge him, and whether the receiver was already warned about him, in one round trip. */
export interface SenderStats {
  /** The receiver already has an alert of this cause (dedupeKey): nothing more to judge. */
  alerted: boolean;
  accountCreatedAt: Date;
  isMatch: boolean;
  recipientsToday: number;
  openReporters: number;
}

export async function senderStats(
  db: Db,
  senderId: string,
  receiverId: string,
  dayStart: Date,
  dedupeKey: string,
): Promise<SenderStats> {
  const [a, b] = matchPair(senderId, receiverId);
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      'users.created_at',
      eb
        .exists(eb.selectFrom('safety_alerts').select('id').where('user_id', '=', receiverId).where('dedupe_key', '=', dedupeKey))
        .as('alerted'),
      eb.exists(eb.selectFrom('matches').select('id').where('user_a', '=', a).where('user_b', '=', b)).as('is_match'),
      eb
        .selectFrom('messages')
        .select(sql<number>`count(distinct receiver_id)`.as('n'))
        .where('sender_id', '=', senderId)
        .where('created_at', '>=', dayStart)
        .as('recipients_today'),
      eb
        .selectFrom('user_reports')
        .select(sql<number>`count(distinct reporter_id)`.as('n'))
        .where('reported_id', '=', senderId)
        .where('status', 'in', ['pending', 'reviewed'])
        .as('open_reporters'),
    ])
    .where('users.id', '=', senderId)
    .executeTakeFirstOrThrow();
  return {
    alerted: Boolean(row.alerted),
    accountCreatedAt: row.created_at,
    isMatch: Boolean(row.is_match),
    recipientsToday: Number(row.recipients_today ?? 0),
    openReporters: Number(row.open_reporters ?? 0),
  };
}

/** His text messages since `since` (at most `limit`), to compare copies of one text. */
export function textsSentSince(db: Db, senderId: string, since: Date, limit: number) {
  return db
    .selectFrom('messages')
    .select(['receiver_id', 'content'])
    .where('sender_id', '=', senderId)
    .where('type', '=', 'text')
    .where('created_at', '>=', since)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

/** Resolves his alert of this cause when it is still open (unread or read); true when one moved. */
export async function resolveByKey(db: Db, userId: string, dedupeKey: string, at: Date): Promise<boolean> {
  const res = await db
    .updateTable('safety_alerts')
    .set({ state: 'resolved', updated_at: at })
    .where('user_id', '=', userId)
    .where('dedupe_key', '=', dedupeKey)
    .where('state', 'in', ['unread', 'read'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Members with a live socket open now (users.is_online, kept by the live module's presence). */
export async function onlineUserIds(db: Db, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('is_online', '=', true).orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/**
 * A member's account is erased: other men's alerts keep their text (which never names him) but
 * lose the actions aimed at him (there is no one left to block or report) and a dedupe key
 * holding his id.
 */
export async function forgetAlertsAbout(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('safety_alerts')
    .set({
      actions: sql`coalesce((select jsonb_agg(a) from jsonb_array_elements(actions) a where a->>'userId' is distinct from ${userId}), '[]'::jsonb)`,
    })
    .where(sql<boolean>`actions @> jsonb_build_array(jsonb_build_object('userId', ${userId}::text))`)
    .execute();
  await db
    .updateTable('safety_alerts')
    .set({ dedupe_key: null })
    .where((w) => w.or([w('dedupe_key', '=', `sender:${userId}`), w('dedupe_key', 'like', `meetup:%${userId}%`)]))
    .execute();
}
