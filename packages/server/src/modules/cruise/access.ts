import { cruisingAvailable, effectiveTier, type Tier } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { forbidden, unauthorized } from '../../platform/errors.ts';
import { type Cruiser, findCruiser } from './repo.ts';

export const CruiseMessages = {
  disabled: 'Cruising is turned off. Turn it on in Settings (it is not available in marry-only mode).',
  consentRequired: 'Turn on location sharing to cruise.',
  locationRequired: 'Share your location to start cruising.',
  notCreator: 'Only the person who created this event can cancel it.',
  eventCancelled: 'This event was cancelled.',
  eventOver: 'This event is over.',
  spotNotFound: 'That spot does not exist or is not approved yet.',
  eventNotFound: 'That event does not exist.',
  startTooEarly: 'The event must start in the future.',
  startTooLate: 'Events can be planned at most 90 days ahead.',
  tooManyProposals: 'You have 10 spots waiting for review. Wait until staff have looked at them.',
} as const;

/**
 * The one access check of every cruise call (STYLE.md #2): a signed-in, active user with cruising
 * on and not in marry-only mode (spec sections 1, 2). The tab hides; the server refuses.
 */
export async function requireCruising(db: Db, userId: string): Promise<Cruiser & { tier: Tier }> {
  return checkCruising(await findCruiser(db, userId));
}

/** The check itself, for a caller that read the user in a statement of its own (nearby). */
export function checkCruising<T extends Cruiser>(me: T | undefined): T & { tier: Tier } {
  if (!me?.is_active) throw unauthorized();
  if (!cruisingAvailable({ appMode: me.app_mode, cruisingEnabled: me.cruising_enabled })) {
    throw forbidden(CruiseMessages.disabled, 'cruising_disabled');
  }
  return { ...me, tier: effectiveTier({ subscriptionTier: me.subscription_tier, hasLifetimePremium: me.has_lifetime_premium }) };
}
