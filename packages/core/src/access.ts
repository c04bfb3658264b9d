import { AccessMessages, INCOGNITO_UPSELL, PRIVACY_UPSELL, READ_RECEIPTS_UPSELL, VIDEO_CALL_UPSELL } from './access-limits.ts';
import { distanceView, listedInGrid, listedNearby } from './access-location.ts';
import {
  type Action,
  type Actor,
  type Decision,
  type DenyReason,
  type OwnAction,
  STAFF_ACTIONS,
  type StaffAction,
  type StaffGrant,
  type Subject,
  USER_ACTIONS,
  type UserAction,
} from './access-vocabulary.ts';
import { type Permission, staffHas } from './admin.ts';
import { ACTIVITY_DISABLED, HEALTH_DISABLED } from './api-health.ts';
import { BoostMessages } from './boost.ts';
import { cruiseLimitText, cruisingAvailable } from './cruise.ts';
import { ADVANCED_FILTERS_UPSELL, CLICKABLE_UPSELL, CLICKABLE_UPSELL_PLATINUM, WHO_LIKES_YOU_UPSELL } from './discovery.ts';
import { defaultRules, type TierRules } from './flags.ts';
import { type OpenRelation, openOutcome, superLimitMessage, superRemaining } from './game.ts';
import { Messages } from './messages.ts';
import {
  CANNOT_BLOCK_SELF,
  COULD_NOT_FIND_CONVERSATION,
  messageLimitText,
  messagesLeftToday,
  NOT_MATCHED_TEXT,
} from './messaging.ts';
import { selectionTypesFor } from './modes.ts';
import { photoAllowance } from './photos.ts';
import { MATCHES_ONLY_TEXT, NO_CONTACT_LINK_TEXT, VERIFIED_CONTACTS_ONLY_TEXT, VERIFIED_MESSAGES_ONLY_TEXT } from './settings.ts';
import { UNLIMITED } from './tiers.ts';
import { visibleSections } from './visibility.ts';

/**
 * Who may do what to whom: every access decision the product makes, as one pure function
 * `can(actor, action, subject)`, so that authorisation is one place to read and one to test. The
 * server builds an Actor and a Subject from what it read, asks once at the top of a service
 * method, and maps a refusal to its status; the web may ask the same question to hide a button.
 * Limits counted per day or period come in as counts the caller read (`Actor.usage`), so the
 * rule stays pure and the clock stays outside.
 */

export * from './access-limits.ts';
export * from './access-vocabulary.ts';

/**
 * A block protects its maker, so it is never refused for what it would guard against: not for a
 * user who blocked you (that would tell you), an inactive one, or one still in onboarding.
 */
export const SAFETY_ACTIONS: readonly UserAction[] = ['user.block', 'user.unblock'];

/** Own actions that show other users, so they wait for a complete profile like the user actions. */
const OWN_ACTIONS_ON_OTHERS: readonly OwnAction[] = ['users.browse', 'likes.seeIdentities', 'call.signal'];

/** Every tier rule reads the actor's limits and features here: the flag store's, or the seed's. */
export const rulesOf = (actor: Pick<Actor, 'tier' | 'rules'>): TierRules => actor.rules ?? defaultRules(actor.tier);

const ALLOW: Decision = { allowed: true, spends: null };
const deny = (reason: DenyReason, message: string): Decision => ({ allowed: false, reason, message });

/** The OpenRelation of the open rule, from the access vocabulary. */
export function openRelationOf(actor: Pick<Actor, 'id'>, subject: Pick<Subject, 'id' | 'relation'>): OpenRelation {
  const r = subject.relation;
  return {
    self: actor.id === subject.id,
    matched: r.matched,
    conversation: r.conversation,
    likedViewer: r.likedActor,
    openedToday: r.openedToday,
  };
}

/** The refusal text of a missing subject, per action: conversation actions say so (spec section 8). */
function notFoundText(action: UserAction): string {
  if (action === 'message.send' || action === 'conversation.read' || action === 'call.start') return COULD_NOT_FIND_CONVERSATION;
  return Messages.userNotFound;
}

