import { EmptyState } from '../../ui/EmptyState.tsx';
import { ChatIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';

export function ChatScreen() {
  return (
    <Page title="Chat" back="/messages">
      <EmptyState
        icon={<ChatIcon />}
        title="No messages here"
        body="This conversation has no messages. Chats open once you match with someone."
      />
    </Page>
  );
}
