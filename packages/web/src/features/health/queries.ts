import {
  type CreateMedication,
  type CreateScreening,
  dueMedications,
  isScreeningOverdue,
  type LocalTime,
  type MedicationLog,
  type UpdateMedication,
} from '@fmk/core';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../api/call.ts';

export const healthKeys = {
  all: ['health'] as const,
  medications: () => [...healthKeys.all, 'medications'] as const,
  logs: () => [...healthKeys.all, 'logs'] as const,
  screenings: () => [...healthKeys.all, 'screenings'] as const,
};

const ZONE_KEY = 'fmk:time-zone';

/** The zone as Date tells it for free: its UTC offset on the 1st of each month of this year. */
function zoneFingerprint(now = new Date()): string {
  return Array.from({ length: 12 }, (_, m) => new Date(now.getFullYear(), m, 1).getTimezoneOffset()).join(',');
}

/**
 * The browser's IANA zone ('UTC' when it cannot tell). The first Intl call in a page costs
 * ~100 ms (ICU starts up), a long task at every start: the answer is kept on the device with the
 * zone's fingerprint, and Intl is asked again only when that changes (travel, daylight rules).
 */
export function browserTimeZone(): string {
  const print = zoneFingerprint();
  try {
    const kept = JSON.parse(localStorage.getItem(ZONE_KEY) ?? 'null') as { print?: unknown; zone?: unknown } | null;
    if (kept?.print === print && typeof kept.zone === 'string') return kept.zone;
  } catch {
    // Unreadable: asked again below.
  }
  let zone = 'UTC';
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    // No Intl: UTC.
  }
  try {
    localStorage.setItem(ZONE_KEY, JSON.stringify({ print, zone }));
  } catch {
    // Storage full or blocked: asked again next time.
  }
  return zone;
}

/** Now on the user's wall clock: Date's local fields are the browser's own zone (no Intl needed). */
export function localNow(at: Date = new Date()): LocalTime {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return {
    date: `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`,
    minute: at.getHours() * 60 + at.getMinutes(),
  };
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
    queryFn: () => call('GET /health/medications'),
    enabled,
    staleTime: 60_000,
  });
}

export function useMedicationLogsQuery(enabled = true) {
  return useQuery({
    queryKey: healthKeys.logs(),
    queryFn: () => call('GET /health/medication-logs'),
    enabled,
    staleTime: 60_000,
  });
}

export function useScreeningsQuery(enabled = true) {
  return useQuery({
    queryKey: healthKeys.screenings(),
    queryFn: () => call('GET /health/screenings'),
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
    mutationFn: (body: CreateMedication) => call('POST /health/medications', { body }),
    onSuccess: () => invalidate(qc),
  });
}

export function useUpdateMedicationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateMedication }) =>
      call('PATCH /health/medications/:id', { params: { id }, body: patch }),
    onSuccess: () => invalidate(qc),
  });
}

export function useDeleteMedicationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('DELETE /health/medications/:id', { params: { id } }),
    onSuccess: () => invalidate(qc),
  });
}

/** Marks the current dose taken (or undoes it); the log list updates at once. */
export function useMarkTakenMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, taken }: { id: string; taken: boolean }) =>
      call('POST /health/medications/:id/taken', { params: { id }, body: { taken } }),
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
    mutationFn: (body: CreateScreening) => call('POST /health/screenings', { body }),
    onSuccess: () => invalidate(qc),
  });
}

/** PUT replaces the whole screening (date, tests and results), the same body as recording one. */
export function useUpdateScreeningMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CreateScreening }) =>
      call('PUT /health/screenings/:id', { params: { id }, body }),
    onSuccess: () => invalidate(qc),
  });
}

export function useDeleteScreeningMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('DELETE /health/screenings/:id', { params: { id } }),
    onSuccess: () => invalidate(qc),
  });
}

/** Tells the server the browser's zone, so pushes come at the user's own reminder time. */
export const syncTimeZone = () => call('PUT /health/settings', { body: { timeZone: browserTimeZone() } });

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
    queryFn: () => call('GET /health/summary'),
    enabled,
    staleTime: 60_000,
  });
}
