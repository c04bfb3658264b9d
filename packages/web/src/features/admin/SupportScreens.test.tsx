import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, resetAdmin, serveAdmin as serve, startAdmin as start } from './admin-test-kit.tsx';

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
/** A page of a staff list as the server sends it. */
const page = (rows: object[], total: number) => ({ rows, total, page: 1, pageSize: 25 });
const prompt = (id: string, text: string, category: string, usageCount: number, likeCount: number, isActive = true) => ({
  id,
  text,
  category,
  isActive,
  usageCount,
  likeCount,
});

afterEach(resetAdmin);

describe('the support inbox', () => {
  it('lists conversations as the server orders them, marks Platinum as priority; status, tier, words and pages go to the server', async () => {
    const calls = serve('moderator', (_m, url) =>
      url.pathname.endsWith('/admin/support/threads')
        ? json(
            url.searchParams.get('q') === 'fred'
              ? page([thread('t2', 'Grid is empty', false)], 1)
              : page([thread('t1', 'Cannot pay', true), thread('t2', 'Grid is empty', false)], 27),
          )
        : undefined,
    );
    start('/admin/support');
    const rows = await screen.findAllByTestId('thread');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^PriorityCannot pay/),
      expect.stringMatching(/^Grid is empty/),
    ]);
    const sent = () => calls.filter((c) => c.url.pathname.endsWith('/threads')).map((c) => c.url.searchParams);
    expect(sent()[0]!.get('status')).toBe('open');
    expect(screen.getByText(/27 in all · page 1 of 2/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(sent().some((p) => p.get('page') === '2')).toBe(true));
    fireEvent.change(screen.getByLabelText('Search subject or member'), { target: { value: 'fred' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getAllByTestId('thread')).toHaveLength(1));
    expect(sent().at(-1)!.get('page')).toBe('1');
    fireEvent.change(screen.getByLabelText('Tier'), { target: { value: 'platinum' } });
    await waitFor(() => expect(sent().at(-1)!.get('tier')).toBe('platinum'));
    fireEvent.click(screen.getByRole('tab', { name: 'closed' }));
    await waitFor(() => expect(sent().at(-1)!.get('status')).toBe('closed'));
    expect(sent().at(-1)!.get('q')).toBe('fred');
  });

  it('shows the empty state, a no-match state and the error state with Try again', async () => {
    serve('admin', () => json(page([], 0)));
    start('/admin/support');
    expect(await screen.findByText('No conversations here')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search subject or member'), { target: { value: 'zebra' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No conversation matches')).toBeTruthy();
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
      if (url.pathname.endsWith('/admin/support/threads')) return json(page([thread('t1', 'Cannot pay', true)], 1));
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
    serve('owner', () => json(page([], 0)), { permissions: ['prompts.view'] });
    start('/admin/support');
    const nav = await screen.findAllByRole('navigation', { name: 'Admin' });
    expect([...nav[0]!.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Prompts', 'My account']);
  });
});

describe('bugs and feedback', () => {
  it('shows category, text, app version and browser; kind, category and words go to the server; changes a status', async () => {
    const calls = serve('admin', (method, url) => {
      if (url.pathname.endsWith('/admin/support/reports'))
        return json(
          url.searchParams.get('kind') === 'feedback'
            ? page([report('r2', 'feedback', 'grid', 'Love the grid', { member: member('Kim') })], 1)
            : page(
                [
                  report('r1', 'bug', 'messages', 'Messages do not load'),
                  report('r2', 'feedback', 'grid', 'Love the grid', { member: member('Kim') }),
                ],
                2,
              ),
        );
      if (method === 'PATCH') return json(report('r1', 'bug', 'messages', 'Messages do not load', { status: 'in_review' }));
      return undefined;
    });
    start('/admin/feedback');
    const rows = await screen.findAllByTestId('feedback');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Bug · Messages and matches');
    expect(rows[0]!.textContent).toContain('app 1.4.2 · Firefox 140');
    const sent = () => calls.filter((c) => c.url.pathname.endsWith('/support/reports')).map((c) => c.url.searchParams);
    expect(sent()[0]!.get('status')).toBe('new');
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'feedback' } });
    await waitFor(() =>
      expect(screen.getAllByTestId('feedback').map((r) => r.textContent)).toEqual([expect.stringContaining('Love the grid')]),
    );
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'grid' } });
    fireEvent.change(screen.getByLabelText('Search text or member'), { target: { value: 'kim' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => {
      const last = sent().at(-1)!;
      expect([last.get('kind'), last.get('category'), last.get('q'), last.get('page')]).toEqual(['feedback', 'grid', 'kim', '1']);
    });
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: '' } });
    await waitFor(() => expect(screen.getAllByTestId('feedback')).toHaveLength(2));
    fireEvent.change(within(screen.getAllByTestId('feedback')[0]!).getByLabelText('Status'), {
      target: { value: 'in_review' },
    });
    await waitFor(() => {
      const patch = calls.find((c) => c.method === 'PATCH');
      expect(patch?.url.pathname).toBe('/api/v1/admin/support/reports/r1');
      expect(patch?.body).toEqual({ status: 'in_review' });
    });
  });

  it('says when no report matches the filters', async () => {
    serve('admin', (_m, url) => (url.pathname.endsWith('/admin/support/reports') ? json(page([], 0)) : undefined));
    start('/admin/feedback');
    expect(await screen.findByText('No reports here')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'bug' } });
    expect(await screen.findByText('No report matches these filters')).toBeTruthy();
  });

  it('fetches a private screenshot with the staff token', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:shot', revokeObjectURL: () => undefined }));
    const calls = serve('moderator', (_m, url) => {
      if (url.pathname.endsWith('/admin/support/reports'))
        return json(page([report('r1', 'bug', 'grid', 'Broken grid', { screenshot: { id: 's1', width: 10, height: 20 } })], 1));
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
