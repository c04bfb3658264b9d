import { type AppMode, brandLabel, DEFAULT_MODE_SETTINGS, type ModeSettings, updateAppPreferences } from '@fmk/core';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button } from '../../ui/Button.tsx';
import {
  BellIcon,
  BlockIcon,
  BugIcon,
  CardIcon,
  ChevronRightIcon,
  EditIcon,
  HelpIcon,
  LockIcon,
  ShieldCheckIcon,
  ShieldIcon,
  StarIcon,
  UserIcon,
} from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AccountSection } from '../account/AccountSection.tsx';
import { SessionsSection } from '../account/SessionsSection.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { SupportUnreadBadge } from '../support/SupportUnreadBadge.tsx';
import { PlanSection, UnitsSection } from './HubSections.tsx';
import { PendingNote } from './PendingNote.tsx';
import { useSaveAppPreferences, useSaveModeSettings } from './queries.ts';

const LINKS: { to: string; label: string; icon: ReactNode; badge?: ReactNode }[] = [
  { to: '/settings/notifications', label: 'Notifications', icon: <BellIcon /> },
  { to: '/settings/privacy', label: 'Privacy', icon: <LockIcon /> },
  { to: '/safety', label: 'Safety centre', icon: <ShieldIcon /> },
  { to: '/settings/safety', label: 'Safety settings', icon: <ShieldCheckIcon /> },
  { to: '/settings/blocked-users', label: 'Blocked users', icon: <BlockIcon /> },
  { to: '/settings/premium', label: 'Premium', icon: <StarIcon /> },
  { to: '/settings/payment', label: 'Payment', icon: <CardIcon /> },
  { to: '/settings/bugs-feedback', label: 'Bugs and feedback', icon: <BugIcon /> },
  { to: '/settings/help', label: 'Help', icon: <HelpIcon />, badge: <SupportUnreadBadge /> },
];

const APP_MODE_OPTIONS: { mode: AppMode; label: string; hint: string }[] = [
  { mode: 'both', label: 'Both', hint: 'Fuck and marry' },
  { mode: 'fuck', label: 'Fuck only', hint: 'Hookups first' },
  { mode: 'marry', label: 'Marry only', hint: 'Dating only; cruising is turned off' },
];

function LinkList({
  label,
  items,
}: {
  label: string;
  items: { to: string; label: string; icon: ReactNode; badge?: ReactNode }[];
}) {
  return (
    <nav aria-label={label}>
      <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-white">
        {items.map((l) => (
          <li key={l.to}>
            <Link to={l.to} className="flex min-h-14 items-center gap-3 px-4 text-base text-ink hover:bg-canvas">
              <span className="text-muted">{l.icon}</span>
              <span className="flex-1">{l.label}</span>
              {l.badge}
              <ChevronRightIcon className="text-muted" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-2xl border border-line bg-white px-4 pt-2 pb-3">
      <legend className="px-1 text-sm font-semibold text-ink">{title}</legend>
      {children}
    </fieldset>
  );
}

export function SettingsScreen() {
  const { user, signOut } = useAuth();
  const [prefs] = useAppPreferences();
  const savePrefs = useSaveAppPreferences();
  const change = (c: Parameters<typeof updateAppPreferences>[1]) => savePrefs(updateAppPreferences(prefs, c));

  return (
    <Page title="Settings">
      <div className="flex flex-col gap-6 px-4 pb-8">
        <PendingNote className="" />
        {user ? <AccountSection user={user} /> : null}
        {user ? <PlanSection user={user} /> : null}

        {user ? (
          <LinkList
            label="Your profile"
            items={[
              { to: `/profile/${user.uid}`, label: 'View my profile', icon: <UserIcon /> },
              { to: '/profile/edit', label: 'Edit profile', icon: <EditIcon /> },
            ]}
          />
        ) : null}

        <Section title="App mode">
          <div className="flex flex-col">
            {APP_MODE_OPTIONS.map((o) => (
              <label key={o.mode} className="flex min-h-14 cursor-pointer items-center gap-3">
                <input
                  type="radio"
                  name="appMode"
                  value={o.mode}
                  checked={prefs.appMode === o.mode}
                  onChange={() => change({ appMode: o.mode })}
                  className="size-5 accent-primary-strong"
                />
                <span className="flex flex-1 flex-col">
                  <span className="text-base text-ink">
                    {o.label} <span className="font-bold text-primary-strong">{brandLabel(o.mode)}</span>
                  </span>
                  <span className="text-sm text-muted">{o.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </Section>

        <Section title="Features">
          <Switch
            label="Cruising"
            hint={prefs.appMode === 'marry' ? 'Not available in Marry only' : undefined}
            checked={prefs.cruisingEnabled}
            disabled={prefs.appMode === 'marry'}
            onChange={(v) => change({ cruisingEnabled: v })}
          />
          <Switch label="Health tracking" checked={prefs.healthEnabled} onChange={(v) => change({ healthEnabled: v })} />
          <Switch
            label="Activity tracking"
            checked={prefs.activityTrackingEnabled}
            onChange={(v) => change({ activityTrackingEnabled: v })}
          />
          <Switch
            label="Right now"
            hint="Show what you're up for right now"
            checked={prefs.rightNowEnabled}
            onChange={(v) => change({ rightNowEnabled: v })}
          />
        </Section>

        {user ? <ModeSection settings={user.modeSettings ?? DEFAULT_MODE_SETTINGS} /> : null}
        {user ? <UnitsSection user={user} /> : null}

        <LinkList label="Settings" items={LINKS} />

        {user ? <SessionsSection /> : null}

        <Button variant="danger" block onClick={() => void signOut()}>
          Sign out
        </Button>
      </div>
    </Page>
  );
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Profile-mode settings (spec section 3 "Client app settings"): auto switching and privacy. */
function ModeSection({ settings }: { settings: ModeSettings }) {
  const save = useSaveModeSettings();
  const hours = settings.timeBasedSwitching;
  const [start, setStart] = useState(hours.datingStart);
  const [end, setEnd] = useState(hours.datingEnd);
  useEffect(() => {
    setStart(hours.datingStart);
    setEnd(hours.datingEnd);
  }, [hours.datingStart, hours.datingEnd]);

  const saveWindow = () => {
    if (!TIME.test(start) || !TIME.test(end)) return;
    if (start === hours.datingStart && end === hours.datingEnd) return;
    save({ timeBasedSwitching: { datingStart: start, datingEnd: end } });
  };

  return (
    <Section title="Mode">
      <Switch
        label="Switch mode by time of day"
        hint="Dating inside your dating hours, Hookup outside them"
        checked={settings.autoSwitchByTime}
        onChange={(v) => save({ autoSwitchByTime: v })}
      />
      <div className="grid grid-cols-2 gap-3 py-2">
        <TextField label="Dating from" type="time" value={start} onChange={(e) => setStart(e.target.value)} onBlur={saveWindow} />
        <TextField label="Dating until" type="time" value={end} onChange={(e) => setEnd(e.target.value)} onBlur={saveWindow} />
      </div>
      <Switch
        label="Show my mode on my profile"
        checked={settings.privacySettings.showModeInProfile}
        onChange={(v) => save({ privacySettings: { ...settings.privacySettings, showModeInProfile: v } })}
      />
    </Section>
  );
}
