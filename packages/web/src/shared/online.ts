import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/**
 * Whether the app can reach the network, as one state for the queries, the banner and the
 * screens. TanStack Query's own tracking starts out "online" whatever the
 * browser says, so a start without network fetched, failed and showed errors over the saved
 * data; here it starts from navigator.onLine, and queries wait (paused) while offline and
 * resume by themselves when the network is back.
 */
export function trackOnline(): void {
  if (typeof window === 'undefined') return;
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    update();
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  });
}

export function isOnline(): boolean {
  return onlineManager.isOnline();
}

export function useOnline(): boolean {
  return useSyncExternalStore(onlineManager.subscribe, isOnline, () => true);
}

/**
 * A query that has nothing to show and waits for the network: the screen shows its offline
 * state instead of a spinner that would never end.
 */
export function waitingForNetwork(...queries: { data: unknown; fetchStatus: string }[]): boolean {
  return queries.some((q) => q.data === undefined && q.fetchStatus === 'paused');
}
