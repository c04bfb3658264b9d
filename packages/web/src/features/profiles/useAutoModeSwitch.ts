import { AUTO_SWITCH_INTERVAL_MS, autoModeAt, type Me, modeSwitchToast } from '@fmk/core';
import { useEffect, useRef } from 'react';
import { call } from '../../api/call.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';

/**
 * Auto mode switching (spec section 4): with autoSwitchByTime on, on load and every 60 s the
 * local time decides — dating inside the dating window, hookup outside — and a change is sent
 * as an 'auto' switch with an info toast. A failed switch is tried again at the next check.
 */
export function useAutoModeSwitch(user: Me | null, onSwitched: (me: Me) => void, now: () => Date = () => new Date()): void {
  const toast = useToast();
  const latest = useRef({ user, onSwitched, now, toast });
  latest.current = { user, onSwitched, now, toast };
  const busy = useRef(false);

  const settings = user?.modeSettings;
  const enabled = settings?.autoSwitchByTime === true;
  const start = settings?.timeBasedSwitching.datingStart;
  const end = settings?.timeBasedSwitching.datingEnd;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new window restarts the checks at once
  useEffect(() => {
    if (!enabled) return;
    const check = async () => {
      const { user: u, onSwitched: done, now: clock, toast: t } = latest.current;
      if (!u || busy.current) return;
      const d = clock();
      const hours = u.modeSettings.timeBasedSwitching;
      const target = autoModeAt(d.getHours() * 60 + d.getMinutes(), hours);
      if (target === u.currentMode) return;
      busy.current = true;
      try {
        const me = await call('POST /me/mode', { body: { mode: target, trigger: 'auto' } });
        done(me);
        t.info(
          modeSwitchToast(target).title,
          `Switched automatically: your dating hours are ${hours.datingStart}–${hours.datingEnd}.`,
        );
      } catch {
        // Offline or refused: the next check tries again.
      } finally {
        busy.current = false;
      }
    };
    void check();
    const id = setInterval(() => void check(), AUTO_SWITCH_INTERVAL_MS);
    return () => clearInterval(id);
  }, [enabled, start, end]);
}
