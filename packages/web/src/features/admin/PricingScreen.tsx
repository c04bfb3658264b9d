import { formatPrice, type PlanPatch, type PlanRecord } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Card } from '../../ui/Section.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { QueryState, ScreenTitle, when } from './parts.tsx';
import { mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

const plansKey = ['admin', 'plans'] as const;

/**
 * subscriptions/pricing: the plans on sale (price, features, on sale or not). Staff with
 * subscriptions.view read them; subscriptions.configure edits. A change applies to new
 * subscriptions only: a member keeps the price he subscribed at.
 */
export function PricingScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(plansKey, () => staffCall('GET /admin/plans'));
  const editable = mayUse(me, 'subscriptions.configure');
  return (
    <>
      <ScreenTitle>Pricing</ScreenTitle>
      <p className="mb-4 text-sm text-muted">
        A change applies to new subscriptions only. Members already subscribed keep the price they signed up at until they cancel
        or change plan.
      </p>
      <QueryState q={q} what="the plans" isEmpty={(d) => d.plans.length === 0} empty={{ title: 'No plans yet' }}>
        {(d) => (
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Plans">
            {d.plans.map((p) => (
              <li key={`${p.id}-${p.updatedAt}`}>
                <PlanCard plan={p} editable={editable} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}

/** A plan's status, in the words of the switch that sets it. */
const ON_SALE = 'On sale to new members';

function PlanCard({ plan, editable }: { plan: PlanRecord; editable: boolean }) {
  const [price, setPrice] = useState((plan.priceCents / 100).toFixed(2));
  const [features, setFeatures] = useState(plan.features.join('\n'));
  const [active, setActive] = useState(plan.active);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useStaffMutation((patch: PlanPatch) =>
    staffCall('PATCH /admin/plans/:id', { params: { id: plan.id }, body: patch }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    const cents = Math.round(Number(price) * 100);
    if (!Number.isFinite(cents) || cents <= 0) return setError('Enter the price in dollars, for example 9.99.');
    const lines = features
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const patch: PlanPatch = {
      ...(cents !== plan.priceCents ? { priceCents: cents } : {}),
      ...(lines.join('\n') !== plan.features.join('\n') ? { features: lines } : {}),
      ...(active !== plan.active ? { active } : {}),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    };
    if (patch.priceCents === undefined && patch.features === undefined && patch.active === undefined)
      return setError('Nothing changed.');
    save.mutate(patch, {
      onSuccess: () => setSaved(true),
      onError: (err) => setError(errorMessage(err, 'The change was not saved.')),
    });
  };
  return (
    <Card>
      <article aria-label={`${plan.name} plan`} className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-lg font-semibold text-ink">{plan.name}</h2>
          <p className="text-base text-ink">
            <span className="font-semibold">{formatPrice(plan.priceCents)}</span> a month ({plan.currency})
          </p>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-muted">
          <dt>Plan</dt>
          <dd className="text-ink">{plan.id}</dd>
          <dt>Tier</dt>
          <dd className="text-ink">{plan.tier}</dd>
          <dt>Status</dt>
          <dd className="text-ink">{plan.active ? ON_SALE : `Not ${ON_SALE.toLowerCase()}`}</dd>
          <dt>Last changed</dt>
          <dd className="text-ink">{when(plan.updatedAt)}</dd>
        </dl>
        {editable ? (
          <form onSubmit={submit} className="flex flex-col gap-3" aria-label={`Edit ${plan.name}`}>
            <TextField label="Price a month (USD)" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
            <label className="flex flex-col gap-1 text-sm font-medium text-ink">
              Features, one a line
              <textarea
                className="min-h-32 rounded-xl border border-line px-3 py-2 text-base font-normal"
                value={features}
                onChange={(e) => setFeatures(e.target.value)}
              />
            </label>
            <label className="flex items-center gap-2 text-sm text-ink">
              <input
                type="checkbox"
                className="size-5 accent-[#FF4458]"
                checked={active}
                onChange={(e) => setActive(e.target.checked)}
              />
              {ON_SALE}
            </label>
            <TextField label="Reason (kept in the audit log)" value={reason} onChange={(e) => setReason(e.target.value)} />
            <FormError boxed>{error}</FormError>
            {saved ? (
              <p role="status" className="text-sm text-ink">
                Saved. New subscriptions get this plan from now on.
              </p>
            ) : null}
            <Button type="submit" loading={save.isPending}>
              Save {plan.name}
            </Button>
          </form>
        ) : (
          <ul className="list-disc pl-5 text-sm text-ink" aria-label={`${plan.name} features`}>
            {plan.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        )}
      </article>
    </Card>
  );
}
