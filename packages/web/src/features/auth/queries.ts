import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

export const configKeys = { all: ['config'] as const };

/** GET /api/v1/config: what this server offers (Google sign-in, push key, beta). */
export function useConfigQuery() {
  return useQuery({
    queryKey: configKeys.all,
    queryFn: () => call('GET /config', { token: null }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}
