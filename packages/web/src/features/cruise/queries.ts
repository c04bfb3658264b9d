import { type CruiseStatus, type EventBody, modeSwitchToast, type SpotProposalBody } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { putLocation, shareLocation } from '../discovery/location.ts';

/** Query keys of the cruise feature, one factory so that invalidations match what was cached. */
export const cruiseKeys = {
  all: ['cruise'] as const,
  config: () => [...cruiseKeys.all, 'config'] as const,
  status: () => [...cruiseKeys.all, 'status'] as const,
  nearby: () => [...cruiseKeys.all, 'nearby'] as const,
  spots: () => [...cruiseKeys.all, 'spots'] as const,
  events: () => [...cruiseKeys.all, 'events'] as const,
  event: (id: string) => [...cruiseKeys.all, 'event', id] as const,
};

/** Nearby people come and go by the minute: poll while the screen is open. */
export const NEARBY_POLL_MS = 30_000;

export function useCruiseConfig() {
  return useQuery({
    queryKey: cruiseKeys.config(),
    queryFn: () => call('GET /cruise/config'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCruiseStatus() {
  return useQuery({
    queryKey: cruiseKeys.status(),
    queryFn: async () => ({ ...(await call('GET /cruise/session')), receivedAt: Date.now() }),
  });
}
export type StatusWithClock = CruiseStatus & { receivedAt: number };

export function useNearby(enabled = true) {
  return useQuery({
    queryKey: cruiseKeys.nearby(),
    queryFn: () => call('GET /cruise/nearby'),
    refetchInterval: NEARBY_POLL_MS,
    enabled,
  });
}

/**
 * Start: the browser's position first (consent, then the position; the server keeps its 500 m
 * cell), then the session. Every cruise query refreshes afterwards.
 */
export function useStartSession() {
  const qc = useQueryClient();
  const { user, updateUser } = useAuth();
  const toast = useToast();
  return useMutation({
    mutationFn: async (rightNow: string | undefined) => {
      await shareLocation();
      return call('POST /cruise/session', { body: rightNow ? { rightNow } : {} });
    },
    onSuccess: async (s) => {
      qc.setQueryData(cruiseKeys.status(), { ...s, receivedAt: Date.now() });
      void qc.invalidateQueries({ queryKey: cruiseKeys.nearby() });
      // Cruising puts the profile in Hookup (now) mode on the server: show it here too.
      if (user && user.currentMode !== 'now') {
        try {
          updateUser(await call('GET /me'));
          const t = modeSwitchToast('now');
          toast.info(t.title, t.message);
        } catch {
          // The mode shows right at the next load.
        }
      }
    },
  });
}

export function useEndSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /cruise/session/end', { body: {} }),
    onSuccess: (s) => {
      qc.setQueryData(cruiseKeys.status(), { ...s, receivedAt: Date.now() });
      void qc.invalidateQueries({ queryKey: cruiseKeys.nearby() });
    },
  });
}

/** Keeps the position fresh during a session (nearby only lists positions under 30 minutes old). */
export async function refreshPosition(get: () => Promise<{ lat: number; lng: number }>): Promise<void> {
  await putLocation(await get());
}

export function useSpots() {
  return useQuery({ queryKey: cruiseKeys.spots(), queryFn: () => call('GET /cruise/spots') });
}

export function useProposeSpot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SpotProposalBody) => call('POST /cruise/spots', { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: cruiseKeys.spots() }),
  });
}

export function useCheckIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ spotId, checkedIn }: { spotId: string; checkedIn: boolean }) =>
      checkedIn
        ? call('DELETE /cruise/spots/:id/checkin', { params: { id: spotId } })
        : call('POST /cruise/spots/:id/checkin', { params: { id: spotId }, body: {} }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: cruiseKeys.spots() }),
  });
}

export function useEvents() {
  return useQuery({ queryKey: cruiseKeys.events(), queryFn: () => call('GET /cruise/events') });
}

export function useEvent(id: string | null) {
  return useQuery({
    queryKey: cruiseKeys.event(id ?? ''),
    queryFn: () => call('GET /cruise/events/:id', { params: { id: id ?? '' } }),
    enabled: id !== null,
  });
}

export function useCreateEvent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: EventBody) => call('POST /cruise/events', { body }),
    onSuccess: (e) => {
      qc.setQueryData(cruiseKeys.event(e.id), e);
      void qc.invalidateQueries({ queryKey: cruiseKeys.events() });
    },
  });
}

/** Attend, leave or cancel: each answers with the event as it now stands. */
export function useEventAction(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: 'attend' | 'leave' | 'cancel') => {
      if (action === 'attend') return call('POST /cruise/events/:id/attend', { params: { id }, body: {} });
      if (action === 'leave') return call('DELETE /cruise/events/:id/attend', { params: { id } });
      return call('POST /cruise/events/:id/cancel', { params: { id }, body: {} });
    },
    onSuccess: (e) => {
      qc.setQueryData(cruiseKeys.event(id), e);
      void qc.invalidateQueries({ queryKey: cruiseKeys.events() });
    },
  });
}

export function useComment(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => call('POST /cruise/events/:id/comments', { params: { id }, body: { body } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: cruiseKeys.event(id) }),
  });
}
