import { COULD_NOT_FIND_CONVERSATION, type Conversation, DISPLAY_DEFAULTS, type Message } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  type FormEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage, NetworkError } from '../../api/client.ts';
import { useOnline } from '../../shared/online.ts';
import { messagingKeys } from '../../shared/queryKeys.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { ButtonLink } from '../../ui/Button.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { ArrowUpIcon, CameraIcon, ChevronLeftIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { newClientId } from '../game/queries.ts';
import { BlockSheet } from '../safety/BlockSheet.tsx';
import { loadMessages, markRead, openConversation, sendTyping, uploadMessagePhoto, useConversationQuery } from './queries.ts';
import { type ChatView, messagingStore, type Pending } from './store.ts';

/** At most one typing signal this often while typing (the other side holds it for 3 s). */
export const TYPING_THROTTLE_MS = 2000;

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
          {forbidden ? <ButtonLink to="/settings/premium">See Platinum</ButtonLink> : null}
          <ButtonLink to="/messages" variant="secondary">
            Back to messages
          </ButtonLink>
        </>
      }
    />
  );
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
      <ChatHeader conversation={conversation.data} typing={view.typing} />
      <MessageList id={id} view={view} conversation={conversation.data} />
      <Composer id={id} />
    </div>
  );
}

function otherName(c: Conversation | undefined): string {
  return c?.other.displayName?.trim() || DISPLAY_DEFAULTS.name;
}

function ChatHeader({ conversation, typing }: { conversation: Conversation | undefined; typing: boolean }) {
  const [menu, setMenu] = useState(false);
  const [blocking, setBlocking] = useState(false);
  const name = otherName(conversation);
  const uid = conversation?.other.uid ?? '';
  const online = conversation?.other.isOnline === true;
  // Offline, whether he is there is not known (the offline copy keeps no presence).
  const reachable = useOnline();
  return (
    <header className="flex items-center gap-2 border-b border-line bg-white px-2 py-2 pt-[max(0.5rem,env(safe-area-inset-top))]">
      <Link to="/messages" aria-label="Back" className="rounded-full p-2 text-ink hover:bg-canvas">
        <ChevronLeftIcon />
      </Link>
      {conversation ? (
        <Link to={`/profile/${encodeURIComponent(uid)}`} className="flex min-w-0 flex-1 items-center gap-3">
          <span className="relative shrink-0">
            <Avatar person={conversation.other} name={name} size={40} />
            {online ? <span className="absolute right-0 bottom-0 size-3 rounded-full bg-emerald-500 ring-2 ring-white" /> : null}
          </span>
          <span className="min-w-0">
            <span className="block truncate text-lg font-bold text-ink" data-testid="chat-name">
              {name}
            </span>
            <span className="block text-sm text-muted" aria-live="polite">
              {typing ? (
                <span className="font-semibold text-primary-strong">typing…</span>
              ) : !reachable ? null : online ? (
                'Online'
              ) : (
                'Offline'
              )}
            </span>
          </span>
        </Link>
      ) : (
        <span className="flex-1" />
      )}
      <button
        type="button"
        aria-label="Chat options"
        onClick={() => setMenu(true)}
        className="rounded-full p-2 text-ink hover:bg-canvas"
        disabled={!conversation}
      >
        <svg width="24" height="24" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
          <circle cx="5" cy="12" r="2" />
          <circle cx="12" cy="12" r="2" />
          <circle cx="19" cy="12" r="2" />
        </svg>
      </button>
      <Sheet open={menu} onClose={() => setMenu(false)} title={name}>
        <div className="flex flex-col gap-2 pb-2">
          <Link
            to={`/profile/${encodeURIComponent(uid)}`}
            className="flex min-h-12 items-center rounded-xl px-3 text-base font-semibold text-ink hover:bg-canvas"
          >
            View profile
          </Link>
          <button
            type="button"
            onClick={() => {
              setMenu(false);
              setBlocking(true);
            }}
            className="flex min-h-12 items-center rounded-xl px-3 text-base font-semibold text-primary-strong hover:bg-primary-soft"
          >
            Block
          </button>
        </div>
      </Sheet>
      {conversation ? <BlockSheet open={blocking} onClose={() => setBlocking(false)} userId={uid} name={name} /> : null}
    </header>
  );
}

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

