import { AUTH_STORAGE_KEYS, type Match, type NotificationKind } from '@fmk/core';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { setLiveSender } from '../../shared/liveSender.ts';
import { gameKeys, settingsKeys, supportKeys } from '../../shared/queryKeys.ts';
import { SESSION_CHANGED } from '../../shared/sessionEvents.ts';
import { inAppAllowed } from '../../shared/settingsLocal.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { handleCallEvent } from '../calls/store.ts';
import { notifyMatch, type SuperKind, superToastInput } from '../game/notify.ts';
import { handleMessagingEvent } from '../messaging/queries.ts';
import { safetyKeys } from '../safety/queries.ts';
import { LiveClient, type LiveEvent, liveUrl, type SocketLike } from './client.ts';

function storedToken(): string | null {
  try {
    return localStorage.getItem(AUTH_STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

type Show = ReturnType<typeof useToast>['show'];

/** Which notification kind a toast is (settings' in-app switches); support answers always show. */
const TOAST_KIND: Partial<Record<string, NotificationKind>> = {
  message: 'messages',
  match: 'matches',
  'super-fuck': 'likes',
  'super-marry': 'likes',
  warning: 'safety',
  info: 'safety',
};

/** Turns a server event into toasts and fresh queries. Unknown types only refresh the badge. */
export function handleLiveEvent(e: LiveEvent, deps: { show: Show; go: (p: string) => void; queryClient: QueryClient }): void {
  const { go, queryClient } = deps;
  // His in-app switches per kind: the server marks an event `quiet` when his switch is off (and
  // this device's own copy covers a change still waiting to sync). The screens still update.
  const quiet = 'quiet' in e && e.quiet === true;
  const show: Show = (t) => (!quiet && inAppAllowed(TOAST_KIND[t.type] ?? 'safety') ? deps.show(t) : '');
  const refresh = (...keys: (readonly string[])[]) => {
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  // Calls ringing, answered, ended and their signalling (the call screen over any screen).
  if (handleCallEvent(e)) return;
  // Messages, receipts, typing, conversations, presence and the (re)connect itself.
  if (handleMessagingEvent(e, { show, go, queryClient })) return;
  switch (e.type) {
    case 'match':
      // A match that only changed (one of the two changed his choice) is not news.
      if (e.match && typeof e.match === 'object' && e.new !== false) notifyMatch(show, go, e.match as Match);
      refresh(gameKeys.matches(), gameKeys.likes(), gameKeys.badges());
      return;
    case 'super': {
      const from = e.from as { uid: string; displayName: string | null } | undefined;
      if (from?.uid && (e.kind === 'super-fuck' || e.kind === 'super-marry'))
        show(superToastInput(e.kind as SuperKind, from, go));
      refresh(gameKeys.likes(), gameKeys.badges());
      return;
    }
    case 'like':
      refresh(gameKeys.likes(), gameKeys.badges());
      return;
    case 'support':
      // Staff answered: the help screen's list and thread refresh wherever he is (always shown).
      deps.show({
        type: 'message',
        title: 'Support answered you',
        message: typeof e.subject === 'string' ? e.subject : '',
        action: { label: 'Read', onClick: () => go('/settings/help') },
      });
      refresh(supportKeys.all);
      return;
    case 'alert': {
      // A safety alert raised by something that happened: the Safety centre's list, and a toast.
      const alert = e.alert as { title?: unknown; message?: unknown; severity?: unknown } | undefined;
      if (typeof alert?.title === 'string')
        show({
          type: alert.severity === 'high' ? 'warning' : 'info',
          title: alert.title,
          message: typeof alert.message === 'string' ? alert.message : '',
          action: { label: 'Open', onClick: () => go('/safety') },
        });
      refresh(safetyKeys.alerts());
      return;
    }
    case 'tier': {
      // A payment, a cancellation or a renewal changed his tier: the session re-reads its user
      // (AuthProvider listens for SESSION_CHANGED) and every screen its limits.
      const tier = typeof e.tier === 'string' ? e.tier : '';
      const name = tier ? `${tier[0]?.toUpperCase()}${tier.slice(1)}` : '';
      show({
        type: tier === 'free' ? 'info' : 'upgrade',
        title: tier === 'free' ? 'Your plan is now Free' : `You're on ${name}`,
        message: tier === 'free' ? 'Paid features are off. Compare plans any time.' : 'Your features are on.',
      });
      window.dispatchEvent(new Event(SESSION_CHANGED));
      void queryClient.invalidateQueries();
      return;
    }
    case 'refetch':
      if (e.of === 'match') refresh(gameKeys.matches());
      if (e.of === 'like' || e.of === 'super') refresh(gameKeys.likes());
      if (e.of === 'alerts') refresh(safetyKeys.alerts());
      if (e.of === 'settings') refresh(settingsKeys.all);
      refresh(gameKeys.badges());
      return;
    default:
      // Messages and conversations move the Messages badge.
      refresh(gameKeys.badges());
  }
}

/** One live connection per tab while signed in; closed on sign-out or unmount. */
export function useLiveChannel(enabled: boolean, createSocket?: (url: string) => SocketLike): void {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The handler changes identity with its dependencies; the connection must not.
  const handler = useRef((e: LiveEvent) => handleLiveEvent(e, { show: toast.show, go: navigate, queryClient }));
  handler.current = (e: LiveEvent) => handleLiveEvent(e, { show: toast.show, go: navigate, queryClient });

  useEffect(() => {
    if (!enabled || typeof window === 'undefined') return;
    if (!createSocket && typeof WebSocket === 'undefined') return;
    const client = new LiveClient({
      url: liveUrl(),
      getToken: storedToken,
      onEvent: (e) => handler.current(e),
      ...(createSocket ? { createSocket } : {}),
    });
    client.start();
    setLiveSender((m) => client.send(m));
    const nudge = () => client.nudge();
    const onVisible = () => {
      if (document.visibilityState === 'visible') client.nudge();
    };
    window.addEventListener('online', nudge);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('online', nudge);
      document.removeEventListener('visibilitychange', onVisible);
      setLiveSender(null);
      client.stop();
    };
  }, [enabled, createSocket]);
}
