import type { Conversation, Message } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useOnline } from '../../shared/online.ts';
import { messagingKeys } from '../../shared/queryKeys.ts';
import { PhoneIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { otherName } from './ChatHeader.tsx';
import { ChatPhoto } from './ChatPhoto.tsx';
import { MessageText } from './MessageText.tsx';
import { loadMessages, markRead } from './queries.ts';
import type { ChatView, Pending } from './store.ts';

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

export function MessageList({ id, view, conversation }: { id: string; view: ChatView; conversation: Conversation | undefined }) {
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
              {r.kind === 'message' && r.m.type === 'call' ? (
                <CallLine content={r.m.content} time={ts} />
              ) : r.kind === 'message' ? (
                <Bubble
                  mine={r.m.senderId === me}
                  type={r.m.type}
                  content={r.m.content}
                  photoUrl={r.m.metadata.photo?.url}
                  photoWithheld={r.m.metadata.photo?.withheld === true}
                  messageId={r.m.id}
                  sensitive={r.m.metadata.photo?.sensitive === true}
                  nudity={r.m.metadata.photo?.nudity}
                  linkBlocked={r.m.linkBlocked === true}
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

/** A call's line: centred, like the day separators, not a bubble of either man. */
function CallLine({ content, time }: { content: string; time: string }) {
  const missed = /^(Missed|Declined)/.test(content);
  return (
    <p
      data-testid="call-line"
      className={`my-2 inline-flex items-center gap-2 self-center rounded-full px-4 py-1.5 text-sm font-semibold ${missed ? 'bg-primary-soft text-primary-strong' : 'bg-canvas text-ink'}`}
    >
      <PhoneIcon width={16} height={16} />
      {content}
      <span className="font-normal text-muted">{timeFormat.format(new Date(time))}</span>
    </p>
  );
}

const STATUS_TEXT: Record<Message['status'], string> = { sent: 'Sent', delivered: 'Delivered', read: 'Read' };

function Bubble({
  mine,
  type,
  content,
  photoUrl,
  photoWithheld = false,
  messageId,
  sensitive = false,
  nudity,
  linkBlocked = false,
  time,
  status,
  pending = false,
}: {
  mine: boolean;
  type: Message['type'];
  content: string;
  photoUrl: string | null | undefined;
  /** His content filtering kept the URL back: the photo is fetched when he chooses to see it. */
  photoWithheld?: boolean;
  messageId?: string;
  sensitive?: boolean;
  nudity?: number | undefined;
  linkBlocked?: boolean;
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
          photoUrl || (photoWithheld && messageId) ? (
            <ChatPhoto url={photoUrl ?? null} messageId={messageId} mine={mine} sensitive={sensitive} nudity={nudity} />
          ) : (
            <span className="block px-3 py-2">📷 Photo</span>
          )
        ) : (
          <MessageText content={content} mine={mine} linkBlocked={linkBlocked} />
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
