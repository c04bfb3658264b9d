import { doseDate, REMINDER_CHECK_INTERVAL_MS } from '@fmk/core';
import { useEffect, useRef } from 'react';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { formatClock } from './format.ts';
import { useHealthAttention, useLocalNow, useMarkTakenMutation } from './queries.ts';

/** A reminder toast stays long enough to tap "Mark taken". */
const REMINDER_TOAST_MS = 12_000;

/**
 * Medication reminders in the open app (spec section 4): checked on load and every 30 minutes,
 * each due dose shown as a toast; a dose that becomes due in between (a medication just added,
 * the clock entering a window) is announced at once. Returns whether the Health tab needs its dot.
 */
export function useHealthReminders(enabled: boolean): boolean {
  const now = useLocalNow(60_000);
  const attention = useHealthAttention(enabled, now);
  const toast = useToast();
  const { mutate: markTaken } = useMarkTakenMutation();
  /** Dose key (medication:date) → the toast shown for it. */
  const shown = useRef(new Map<string, string>());
  const lastSweep = useRef(0);

  useEffect(() => {
    if (!attention.loaded) return;
    const t = Date.now();
    if (t - lastSweep.current >= REMINDER_CHECK_INTERVAL_MS) {
      // Every 30 minutes a dose still untaken is reminded again.
      shown.current.clear();
      lastSweep.current = t;
    }
    const dueKeys = new Set<string>();
    for (const m of attention.due) {
      const key = `${m.id}:${doseDate(m.reminderTime, now)}`;
      dueKeys.add(key);
      if (shown.current.has(key)) continue;
      const id = toast.show({
        type: 'warning',
        title: `Time for ${m.name}`,
        message: `Your ${formatClock(m.reminderTime)} reminder. Mark it taken when you have.`,
        duration: REMINDER_TOAST_MS,
        action: { label: 'Mark taken', onClick: () => markTaken({ id: m.id, taken: true }) },
      });
      shown.current.set(key, id);
    }
    // A dose taken (here or on the Health screen) takes its reminder away.
    for (const [key, id] of shown.current) {
      if (!dueKeys.has(key)) {
        toast.dismiss(id);
        shown.current.delete(key);
      }
    }
  }, [attention.loaded, attention.due, now, toast, markTaken]);

  return attention.needsAttention;
}
