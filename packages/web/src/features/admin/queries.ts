import type { AdminMe, Permission } from '@fmk/core';
import { staffHas } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client.ts';
import { staffCall, useStaffToken } from './session.ts';

export type { AdminMe };

export const adminKeys = {
  all: ['admin'] as const,
  me: (token: string | null) => ['admin', 'me', token] as const,
  dashboard: () => ['admin', 'dashboard'] as const,
  analytics: () => ['admin', 'analytics'] as const,
  users: (q: object) => ['admin', 'users', q] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  bans: (q: object) => ['admin', 'bans', q] as const,
  reports: (q: object) => ['admin', 'reports', q] as const,
  content: (q: object) => ['admin', 'content', q] as const,
  locations: (q: object) => ['admin', 'locations', q] as const,
  members: () => ['admin', 'members'] as const,
  invites: () => ['admin', 'invites'] as const,
  audit: (q: object) => ['admin', 'audit', q] as const,
  beta: () => ['admin', 'beta'] as const,
  health: () => ['admin', 'health'] as const,
  threads: (q: object) => ['admin', 'threads', q] as const,
  thread: (id: string) => ['admin', 'thread', id] as const,
  feedback: (q: object) => ['admin', 'feedback', q] as const,
  subscriptions: (q: object) => ['admin', 'subscriptions', q] as const,
  payments: (q: object) => ['admin', 'payments', q] as const,
  /** Outside 'admin': a staff write refreshes the lists, never the pictures already fetched. */
  blob: (path: string) => ['staff-blob', path] as const,
  blobs: () => ['staff-blob'] as const,
  prompts: () => ['admin', 'prompts'] as const,
  promptAnalytics: () => ['admin', 'prompt-analytics'] as const,
  features: () => ['admin', 'features'] as const,
  flags: () => ['admin', 'flags'] as const,
  messages: (q: object) => ['admin', 'messages', q] as const,
};

const noRetryOn4xx = (n: number, e: unknown) => !(e instanceof ApiError && e.status < 500) && n < 2;

/** The signed-in staff member (GET /admin/me with the staff token). */
export function useAdminMe() {
  const token = useStaffToken();
  return useQuery({
    queryKey: adminKeys.me(token),
    queryFn: () => staffCall('GET /admin/me'),
    enabled: token !== null,
    retry: noRetryOn4xx,
    staleTime: 60_000,
  });
}

/** Whether the staff member may use a permission: the same check the server makes (core `staffHas`). */
export function mayUse(me: AdminMe | undefined, need: Permission | 'staff'): boolean {
  if (!me) return false;
  return need === 'staff' || staffHas({ role: me.role, isActive: true, permissions: me.permissions }, need);
}

export function useStaffQuery<T>(key: readonly unknown[], fn: () => Promise<T>, opts: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: key, queryFn: fn, retry: noRetryOn4xx, ...opts });
}

/** A staff write that refreshes the admin area's lists afterwards. */
export function useStaffMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }) });
}
