import { EmptyState } from '../../ui/EmptyState.tsx';
import { GridIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function GridScreen() {
  return (
    <Page title="Nearby">
      <EmptyState
        icon={<GridIcon />}
        title="No one nearby yet"
        body="Profiles of men near you will show up here as they join. Check back soon."
      />
    </Page>
  );
}
