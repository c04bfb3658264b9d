import { EmptyState } from '../../ui/EmptyState.tsx';
import { CalendarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function ActivityScreen() {
  return (
    <Page title="Activity">
      <EmptyState
        icon={<CalendarIcon />}
        title="No activity logged"
        body="Your private log of encounters, contacts and stats will show up here. Only you can see it."
      />
    </Page>
  );
}
