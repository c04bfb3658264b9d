import { EmptyState } from '../../ui/EmptyState.tsx';
import { HeartPulseIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function HealthScreen() {
  return (
    <Page title="Health">
      <EmptyState
        icon={<HeartPulseIcon />}
        title="Nothing tracked yet"
        body="Your medications, reminders and STI screenings will be listed here. Only you can see them."
      />
    </Page>
  );
}
