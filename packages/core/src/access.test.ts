import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  type Actor,
  can,
  canActOnOthers,
  DENY_REASONS,
  type Decision,
  looksLikeNotFound,
  OWN_ACTIONS,
  type Relation,
  rulesOf,
  SAFETY_ACTIONS,
  STAFF_ACTIONS,
  type Subject,
  TIER_FEATURES,
  USER_ACTIONS,
  type UserAction,
} from './access.ts';
import { PRIVACY_UPSELL, VIDEO_CALL_UPSELL } from './access-limits.ts';
import { ALL_PERMISSIONS, staffHas } from './admin.ts';
import { BoostMessages } from './boost.ts';
import { ADVANCED_FILTERS_UPSELL, CLICKABLE_UPSELL, CLICKABLE_UPSELL_PLATINUM, WHO_LIKES_YOU_UPSELL } from './discovery.ts';
import { DEFAULT_FLAGS, rulesFor } from './flags.ts';
import { Messages } from './messages.ts';
import { COULD_NOT_FIND_CONVERSATION, mayStartConversation, NOT_MATCHED_TEXT, showsReadReceipts } from './messaging.ts';
import { APP_MODES, DEFAULT_MODE_VISIBILITY, MODES } from './profile.ts';
import {
  DEFAULT_SETTINGS,
  MATCHES_ONLY_TEXT,
  MESSAGES_FROM,
  PROFILE_VISIBILITIES,
  VERIFIED_CONTACTS_ONLY_TEXT,
  VERIFIED_MESSAGES_ONLY_TEXT,
} from './settings.ts';
import { STAFF_ROLES, TIER_LIMITS, TIERS, type Tier, UNLIMITED } from './tiers.ts';

// ---------------------------------------------------------------------------------------------
// Generators: every field free, ids from a small pool so that self comes up often.

const ids = fc.constantFrom('u1', 'u2', 'u3');
const tier = fc.constantFrom(...TIERS);
const staff = fc.option(
  fc.record({
    role: fc.constantFrom(...STAFF_ROLES),
    isActive: fc.boolean(),
    permissions: fc.option(fc.array(fc.string(), { maxLength: 3 })),
  }),
);
const actorArb: fc.Arbitrary<Actor> = fc.record({
  id: ids,
  tier,
  staff,
  verified: fc.boolean(),
  profileComplete: fc.boolean(),
  isActive: fc.boolean(),
  currentMode: fc.constantFrom(...MODES),
  settings: fc.record({
    appMode: fc.constantFrom(...APP_MODES),
    cruisingEnabled: fc.boolean(),
    healthEnabled: fc.boolean(),
    activityTrackingEnabled: fc.boolean(),
    locationSharingConsent: fc.boolean(),
    hasLocation: fc.boolean(),
  }),
  usage: fc.record({
    opensToday: fc.nat(40),
    messagesToday: fc.nat(80),
    supersToday: fc.nat(8),
    cruiseStarts: fc.nat(3),
    photos: fc.nat(25),
  }),
  userSettings: fc.constant(DEFAULT_SETTINGS),
});
const relationArb: fc.Arbitrary<Relation> = fc.record({
  blockedByActor: fc.boolean(),
  blockedActor: fc.boolean(),
  matched: fc.boolean(),
  conversation: fc.boolean(),
  likedActor: fc.boolean(),
  openedToday: fc.boolean(),
});
const subjectArb: fc.Arbitrary<Subject> = fc.record({
  id: ids,
  isActive: fc.boolean(),
  profileComplete: fc.boolean(),
  currentMode: fc.constantFrom(...MODES),
  relation: relationArb,
  settings: fc.record({
    modeVisibility: fc.record({
      showInDating: fc.boolean(),
      showInNow: fc.boolean(),
      datingVisibleToAll: fc.boolean(),
      nowVisibleToAll: fc.boolean(),
      hideFromMatches: fc.boolean(),
    }),
    showModeInProfile: fc.boolean(),
    incognito: fc.boolean(),
    showOnlineStatus: fc.boolean(),
    showLastActive: fc.boolean(),
    showReadReceipts: fc.boolean(),
    locationSharingConsent: fc.boolean(),
    locationPrecision: fc.constantFrom('exact' as const, 'approximate' as const),
    profileVisibility: fc.constantFrom(...PROFILE_VISIBILITIES),
    shareDistance: fc.boolean(),
    messagesFrom: fc.constantFrom(...MESSAGES_FROM),
    cruisingPrivate: fc.boolean(),
    healthPrivate: fc.boolean(),
    activityPrivate: fc.boolean(),
    blockUnverifiedUsers: fc.boolean(),
    requirePhoneVerification: fc.boolean(),
    shareLocationEnabled: fc.boolean(),
    shareOnlyWithMatches: fc.boolean(),
    hideExactLocation: fc.boolean(),
  }),
  cruising: fc.boolean(),
});
const action = fc.constantFrom(...ACTIONS);
const userAction = fc.constantFrom(...USER_ACTIONS);
/** User actions that a block, an unfinished profile or a missing user refuse (all but block/unblock). */
const guardedAction = fc.constantFrom(...USER_ACTIONS.filter((a) => !SAFETY_ACTIONS.includes(a)));

