import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

export const sessionKeys = { all: ['account', 'sessions'] as const };

/** The account's live sessions, this device first. */
export function useSessions() {
  return useQuery({ queryKey: sessionKeys.all, queryFn: () => call('GET /auth/sessions') });
}

/** Signs one other device out. */
export function useSignOutSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('DELETE /auth/sessions/:id', { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

/** 'Sign out everywhere else': every session but this one ends. */
export function useSignOutOthers() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /auth/sessions/sign-out-others'),
    onSettled: () => qc.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "Active now", "Active 5 minutes ago", "Active yesterday", "Active 3 weeks ago". */
export function lastActive(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 120) return 'Active now';
  const steps: [number, Intl.RelativeTimeFormatUnit][] = [
    [60, 'minute'],
    [60 * 60, 'hour'],
    [24 * 60 * 60, 'day'],
    [7 * 24 * 60 * 60, 'week'],
    [30 * 24 * 60 * 60, 'month'],
  ];
  let unit: [number, Intl.RelativeTimeFormatUnit] = steps[0]!;
  for (const step of steps) if (seconds >= step[0]) unit = step;
  return `Active ${rtf.format(-Math.floor(seconds / unit[0]), unit[1])}`;
}
