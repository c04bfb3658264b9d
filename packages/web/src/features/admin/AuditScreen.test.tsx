import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminArea } from './AdminArea.tsx';
import { setStaffSession } from './session.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const row = (i: number) => ({
  id: String(i),
  adminId: 'a1',
  adminEmail: 'owner@example.com',
  action: i % 2 ? 'ban_email' : 'change_tier',
  targetType: 'user',
  targetId: `u${i}`,
  anonymousId: null,
  reason: `reason ${i}`,
  ipAddress: '127.0.0.1',
  createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
});

/** The server as the browser meets it: 250 audit rows, served 100 a page; every audit request recorded. */
function serve(fail = false) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname.endsWith('/admin/me'))
        return json({
          userId: 'u1',
          email: 's@example.com',
          role: 'owner',
          permissions: null,
          totpEnabled: true,
          recoveryCodesLeft: 10,
        });
      if (url.pathname.endsWith('/admin/audit')) {
        asked.push(url);
        if (fail) return json({ error: 'x', message: 'The database is down.' }, 500);
        const page = Number(url.searchParams.get('page') ?? 1);
        const count = Math.min(100, 250 - (page - 1) * 100);
        return json({
          rows: Array.from({ length: count }, (_, i) => row((page - 1) * 100 + i)),
          total: 250,
          page,
          pageSize: 100,
          chain: { ok: true, rows: 250, brokenAt: null },
        });
      }
      return json({ error: 'x', message: 'nope' }, 404);
    }),
  );
  return asked;
}

function start() {
  setStaffSession({ token: 't', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={['/admin/system/audit']}>
        <Routes>
          <Route path="/admin/*" element={<AdminArea />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  setStaffSession(null);
  vi.unstubAllGlobals();
});

describe('the audit log', () => {
  it('shows 100 rows a page in the admin table, pages through the server and keeps its filters', async () => {
    const asked = serve();
    start();
    const table = await screen.findByRole('table', { name: 'Audit rows, newest first' });
    expect(within(table).getAllByRole('row')).toHaveLength(101);
    expect(screen.getByText('250 in all · page 1 of 3')).toBeTruthy();
    expect(screen.getByText('Hash chain intact (250 rows).')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'ban_email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByText('250 in all · page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('250 in all · page 2 of 3')).toBeTruthy();
    const last = asked[asked.length - 1]!;
    expect(last.searchParams.get('page')).toBe('2');
    expect(last.searchParams.get('action')).toBe('ban_email');
  });

  it('says when the log cannot be loaded', async () => {
    serve(true);
    start();
    expect(await screen.findByText('Could not load the audit log')).toBeTruthy();
  });
});
