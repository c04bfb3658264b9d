import { effectiveTier, formatPrice, type Me, PLANS, TIER_NAMES, type Tier } from '@fmk/core';
import { CheckIcon, StarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { TierTable } from './TierTable.tsx';

/** What the user has, in a sentence: the server's tier, and why when it is a beta gift. */
export function currentPlanText(user: Me): string {
  const tier = effectiveTier(user);
  if (user.hasLifetimePremium && tier === 'premium') return 'You have Premium for life, a thank-you for joining the beta.';
  if (tier === 'free') return 'You are on Free. Everything in the Free column below is yours, at no cost.';
  return `You have ${TIER_NAMES[tier]}. Everything in the ${TIER_NAMES[tier]} column below is yours.`;
}

function PlanCard({ plan, current }: { plan: (typeof PLANS)[number]; current: Tier }) {
  const mine = plan.tier === current;
  const id = `plan-${plan.id}`;
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
      </section>
    </Card>
  );
}

/**
 * /settings/premium: the plans read-only (spec sections 6, 9) until billing sells them. It says
 * plainly what the user has, what each plan includes and costs, and that nothing is sold here yet.
 */
export function PremiumScreen() {
  const { user } = useAuth();
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
          Plans are not on sale in the app yet, so nothing can be charged to you. When they are, you will choose one here and see
          the price before you confirm.
        </p>
      </div>
      <Section title="The plans">
        {PLANS.map((p) => (
          <PlanCard key={p.id} plan={p} current={tier} />
        ))}
      </Section>
      <Section title="Compare every plan" className="pb-10">
        <TierTable current={tier} />
      </Section>
    </Page>
  );
}
