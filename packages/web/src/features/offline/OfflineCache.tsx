import { IsRestoringProvider, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useAuth } from '../auth/AuthProvider.tsx';
import { OfflineBanner } from './OfflineBanner.tsx';
import { persistOffline, restoreOffline } from './persist.ts';

/**
 * Around the signed-in app: puts the user's offline copy back before any query runs (queries
 * wait while it is restoring, as with TanStack's PersistQueryClientProvider), keeps it up to
 * date, and shows the offline bar. Signed out, it does nothing (the copy was cleared then).
 */
export function OfflineCache({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const uid = user?.uid ?? null;
  const [restoredFor, setRestoredFor] = useState<string | null>(null);

  useEffect(() => {
    if (!uid) return;
    let live = true;
    let stop: (() => void) | null = null;
    const restore = restoreOffline(queryClient, uid, () => live);
    void restore.started.then(() => {
      if (live) setRestoredFor(uid);
    });
    void restore.complete.then(() => {
      if (live) stop = persistOffline(queryClient, uid);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [uid, queryClient]);

  return (
    <IsRestoringProvider value={uid !== null && restoredFor !== uid}>
      {uid ? <OfflineBanner /> : null}
      {children}
    </IsRestoringProvider>
  );
}
