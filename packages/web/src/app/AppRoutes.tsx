import { brandLabel } from '@fmk/core';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useAuth } from '../features/auth/AuthProvider.tsx';
import { readSession } from '../features/auth/session.ts';
import { dropFirstScreen } from '../shared/firstScreen.ts';
import { useAppPreferences } from '../shared/usePreferences.ts';
import { LoadingScreen } from '../ui/LoadingScreen.tsx';
import { AppShell } from './AppShell.tsx';
import { Crash } from './Crash.tsx';
import { ErrorScreen } from './ErrorScreen.tsx';
import { type AuthView, DEBUG_CRASH_PATH, guardRedirect } from './guards.ts';

/** Every screen is its own chunk, so the first screen loads only what it shows. */
function lazyNamed<M extends Record<string, unknown>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const loadLanding = () => import('../features/auth/LandingScreen.tsx');
const loadGrid = () => import('../features/discovery/GridScreen.tsx');

/**
 * A cold start on the first screen fetches its chunk while the entry starts up (and the session
 * check is in flight), not after the first render asks: a round trip less before the landing
 * page or the grid paints (Lighthouse; README "Web budgets"). The grid's first page and photos
 * are already on their way by then (early.ts). Only for whom it will show: signed out on "/", signed in on
 * "/grid". A failure here is left to the screen, which asks again and reports it.
 */
function preloadFirstScreen(pathname: string): void {
  const { token, user } = readSession();
  if (pathname === '/' && !token) loadLanding().catch(() => {});
  if (pathname === '/grid' && token && user) loadGrid().catch(() => {});
}
if (typeof window !== 'undefined') preloadFirstScreen(window.location.pathname);

const LandingScreen = lazyNamed(loadLanding, 'LandingScreen');
const AuthScreen = lazyNamed(() => import('../features/auth/AuthScreen.tsx'), 'AuthScreen');
const OnboardingScreen = lazyNamed(() => import('../features/onboarding/OnboardingScreen.tsx'), 'OnboardingScreen');
const GridScreen = lazyNamed(loadGrid, 'GridScreen');
const ProfileScreen = lazyNamed(() => import('../features/profiles/ProfileScreen.tsx'), 'ProfileScreen');
const ProfileEditLayout = lazyNamed(() => import('../features/profiles/ProfileEditLayout.tsx'), 'ProfileEditLayout');
const ProfileEditScreen = lazyNamed(() => import('../features/profiles/ProfileEditScreen.tsx'), 'ProfileEditScreen');
const PromptSelectorScreen = lazyNamed(() => import('../features/profiles/PromptSelectorScreen.tsx'), 'PromptSelectorScreen');
const LikesScreen = lazyNamed(() => import('../features/game/LikesScreen.tsx'), 'LikesScreen');
const MessagesScreen = lazyNamed(() => import('../features/messaging/MessagesScreen.tsx'), 'MessagesScreen');
const ChatScreen = lazyNamed(() => import('../features/messaging/ChatScreen.tsx'), 'ChatScreen');
const CruiseScreen = lazyNamed(() => import('../features/cruise/CruiseScreen.tsx'), 'CruiseScreen');
const TrackScreen = lazyNamed(() => import('../features/track/TrackScreen.tsx'), 'TrackScreen');
const HealthScreen = lazyNamed(() => import('../features/health/HealthScreen.tsx'), 'HealthScreen');
const ActivityScreen = lazyNamed(() => import('../features/activity/ActivityScreen.tsx'), 'ActivityScreen');
const ActivityLogScreen = lazyNamed(() => import('../features/activity/ActivityLogScreen.tsx'), 'ActivityLogScreen');
const SettingsScreen = lazyNamed(() => import('../features/settings/SettingsScreen.tsx'), 'SettingsScreen');
const settings = () => import('../features/settings/SettingsSubScreens.tsx');
const NotificationSettingsScreen = lazyNamed(settings, 'NotificationSettingsScreen');
const PrivacySettingsScreen = lazyNamed(settings, 'PrivacySettingsScreen');
const SafetySettingsScreen = lazyNamed(() => import('../features/settings/SafetySettingsScreen.tsx'), 'SafetySettingsScreen');
const BlockedUsersScreen = lazyNamed(() => import('../features/safety/BlockedUsersScreen.tsx'), 'BlockedUsersScreen');
const PremiumScreen = lazyNamed(() => import('../features/billing/PremiumScreen.tsx'), 'PremiumScreen');
const PaymentScreen = lazyNamed(() => import('../features/billing/PaymentScreen.tsx'), 'PaymentScreen');
const BugsFeedbackScreen = lazyNamed(() => import('../features/support/BugsFeedbackScreen.tsx'), 'BugsFeedbackScreen');
const HelpScreen = lazyNamed(() => import('../features/support/HelpScreen.tsx'), 'HelpScreen');
const SafetyCentreScreen = lazyNamed(() => import('../features/safety/SafetyCentreScreen.tsx'), 'SafetyCentreScreen');
const VerifyEmailScreen = lazyNamed(() => import('../features/account/VerifyEmailScreen.tsx'), 'VerifyEmailScreen');
const ResetPasswordScreen = lazyNamed(() => import('../features/account/ResetPasswordScreen.tsx'), 'ResetPasswordScreen');
// The staff area is its own lazy part with its own session: nothing of it loads for members.
const AdminArea = lazyNamed(() => import('../features/admin/AdminArea.tsx'), 'AdminArea');