/** An active actor with a complete profile: the one the user rules are about. */
const member = actorArb.map((a) => ({ ...a, isActive: true, profileComplete: true }));
/** Another user, neither blocked, active. */
const other = (actor: Actor) =>
  subjectArb.map(
    (s): Subject => ({
      ...s,
      id: `${actor.id}-other`,
      isActive: true,
      relation: { ...s.relation, blockedByActor: false, blockedActor: false },
    }),
  );
const noRelation: Relation = {
  blockedByActor: false,
  blockedActor: false,
  matched: false,
  conversation: false,
  likedActor: false,
  openedToday: false,
};
/** A plain member and another plain user, for the worked examples. */
const ME: Actor = {
  id: 'me',
  tier: 'free',
  staff: null,
  verified: false,
  profileComplete: true,
  isActive: true,
  currentMode: 'dating',
  settings: {
    appMode: 'both',
    cruisingEnabled: true,
    healthEnabled: true,
    activityTrackingEnabled: true,
    locationSharingConsent: true,
    hasLocation: true,
  },
  usage: { opensToday: 0, messagesToday: 0, supersToday: 0, cruiseStarts: 0, photos: 0 },
  userSettings: DEFAULT_SETTINGS,
};
const HIM: Subject = {
  id: 'him',
  isActive: true,
  profileComplete: true,
  currentMode: 'dating',
  relation: noRelation,
  settings: {
    modeVisibility: DEFAULT_MODE_VISIBILITY,
    showModeInProfile: true,
    incognito: false,
    showOnlineStatus: true,
    showLastActive: true,
    showReadReceipts: true,
    locationSharingConsent: true,
    locationPrecision: 'exact',
    profileVisibility: 'public',
    shareDistance: true,
    messagesFrom: 'everyone',
    cruisingPrivate: false,
    healthPrivate: false,
    activityPrivate: false,
    blockUnverifiedUsers: false,
    requirePhoneVerification: false,
    shareLocationEnabled: true,
    shareOnlyWithMatches: false,
    hideExactLocation: false,
  },
  cruising: false,
};
/** A member and another active, unblocked user. */
const memberAndOther = member.chain((a) => other(a).map((s) => ({ a, s })));
/** His communication safety off: what a man without the verified badge may do to him is not in question. */
const openTo = (s: Subject): Subject => ({
  ...s,
  settings: { ...s.settings, blockUnverifiedUsers: false, requirePhoneVerification: false },
});
const TIER_ORDER: Record<Tier, number> = { free: 0, premium: 1, platinum: 2 };

/** A refusal with 'blocked' read as 'not_found': the answer the actor can observe. */
const observed = (d: Decision) => (!d.allowed && d.reason === 'blocked' ? { ...d, reason: 'not_found' } : d);

// ---------------------------------------------------------------------------------------------

