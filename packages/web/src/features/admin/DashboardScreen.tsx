import { QueryState, ScreenTitle } from './parts.tsx';
import { adminKeys, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

type Series = { day: string; n: number }[];

/** The last 30 days as bars (an SVG with a text alternative), zero-filled. */
function Bars({ title, series, days }: { title: string; series: Series; days: string[] }) {
  const by = new Map(series.map((s) => [s.day, s.n]));
  const values = days.map((d) => by.get(d) ?? 0);
  const max = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <figure className="rounded-xl border border-line p-4">
      <figcaption className="flex items-baseline justify-between">
        <span className="font-semibold text-ink">{title}</span>
        <span className="text-sm text-muted">{total} in 30 days</span>
      </figcaption>
      <svg
        viewBox="0 0 300 80"
        className="mt-3 h-20 w-full"
        role="img"
        aria-label={`${title}: ${total} in 30 days, at most ${max} a day`}
      >
        {values.map((v, i) => (
          <rect key={days[i]} x={i * 10 + 1} width={8} y={80 - (v / max) * 78} height={(v / max) * 78} rx={1.5} fill="#FF4458">
            <title>{`${days[i]}: ${v}`}</title>
          </rect>
        ))}
      </svg>
    </figure>
  );
}

/** Dashboard (spec section 2): today's figures and 30 days of signups, active users, matches and messages. */
export function DashboardScreen() {
  const q = useStaffQuery(adminKeys.dashboard(), () => staffCall('GET /admin/dashboard'));
  return (
    <>
      <ScreenTitle>Dashboard</ScreenTitle>
      <QueryState q={q} what="the dashboard">
        {(d) => {
          const today = new Date();
          const days = Array.from({ length: 30 }, (_, i) =>
            new Date(today.getTime() - (29 - i) * 86_400_000).toISOString().slice(0, 10),
          );
          const cards = [
            ['Sign-ups today', d.today.signups],
            ['Active today', d.today.activeUsers],
            ['Matches today', d.today.matches],
            ['Messages today', d.today.messages],
            ['Open reports', d.today.openReports],
            ['Photos to review', d.today.pendingModeration],
            ['Members', d.totals.users],
            ['Active in 30 days', d.totals.activeUsers30d],
          ] as const;
          return (
            <div className="flex flex-col gap-4">
              <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
                {cards.map(([label, n]) => (
                  <div key={label} className="rounded-xl bg-canvas p-4">
                    <dt className="text-sm text-muted">{label}</dt>
                    <dd className="text-2xl font-bold text-ink">{n}</dd>
                  </div>
                ))}
              </dl>
              <div className="grid gap-3 md:grid-cols-2">
                <Bars title="Sign-ups" series={d.days.signups} days={days} />
                <Bars title="Active users" series={d.days.activeUsers} days={days} />
                <Bars title="Matches" series={d.days.matches} days={days} />
                <Bars title="Messages" series={d.days.messages} days={days} />
              </div>
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
