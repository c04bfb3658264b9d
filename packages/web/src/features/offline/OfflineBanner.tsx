import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useOnline } from '../../shared/online.ts';
import { CloudOffIcon } from '../../ui/icons.tsx';
import { messagingStore } from '../messaging/store.ts';

/** How long "Back online" stays before the bar goes. */
export const BACK_ONLINE_MS = 2500;

function useQueuedCount(): number {
  return useSyncExternalStore(
    messagingStore.subscribe,
    () => messagingStore.queued.length,
    () => 0,
  );
}

/** "1 message waiting to send", "2 messages…", or what the screens show meanwhile. */
export function offlineDetail(queued: number): string {
  if (queued === 1) return '1 message waiting to send';
  if (queued > 1) return `${queued} messages waiting to send`;
  return "Showing what's saved";
}

/**
 * The bar across the top of every signed-in screen while there is no network: what
 * the screens show meanwhile, or how many messages wait to go. Then "Back online" a moment. The
 * live region is always there, so that a screen reader hears each change. While it shows, the
 * page and the fixed layers start below it (--fmk-offline-inset, index.css).
 */
export function OfflineBanner() {
  const online = useOnline();
  const queued = useQueuedCount();
  const [backOnline, setBackOnline] = useState(false);
  const wasOffline = useRef(false);

  useEffect(() => {
    if (!online) {
      wasOffline.current = true;
      setBackOnline(false);
      return;
    }
    if (!wasOffline.current) return;
    wasOffline.current = false;
    setBackOnline(true);
    const t = setTimeout(() => setBackOnline(false), BACK_ONLINE_MS);
    return () => clearTimeout(t);
  }, [online]);

  const shown = !online || backOnline;
  useEffect(() => {
    const root = document.documentElement;
    if (shown) root.setAttribute('data-offline', '');
    else root.removeAttribute('data-offline');
    return () => root.removeAttribute('data-offline');
  }, [shown]);

  return (
    <div
      role="status"
      data-testid="offline-banner"
      className={
        shown
          ? 'fixed inset-x-0 top-0 z-[60] mx-auto flex h-(--fmk-offline-inset) w-full max-w-md items-center gap-2 border-b border-primary/30 bg-primary-soft px-4 text-sm text-ink'
          : 'sr-only'
      }
    >
      {!online ? (
        <>
          <CloudOffIcon width={18} height={18} className="shrink-0 text-primary-strong" />
          <span className="shrink-0 font-bold whitespace-nowrap">You're offline</span>
          <span className="truncate text-muted">· {offlineDetail(queued)}</span>
        </>
      ) : backOnline ? (
        <span className="font-bold">Back online</span>
      ) : null}
    </div>
  );
}