/** What each user action answers when the subject is the actor himself. */
const SELF: Record<UserAction, Decision> = {
  'profile.view': ALLOW,
  'profile.open': ALLOW,
  'profile.seeDating': ALLOW,
  'profile.seeNow': ALLOW,
  'profile.seeMode': ALLOW,
  'presence.see': ALLOW,
  'lastActive.see': ALLOW,
  'profile.seeRightNow': ALLOW,
  'profile.seeHealth': ALLOW,
  'contact.link': deny('self', Messages.userNotFound),
  // The grid and the nearby list never show the viewer to himself.
  'grid.list': deny('self', Messages.userNotFound),
  'grid.seeDistance': deny('self', Messages.userNotFound),
  'cruise.listNearby': deny('self', Messages.userNotFound),
  'cruise.seeArea': deny('self', Messages.userNotFound),
  // A selection of oneself is answered as an unknown user.
  'game.select': deny('not_found', Messages.userNotFound),
  'game.fuck': deny('not_found', Messages.userNotFound),
  'game.marry': deny('not_found', Messages.userNotFound),
  'game.super': deny('not_found', Messages.userNotFound),
  'prompt.like': deny('self', Messages.ownPromptLike),
  'conversation.open': deny('self', AccessMessages.cannotMessageSelf),
  'conversation.read': deny('not_participant', COULD_NOT_FIND_CONVERSATION),
  'message.send': deny('not_participant', COULD_NOT_FIND_CONVERSATION),
  'message.seeReceipts': deny('self', COULD_NOT_FIND_CONVERSATION),
  'call.start': deny('not_participant', COULD_NOT_FIND_CONVERSATION),
  'user.block': deny('self', CANNOT_BLOCK_SELF),
  // Nothing to undo: a no-op, as the server answers it.
  'user.unblock': ALLOW,
};

const isUserAction = (a: Action): a is UserAction => (USER_ACTIONS as readonly string[]).includes(a);
const isStaffAction = (a: Action): a is StaffAction => (STAFF_ACTIONS as readonly string[]).includes(a);

/**
 * The one access decision (docs/decisions/0013). Checks run in a fixed order so that nothing
 * about another user leaks through an earlier refusal: the actor's own state (active, onboarding
 * finished) first, then whether the other user is there for him at all (a block either way,
 * an inactive account: one answer, see `looksLikeNotFound`), then settings, then tier limits.
 * Total: any input gives a Decision; a user action without a subject is 'not_found'.
 */
export function can(actor: Actor, action: Action, subject?: Subject): Decision {
  if (!actor.isActive) return deny('inactive', Messages.authRequired);
  if (isStaffAction(action)) return staffDecision(actor.staff, action);
  if (!isUserAction(action)) return ownDecision(actor, action);
  if (subject?.id === actor.id) return SELF[action];
  const acting = canActOnOthers(actor, action);
  if (!acting.allowed) return acting;
  if (SAFETY_ACTIONS.includes(action)) return subject ? ALLOW : deny('not_found', notFoundText(action));
  if (!subject) return deny('not_found', notFoundText(action));
  const r = subject.relation;
  // Blocked before inactive, but both answer alike: the actor must not tell one from the other.
  if (r.blockedByActor || r.blockedActor) return deny('blocked', notFoundText(action));
  if (!subject.isActive) return deny('not_found', notFoundText(action));
  return userDecision(actor, action, subject);
}

/**
 * The actor's half of `can` for a user action on another user: what his own state decides before
 * that user is looked at (an inactive account, an unfinished profile; a block or unblock is never
 * refused here). For a call whose other user is checked by the very statement that acts (the
 * message send answers a retry before its block check), the server asks this alone. Whatever it
 * refuses, `can` refuses alike for every other subject.
 */
