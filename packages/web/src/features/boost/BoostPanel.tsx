import { BoostMessages, boostCountdown, boostViewsText, effectiveTier, formatPrice } from '@fmk/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { FlameIcon } from '../../ui/icons.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { type BoostAnswer, useBoostLeft, useBoostQuery, useStartBoostMutation } from './queries.ts';

/** 'Boosted · 24:13 left' from the milliseconds left. */
export const boostedText = (leftMs: number): string => `Boosted · ${boostCountdown(new Date(leftMs), new Date(0))} left`;

/** What he may start with: the day's included boost, or his bought ones. */
function allowanceText(s: BoostAnswer): string {
  const included =
    s.includedLeftToday === -1
      ? 'Unlimited boosts included'
      : `${s.includedLeftToday} included boost${s.includedLeftToday === 1 ? '' : 's'} left today`;
  return s.credits > 0 ? `${included}, ${s.credits} extra bought` : included;
}

function Running({ s }: { s: BoostAnswer }) {
  const left = useBoostLeft(s);
  return (
    <Card tone="good">
      <div className="flex items-center gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary-strong">
          <FlameIcon />
        </span>
        <div>
          <p className="text-base font-semibold text-ink" role="timer" aria-live="off">
            {boostedText(left)}
          </p>
          <p className="text-sm text-muted">{boostViewsText(s.boost?.views ?? 0)}</p>
        </div>
      </div>
    </Card>
  );
}

function Ready({ s }: { s: BoostAnswer }) {
  const start = useStartBoostMutation();
  const [error, setError] = useState<string | null>(null);
  const canStart = s.includedLeftToday !== 0 || s.credits > 0;
  return (
    <>
      <Card>
        <p className="text-base text-ink">
          Be first in the grid of the men near you for {s.durationMinutes} minutes. Only men who would see you anyway see you
          first.
        </p>
        <p className="mt-1 text-sm text-muted">{allowanceText(s)}</p>
        {s.boost ? <p className="mt-1 text-sm text-muted">Your last boost: {boostViewsText(s.boost.views)}.</p> : null}
      </Card>
      <FormError boxed>{error}</FormError>
      {canStart ? (
        <Button
          block
          loading={start.isPending}
          onClick={() => {
            setError(null);
            start.mutate(undefined, {
              onError: (e) => setError(e instanceof ApiError ? e.message : 'Your boost did not start. Please try again.'),
            });
          }}
        >
          Boost now
        </Button>
      ) : (
        <p className="text-sm text-ink">{BoostMessages.noneLeft}</p>
      )}
      <ButtonLink to="/settings/payment?extra=boost" variant="secondary" block>
        Buy an extra boost ({formatPrice(s.priceCents)})
      </ButtonLink>
    </>
  );
}

/**
 * The Boost block of /settings/premium: for Platinum, start one (or the countdown and how many
 * men saw him while it runs) and a way to buy another; for the other plans, the upgrade text.
 */
export function BoostPanel() {
  const { user } = useAuth();
  const platinum = user ? effectiveTier(user) === 'platinum' : false;
  const q = useBoostQuery(platinum);
  return (
    <div id="boost">
      <Section title="Boost" action={platinum ? null : <Pill>Platinum</Pill>}>
        {!platinum ? (
          <Card>
            <p className="text-base text-ink">{BoostMessages.upsell}</p>
            <p className="mt-1 text-sm text-muted">Choose Platinum below: one 30-minute boost a day is included.</p>
          </Card>
        ) : q.isPending ? (
          <div className="flex justify-center py-4">
            <Spinner label="Loading your boost" />
          </div>
        ) : q.isError ? (
          <FormError boxed>Could not load your boost.</FormError>
        ) : !q.data.available ? (
          <Card>
            <p className="text-base text-ink">{q.data.upsell}</p>
          </Card>
        ) : q.data.boost?.active ? (
          <Running s={q.data} />
        ) : (
          <Ready s={q.data} />
        )}
      </Section>
    </div>
  );
}

/**
 * The grid's Boost button: for Platinum 'Boost', or the countdown while boosted (both lead to the
 * Boost block); for the other plans it asks for the upgrade prompt.
 */
export function BoostChip({ onUpsell }: { onUpsell: (message: string) => void }) {
  const { user } = useAuth();
  const platinum = user ? effectiveTier(user) === 'platinum' : false;
  const q = useBoostQuery(platinum);
  const left = useBoostLeft(q.data);
  const chip =
    'inline-flex min-h-10 items-center gap-1.5 rounded-full border border-line bg-white px-3 text-sm font-semibold text-ink hover:bg-canvas';
  if (!platinum)
    return (
      <button type="button" className={chip} onClick={() => onUpsell(BoostMessages.upsell)}>
        <FlameIcon width={18} height={18} className="text-primary-strong" />
        Boost
      </button>
    );
  return (
    // Running, the header has room for the countdown only; its name says the rest.
    <Link to="/settings/premium#boost" className={chip} aria-label={left > 0 ? boostedText(left) : 'Boost'}>
      <FlameIcon width={18} height={18} className="text-primary-strong" />
      {left > 0 ? boostCountdown(new Date(left), new Date(0)) : 'Boost'}
    </Link>
  );
}
