import {
  COULD_NOT_FIND_CONVERSATION,
  REPORT_MESSAGES_MAX,
  VERIFIED_CONTACTS_ONLY_TEXT,
  VERIFIED_MESSAGES_ONLY_TEXT,
} from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage, NetworkError } from '../../api/client.ts';
import { useOnline } from '../../shared/online.ts';
import { messagingKeys } from '../../shared/queryKeys.ts';
import { ButtonLink } from '../../ui/Button.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ChatHeader } from './ChatHeader.tsx';
import { Composer } from './Composer.tsx';
import { MessageList } from './MessageList.tsx';
import { loadMessages, openConversation, useConversationQuery } from './queries.ts';
import { type ChatView, messagingStore } from './store.ts';

export function ChatScreen() {
  const { userId, conversationId } = useParams();
  if (userId) return <OpenChat key={userId} userId={userId} />;
  return <Chat key={conversationId} id={conversationId ?? ''} />;
}

/** /messages/chat/:userId: open or create the conversation, then its own address. */
function OpenChat({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<ApiError | Error | null>(null);
  useEffect(() => {
    let live = true;
    openConversation(userId).then(
      (c) => {
        if (!live) return;
        queryClient.setQueryData(messagingKeys.conversation(c.id), c);
        navigate(`/messages/${encodeURIComponent(c.id)}`, { replace: true });
      },
      (e: Error) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [userId, navigate, queryClient]);
  if (!error)
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Opening the chat" />
      </div>
    );
  const forbidden = error instanceof ApiError && error.status === 403;
  // Platinum lifts only the tier's refusal; his settings' refusals say what would help instead.
  const upgrade = forbidden && error.code === 'limit_reached';
  const verify = forbidden && (error.message === VERIFIED_CONTACTS_ONLY_TEXT || error.message === VERIFIED_MESSAGES_ONLY_TEXT);
  if (error instanceof NetworkError)
    return (
      <OfflineState
        body="A new chat opens when you're back online."
        action={
          <ButtonLink to="/messages" variant="secondary">
            Back to messages
          </ButtonLink>
        }
      />
    );
  return (
    <ErrorState
      title={forbidden ? "You can't message him yet" : "We couldn't open this chat"}
      body={
        forbidden
          ? error.message
          : error instanceof ApiError && error.status === 404
            ? COULD_NOT_FIND_CONVERSATION
            : errorMessage(error, 'Check your connection and try again.')
      }
      actions={
        <>
          {upgrade ? <ButtonLink to="/settings/premium">See Platinum</ButtonLink> : null}
          {verify ? <ButtonLink to="/settings">Verify your phone</ButtonLink> : null}
          <ButtonLink to="/messages" variant="secondary">
            Back to messages
          </ButtonLink>
        </>
      }
    />
  );
}

/** His latest messages in the chat (at most REPORT_MESSAGES_MAX): what a report from here keeps as evidence. */
function evidenceOf(view: ChatView, otherId: string | undefined): string[] {
  if (!otherId) return [];
  return view.messages
    .filter((m) => m.senderId === otherId)
    .slice(-REPORT_MESSAGES_MAX)
    .map((m) => m.id);
}

function useChatView(id: string): ChatView {
  return useSyncExternalStore(
    messagingStore.subscribe,
    () => messagingStore.view(id),
    () => messagingStore.view(id),
  );
}

function Chat({ id }: { id: string }) {
  const conversation = useConversationQuery(id);
  const view = useChatView(id);
  const [loadError, setLoadError] = useState<unknown>(null);
  // Again when the network is back: a chat shown from the offline copy gets what it missed.
  const online = useOnline();
  useEffect(() => {
    if (online) loadMessages(id).catch(setLoadError);
  }, [id, online]);

  const notFound =
    (conversation.error instanceof ApiError && conversation.error.status === 404) ||
    (loadError instanceof ApiError && loadError.status === 404);
  if (notFound || (conversation.isError && !conversation.data))
    return (
      <ErrorState
        title="Chat not found"
        body={notFound ? COULD_NOT_FIND_CONVERSATION : errorMessage(conversation.error, 'Check your connection and try again.')}
        actions={
          <ButtonLink to="/messages" variant="secondary">
            Back to messages
          </ButtonLink>
        }
      />
    );
  return (
    <div className="fixed inset-x-0 top-(--fmk-offline-inset) z-[45] mx-auto flex h-[calc(100dvh_-_var(--fmk-offline-inset))] w-full max-w-md flex-col bg-white">
      <ChatHeader
        conversation={conversation.data}
        typing={view.typing}
        evidence={evidenceOf(view, conversation.data?.other.uid)}
      />
      <MessageList id={id} view={view} conversation={conversation.data} />
      <Composer id={id} />
    </div>
  );
}