export function canActOnOthers(actor: Actor, action: UserAction): Decision {
  if (!actor.isActive) return deny('inactive', Messages.authRequired);
  if (SAFETY_ACTIONS.includes(action)) return ALLOW;
  // Before the subject is looked at: an unfinished profile learns nothing about who exists.
  if (!actor.profileComplete) return deny('incomplete_profile', Messages.profileIncomplete);
  return ALLOW;
}

/** User actions once the subject is another, active, unblocked user and the actor may act at all. */
function userDecision(actor: Actor, action: UserAction, s: Subject): Decision {
  const r = s.relation;
  const set = s.settings;
  // Known to him: a match or a conversation partner sees past his privacy controls.
  const known = r.matched || r.conversation;
  switch (action) {
    case 'profile.view':
    case 'profile.open':
      // Profile visibility 'matches' (spec section 6): his profile is there only for those he knows.
      if (set.profileVisibility !== 'public' && !known) return deny('hidden', Messages.userNotFound);
      return action === 'profile.open' ? openDecision(actor, s) : ALLOW;
    case 'game.select':
      return ALLOW;
    case 'profile.seeRightNow':
      return !set.cruisingPrivate || known ? ALLOW : deny('hidden', Messages.notFound);
    case 'profile.seeHealth':
      return !set.healthPrivate || known ? ALLOW : deny('hidden', Messages.notFound);
    case 'contact.link':
      return set.activityPrivate ? deny('restricted', NO_CONTACT_LINK_TEXT) : ALLOW;
    case 'profile.seeDating':
    case 'profile.seeNow': {
      // The owner's modeVisibility against a match or anyone (spec section 3 "modeVisibility").
      const sections = visibleSections(set.modeVisibility, { isSelf: false, isMatch: r.matched });
      const shown = action === 'profile.seeDating' ? sections.dating : sections.now;
      return shown ? ALLOW : deny('hidden', Messages.notFound);
    }
    case 'profile.seeMode':
      return set.showModeInProfile ? ALLOW : deny('hidden', Messages.notFound);
    // Presence as others see it (spec section 3 "User settings": showOnlineStatus, showLastActive).
    case 'presence.see':
      return set.showOnlineStatus ? ALLOW : deny('hidden', Messages.notFound);
    case 'lastActive.see':
      return set.showLastActive ? ALLOW : deny('hidden', Messages.notFound);
    case 'grid.list':
    case 'grid.seeDistance':
      // Distance is a label between cells (geo.ts), or areas: see `distanceView`.
      if (!listedInGrid(actor, s)) return deny('hidden', Messages.userNotFound);
      return action === 'grid.seeDistance' && distanceView(set, r.matched) === 'none'
        ? deny('hidden', Messages.userNotFound)
        : ALLOW;
    case 'cruise.listNearby':
    case 'cruise.seeArea': {
      if (!cruisingAvailable(actor.settings)) return deny('feature_disabled', AccessMessages.cruisingDisabled);
      // Cruising privacy: among nearby cruisers only for matches and conversation partners.
      if (!listedNearby(s) || (set.cruisingPrivate && !known)) return deny('hidden', Messages.userNotFound);
      // Approximate precision, or less than his cell to this actor: listed, never his cell on the map.
      const area = set.locationPrecision === 'exact' && distanceView(set, r.matched) === 'cell';
      return action === 'cruise.seeArea' && !area ? deny('hidden', Messages.userNotFound) : ALLOW;
    }
    case 'game.fuck':
    case 'game.marry': {
      const choice = action === 'game.fuck' ? 'fuck' : 'marry';
      // Spec section 3 "App preferences": both offers fuck and marry, otherwise only the chosen one.
      if (!selectionTypesFor(actor.settings.appMode).includes(choice))
        return deny('not_offered', AccessMessages.notOffered(choice));
      return unverifiedRefusal(actor, s, 'contact') ?? ALLOW;
    }
    case 'game.super': {
      const unverified = unverifiedRefusal(actor, s, 'contact');
      if (unverified) return unverified;
      const left = superRemaining(rulesOf(actor).limits.supersPerDay, actor.usage.supersToday);
      return left === UNLIMITED || left > 0 ? ALLOW : deny('tier_limit', superLimitMessage(actor.tier));
    }
    case 'prompt.like': {
      // Only answers he can see: a hidden dating section has no prompts for this actor.
      const sections = visibleSections(set.modeVisibility, { isSelf: false, isMatch: r.matched });
      if (!sections.dating) return deny('hidden', Messages.promptNotFound);
      return unverifiedRefusal(actor, s, 'contact') ?? ALLOW;
    }
    case 'conversation.open':
      if (r.conversation) return ALLOW;
      if (!r.matched && !rulesOf(actor).has.messageBeforeMatch) return deny('tier_limit', NOT_MATCHED_TEXT);
      if (set.messagesFrom === 'matches' && !r.matched) return deny('restricted', MATCHES_ONLY_TEXT);
      return unverifiedRefusal(actor, s, 'message') ?? ALLOW;
    case 'conversation.read':
      return r.conversation ? ALLOW : deny('not_participant', COULD_NOT_FIND_CONVERSATION);
    case 'message.send': {
      // Spec section 5: a message needs an existing conversation with another participant.
      if (!r.conversation) return deny('not_participant', COULD_NOT_FIND_CONVERSATION);
      // His message settings: matches only (fmk_send_message holds the same rule, FK403).
      if (set.messagesFrom === 'matches' && !r.matched) return deny('restricted', MATCHES_ONLY_TEXT);
      // His communication safety, next (fmk_send_message, FK403 in the same order).
      const unverified = unverifiedRefusal(actor, s, 'message');
      if (unverified) return unverified;
      const limit = rulesOf(actor).limits.messagesPerDay;
      const left = messagesLeftToday(actor.tier, actor.usage.messagesToday, limit);
      return left === UNLIMITED || left > 0 ? ALLOW : deny('tier_limit', messageLimitText(actor.tier, limit));
    }
    case 'message.seeReceipts':
      // The actor is the sender; the reader's showReadReceipts decides (spec section 6).
      if (!rulesOf(actor).has.readReceipts) return deny('tier_limit', READ_RECEIPTS_UPSELL);
      return set.showReadReceipts ? ALLOW : deny('hidden', Messages.notFound);
    case 'call.start':
      // A match or a conversation between the two, so no stranger can ring; the callee may be on any tier.
      if (!r.conversation && !r.matched) return deny('not_participant', COULD_NOT_FIND_CONVERSATION);
      return (
        unverifiedRefusal(actor, s, 'contact') ?? (rulesOf(actor).has.videoCall ? ALLOW : deny('tier_limit', VIDEO_CALL_UPSELL))
      );
    case 'user.block':
    case 'user.unblock':
      return ALLOW;
  }
}

