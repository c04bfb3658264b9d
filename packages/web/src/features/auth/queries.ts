import type { PublicConfig } from '@fmk/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const configKeys = { all: ['config'] as const };

/** GET /api/v1/config: what this server offers (Google sign-in, push key, beta). */
export function useConfigQuery() {
  return useQuery({
    queryKey: configKeys.all,
    queryFn: () => api<PublicConfig>('/config', { token: null }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}
