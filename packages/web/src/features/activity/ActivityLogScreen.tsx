import { EmptyState } from '../../ui/EmptyState.tsx';
import { CalendarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function ActivityLogScreen() {
  return (
    <Page title="Log activity" back="/activity">
      <EmptyState icon={<CalendarIcon />} title="No entries yet" body="Logged encounters will be listed here, newest first." />
    </Page>
  );
}