/**
 * His communication safety (spec section 3) against an actor without the verified badge (a phone
 * confirmed by a texted code): blockUnverifiedUsers (= restrictUnverifiedContacts, "men who haven't
 * verified their phone can't contact you") refuses every contact: a new conversation, a message, a
 * call, a like, a super, a prompt like; requirePhoneVerification refuses messages. A match or an
 * earlier conversation is no exception (the promise has none): he verifies, then he may.
 * Null when nothing here refuses.
 */
function unverifiedRefusal(actor: Actor, s: Subject, kind: 'message' | 'contact'): Decision | null {
  if (actor.verified) return null;
  if (s.settings.blockUnverifiedUsers) return deny('restricted', VERIFIED_CONTACTS_ONLY_TEXT);
  if (kind === 'message' && s.settings.requirePhoneVerification) return deny('restricted', VERIFIED_MESSAGES_ONLY_TEXT);
  return null;
}

/**
 * The open rule (spec section 6, clickable grid profiles 5 / 25 / unlimited): a choice the viewer
 * spends, any N distinct profiles a UTC day, counted when first opened (core `openOutcome`).
 */
function openDecision(actor: Actor, s: Subject): Decision {
  const outcome = openOutcome(
    actor.tier,
    openRelationOf(actor, s),
    actor.usage.opensToday,
    rulesOf(actor).limits.clickableProfiles,
  );
  if (outcome === 'open') return ALLOW;
  if (outcome === 'spend') return { allowed: true, spends: 'open' };
  return deny('tier_limit', actor.tier === 'free' ? CLICKABLE_UPSELL : CLICKABLE_UPSELL_PLATINUM);
}

