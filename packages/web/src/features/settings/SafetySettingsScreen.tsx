import { effectiveTier, PRIVACY_UPSELL, type SafetyGroup, type SafetySettings, TIER_FEATURES } from '@fmk/core';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../auth/AuthProvider.tsx';
import { SafetyContactForm } from '../safety/SafetyContactForm.tsx';
import { Block, type SwitchRow, SwitchRows, WithSettings } from './SettingsFrame.tsx';
import { useSaveSettings } from './store.ts';

type Row<G extends SafetyGroup> = SwitchRow<keyof SafetySettings[G] & string>;

/** Each switch says what it does, in a line. */
const GROUPS: { [G in SafetyGroup]: { title: string; rows: Row<G>[] } } = {
  contentFiltering: {
    title: 'Photos you receive',
    rows: [
      { key: 'enabled', label: 'Filter sensitive photos', hint: 'Off: every chat photo shows as sent' },
      { key: 'blurSensitiveImages', label: 'Blur sensitive photos', hint: 'Tap a blurred photo to see it' },
      { key: 'hideExplicitContent', label: 'Hide explicit photos', hint: 'Shows a notice instead of the photo' },
      { key: 'strictMode', label: 'Strict mode', hint: 'Photos that may be explicit are hidden from you too' },
    ],
  },
  locationSafety: {
    title: 'Your location',
    rows: [
      { key: 'shareLocationEnabled', label: 'Share my location', hint: 'Off: you leave the grid and nearby lists' },
      { key: 'shareOnlyWithMatches', label: 'Distance only for matches', hint: 'Others see you without a distance' },
      { key: 'hideExactLocation', label: 'Hide my exact location', hint: 'Others see a 5 km area at best' },
      { key: 'locationReminders', label: 'Location reminders', hint: 'A warning when you share an exact spot' },
    ],
  },
  communicationSafety: {
    title: 'Who can reach you',
    rows: [
      { key: 'blockUnverifiedUsers', label: 'Block unverified men', hint: 'Only verified men can message you' },
      { key: 'requirePhoneVerification', label: 'Require a verified phone', hint: 'Only phone-verified men can message you' },
      { key: 'autoDeleteUnverifiedChats', label: 'Delete unverified chats', hint: 'Chats with unverified men go after 24 h' },
      { key: 'linkPreventionEnabled', label: 'Block links from strangers', hint: 'Links from non-matches arrive as plain text' },
    ],
  },
  meetupSafety: {
    title: 'Meetups',
    rows: [
      { key: 'publicPlaceReminders', label: 'Public place reminders', hint: 'Advice before a first meetup' },
      {
        key: 'friendNotificationEnabled',
        label: 'Tell my contact about meetups',
        hint: 'Your contact gets who, where and when by email',
      },
      {
        key: 'emergencyContactEnabled',
        label: 'Email my contact if I miss a check-in',
        hint: 'Sent when your check-in time passes',
      },
      { key: 'safeWordEnabled', label: 'Safe word', hint: 'Sent in any chat, it alerts your contact' },
    ],
  },
  privacySettings: {
    title: 'Privacy',
    rows: [
      { key: 'hideFromSearch', label: 'Hide me from search', hint: 'Only your matches see your profile' },
      { key: 'hideLastSeen', label: 'Hide last seen', hint: 'Nobody sees when you were last active' },
      { key: 'hideReadReceipts', label: 'Hide read receipts', hint: "Others don't see when you read" },
      { key: 'restrictUnverifiedContacts', label: 'Restrict unverified men', hint: 'The same switch as Block unverified men' },
    ],
  },
};

const ORDER: SafetyGroup[] = ['contentFiltering', 'locationSafety', 'communicationSafety', 'meetupSafety', 'privacySettings'];

/** The privacy aliases the server gates behind Premium (they change privacy controls). */
const PREMIUM_KEYS = new Set(['hideFromSearch', 'hideLastSeen', 'hideReadReceipts']);

/** /settings/safety: the five safety groups, the trusted contact and the safe word. */
export function SafetySettingsScreen() {
  const { user } = useAuth();
  const save = useSaveSettings();
  const controls = TIER_FEATURES[user ? effectiveTier(user) : 'free'].privacyControls;
  return (
    <WithSettings title="Safety settings" back="/safety">
      {(s) => (
        <div className="flex flex-col gap-4 px-4">
          <p className="text-sm text-muted">
            Saved as you change them. See your safety score in the{' '}
            <Link to="/safety" className="font-semibold text-primary-strong underline">
              Safety centre
            </Link>
            .
          </p>
          {ORDER.map((g) => {
            const values = s.safety[g] as Record<string, boolean>;
            return (
              <Fragment key={g}>
                <Block title={GROUPS[g].title}>
                  <SwitchRows
                    rows={GROUPS[g].rows as Row<SafetyGroup>[]}
                    values={values}
                    // Free: a Premium control can still go back off (a Premium that ended), not on.
                    locked={(k) => (!controls && PREMIUM_KEYS.has(k) && !values[k] ? PRIVACY_UPSELL : null)}
                    onChange={(k, v) => void save({ safety: { [g]: { [k]: v } } })}
                  />
                </Block>
                {g === 'meetupSafety' ? <SafetyContactForm /> : null}
              </Fragment>
            );
          })}
        </div>
      )}
    </WithSettings>
  );
}
