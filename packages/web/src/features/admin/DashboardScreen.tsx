import type { Dashboard } from '@fmk/core';
import { AdminChart } from './AdminChart.tsx';
import { QueryState, ScreenTitle } from './parts.tsx';
import { adminKeys, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

type Series = Dashboard['days']['signups'];

/** Minor units (cents) as money: "$12.34". */
export const money = (cents: number, currency: string) =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency, minimumFractionDigits: 2 });

const CHARTS: { key: keyof Dashboard['days']; title: string; kind: 'bar' | 'line' }[] = [
  { key: 'signups', title: 'Sign-ups', kind: 'bar' },
  { key: 'activeUsers', title: 'Active members', kind: 'line' },
  { key: 'matches', title: 'Matches', kind: 'bar' },
  { key: 'messages', title: 'Messages', kind: 'bar' },
  { key: 'revenue', title: 'Revenue', kind: 'bar' },
  { key: 'reports', title: 'Reports filed', kind: 'bar' },
  { key: 'moderation', title: 'Photos held for review', kind: 'bar' },
];

/** Dashboard (spec section 2): today's figures and each of the last 30 days, counted by the server. */
export function DashboardScreen() {
  const q = useStaffQuery(adminKeys.dashboard(), () => staffCall('GET /admin/dashboard'));
  return (
    <>
      <ScreenTitle>Dashboard</ScreenTitle>
      <QueryState
        q={q}
        what="the dashboard"
        isEmpty={(d) => d.totals.users === 0}
        empty={{ title: 'No members yet', body: 'The figures start with the first sign-up.' }}
      >
        {(d) => {
          const fmtMoney = (n: number) => money(n, d.currency);
          const cards = [
            ['Sign-ups today', String(d.today.signups)],
            ['Active today', String(d.today.activeUsers)],
            ['Matches today', String(d.today.matches)],
            ['Messages today', String(d.today.messages)],
            ['Revenue today', fmtMoney(d.today.revenue)],
            ['Open reports', String(d.today.openReports)],
            ['Photos to review', String(d.today.pendingModeration)],
            ['Members', String(d.totals.users)],
            ['Active in 30 days', String(d.totals.activeUsers30d)],
            ['Revenue in 30 days', fmtMoney(d.totals.revenue30d)],
          ] as const;
          const days = d.days.signups.map((s) => s.day);
          const values = (s: Series) => s.map((x) => x.n);
          return (
            <div className="flex flex-col gap-4">
              <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
                {cards.map(([label, n]) => (
                  <div key={label} className="rounded-xl bg-canvas p-4">
                    <dt className="text-sm text-muted">{label}</dt>
                    <dd className="text-2xl font-bold text-ink tabular-nums">{n}</dd>
                  </div>
                ))}
              </dl>
              <p className="text-sm text-muted">
                Days are UTC days, today last. Active means {d.activeMeans}. Revenue is completed payments less refunds, in{' '}
                {d.currency}.
              </p>
              <div className="grid gap-3 md:grid-cols-2">
                {CHARTS.map((c) => (
                  <AdminChart
                    key={c.key}
                    title={c.title}
                    kind={c.kind}
                    days={days}
                    series={[{ label: c.title, values: values(d.days[c.key]) }]}
                    format={c.key === 'revenue' ? fmtMoney : undefined}
                  />
                ))}
              </div>
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
