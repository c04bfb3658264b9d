import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminArea } from './AdminArea.tsx';
import { setStaffSession } from './session.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const member = (name: string, tier = 'free') => ({ uid: `u-${name}`, anonymousId: `anon-${name}`, displayName: name, tier });
const thread = (id: string, subject: string, priority: boolean, extra: object = {}) => ({
  id,
  subject,
  status: 'open',
  priority,
  unread: 1,
  lastMessageAt: '2026-11-20T10:00:00.000Z',
  createdAt: '2026-11-20T09:00:00.000Z',
  member: member(priority ? 'Plat' : 'Fred', priority ? 'platinum' : 'free'),
  ...extra,
});
const report = (id: string, kind: string, category: string, text: string, extra: object = {}) => ({
  id,
  kind,
  category,
  text,
  status: 'new',
  screenshot: null,
  appVersion: '1.4.2',
  browser: 'Firefox 140',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  member: member('Sam'),
  ...extra,
});
const prompt = (id: string, text: string, category: string, usageCount: number, likeCount: number, isActive = true) => ({
  id,
  text,
  category,
  isActive,
  usageCount,
  likeCount,
});

type Call = { method: string; url: URL; body: unknown; auth: string | null };

/** The server as the browser meets it: /admin/me for the role, the given routes, every call recorded. */
function serve(role: string, routes: (method: string, url: URL) => Response | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const headers = new Headers(init?.headers);
      calls.push({
        method,
        url,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
        auth: headers.get('authorization'),
      });
      if (url.pathname.endsWith('/admin/me'))
        return json({ userId: 'u1', email: 's@example.com', role, permissions: null, totpEnabled: true, recoveryCodesLeft: 10 });
      return routes(method, url) ?? json({ error: 'x', message: 'nope' }, 500);
    }),
  );
  return calls;
}

function start(path: string) {
  setStaffSession({ token: 'staff-token', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
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

describe('the support inbox', () => {
  it('lists conversations as the server orders them, marks Platinum as priority, filters and searches', async () => {
    const calls = serve('moderator', (_m, url) =>
      url.pathname.endsWith('/admin/support/threads')
        ? json([thread('t1', 'Cannot pay', true), thread('t2', 'Grid is empty', false)])
        : undefined,
    );
    start('/admin/support');
    const rows = await screen.findAllByTestId('thread');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^PriorityCannot pay/),
      expect.stringMatching(/^Grid is empty/),
    ]);
    expect(calls.find((c) => c.url.pathname.endsWith('/threads'))!.url.searchParams.get('status')).toBe('open');
    fireEvent.change(screen.getByLabelText('Search subject or member'), { target: { value: 'fred' } });
    expect(screen.getAllByTestId('thread').map((r) => r.textContent)).toEqual([expect.stringMatching(/^Grid is empty/)]);
    fireEvent.click(screen.getByRole('tab', { name: 'closed' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname.endsWith('/threads') && c.url.searchParams.get('status') === 'closed')).toBe(true),
    );
  });

  it('shows the empty state and the error state with Try again', async () => {
    serve('admin', () => json([]));
    start('/admin/support');
    expect(await screen.findByText('No conversations here')).toBeTruthy();
    cleanup();
    serve('admin', () => json({ error: 'x', message: 'Database down' }, 503));
    start('/admin/support');
    expect(await screen.findByText('Could not load support conversations')).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });

  it('opens a conversation, answers it and closes it', async () => {
    const detail = {
      ...thread('t1', 'Cannot pay', true),
      messages: [{ id: 'm1', from: 'member', text: 'My card is refused', createdAt: '2026-11-20T09:00:00.000Z' }],
    };
    const calls = serve('moderator', (method, url) => {
      if (url.pathname.endsWith('/admin/support/threads')) return json([thread('t1', 'Cannot pay', true)]);
      if (url.pathname.endsWith('/admin/support/threads/t1/messages') && method === 'POST') return json(detail, 201);
      if (url.pathname.endsWith('/admin/support/threads/t1'))
        return json(method === 'PATCH' ? { ...detail, status: 'closed' } : detail);
      return undefined;
    });
    start('/admin/support');
    fireEvent.click(await screen.findByRole('link', { name: /Cannot pay/ }));
    expect(await screen.findByText('My card is refused')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Your answer'), { target: { value: 'Try another card, please.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ text: 'Try another card, please.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close conversation' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ status: 'closed' }));
  });

  it('is not in the navigation of someone without reports.view', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) =>
        String(input).endsWith('/admin/me')
          ? json({
              userId: 'u1',
              email: 's@example.com',
              role: 'owner',
              permissions: ['prompts.view'],
              totpEnabled: true,
              recoveryCodesLeft: 10,
            })
          : json([]),
      ),
    );
    start('/admin/support');
    const nav = await screen.findAllByRole('navigation', { name: 'Admin' });
    expect([...nav[0]!.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Prompts', 'My account']);
  });
});

