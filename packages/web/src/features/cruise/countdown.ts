import { useEffect, useState } from 'react';

/**
 * Time left in a session, by the server's clock: the server said `serverTime` when the answer
 * left it (received at `receivedAt` on this device), so a phone whose clock is off still counts
 * down right. Never below zero.
 */
export function remainingMs(endsAt: string, serverTime: string, receivedAt: number, now: number): number {
  const serverNow = new Date(serverTime).getTime() + (now - receivedAt);
  return Math.max(0, new Date(endsAt).getTime() - serverNow);
}

/** "29:59", "0:05". */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** A re-render every second while `active`, with the device's time. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

/** "in 3 h", "tomorrow at 00:00", "Mon 10:00": when the next session may start. */
export function formatNextStart(iso: string, now: number = Date.now()): string {
  const d = new Date(iso);
  const mins = Math.round((d.getTime() - now) / 60_000);
  if (mins <= 0) return 'now';
  if (mins < 60) return `in ${mins} min`;
  if (mins < 24 * 60) return `in ${Math.round(mins / 60)} h`;
  return d.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
}
