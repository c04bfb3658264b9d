import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { hasBlocked } from '../blocks/repo.ts';
import type { SettingsRow } from '../settings/columns.ts';

/**
 * SQL of the access layer: who asks (the actor) and how another user stands to him (the
 * subject). Primary-key and unique-index lookups only, one statement each.
 */

/**
 * The signed-in user as every access rule reads him: his row, his settings, his staff record and
 * whether he has a live location. No counts: a limit's count is read by the service that spends
 * it, under its own lock.
 */
export function findActorRow(db: Db, userId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_settings as s', 's.user_id', 'u.id')
    .leftJoin('admin_users as a', 'a.user_id', 'u.id')
    .leftJoin('user_locations as ul', 'ul.user_id', 'u.id')
    .select([
      'u.id',
      'u.subscription_tier',
      'u.has_lifetime_premium',
      'u.is_active',
      'u.onboarding_complete',
      'u.current_mode',
      'u.app_mode',
      'u.cruising_enabled',
      'u.health_enabled',
      'u.activity_tracking_enabled',
      'u.phone_verified_at',
      'u.mode_settings',
      's.location_sharing_consent',
      // His whole settings row (the settings store, settings/columns.ts); null without one.
      sql<SettingsRow | null>`to_jsonb(s)`.as('settings_row'),
      'a.role as staff_role',
      'a.is_active as staff_active',
      'a.permissions as staff_permissions',
      sql<boolean>`coalesce(ul.is_active and ul.lat is not null, false)`.as('has_location'),
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}
export type ActorRow = NonNullable<Awaited<ReturnType<typeof findActorRow>>>;

/**
 * A user's tier columns (effectiveTier reads them), for a user who is not the one asking: the
 * caller's own tier is on his actor. Every feature reads another user's tier here.
 */
export function findTierRow(db: Db, userId: string) {
  return db.selectFrom('users').select(['subscription_tier', 'has_lifetime_premium']).where('id', '=', userId).executeTakeFirst();
}

/**
 * Another user as the actor's rules read him: his state and settings, and in the same statement
 * how the two stand (blocks each way, match, conversation, his selection of the actor, the
 * actor's open of him today, his live cruise session).
 */
export function findSubjectRow(db: Db, actorId: string, otherId: string, q: { today: string; now: Date }) {
  const [a, b] = actorId < otherId ? [actorId, otherId] : [otherId, actorId];
  return db
    .selectFrom('users as u')
    .leftJoin('user_settings as s', 's.user_id', 'u.id')
    .select((eb) => [
      'u.id',
      'u.is_active',
      'u.onboarding_complete',
      'u.current_mode',
      'u.mode_visibility',
      'u.mode_settings',
      's.incognito_mode',
      's.show_online_status',
      's.show_last_active',
      's.show_read_receipts',
      's.location_sharing_consent',
      's.location_precision',
      's.profile_visibility',
      's.share_distance',
      's.messages_from',
      's.cruising_private',
      's.health_private',
      's.activity_private',
      's.block_unverified_users',
      's.require_phone_verification',
      's.share_location_enabled',
      's.share_only_with_matches',
      's.hide_exact_location',
      hasBlocked(actorId, otherId).as('blocked_by_actor'),
      hasBlocked(otherId, actorId).as('blocked_actor'),
      eb.exists(eb.selectFrom('matches').select('id').where('user_a', '=', a).where('user_b', '=', b)).as('matched'),
      eb.exists(eb.selectFrom('conversations').select('id').where('user_a', '=', a).where('user_b', '=', b)).as('conversation'),
      eb
        .exists(eb.selectFrom('selections').select('id').where('chooser_id', '=', otherId).where('target_id', '=', actorId))
        .as('liked_actor'),
      eb
        .exists(
          eb
            .selectFrom('grid_unlocks')
            .select('target_id')
            .where('viewer_id', '=', actorId)
            .where('day', '=', q.today)
            .where('target_id', '=', otherId),
        )
        .as('opened_today'),
      eb
        .exists(
          eb
            .selectFrom('cruise_sessions')
            .select('id')
            .where('user_id', '=', otherId)
            .where('ended_at', 'is', null)
            .where('ends_at', '>', q.now),
        )
        .as('cruising'),
    ])
    .where('u.id', '=', otherId)
    .executeTakeFirst();
}
export type SubjectRow = NonNullable<Awaited<ReturnType<typeof findSubjectRow>>>;
