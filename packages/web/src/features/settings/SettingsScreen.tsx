import type { AppMode, Me } from '@fmk/core';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { brandLabel } from '../../app/brand.ts';
import { useAppPreferences } from '../../app/usePreferences.ts';
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
  StarIcon,
} from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

const LINKS: { to: string; label: string; icon: ReactNode }[] = [
  { to: '/profile/edit', label: 'Your profile', icon: <EditIcon /> },
  { to: '/settings/notifications', label: 'Notifications', icon: <BellIcon /> },
  { to: '/settings/privacy', label: 'Privacy', icon: <LockIcon /> },
  { to: '/settings/blocked-users', label: 'Blocked users', icon: <BlockIcon /> },
  { to: '/settings/premium', label: 'Premium', icon: <StarIcon /> },
  { to: '/settings/payment', label: 'Payment', icon: <CardIcon /> },
  { to: '/settings/bugs-feedback', label: 'Bugs and feedback', icon: <BugIcon /> },
  { to: '/settings/help', label: 'Help', icon: <HelpIcon /> },
];

const MODE_LABELS: Record<AppMode, string> = { both: 'Fuck and marry', fuck: 'Fuck only', marry: 'Marry only' };

export function SettingsScreen() {
  const { user, signOut, updateUser } = useAuth();
  const [prefs, setPrefs] = useAppPreferences();
  const toast = useToast();
  const appMode = useMutation({
    mutationFn: (mode: AppMode) => api<Me>('/me', { method: 'PATCH', body: { appMode: mode } }),
    onSuccess: (me) => {
      updateUser(me);
      setPrefs({ appMode: me.appMode });
    },
    onError: (e) => toast.error(errorMessage(e, 'Your app mode could not be saved. Please try again.')),
  });
  const currentMode = user?.appMode ?? prefs.appMode;

  return (
    <Page title="Settings">
      <div className="flex flex-col gap-6 px-4 pb-8">
        {user ? (
          <p className="text-base text-muted">
            Signed in as <span className="font-semibold text-ink">{user.email}</span>
          </p>
        ) : null}
        <nav aria-label="Settings">
          <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-white">
            {LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="flex min-h-14 items-center gap-3 px-4 text-base text-ink hover:bg-canvas">
                  <span className="text-muted">{l.icon}</span>
                  <span className="flex-1">{l.label}</span>
                  <ChevronRightIcon className="text-muted" />
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <fieldset className="rounded-2xl border border-line bg-white p-4">
          <legend className="px-1 text-sm font-semibold text-ink">App mode</legend>
          <div className="flex flex-col gap-2">
            {(Object.keys(MODE_LABELS) as AppMode[]).map((m) => (
              <label key={m} className="flex min-h-11 items-center gap-3 text-base">
                <input
                  type="radio"
                  name="appMode"
                  value={m}
                  checked={currentMode === m}
                  disabled={appMode.isPending}
                  onChange={() => appMode.mutate(m)}
                  className="size-5 accent-primary-strong"
                />
                <span>
                  {MODE_LABELS[m]} <span className="text-muted">({brandLabel(m)})</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="rounded-2xl border border-line bg-white p-4">
          <legend className="px-1 text-sm font-semibold text-ink">Features</legend>
          <div className="flex flex-col gap-2">
            <Toggle
              label="Cruising"
              checked={prefs.cruisingEnabled && currentMode !== 'marry'}
              disabled={currentMode === 'marry'}
              onChange={(v) => setPrefs({ cruisingEnabled: v })}
            />
            <Toggle label="Health tracking" checked={prefs.healthEnabled} onChange={(v) => setPrefs({ healthEnabled: v })} />
            <Toggle
              label="Activity tracking"
              checked={prefs.activityTrackingEnabled}
              onChange={(v) => setPrefs({ activityTrackingEnabled: v })}
            />
          </div>
        </fieldset>

        <Button variant="danger" block onClick={() => void signOut()}>
          Sign out
        </Button>
      </div>
    </Page>
  );
}

function Toggle({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="flex min-h-11 items-center justify-between gap-3 text-base">
      <span>{label}</span>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        className="size-5 accent-primary-strong"
      />
    </label>
  );
}
