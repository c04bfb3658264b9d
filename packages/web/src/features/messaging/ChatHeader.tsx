import { type Conversation, DISPLAY_DEFAULTS } from '@fmk/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useOnline } from '../../shared/online.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { ChevronLeftIcon, PhoneIcon, VideoIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { UpgradeSheet } from '../../ui/UpgradeSheet.tsx';
import { VerifiedBadge } from '../../ui/VerifiedBadge.tsx';
import { startCall } from '../calls/store.ts';
import { BlockSheet } from '../safety/BlockSheet.tsx';
import { ReportSheet } from '../safety/ReportSheet.tsx';

export function otherName(c: Conversation | undefined): string {
  return c?.other.displayName?.trim() || DISPLAY_DEFAULTS.name;
}

export function ChatHeader({
  conversation,
  typing,
  evidence = [],
}: {
  conversation: Conversation | undefined;
  typing: boolean;
  /** His latest messages in this chat: a report from here keeps them as evidence. */
  evidence?: string[];
}) {
  const [menu, setMenu] = useState(false);
  const [blocking, setBlocking] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [upsell, setUpsell] = useState<string | null>(null);
  const toast = useToast();
  const name = otherName(conversation);
  const uid = conversation?.other.uid ?? '';
  const online = conversation?.other.isOnline === true;
  // Offline, whether he is there is not known (the offline copy keeps no presence).
  const reachable = useOnline();
  // The server decides (tier, match, block, busy, hourly limit); a free caller gets the upgrade prompt.
  const dial = (kind: 'video' | 'voice') =>
    startCall(uid, kind).catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 'limit_reached') setUpsell(err.message);
      else toast.show({ type: 'error', title: 'Could not call', message: errorMessage(err, 'Try again in a moment.') });
    });
  const callButton = 'rounded-full p-2 text-primary-strong hover:bg-primary-soft disabled:opacity-40';
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
            <span className="flex items-center gap-1">
              <span className="block truncate text-lg font-bold text-ink" data-testid="chat-name">
                {name}
              </span>
              {conversation.other.verified ? <VerifiedBadge size={18} /> : null}
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
        aria-label={`Voice call ${name}`}
        onClick={() => void dial('voice')}
        className={callButton}
        disabled={!conversation || !reachable}
      >
        <PhoneIcon />
      </button>
      <button
        type="button"
        aria-label={`Video call ${name}`}
        onClick={() => void dial('video')}
        className={callButton}
        disabled={!conversation || !reachable}
      >
        <VideoIcon />
      </button>
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
              setReporting(true);
            }}
            className="flex min-h-12 items-center rounded-xl px-3 text-base font-semibold text-ink hover:bg-canvas"
          >
            Report
          </button>
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
      <UpgradeSheet open={upsell !== null} onClose={() => setUpsell(null)} title="Video calls" message={upsell ?? ''} />
      {conversation ? <BlockSheet open={blocking} onClose={() => setBlocking(false)} userId={uid} name={name} /> : null}
      {conversation ? (
        <ReportSheet open={reporting} onClose={() => setReporting(false)} userId={uid} name={name} messageIds={evidence} />
      ) : null}
    </header>
  );
}
