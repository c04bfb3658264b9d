import { useParams } from 'react-router';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { UserIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function ProfileScreen() {
  const { userId } = useParams();
  return (
    <Page title="Profile" back="/grid">
      <EmptyState
        icon={<UserIcon />}
        title="Profile not available"
        body={`We couldn't show profile ${userId ?? ''} here yet. Profiles open from the grid once people are nearby.`}
      />
    </Page>
  );
}
