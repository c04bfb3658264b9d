import { ADMIN_SCREENS } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { AccountScreen } from './AccountScreen.tsx';
import { AdminLoginScreen } from './AdminLoginScreen.tsx';
import { AnalyticsScreen } from './AnalyticsScreen.tsx';
import { AuditScreen } from './AuditScreen.tsx';
import { BannedScreen } from './BannedScreen.tsx';
import { ContentScreen } from './ContentScreen.tsx';
import { DashboardScreen } from './DashboardScreen.tsx';
import { LimitsScreen } from './FeaturesScreen.tsx';
import { FeedbackScreen } from './FeedbackScreen.tsx';
import { FinancialScreen, ForecastScreen, RevenueScreen } from './FinancialScreens.tsx';
import { SystemHealthScreen } from './HealthScreen.tsx';
import { InviteAcceptScreen } from './InviteAcceptScreen.tsx';
import { LocationsScreen } from './LocationsScreen.tsx';
import { MessagesScreen } from './MessagesScreen.tsx';
import { PaymentsScreen } from './PaymentsScreen.tsx';
import { PermissionsScreen } from './PermissionsScreen.tsx';
import { PricingScreen } from './PricingScreen.tsx';
import { PromptsScreen } from './PromptsScreen.tsx';
import { adminKeys, mayUse, useAdminMe } from './queries.ts';
import { ReportsScreen } from './ReportsScreen.tsx';
import { SubscriptionsScreen } from './SubscriptionsScreen.tsx';
import { SupportScreen, SupportThreadScreen } from './SupportScreens.tsx';
import { SystemSettingsScreen } from './SystemScreens.tsx';
import { setStaffSession, staffCall, useStaffToken } from './session.ts';
import { InvitesScreen, MembersScreen } from './TeamScreens.tsx';
import { UserDetailScreen } from './UserDetailScreen.tsx';
import { UsersScreen } from './UsersScreens.tsx';

/**
 * The staff admin area (spec section 2): a lazy part of the app with its own session.
 * /admin/login and an invite's link are open; everything else needs a verified staff session,
 * otherwise it goes to /admin/login; /admin goes to the dashboard (or the first screen he may use).
 */
export function AdminArea() {
  return (
    <Routes>
      <Route path="login" element={<AdminLoginScreen />} />
      <Route path="invite/:token" element={<InviteAcceptScreen />} />
      <Route element={<StaffGuard />}>
        <Route element={<AdminShell />}>
          <Route index element={<FirstScreen />} />
          <Route path="dashboard" element={<Gate need="analytics.view" element={<DashboardScreen />} />} />
          <Route path="analytics" element={<Gate need="analytics.view" element={<AnalyticsScreen />} />} />
          <Route path="users" element={<Gate need="users.view" element={<UsersScreen />} />} />
          <Route path="users/banned" element={<Gate need="users.view" element={<BannedScreen />} />} />
          <Route path="users/reports" element={<Gate need="reports.view" element={<ReportsScreen />} />} />
          <Route path="reports" element={<Gate need="reports.view" element={<ReportsScreen triage />} />} />
          <Route path="messages" element={<Gate need="reports.view" element={<MessagesScreen />} />} />
          <Route path="users/:id" element={<Gate need="users.view" element={<UserDetailScreen />} />} />
          <Route path="content" element={<Navigate to="/admin/content/pending" replace />} />
          <Route path="content/:status" element={<Gate need="content.view" element={<ContentScreen />} />} />
          <Route path="locations" element={<Gate need="locations.view" element={<LocationsScreen />} />} />
          <Route path="locations/:status" element={<Gate need="locations.view" element={<LocationsScreen />} />} />
          <Route path="support" element={<Gate need="reports.view" element={<SupportScreen />} />} />
          <Route path="support/:id" element={<Gate need="reports.view" element={<SupportThreadScreen />} />} />
          <Route path="feedback" element={<Gate need="reports.view" element={<FeedbackScreen />} />} />
          <Route path="prompts" element={<Gate need="prompts.view" element={<PromptsScreen />} />} />
          <Route path="financial" element={<Gate need="financial.view" element={<FinancialScreen />} />} />
          <Route path="financial/revenue" element={<Gate need="financial.view" element={<RevenueScreen />} />} />
          <Route path="financial/forecasting" element={<Gate need="financial.view" element={<ForecastScreen />} />} />
          <Route path="subscriptions" element={<Gate need="subscriptions.view" element={<SubscriptionsScreen />} />} />
          <Route path="subscriptions/pricing" element={<Gate need="subscriptions.view" element={<PricingScreen />} />} />
          <Route path="subscriptions/limits" element={<Gate need="subscriptions.view" element={<LimitsScreen />} />} />
          <Route path="payments" element={<Gate need="payments.view" element={<PaymentsScreen />} />} />
          <Route path="team/members" element={<Gate need="team_management.view" element={<MembersScreen />} />} />
          <Route path="team/invites" element={<Gate need="team_management.view" element={<InvitesScreen />} />} />
          <Route path="team/permissions" element={<Gate need="team_management.view" element={<PermissionsScreen />} />} />
          <Route path="system/audit" element={<Gate need="audit_logs.view" element={<AuditScreen />} />} />
          <Route path="system/settings" element={<Gate need="system_admin.view" element={<SystemSettingsScreen />} />} />
          <Route path="system/health" element={<Gate need="system_admin.view" element={<SystemHealthScreen />} />} />
          <Route path="settings" element={<AccountScreen />} />
          <Route path="*" element={<FirstScreen />} />
        </Route>
      </Route>
    </Routes>
  );
}

