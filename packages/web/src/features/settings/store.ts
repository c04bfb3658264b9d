import type { Me, Settings, SettingsPatch } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import { settingsKeys } from '../../shared/queryKeys.ts';
import { SESSION_CHANGED } from '../../shared/sessionEvents.ts';
import { applyPatch } from '../../shared/settings.ts';
import {
  type HubPatch,
  hasPending,
  mergePatch,
  notifyPending,
  readPending,
  readPendingMe,
  subscribePending,
  withPendingMe,
  writeKnown,
  writePending,
  writePendingMe,
} from '../../shared/settingsLocal.ts';
import { storeAppPreferences } from '../../shared/usePreferences.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

export { useMySettingsQuery as useSettingsQuery } from '../../shared/settings.ts';

/** The server said no (a 4xx): the local copy must not pretend otherwise. */
const isRefusal = (e: unknown): e is ApiError => e instanceof ApiError && e.status < 500;

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

/** Shows a user record here: the session's user and the app preferences every screen reads. */
function useApplyMe(): (me: Me) => void {
  const { updateUser } = useAuth();
  const ref = useRef(updateUser);
  ref.current = updateUser;
  return useCallback((me: Me) => {
    ref.current(me);
    storeAppPreferences(me.appPreferences);
  }, []);
}

/** Sends the hub's change waiting under appSettings (PATCH /me); true when nothing waits any more. */
async function flushMe(uid: string, apply: (me: Me) => void, onRefused: (message: string) => void): Promise<boolean> {
  const pending = readPendingMe(uid);
  if (!pending) return true;
  try {
    const saved = await call('PATCH /me', { body: pending });
    // Saved unless another change arrived meanwhile: that one waits for the next flush.
    if (JSON.stringify(readPendingMe(uid)) === JSON.stringify(pending)) writePendingMe(uid, null);
    apply(withPendingMe(saved));
    notifyPending();
    return readPendingMe(uid) === null;
  } catch (e) {
    if (!isRefusal(e)) return false;
    // Refused (a Premium control after a downgrade, a value the server no longer takes): drop
    // it and show the record the server keeps again.
    writePendingMe(uid, null);
    notifyPending();
    onRefused(e.message);
    window.dispatchEvent(new Event(SESSION_CHANGED));
    return true;
  }
}

/**
 * Saving one of the hub's settings (app mode and features, mode settings, units): PATCH /me,
 * shown at once, like useSaveSettings. When the server cannot be reached (offline, a 5xx) the
 * change is kept under appSettings, shown over the server's record until it syncs; a refusal
 * (4xx) puts the record back and says why.
 */
export function useSaveMe(): (patch: HubPatch) => Promise<void> {
  const { user } = useAuth();
  const apply = useApplyMe();
  const toast = useToast();
  // Two quick changes: the second builds on the first, not on the render's record.
  const latest = useRef(user);
  latest.current = user;
  return useCallback(
    async (patch: HubPatch) => {
      const before = latest.current;
      if (!before) return;
      const uid = before.uid;
      const shown = mergePatch(before, patch);
      latest.current = shown;
      apply(shown);
      const waiting = readPendingMe(uid);
      if (waiting || !navigator.onLine) {
        writePendingMe(uid, mergePatch(waiting ?? {}, patch));
        notifyPending();
        if (navigator.onLine) await flushMe(uid, apply, (m) => toast.error(m));
        return;
      }
      try {
        apply(withPendingMe(await call('PATCH /me', { body: patch })));
      } catch (e) {
        if (isRefusal(e)) {
          latest.current = before;
          apply(before);
          toast.error(e.message);
          return;
        }
        writePendingMe(uid, mergePatch(readPendingMe(uid) ?? {}, patch));
        notifyPending();
      }
    },
    [apply, toast],
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
  const { user } = useAuth();
  const apply = useApplyMe();
  const uid = user?.uid;
  useEffect(() => {
    if (!enabled || !pending) return;
    const run = () => {
      if (!navigator.onLine) return;
      void flush(queryClient, (m) => toast.error(m));
      if (uid) void flushMe(uid, apply, (m) => toast.error(m));
    };
    run();
    window.addEventListener('online', run);
    const timer = setInterval(run, RETRY_MS);
    return () => {
      window.removeEventListener('online', run);
      clearInterval(timer);
    };
  }, [enabled, pending, queryClient, toast, uid, apply]);
}
