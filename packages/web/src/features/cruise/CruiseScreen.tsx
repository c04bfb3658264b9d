import { EmptyState } from '../../ui/EmptyState.tsx';
import { CompassIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function CruiseScreen() {
  return (
    <Page title="Cruise">
      <EmptyState
        icon={<CompassIcon />}
        title="No one is cruising near you"
        body="Cruise sessions share that you are available for 30 minutes. Active spots and people will show up here."
      />
    </Page>
  );
}
