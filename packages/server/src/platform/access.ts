import {
  type Action,
  type Actor,
  can,
  canActOnOthers,
  DEFAULT_MODE_SETTINGS,
  DEFAULT_SETTINGS,
  type Decision,
  effectiveTier,
  looksLikeNotFound,
  type Subject,
  type Tier,
  type TierRules,
  type UserAction,
} from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { type ActorRow, findActorRow, findSubjectRow, findTierRow, type SubjectRow } from './access/repo.ts';
import { authUser } from './auth.ts';
import { type AppError, badRequest, forbidden, limitReached, notFound, unauthorized } from './errors.ts';
import { loadRules } from './flags.ts';
import { storedFromRow } from './settings/columns.ts';

/**
 * The server's side of core's `can` (docs/decisions/0013): load the actor and the
 * subject, ask once at the top of a service method, and answer a refusal with the domain error
 * the API has always given for it.
 */

type Usage = Actor['usage'];

/**
 * The counts `can` reads for a limited action. Each is read by the service that spends it, in
 * the transaction and under the lock that spends it, and handed to `requireAccess`; the actor as
 * loaded carries none, so a request that spends nothing pays for no count.
 */
const USAGE_OF: Partial<Record<Action, keyof Usage>> = {
  'profile.open': 'opensToday',
  'message.send': 'messagesToday',
  'game.super': 'supersToday',
  'cruise.start': 'cruiseStarts',
  'photo.add': 'photos',
};

/** Not read: requireAccess insists on the count of an action that needs one. NaN fails any limit closed. */
const UNREAD_USAGE: Usage = { opensToday: NaN, messagesToday: NaN, supersToday: NaN, cruiseStarts: NaN, photos: NaN };

/**
 * The effective tier, the one way it is read: `subscription_tier` is written only by
 * billing from the user's subscription (modules/billing/tier.ts), lifted to premium for a beta
 * user with lifetime premium (never below). Staff are not lifted here: the flag gate
 * (`featureAccess`) lets staff through premium features (spec section 5).
 */
const tierOf = (r: Pick<ActorRow, 'subscription_tier' | 'has_lifetime_premium'>): Tier =>
  effectiveTier({ subscriptionTier: r.subscription_tier, hasLifetimePremium: r.has_lifetime_premium });

export function toActor(r: ActorRow, rules?: TierRules): Actor {
  return {
    id: r.id,
    tier: tierOf(r),
    ...(rules ? { rules } : {}),
    staff: r.staff_role
      ? { role: r.staff_role, isActive: r.staff_active ?? false, permissions: r.staff_permissions ?? null }
      : null,
    // A phone number confirmed by a texted code (core/phone.ts): the verified badge.
    verified: r.phone_verified_at !== null,
    profileComplete: r.onboarding_complete,
    isActive: r.is_active,
    currentMode: r.current_mode,
    settings: {
      appMode: r.app_mode,
      cruisingEnabled: r.cruising_enabled,
      healthEnabled: r.health_enabled,
      activityTrackingEnabled: r.activity_tracking_enabled,
      // No settings row yet means the defaults: no consent.
      locationSharingConsent: r.location_sharing_consent ?? false,
      hasLocation: r.has_location,
    },
    usage: UNREAD_USAGE,
    userSettings: storedFromRow(r.settings_row ?? {}, r.mode_settings),
  };
}

/** The user as an actor, in one statement; undefined when there is no such user. */
export async function loadActor(db: Db, userId: string): Promise<Actor | undefined> {
  const row = await findActorRow(db, userId);
  return row ? actorFromRow(db, row) : undefined;
}

/** The actor of a row read by findActorRow (here, or held by the grid's memory), with his tier's rules. */
export async function actorFromRow(db: Db, row: ActorRow): Promise<Actor> {
  return toActor(row, await loadRules(db, tierOf(row)));
}

/**
 * Another user's effective tier, read through `db` (a transaction when the caller holds a lock);
 * undefined when there is no such user. The caller's own is `actor.tier`; this is for the other
 * side of a rule (a sender's read receipts) and for jobs that act for a user (the cruise sweeper).
 */
export async function loadTier(db: Db, userId: string): Promise<Tier | undefined> {
  const row = await findTierRow(db, userId);
  return row ? tierOf(row) : undefined;
}

/** Another user's tier and its rules from the flag store (the sender's read receipts). */
export async function loadTierRules(db: Db, userId: string): Promise<{ tier: Tier; rules: TierRules } | undefined> {
  const tier = await loadTier(db, userId);
  return tier ? { tier, rules: await loadRules(db, tier) } : undefined;
}

const actors = new WeakMap<FastifyRequest, Promise<Actor>>();

/**
 * The signed-in caller as an actor, loaded on first use and kept for the rest of the request (a
 * route's preHandler and its handler share one read); routes that never ask, such as
 * GET /auth/check, read nothing.
 */
export function actorOf(req: FastifyRequest, db: Db): Promise<Actor> {
  let actor = actors.get(req);
  if (!actor) {
    const { userId } = authUser(req);
    actor = loadActor(db, userId).then((a) => {
      if (!a) throw unauthorized();
      return a;
    });
    actors.set(req, actor);
  }
  return actor;
}

