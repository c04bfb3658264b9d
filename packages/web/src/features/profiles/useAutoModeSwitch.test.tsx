import { DEFAULT_MODE_SETTINGS, type Me } from '@fmk/core';
import { act, cleanup, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve } from '../../test/fixtures.tsx';
import { ToastProvider } from '../../ui/toast/ToastProvider.tsx';
import { useAutoModeSwitch } from './useAutoModeSwitch.ts';

const auto = (over: Partial<Me> = {}) => me({ modeSettings: { ...DEFAULT_MODE_SETTINGS, autoSwitchByTime: true }, ...over });
const flush = () => act(async () => await vi.advanceTimersByTimeAsync(0));

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(2030, 0, 1, 22, 0)); // local 22:00, outside 09:00–21:00
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useAutoModeSwitch', () => {
  it('switches on load and then at the first check after the window opens', async () => {
    let mode: 'dating' | 'now' = 'now';
    const calls = serve({ 'POST /api/v1/me/mode': () => json(200, auto({ currentMode: mode })) });
    const switched: Me[] = [];
    const { rerender } = renderHook(({ user }) => useAutoModeSwitch(user, (m) => switched.push(m)), {
      wrapper: ToastProvider,
      initialProps: { user: auto({ currentMode: 'dating' }) },
    });
    await flush();
    expect(calls.map((c) => c.body)).toEqual([{ mode: 'now', trigger: 'auto' }]);
    expect(switched.map((m) => m.currentMode)).toEqual(['now']);
    expect(screen.getByText('Switched to Hookup Mode')).toBeTruthy();
    expect(screen.getByText('Switched automatically: your dating hours are 09:00–21:00.')).toBeTruthy();
    rerender({ user: switched[0]! });

    // Nothing to do while the hour stays outside the window.
    await act(async () => await vi.advanceTimersByTimeAsync(60_000));
    expect(calls).toHaveLength(1);

    // 08:59:30 the next day: the check at 09:00:30 moves to dating.
    mode = 'dating';
    vi.setSystemTime(new Date(2030, 0, 2, 8, 59, 30));
    await act(async () => await vi.advanceTimersByTimeAsync(60_000));
    expect(calls.map((c) => c.body)).toEqual([
      { mode: 'now', trigger: 'auto' },
      { mode: 'dating', trigger: 'auto' },
    ]);
    expect(screen.getByText('Switched to Dating Mode')).toBeTruthy();
  });

  it('does nothing when auto switching is off', async () => {
    const calls = serve({});
    renderHook(() => useAutoModeSwitch(me({ currentMode: 'dating' }), () => {}), { wrapper: ToastProvider });
    await act(async () => await vi.advanceTimersByTimeAsync(5 * 60_000));
    expect(calls).toEqual([]);
  });

  it('follows a window that crosses midnight', async () => {
    const calls = serve({ 'POST /api/v1/me/mode': () => json(200, auto({ currentMode: 'dating' })) });
    const user = auto({
      currentMode: 'now',
      modeSettings: {
        ...DEFAULT_MODE_SETTINGS,
        autoSwitchByTime: true,
        timeBasedSwitching: { datingStart: '20:00', datingEnd: '02:00' },
      },
    });
    renderHook(() => useAutoModeSwitch(user, () => {}), { wrapper: ToastProvider });
    await flush();
    expect(calls.map((c) => c.body)).toEqual([{ mode: 'dating', trigger: 'auto' }]);
  });
});
