import type { DataExport, DeleteAccount, EmailConfirmed, PhoneStatus } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from '../../api/call.ts';
import { downloadPrivateFile } from '../../shared/files.ts';
import { useAuth } from '../auth/AuthProvider.tsx';

/**
 * The token of a mailed link: in the fragment (`#token=…`, which no server ever sees), or in the
 * query for a link a mail program rewrote.
 */
export function linkToken(location: { hash: string; search: string }): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  return fromHash || new URLSearchParams(location.search).get('token') || null;
}

/**
 * A link works once: a page that renders twice (React's strict mode, a re-mount) must not spend
 * it twice and then report it used. Each token is sent once per page load; later asks share it.
 */
const confirming = new Map<string, Promise<EmailConfirmed>>();
export function confirmEmailOnce(token: string): Promise<EmailConfirmed> {
  let p = confirming.get(token);
  if (!p) {
    p = call('POST /auth/verify', { body: { token }, token: null });
    confirming.set(token, p);
  }
  return p;
}

/** Reads the signed-in record again (after a link changed it elsewhere); a no-op signed out. */
export function useRefreshMe(): () => Promise<void> {
  const { user, updateUser } = useAuth();
  const signedIn = user !== null;
  return useCallback(async () => {
    if (!signedIn) return;
    updateUser(await call('GET /me'));
  }, [signedIn, updateUser]);
}

/** Drops a change of address still waiting for its link; the record says so at once. */
export function useCancelEmailChange() {
  const { updateUser } = useAuth();
  return useMutation({ mutationFn: () => call('POST /auth/email/cancel'), onSuccess: updateUser });
}

/** 'Resend': a new confirmation link to the account's address (the server allows 3 an hour). */
export function useResendVerification() {
  return useMutation({ mutationFn: () => call('POST /auth/verify/resend') });
}

export const accountKeys = { phone: ['account', 'phone'] as const, export: ['account', 'export'] as const };

/** The account's own phone number and the code waiting for it. */
export function usePhoneQuery() {
  return useQuery({ queryKey: accountKeys.phone, queryFn: () => call('GET /me/phone') });
}

/**
 * The phone calls answer the number's new state; the cache takes it, and the signed-in record is
 * read again (the verified badge rides on it).
 */
function usePhoneMutation<V>(fn: (v: V) => Promise<PhoneStatus>) {
  const queryClient = useQueryClient();
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (status) => {
      queryClient.setQueryData(accountKeys.phone, status);
      await refresh().catch(() => undefined);
    },
  });
}

/** Texts a code to the number (the same number again: 'Resend'). */
export const useSendPhoneCode = () => usePhoneMutation((phone: string) => call('POST /me/phone', { body: { phone } }));
/** Types the texted code back. */
export const useVerifyPhone = () => usePhoneMutation((code: string) => call('POST /me/phone/verify', { body: { code } }));
/** Removes the number (and the badge with it). */
export const useRemovePhone = () => usePhoneMutation(() => call('DELETE /me/phone'));

// 'Download my data' and 'Delete my account'.

/** The newest archive; polled each second while it is being built, so the progress moves. */
export function useDataExport() {
  return useQuery({
    queryKey: accountKeys.export,
    queryFn: async ({ signal }) => (await call('GET /account/export', { signal })).export,
    refetchInterval: (q) => (q.state.data?.status === 'building' ? 1000 : false),
  });
}

export function useStartExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /account/export'),
    onSuccess: (e: DataExport) => qc.setQueryData(accountKeys.export, e),
  });
}

/**
 * Saves the archive. Fetched with the session's token and handed to the browser through a blob
 * link, so the archive never sits in a URL, a cache or another tab's reach.
 */
export function downloadExport(id: string): Promise<void> {
  return downloadPrivateFile(`/account/export/${encodeURIComponent(id)}/download`, {
    fallbackName: 'fmk-data.zip',
    failure: 'We could not download your data. Please try again.',
    serverMessage: true,
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: (body: DeleteAccount) => call('POST /account/delete', { body }) });
}
