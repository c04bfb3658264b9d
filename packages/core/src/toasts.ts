import { DAY, HOUR, MINUTE } from './clock.ts';

/** Toast types and durations: spec section 9. */
export const TOAST_TYPES = [
  'success',
  'error',
  'warning',
  'info',
  'match',
  'message',
  'location',
  'upgrade',
  'super-fuck',
  'super-marry',
] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export const TOAST_DURATIONS: Partial<Record<ToastType, number>> = {
  success: 4000,
  error: 6000,
  warning: 5000,
  info: 4000,
  match: 8000,
  message: 5000,
  upgrade: 7000,
  'super-fuck': 8000,
  'super-marry': 8000,
};
/** Types without their own duration (location) use this. */
export const DEFAULT_TOAST_DURATION = 5000;
export const MAX_TOASTS = 5;

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface Toast {
  id: string;
  type: ToastType;
  title: string;
  message?: string;
  duration: number;
  timestamp: number;
  action?: ToastAction;
  /**
   * One of a kind: a new toast with the same key replaces the one shown (a limit reached by two
   * sends in a row is said once, not stacked).
   */
  key?: string;
}

export type ToastInput = Omit<Toast, 'id' | 'timestamp' | 'duration'> & { duration?: number };

export function durationFor(type: ToastType): number {
  return TOAST_DURATIONS[type] ?? DEFAULT_TOAST_DURATION;
}

/**
 * The newest toast goes on top; older ones beyond the cap fall off the bottom. A keyed toast
 * replaces any shown with its key.
 */
export function pushToast(list: readonly Toast[], toast: Toast, cap: number = MAX_TOASTS): Toast[] {
  const rest = toast.key === undefined ? list : list.filter((t) => t.key !== toast.key);
  return [toast, ...rest].slice(0, Math.max(0, cap));
}

export function removeToast(list: readonly Toast[], id: string): Toast[] {
  return list.filter((t) => t.id !== id);
}

export function makeToast(input: ToastInput, id: string, now: number): Toast {
  return { ...input, id, timestamp: now, duration: input.duration ?? durationFor(input.type) };
}

/** "just now" under a minute, then whole minutes, hours and days. */
export function timeLabel(timestamp: number, now: number): string {
  const elapsed = Math.max(0, now - timestamp);
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  return `${Math.floor(elapsed / DAY)}d ago`;
}
