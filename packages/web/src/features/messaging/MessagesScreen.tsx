import { type Conversation, DISPLAY_DEFAULTS, type Match, timeLabel } from '@fmk/core';
import { useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { waitingForNetwork } from '../../shared/online.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { ChatIcon, FlameIcon, HeartIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { VerifiedBadge } from '../../ui/VerifiedBadge.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useLikesQuery, useMatchesQuery } from '../game/queries.ts';
import { preview, useConversationsQuery, useDeleteConversationMutation } from './queries.ts';
import { messagingStore } from './store.ts';

export function MessagesScreen() {
  const matches = useMatchesQuery();
  const conversations = useConversationsQuery();
  const list = matches.data ?? [];
  const chats = conversations.data ?? [];
  // A match with a conversation that has messages is listed below, not among the new ones.
  const talking = new Set(chats.filter((c) => c.lastMessage).map((c) => c.other.uid));
  const fresh = list.filter((m) => !talking.has(m.other.uid));
  const shown = chats.filter((c) => c.lastMessage);
  return (
    <Page title="Messages" actions={<LikesHeaderLink />}>
      {fresh.length ? <NewMatches matches={fresh} /> : null}
      {waitingForNetwork(conversations) ? (
        <OfflineState body="Your conversations load when you're back online." />
      ) : conversations.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner />
        </div>
      ) : conversations.isError ? (
        <LoadError title="We couldn't load your messages" onRetry={() => conversations.refetch()} />
      ) : shown.length ? (
        <ConversationList conversations={shown} />
      ) : (
        <EmptyState
          icon={<ChatIcon />}
          title="No conversations yet"
          body={
            list.length
              ? 'Say hi to one of your matches to start a conversation.'
              : 'When you and someone pick each other, your match and your chat will appear here.'
          }
        />
      )}
    </Page>
  );
}

function useTypingIds(): ReadonlySet<string> {
  const subscribe = messagingStore.subscribe;
  const snapshot = useRef<{ key: string; set: Set<string> }>({ key: '', set: new Set() });
  return useSyncExternalStore(subscribe, () => {
    const ids = messagingStore.typingIds();
    const key = ids.join(',');
    if (key !== snapshot.current.key) snapshot.current = { key, set: new Set(ids) };
    return snapshot.current.set;
  });
}

