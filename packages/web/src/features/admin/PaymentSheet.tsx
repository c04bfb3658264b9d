import {
  type AdminPaymentDetail,
  type AdminPaymentRow,
  formatPrice,
  REFUND_REASON_MAX,
  type RefundStatus,
  type StaffPaymentStatus,
} from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Pill } from '../../ui/Section.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { TextArea, TextField } from '../../ui/TextField.tsx';
import { QueryState, when } from './parts.tsx';
import { adminKeys, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

// One payment in a sheet (admin payments): what it bought, the subscription it paid for, its
// refunds, and, for staff with payments.edit, the refund form: an amount (all that is left by
// default) and a reason, refunded through the payment provider.

export const PAYMENT_STATUS_NAMES: Record<StaffPaymentStatus, string> = {
  completed: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  failed: 'Failed',
};
const TONES: Record<StaffPaymentStatus, 'good' | 'warn' | 'neutral' | 'alert'> = {
  completed: 'good',
  partially_refunded: 'warn',
  refunded: 'neutral',
  failed: 'alert',
};
const KIND_NAMES: Record<AdminPaymentRow['kind'], string> = {
  subscription: 'first month',
  renewal: 'renewal',
  one_time: 'one-time',
  proration: 'plan change',
};
const REFUND_NAMES: Record<RefundStatus, string> = { pending: 'On its way', completed: 'Refunded', failed: 'Failed' };

/** What a payment bought, in a few words: its plan and why it was charged, or its note. */
export function paymentWhat(r: Pick<AdminPaymentRow, 'kind' | 'planName' | 'note'>): string {
  if (r.kind === 'one_time') return r.note ?? 'One-time payment';
  return `${r.planName ?? r.note ?? 'Plan'}, ${KIND_NAMES[r.kind]}`;
}

export function PaymentStatus({ status }: { status: StaffPaymentStatus }) {
  return <Pill tone={TONES[status]}>{PAYMENT_STATUS_NAMES[status]}</Pill>;
}

/** Dollars as typed ("6", "6.5", "6.50") in cents, or null when it is not an amount. */
export function centsOf(dollars: string): number | null {
  const t = dollars.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  return Math.round(Number(t) * 100);
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

function RefundForm({ p }: { p: AdminPaymentDetail }) {
  const [amount, setAmount] = useState(dollars(p.refundable));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // One key per refund meant: a double click or a retry after a lost answer refunds once.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const refund = useStaffMutation((body: { amountCents: number; reason: string; idempotencyKey: string }) =>
    staffCall('POST /admin/payments/:id/refund', { params: { id: p.id }, body }),
  );
  const cents = centsOf(amount);
  const all = cents === p.refundable;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    if (cents === null || cents <= 0) return setError('Enter the amount in dollars, for example 4.99.');
    if (cents > p.refundable) return setError(`At most ${formatPrice(p.refundable)} is left to refund.`);
    if (!reason.trim()) return setError('Give a reason for the refund.');
    setError(null);
    refund.mutate(
      { amountCents: cents, reason: reason.trim(), idempotencyKey: key },
      {
        onSuccess: (a) => {
          setKey(crypto.randomUUID());
          setReason('');
          setAmount(dollars(a.payment.refundable));
          setDone(
            `Refunded ${formatPrice(a.refund.amount)}${a.refund.status === 'pending' ? ' (the provider is processing it)' : ''}.${
              a.refund.canceledSubscription ? ' The subscription it paid for has ended.' : ''
            }`,
          );
        },
        onError: (err) => setError(errorMessage(err, 'The refund failed. Try again.')),
      },
    );
  };
  return (
    <form aria-label="Refund" onSubmit={submit} className="flex flex-col gap-3 border-t border-line pt-4">
      <h3 className="text-base font-semibold text-ink">Refund</h3>
      <TextField
        label="Amount to refund (USD)"
        inputMode="decimal"
        value={amount}
        hint={`Up to ${formatPrice(p.refundable)}.`}
        onChange={(e) => setAmount(e.target.value)}
      />
      <TextArea
        label="Reason"
        hint="Kept in the audit log and sent to the payment provider; the member does not see it."
        maxLength={REFUND_REASON_MAX}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {all && p.paysCurrentPeriod && p.subscription ? (
        <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This payment paid for the current period: refunding all of it ends his {p.subscription.planName} subscription now, and
          his plan drops at once.
        </p>
      ) : null}
      <FormError boxed>{error}</FormError>
      {done ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-semibold text-emerald-800">
          {done}
        </p>
      ) : null}
      <Button type="submit" loading={refund.isPending}>
        {cents !== null && cents > 0 ? `Refund ${formatPrice(cents)}` : 'Refund'}
      </Button>
    </form>
  );
}

