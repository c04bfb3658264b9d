import type { ReactNode } from 'react';
import { ButtonLink } from './Button.tsx';
import { EmptyState } from './EmptyState.tsx';
import { Page } from './Page.tsx';

/** The screen of a feature the user turned off (cruising, health, activity): it says so and leads to Settings. */
export function FeatureOffPage({ page, icon, title, body }: { page: string; icon: ReactNode; title: string; body: string }) {
  return (
    <Page title={page}>
      <EmptyState icon={icon} title={title} body={body} action={<ButtonLink to="/settings">Open Settings</ButtonLink>} />
    </Page>
  );
}