describe('bugs and feedback', () => {
  it('shows category, text, app version and browser, filters by kind, category and words, and changes a status', async () => {
    const calls = serve('admin', (method, url) => {
      if (url.pathname.endsWith('/admin/support/reports'))
        return json([
          report('r1', 'bug', 'messages', 'Messages do not load'),
          report('r2', 'feedback', 'grid', 'Love the grid', { member: member('Kim') }),
        ]);
      if (method === 'PATCH') return json(report('r1', 'bug', 'messages', 'Messages do not load', { status: 'in_review' }));
      return undefined;
    });
    start('/admin/feedback');
    const rows = await screen.findAllByTestId('feedback');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Bug · Messages and matches');
    expect(rows[0]!.textContent).toContain('app 1.4.2 · Firefox 140');
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'feedback' } });
    expect(screen.getAllByTestId('feedback').map((r) => r.textContent)).toEqual([expect.stringContaining('Love the grid')]);
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'messages' } });
    expect(screen.getAllByTestId('feedback')).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Search text or member'), { target: { value: 'kim' } });
    expect(screen.getByText('No report matches these filters.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText('Search text or member'), { target: { value: '' } });
    fireEvent.change(within(screen.getAllByTestId('feedback')[0]!).getByLabelText('Status'), {
      target: { value: 'in_review' },
    });
    await waitFor(() => {
      const patch = calls.find((c) => c.method === 'PATCH');
      expect(patch?.url.pathname).toBe('/api/v1/admin/support/reports/r1');
      expect(patch?.body).toEqual({ status: 'in_review' });
    });
  });

  it('fetches a private screenshot with the staff token', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:shot', revokeObjectURL: () => undefined }));
    const calls = serve('moderator', (_m, url) => {
      if (url.pathname.endsWith('/admin/support/reports'))
        return json([report('r1', 'bug', 'grid', 'Broken grid', { screenshot: { id: 's1', width: 10, height: 20 } })]);
      if (url.pathname.endsWith('/support/screenshots/s1')) return new Response(new Blob(['x']), { status: 200 });
      return undefined;
    });
    start('/admin/feedback');
    const img = await screen.findByRole('img', { name: 'Screenshot the member attached' });
    expect(img.getAttribute('src')).toBe('blob:shot');
    expect(calls.find((c) => c.url.pathname.endsWith('/support/screenshots/s1'))?.auth).toBe('Bearer staff-token');
  });
});

describe('prompts', () => {
  const analytics = {
    totalPrompts: 2,
    activePrompts: 1,
    totalUsage: 7,
    totalLikes: 3,
    topPrompts: [],
    byCategory: { fun: 1, about: 1 },
  };

  it('lists prompts with answers and likes, filters them, and creates, edits, deletes and seeds', async () => {
    vi.stubGlobal('confirm', () => true);
    const calls = serve('admin', (method, url) => {
      if (url.pathname.endsWith('/admin/prompts/analytics')) return json(analytics);
      if (url.pathname.endsWith('/admin/prompts/seed')) return json({ created: 3 });
      if (url.pathname.endsWith('/admin/prompts') && method === 'GET')
        return json([prompt('p1', 'My perfect Sunday', 'fun', 5, 2), prompt('p2', 'I grew up in', 'about', 2, 1, false)]);
      if (url.pathname.endsWith('/admin/prompts') && method === 'POST') return json(prompt('p3', 'New', 'fun', 0, 0), 201);
      if (method === 'PATCH') return json(prompt('p1', 'My perfect Saturday', 'fun', 5, 2));
      if (method === 'DELETE') return new Response(null, { status: 204 });
      return undefined;
    });
    start('/admin/prompts');
    const rows = await screen.findAllByTestId('prompt');
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent))).toEqual([
      ['My perfect Sunday', 'fun', 'Active', '5', '2'],
      ['I grew up in', 'about', 'Inactive', '2', '1'],
    ]);
    const stats = screen.getByRole('region', { name: 'Prompt analytics' });
    expect(stats.textContent).toContain('Answers7');
    expect(stats.textContent).toContain('Likes3');

    fireEvent.change(screen.getByLabelText('Shown to members'), { target: { value: 'inactive' } });
    expect(screen.getAllByTestId('prompt')).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Shown to members'), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText('Search prompts'), { target: { value: 'sunday' } });
    expect(screen.getAllByTestId('prompt')).toHaveLength(1);

    const create = screen.getByRole('form', { name: 'Create prompt' });
    fireEvent.change(within(create).getByLabelText('Prompt text'), { target: { value: 'Two truths and a lie' } });
    fireEvent.click(within(create).getByRole('button', { name: 'Create prompt' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/admin/prompts'))?.body).toEqual({
        text: 'Two truths and a lie',
        category: 'general',
        isActive: true,
      }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const edit = screen.getByRole('form', { name: 'Save' });
    fireEvent.change(within(edit).getByLabelText('Prompt text'), { target: { value: 'My perfect Saturday' } });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const patch = calls.find((c) => c.method === 'PATCH');
      expect(patch?.url.pathname).toBe('/api/v1/admin/prompts/p1');
      expect(patch?.body).toEqual({ text: 'My perfect Saturday', category: 'fun', isActive: true });
    });

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.url.pathname).toBe('/api/v1/admin/prompts/p1'));

    fireEvent.click(screen.getByRole('button', { name: 'Add missing starter prompts' }));
    expect(await screen.findByText('3 starter prompt(s) created.')).toBeTruthy();
  });

  it('shows the server refusal of a write, and the empty state', async () => {
    serve('admin', (method, url) => {
      if (url.pathname.endsWith('/admin/prompts/analytics')) return json({ ...analytics, totalPrompts: 0 });
      if (url.pathname.endsWith('/admin/prompts') && method === 'GET') return json([]);
      if (method === 'POST') return json({ error: 'validation_error', message: 'Write the prompt text.' }, 400);
      return undefined;
    });
    start('/admin/prompts');
    expect(await screen.findByText('No prompts yet')).toBeTruthy();
    const create = screen.getByRole('form', { name: 'Create prompt' });
    fireEvent.change(within(create).getByLabelText('Prompt text'), { target: { value: 'x' } });
    fireEvent.click(within(create).getByRole('button', { name: 'Create prompt' }));
    expect(await screen.findByText('Write the prompt text.')).toBeTruthy();
  });
});