function Details({ p, canRefund }: { p: AdminPaymentDetail; canRefund: boolean }) {
  const s = p.subscription;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted">Member</dt>
        <dd className="text-ink">
          {p.userId ? (
            <>
              {p.displayName ?? 'No name'} <span className="font-mono text-xs text-muted">{p.anonymousId}</span>
            </>
          ) : (
            'Account deleted'
          )}
        </dd>
        <dt className="text-muted">For</dt>
        <dd className="text-ink">{paymentWhat(p)}</dd>
        <dt className="text-muted">Paid on</dt>
        <dd className="text-ink">{when(p.createdAt)}</dd>
        <dt className="text-muted">Amount</dt>
        <dd className="font-semibold text-ink">{formatPrice(p.amount)}</dd>
        <dt className="text-muted">Refunded</dt>
        <dd className="text-ink">{formatPrice(p.refunded)}</dd>
        <dt className="text-muted">Status</dt>
        <dd>
          <PaymentStatus status={p.status} />
        </dd>
        <dt className="text-muted">Provider id</dt>
        <dd className="break-all font-mono text-xs text-ink">{p.providerPaymentId ?? '—'}</dd>
        {s ? (
          <>
            <dt className="text-muted">Subscription</dt>
            <dd className="text-ink">
              {s.planName}, {s.status.replace('_', ' ')}, period ends {when(s.currentPeriodEnd)}
            </dd>
          </>
        ) : null}
      </dl>
      {p.refunds.length > 0 ? (
        <section aria-label="Refunds of this payment">
          <h3 className="mb-2 text-base font-semibold text-ink">Refunds</h3>
          <ul className="flex flex-col gap-2">
            {p.refunds.map((r) => (
              <li key={r.id} className="rounded-xl border border-line p-3 text-sm">
                <div className="flex items-center justify-between gap-3">
                  <span className="font-semibold text-ink">{formatPrice(r.amount)}</span>
                  <Pill tone={r.status === 'failed' ? 'alert' : r.status === 'pending' ? 'warn' : 'good'}>
                    {REFUND_NAMES[r.status]}
                  </Pill>
                </div>
                <p className="text-ink">{r.reason}</p>
                <p className="text-muted">
                  {when(r.createdAt)}
                  {r.canceledSubscription ? ' · ended the subscription' : ''}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canRefund && p.refundable > 0 ? <RefundForm p={p} /> : null}
      {canRefund && p.refundable === 0 && p.status !== 'failed' ? (
        <p className="text-sm text-muted">Nothing is left to refund.</p>
      ) : null}
    </div>
  );
}

export function PaymentSheet({ id, canRefund, onClose }: { id: string; canRefund: boolean; onClose: () => void }) {
  const q = useStaffQuery([...adminKeys.all, 'payment', id], () => staffCall('GET /admin/payments/:id', { params: { id } }));
  return (
    <Sheet open onClose={onClose} title="Payment">
      <QueryState q={q} what="the payment">
        {(p) => <Details p={p} canRefund={canRefund} />}
      </QueryState>
    </Sheet>
  );
}
