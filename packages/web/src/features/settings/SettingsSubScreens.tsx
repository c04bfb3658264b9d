import type { ReactNode } from 'react';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { BugIcon, CardIcon, HelpIcon, LockIcon, StarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { PushToggle } from '../notifications/PushToggle.tsx';

function Sub({ title, icon, heading, body }: { title: string; icon: ReactNode; heading: string; body: string }) {
  return (
    <Page title={title} back="/settings">
      <EmptyState icon={icon} title={heading} body={body} />
    </Page>
  );
}

export const NotificationSettingsScreen = () => (
  <Page title="Notifications" back="/settings">
    <PushToggle />
  </Page>
);
export const PrivacySettingsScreen = () => (
  <Sub
    title="Privacy"
    icon={<LockIcon />}
    heading="Your profile is private by default"
    body="Others never see your email or exact location. Visibility controls will be listed here."
  />
);
export const PremiumScreen = () => (
  <Sub
    title="Premium"
    icon={<StarIcon />}
    heading="Plans are not on sale yet"
    body="Premium ($9.99/month) and Platinum ($19.99/month) will be offered here. Nothing is charged today."
  />
);
export const PaymentScreen = () => (
  <Sub
    title="Payment"
    icon={<CardIcon />}
    heading="No payment methods"
    body="You have no saved cards and no subscriptions. Payment history will be listed here."
  />
);
export const BugsFeedbackScreen = () => (
  <Sub
    title="Bugs and feedback"
    icon={<BugIcon />}
    heading="No reports sent"
    body="Reports and suggestions you send to the team will be listed here."
  />
);
export const HelpScreen = () => (
  <Sub
    title="Help"
    icon={<HelpIcon />}
    heading="No help articles yet"
    body="FMK is for adults 18 and over. Answers to common questions about your account, safety and privacy will be listed here."
  />
);
