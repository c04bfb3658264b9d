import type { Feedback, FeedbackCategory, FeedbackKind, SupportThread, SupportThreadDetail } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { env } from '../../env.ts';
import { usePrivateImage } from '../../shared/files.ts';
import { supportKeys } from '../../shared/queryKeys.ts';

/** Staff answer while the member looks: lists and an open thread ask again every half minute. */
const POLL_MS = 30_000;

/** GET /support/reports: his own reports with their status. */
export function useReportsQuery() {
  return useQuery({ queryKey: supportKeys.reports(), queryFn: () => call('GET /support/reports'), refetchInterval: POLL_MS });
}

export interface NewReport {
  kind: FeedbackKind;
  category: FeedbackCategory;
  text: string;
  screenshot: File | null;
}

/**
 * Sends a report: the screenshot first (the photo pipeline re-encodes it and strips its metadata),
 * then the report naming it, with the app's version; the server reads the browser itself.
 */
export function useSendReportMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (r: NewReport): Promise<Feedback> => {
      let screenshotId: string | undefined;
      if (r.screenshot) {
        const form = new FormData();
        form.append('file', r.screenshot);
        screenshotId = (await call('POST /support/screenshots', { body: form })).id;
      }
      return call('POST /support/reports', {
        body: {
          kind: r.kind,
          category: r.category,
          text: r.text,
          appVersion: env.appVersion,
          ...(screenshotId ? { screenshotId } : {}),
        },
      });
    },
    onSuccess: (report) => {
      queryClient.setQueryData<Feedback[]>(supportKeys.reports(), (old) => [report, ...(old ?? [])]);
    },
  });
}

/** A report's screenshot: served only with the session's token, so fetched as bytes and shown from an object URL. */
export function useScreenshot(id: string | null): { src: string | null; failed: boolean } {
  return usePrivateImage(['support-screenshot', id], id === null ? null : `/support/screenshots/${id}`);
}

/** GET /support/threads: his conversations with support, with unread answers. */
export function useThreadsQuery() {
  return useQuery({ queryKey: supportKeys.threads(), queryFn: () => call('GET /support/threads'), refetchInterval: POLL_MS });
}

/** GET /support/threads/:id: opening it reads the answers, so the list's unread count refetches. */
export function useThreadQuery(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: supportKeys.thread(id ?? ''),
    queryFn: async () => {
      const t = await call('GET /support/threads/:id', { params: { id: id! } });
      markRead(queryClient, t);
      return t;
    },
    enabled: id !== null,
    refetchInterval: POLL_MS,
  });
}

function markRead(queryClient: ReturnType<typeof useQueryClient>, t: SupportThreadDetail): void {
  const { messages: _messages, ...summary } = t;
  queryClient.setQueryData<SupportThread[]>(supportKeys.threads(), (old) =>
    old ? [summary, ...old.filter((o) => o.id !== t.id)].sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt)) : old,
  );
}

/** POST /support/threads: 'Contact support'. */
export function useCreateThreadMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { subject: string; text: string }) => call('POST /support/threads', { body }),
    onSuccess: (t) => {
      queryClient.setQueryData(supportKeys.thread(t.id), t);
      markRead(queryClient, t);
      void queryClient.invalidateQueries({ queryKey: supportKeys.threads() });
    },
  });
}

/** POST /support/threads/:id/messages. */
export function useWriteMutation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => call('POST /support/threads/:id/messages', { params: { id }, body: { text } }),
    onSuccess: (t) => {
      queryClient.setQueryData(supportKeys.thread(id), t);
      markRead(queryClient, t);
    },
  });
}
