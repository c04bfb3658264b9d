import { EmptyState } from '../../ui/EmptyState.tsx';
import { ChatIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function MessagesScreen() {
  return (
    <Page title="Messages">
      <EmptyState
        icon={<ChatIcon />}
        title="No conversations yet"
        body="When you and someone pick each other, your match and your chat will appear here."
      />
    </Page>
  );
}
