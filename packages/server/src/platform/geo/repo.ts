import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { listedGeo, shiftOf } from '../geo.ts';

/**
 * Moves the point lists place him by (user_locations.geo) to his place or his area, from his stored
 * cell centre and place shift, when his locationSafety changes which it is (core `placedByArea`).
 * No location: nothing to move. Gives the location moved from (undefined: none), for the grid
 * lists it leaves and joins.
 */
export async function placeLocation(
  db: Db,
  userId: string,
  byArea: boolean,
): Promise<{ lat: number; lng: number; shift_lat: number; shift_lng: number } | undefined> {
  const at = await db
    .selectFrom('user_locations')
    .select(['lat', 'lng', 'shift_lat', 'shift_lng'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!at) return undefined;
  const geo = sql<string>`${listedGeo(userId, at, shiftOf(at), byArea)}::cube`;
  // geo is never written through the row type (it is derived): set it in SQL.
  await db
    .updateTable('user_locations')
    .set({ ...({ geo } as object) })
    .where('user_id', '=', userId)
    .execute();
  return at;
}