export function toSubject(r: SubjectRow): Subject {
  return {
    id: r.id,
    isActive: r.is_active,
    profileComplete: r.onboarding_complete,
    currentMode: r.current_mode,
    relation: {
      blockedByActor: Boolean(r.blocked_by_actor),
      blockedActor: Boolean(r.blocked_actor),
      matched: Boolean(r.matched),
      conversation: Boolean(r.conversation),
      likedActor: Boolean(r.liked_actor),
      openedToday: Boolean(r.opened_today),
    },
    // No settings row yet means the column defaults.
    settings: {
      modeVisibility: r.mode_visibility,
      showModeInProfile: (r.mode_settings ?? DEFAULT_MODE_SETTINGS).privacySettings.showModeInProfile,
      incognito: r.incognito_mode ?? false,
      showOnlineStatus: r.show_online_status ?? true,
      showLastActive: r.show_last_active ?? true,
      showReadReceipts: r.show_read_receipts ?? true,
      locationSharingConsent: r.location_sharing_consent ?? false,
      locationPrecision: r.location_precision ?? 'exact',
      profileVisibility: r.profile_visibility ?? DEFAULT_SETTINGS.privacy.profileVisibility,
      shareDistance: r.share_distance ?? DEFAULT_SETTINGS.privacy.shareDistance,
      messagesFrom: r.messages_from ?? DEFAULT_SETTINGS.privacy.messagesFrom,
      cruisingPrivate: r.cruising_private ?? DEFAULT_SETTINGS.privacy.cruisingPrivate,
      healthPrivate: r.health_private ?? DEFAULT_SETTINGS.privacy.healthPrivate,
      activityPrivate: r.activity_private ?? DEFAULT_SETTINGS.privacy.activityPrivate,
      blockUnverifiedUsers: r.block_unverified_users ?? DEFAULT_SETTINGS.safety.communicationSafety.blockUnverifiedUsers,
      requirePhoneVerification:
        r.require_phone_verification ?? DEFAULT_SETTINGS.safety.communicationSafety.requirePhoneVerification,
      shareLocationEnabled: r.share_location_enabled ?? DEFAULT_SETTINGS.safety.locationSafety.shareLocationEnabled,
      shareOnlyWithMatches: r.share_only_with_matches ?? DEFAULT_SETTINGS.safety.locationSafety.shareOnlyWithMatches,
      hideExactLocation: r.hide_exact_location ?? DEFAULT_SETTINGS.safety.locationSafety.hideExactLocation,
    },
    cruising: Boolean(r.cruising),
  };
}

/**
 * The other user as the actor's rules see him, read through `db` (a transaction when the caller
 * acts under a lock); undefined when there is no such user, which `requireAccess` answers as
 * not found.
 */
export async function loadSubject(db: Db, actor: Actor, otherId: string, now: Date): Promise<Subject | undefined> {
  const row = await findSubjectRow(db, actor.id, otherId, { today: now.toISOString().slice(0, 10), now });
  return row ? toSubject(row) : undefined;
}

/**
 * Fields of the 400 answers: a refusal that is the request's own mistake (oneself, a choice the
 * app mode does not offer) names the field at fault, as these routes always have.
 */
const INPUT_FIELDS: Partial<Record<Action, Record<string, string>>> = {
  'conversation.open': { userId: 'is you' },
  'user.block': { id: 'is you' },
  'game.fuck': { action: 'not offered by appMode' },
  'game.marry': { action: 'not offered by appMode' },
};

/** The domain error of a refusal: the status, code and message each of these checks gave before. */
export function accessError(action: Action, d: Extract<Decision, { allowed: false }>): AppError {
  if (looksLikeNotFound(d.reason)) return notFound(d.message);
  switch (d.reason) {
    case 'inactive':
      return unauthorized(d.message);
    case 'incomplete_profile':
      // The code onboarding's finish route gives for the same state.
      return forbidden(d.message, 'profile_incomplete');
    case 'tier_limit':
      return limitReached(d.message);
    case 'self':
    case 'not_offered':
      return badRequest(d.message, INPUT_FIELDS[action]);
    case 'feature_disabled':
      return forbidden(d.message, action.startsWith('cruise.') ? 'cruising_disabled' : 'feature_disabled');
    case 'consent_required':
    case 'location_required':
      return forbidden(d.message, d.reason);
    case 'staff_only':
      return forbidden(d.message, action === 'admin.access' ? 'not_admin' : 'admin_required');
    case 'staff_inactive':
      return forbidden(d.message, 'admin_inactive');
    default:
      return forbidden(d.message);
  }
}

/**
 * The one access check, first in every service method: core's `can`, thrown as its domain error
 * when refused. A limited action takes the count its caller read (`usage`); asking one without it
 * is a bug, not a refusal. Returns the decision, whose `spends` says whether a profile open is spent.
 */
export function requireAccess(
  actor: Actor,
  action: Action,
  subject?: Subject,
  usage?: Partial<Usage>,
): Extract<Decision, { allowed: true }> {
  const counted = USAGE_OF[action];
  if (counted && usage?.[counted] === undefined) throw new Error(`requireAccess(${action}) needs usage.${counted}`);
  const d = can(usage ? { ...actor, usage: { ...actor.usage, ...usage } } : actor, action, subject);
  if (!d.allowed) throw accessError(action, d);
  return d;
}

/**
 * The actor's half of `requireAccess`, for a call whose other user is checked by the statement
 * that acts (core `canActOnOthers`): his own state decides before anyone else is looked at.
 */
export function requireActingOnOthers(actor: Actor, action: UserAction): void {
  const d = canActOnOthers(actor, action);
  if (!d.allowed) throw accessError(action, d);
}
