import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useAuth } from '../auth/AuthProvider.tsx';
import { hasPending, subscribePending } from './pending.ts';

const Syncer = lazy(() => import('./SyncPending.tsx'));

/**
 * Mounted once in the app: while a settings change waits on this device (appSettings.pending),
 * loads the syncer that sends it when the server answers again. Nothing is fetched otherwise.
 */
export function SettingsSync() {
  const { user } = useAuth();
  const pending = useSyncExternalStore(subscribePending, hasPending, () => false);
  if (!user || !pending) return null;
  return (
    <Suspense fallback={null}>
      <Syncer />
    </Suspense>
  );
}
