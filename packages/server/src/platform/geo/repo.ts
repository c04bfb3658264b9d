import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { listedGeo } from '../geo.ts';

/**
 * Moves the point lists place him by (user_locations.geo) to his cell or his area, from his stored
 * cell centre, when his locationSafety changes which it is (core `placedByArea`). No location: nothing to move.
 */
export async function placeLocation(db: Db, userId: string, byArea: boolean): Promise<void> {
  const at = await db.selectFrom('user_locations').select(['lat', 'lng']).where('user_id', '=', userId).executeTakeFirst();
  if (!at) return;
  const geo = sql<string>`${listedGeo(userId, at, byArea)}::cube`;
  // geo is never written through the row type (it is derived): set it in SQL.
  await db
    .updateTable('user_locations')
    .set({ ...({ geo } as object) })
    .where('user_id', '=', userId)
    .execute();
}
