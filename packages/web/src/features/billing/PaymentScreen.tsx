import { effectiveTier, TIER_NAMES } from '@fmk/core';
import { Link } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';
import { CardIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Section } from '../../ui/Section.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { currentPlanText } from './PremiumScreen.tsx';

/**
 * /settings/payment, read-only until billing: the honest state of the account today. No card can
 * be saved and no plan bought in the app yet, so there are no cards, no subscription and no
 * payments to list.
 */
export function PaymentScreen() {
  const { user } = useAuth();
  if (!user) return null;
  const tier = effectiveTier(user);
  return (
    <Page title="Payment" back="/settings">
      <Section title="Current plan">
        <Card>
          <p className="text-base font-semibold text-ink">{TIER_NAMES[tier]}</p>
          <p className="text-sm text-muted">{currentPlanText(user)}</p>
          <p className="mt-2 text-sm text-muted">No subscription, so nothing renews and nothing is charged.</p>
        </Card>
        <Link to="/settings/premium" className={buttonClass('secondary', true)}>
          Compare plans
        </Link>
      </Section>
      <Section title="Saved cards">
        <Card>
          <div className="flex items-center gap-3">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-canvas text-muted">
              <CardIcon />
            </span>
            <div>
              <p className="text-base font-semibold text-ink">No saved cards</p>
              <p className="text-sm text-muted">FMK holds no card details of yours.</p>
            </div>
          </div>
        </Card>
      </Section>
      <Section title="Payment history" className="pb-10">
        <Card>
          <p className="text-base text-ink">No payments yet.</p>
        </Card>
      </Section>
    </Page>
  );
}
