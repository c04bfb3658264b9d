import { badgeLabel, brandLabel, MODE_DIM_MS, MODE_DIM_OPACITY, type NavTab, visibleTabs } from '@fmk/core';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { VerifyEmailBanner } from '../features/account/VerifyEmailBanner.tsx';
import { useAuth } from '../features/auth/AuthProvider.tsx';
import { CallLayer } from '../features/calls/CallLayer.tsx';
import { useBadgesQuery } from '../features/game/queries.ts';
import { useSelectionOutbox } from '../features/game/useSelect.ts';
import { useTimeZoneSync } from '../features/health/queries.ts';
import { useHealthReminders } from '../features/health/useHealthReminders.ts';
import { useLiveChannel } from '../features/live/useLiveChannel.ts';
import { ModeSwitch } from '../features/profiles/ModeSwitch.tsx';
import { useAutoModeSwitch } from '../features/profiles/useAutoModeSwitch.ts';
import { InstallBanner } from '../features/pwa/InstallBanner.tsx';
import { useAppPreferences } from '../shared/usePreferences.ts';
import { BottomNav, type NavItem } from '../ui/BottomNav.tsx';
import { CalendarIcon, ChatIcon, CompassIcon, GearIcon, GridIcon, HeartPulseIcon } from '../ui/icons.tsx';
import { LOOK } from '../ui/look.ts';
import { Spinner } from '../ui/Spinner.tsx';

/** Where the 'Confirm your email' reminder shows: home and settings, never over a chat or a form. */
const VERIFY_BANNER_PATHS = new Set(['/grid', '/settings']);

const TABS: Record<NavTab, NavItem> = {
  grid: { to: '/grid', label: 'Grid', icon: <GridIcon /> },
  messages: { to: '/messages', label: 'Messages', icon: <ChatIcon /> },
  cruise: { to: '/cruise', label: 'Cruise', icon: <CompassIcon /> },
  health: { to: '/health', label: 'Health', icon: <HeartPulseIcon /> },
  activity: { to: '/activity', label: 'Activity', icon: <CalendarIcon /> },
  settings: { to: '/settings', label: 'Settings', icon: <GearIcon /> },
};

/** The dim of a manual mode switch (spec section 4): 0.7 opacity for 150 ms, then back. */
function useModeDim(): [boolean, () => void] {
  const [dimmed, setDimmed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const dim = useCallback(() => {
    setDimmed(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setDimmed(false), MODE_DIM_MS);
  }, []);
  return [dimmed, dim];
}

/** The signed-in, profile-complete frame: brand header with the mode switch, the screen, the tabs. */
export function AppShell() {
  const { user, updateUser } = useAuth();
  // The local copy follows the user record (the auth provider adopts it on load).
  const [prefs] = useAppPreferences();
  const brand = brandLabel(prefs.appMode);
  const [dimmed, dim] = useModeDim();
  const { pathname } = useLocation();
  useAutoModeSwitch(user, updateUser);
  useLiveChannel(user !== null);
  useTimeZoneSync(user !== null);
  useSelectionOutbox();
  const badges = useBadgesQuery(user !== null);
  const messagesBadge = badgeLabel(badges.data?.messages ?? 0);
  // Spec section 2: a red dot on Health when a medication is due or a screening is overdue.
  const healthDot = useHealthReminders(user !== null && prefs.healthEnabled);
  const tabs = visibleTabs(prefs).map((t) =>
    t === 'messages' && messagesBadge
      ? { ...TABS[t], badge: messagesBadge, label: TABS[t].label }
      : t === 'health' && healthDot
        ? { ...TABS[t], badge: true }
        : TABS[t],
  );

  return (
    <div className={LOOK.shell}>
      {/* Opaque, not a blurred backdrop: that is redrawn with every frame of the screen under it. */}
      <header className={LOOK.shellHeader}>
        <Link to="/grid" className={LOOK.brand} aria-label={`${brand} home`}>
          {brand}
        </Link>
        <ModeSwitch onSwitchStart={dim} />
      </header>
      <main
        data-dimmed={dimmed || undefined}
        style={{ opacity: dimmed ? MODE_DIM_OPACITY : 1, transition: `opacity ${MODE_DIM_MS}ms ease` }}
        className="flex-1 pb-[calc(4.5rem+env(safe-area-inset-bottom))]"
      >
        {VERIFY_BANNER_PATHS.has(pathname) ? <VerifyEmailBanner /> : null}
        <Suspense
          fallback={
            <div className="flex justify-center py-16">
              <Spinner />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <InstallBanner brand={brand} placement="above-nav" />
      <BottomNav items={tabs} />
      <CallLayer />
    </div>
  );
}
