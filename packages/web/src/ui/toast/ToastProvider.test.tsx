import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider, useToast } from './ToastProvider.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ToastProvider', () => {
  it('useToast outside the provider says so', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useToast())).toThrow('useToast must be used within a ToastProvider');
  });

  it('shows the newest toast on top, keeps at most 5, and dismisses each after its duration', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useToast(), { wrapper: ToastProvider });
    act(() => {
      for (let i = 1; i <= 6; i++) result.current.info(`Toast ${i}`);
    });
    const titles = () => Array.from(document.querySelectorAll('[data-toast-type] p:first-child')).map((p) => p.textContent);
    expect(titles()).toEqual(['Toast 6', 'Toast 5', 'Toast 4', 'Toast 3', 'Toast 2']);
    expect(screen.getAllByText('just now')).toHaveLength(5);
    act(() => {
      result.current.error('Failed');
    });
    // info lasts 4000 ms, error 6000 ms (plus the 200 ms slide-out).
    act(() => {
      vi.advanceTimersByTime(4300);
    });
    expect(titles()).toEqual(['Failed']);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(titles()).toEqual([]);
  });

  it('renders inside its children tree', () => {
    render(
      <ToastProvider>
        <p>child</p>
      </ToastProvider>,
    );
    expect(screen.getByText('child')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
  });
});
