import type { LikesPage, SelectionBody, SelectionResult } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { ApiError, NetworkError } from '../../api/client.ts';
import { gameKeys } from '../../shared/queryKeys.ts';

/** Waits between attempts of a selection that did not reach the server. */
export const SELECTION_RETRY_DELAYS_MS = [1000, 3000, 8000] as const;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Worth another try: the request never arrived, or the server failed (not a refusal). */
export function isRetryable(e: unknown): boolean {
  return e instanceof NetworkError || (e instanceof ApiError && e.status >= 500);
}

/**
 * POST /api/v1/selections, retried on network failure with the SAME clientId, so that the
 * server applies a selection once however many times it arrives (a retried write is idempotent).
 */
export async function sendSelection(
  body: SelectionBody,
  delays: readonly number[] = SELECTION_RETRY_DELAYS_MS,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<SelectionResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call('POST /selections', { body });
    } catch (e) {
      const delay = delays[attempt];
      if (delay === undefined || !isRetryable(e)) throw e;
      await wait(delay);
    }
  }
}

export function newClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** GET /api/v1/matches → Match[] (newest first). */
export function useMatchesQuery() {
  return useQuery({ queryKey: gameKeys.matches(), queryFn: () => call('GET /matches'), staleTime: 30_000 });
}

/** GET /api/v1/likes: who picked me and is not matched yet; identities only for Premium. */
export function useLikesQuery() {
  return useQuery({ queryKey: gameKeys.likes(), queryFn: () => call('GET /likes'), staleTime: 30_000 });
}

/** POST /api/v1/likes/seen: opening the likes screen clears the unseen marks and the badge. */
export function useMarkLikesSeenMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /likes/seen', { body: {} }),
    onSuccess: () => {
      // The "New" marks stay for this visit; the next load brings them seen.
      queryClient.setQueryData<LikesPage>(gameKeys.likes(), (old) => (old ? { ...old, unseen: 0 } : old));
      void queryClient.invalidateQueries({ queryKey: gameKeys.badges() });
    },
  });
}

export const BADGE_REFRESH_MS = 60_000;

/** GET /api/v1/badges: the Messages tab's count, refreshed every minute and on live events. */
export function useBadgesQuery(enabled: boolean) {
  return useQuery({
    queryKey: gameKeys.badges(),
    queryFn: () => call('GET /badges'),
    enabled,
    refetchInterval: BADGE_REFRESH_MS,
    staleTime: 30_000,
  });
}
