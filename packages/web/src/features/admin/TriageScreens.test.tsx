import type { EvidenceMessage, SafetyFlag, StaffUserReport } from '@fmk/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminArea } from './AdminArea.tsx';
import { setStaffSession } from './session.ts';

const report = (id: string, extra: Partial<StaffUserReport> = {}): StaffUserReport => ({
  id,
  reportedUserId: `him-${id}`,
  reporterId: `rep-${id}`,
  reason: `Reason ${id}`,
  category: 'harassment',
  description: '',
  status: 'pending',
  screenshots: [],
  messages: [],
  blocked: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...extra,
});

const evidence = (id: string, extra: Partial<EvidenceMessage> = {}): EvidenceMessage => ({
  id,
  fromReported: true,
  type: 'text',
  content: `Line ${id}`,
  sentAt: '2026-11-20T09:00:00.000Z',
  reportId: 'r1',
  reportStatus: 'pending',
  reportCategory: 'harassment',
  reportedUserId: 'him',
  reporterId: 'rep',
  ...extra,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server as the browser meets it: /admin/me for the role and the given routes by path; every call recorded. */
function serve(role: string, routes: Record<string, (url: URL) => Response>) {
  const calls: { method: string; url: URL }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push({ method: init?.method ?? 'GET', url });
      if (url.pathname.endsWith('/admin/me'))
        return json({ userId: 'u1', email: 's@example.com', role, permissions: null, totpEnabled: true, recoveryCodesLeft: 10 });
      const hit = Object.entries(routes).find(([p]) => url.pathname.endsWith(p));
      return hit ? hit[1](url) : json({ error: 'x', message: 'nope' }, 500);
    }),
  );
  return calls;
}

function start(path: string) {
  setStaffSession({ token: 't', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
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

describe('the reports triage screen', () => {
  const flag: SafetyFlag = {
    id: 'f1',
    userId: 'bad',
    kind: 'suspicious_behavior',
    reporters: 3,
    status: 'open',
    createdAt: '2026-11-21T10:00:00.000Z',
  };

  it('opens on every report with the suspicious-behaviour items, searches, pages and switches status', async () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      report(`r${i}`, i === 3 ? { category: 'scam', reason: 'Asked for money' } : {}),
    );
    const calls = serve('moderator', {
      '/admin/reports': (url) => json(url.searchParams.get('status') === 'dismissed' ? [] : many),
      '/admin/safety/flags': () => json([flag]),
    });
    start('/admin/reports');
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeTruthy();
    const [item] = await screen.findAllByTestId('safety-flag');
    expect(item!.textContent).toMatch(/reported by 3 members within a week · open/);
    expect(within(item!).getByRole('link', { name: 'member' }).getAttribute('href')).toBe('/admin/users/bad');
    expect(screen.getByRole('tab', { name: 'all' }).getAttribute('aria-selected')).toBe('true');
    expect(calls.find((c) => c.url.pathname.endsWith('/admin/reports'))?.url.searchParams.has('status')).toBe(false);

    expect(await screen.findAllByTestId('report')).toHaveLength(20);
    expect(screen.getByText(/25 in all · page 1 of 2/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getAllByTestId('report')).toHaveLength(5);

    fireEvent.change(screen.getByLabelText('Search reports'), { target: { value: 'money' } });
    const found = screen.getAllByTestId('report');
    expect(found).toHaveLength(1);
    expect(found[0]!.textContent).toMatch(/scam · Asked for money/);

    fireEvent.click(screen.getByRole('tab', { name: 'dismissed' }));
    expect(await screen.findByText('No dismissed reports')).toBeTruthy();
    expect(calls.some((c) => c.url.searchParams.get('status') === 'dismissed')).toBe(true);
  });

  it('says when nothing is suspicious, and offers to try again when the reports fail', async () => {
    serve('moderator', {
      '/admin/reports': () => json({ error: 'x', message: 'Server down' }, 500),
      '/admin/safety/flags': () => json([]),
    });
    start('/admin/reports');
    expect(await screen.findByText('Nothing suspicious')).toBeTruthy();
    expect(await screen.findByText('Could not load reports')).toBeTruthy();
  });
});

describe('the reported messages screen', () => {
  it('lists the evidence with its report and pages through it', async () => {
    const calls = serve('moderator', {
      '/admin/messages': (url) =>
        json({
          rows:
            url.searchParams.get('page') === '2'
              ? [evidence('m3', { fromReported: false, content: 'Please stop' })]
              : [evidence('m1'), evidence('m2', { type: 'photo', content: 'photo-key' })],
          total: 51,
          page: Number(url.searchParams.get('page') ?? 1),
          pageSize: 50,
        }),
    });
    start('/admin/messages');
    expect(await screen.findByRole('heading', { name: 'Reported messages', level: 1 })).toBeTruthy();
    const rows = await screen.findAllByTestId('evidence');
    expect(rows.map((r) => r.firstElementChild?.textContent)).toEqual(['Line m1', '[photo]']);
    expect(within(rows[0]!).getByRole('link', { name: 'Reported member' }).getAttribute('href')).toBe('/admin/users/him');
    expect(rows[0]!.textContent).toMatch(/harassment · pending/);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Please stop')).toBeTruthy());
    expect(within(screen.getByTestId('evidence')).getByRole('link', { name: 'Reporter' }).getAttribute('href')).toBe(
      '/admin/users/rep',
    );
    expect(calls.some((c) => c.url.searchParams.get('page') === '2')).toBe(true);
  });

  it('says so when no message was reported', async () => {
    serve('moderator', { '/admin/messages': () => json({ rows: [], total: 0, page: 1, pageSize: 50 }) });
    start('/admin/messages');
    expect(await screen.findByText('No reported messages')).toBeTruthy();
  });
});
