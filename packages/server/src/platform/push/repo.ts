import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.ts';

/**
 * Web Push subscriptions (platform/push.ts), one row per browser endpoint. Infrastructure every
 * feature's notifications go through, so its SQL sits with the platform module, not in a feature.
 */

/**
 * Stores (or refreshes) a browser's subscription. An endpoint belongs to one browser: signing in
 * as someone else there moves it.
 */
export async function upsertSubscription(
  db: Db,
  s: { userId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values({
      id: randomUUID(),
      user_id: s.userId,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      user_agent: s.userAgent,
      created_at: s.at,
      updated_at: s.at,
    })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        user_id: s.userId,
        p256dh: s.p256dh,
        auth: s.auth,
        user_agent: s.userAgent,
        updated_at: s.at,
      }),
    )
    .execute();
}

/** Deletes one of the user's subscriptions by endpoint; whether there was one. */
export async function deleteSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const gone = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(gone.numDeletedRows) > 0;
}

export async function deleteSubscriptionById(db: Db, id: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

export function subscriptionsOf(db: Db, userId: string) {
  return db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('user_id', '=', userId).execute();
}

/** users.fcm_token / token_updated (the spec's fcmToken, tokenUpdated) mirror the newest subscription. */
export async function syncUserToken(db: Db, userId: string): Promise<void> {
  // The user row's lock orders concurrent syncs of one user (two 410s at once on PostgreSQL).
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const newest = await db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  await db
    .updateTable('users')
    .set({ fcm_token: newest?.endpoint ?? null, token_updated: newest?.updated_at ?? null })
    .where('id', '=', userId)
    .execute();
}
