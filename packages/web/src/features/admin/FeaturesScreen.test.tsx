import type { FeatureFlag } from '@fmk/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin as start } from './admin-test-kit.tsx';

const flag = (id: string, extra: Partial<FeatureFlag> = {}): FeatureFlag => ({
  id,
  isEnabled: true,
  isPremium: false,
  limit: null,
  minTier: 'free',
  tierLimits: null,
  ...extra,
});

/** The server as the browser meets it: /admin/me for the role, the flags and the beta settings; every call recorded. */
function serve(role: string, flags: () => Response, permissions: string[] | null = null) {
  return serveAdmin(
    role,
    (method, url, body) => {
      if (url.pathname.endsWith('/admin/features')) return flags();
      if (url.pathname.endsWith('/admin/system/settings'))
        return json({ enabled: true, maxUsers: 100, currentCount: 3, lifetimePremium: true, autoClose: true });
      if (method === 'PATCH') return json(flag('boost', body as Partial<FeatureFlag>));
      return undefined;
    },
    { permissions },
  );
}

afterEach(resetAdmin);

describe('the feature switches', () => {
  it('lists every flag on subscriptions/limits, and an owner switches one and sets a limit', async () => {
    const calls = serve('owner', () =>
      json({ flags: [flag('boost', { isPremium: true }), flag('advancedPrivacy', { isEnabled: false, limit: 2 })] }),
    );
    start('/admin/subscriptions/limits');
    expect(await screen.findByRole('heading', { name: 'Limits and feature flags', level: 1 })).toBeTruthy();
    const rows = await screen.findAllByTestId('flag');
    expect(rows.map((r) => r.firstElementChild?.textContent)).toEqual(['boost', 'advancedPrivacy']);
    expect(screen.getByLabelText<HTMLInputElement>('Premium: boost').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Enabled: advancedPrivacy').checked).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('Daily limit: advancedPrivacy').value).toBe('2');

    fireEvent.click(screen.getByLabelText('Enabled: boost'));
    await waitFor(() => {
      const patch = calls.find((c) => c.method === 'PATCH');
      expect(patch?.url.pathname).toBe('/api/v1/admin/features/boost');
      expect(patch?.body).toEqual({ isEnabled: false });
    });
    fireEvent.change(screen.getByLabelText('Daily limit: advancedPrivacy'), { target: { value: '5' } });
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.url.pathname.endsWith('/features/advancedPrivacy') && (c.body as { limit: number }).limit === 5),
      ).toBe(true),
    );
  });

  it('shows the switches on system/settings too, read-only without subscriptions.configure', async () => {
    const calls = serve('super_admin', () => json({ flags: [flag('boost')] }), ['system_admin.view', 'subscriptions.view']);
    start('/admin/system/settings');
    expect(await screen.findByRole('heading', { name: 'Beta settings', level: 1 })).toBeTruthy();
    const [row] = await screen.findAllByTestId('flag');
    expect(screen.getByLabelText<HTMLInputElement>('Enabled: boost').disabled).toBe(true);
    expect(within(row!).queryByRole('button')).toBeNull();
    expect(within(row!).getByText('unlimited')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('offers to try again when the list fails', async () => {
    serve('owner', () => json({ error: 'x', message: 'Server down' }, 500));
    start('/admin/subscriptions/limits');
    expect(await screen.findByText('Could not load the feature flags')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });
});
