import type { ReactNode } from 'react';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LockIcon } from '../../ui/icons.tsx';
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
