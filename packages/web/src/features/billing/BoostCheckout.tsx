import { type BillingSummary, BOOST_PRICE_CENTS, formatPrice } from '@fmk/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Card, Section } from '../../ui/Section.tsx';
import { CardForm } from './CardForm.tsx';
import { newIdempotencyKey, paymentErrorText, useBuyBoostMutation } from './queries.ts';

/**
 * /settings/payment?extra=boost: one extra boost for Platinum, a one-time payment with a saved
 * card or a new one (the sandbox's card form unless Square is configured). Back to the Boost block
 * once paid, where the bought boost is counted.
 */
export function BoostCheckout({ data }: { data: BillingSummary }) {
  const buy = useBuyBoostMutation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  // One key per purchase: a double tap or a retry after a lost answer charges once.
  const [key, setKey] = useState(newIdempotencyKey);
  const def = data.cards.find((c) => c.isDefault);
  const price = formatPrice(BOOST_PRICE_CENTS);
  const pay = (sourceId?: string) => {
    setError(null);
    buy.mutate(
      { key, ...(sourceId ? { sourceId } : {}) },
      {
        onSuccess: () => navigate('/settings/premium#boost', { replace: true }),
        onError: (e) => {
          setError(paymentErrorText(e, 'Payment failed'));
          setKey(newIdempotencyKey());
        },
      },
    );
  };
  return (
    <Section title="Checkout: an extra boost">
      <Card>
        <p className="text-base text-ink">
          <span className="font-semibold">One boost</span>, {price} once (USD): 30 minutes first in the grids of the men near you,
          whenever you start it. Nothing renews.
        </p>
      </Card>
      <FormError boxed>{error}</FormError>
      {def ? (
        <Button block loading={buy.isPending} onClick={() => pay()}>
          Pay {price} with {def.brand} •••• {def.last4}
        </Button>
      ) : null}
      <Card>
        <h3 className="mb-3 text-base font-semibold text-ink">{def ? 'Or pay with a new card' : 'Pay with a card'}</h3>
        <CardForm provider={data.provider} submitLabel={`Pay ${price}`} busy={buy.isPending} onToken={pay} />
      </Card>
    </Section>
  );
}
