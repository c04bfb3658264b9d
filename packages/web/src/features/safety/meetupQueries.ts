import type { MeetupCheckin, MeetupCheckinBody, SafetyContact, SafetyContactBody } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { safetyKeys } from './queries.ts';

const meetupKeys = {
  contact: () => [...safetyKeys.all, 'contact'] as const,
  checkins: () => [...safetyKeys.all, 'checkins'] as const,
};

/** GET /me/safety-contact: his trusted contact and safe word, null before he sets one. */
export function useSafetyContactQuery() {
  return useQuery({ queryKey: meetupKeys.contact(), queryFn: () => call('GET /me/safety-contact') });
}

/** PUT /me/safety-contact: the server checks the email and the safe word's length. */
export function useSaveSafetyContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SafetyContactBody) => call('PUT /me/safety-contact', { body }),
    onSuccess: (saved) => queryClient.setQueryData<SafetyContact | null>(meetupKeys.contact(), saved),
  });
}

/** GET /me/checkins: newest first; the sweep marks a missed one overdue, so it is asked again now and then. */
export function useCheckinsQuery() {
  return useQuery({ queryKey: meetupKeys.checkins(), queryFn: () => call('GET /me/checkins'), refetchInterval: 60_000 });
}

function putCheckin(queryClient: ReturnType<typeof useQueryClient>, c: MeetupCheckin) {
  queryClient.setQueryData<MeetupCheckin[]>(meetupKeys.checkins(), (old) =>
    old?.some((o) => o.id === c.id) ? old.map((o) => (o.id === c.id ? c : o)) : [c, ...(old ?? [])],
  );
}

/** POST /me/checkins: who, where and when, shared with the trusted contact. */
export function useStartCheckin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MeetupCheckinBody) => call('POST /me/checkins', { body }),
    onSuccess: (c) => putCheckin(queryClient, c),
  });
}

/** POST /me/checkins/:id/done ("I'm safe") or /cancel: the contact hears nothing more. */
export function useCloseCheckin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; how: 'done' | 'cancel' }) =>
      v.how === 'done'
        ? call('POST /me/checkins/:id/done', { params: { id: v.id } })
        : call('POST /me/checkins/:id/cancel', { params: { id: v.id } }),
    onSuccess: (c) => putCheckin(queryClient, c),
  });
}
