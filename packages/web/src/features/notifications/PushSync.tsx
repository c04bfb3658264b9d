import { useEffect } from 'react';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useConfigQuery } from '../auth/queries.ts';
import { syncPushSubscription } from './push.ts';

/**
 * After sign-in: keeps this browser's push subscription on the server (and re-PUTs it after 7
 * days) when notifications are already allowed. Renders nothing; never prompts.
 */
export function PushSync() {
  const { user } = useAuth();
  const config = useConfigQuery();
  const uid = user?.uid ?? null;
  const key = config.data?.vapidPublicKey ?? null;
  useEffect(() => {
    if (!uid || !key) return;
    void syncPushSubscription({ uid, vapidPublicKey: key });
  }, [uid, key]);
  return null;
}
