import type { CreateActivityLog, CreateContact } from '@fmk/core';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { env } from '../../env.ts';
import { usePrivateImage } from '../../shared/files.ts';

export const activityKeys = {
  all: ['activity'] as const,
  contacts: () => [...activityKeys.all, 'contacts'] as const,
  logs: () => [...activityKeys.all, 'logs'] as const,
  stats: () => [...activityKeys.all, 'stats'] as const,
};

export function useContactsQuery(enabled = true) {
  return useQuery({
    queryKey: activityKeys.contacts(),
    queryFn: () => call('GET /activity/contacts'),
    enabled,
    staleTime: 60_000,
  });
}

export function useActivityLogsQuery(enabled = true) {
  return useQuery({
    queryKey: activityKeys.logs(),
    queryFn: () => call('GET /activity/logs'),
    enabled,
    staleTime: 60_000,
  });
}

export function useActivityStatsQuery(enabled = true) {
  return useQuery({
    queryKey: activityKeys.stats(),
    queryFn: () => call('GET /activity/stats'),
    enabled,
    staleTime: 60_000,
  });
}

/** Contacts' figures and the stats follow the log, and the screening suggestion counts it too. */
const invalidate = (qc: QueryClient) =>
  Promise.all([qc.invalidateQueries({ queryKey: activityKeys.all }), qc.invalidateQueries({ queryKey: ['health', 'summary'] })]);

export function useCreateContactMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateContact) => call('POST /activity/contacts', { body }),
    onSuccess: () => invalidate(qc),
  });
}

export function useUpdateContactMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: Partial<CreateContact> }) =>
      call('PATCH /activity/contacts/:id', { params: { id }, body: patch }),
    onSuccess: () => invalidate(qc),
  });
}

export function useDeleteContactMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('DELETE /activity/contacts/:id', { params: { id } }),
    onSuccess: () => invalidate(qc),
  });
}

export function useUploadContactPhotoMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => {
      const form = new FormData();
      form.append('file', file);
      return call('POST /activity/contacts/:id/photo', { params: { id }, body: form });
    },
    onSuccess: () => invalidate(qc),
  });
}

/** An uploaded contact photo's API path (its photoURL without the API base); null for none or a web address. */
export function privatePhotoPath(photoURL: string | null): string | null {
  return photoURL?.startsWith(`${env.apiBase}/`) ? photoURL.slice(env.apiBase.length) : null;
}

/**
 * What an <img> shows for a contact's photo. Uploaded photos are served to their owner only, with
 * the token, so they are fetched as bytes and shown from an object URL (revoked when done). The key
 * is outside activityKeys.all: saving a log entry must not refetch every photo, and a new upload
 * has a new path.
 */
export function useContactPhoto(photoURL: string | null): { src: string | null; failed: boolean } {
  const path = privatePhotoPath(photoURL);
  const photo = usePrivateImage(['contact-photo', path], path);
  return path ? photo : { src: photoURL, failed: false };
}

/** Creates contacts for names typed as new partners (one request each) and returns their ids. */
async function createPartners(names: readonly string[]): Promise<string[]> {
  const ids = [];
  for (const name of names) ids.push((await call('POST /activity/contacts', { body: { name } })).id);
  return ids;
}

/**
 * Logs an activity; partners typed as new names become contacts first (one request each), so
 * the entry only ever refers to the user's own contacts.
 */
export function useLogActivityMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ log, newPartners }: { log: CreateActivityLog; newPartners: string[] }) => {
      const created = await createPartners(newPartners);
      return call('POST /activity/logs', { body: { ...log, partners: [...(log.partners ?? []), ...created] } });
    },
    onSettled: () => invalidate(qc),
  });
}

/** Edits a logged activity with the same form; new partner names become contacts first, as when logging. */
export function useUpdateActivityLogMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, log, newPartners }: { id: string; log: CreateActivityLog; newPartners: string[] }) => {
      const created = await createPartners(newPartners);
      return call('PATCH /activity/logs/:id', {
        params: { id },
        body: { ...log, partners: [...(log.partners ?? []), ...created] },
      });
    },
    onSettled: () => invalidate(qc),
  });
}

export function useDeleteActivityLogMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('DELETE /activity/logs/:id', { params: { id } }),
    onSuccess: () => invalidate(qc),
  });
}