describe('can: the whole table', () => {
  it('is total: any actor, action and subject (or none) give a well-formed decision', () => {
    fc.assert(
      fc.property(actorArb, action, fc.option(subjectArb, { nil: undefined }), (a, act, s) => {
        const d = can(a, act, s);
        if (d.allowed) {
          // Only opening a profile spends anything.
          expect(d.spends === null || (d.spends === 'open' && act === 'profile.open')).toBe(true);
        } else {
          expect(DENY_REASONS).toContain(d.reason);
          expect(typeof d.message).toBe('string');
          expect(d.message.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('lists every action once, in exactly one family', () => {
    expect(new Set(ACTIONS).size).toBe(ACTIONS.length);
    expect(ACTIONS.length).toBe(USER_ACTIONS.length + OWN_ACTIONS.length + STAFF_ACTIONS.length);
  });

  it('refuses an inactive actor everything, as signed out', () => {
    fc.assert(
      fc.property(actorArb, action, fc.option(subjectArb, { nil: undefined }), (a, act, s) => {
        expect(can({ ...a, isActive: false }, act, s)).toEqual({
          allowed: false,
          reason: 'inactive',
          message: Messages.authRequired,
        });
      }),
    );
  });
});

describe('blocks', () => {
  it('refuse every user-to-user action but block/unblock, whoever blocked whom', () => {
    fc.assert(
      fc.property(actorArb, subjectArb, guardedAction, fc.constantFrom('byActor', 'bySubject', 'both'), (a, s, act, dir) => {
        fc.pre(s.id !== a.id);
        const relation = {
          ...s.relation,
          blockedByActor: dir !== 'bySubject',
          blockedActor: dir !== 'byActor',
        };
        const d = can(a, act, { ...s, relation });
        expect(d.allowed).toBe(false);
        if (!d.allowed)
          expect(looksLikeNotFound(d.reason) || d.reason === 'inactive' || d.reason === 'incomplete_profile').toBe(true);
      }),
    );
  });

  it('look exactly like a deactivated account and like nobody at all', () => {
    fc.assert(
      fc.property(actorArb, subjectArb, guardedAction, fc.boolean(), (a, s, act, theyBlocked) => {
        fc.pre(s.id !== a.id);
        const blocked = can(a, act, {
          ...s,
          relation: { ...s.relation, blockedActor: theyBlocked, blockedByActor: !theyBlocked },
        });
        const inactive = can(a, act, {
          ...s,
          isActive: false,
          relation: { ...s.relation, blockedActor: false, blockedByActor: false },
        });
        expect(observed(blocked)).toEqual(observed(inactive));
        expect(observed(blocked)).toEqual(can(a, act, undefined));
      }),
    );
  });

  it('never stop the blocked one from blocking back, nor anyone from unblocking', () => {
    fc.assert(
      fc.property(actorArb, subjectArb, fc.constantFrom(...SAFETY_ACTIONS), (a, s, act) => {
        fc.pre(s.id !== a.id && a.isActive);
        expect(can(a, act, s).allowed).toBe(true);
      }),
    );
  });
});

describe('an unfinished profile (spec section 2: onboarding is his only screen)', () => {
  it('may not list, open or act on any other user', () => {
    fc.assert(
      fc.property(actorArb, fc.option(subjectArb, { nil: undefined }), guardedAction, (a, s, act) => {
        fc.pre(s?.id !== a.id);
        expect(can({ ...a, isActive: true, profileComplete: false }, act, s)).toEqual({
          allowed: false,
          reason: 'incomplete_profile',
          message: Messages.profileIncomplete,
        });
      }),
    );
  });

  it('may not browse lists of users nor see who likes him', () => {
    fc.assert(
      fc.property(actorArb, fc.constantFrom('users.browse' as const, 'likes.seeIdentities' as const), (a, act) => {
        const d = can({ ...a, isActive: true, profileComplete: false }, act);
        expect(d.allowed === false && d.reason).toBe('incomplete_profile');
      }),
    );
  });

  it('still reads his own profile and adds his photos', () => {
    fc.assert(
      fc.property(actorArb, subjectArb, fc.constantFrom('profile.view' as const, 'profile.open' as const), (a0, s, act) => {
        const a = { ...a0, isActive: true, profileComplete: false, usage: { ...a0.usage, photos: 0 } };
        expect(can(a, act, { ...s, id: a.id })).toEqual({ allowed: true, spends: null });
        expect(can(a, 'photo.add').allowed).toBe(true);
      }),
    );
  });
});

describe("the actor's half (canActOnOthers), asked alone where SQL checks the other user", () => {
  it('refuses exactly what can refuses before looking at any other subject, and can refuses it alike', () => {
    fc.assert(
      fc.property(actorArb, subjectArb, userAction, (a, s, act) => {
        fc.pre(s.id !== a.id);
        const half = canActOnOthers(a, act);
        if (!half.allowed) expect(can(a, act, s)).toEqual(half);
        if (can(a, act, s).allowed) expect(half.allowed).toBe(true);
      }),
    );
  });
});

describe('oneself', () => {
  it('sees all of his own profile and presence, spending nothing, whatever his tier and usage', () => {
    const mine: UserAction[] = [
      'profile.view',
      'profile.open',
      'profile.seeDating',
      'profile.seeNow',
      'profile.seeMode',
      'presence.see',
      'lastActive.see',
    ];
    fc.assert(
      fc.property(actorArb, subjectArb, fc.constantFrom(...mine), (a, s, act) => {
        fc.pre(a.isActive);
        expect(can(a, act, { ...s, id: a.id })).toEqual({ allowed: true, spends: null });
      }),
    );
  });

  it('never finds himself in the grid or nearby, and never selects, likes, blocks or messages himself', () => {
    fc.assert(
      fc.property(actorArb, subjectArb, userAction, (a, s, act) => {
        fc.pre(a.isActive);
        const d = can(a, act, { ...s, id: a.id });
        const allowedOnSelf = [
          'profile.view',
          'profile.open',
          'profile.seeDating',
          'profile.seeNow',
          'profile.seeMode',
          'presence.see',
          'lastActive.see',
          'profile.seeRightNow',
          'profile.seeHealth',
          'user.unblock',
        ];
        expect(d.allowed).toBe(allowedOnSelf.includes(act));
      }),
    );
    const a = ME;
    const me = { ...HIM, id: ME.id };
    // As the server answered them.
    expect(can(a, 'game.fuck', me)).toMatchObject({ reason: 'not_found', message: Messages.userNotFound });
    expect(can(a, 'prompt.like', me)).toMatchObject({ reason: 'self', message: Messages.ownPromptLike });
    expect(can(a, 'user.block', me)).toMatchObject({ reason: 'self', message: "You can't block yourself." });
    expect(can(a, 'conversation.open', me)).toMatchObject({ reason: 'self', message: "You can't message yourself." });
  });
});

describe('profile opens (spec section 6: 5 / 25 / unlimited a day, spent by choice)', () => {
  it('never spends on self, a match, a partner, a man who liked him, or one opened today', () => {
    fc.assert(
      fc.property(
        memberAndOther,
        fc.constantFrom('matched', 'conversation', 'likedActor', 'openedToday'),
        fc.nat(1000),
        ({ a: a0, s: s0 }, why, used) => {
          const a = { ...a0, usage: { ...a0.usage, opensToday: used } };
          // A profile kept for matches is refused, not spent on ('applies each privacy control').
          const settings = { ...s0.settings, profileVisibility: 'public' as const };
          const s = { ...s0, settings, relation: { ...s0.relation, [why]: true } };
          expect(can(a, 'profile.open', s)).toEqual({ allowed: true, spends: null });
        },
      ),
    );
  });

  it('spends at most the limit in a day, each distinct profile once, and keeps opened ones open', () => {
    const day = fc.record({
      actor: member,
      // Twelve men, each with a fixed relation; the viewer taps them in any order, repeatedly.
      men: fc.array(relationArb, { minLength: 12, maxLength: 12 }),
      taps: fc.array(fc.nat(11), { maxLength: 80 }),
      subject: subjectArb,
    });
    fc.assert(
      fc.property(day, ({ actor, men, taps, subject }) => {
        const limit = TIER_LIMITS[actor.tier].clickableProfiles;
        const opened = new Set<number>();
        for (const i of taps) {
          const rel = { ...men[i]!, blockedActor: false, blockedByActor: false, openedToday: opened.has(i) };
          const settings = { ...subject.settings, profileVisibility: 'public' as const };
          const s = { ...subject, settings, id: `m${i}`, isActive: true, relation: rel };
          const a = { ...actor, usage: { ...actor.usage, opensToday: opened.size } };
          const d = can(a, 'profile.open', s);
          const free = rel.matched || rel.conversation || rel.likedActor || rel.openedToday || limit === UNLIMITED;
          if (free) expect(d).toEqual({ allowed: true, spends: null });
          else if (opened.size < limit) expect(d).toEqual({ allowed: true, spends: 'open' });
          else expect(d).toMatchObject({ allowed: false, reason: 'tier_limit' });
          if (d.allowed && d.spends === 'open') opened.add(i);
          if (limit !== UNLIMITED) expect(opened.size).toBeLessThanOrEqual(limit);
        }
        if (limit === UNLIMITED) expect(opened.size).toBe(0);
      }),
    );
  });

  it('names the plan that lifts the limit', () => {
    const a = { ...ME, tier: 'free' as const, usage: { ...ME.usage, opensToday: 5 } };
    const s = HIM;
    expect(can(a, 'profile.open', s)).toEqual({ allowed: false, reason: 'tier_limit', message: CLICKABLE_UPSELL });
    const p = { ...a, tier: 'premium' as const, usage: { ...a.usage, opensToday: 25 } };
    expect(can(p, 'profile.open', s)).toEqual({ allowed: false, reason: 'tier_limit', message: CLICKABLE_UPSELL_PLATINUM });
    expect(can({ ...p, usage: { ...p.usage, opensToday: 24 } }, 'profile.open', s)).toEqual({ allowed: true, spends: 'open' });
  });

  it('refuses a block or a deactivated account before any open is counted', () => {
    fc.assert(
      fc.property(member, subjectArb, (a, s) => {
        fc.pre(s.id !== a.id && (!s.isActive || s.relation.blockedActor || s.relation.blockedByActor));
        const d = can(a, 'profile.open', s);
        expect(d.allowed === false && looksLikeNotFound(d.reason)).toBe(true);
      }),
    );
  });
});

describe('tiers', () => {
  it('an unlimited allowance is never a tier limit (Platinum meets only the photo cap)', () => {
    fc.assert(
      fc.property(actorArb, action, fc.option(subjectArb, { nil: undefined }), (a, act, s) => {
        const d = can({ ...a, tier: 'platinum' }, act, s);
        if (act !== 'photo.add') expect(d.allowed === false && d.reason === 'tier_limit').toBe(false);
      }),
    );
  });

  it('a higher tier never loses what a lower one has', () => {
    fc.assert(
      fc.property(actorArb, tier, action, fc.option(subjectArb, { nil: undefined }), (a, higher, act, s) => {
        fc.pre(TIER_ORDER[higher] >= TIER_ORDER[a.tier]);
        if (can(a, act, s).allowed) expect(can({ ...a, tier: higher }, act, s).allowed).toBe(true);
      }),
    );
  });

  it('the feature table agrees with the rules that read tiers elsewhere in core', () => {
    for (const t of TIERS) {
      expect(TIER_FEATURES[t].readReceipts).toBe(showsReadReceipts(t, true));
      expect(TIER_FEATURES[t].messageBeforeMatch).toBe(mayStartConversation({ matched: false, tier: t }));
      // The spec's table: every Premium feature is free's "no" and Premium's "yes".
      const { messageBeforeMatch, ...premiumRow } = TIER_FEATURES[t];
      for (const v of Object.values(premiumRow)) expect(v).toBe(t !== 'free');
      expect(messageBeforeMatch).toBe(t === 'platinum');
    }
  });

  it('gates the Premium features with their upgrade texts', () => {
    const a = ME;
    expect(can(a, 'filters.advanced')).toEqual({ allowed: false, reason: 'tier_limit', message: ADVANCED_FILTERS_UPSELL });
    expect(can(a, 'likes.seeIdentities')).toEqual({ allowed: false, reason: 'tier_limit', message: WHO_LIKES_YOU_UPSELL });
    expect(can(a, 'privacy.control')).toEqual({ allowed: false, reason: 'tier_limit', message: PRIVACY_UPSELL });
    for (const t of ['premium', 'platinum'] as const) {
      for (const act of ['filters.advanced', 'likes.seeIdentities', 'incognito.use', 'privacy.control'] as const)
        expect(can({ ...a, tier: t }, act).allowed).toBe(true);
    }
  });

  it('gates Boost to Platinum with its upgrade text, read from the flag store', () => {
    for (const t of ['free', 'premium'] as const)
      expect(can({ ...ME, tier: t }, 'boost.use')).toEqual({
        allowed: false,
        reason: 'tier_limit',
        message: BoostMessages.upsell,
      });
    expect(can({ ...ME, tier: 'platinum' }, 'boost.use').allowed).toBe(true);
    // The store turned off: no one boosts.
    const off = rulesFor(
      DEFAULT_FLAGS.map((f) => (f.id === 'boost' ? { ...f, isEnabled: false } : f)),
      'platinum',
    );
    expect(can({ ...ME, tier: 'platinum', rules: off }, 'boost.use').allowed).toBe(false);
  });

  it('counts messages a day against 5 / 50 / unlimited, in a conversation only', () => {
    fc.assert(
      fc.property(memberAndOther, fc.nat(200), ({ a: a0, s: s0 }, sent) => {
        const a = { ...a0, usage: { ...a0.usage, messagesToday: sent } };
        const s = {
          ...s0,
          settings: { ...openTo(s0).settings, messagesFrom: 'everyone' as const },
          relation: { ...noRelation, conversation: true },
        };
        const limit = TIER_LIMITS[a.tier].messagesPerDay;
        expect(can(a, 'message.send', s).allowed).toBe(limit === UNLIMITED || sent < limit);
        expect(can(a, 'message.send', { ...s, relation: noRelation })).toEqual({
          allowed: false,
          reason: 'not_participant',
          message: COULD_NOT_FIND_CONVERSATION,
        });
      }),
    );
  });

  it('opens a conversation for a match, an existing one, or Platinum', () => {
    const a = ME;
    const s = HIM;
    for (const t of TIERS) {
      const d = can({ ...a, tier: t }, 'conversation.open', s);
      expect(d.allowed).toBe(t === 'platinum');
      if (!d.allowed) expect(d.message).toBe(NOT_MATCHED_TEXT);
      expect(can({ ...a, tier: t }, 'conversation.open', { ...s, relation: { ...noRelation, matched: true } }).allowed).toBe(
        true,
      );
      expect(can({ ...a, tier: t }, 'conversation.open', { ...s, relation: { ...noRelation, conversation: true } }).allowed).toBe(
        true,
      );
    }
  });
});

describe('what other users show (their settings)', () => {
  it('lists in the grid only complete, non-incognito profiles shown in the viewer’s mode', () => {
    fc.assert(
      fc.property(memberAndOther, ({ a, s }) => {
        const mv = s.settings.modeVisibility;
        const shown = a.currentMode === 'dating' ? mv.showInDating : mv.showInNow;
        const set = s.settings;
        const expected =
          s.profileComplete && set.shareLocationEnabled && !set.incognito && set.profileVisibility === 'public' && shown;
        expect(can(a, 'grid.list', s).allowed).toBe(expected);
        const distance = set.shareDistance && (!set.shareOnlyWithMatches || s.relation.matched);
        expect(can(a, 'grid.seeDistance', s).allowed).toBe(expected && distance);
      }),
    );
  });

  it('shows presence, last active and read receipts only as their owner allows', () => {
    fc.assert(
      fc.property(memberAndOther, ({ a, s }) => {
        expect(can(a, 'presence.see', s).allowed).toBe(s.settings.showOnlineStatus);
        expect(can(a, 'lastActive.see', s).allowed).toBe(s.settings.showLastActive);
        expect(can(a, 'message.seeReceipts', s).allowed).toBe(a.tier !== 'free' && s.settings.showReadReceipts);
      }),
    );
  });

  it('lists nearby cruisers in now mode with a live session, and pins only exact ones', () => {
    const a = ME;
    const s: Subject = {
      ...HIM,
      currentMode: 'now',
      cruising: true,
      settings: { ...HIM.settings, locationPrecision: 'approximate' },
    };
    expect(can(a, 'cruise.listNearby', s).allowed).toBe(true);
    expect(can(a, 'cruise.seeArea', s).allowed).toBe(false);
    expect(can(a, 'cruise.seeArea', { ...s, settings: { ...s.settings, locationPrecision: 'exact' } }).allowed).toBe(true);
    expect(can(a, 'cruise.listNearby', { ...s, cruising: false }).allowed).toBe(false);
    expect(can(a, 'cruise.listNearby', { ...s, currentMode: 'dating' }).allowed).toBe(false);
    expect(can({ ...a, settings: { ...a.settings, appMode: 'marry' } }, 'cruise.listNearby', s)).toMatchObject({
      reason: 'feature_disabled',
    });
  });

  it('applies each privacy control to everyone but those he knows (spec section 6)', () => {
    fc.assert(
      fc.property(memberAndOther, ({ a, s }) => {
        const set = s.settings;
        const known = s.relation.matched || s.relation.conversation;
        expect(can(a, 'profile.view', s).allowed).toBe(set.profileVisibility === 'public' || known);
        if (set.profileVisibility !== 'public' && !known) expect(can(a, 'profile.open', s).allowed).toBe(false);
        expect(can(a, 'profile.seeRightNow', s).allowed).toBe(!set.cruisingPrivate || known);
        expect(can(a, 'profile.seeHealth', s).allowed).toBe(!set.healthPrivate || known);
        expect(can(a, 'contact.link', s).allowed).toBe(!set.activityPrivate);
        if (set.cruisingPrivate && !known) expect(can(a, 'cruise.listNearby', s).allowed).toBe(false);
        if (!set.shareDistance) expect(can(a, 'cruise.seeArea', s).allowed).toBe(false);
        if (set.messagesFrom === 'matches' && !s.relation.matched) {
          expect(can({ ...a, usage: { ...a.usage, messagesToday: 0 } }, 'message.send', s)).toMatchObject({ allowed: false });
          expect(can({ ...a, tier: 'platinum' }, 'conversation.open', s).allowed).toBe(s.relation.conversation);
        }
      }),
    );
    const him = {
      ...HIM,
      settings: { ...HIM.settings, messagesFrom: 'matches' as const },
      relation: { ...noRelation, conversation: true },
    };
    expect(can(ME, 'message.send', him)).toEqual({ allowed: false, reason: 'restricted', message: MATCHES_ONLY_TEXT });
    expect(can(ME, 'message.send', { ...him, relation: { ...him.relation, matched: true } }).allowed).toBe(true);
  });

  it('lets matches see what the owner keeps for matches (modeVisibility)', () => {
    const a = ME;
    const s = { ...HIM, settings: { ...HIM.settings, modeVisibility: { ...DEFAULT_MODE_VISIBILITY, showInNow: true } } };
    expect(can(a, 'profile.seeNow', { ...s, relation: noRelation }).allowed).toBe(false);
    expect(can(a, 'profile.seeNow', { ...s, relation: { ...noRelation, matched: true } }).allowed).toBe(true);
    const hidden = { ...s, settings: { ...s.settings, modeVisibility: { ...DEFAULT_MODE_VISIBILITY, hideFromMatches: true } } };
    expect(can(a, 'profile.seeDating', { ...hidden, relation: { ...noRelation, matched: true } }).allowed).toBe(false);
    expect(can(a, 'prompt.like', { ...hidden, relation: { ...noRelation, matched: true } })).toMatchObject({
      reason: 'hidden',
      message: Messages.promptNotFound,
    });
  });
});

describe('staff', () => {
  it('agrees with core’s admin rules, whatever the tier, profile or usage', () => {
    fc.assert(
      fc.property(actorArb, (a0) => {
        const a = { ...a0, isActive: true };
        for (const p of ALL_PERMISSIONS) expect(can(a, `admin.${p}`).allowed, p).toBe(staffHas(a.staff, p));
        expect(can(a, 'admin.access').allowed).toBe(a.staff?.isActive === true);
      }),
    );
  });

  it('lets every active member reach support, tier and onboarding aside; moderators answer it', () => {
    fc.assert(
      fc.property(actorArb, (a) => {
        expect(can(a, 'support.use').allowed).toBe(a.isActive);
      }),
    );
    const moderator = { ...ME, staff: { role: 'moderator' as const, isActive: true, permissions: null } };
    expect(can(moderator, 'admin.reports.edit').allowed).toBe(true);
    expect(can({ ...ME, staff: null }, 'admin.reports.edit')).toMatchObject({
      reason: 'staff_only',
      message: 'Admin access required',
    });
  });

  it('says which check failed at the admin entry (spec section 8)', () => {
    const a = ME;
    expect(can({ ...a, staff: null }, 'admin.access')).toEqual({
      allowed: false,
      reason: 'staff_only',
      message: 'User is not an admin',
    });
    expect(can({ ...a, staff: { role: 'owner', isActive: false, permissions: null } }, 'admin.access')).toEqual({
      allowed: false,
      reason: 'staff_inactive',
      message: 'Admin account is inactive',
    });
    expect(can({ ...a, staff: { role: 'moderator', isActive: true, permissions: null } }, 'admin.prompts.edit')).toEqual({
      allowed: false,
      reason: 'staff_only',
      message: Messages.adminRequired,
    });
  });
});

describe('own features', () => {
  it('follow his switches and the app mode', () => {
    fc.assert(
      fc.property(actorArb, (a0) => {
        const a = { ...a0, isActive: true };
        expect(can(a, 'health.use').allowed).toBe(a.settings.healthEnabled);
        expect(can(a, 'activity.use').allowed).toBe(a.settings.activityTrackingEnabled);
        expect(can(a, 'cruise.use').allowed).toBe(a.settings.appMode !== 'marry' && a.settings.cruisingEnabled);
      }),
    );
  });

  it('starts a cruise with consent, a location and the period’s quota', () => {
    fc.assert(
      fc.property(actorArb, (a0) => {
        const a = { ...a0, isActive: true };
        const d = can(a, 'cruise.start');
        const quotaLeft = a.tier === 'platinum' || a.usage.cruiseStarts < 1;
        const ok =
          a.settings.appMode !== 'marry' &&
          a.settings.cruisingEnabled &&
          a.settings.locationSharingConsent &&
          a.settings.hasLocation &&
          quotaLeft;
        expect(d.allowed).toBe(ok);
      }),
    );
  });

  it('offers only the choices of his app mode, and counts supers', () => {
    fc.assert(
      fc.property(memberAndOther, ({ a, s: s0 }) => {
        const s = openTo(s0);
        expect(can(a, 'game.fuck', s).allowed).toBe(a.settings.appMode !== 'marry');
        expect(can(a, 'game.marry', s).allowed).toBe(a.settings.appMode !== 'fuck');
        expect(can(a, 'game.select', s).allowed).toBe(true);
      }),
    );
  });
});

it('has no dead row: with everything on, every action is allowed', () => {
  const actor: Actor = { ...ME, tier: 'platinum', staff: { role: 'owner', isActive: true, permissions: ALL_PERMISSIONS } };
  const subject: Subject = {
    ...HIM,
    currentMode: 'now',
    cruising: true,
    relation: { ...noRelation, matched: true, conversation: true },
    settings: {
      ...HIM.settings,
      modeVisibility: {
        showInDating: true,
        showInNow: true,
        datingVisibleToAll: true,
        nowVisibleToAll: true,
        hideFromMatches: false,
      },
    },
  };
  for (const act of ACTIONS) expect(can(actor, act, subject).allowed, act).toBe(true);
});

describe('calls', () => {
  it('lets a Premium or Platinum caller call a match or a conversation partner, on any tier of his', () => {
    fc.assert(
      fc.property(memberAndOther, ({ a, s: s0 }) => {
        const s = openTo(s0);
        const related = s.relation.matched || s.relation.conversation;
        const d = can(a, 'call.start', s);
        expect(d.allowed).toBe(related && a.tier !== 'free');
        if (!related) expect(d).toMatchObject({ reason: 'not_participant' });
        else if (a.tier === 'free') expect(d).toMatchObject({ reason: 'tier_limit', message: VIDEO_CALL_UPSELL });
      }),
    );
  });

  it('refuses a call across a block either way, answered like a missing conversation', () => {
    const premium: Actor = { ...ME, tier: 'premium' };
    const friend: Subject = { ...HIM, relation: { ...noRelation, matched: true, conversation: true } };
    expect(can(premium, 'call.start', friend).allowed).toBe(true);
    expect(can(premium, 'call.start', { ...HIM, relation: { ...noRelation, matched: true } }).allowed).toBe(true);
    for (const rel of [{ blockedByActor: true }, { blockedActor: true }]) {
      expect(can(premium, 'call.start', { ...friend, relation: { ...friend.relation, ...rel } })).toEqual({
        allowed: false,
        reason: 'blocked',
        message: COULD_NOT_FIND_CONVERSATION,
      });
    }
    expect(can(premium, 'call.start', { ...friend, id: premium.id })).toMatchObject({ allowed: false });
  });

  it('lets a caller signal his call only while his tier has video calls, refused with the same upgrade text', () => {
    fc.assert(
      fc.property(actorArb, (a) => {
        fc.pre(a.isActive && a.profileComplete && a.id !== HIM.id);
        const d = can(a, 'call.signal');
        expect(d.allowed).toBe(rulesOf(a).has.videoCall);
        if (!d.allowed) expect(d).toEqual({ allowed: false, reason: 'tier_limit', message: VIDEO_CALL_UPSELL });
        // Whatever his tier, the caller's signal and his call start agree.
        const friend: Subject = { ...HIM, relation: { ...noRelation, matched: true } };
        expect(d.allowed).toBe(can(a, 'call.start', friend).allowed);
      }),
    );
    expect(can({ ...ME, tier: 'premium' }, 'call.signal')).toEqual({ allowed: true, spends: null });
    expect(can({ ...ME, tier: 'premium', profileComplete: false }, 'call.signal')).toMatchObject({
      reason: 'incomplete_profile',
    });
  });
});

describe('communication safety: men without the verified badge (spec section 3)', () => {
  /** Every way one man reaches another: what "can't contact you" covers. */
  const CONTACT: readonly UserAction[] = [
    'conversation.open',
    'message.send',
    'call.start',
    'game.fuck',
    'game.marry',
    'game.super',
    'prompt.like',
  ];
  const MESSAGING: readonly UserAction[] = ['conversation.open', 'message.send'];
  const withSafety = (
    s: Subject,
    on: Partial<Pick<Subject['settings'], 'blockUnverifiedUsers' | 'requirePhoneVerification'>>,
  ) => ({
    ...openTo(s),
    settings: { ...openTo(s).settings, ...on },
  });

  it('blockUnverifiedUsers refuses an unverified man every contact he would otherwise have, with its text; nothing else changes', () => {
    fc.assert(
      fc.property(memberAndOther, userAction, ({ a: a0, s }, act) => {
        const a = { ...a0, verified: false };
        const off = can(a, act, openTo(s));
        const on = can(a, act, withSafety(s, { blockUnverifiedUsers: true }));
        // Reopening a conversation that exists is his own list, not a contact.
        if (CONTACT.includes(act) && off.allowed && !(act === 'conversation.open' && s.relation.conversation))
          expect(on).toEqual({ allowed: false, reason: 'restricted', message: VERIFIED_CONTACTS_ONLY_TEXT });
        else if (off.allowed) expect(on).toEqual(off);
        // Only ever a refusal more: never an answer the setting turns into an allowance.
        if (!off.allowed) expect(on.allowed).toBe(false);
      }),
    );
  });

  it('requirePhoneVerification refuses an unverified man a new conversation and a message, and nothing else', () => {
    fc.assert(
      fc.property(memberAndOther, userAction, ({ a: a0, s }, act) => {
        const a = { ...a0, verified: false };
        const off = can(a, act, openTo(s));
        const on = can(a, act, withSafety(s, { requirePhoneVerification: true }));
        if (MESSAGING.includes(act) && off.allowed && !(act === 'conversation.open' && s.relation.conversation))
          expect(on).toEqual({ allowed: false, reason: 'restricted', message: VERIFIED_MESSAGES_ONLY_TEXT });
        else if (off.allowed) expect(on).toEqual(off);
        if (!off.allowed) expect(on.allowed).toBe(false);
      }),
    );
  });

  it('changes nothing for a verified man, whatever else stands', () => {
    fc.assert(
      fc.property(memberAndOther, action, fc.boolean(), fc.boolean(), ({ a: a0, s }, act, block, require) => {
        const a = { ...a0, verified: true };
        const on = withSafety(s, { blockUnverifiedUsers: block, requirePhoneVerification: require });
        expect(can(a, act, on)).toEqual(can(a, act, openTo(s)));
      }),
    );
  });

  it('makes no exception for a match: he verifies, then he may write and call again', () => {
    const unverified: Actor = { ...ME, tier: 'premium', verified: false };
    const match: Subject = { ...HIM, relation: { ...noRelation, matched: true, conversation: true } };
    const strict = withSafety(match, { blockUnverifiedUsers: true });
    const phoneOnly = withSafety(match, { requirePhoneVerification: true });
    const restricted = (message: string) => ({ allowed: false, reason: 'restricted', message });
    expect(can(unverified, 'message.send', strict)).toEqual(restricted(VERIFIED_CONTACTS_ONLY_TEXT));
    expect(can(unverified, 'call.start', strict)).toEqual(restricted(VERIFIED_CONTACTS_ONLY_TEXT));
    expect(can(unverified, 'message.send', phoneOnly)).toEqual(restricted(VERIFIED_MESSAGES_ONLY_TEXT));
    // A call is not a message: requirePhoneVerification leaves it be.
    expect(can(unverified, 'call.start', phoneOnly).allowed).toBe(true);
    // Both on: the wider promise speaks.
    expect(
      can(unverified, 'message.send', withSafety(match, { blockUnverifiedUsers: true, requirePhoneVerification: true })),
    ).toEqual(restricted(VERIFIED_CONTACTS_ONLY_TEXT));
    // Before the tier limit: a Free man out of messages learns what upgrading would not fix.
    const spent: Actor = { ...unverified, tier: 'free', usage: { ...unverified.usage, messagesToday: 10_000 } };
    expect(can(spent, 'message.send', strict)).toEqual(restricted(VERIFIED_CONTACTS_ONLY_TEXT));
    for (const act of ['message.send', 'call.start', 'conversation.open'] as const) {
      expect(can({ ...unverified, verified: true }, act, strict).allowed).toBe(true);
      expect(can({ ...unverified, verified: true }, act, phoneOnly).allowed).toBe(true);
    }
  });
});
