import type { PlaceShift } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import { listedGeo } from '../../../platform/geo.ts';
import { saveSettings } from '../../../platform/settings/repo.ts';

/** SQL of a member's own location: stored as his cell centre, with his place shift (docs/decisions/0016). */

export interface LocationRow {
  lat: number;
  lng: number;
  shift_lat: number;
  shift_lng: number;
  is_active: boolean;
  last_updated: Date;
}

export function findLocation(db: Db, userId: string): Promise<LocationRow | undefined> {
  return db
    .selectFrom('user_locations')
    .select(['lat', 'lng', 'shift_lat', 'shift_lng', 'is_active', 'last_updated'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * Stores a cell centre (already snapped by the caller) as the user's location, active, with his
 * place shift (kept from his first location on); the point lists place him by is his place, or
 * his area's when `byArea` (platform/geo listedGeo).
 */
export async function upsertLocation(
  db: Db,
  l: {
    userId: string;
    lat: number;
    lng: number;
    row: number;
    col: number;
    shift: PlaceShift;
    mode: 'dating' | 'now';
    at: Date;
    byArea: boolean;
  },
): Promise<void> {
  const geo = sql<string>`${listedGeo(l.userId, l, l.shift, l.byArea)}::cube`;
  const row = {
    lat: l.lat,
    lng: l.lng,
    shift_lat: l.shift.lat,
    shift_lng: l.shift.lng,
    // geo is never written through the row type (it is derived): set it in SQL.
    ...({ geo } as object),
    cell_row: l.row,
    cell_col: l.col,
    is_active: true,
    mode: l.mode,
    last_updated: l.at,
  };
  await db
    .insertInto('user_locations')
    .values({ user_id: l.userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

export async function flagLocation(db: Db, userId: string, at: Date, reason: string): Promise<void> {
  await db.updateTable('user_locations').set({ flagged_at: at, flag_reason: reason }).where('user_id', '=', userId).execute();
}

/** Takes his location out of every list; the location it had, if any (the lists it leaves). */
export async function deactivateLocation(
  db: Db,
  userId: string,
): Promise<{ lat: number; lng: number; shift_lat: number; shift_lng: number } | undefined> {
  return db
    .updateTable('user_locations')
    .set({ is_active: false })
    .where('user_id', '=', userId)
    .returning(['lat', 'lng', 'shift_lat', 'shift_lng'])
    .executeTakeFirst();
}

/** The user's row locked for the transaction, with what a location update needs. */
export function lockUserForLocation(trx: Db, userId: string) {
  return trx
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select([
      'users.current_mode',
      'user_settings.location_sharing_consent',
      'user_settings.share_only_with_matches',
      'user_settings.hide_exact_location',
    ])
    .where('users.id', '=', userId)
    .forUpdate('users')
    .executeTakeFirst();
}

export function setLocationConsent(db: Db, userId: string, consent: boolean, at: Date): Promise<void> {
  return saveSettings(db, userId, { location_sharing_consent: consent }, at);
}
