import type { GameAction, SelectionResult } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { kill } from './killed.ts';
import { notifyMatch } from './notify.ts';
import { gameKeys, newClientId, sendSelection } from './queries.ts';

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

/**
 * Fuck / marry / kill. The caller paints the result at once and moves on; the request carries
 * on in the background (it outlives the screen) and reports through toasts: a match, a limit
 * reached (upgrade), or a failure after the retries.
 */
export function useSelect(): (pick: Pick) => Promise<SelectionResult | null> {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async ({ targetId, action, super: isSuper = false }: Pick) => {
      if (action === 'kill') kill(targetId);
      const body = { targetId, action, super: action !== 'kill' && isSuper, clientId: newClientId() };
      try {
        // The stamp paints first; the request (and its JSON, headers, fetch) waits a frame.
        await afterNextPaint();
        const result = await sendSelection(body);
        if (result.match) {
          notifyMatch(toast.show, navigate, result.match);
          void queryClient.invalidateQueries({ queryKey: gameKeys.all });
        }
        return result;
      } catch (e) {
        // Kill is already done here; the server's copy of it is only a statistic.
        if (action === 'kill') return null;
        if (e instanceof ApiError && e.code === 'limit_reached') {
          toast.show({
            type: 'upgrade',
            title: isSuper ? 'No supers left today' : 'Upgrade to keep going',
            message: e.message,
            action: { label: 'See Premium', onClick: () => navigate('/settings/premium') },
          });
        } else {
          toast.error(
            action === 'fuck' ? "Your fuck didn't go through" : "Your marry didn't go through",
            errorMessage(e, 'Check your connection and pick again.'),
          );
        }
        return null;
      }
    },
    [toast, navigate, queryClient],
  );
}
