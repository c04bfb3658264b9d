import { AUTH_STORAGE_KEYS, type DataExport, type DeleteAccount } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import { env } from '../../env.ts';

/** 'Download my data' and 'Delete my account': their queries and calls. */

export const dataKeys = { export: ['account', 'export'] as const };

/** The newest archive; polled each second while it is being built, so the progress moves. */
export function useDataExport() {
  return useQuery({
    queryKey: dataKeys.export,
    queryFn: async ({ signal }) => (await call('GET /account/export', { signal })).export,
    refetchInterval: (q) => (q.state.data?.status === 'building' ? 1000 : false),
  });
}

export function useStartExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /account/export'),
    onSuccess: (e: DataExport) => qc.setQueryData(dataKeys.export, e),
  });
}

/**
 * Saves the archive. Fetched with the session's token and handed to the browser through a blob
 * link, so the archive never sits in a URL, a cache or another tab's reach.
 */
export async function downloadExport(id: string): Promise<void> {
  const token = localStorage.getItem(AUTH_STORAGE_KEYS.token);
  const res = await fetch(`${env.apiBase}/account/export/${encodeURIComponent(id)}/download`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
    const message = typeof body?.message === 'string' ? body.message : 'We could not download your data. Please try again.';
    throw new ApiError(res.status, message);
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'fmk-data.zip';
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: (body: DeleteAccount) => call('POST /account/delete', { body }) });
}
