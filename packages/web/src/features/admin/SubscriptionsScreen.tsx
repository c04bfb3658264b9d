import { type AdminSubscriptionRow, formatPrice, STAFF_SUBSCRIPTION_STATUSES } from '@fmk/core';
import { Link } from 'react-router';
import { TextField } from '../../ui/TextField.tsx';
import { AdminListPage, FilterSelect, ListSearch } from './AdminListPage.tsx';
import { type Column, DataTable, when } from './parts.tsx';
import { adminKeys } from './queries.ts';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

type Status = (typeof STAFF_SUBSCRIPTION_STATUSES)[number];
const STATUS_NAMES: Record<Status, string> = { active: 'Active', past_due: 'Past due', canceled: 'Canceled' };
/** The plans staff filter by (a one-time payment is no subscription). */
export const PLAN_FILTER = ['premium-monthly', 'platinum-monthly'] as const;
export const PLAN_FILTER_NAMES: Record<string, string> = { 'premium-monthly': 'Premium', 'platinum-monthly': 'Platinum' };

const COLUMNS: readonly Column<AdminSubscriptionRow>[] = [
  {
    head: 'Member',
    cell: (r) => (
      <Link className="text-[#D6263B] underline" to={`/admin/users/${r.userId}`}>
        {r.displayName ?? 'No name'}
        {r.anonymousId ? <span className="block font-mono text-xs text-muted">{r.anonymousId}</span> : null}
      </Link>
    ),
  },
  { head: 'Plan', cell: (r) => `${r.planName}${r.comp ? ' (given by staff)' : ''}` },
  {
    head: 'Status',
    cell: (r) => `${STATUS_NAMES[r.status]}${r.cancelAtPeriodEnd && r.status !== 'canceled' ? ', ends at period end' : ''}`,
  },
  { head: 'Price', cell: (r) => `${formatPrice(r.amount)} ${r.currency}` },
  { head: 'Period ends', cell: (r) => when(r.currentPeriodEnd) },
  { head: 'Started', cell: (r) => when(r.createdAt) },
];

/** subscriptions: every subscription, searched by member, filtered by status and plan, paged by the server. */
export function SubscriptionsScreen() {
  const list = useAdminList({
    initial: { q: '', status: '' as Status | '', plan: '' },
    key: adminKeys.subscriptions,
    fetch: (query) => staffCall('GET /admin/subscriptions', { query }),
  });
  const counts = list.q.data?.counts;
  return (
    <AdminListPage
      list={list}
      title="Subscriptions"
      top={
        counts ? (
          <ul aria-label="Subscriptions by status" className="mb-4 grid grid-cols-3 gap-2">
            {STAFF_SUBSCRIPTION_STATUSES.map((s) => (
              <li key={s} className="rounded-xl border border-line p-3">
                <span className="block text-sm text-muted">{STATUS_NAMES[s]}</span>
                <span className="text-xl font-semibold text-ink">{counts[s]}</span>
              </li>
            ))}
          </ul>
        ) : null
      }
      search={
        <ListSearch list={list} label="Search subscriptions" grid="md:grid-cols-[1fr_10rem_12rem_auto]">
          <TextField label="Search" placeholder="Anonymous id or name" {...list.field('q')} />
          <FilterSelect
            list={list}
            name="status"
            label="Status"
            any="Any"
            options={STAFF_SUBSCRIPTION_STATUSES}
            names={STATUS_NAMES}
          />
          <FilterSelect list={list} name="plan" label="Plan" any="Any" options={PLAN_FILTER} names={PLAN_FILTER_NAMES} />
        </ListSearch>
      }
      what="subscriptions"
      empty={{ title: 'No subscriptions match', body: 'Try another search or filter.' }}
    >
      {(d) => <DataTable label="Subscriptions" columns={COLUMNS} rows={d.rows} rowKey={(r) => r.id} />}
    </AdminListPage>
  );
}
