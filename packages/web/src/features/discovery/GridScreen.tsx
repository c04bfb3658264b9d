import { ButtonLink } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { GridIcon, UserIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

export function GridScreen() {
  const { user } = useAuth();
  return (
    <Page title="Nearby">
      <EmptyState
        icon={<GridIcon />}
        title="No one nearby yet"
        body="Profiles of men near you will show up here as they join. Check back soon."
        action={
          user ? (
            <ButtonLink to={`/profile/${user.uid}`} variant="secondary">
              <UserIcon width={20} height={20} /> View my profile
            </ButtonLink>
          ) : null
        }
      />
    </Page>
  );
}
