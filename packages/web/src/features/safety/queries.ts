import type { Alert, blockedUserSchema, ReportCategory, SafetyScoreItem, Settings } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../../api/call.ts';
import { discoveryKeys, gameKeys, messagingKeys, settingsKeys } from '../../shared/queryKeys.ts';

export type BlockedUser = z.infer<typeof blockedUserSchema>;

export const safetyKeys = {
  all: ['safety'] as const,
  blocked: () => [...safetyKeys.all, 'blocked'] as const,
  alerts: () => [...safetyKeys.all, 'alerts'] as const,
};

/** GET /me/blocked. */
export function useBlockedQuery() {
  return useQuery({ queryKey: safetyKeys.blocked(), queryFn: () => call('GET /me/blocked') });
}

/** After a block: he and our conversation disappear everywhere, so every list refetches. */
function afterBlock(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: messagingKeys.all });
  void queryClient.invalidateQueries({ queryKey: gameKeys.all });
  void queryClient.invalidateQueries({ queryKey: safetyKeys.blocked() });
  void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
}

/** POST /users/:id/block. */
export function useBlockMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => call('POST /users/:id/block', { params: { id: userId } }),
    onSuccess: () => afterBlock(queryClient),
  });
}

export interface NewReport {
  userId: string;
  reason: string;
  category: ReportCategory;
  description: string;
  screenshots: File[];
  messageIds: string[];
  block: boolean;
}

/**
 * Reports him: the screenshots first (the photo pipeline re-encodes them and strips their
 * metadata; only the reporter and staff can read them), then the report, blocking him too when asked.
 */
export function useReportMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (r: NewReport) => {
      const screenshotIds: string[] = [];
      for (const file of r.screenshots) {
        const form = new FormData();
        form.append('file', file);
        screenshotIds.push((await call('POST /reports/screenshots', { body: form })).id);
      }
      return call('POST /users/:id/report', {
        params: { id: r.userId },
        body: {
          reason: r.reason,
          category: r.category,
          description: r.description,
          screenshotIds,
          messageIds: r.messageIds,
          block: r.block,
        },
      });
    },
    onSuccess: (_d, r) => {
      if (r.block) afterBlock(queryClient);
      void queryClient.invalidateQueries({ queryKey: safetyKeys.alerts() });
    },
  });
}

/** GET /me/alerts: the Safety centre's list (new ones also arrive over the live channel). */
export function useAlertsQuery() {
  return useQuery({ queryKey: safetyKeys.alerts(), queryFn: () => call('GET /me/alerts') });
}

/** PATCH /me/alerts/:id: read, resolved, or dismissed (gone from the list). */
export function useAlertStateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; state: 'read' | 'resolved' | 'dismissed' }) =>
      call('PATCH /me/alerts/:id', { params: { id: v.id }, body: { state: v.state } }),
    onSuccess: (alert, v) =>
      queryClient.setQueryData<Alert[]>(safetyKeys.alerts(), (old) =>
        v.state === 'dismissed' ? old?.filter((a) => a.id !== v.id) : old?.map((a) => (a.id === v.id ? alert : a)),
      ),
  });
}

/** DELETE /users/:id/block. */
export function useUnblockMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => call('DELETE /users/:id/block', { params: { id: userId } }),
    onSuccess: (_d, userId) => {
      queryClient.setQueryData<BlockedUser[]>(safetyKeys.blocked(), (old) => old?.filter((u) => u.uid !== userId));
      void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
    },
  });
}

/** GET /me/settings: the safety score reads his safety groups. */
export { useMySettingsQuery as useSettingsQuery } from '../../shared/settings.ts';

/** The safety score's one-tap fix: PATCH /me/settings turning one scoring setting on. */
export function useTurnOnSafetySetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: Pick<SafetyScoreItem, 'group' | 'key'>) =>
      call('PATCH /me/settings', { body: { safety: { [item.group]: { [item.key]: true } } } }),
    onSuccess: (settings) => queryClient.setQueryData<Settings>(settingsKeys.mine(), settings),
  });
}
