import { AUTH_STORAGE_KEYS } from '@fmk/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import { env } from '../../env.ts';

/**
 * Export and deletion of all health and activity data (issue 6 item 7). The export is fetched
 * with the session's token and saved through a blob link, so it never sits in a URL or a cache.
 */
export async function downloadPrivateData(format: 'json' | 'csv'): Promise<void> {
  const token = localStorage.getItem(AUTH_STORAGE_KEYS.token);
  const res = await fetch(`${env.apiBase}/me/private-data?format=${format}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!res.ok) throw new ApiError(res.status, 'We could not prepare your export. Please try again.');
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `fmk-health-activity.${format}`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Deletes every record and the key they were encrypted with; every health and activity view empties. */
export function useDeleteAllPrivateDataMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call('DELETE /me/private-data'),
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: ['health'] }), qc.invalidateQueries({ queryKey: ['activity'] })]);
    },
  });
}
