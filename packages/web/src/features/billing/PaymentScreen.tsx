import { type BillingSummary, formatPrice, planById, planFromRecord, type Subscription, TIER_NAMES } from '@fmk/core';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { CardIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { BoostCheckout } from './BoostCheckout.tsx';
import { CardForm } from './CardForm.tsx';
import {
  newIdempotencyKey,
  paymentErrorText,
  useAddCardMutation,
  useBillingQuery,
  useCancelMutation,
  useDefaultCardMutation,
  usePlansQuery,
  useReactivateMutation,
  useRemoveCardMutation,
  useSubscribeMutation,
} from './queries.ts';

const day = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' }) : '';

/** The subscription's state in a sentence (spec section 4 "Subscription record"). */
export function subscriptionText(s: Subscription): string {
  if (s.status === 'past_due')
    return `Your last payment failed. We will try your card again; ${s.planName} stays yours meanwhile.`;
  if (s.status === 'canceled') return `Canceled on ${day(s.canceledAt)}.`;
  if (s.cancelAtPeriodEnd) return `Canceled: ${s.planName} stays yours until ${day(s.currentPeriodEnd)}, then nothing renews.`;
  return `Renews on ${day(s.nextBillingDate)} for ${formatPrice(s.amount)}.`;
}

/**
 * The plan as sold today (staff edit prices): the server refuses an amount that is not it. When
 * the plan list cannot be read, the published price stands in and the server still decides.
 */
function useSoldPlan(planId: string) {
  const plans = usePlansQuery();
  if (plans.isPending) return { loading: true, plan: undefined };
  const sold = plans.data?.plans.find((p) => p.id === planId);
  return { loading: false, plan: sold ? planFromRecord(sold) : plans.isError ? planById(planId) : undefined };
}

function Checkout({ data, planId }: { data: BillingSummary; planId: string }) {
  const { loading, plan } = useSoldPlan(planId);
  const subscribe = useSubscribeMutation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  // One key per checkout: a double tap or a retry after a lost answer charges once.
  const [key, setKey] = useState(newIdempotencyKey);
  const def = data.cards.find((c) => c.isDefault);
  if (loading) return <Spinner label="Loading the plan…" />;
  if (!plan) return <FormError boxed>Invalid subscription plan</FormError>;
  const pay = (sourceId?: string) => {
    setError(null);
    subscribe.mutate(
      { planId: plan.id, amount: plan.priceCents, key, ...(sourceId ? { sourceId } : {}) },
      {
        // The live channel's `tier` event says so with a toast, and the session re-reads the tier.
        onSuccess: () => navigate('/settings/payment', { replace: true }),
        onError: (e) => {
          setError(paymentErrorText(e, 'Payment failed'));
          setKey(newIdempotencyKey());
        },
      },
    );
  };
  return (
    <Section title={`Checkout: ${plan.name}`}>
      <Card>
        <p className="text-base text-ink">
          <span className="font-semibold">{plan.name}</span>, {formatPrice(plan.priceCents)} a month (USD). Renews every 30 days
          until you cancel.
        </p>
      </Card>
      <FormError boxed>{error}</FormError>
      {def ? (
        <Button block loading={subscribe.isPending} onClick={() => pay()}>
          Pay {formatPrice(plan.priceCents)} with {def.brand} •••• {def.last4}
        </Button>
      ) : null}
      <Card>
        <h3 className="mb-3 text-base font-semibold text-ink">{def ? 'Or pay with a new card' : 'Pay with a card'}</h3>
        <CardForm
          provider={data.provider}
          submitLabel={`Pay ${formatPrice(plan.priceCents)}`}
          busy={subscribe.isPending}
          onToken={pay}
        />
      </Card>
    </Section>
  );
}

function CurrentPlan({ data }: { data: BillingSummary }) {
  const s = data.subscription;
  const cancel = useCancelMutation();
  const reactivate = useReactivateMutation();
  const [error, setError] = useState<string | null>(null);
  const onError = (fallback: string) => (e: unknown) => setError(paymentErrorText(e, fallback));
  return (
    <Section title="Current plan">
      <Card>
        <p className="text-base font-semibold text-ink">{TIER_NAMES[data.tier]}</p>
        <p className="text-sm text-muted">
          {s ? subscriptionText(s) : 'No subscription, so nothing renews and nothing is charged.'}
        </p>
      </Card>
      <FormError boxed>{error}</FormError>
      {s && s.status !== 'canceled' && !s.cancelAtPeriodEnd ? (
        <>
          <Button
            variant="secondary"
            block
            loading={cancel.isPending}
            onClick={() => cancel.mutate({ id: s.id, atPeriodEnd: true }, { onError: onError('Cancellation failed') })}
          >
            Cancel at the end of this period
          </Button>
          <Button
            variant="ghost"
            block
            onClick={() => cancel.mutate({ id: s.id, atPeriodEnd: false }, { onError: onError('Cancellation failed') })}
          >
            Cancel now and lose {s.planName} today
          </Button>
        </>
      ) : null}
      {s?.cancelAtPeriodEnd && s.status !== 'canceled' ? (
        <Button
          block
          loading={reactivate.isPending}
          onClick={() => reactivate.mutate(s.id, { onError: onError('Update failed') })}
        >
          Keep {s.planName}
        </Button>
      ) : null}
      <ButtonLink to="/settings/premium" variant="secondary" block>
        Compare plans
      </ButtonLink>
    </Section>
  );
}

function Cards({ data }: { data: BillingSummary }) {
  const add = useAddCardMutation();
  const remove = useRemoveCardMutation();
  const makeDefault = useDefaultCardMutation();
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Section title="Saved cards">
      {data.cards.length === 0 ? (
        <Card>
          <div className="flex items-center gap-3">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-canvas text-muted">
              <CardIcon />
            </span>
            <div>
              <p className="text-base font-semibold text-ink">No saved cards</p>
              <p className="text-sm text-muted">FMK keeps only the provider's token, the brand and the last 4 digits.</p>
            </div>
          </div>
        </Card>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Saved cards">
          {data.cards.map((c) => (
            <li key={c.id}>
              <Card>
                <div className="flex items-center justify-between gap-3">
                  <div>
                    <p className="text-base font-semibold text-ink">
                      {c.brand} •••• {c.last4}
                    </p>
                    <p className="text-sm text-muted">
                      Expires {String(c.expiryMonth).padStart(2, '0')}/{c.expiryYear}
                    </p>
                  </div>
                  {c.isDefault ? <Pill tone="good">Default</Pill> : null}
                </div>
                <div className="mt-3 flex gap-2">
                  {c.isDefault ? null : (
                    <Button variant="secondary" onClick={() => makeDefault.mutate(c.id)}>
                      Make default
                    </Button>
                  )}
                  <Button variant="ghost" aria-label={`Remove ${c.brand} ending ${c.last4}`} onClick={() => remove.mutate(c.id)}>
                    Remove
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <Card>
          <FormError boxed>{error}</FormError>
          <CardForm
            provider={data.provider}
            submitLabel="Save card"
            busy={add.isPending}
            onToken={(t) =>
              add.mutate(t, {
                onSuccess: () => setAdding(false),
                onError: (e) => setError(paymentErrorText(e, 'Payment failed')),
              })
            }
          />
        </Card>
      ) : (
        <Button variant="secondary" block onClick={() => setAdding(true)}>
          Add a card
        </Button>
      )}
    </Section>
  );
}

/** A line's state: paid or failed; a refund given back, on its way (the provider settles it) or failed. */
function PaymentPill({ kind, status }: Pick<BillingSummary['payments'][number], 'kind' | 'status'>) {
  if (kind === 'refund') {
    if (status === 'failed') return <Pill tone="alert">Refund failed</Pill>;
    return status === 'pending' ? <Pill tone="warn">Refund on its way</Pill> : <Pill tone="good">Refunded</Pill>;
  }
  return status === 'failed' ? <Pill tone="alert">Failed</Pill> : <Pill tone="good">Paid</Pill>;
}

function History({ data }: { data: BillingSummary }) {
  const st = data.stats;
  return (
    <>
      <Section title="Payment stats">
        <Card>
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <dt className="text-muted">Total spent</dt>
            <dd className="text-right font-semibold text-ink">{formatPrice(st.totalSpent)}</dd>
            <dt className="text-muted">Subscriptions</dt>
            <dd className="text-right font-semibold text-ink">{st.subscriptionsCount}</dd>
            <dt className="text-muted">Active subscriptions</dt>
            <dd className="text-right font-semibold text-ink">{st.activeSubscriptions}</dd>
            <dt className="text-muted">Next payment</dt>
            <dd className="text-right font-semibold text-ink">
              {st.nextBillingAmount !== null ? `${formatPrice(st.nextBillingAmount)} on ${day(st.nextBillingDate)}` : 'None'}
            </dd>
          </dl>
        </Card>
      </Section>
      <Section title="Payment history" className="pb-10">
        {data.payments.length === 0 ? (
          <Card>
            <p className="text-base text-ink">No payments yet.</p>
          </Card>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Payments">
            {data.payments.map((p) => (
              <li key={p.id}>
                <Card>
                  <div className="flex items-center justify-between gap-3">
                    <div>
                      <p className="text-base font-semibold text-ink">
                        {p.kind === 'refund' ? `Refund${p.note ? `: ${p.note}` : ''}` : (p.note ?? 'Payment')}
                      </p>
                      <p className="text-sm text-muted">{day(p.createdAt)}</p>
                    </div>
                    <div className="text-right">
                      <p className="font-semibold text-ink">
                        {p.kind === 'refund' ? `−${formatPrice(p.amount)}` : formatPrice(p.amount)}
                      </p>
                      <PaymentPill kind={p.kind} status={p.status} />
                    </div>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

/**
 * /settings/payment: checkout for a chosen plan (?plan=) or an extra boost (?extra=boost), the current plan and its renewal or
 * cancellation, saved cards, the spec's payment stats and the payment history.
 */
export function PaymentScreen() {
  const [params] = useSearchParams();
  const q = useBillingQuery();
  const planId = params.get('plan');
  return (
    <Page title="Payment" back="/settings">
      {q.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading your payments" />
        </div>
      ) : q.isError ? (
        <LoadError title="Could not load your payments" onRetry={() => q.refetch()} retrying={q.isFetching} />
      ) : (
        <>
          {planId && !q.data.subscription ? <Checkout data={q.data} planId={planId} /> : null}
          {params.get('extra') === 'boost' ? <BoostCheckout data={q.data} /> : null}
          <CurrentPlan data={q.data} />
          <Cards data={q.data} />
          <History data={q.data} />
        </>
      )}
    </Page>
  );
}
