import {
  effectiveTier,
  formatPrice,
  type Me,
  type Plan,
  planFromRecord,
  type Subscription,
  TIER_NAMES,
  type Tier,
} from '@fmk/core';
import { useState } from 'react';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { CheckIcon, StarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { BoostPanel } from '../boost/BoostPanel.tsx';
import { paymentErrorText, useBillingQuery, useChangePlanMutation, usePlansQuery } from './queries.ts';
import { TierTable } from './TierTable.tsx';

/** What the user has, in a sentence: the server's tier, and why when it is a beta gift. */
export function currentPlanText(user: Me): string {
  const tier = effectiveTier(user);
  if (user.hasLifetimePremium && tier === 'premium') return 'You have Premium for life, a thank-you for joining the beta.';
  if (tier === 'free') return 'You are on Free. Everything in the Free column below is yours, at no cost.';
  return `You have ${TIER_NAMES[tier]}. Everything in the ${TIER_NAMES[tier]} column below is yours.`;
}

/**
 * What a plan card offers: checkout when there is no subscription, a plan change when there is one
 * (an upgrade charges the rest of the period at the difference; a downgrade applies at once and
 * bills the lower price from the next renewal), nothing on the plan he has.
 */
function PlanAction({ plan, sub, current }: { plan: Plan; sub: Subscription | null | undefined; current: Tier }) {
  const change = useChangePlanMutation();
  const [error, setError] = useState<string | null>(null);
  if (sub === undefined) return null;
  if (sub && sub.status !== 'canceled') {
    if (sub.planId === plan.id) return null;
    const up = plan.priceCents > sub.amount;
    return (
      <div className="flex flex-col gap-2">
        <FormError boxed>{error}</FormError>
        <Button
          block
          variant={up ? 'primary' : 'secondary'}
          loading={change.isPending}
          onClick={() =>
            change.mutate({ id: sub.id, planId: plan.id }, { onError: (e) => setError(paymentErrorText(e, 'Update failed')) })
          }
        >
          Switch to {plan.name}
        </Button>
        <p className="text-sm text-muted">
          {up
            ? 'You pay the difference for the rest of this period now.'
            : 'Takes effect now; the lower price applies from your next renewal. No refund for this period.'}
        </p>
      </div>
    );
  }
  // A beta member's lifetime Premium needs no Premium plan.
  if (plan.tier === current) return null;
  return (
    <ButtonLink to={`/settings/payment?plan=${plan.id}`} block>
      Choose {plan.name}
    </ButtonLink>
  );
}

function PlanCard({ plan, current, sub }: { plan: Plan; current: Tier; sub: Subscription | null | undefined }) {
  const mine = plan.tier === current;
  const id = `plan-${plan.id}`;
  // A price change reaches new subscriptions only: his stays what he subscribed at.
  const kept =
    sub && sub.status !== 'canceled' && !sub.comp && sub.planId === plan.id && sub.amount !== plan.priceCents ? sub.amount : null;
  return (
    <Card className={mine ? 'border-primary-strong' : ''}>
      <section aria-labelledby={id} className="flex flex-col gap-3">
        <div className="flex items-start justify-between gap-3">
          <div>
            <h3 id={id} className="text-lg font-bold text-ink">
              {plan.name}
            </h3>
            <p className="text-ink">
              <span className="text-2xl font-bold">{formatPrice(plan.priceCents)}</span>
              <span className="text-sm text-muted"> a month (USD)</span>
            </p>
            {kept !== null ? (
              <p className="text-sm text-ink">You keep {formatPrice(kept)} a month, the price you subscribed at.</p>
            ) : null}
          </div>
          {mine ? (
            <span className="shrink-0 whitespace-nowrap">
              <Pill tone="good">Your plan</Pill>
            </span>
          ) : null}
        </div>
        <ul className="flex flex-col gap-2" aria-label={`${plan.name} includes`}>
          {plan.features.map((f) => (
            <li key={f} className="flex items-center gap-2 text-base text-ink">
              <CheckIcon className="size-5 shrink-0 text-emerald-700" />
              {f}
            </li>
          ))}
        </ul>
        <PlanAction plan={plan} sub={sub} current={current} />
      </section>
    </Card>
  );
}

/** The plans on sale, with today's prices and features as staff set them (GET /plans). */
function PlanCards({ current, sub }: { current: Tier; sub: Subscription | null | undefined }) {
  const plans = usePlansQuery();
  if (plans.isPending)
    return (
      <div className="flex justify-center py-8">
        <Spinner label="Loading the plans" />
      </div>
    );
  if (plans.isError)
    return <LoadError title="Could not load the plans" onRetry={() => plans.refetch()} retrying={plans.isFetching} />;
  if (plans.data.plans.length === 0)
    return (
      <Card>
        <p className="text-base text-ink">No plan is on sale right now. Your current plan, if you have one, carries on.</p>
      </Card>
    );
  return (
    <>
      {plans.data.plans.map((r) => {
        const p = planFromRecord(r);
        return <PlanCard key={p.id} plan={p} current={current} sub={sub} />;
      })}
    </>
  );
}

/**
 * /settings/premium: the plans side by side (spec sections 6, 9): what the user has, what each
 * plan includes and costs, and the way to checkout or to a plan change.
 */
export function PremiumScreen() {
  const { user } = useAuth();
  const billing = useBillingQuery();
  if (!user) return null;
  const tier = effectiveTier(user);
  return (
    <Page title="Premium" back="/settings">
      <div className="flex flex-col gap-2 px-4 pb-8">
        <Card tone={tier === 'free' ? 'plain' : 'good'}>
          <div className="flex items-center gap-3">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary-strong">
              <StarIcon />
            </span>
            <div>
              <p className="text-base font-semibold text-ink">Your plan: {TIER_NAMES[tier]}</p>
              <p className="text-sm text-muted">{currentPlanText(user)}</p>
            </div>
          </div>
        </Card>
        <p className="px-1 text-sm text-muted">
          Monthly plans in US dollars, renewed every 30 days until you cancel. You see the price before you pay.
        </p>
      </div>
      <BoostPanel />
      <Section title="The plans">
        <PlanCards current={tier} sub={billing.data ? billing.data.subscription : undefined} />
      </Section>
      <Section title="Compare every plan" className="pb-10">
        <TierTable current={tier} />
      </Section>
    </Page>
  );
}