function ownDecision(actor: Actor, action: OwnAction): Decision {
  if (OWN_ACTIONS_ON_OTHERS.includes(action) && !actor.profileComplete) {
    return deny('incomplete_profile', Messages.profileIncomplete);
  }
  const { has: features, limits } = rulesOf(actor);
  switch (action) {
    case 'users.browse':
      return ALLOW;
    case 'likes.seeIdentities':
      // Free users see blurred cards: the count, never who (spec section 6 "Who-likes-you").
      return features.whoLikesYou ? ALLOW : deny('tier_limit', WHO_LIKES_YOU_UPSELL);
    case 'filters.advanced':
      return features.advancedFilters ? ALLOW : deny('tier_limit', ADVANCED_FILTERS_UPSELL);
    case 'incognito.use':
      return features.incognito ? ALLOW : deny('tier_limit', INCOGNITO_UPSELL);
    case 'privacy.control':
      return features.privacyControls ? ALLOW : deny('tier_limit', PRIVACY_UPSELL);
    case 'photo.add': {
      // actor.tier is already effective, so no lifetime flag is needed here.
      const allowance = photoAllowance(
        { subscriptionTier: actor.tier, hasLifetimePremium: false },
        actor.usage.photos,
        limits.photos,
      );
      return allowance.allowed ? ALLOW : deny('tier_limit', allowance.message);
    }
    case 'cruise.use':
      return cruisingAvailable(actor.settings) ? ALLOW : deny('feature_disabled', AccessMessages.cruisingDisabled);
    case 'cruise.start': {
      if (!cruisingAvailable(actor.settings)) return deny('feature_disabled', AccessMessages.cruisingDisabled);
      if (!actor.settings.locationSharingConsent) return deny('consent_required', AccessMessages.cruiseConsentRequired);
      if (!actor.settings.hasLocation) return deny('location_required', AccessMessages.cruiseLocationRequired);
      const quota = limits.cruiseSessions;
      return quota === UNLIMITED || actor.usage.cruiseStarts < quota ? ALLOW : deny('tier_limit', cruiseLimitText(actor.tier));
    }
    case 'health.use':
      return actor.settings.healthEnabled ? ALLOW : deny('feature_disabled', HEALTH_DISABLED);
    case 'activity.use':
      return actor.settings.activityTrackingEnabled ? ALLOW : deny('feature_disabled', ACTIVITY_DISABLED);
    case 'call.signal':
      // The same feature as call.start: a caller who lost it while talking is refused here.
      return features.videoCall ? ALLOW : deny('tier_limit', VIDEO_CALL_UPSELL);
    case 'boost.use':
      return features.boost ? ALLOW : deny('tier_limit', BoostMessages.upsell);
    case 'support.use':
      return ALLOW;
  }
}

/**
 * Staff actions (spec sections 4, 5, 6). The admin area's entry needs an active staff record;
 * each staff action asks core's admin rule for it. Neither tier nor onboarding matters to staff.
 */
function staffDecision(staff: StaffGrant | null, action: StaffAction): Decision {
  if (action === 'admin.access') {
    if (!staff) return deny('staff_only', AccessMessages.notAnAdmin);
    return staff.isActive ? ALLOW : deny('staff_inactive', AccessMessages.adminInactive);
  }
  return staffHas(staff, action.slice('admin.'.length) as Permission) ? ALLOW : deny('staff_only', Messages.adminRequired);
}
