import type { GameAction, SelectionResult } from '@fmk/core';
import { onlineManager, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { gameKeys } from '../../shared/queryKeys.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { kill } from './killed.ts';
import { notifyMatch } from './notify.ts';
import { flushSelections, queueSelection } from './outbox.ts';
import { isRetryable, newClientId, sendSelection } from './queries.ts';

export interface Pick {
  targetId: string;
  action: GameAction;
  super?: boolean;
}

/** Resolves once the frame being prepared has been painted (at once in a hidden page). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const next = () => setTimeout(resolve, 0);
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(next);
    else next();
  });
}

type Show = ReturnType<typeof useToast>['show'];
type Go = ReturnType<typeof useNavigate>;

/** What every answer to a pick does, sent now or from the queue: a match is told and listed. */
function onResult(result: SelectionResult, show: Show, go: Go, queryClient: QueryClient): void {
  if (!result.match) return;
  notifyMatch(show, go, result.match);
  void queryClient.invalidateQueries({ queryKey: gameKeys.all });
}

/** A pick the server refused for good: a limit (with the way up) or another reason. */
function onRefused(e: unknown, pick: Pick, toast: ReturnType<typeof useToast>, go: Go): void {
  if (e instanceof ApiError && e.code === 'limit_reached') {
    toast.show({
      type: 'upgrade',
      title: pick.super ? 'No supers left today' : 'Upgrade to keep going',
      message: e.message,
      action: { label: 'See Premium', onClick: () => go('/settings/premium') },
    });
  } else {
    toast.error(
      pick.action === 'fuck' ? "Your fuck didn't go through" : "Your marry didn't go through",
      errorMessage(e, 'Check your connection and pick again.'),
    );
  }
}

/**
 * Fuck / marry / kill. The caller paints the result at once and moves on; the request carries
 * on in the background (it outlives the screen) and reports through toasts: a match, a limit
 * reached (upgrade), or a failure. Without a network a fuck or marry waits on the phone and goes
 * when the network is back (useSelectionOutbox).
 */
export function useSelect(): (pick: Pick) => Promise<SelectionResult | null> {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (pick: Pick) => {
      const { targetId, action, super: isSuper = false } = pick;
      if (action === 'kill') kill(targetId);
      const body = { targetId, action, super: action !== 'kill' && isSuper, clientId: newClientId() };
      const queue = () => {
        queueSelection(body);
        toast.info('Saved for later', `Your ${action} goes through when you're back online.`);
        return null;
      };
      // Kill is done on the phone; the server's copy of it is only a statistic, not worth a queue.
      if (action !== 'kill' && !onlineManager.isOnline()) return queue();
      try {
        // The stamp paints first; the request (and its JSON, headers, fetch) waits a frame.
        await afterNextPaint();
        const result = await sendSelection(body);
        onResult(result, toast.show, navigate, queryClient);
        return result;
      } catch (e) {
        if (action === 'kill') return null;
        if (isRetryable(e)) return queue();
        onRefused(e, pick, toast, navigate);
        return null;
      }
    },
    [toast, navigate, queryClient],
  );
}

/** Sends the picks made offline: at start and whenever the network comes back. Mounted once, in the shell. */
export function useSelectionOutbox(): void {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const flush = () => {
      if (!onlineManager.isOnline()) return;
      void flushSelections({
        sent: (result) => onResult(result, toast.show, navigate, queryClient),
        refused: (e, pick) => onRefused(e, pick, toast, navigate),
      });
    };
    flush();
    return onlineManager.subscribe((online) => {
      if (online) flush();
    });
  }, [toast, navigate, queryClient]);
}
