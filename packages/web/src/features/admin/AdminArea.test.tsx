import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminArea } from './AdminArea.tsx';
import { setStaffSession } from './session.ts';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function start(path: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/admin/*" element={<AdminArea />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const me = (role: string, permissions: string[] | null = null) => ({
  userId: 'u1',
  email: 'staff@example.com',
  role,
  permissions,
  totpEnabled: true,
  recoveryCodesLeft: 10,
});

function serveMe(body: object, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (String(url).endsWith('/admin/me'))
        return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      return new Response(JSON.stringify({ error: 'x', message: 'nope' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

afterEach(() => {
  cleanup();
  setStaffSession(null);
  vi.unstubAllGlobals();
});

describe('the staff area', () => {
  it('sends /admin/* to /admin/login without a staff session', async () => {
    start('/admin/users');
    expect(await screen.findByRole('heading', { name: 'FMK Admin' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/admin/login');
  });

  it('sends a refused staff session to /admin/login and forgets it', async () => {
    setStaffSession({ token: 't', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    serveMe({ error: 'unauthenticated', message: 'Staff sign-in required' }, 401);
    start('/admin/dashboard');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/admin/login');
  });

  it('shows a moderator only what he may use, and sends /admin to his first screen', async () => {
    setStaffSession({ token: 't', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    serveMe(me('moderator'));
    start('/admin');
    const nav = await screen.findAllByRole('navigation', { name: 'Admin' });
    const labels = [...nav[0]!.querySelectorAll('a')].map((a) => a.textContent);
    expect(labels).toEqual([
      'Dashboard',
      'Analytics',
      'Users',
      'Banned',
      'Reports',
      'Report triage',
      'Reported messages',
      'Photos',
      'Locations',
      'Support',
      'Bugs & feedback',
      'Subscriptions',
      'Pricing',
      'Limits',
      'My account',
    ]);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/admin/dashboard'));
  });

  it('follows an explicit permissions list, and turns away a screen it does not allow', async () => {
    setStaffSession({ token: 't', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    serveMe(me('owner', ['audit_logs.view']));
    start('/admin/users');
    const nav = await screen.findAllByRole('navigation', { name: 'Admin' });
    expect([...nav[0]!.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Audit log', 'My account']);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/admin/system/audit'));
  });
});
