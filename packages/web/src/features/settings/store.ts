import type { Settings, SettingsPatch } from '@fmk/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { applyPatch } from './local.ts';
import { hasPending, mergePatch, notifyPending, readPending, subscribePending, writeKnown, writePending } from './pending.ts';

export const settingsKeys = { all: ['settings'] as const, mine: () => ['settings', 'mine'] as const };

/** The server said no (a 4xx): the local copy must not pretend otherwise. */
const isRefusal = (e: unknown): e is ApiError => e instanceof ApiError && e.status < 500;

/** GET /me/settings, with any change still waiting to sync applied over it. */
export function useSettingsQuery() {
  return useQuery({
    queryKey: settingsKeys.mine(),
    queryFn: async () => {
      const s = await call('GET /me/settings');
      writeKnown(s);
      const pending = readPending();
      return pending ? applyPatch(s, pending) : s;
    },
  });
}

/** Whether a change is kept on this device, waiting for the server ('Saved on this device, will sync'). */
export function usePendingSettings(): boolean {
  return useSyncExternalStore(subscribePending, hasPending, () => false);
}

/** Sends what waits under appSettings; true when nothing waits any more. */
async function flush(queryClient: ReturnType<typeof useQueryClient>, onRefused: (message: string) => void): Promise<boolean> {
  const pending = readPending();
  if (!pending) return true;
  try {
    const saved = await call('PATCH /me/settings', { body: pending });
    // Saved unless another change arrived meanwhile: that one waits for the next flush.
    if (JSON.stringify(readPending()) === JSON.stringify(pending)) writePending(null);
    writeKnown(saved);
    queryClient.setQueryData(settingsKeys.mine(), readPending() ? applyPatch(saved, readPending()!) : saved);
    notifyPending();
    return readPending() === null;
  } catch (e) {
    if (!isRefusal(e)) return false;
    // Refused (a Premium control after a downgrade, a change the server no longer takes): drop it.
    writePending(null);
    notifyPending();
    onRefused(e.message);
    void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    return true;
  }
}

/**
 * Saving a change: shown at once (optimistic), then sent. When it cannot reach the server
 * (offline, a 5xx) the change is kept under appSettings and shown as saved on this device; a
 * refusal (4xx: the Premium gate, bad input) puts the screen back and says why.
 */
export function useSaveSettings(): (patch: SettingsPatch) => Promise<void> {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useCallback(
    async (patch: SettingsPatch) => {
      const before = queryClient.getQueryData<Settings>(settingsKeys.mine());
      if (before) queryClient.setQueryData(settingsKeys.mine(), applyPatch(before, patch));
      const waiting = readPending();
      if (waiting || !navigator.onLine) {
        // Behind a change already waiting, or offline: keep it in order, sync later.
        writePending(mergePatch(waiting ?? {}, patch));
        notifyPending();
        if (navigator.onLine) await flush(queryClient, (m) => toast.error(m));
        return;
      }
      try {
        const saved = await call('PATCH /me/settings', { body: patch });
        writeKnown(saved);
        queryClient.setQueryData(settingsKeys.mine(), saved);
      } catch (e) {
        if (isRefusal(e)) {
          if (before) queryClient.setQueryData(settingsKeys.mine(), before);
          toast.error(e.message);
          return;
        }
        writePending(mergePatch(readPending() ?? {}, patch));
        notifyPending();
      }
    },
    [queryClient, toast],
  );
}

const RETRY_MS = 30_000;

/**
 * Syncs a change kept on this device when the server answers again: at once, when the browser
 * is back online, and every 30 s while one waits. Mounted once in the app.
 */
export function useSettingsSync(enabled: boolean): void {
  const queryClient = useQueryClient();
  const toast = useToast();
  const pending = usePendingSettings();
  useEffect(() => {
    if (!enabled || !pending) return;
    const run = () => {
      if (navigator.onLine) void flush(queryClient, (m) => toast.error(m));
    };
    run();
    window.addEventListener('online', run);
    const timer = setInterval(run, RETRY_MS);
    return () => {
      window.removeEventListener('online', run);
      clearInterval(timer);
    };
  }, [enabled, pending, queryClient, toast]);
}