function StaffGuard() {
  const token = useStaffToken();
  const me = useAdminMe();
  if (!token) return <Navigate to="/admin/login" replace />;
  if (me.isError) {
    setStaffSession(null);
    return <Navigate to="/admin/login" replace />;
  }
  if (!me.data) return <LoadingScreen brand="FMK Admin" message="Checking access..." />;
  return <Outlet />;
}

/** A screen the staff member may not use is not rendered (the server refuses its calls anyway). */
function Gate({ need, element }: { need: (typeof ADMIN_SCREENS)[number]['needs']; element: React.ReactElement }) {
  const me = useAdminMe().data;
  return mayUse(me, need) ? element : <FirstScreen />;
}

function FirstScreen() {
  const me = useAdminMe().data;
  const first = ADMIN_SCREENS.find((s) => mayUse(me, s.needs));
  return <Navigate to={`/admin/${first?.path ?? 'settings'}`} replace />;
}

function AdminShell() {
  const me = useAdminMe().data!;
  const qc = useQueryClient();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const screens = ADMIN_SCREENS.filter((s) => mayUse(me, s.needs));
  const signOut = async () => {
    await staffCall('POST /admin/logout').catch(() => undefined);
    setStaffSession(null);
    qc.removeQueries({ queryKey: adminKeys.all });
    qc.removeQueries({ queryKey: adminKeys.blobs() });
  };
  // The screen the menu marks: the one at this path, else the first of its section (content/approved
  // is Photos, locations/pending Locations, users/:id Users, support/:id Support).
  const section = pathname.split('/')[2];
  const active = screens.find((s) => pathname === `/admin/${s.path}`) ?? screens.find((s) => s.path.split('/')[0] === section);
  const nav = (
    <nav aria-label="Admin" className="flex flex-col gap-1 p-3">
      {screens.map((s) => (
        <Link
          key={s.path}
          to={`/admin/${s.path}`}
          aria-current={s === active ? 'page' : undefined}
          onClick={() => setOpen(false)}
          className={`rounded-xl px-3 py-2.5 text-sm font-semibold ${s === active ? 'bg-ink text-white' : 'text-ink hover:bg-canvas'}`}
        >
          {s.label}
        </Link>
      ))}
    </nav>
  );
  const current = active?.label ?? 'Admin';
  return (
    <div className="min-h-dvh bg-white lg:flex">
      <aside className="hidden w-60 shrink-0 border-r border-line lg:block">
        <p className="px-6 pt-6 pb-2 text-lg font-bold text-ink">FMK Admin</p>
        {nav}
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex items-center justify-between gap-3 border-b border-line px-4 py-3">
          <div className="flex items-center gap-2">
            <Button
              variant="ghost"
              className="min-h-10 px-3 lg:hidden"
              aria-expanded={open}
              aria-controls="admin-menu"
              onClick={() => setOpen((o) => !o)}
            >
              Menu
            </Button>
            <p className="font-semibold text-ink">{current}</p>
          </div>
          <div className="flex items-center gap-3">
            <p className="hidden text-sm text-muted sm:block">
              {me.email} · {me.role.replace('_', ' ')}
            </p>
            <Button variant="secondary" className="min-h-10 px-4 text-sm" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </header>
        {open ? (
          <div id="admin-menu" className="border-b border-line lg:hidden">
            {nav}
          </div>
        ) : null}
        <main className="mx-auto w-full max-w-5xl px-4 py-5">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
