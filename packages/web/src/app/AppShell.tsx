import { Suspense, useEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { useAuth } from '../features/auth/AuthProvider.tsx';
import { InstallBanner } from '../features/pwa/InstallBanner.tsx';
import { BottomNav, type NavItem } from '../ui/BottomNav.tsx';
import { CalendarIcon, ChatIcon, CompassIcon, GearIcon, GridIcon, HeartPulseIcon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { brandLabel } from './brand.ts';
import { type Tab, visibleTabs } from './preferences.ts';
import { useAppPreferences } from './usePreferences.ts';

const TABS: Record<Tab, NavItem> = {
  grid: { to: '/grid', label: 'Grid', icon: <GridIcon /> },
  messages: { to: '/messages', label: 'Messages', icon: <ChatIcon /> },
  cruise: { to: '/cruise', label: 'Cruise', icon: <CompassIcon /> },
  health: { to: '/health', label: 'Health', icon: <HeartPulseIcon /> },
  activity: { to: '/activity', label: 'Activity', icon: <CalendarIcon /> },
  settings: { to: '/settings', label: 'Settings', icon: <GearIcon /> },
};

/** The signed-in, profile-complete frame: brand header, the screen, the bottom navigation. */
export function AppShell() {
  const { user } = useAuth();
  const [prefs, setPrefs] = useAppPreferences();
  const appMode = user?.appMode ?? prefs.appMode;
  const brand = brandLabel(appMode);

  // The user record is the source of truth for appMode; keep the local copy (loading screen) in step.
  useEffect(() => {
    if (user && user.appMode !== prefs.appMode) setPrefs({ appMode: user.appMode });
  }, [user, prefs.appMode, setPrefs]);

  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white">
      <header className="sticky top-0 z-20 flex h-14 items-center justify-between border-b border-line bg-white/95 px-4 backdrop-blur">
        <Link to="/grid" className="text-2xl font-black tracking-tight text-primary" aria-label={`${brand} home`}>
          {brand}
        </Link>
      </header>
      <main className="flex-1 pb-[calc(4.5rem+env(safe-area-inset-bottom))]">
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
      <InstallBanner brand={brand} raised />
      <BottomNav items={visibleTabs(appMode, prefs).map((t) => TABS[t])} />
    </div>
  );
}
