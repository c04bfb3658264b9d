import { type AdminPaymentRow, formatPrice, ONE_TIME_PLAN, STAFF_PAYMENT_STATUSES, type StaffPaymentStatus } from '@fmk/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AdminListPage, FilterSelect, ListSearch } from './AdminListPage.tsx';
import { type AdminColumn, AdminTable } from './AdminTable.tsx';
import { PAYMENT_STATUS_NAMES, PaymentSheet, PaymentStatus, paymentWhat } from './PaymentSheet.tsx';
import { when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe } from './queries.ts';
import { PLAN_FILTER, PLAN_FILTER_NAMES } from './SubscriptionsScreen.tsx';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

/**
 * payments: every payment, searched by a member's anonymous id or name or a payment's id, filtered
 * by status, plan and days, paged by the server; a payment opens in a sheet with its refunds, and
 * staff with payments.edit refund it there through the provider.
 */
export function PaymentsScreen() {
  const me = useAdminMe().data;
  const list = useAdminList({
    initial: { q: '', status: '' as StaffPaymentStatus | '', plan: '', from: '', to: '' },
    key: adminKeys.payments,
    fetch: (query) => staffCall('GET /admin/payments', { query }),
  });
  const { filter } = list;
  const [open, setOpen] = useState<string | null>(null);
  const columns = useMemo<AdminColumn<AdminPaymentRow>[]>(
    () => [
      { head: 'Date', cell: (r) => when(r.createdAt), sortValue: (r) => r.createdAt },
      {
        head: 'Member',
        cell: (r) =>
          r.userId ? (
            <Link className="text-[#D6263B] underline" to={`/admin/users/${r.userId}`}>
              {r.displayName ?? 'No name'}
              {r.anonymousId ? <span className="block font-mono text-xs text-muted">{r.anonymousId}</span> : null}
            </Link>
          ) : (
            <span className="text-muted">Account deleted</span>
          ),
      },
      { head: 'For', cell: (r) => paymentWhat(r) },
      {
        head: 'Amount',
        sortValue: (r) => r.amount,
        cell: (r) => (
          <>
            {formatPrice(r.amount)}
            {r.refunded > 0 ? <span className="block text-xs text-muted">−{formatPrice(r.refunded)} refunded</span> : null}
          </>
        ),
      },
      { head: 'Status', cell: (r) => <PaymentStatus status={r.status} /> },
      {
        head: 'Actions',
        hideHead: true,
        cell: (r) => (
          <Button
            variant="secondary"
            className="min-h-10 px-4 text-sm"
            aria-label={`Open the ${formatPrice(r.amount)} payment of ${when(r.createdAt)}`}
            onClick={() => setOpen(r.id)}
          >
            Open
          </Button>
        ),
      },
    ],
    [],
  );
  return (
    <AdminListPage
      list={list}
      title="Payments"
      search={
        <ListSearch
          list={list}
          label="Search payments"
          grid="md:grid-cols-4"
          after={
            <>
              <FilterSelect
                list={list}
                name="status"
                label="Status"
                any="Any"
                options={STAFF_PAYMENT_STATUSES}
                names={PAYMENT_STATUS_NAMES}
              />
              <FilterSelect
                list={list}
                name="plan"
                label="Plan"
                any="Any"
                options={[...PLAN_FILTER, ONE_TIME_PLAN]}
                names={{ ...PLAN_FILTER_NAMES, [ONE_TIME_PLAN]: 'One-time payments' }}
              />
              <TextField label="From" type="date" max={filter.to || undefined} {...list.field('from')} />
              <TextField label="To" type="date" min={filter.from || undefined} {...list.field('to')} />
            </>
          }
        >
          <div className="md:col-span-3">
            <TextField label="Search" placeholder="Anonymous id, name or payment id" {...list.field('q')} />
          </div>
        </ListSearch>
      }
      what="payments"
      empty={{ title: 'No payments yet', body: 'Payments show here as members pay.' }}
      noMatch={{ title: 'No payments match', body: 'Try another search, filter or range of days.' }}
      after={open ? <PaymentSheet id={open} canRefund={mayUse(me, 'payments.edit')} onClose={() => setOpen(null)} /> : null}
    >
      {(d) => <AdminTable caption="Payments" captionHidden columns={columns} rows={d.rows} rowKey={(r) => r.id} />}
    </AdminListPage>
  );
}
