import type { ActivityLog, ActivityStats, Contact, CreateActivityLog, CreateContact } from '@fmk/core';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const activityKeys = {
  all: ['activity'] as const,
  contacts: () => [...activityKeys.all, 'contacts'] as const,
  logs: () => [...activityKeys.all, 'logs'] as const,
  stats: () => [...activityKeys.all, 'stats'] as const,
};

const enc = encodeURIComponent;

export function useContactsQuery(enabled = true) {
  return useQuery({
    queryKey: activityKeys.contacts(),
    queryFn: () => api<Contact[]>('/activity/contacts'),
    enabled,
    staleTime: 60_000,
  });
}

export function useActivityLogsQuery(enabled = true) {
  return useQuery({
    queryKey: activityKeys.logs(),
    queryFn: () => api<ActivityLog[]>('/activity/logs'),
    enabled,
    staleTime: 60_000,
  });
}

export function useActivityStatsQuery(enabled = true) {
  return useQuery({
    queryKey: activityKeys.stats(),
    queryFn: () => api<ActivityStats>('/activity/stats'),
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
    mutationFn: (body: CreateContact) => api<Contact>('/activity/contacts', { body }),
    onSuccess: () => invalidate(qc),
  });
}

export function useUpdateContactMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: Partial<CreateContact> }) =>
      api<Contact>(`/activity/contacts/${enc(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: () => invalidate(qc),
  });
}

export function useDeleteContactMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/activity/contacts/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: () => invalidate(qc),
  });
}

/**
 * Logs an activity; partners typed as new names become contacts first (one request each), so
 * the entry only ever refers to the user's own contacts.
 */
export function useLogActivityMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ log, newPartners }: { log: CreateActivityLog; newPartners: string[] }) => {
      const created = [];
      for (const name of newPartners) created.push(await api<Contact>('/activity/contacts', { body: { name } }));
      return api<ActivityLog>('/activity/logs', {
        body: { ...log, partners: [...(log.partners ?? []), ...created.map((c) => c.id)] },
      });
    },
    onSettled: () => invalidate(qc),
  });
}

export function useDeleteActivityLogMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/activity/logs/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: () => invalidate(qc),
  });
}
