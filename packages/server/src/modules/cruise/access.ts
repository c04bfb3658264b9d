import { AccessMessages, type Actor, type Tier } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { unauthorized } from '../../platform/errors.ts';
import { type Cruiser, findCruiser } from './repo.ts';

export const CruiseMessages = {
  disabled: AccessMessages.cruisingDisabled,
  consentRequired: AccessMessages.cruiseConsentRequired,
  locationRequired: AccessMessages.cruiseLocationRequired,
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
 * The caller's cruise state (consent, location, precision, units) and tier, read once a cruise
 * call has asked `requireAccess(actor, 'cruise.use')`.
 */
export async function readCruiser(db: Db, actor: Actor): Promise<Cruiser & { tier: Tier }> {
  const me = await findCruiser(db, actor.id);
  if (!me) throw unauthorized();
  return { ...me, tier: actor.tier };
}
