import type { Db } from '../../../db/index.ts';

// The SQL of who may see a chat photo: the man who uploaded it and the receivers of the messages carrying it.

/** The photo's file and the members who may see it (its uploader first), or undefined when there is no such photo. */
export async function photoViewers(db: Db, photoId: string): Promise<{ storageKey: string; viewers: string[] } | undefined> {
  const rows = await db
    .selectFrom('message_photos as p')
    .leftJoin('messages as m', 'm.photo_id', 'p.id')
    .select(['p.storage_key', 'p.user_id', 'm.receiver_id'])
    .where('p.id', '=', photoId)
    .execute();
  const first = rows[0];
  if (!first) return undefined;
  const viewers = new Set([first.user_id]);
  for (const r of rows) if (r.receiver_id) viewers.add(r.receiver_id);
  return { storageKey: first.storage_key, viewers: [...viewers] };
}

/** The photo of a message `me` sent or received, or undefined. */
export async function photoOfMessage(db: Db, messageId: string, me: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('messages')
    .select('photo_id')
    .where('id', '=', messageId)
    .where((w) => w.or([w('sender_id', '=', me), w('receiver_id', '=', me)]))
    .executeTakeFirst();
  return row?.photo_id ?? undefined;
}