function ConversationList({ conversations }: { conversations: Conversation[] }) {
  const { user } = useAuth();
  const typing = useTypingIds();
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const del = useDeleteConversationMutation();
  const toast = useToast();
  const now = Date.now();
  const sorted = [...conversations].sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
  return (
    <section aria-labelledby="chats-heading" className="pt-3">
      <h2 id="chats-heading" className="px-4 pb-1 text-base font-bold text-ink">
        Chats
      </h2>
      <ul aria-label="Conversations">
        {sorted.map((c) => {
          const name = c.other.displayName?.trim() || DISPLAY_DEFAULTS.name;
          const last = c.lastMessage;
          const isTyping = typing.has(c.id);
          const unread = c.unreadCount;
          const text = isTyping ? 'typing…' : last ? `${last.senderId === user?.uid ? 'You: ' : ''}${preview(last)}` : 'Say hi';
          const label = [
            name,
            c.other.verified ? 'verified' : null,
            c.other.isOnline ? 'online' : null,
            unread ? `${unread} unread` : null,
          ]
            .filter(Boolean)
            .join(', ');
          return (
            <li key={c.id} className="flex items-center pr-2 hover:bg-canvas">
              <Link
                to={`/messages/${encodeURIComponent(c.id)}`}
                aria-label={label}
                className="flex min-w-0 flex-1 items-center gap-3 py-3 pl-4"
              >
                <span className="relative shrink-0">
                  <Avatar person={c.other} name={name} size={56} loading="lazy" />
                  {c.other.isOnline ? (
                    <span className="absolute right-0.5 bottom-0.5 size-3.5 rounded-full bg-emerald-500 ring-2 ring-white" />
                  ) : null}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline justify-between gap-2">
                    <span className="flex min-w-0 items-center gap-1">
                      <span className={`truncate text-base text-ink ${unread ? 'font-bold' : 'font-semibold'}`}>{name}</span>
                      {c.other.verified ? <VerifiedBadge size={16} /> : null}
                    </span>
                    <span className="shrink-0 text-xs text-muted">
                      {timeLabel(new Date(last?.timestamp ?? c.lastActivity).getTime(), now)}
                    </span>
                  </span>
                  <span className="flex items-center justify-between gap-2">
                    <span
                      className={`truncate text-sm ${isTyping ? 'font-semibold text-primary-strong' : unread ? 'font-semibold text-ink' : 'text-muted'}`}
                    >
                      {text}
                    </span>
                    {unread ? (
                      <span
                        data-testid="unread-badge"
                        className="min-w-5 shrink-0 rounded-full bg-primary-strong px-1.5 text-center text-xs leading-5 font-bold text-white"
                      >
                        {unread > 99 ? '99+' : unread}
                      </span>
                    ) : null}
                  </span>
                </span>
              </Link>
              <button
                type="button"
                aria-label={`Options for the chat with ${name}`}
                onClick={() => setDeleting(c)}
                className="ml-1 rounded-full p-2 text-muted hover:bg-white"
              >
                <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                  <circle cx="12" cy="5" r="2" />
                  <circle cx="12" cy="12" r="2" />
                  <circle cx="12" cy="19" r="2" />
                </svg>
              </button>
            </li>
          );
        })}
      </ul>
      <Sheet
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete the chat with ${deleting?.other.displayName?.trim() || DISPLAY_DEFAULTS.name}?`}
      >
        <div className="flex flex-col gap-4 pb-2">
          <p className="text-base text-ink">It is deleted for you only. He keeps his copy.</p>
          <Button
            variant="danger"
            block
            loading={del.isPending}
            onClick={() => {
              const c = deleting;
              if (!c) return;
              del.mutate(c.id, {
                onSuccess: () => setDeleting(null),
                onError: (e) => toast.error("Couldn't delete the chat", errorMessage(e, 'Try again.')),
              });
            }}
          >
            Delete
          </Button>
          <Button variant="secondary" block onClick={() => setDeleting(null)}>
            Cancel
          </Button>
        </div>
      </Sheet>
    </section>
  );
}

function LikesHeaderLink() {
  const likes = useLikesQuery();
  const count = likes.data?.count ?? 0;
  return (
    <Link
      to="/likes"
      className="inline-flex min-h-10 items-center gap-1.5 rounded-full border border-line bg-white px-3.5 text-sm font-semibold text-ink hover:bg-canvas"
    >
      <HeartIcon width={18} height={18} className="text-primary-strong" />
      Likes you
      {count ? (
        <span className="rounded-full bg-primary-strong px-1.5 text-xs font-bold text-white">{count > 99 ? '99+' : count}</span>
      ) : null}
    </Link>
  );
}

const TYPE_LABEL: Record<Match['matchType'], string> = {
  'perfect-fuck': 'Perfect fuck',
  'perfect-marry': 'Perfect marry',
  mixed: 'Mixed',
};

/** Matches as a row of faces; a tap opens the chat with him. */
function NewMatches({ matches }: { matches: Match[] }) {
  return (
    <section aria-labelledby="new-matches" className="border-b border-line pb-4">
      <h2 id="new-matches" className="px-4 pb-2 text-base font-bold text-ink">
        New matches
      </h2>
      <ul className="flex gap-4 overflow-x-auto px-4 pt-1 pb-1">
        {matches.map((m) => {
          const name = m.other.displayName?.trim() || DISPLAY_DEFAULTS.name;
          return (
            <li key={m.id} className="shrink-0">
              <Link
                to={`/messages/chat/${encodeURIComponent(m.other.uid)}`}
                className="flex w-20 flex-col items-center gap-1.5"
                aria-label={`${name}${m.other.verified ? ', verified' : ''}: ${TYPE_LABEL[m.matchType]} match. Say hi`}
              >
                <span className="relative">
                  <Avatar person={m.other} name={name} size={72} loading="lazy" className="ring-2 ring-primary ring-offset-2" />
                  <span className="absolute -right-1 -bottom-1 flex size-7 items-center justify-center rounded-full bg-white text-primary-strong shadow ring-1 ring-line">
                    {m.matchType === 'perfect-marry' ? (
                      <HeartIcon width={15} height={15} fill="currentColor" />
                    ) : (
                      <FlameIcon width={15} height={15} />
                    )}
                  </span>
                </span>
                <span className="flex w-full items-center justify-center gap-0.5">
                  <span className="truncate text-sm font-semibold text-ink">{name}</span>
                  {m.other.verified ? <VerifiedBadge size={14} /> : null}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
