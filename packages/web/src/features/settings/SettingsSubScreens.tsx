import {
  DEFAULT_SETTINGS,
  EMAIL_KINDS,
  effectiveTier,
  INCOGNITO_UPSELL,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
  PRIVACY_UPSELL,
  type PrivacySettings,
  type SettingsPatch,
  TIER_FEATURES,
} from '@fmk/core';
import { Link } from 'react-router';
import { LockIcon } from '../../ui/icons.tsx';
import { Segmented } from '../../ui/Section.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { PushToggle } from '../notifications/PushToggle.tsx';
import { Block, type SwitchRow, SwitchRows, WithSettings } from './SettingsFrame.tsx';
import { useSaveSettings } from './store.ts';

const KIND_LABELS: Record<NotificationKind, { label: string; hint: string }> = {
  messages: { label: 'Messages', hint: 'New messages in your chats' },
  matches: { label: 'Matches', hint: 'When someone likes you back' },
  likes: { label: 'Likes', hint: 'Super fucks and super marries' },
  healthReminders: { label: 'Health reminders', hint: 'Medication and testing reminders' },
  safety: { label: 'Safety', hint: 'Safety alerts about your account' },
};
const CHANNEL_LABELS: Record<NotificationChannel, string> = { push: 'Push', email: 'Email', inApp: 'In-app' };

export function NotificationSettingsScreen() {
  const save = useSaveSettings();
  return (
    <WithSettings title="Notifications">
      {(s) => {
        const n = s.notifications;
        const set = (patch: SettingsPatch['notifications']) => void save({ notifications: patch });
        return (
          <div className="flex flex-col gap-4 px-4">
            <div className="-mx-4">
              <PushToggle />
            </div>
            <Block title="How you hear from us">
              <Switch
                label="Push"
                hint="On this device, while FMK is closed"
                checked={n.channels.push}
                onChange={(v) => set({ channels: { push: v } })}
              />
              <Switch
                label="Email"
                hint="Only to a confirmed address"
                checked={n.channels.email}
                onChange={(v) => set({ channels: { email: v } })}
              />
              <Switch
                label="In-app"
                hint="Banners while you use FMK"
                checked={n.channels.inApp}
                onChange={(v) => set({ channels: { inApp: v } })}
              />
            </Block>
            {NOTIFICATION_KINDS.map((kind) => (
              <Block key={kind} title={KIND_LABELS[kind].label}>
                <p className="pb-1 text-sm text-muted">{KIND_LABELS[kind].hint}</p>
                {(['push', 'email', 'inApp'] as const)
                  // Mail carries only the kinds it has a sender for (docs/settings.md).
                  .filter((c) => c !== 'email' || EMAIL_KINDS.includes(kind))
                  .map((c) => (
                    <Switch
                      key={c}
                      label={`${KIND_LABELS[kind].label}: ${CHANNEL_LABELS[c]}`}
                      hint={n.channels[c] ? undefined : `${CHANNEL_LABELS[c]} is off above`}
                      checked={n.kinds[kind][c]}
                      onChange={(v) => set({ kinds: { [kind]: { [c]: v } } })}
                    />
                  ))}
              </Block>
            ))}
          </div>
        );
      }}
    </WithSettings>
  );
}

type BoolKey = { [K in keyof PrivacySettings]: PrivacySettings[K] extends boolean ? K : never }[keyof PrivacySettings];
const PRIVACY_SWITCHES: (SwitchRow<BoolKey> & { on: boolean })[] = [
  { key: 'showCurrentMode', label: 'Show my mode', hint: 'Others see whether you are dating or up for now', on: true },
  { key: 'shareDistance', label: 'Share my distance', hint: 'Off: you are listed without a distance', on: true },
  { key: 'showOnlineStatus', label: "Show when I'm online", hint: 'The green dot on your photo', on: true },
  { key: 'showLastActive', label: 'Show when I was last active', hint: 'Also called hide last seen', on: true },
  { key: 'showReadReceipts', label: 'Send read receipts', hint: 'Others see when you read their messages', on: true },
  { key: 'cruisingPrivate', label: 'Keep cruising private', hint: 'Your Right Now and cruising only for matches', on: false },
  { key: 'healthPrivate', label: 'Keep health info private', hint: 'Your safety info only for matches', on: false },
  { key: 'activityPrivate', label: 'Keep activity private', hint: "Others can't link you in their contact book", on: false },
  { key: 'incognito', label: 'Incognito', hint: 'Browse without appearing in the grid', on: false },
];

export function PrivacySettingsScreen() {
  const { user } = useAuth();
  const save = useSaveSettings();
  const tier = user ? effectiveTier(user) : 'free';
  const features = TIER_FEATURES[tier];
  return (
    <WithSettings title="Privacy">
      {(s) => {
        const p = s.privacy;
        const set = (privacy: Partial<PrivacySettings>) => void save({ privacy });
        // A locked control can still go back to its open default (a Premium that ended).
        const locked = (k: keyof PrivacySettings) =>
          !(k === 'incognito' ? features.incognito : features.privacyControls) && p[k] === DEFAULT_SETTINGS.privacy[k];
        return (
          <div className="flex flex-col gap-4 px-4">
            <p className="text-sm text-muted">Others never see your email or exact location, whatever you choose here.</p>
            {!features.privacyControls ? (
              <div className="flex flex-col gap-3 rounded-2xl border border-primary/30 bg-primary-soft p-4">
                <p className="flex items-center gap-2 text-base font-semibold text-ink">
                  <LockIcon width={20} height={20} aria-hidden="true" /> {PRIVACY_UPSELL}
                </p>
                <p className="text-sm text-ink">
                  Premium lets you choose who sees your profile, your distance, your status and more.
                </p>
                <Link
                  to="/settings/premium"
                  className="self-start rounded-full bg-primary-strong px-4 py-2 text-sm font-semibold text-white"
                >
                  See Premium
                </Link>
              </div>
            ) : null}
            <Block title="Who sees your profile">
              <div className="py-2">
                <Segmented
                  label="Profile visibility"
                  value={p.profileVisibility}
                  options={[
                    { value: 'public', label: 'Everyone' },
                    { value: 'matches', label: 'Only my matches' },
                  ]}
                  // Free: the server refuses with the upgrade text, which the save shows.
                  onChange={(v) => set({ profileVisibility: v })}
                />
              </div>
              <p className="pb-2 text-sm text-muted">
                {p.profileVisibility === 'matches'
                  ? 'Hidden from the grid and from people nearby; your matches still see you.'
                  : 'Listed in the grid for people near you.'}
              </p>
            </Block>
            <Block title="Who can message you">
              <div className="py-2">
                <Segmented
                  label="Who can message you"
                  value={p.messagesFrom}
                  options={[
                    { value: 'everyone', label: 'Everyone' },
                    { value: 'matches', label: 'Only matches' },
                  ]}
                  onChange={(v) => set({ messagesFrom: v })}
                />
              </div>
            </Block>
            <Block title="What others see">
              <SwitchRows
                rows={PRIVACY_SWITCHES}
                values={p}
                locked={(k) => (locked(k) ? (k === 'incognito' ? INCOGNITO_UPSELL : PRIVACY_UPSELL) : null)}
                onChange={(k, v) => set({ [k]: v })}
              />
            </Block>
          </div>
        );
      }}
    </WithSettings>
  );
}