export function dayLabel(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const start = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((start(now) - start(d)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return dayFormat.format(d);
}

type Row = { kind: 'message'; m: Message } | { kind: 'pending'; p: Pending };

function MessageList({ id, view, conversation }: { id: string; view: ChatView; conversation: Conversation | undefined }) {
  const { user } = useAuth();
  const me = user?.uid ?? '';
  const scroller = useRef<HTMLDivElement>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const online = useOnline();
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const stick = useRef(true);
  const queryClient = useQueryClient();

  const rows: Row[] = [
    ...view.messages.map((m) => ({ kind: 'message' as const, m })),
    ...view.pending.map((p) => ({ kind: 'pending' as const, p })),
  ];
  const lastMine = [...view.messages].reverse().find((m) => m.senderId === me);
  const lastTheirs = [...view.messages].reverse().find((m) => m.senderId !== me);

  // Paging back keeps the view where it was; new messages at the bottom follow if we were there.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else if (stick.current) el.scrollTop = el.scrollHeight;
  });

  const older = useCallback(async () => {
    const first = view.messages[0];
    if (!first || !view.hasMore || loadingOlder) return;
    const el = scroller.current;
    if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    setLoadingOlder(true);
    try {
      await loadMessages(id, first.seq);
    } catch {
      anchor.current = null;
    } finally {
      setLoadingOlder(false);
    }
  }, [id, view.messages, view.hasMore, loadingOlder]);

  // Read when seen: the newest of his messages, while the tab is visible.
  const readUpTo = useRef(0);
  useEffect(() => {
    const top = lastTheirs?.seq ?? 0;
    const send = () => {
      if (top <= readUpTo.current || document.visibilityState === 'hidden') return;
      readUpTo.current = top;
      markRead(id, top).then(
        () => {
          queryClient.setQueryData<Conversation[]>(messagingKeys.conversations(), (old) =>
            old?.map((c) => (c.id === id ? { ...c, unreadCount: 0 } : c)),
          );
        },
        () => {
          readUpTo.current = 0;
        },
      );
    };
    send();
    document.addEventListener('visibilitychange', send);
    return () => document.removeEventListener('visibilitychange', send);
  }, [id, lastTheirs?.seq, queryClient]);

  let lastDay = '';
  return (
    <div
      ref={scroller}
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        if (el.scrollTop < 40) void older();
      }}
      className="flex-1 overflow-y-auto bg-white px-3 py-3"
    >
      {view.hasMore ? (
        <div className="flex justify-center pb-2">
          <button
            type="button"
            onClick={() => void older()}
            className="min-h-10 rounded-full px-4 text-sm font-semibold text-primary-strong hover:bg-primary-soft"
          >
            {loadingOlder ? 'Loading…' : 'Load earlier messages'}
          </button>
        </div>
      ) : null}
      {!view.loaded && !online ? (
        <OfflineState body="This chat wasn't saved on this phone. Its messages load when you're back online; what you send now goes then." />
      ) : !view.loaded ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading messages" />
        </div>
      ) : rows.length === 0 ? (
        <p className="px-6 py-16 text-center text-base text-muted">
          {conversation ? `Say hi to ${otherName(conversation)}. Your messages appear here.` : 'No messages yet.'}
        </p>
      ) : null}
      <ol aria-label="Messages" className="flex flex-col gap-1">
        {rows.map((r) => {
          const ts = r.kind === 'message' ? r.m.timestamp : r.p.timestamp;
          const day = dayLabel(ts);
          const sep = day !== lastDay;
          lastDay = day;
          const key = r.kind === 'message' ? r.m.id : r.p.clientId;
          return (
            <li key={key} className="flex flex-col">
              {sep ? (
                <span className="my-3 self-center rounded-full bg-canvas px-3 py-1 text-xs font-semibold text-muted">{day}</span>
              ) : null}
              {r.kind === 'message' ? (
                <Bubble
                  mine={r.m.senderId === me}
                  type={r.m.type}
                  content={r.m.content}
                  photoUrl={r.m.metadata.photo?.url}
                  time={ts}
                  status={r.m.id === lastMine?.id && view.pending.length === 0 ? STATUS_TEXT[r.m.status] : null}
                />
              ) : (
                <Bubble
                  mine
                  type={r.p.type}
                  content={r.p.content}
                  photoUrl={r.p.photo?.url}
                  time={ts}
                  status={r.p.state === 'waiting' ? 'Waiting for connection' : 'Sending…'}
                  pending
                />
              )}
            </li>
          );
        })}
      </ol>
      {view.typing ? (
        <p className="mt-2 ml-1 inline-flex items-center gap-1 rounded-2xl bg-canvas px-4 py-2 text-sm text-muted">typing…</p>
      ) : null}
    </div>
  );
}

const STATUS_TEXT: Record<Message['status'], string> = { sent: 'Sent', delivered: 'Delivered', read: 'Read' };

