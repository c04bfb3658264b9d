import type { Migration } from 'kysely';
import * as m20261122T1500 from './20261122T1500-foundation.ts';
import * as m20261122T1515 from './20261122T1515-modes-likes-blocks.ts';
import * as m20261122T1600 from './20261122T1600-game.ts';
import * as m20261122T1610 from './20261122T1610-locations.ts';
import * as m20261122T1620 from './20261122T1620-selection-requests.ts';
import * as m20261122T1630 from './20261122T1630-messaging.ts';
import * as m20261122T1650 from './20261122T1650-push-subscriptions.ts';
import * as m20261122T1700 from './20261122T1700-health-activity.ts';
import * as m20261122T1710 from './20261122T1710-cruise.ts';
import * as m20261122T1720 from './20261122T1720-send-message.ts';
import * as m20261122T2100 from './20261122T2100-send-message-lean.ts';
import * as m20261125T1100 from './20261125T1100-email-verification.ts';
import * as m20261125T1230 from './20261125T1230-pending-email.ts';
import * as m20261125T1320h4 from './20261125T1320-h4-phone-verification.ts';
import * as m20261125T1330h5 from './20261125T1330-h5-support.ts';
import * as m20261125T1350h5 from './20261125T1350-h5-feedback-category.ts';
import * as m20261125T1410h2 from './20261125T1410-h2-data-exports.ts';
import * as m20261125T1420h7 from './20261125T1420-h7-reports.ts';
import * as m20261125T1430h6 from './20261125T1430-h6-moderation.ts';
import * as m20261125T1430h7 from './20261125T1430-h7-alerts.ts';
import * as m20261125T1700h1 from './20261125T1700-h1-settings.ts';
import * as m20261125T1700h1b from './20261125T1700-h1-settings-send-message.ts';
import * as m20261125T1710h2 from './20261125T1710-h2-meetup-safety.ts';
import * as m20261125T1720h3 from './20261125T1720-h3-billing.ts';
import * as m20261125T1730h4 from './20261125T1730-h4-staff.ts';
import * as m20261125T1740h5 from './20261125T1740-h5-calls.ts';
import * as m20261127T0940 from './20261127T0940-unverified-contacts-send-message.ts';
import * as m20261127T1000g from './20261127T1000-g-boost.ts';
import * as m20261127T1010 from './20261127T1010-spot-review.ts';
import * as m20261127T1020 from './20261127T1020-location-safety.ts';
import * as m20261127T1100 from './20261127T1100-comp-subscriptions.ts';
import * as m20261127T1400 from './20261127T1400-one-live-subscription.ts';
import * as m20261127T1401 from './20261127T1401-plans.ts';
import * as m20261127T1500 from './20261127T1500-photo-filter.ts';
import * as m20261128T0100 from './20261128T0100-report-message-photos.ts';
import * as m20261128T0200 from './20261128T0200-payment-refunds.ts';
import * as m20261128T0400 from './20261128T0400-location-places.ts';
import * as m20261129T0900 from './20261129T0900-moderation-queue-order.ts';
import * as m20261130T0100 from './20261130T0100-grid-changes.ts';

/**
 * Every migration, by file name. Migrations sort by their UTC timestamp prefix and never change
 * once landed; a test checks this list against the folder so none is forgotten.
 */
export const migrations: Record<string, Migration> = {
  '20261122T1500-foundation': m20261122T1500,
  '20261122T1515-modes-likes-blocks': m20261122T1515,
  '20261122T1600-game': m20261122T1600,
  '20261122T1610-locations': m20261122T1610,
  '20261122T1620-selection-requests': m20261122T1620,
  '20261122T1630-messaging': m20261122T1630,
  '20261122T1650-push-subscriptions': m20261122T1650,
  '20261122T1700-health-activity': m20261122T1700,
  '20261122T1710-cruise': m20261122T1710,
  '20261122T1720-send-message': m20261122T1720,
  '20261122T2100-send-message-lean': m20261122T2100,
  '20261125T1100-email-verification': m20261125T1100,
  '20261125T1230-pending-email': m20261125T1230,
  '20261125T1320-h4-phone-verification': m20261125T1320h4,
  '20261125T1330-h5-support': m20261125T1330h5,
  '20261125T1350-h5-feedback-category': m20261125T1350h5,
  '20261125T1410-h2-data-exports': m20261125T1410h2,
  '20261125T1420-h7-reports': m20261125T1420h7,
  '20261125T1430-h6-moderation': m20261125T1430h6,
  '20261125T1430-h7-alerts': m20261125T1430h7,
  '20261125T1700-h1-settings': m20261125T1700h1,
  '20261125T1700-h1-settings-send-message': m20261125T1700h1b,
  '20261125T1710-h2-meetup-safety': m20261125T1710h2,
  '20261125T1720-h3-billing': m20261125T1720h3,
  '20261125T1730-h4-staff': m20261125T1730h4,
  '20261125T1740-h5-calls': m20261125T1740h5,
  '20261127T0940-unverified-contacts-send-message': m20261127T0940,
  '20261127T1000-g-boost': m20261127T1000g,
  '20261127T1010-spot-review': m20261127T1010,
  '20261127T1020-location-safety': m20261127T1020,
  '20261127T1100-comp-subscriptions': m20261127T1100,
  '20261127T1400-one-live-subscription': m20261127T1400,
  '20261127T1401-plans': m20261127T1401,
  '20261127T1500-photo-filter': m20261127T1500,
  '20261128T0100-report-message-photos': m20261128T0100,
  '20261128T0200-payment-refunds': m20261128T0200,
  '20261128T0400-location-places': m20261128T0400,
  '20261129T0900-moderation-queue-order': m20261129T0900,
  '20261130T0100-grid-changes': m20261130T0100,
};
