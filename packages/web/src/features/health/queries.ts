import {
  type CreateMedication,
  type CreateScreening,
  dueMedications,
  type HealthSummary,
  isScreeningOverdue,
  type LocalTime,
  localTimeIn,
  type Medication,
  type MedicationLog,
  type Screening,
  type UpdateMedication,
} from '@fmk/core';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';

export const healthKeys = {
  all: ['health'] as const,
  medications: () => [...healthKeys.all, 'medications'] as const,
  logs: () => [...healthKeys.all, 'logs'] as const,
  screenings: () => [...healthKeys.all, 'screenings'] as const,
};

const enc = encodeURIComponent;

/** The browser's IANA zone ('UTC' when it cannot tell). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Now on the user's wall clock. */
export function localNow(at: Date = new Date()): LocalTime {
  return localTimeIn(at, browserTimeZone());
}

/** A wall-clock reading that moves every `ms` (re-renders rules that depend on the time). */
export function useLocalNow(ms = 60_000): LocalTime {
  const [now, setNow] = useState(() => localNow());
  useEffect(() => {
    const id = setInterval(() => setNow(localNow()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

export function useMedicationsQuery(enabled = true) {
  return useQuery({
    queryKey: healthKeys.medications(),
    queryFn: () => api<Medication[]>('/health/medications'),
    enabled,
    staleTime: 60_000,
  });
}

export function useMedicationLogsQuery(enabled = true) {
  return useQuery({
    queryKey: healthKeys.logs(),
    queryFn: () => api<MedicationLog[]>('/health/medication-logs'),
    enabled,
    staleTime: 60_000,
  });
}

export function useScreeningsQuery(enabled = true) {
  return useQuery({
    queryKey: healthKeys.screenings(),
    queryFn: () => api<Screening[]>('/health/screenings'),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * What needs attention now (spec section 2's red dot, section 4's reminders), decided in the
 * browser's own time by the same core rules the server uses.
 */
export function useHealthAttention(enabled: boolean, now: LocalTime) {
  const meds = useMedicationsQuery(enabled);
  const logs = useMedicationLogsQuery(enabled);
  const screenings = useScreeningsQuery(enabled);
  const loaded = meds.isSuccess && logs.isSuccess && screenings.isSuccess;
  const due = loaded ? dueMedications(meds.data, logs.data, now) : [];
  const screeningOverdue = loaded ? isScreeningOverdue(screenings.data, now.date) : false;
  return { loaded, due, screeningOverdue, needsAttention: enabled && loaded && (due.length > 0 || screeningOverdue) };
}

const invalidate = (qc: QueryClient) => qc.invalidateQueries({ queryKey: healthKeys.all });

export function useCreateMedicationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMedication) => api<Medication>('/health/medications', { body }),
    onSuccess: () => invalidate(qc),
  });
}

export function useUpdateMedicationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateMedication }) =>
      api<Medication>(`/health/medications/${enc(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: () => invalidate(qc),
  });
}

export function useDeleteMedicationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/health/medications/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: () => invalidate(qc),
  });
}

/** Marks the current dose taken (or undoes it); the log list updates at once. */
export function useMarkTakenMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, taken }: { id: string; taken: boolean }) =>
      api<MedicationLog>(`/health/medications/${enc(id)}/taken`, { body: { taken } }),
    onSuccess: (log) => {
      qc.setQueryData<MedicationLog[]>(healthKeys.logs(), (old) => {
        const rest = (old ?? []).filter((l) => l.id !== log.id);
        return [log, ...rest].sort((a, b) => b.date.localeCompare(a.date));
      });
      void invalidate(qc);
    },
  });
}

export function useCreateScreeningMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScreening) => api<Screening>('/health/screenings', { body }),
    onSuccess: () => invalidate(qc),
  });
}

/** PUT replaces the whole screening (date, tests and results), the same body as recording one. */
export function useUpdateScreeningMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CreateScreening }) =>
      api<Screening>(`/health/screenings/${enc(id)}`, { method: 'PUT', body }),
    onSuccess: () => invalidate(qc),
  });
}

export function useDeleteScreeningMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/health/screenings/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: () => invalidate(qc),
  });
}

/** Tells the server the browser's zone, so pushes come at the user's own reminder time. */
export const syncTimeZone = () => api<void>('/health/settings', { method: 'PUT', body: { timeZone: browserTimeZone() } });

/**
 * The signed-in app tells the server the browser's zone once per start, whatever screen it opens
 * on: reminder pushes and the activity stats' "today" and "this week" are the user's own days,
 * not UTC's (they were only after a visit to Health).
 */
export function useTimeZoneSync(enabled: boolean): void {
  useEffect(() => {
    if (enabled) void syncTimeZone().catch(() => undefined);
  }, [enabled]);
}

/** The server's view in the user's zone: here for the screening suggestion, which counts activity entries too. */
export function useHealthSummaryQuery(enabled = true) {
  return useQuery({
    queryKey: [...healthKeys.all, 'summary'] as const,
    queryFn: () => api<HealthSummary>('/health/summary'),
    enabled,
    staleTime: 60_000,
  });
}