function Bubble({
  mine,
  type,
  content,
  photoUrl,
  time,
  status,
  pending = false,
}: {
  mine: boolean;
  type: Message['type'];
  content: string;
  photoUrl: string | undefined;
  time: string;
  status: string | null;
  pending?: boolean;
}) {
  return (
    <div className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`}>
      <div
        data-mine={mine || undefined}
        className={`max-w-[78%] rounded-3xl text-base leading-snug break-words whitespace-pre-wrap ${
          type === 'photo' ? 'overflow-hidden p-1' : 'px-4 py-2'
        } ${mine ? 'rounded-br-md bg-primary-strong text-white' : 'rounded-bl-md bg-[#EDEDF0] text-ink'} ${
          pending ? 'opacity-70' : ''
        }`}
      >
        {type === 'photo' ? (
          photoUrl ? (
            <img
              src={photoUrl}
              alt={mine ? 'Your sent picture' : 'Picture he sent'}
              width={240}
              height={240}
              loading="lazy"
              className="max-h-72 w-60 rounded-[1.25rem] object-cover"
            />
          ) : (
            <span className="block px-3 py-2">📷 Photo</span>
          )
        ) : (
          content
        )}
        <span className="sr-only"> {timeFormat.format(new Date(time))}</span>
      </div>
      {status ? (
        <span className="mt-0.5 mr-2 text-xs text-muted" data-testid="message-status">
          {status}
        </span>
      ) : null}
    </div>
  );
}

function Composer({ id }: { id: string }) {
  const { user } = useAuth();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const lastTyping = useRef(0);
  const file = useRef<HTMLInputElement>(null);
  const toast = useToast();
  const navigate = useNavigate();

  useEffect(() => {
    // A queued send the server later refuses (a limit reached): say why, with the way up.
    messagingStore.onRefused = (e) => {
      if (e.code === 'limit_reached')
        toast.show({
          type: 'upgrade',
          key: 'message-limit',
          title: 'Daily message limit reached',
          message: e.message,
          action: { label: 'See Premium', onClick: () => navigate('/settings/premium') },
        });
      else toast.error("Your message wasn't sent", e.message);
    };
    return () => {
      messagingStore.onRefused = null;
    };
  }, [toast, navigate]);

  const send = (body: { type: 'text' | 'photo'; content: string; photoId?: string; photo?: Pending['photo'] }) => {
    lastTyping.current = 0;
    void messagingStore.enqueue({
      clientId: newClientId(),
      conversationId: id,
      senderId: user?.uid ?? '',
      ...body,
    });
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const content = text.trim();
    if (!content) return;
    setText('');
    send({ type: 'text', content });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const onChange = (value: string) => {
    setText(value);
    const now = Date.now();
    if (value.trim() && now - lastTyping.current >= TYPING_THROTTLE_MS) {
      lastTyping.current = now;
      sendTyping(id, true).catch(() => undefined);
    }
  };

  const onPhoto = async (f: File | undefined) => {
    if (!f) return;
    setUploading(true);
    try {
      const photo = await uploadMessagePhoto(f);
      send({ type: 'photo', content: '', photoId: photo.id, photo });
    } catch (e) {
      toast.error("Your photo wasn't sent", errorMessage(e, 'Check your connection and try again.'));
    } finally {
      setUploading(false);
      if (file.current) file.current.value = '';
    }
  };

  return (
    <form
      onSubmit={submit}
      className="flex items-end gap-2 border-t border-line bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))]"
    >
      <input
        ref={file}
        type="file"
        accept="image/*"
        hidden
        aria-label="Photo to send"
        onChange={(e) => void onPhoto(e.target.files?.[0])}
      />
      <button
        type="button"
        aria-label="Attach a photo"
        disabled={uploading}
        onClick={() => file.current?.click()}
        className="flex size-11 shrink-0 items-center justify-center rounded-full text-muted hover:bg-canvas disabled:opacity-50"
      >
        {uploading ? <Spinner size={20} label="Uploading photo" /> : <CameraIcon />}
      </button>
      <textarea
        value={text}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        rows={1}
        maxLength={2000}
        placeholder="Message"
        aria-label="Message"
        className="max-h-32 min-h-11 flex-1 resize-none rounded-3xl border border-line bg-canvas px-4 py-2.5 text-base text-ink outline-none focus:border-primary-strong"
      />
      <button
        type="submit"
        aria-label="Send"
        disabled={!text.trim()}
        className="flex size-11 shrink-0 items-center justify-center rounded-full bg-primary-strong text-white disabled:bg-line disabled:text-muted"
      >
        <ArrowUpIcon />
      </button>
    </form>
  );
}
