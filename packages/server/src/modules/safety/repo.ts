import { matchPair } from '@fmk/core';
import type { Db } from '../../db/index.ts';

/** The block list's own rows live with the rule read from them (platform/blocks/repo.ts). */
export { deleteBlock, insertBlock, listBlockedBy } from '../../platform/blocks/repo.ts';

export async function userExists(db: Db, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst());
}

/**
 * What a block deletes between the two (spec sections 4, 7): their conversation (its messages
 * go with it), their match and their selections both ways. Returns the deleted conversations' ids.
 */
export async function deletePairHistory(trx: Db, me: string, targetId: string): Promise<string[]> {
  const [a, b] = matchPair(me, targetId);
  const gone = await trx.deleteFrom('conversations').where('user_a', '=', a).where('user_b', '=', b).returning('id').execute();
  await trx.deleteFrom('matches').where('user_a', '=', a).where('user_b', '=', b).execute();
  await trx
    .deleteFrom('selections')
    .where((w) =>
      w.or([
        w.and([w('chooser_id', '=', me), w('target_id', '=', targetId)]),
        w.and([w('chooser_id', '=', targetId), w('target_id', '=', me)]),
      ]),
    )
    .execute();
  return gone.map((c) => c.id);
}

/** Whether a chat photo (message_photos.id) exists at all, to tell "not reported" from "no such photo". */
export async function chatPhotoExists(db: Db, photoId: string): Promise<boolean> {
  return Boolean(await db.selectFrom('message_photos').select('id').where('id', '=', photoId).executeTakeFirst());
}