/** The loading screen under the brand of the current appMode. */
function Loading({ message }: { message?: string }) {
  const [prefs] = useAppPreferences();
  return <LoadingScreen brand={brandLabel(prefs.appMode)} message={message} />;
}

const isAdminArea = (path: string) => path === '/admin' || path.startsWith('/admin/');

/** Applies the guards of spec section 2 (guards.ts), then renders the screen for the path. */
export function AppRoutes() {
  const { state, retryInit } = useAuth();
  const { pathname } = useLocation();
  // The grid's first screen painted before the app (early.ts) stays only while the grid is coming.
  useEffect(() => {
    if (pathname !== '/grid' || state.status === 'signedOut' || state.status === 'error') dropFirstScreen();
  }, [pathname, state.status]);

  // Above every guard, so the error screen can be reached in any state.
  if (pathname === DEBUG_CRASH_PATH) return <Crash />;
  // The staff area guards itself (a staff session, apart from the member's sign-in state).
  if (isAdminArea(pathname))
    return (
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/admin/*" element={<AdminArea />} />
        </Routes>
      </Suspense>
    );
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <ErrorScreen detail={state.message} onRetry={retryInit} />;

  const view: AuthView =
    state.status === 'signedIn'
      ? { status: 'signedIn', onboardingComplete: state.user.onboardingComplete }
      : { status: 'signedOut' };
  const redirect = guardRedirect(view, pathname);
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/" element={<LandingScreen />} />
        <Route path="/auth" element={<AuthScreen />} />
        <Route path="/onboarding" element={<OnboardingScreen />} />
        <Route path="/verify" element={<VerifyEmailScreen />} />
        <Route path="/reset-password" element={<ResetPasswordScreen />} />
        <Route element={<AppShell />}>
          <Route path="/grid" element={<GridScreen />} />
          <Route element={<ProfileEditLayout />}>
            <Route path="/profile/edit" element={<ProfileEditScreen />} />
            <Route path="/profile/edit/prompts" element={<PromptSelectorScreen />} />
          </Route>
          <Route path="/profile/:userId" element={<ProfileScreen />} />
          <Route path="/likes" element={<LikesScreen />} />
          <Route path="/messages" element={<MessagesScreen />} />
          <Route path="/messages/chat/:userId" element={<ChatScreen />} />
          <Route path="/messages/:conversationId" element={<ChatScreen />} />
          <Route path="/cruise" element={<CruiseScreen />} />
          <Route path="/track" element={<TrackScreen />} />
          <Route path="/health" element={<HealthScreen />} />
          <Route path="/activity" element={<ActivityScreen />} />
          <Route path="/activity/log" element={<ActivityLogScreen />} />
          <Route path="/settings" element={<SettingsScreen />} />
          <Route path="/settings/notifications" element={<NotificationSettingsScreen />} />
          <Route path="/settings/privacy" element={<PrivacySettingsScreen />} />
          <Route path="/settings/safety" element={<SafetySettingsScreen />} />
          <Route path="/settings/blocked-users" element={<BlockedUsersScreen />} />
          <Route path="/settings/premium" element={<PremiumScreen />} />
          <Route path="/settings/payment" element={<PaymentScreen />} />
          <Route path="/settings/bugs-feedback" element={<BugsFeedbackScreen />} />
          <Route path="/settings/help" element={<HelpScreen />} />
          <Route path="/safety" element={<SafetyCentreScreen />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
