import { type BoostStatus, boostLeftMs } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../api/call.ts';

export const boostKeys = {
  all: ['boost'] as const,
  status: () => [...boostKeys.all, 'status'] as const,
};

/** His boost as the server holds it, with when this device received it (the countdown's anchor). */
export type BoostAnswer = BoostStatus & { receivedAt: number };

/** GET /boost; while a boost runs it is read again each half minute for its views. */
export function useBoostQuery(enabled = true) {
  return useQuery({
    queryKey: boostKeys.status(),
    queryFn: async (): Promise<BoostAnswer> => ({ ...(await call('GET /boost')), receivedAt: Date.now() }),
    enabled,
    refetchInterval: (q) => (q.state.data?.boost?.active ? 30_000 : false),
  });
}

/** POST /boost: the answer is the new status. */
export function useStartBoostMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /boost'),
    onSuccess: (s) => queryClient.setQueryData<BoostAnswer>(boostKeys.status(), { ...s, receivedAt: Date.now() }),
  });
}

/**
 * Milliseconds left of his running boost, by the server's clock, ticking each second; 0 when none
 * runs. When it reaches 0 the status is read again (the boost ended, its final views).
 */
export function useBoostLeft(s: BoostAnswer | undefined): number {
  const queryClient = useQueryClient();
  const active = Boolean(s?.boost?.active);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  const left = s?.boost?.active ? boostLeftMs(s.boost.endsAt, s.serverTime, s.receivedAt, now) : 0;
  useEffect(() => {
    if (active && left === 0) void queryClient.invalidateQueries({ queryKey: boostKeys.status() });
  }, [active, left, queryClient]);
  return left;
}
