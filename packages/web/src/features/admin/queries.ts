import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';

/** GET /api/v1/admin/me: 200 for active staff, 403 otherwise. */
export type { AdminMe } from '@fmk/core';

/** Whether the signed-in user is verified staff (GET /api/v1/admin/me). */
export type AdminStatus = 'checking' | 'verified' | 'denied';

export const adminKeys = { me: (uid: string | null) => ['admin', 'me', uid] as const };

export function useAdminMeQuery(uid: string | null, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.me(uid),
    queryFn: () => call('GET /admin/me'),
    enabled: enabled && uid !== null,
    retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2,
    staleTime: 60_000,
  });
}

export function adminStatusOf(q: { isSuccess: boolean; isError: boolean; enabled: boolean }): AdminStatus {
  if (!q.enabled || q.isError) return 'denied';
  if (q.isSuccess) return 'verified';
  return 'checking';
}
