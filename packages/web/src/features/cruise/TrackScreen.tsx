import { EmptyState } from '../../ui/EmptyState.tsx';
import { MapPinIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function TrackScreen() {
  return (
    <Page title="Track" back="/cruise">
      <EmptyState
        icon={<MapPinIcon />}
        title="No sessions tracked"
        body="Your cruise sessions and their minutes will be listed here after your first session."
      />
    </Page>
  );
}
