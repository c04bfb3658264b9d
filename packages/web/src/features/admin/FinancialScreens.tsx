import { type Financial, formatPrice } from '@fmk/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../ui/TextField.tsx';
import { type Column, DataTable, QueryState, ScreenTitle } from './parts.tsx';
import { useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

// financial, financial/revenue, financial/forecasting: one server answer, three views of it. The
// figures are tables with plain CSS bars (readable by screen readers as the table itself). Revenue
// is net of refunds: a day whose refunds passed its payments shows a negative figure and no bar.

function useFinancial(days: 30 | 90, months: number) {
  const query = { days, months };
  return useStaffQuery(['admin', 'financial', query], () => staffCall('GET /admin/financial', { query }));
}

const percent = (r: number) => `${(r * 100).toFixed(1)} %`;
/** A net figure: refunds can take a day below nothing. */
const money = (cents: number) => (cents < 0 ? `−${formatPrice(-cents)}` : formatPrice(cents));

function Bar({ value, max }: { value: number; max: number }) {
  const width = max > 0 ? Math.max(2, Math.round((value / max) * 100)) : 0;
  return <span aria-hidden="true" className="block h-2 rounded bg-[#FF4458]" style={{ width: `${value > 0 ? width : 0}%` }} />;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <li className="rounded-xl border border-line p-3">
      <span className="block text-sm text-muted">{label}</span>
      <span className="text-xl font-semibold text-ink">{value}</span>
    </li>
  );
}

function Tabs() {
  return (
    <nav aria-label="Money screens" className="mb-4 flex flex-wrap gap-3 text-sm">
      <Link className="text-[#D6263B] underline" to="/admin/financial">
        Overview
      </Link>
      <Link className="text-[#D6263B] underline" to="/admin/financial/revenue">
        Revenue
      </Link>
      <Link className="text-[#D6263B] underline" to="/admin/financial/forecasting">
        Forecast
      </Link>
    </nav>
  );
}

/** financial: the figures of now. */
export function FinancialScreen() {
  const q = useFinancial(30, 3);
  return (
    <>
      <ScreenTitle>Financial</ScreenTitle>
      <Tabs />
      <QueryState q={q} what="the financial figures">
        {(d) => (
          <ul aria-label="Figures" className="grid grid-cols-2 gap-2 md:grid-cols-4">
            <Figure label="Monthly recurring revenue" value={formatPrice(d.mrr)} />
            <Figure label="Paying subscriptions" value={String(d.payingSubscriptions)} />
            <Figure label={`Revenue (net), last ${d.revenueDays} days`} value={money(d.revenueTotal)} />
            <Figure label={`Refunded, last ${d.revenueDays} days`} value={formatPrice(d.refundsTotal)} />
            <Figure label="Monthly churn (observed)" value={percent(d.observedChurn)} />
          </ul>
        )}
      </QueryState>
    </>
  );
}

const PLAN_COLUMNS: readonly Column<Financial['revenueByPlan'][number]>[] = [
  { head: 'Plan', cell: (r) => r.plan },
  { head: 'Payments', cell: (r) => r.payments },
  { head: 'Revenue (net)', cell: (r) => money(r.cents) },
];
const CHURN_COLUMNS: readonly Column<Financial['churn'][number]>[] = [
  { head: 'Month', cell: (r) => r.month },
  { head: 'Live at its start', cell: (r) => r.liveAtStart },
  { head: 'Ended', cell: (r) => r.ended },
  { head: 'Churn', cell: (r) => percent(r.rate) },
];

/** financial/revenue: MRR, revenue by day (30 or 90 days) and by plan, churn by month. */
export function RevenueScreen() {
  const [days, setDays] = useState<30 | 90>(30);
  const q = useFinancial(days, 3);
  return (
    <>
      <ScreenTitle>Revenue</ScreenTitle>
      <Tabs />
      <div className="mb-4 max-w-48">
        <SelectField label="Period" value={String(days)} onChange={(e) => setDays(e.target.value === '90' ? 90 : 30)}>
          <option value="30">Last 30 days</option>
          <option value="90">Last 90 days</option>
        </SelectField>
      </div>
      <QueryState q={q} what="the revenue">
        {(d) => {
          const max = Math.max(0, ...d.revenueByDay.map((x) => x.cents));
          return (
            <div className="flex flex-col gap-6">
              <p className="text-base text-ink">
                MRR <span className="font-semibold">{formatPrice(d.mrr)}</span> · {money(d.revenueTotal)} in the last{' '}
                {d.revenueDays} days, net of {formatPrice(d.refundsTotal)} refunded
              </p>
              {d.revenueByDay.every((x) => x.cents === 0) ? (
                <p className="text-sm text-muted">No payments in this period.</p>
              ) : (
                <DataTable
                  label="Revenue by day"
                  rows={d.revenueByDay.filter((x) => x.cents !== 0)}
                  rowKey={(r) => r.day}
                  columns={[
                    { head: 'Day', cell: (r) => r.day },
                    { head: 'Revenue (net)', cell: (r) => money(r.cents) },
                    { head: 'Share', hideHead: true, className: 'w-1/2', cell: (r) => <Bar value={r.cents} max={max} /> },
                  ]}
                />
              )}
              {d.revenueByPlan.length > 0 ? (
                <DataTable label="Revenue by plan" rows={d.revenueByPlan} rowKey={(r) => r.plan} columns={PLAN_COLUMNS} />
              ) : null}
              <DataTable label="Churn by month" rows={d.churn} rowKey={(r) => r.month} columns={CHURN_COLUMNS} />
            </div>
          );
        }}
      </QueryState>
    </>
  );
}

/** financial/forecasting: the next 3 to 6 months from the live subscriptions, with the method in words. */
export function ForecastScreen() {
  const [months, setMonths] = useState(6);
  const q = useFinancial(30, months);
  return (
    <>
      <ScreenTitle>Forecast</ScreenTitle>
      <Tabs />
      <div className="mb-4 max-w-48">
        <SelectField label="Months ahead" value={String(months)} onChange={(e) => setMonths(Number(e.target.value))}>
          {[3, 4, 5, 6].map((m) => (
            <option key={m} value={m}>
              {m} months
            </option>
          ))}
        </SelectField>
      </div>
      <QueryState
        q={q}
        what="the forecast"
        isEmpty={(d) => d.payingSubscriptions === 0}
        empty={{ title: 'Nothing to forecast', body: 'No paying subscription renews yet.' }}
      >
        {(d) => {
          const max = Math.max(0, ...d.forecast.map((m) => m.ceiling));
          return (
            <div className="flex flex-col gap-4">
              <section aria-label="How the forecast is made" className="rounded-xl border border-line p-3 text-sm text-ink">
                <h2 className="mb-1 font-semibold">How it is made</h2>
                <p>{d.method}</p>
                <p className="mt-1 text-muted">Monthly churn used: {percent(d.observedChurn)}.</p>
              </section>
              <DataTable
                label="Expected revenue by month"
                rows={d.forecast}
                rowKey={(r) => r.month}
                columns={[
                  { head: 'Month', cell: (r) => r.month },
                  { head: 'Renewals due', cell: (r) => r.renewals },
                  { head: 'If nobody leaves', cell: (r) => formatPrice(r.ceiling) },
                  { head: 'Expected', cell: (r) => formatPrice(r.expected) },
                  { head: 'Share', hideHead: true, className: 'w-1/3', cell: (r) => <Bar value={r.expected} max={max} /> },
                ]}
              />
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
