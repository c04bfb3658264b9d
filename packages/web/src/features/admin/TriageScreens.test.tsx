import type { EvidenceMessage, ModerationItem, SafetyFlag, StaffUserReport } from '@fmk/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

afterEach(resetAdmin);

const report = (id: string, extra: Partial<StaffUserReport> = {}): StaffUserReport => ({
  id,
  reportedUserId: `him-${id}`,
  reporterId: `rep-${id}`,
  reporter: { displayName: `Reporter ${id}`, anonymousId: `anon_rep${id}` },
  reportedUser: { displayName: null, anonymousId: `anon_him${id}` },
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

const item = (id: string, extra: Partial<ModerationItem> = {}): ModerationItem => ({
  id,
  contentType: 'profile_photo',
  contentId: `c-${id}`,
  userId: 'u-owner',
  url: `/files/photos/u/${id}.webp`,
  photoPath: null,
  reported: null,
  status: 'approved',
  flaggedReason: null,
  confidence: 0.01,
  aiAnalysis: { nudity: 0.01, violence: null, hate_speech: 0, spam: 0, underage: 0 },
  moderatorId: null,
  moderatorNotes: null,
  timestamp: '2026-11-20T09:00:00.000Z',
  reviewedAt: null,
  ...extra,
});

const page = <T,>(rows: T[], total: number, pageSize = 20) => ({ rows, total, page: 1, pageSize });

/** Object URLs for the pictures fetched with the staff token. */
function blobUrls() {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:photo', revokeObjectURL: () => undefined }));
}

describe('the reports triage screen', () => {
  const flag: SafetyFlag = {
    id: 'f1',
    userId: 'bad',
    kind: 'suspicious_behavior',
    reporters: 3,
    status: 'open',
    createdAt: '2026-11-21T10:00:00.000Z',
  };

  it('opens on every report with the suspicious-behaviour items; status, category, words and pages go to the server', async () => {
    const calls = serveAdmin('moderator', (_m, url) => {
      if (url.pathname.endsWith('/admin/safety/flags')) return json([flag]);
      if (!url.pathname.endsWith('/admin/reports')) return undefined;
      const p = url.searchParams;
      if (p.get('status') === 'dismissed') return json(page([], 0));
      if (p.get('q') === 'money') return json(page([report('r3', { category: 'scam', reason: 'Asked for money' })], 1));
      return json(
        page(
          Array.from({ length: 20 }, (_, i) => report(`r${i}`)),
          25,
        ),
      );
    });
    startAdmin('/admin/reports');
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeTruthy();
    const [flagged] = await screen.findAllByTestId('safety-flag');
    expect(flagged!.textContent).toMatch(/reported by 3 members within a week · open/);
    expect(within(flagged!).getByRole('link', { name: 'member' }).getAttribute('href')).toBe('/admin/users/bad');
    expect(screen.getByRole('tab', { name: 'all' }).getAttribute('aria-selected')).toBe('true');
    const sent = () => calls.filter((c) => c.url.pathname.endsWith('/admin/reports')).map((c) => c.url.searchParams);
    expect(sent()[0]!.has('status')).toBe(false);

    const cards = await screen.findAllByTestId('report');
    expect(cards).toHaveLength(20);
    // Both members by name, else by anonymous id, each linked to his record.
    expect(within(cards[0]!).getByRole('link', { name: 'anon_himr0' }).getAttribute('href')).toBe('/admin/users/him-r0');
    expect(within(cards[0]!).getByRole('link', { name: 'Reporter r0' }).getAttribute('href')).toBe('/admin/users/rep-r0');
    expect(screen.getByText(/25 in all · page 1 of 2/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(sent().at(-1)!.get('page')).toBe('2'));

    fireEvent.change(screen.getByLabelText('Search reports'), { target: { value: 'money' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getAllByTestId('report')).toHaveLength(1));
    expect(screen.getByTestId('report').textContent).toMatch(/scam · Asked for money/);
    expect(sent().at(-1)!.get('page')).toBe('1');
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'scam' } });
    await waitFor(() => expect(sent().at(-1)!.get('category')).toBe('scam'));

    fireEvent.click(screen.getByRole('tab', { name: 'dismissed' }));
    expect(await screen.findByText('No report matches')).toBeTruthy();
    expect(sent().at(-1)!.get('status')).toBe('dismissed');
  });

  it('shows the evidence: messages, a reported photo and the screenshots, each fetched with the staff token', async () => {
    blobUrls();
    const calls = serveAdmin('moderator', (_m, url) => {
      if (url.pathname.endsWith('/admin/reports'))
        return json(
          page(
            [
              report('r1', {
                messages: [
                  {
                    id: 'm1',
                    fromReported: true,
                    type: 'text',
                    content: 'You will regret it',
                    sentAt: '2026-11-20T09:00:00.000Z',
                  },
                  { id: 'm2', fromReported: true, type: 'photo', content: '', photoId: 'p1', sentAt: '2026-11-20T09:01:00.000Z' },
                ],
                screenshots: [{ id: 's1', width: 390, height: 844 }],
              }),
            ],
            1,
          ),
        );
      if (url.pathname.endsWith('/admin/messages/photos/p1') || url.pathname.endsWith('/reports/screenshots/s1'))
        return new Response(new Blob(['x']), { status: 200 });
      return undefined;
    });
    startAdmin('/admin/users/reports');
    expect(await screen.findByText('You will regret it')).toBeTruthy();
    expect((await screen.findByRole('img', { name: 'Reported chat photo' })).getAttribute('src')).toBe('blob:photo');
    expect(await screen.findByRole('img', { name: 'Screenshot 1 the reporter attached' })).toBeTruthy();
    for (const path of ['/admin/messages/photos/p1', '/reports/screenshots/s1'])
      expect(calls.find((c) => c.url.pathname.endsWith(path))?.auth, path).toBe('Bearer staff-token');
  });

  it('lets someone with reports.view only read, without the actions', async () => {
    serveAdmin('moderator', (_m, url) => (url.pathname.endsWith('/admin/reports') ? json(page([report('r1')], 1)) : undefined), {
      permissions: ['reports.view'],
    });
    startAdmin('/admin/users/reports');
    expect(await screen.findByTestId('report')).toBeTruthy();
    for (const name of ['Mark reviewed', 'Dismiss', 'Ban him']) expect(screen.queryByRole('button', { name }), name).toBeNull();
  });

  it('says when nothing is suspicious, and offers to try again when the reports fail', async () => {
    serveAdmin('moderator', (_m, url) => {
      if (url.pathname.endsWith('/admin/reports')) return json({ error: 'x', message: 'Server down' }, 500);
      if (url.pathname.endsWith('/admin/safety/flags')) return json([]);
      return undefined;
    });
    startAdmin('/admin/reports');
    expect(await screen.findByText('Nothing suspicious')).toBeTruthy();
    expect(await screen.findByText('Could not load reports')).toBeTruthy();
  });
});

describe('the reported messages screen', () => {
  it('lists the evidence with its report and pages through it', async () => {
    blobUrls();
    const calls = serveAdmin('moderator', (_m, url) => {
      if (url.pathname.endsWith('/admin/messages/photos/p9')) return new Response(new Blob(['x']), { status: 200 });
      if (!url.pathname.endsWith('/admin/messages')) return undefined;
      return json({
        rows:
          url.searchParams.get('page') === '2'
            ? [evidence('m3', { fromReported: false, content: 'Please stop' })]
            : [
                evidence('m1'),
                evidence('m2', { type: 'photo', content: '', photoId: 'p9' }),
                evidence('m4', { type: 'photo', content: '' }),
              ],
        total: 51,
        page: Number(url.searchParams.get('page') ?? 1),
        pageSize: 50,
      });
    });
    startAdmin('/admin/messages');
    expect(await screen.findByRole('heading', { name: 'Reported messages', level: 1 })).toBeTruthy();
    const rows = await screen.findAllByTestId('evidence');
    expect(rows[0]!.firstElementChild?.textContent).toBe('Line m1');
    expect(await within(rows[1]!).findByRole('img', { name: 'Reported chat photo' })).toBeTruthy();
    expect(rows[2]!.firstElementChild?.textContent).toBe('Photo (removed)');
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
    serveAdmin('moderator', (_m, url) =>
      url.pathname.endsWith('/admin/messages') ? json({ rows: [], total: 0, page: 1, pageSize: 50 }) : undefined,
    );
    startAdmin('/admin/messages');
    expect(await screen.findByText('No reported messages')).toBeTruthy();
  });
});

describe('the photo queues', () => {
  it('has a screen per queue; a reported chat photo comes with the staff token, another chat photo is not shown', async () => {
    blobUrls();
    const calls = serveAdmin('moderator', (_m, url) => {
      if (url.pathname.endsWith('/admin/moderation/items/i2/photo')) return new Response(new Blob(['x']), { status: 200 });
      if (!url.pathname.endsWith('/admin/moderation/items')) return undefined;
      if (url.searchParams.get('status') === 'rejected')
        return json(page([item('i4', { status: 'rejected', url: null })], 1, 50));
      return json(
        page(
          [
            item('i1'),
            item('i2', { contentType: 'chat_photo', url: null, photoPath: '/admin/moderation/items/i2/photo', reported: true }),
            item('i3', { contentType: 'chat_photo', url: null, reported: false }),
          ],
          3,
          50,
        ),
      );
    });
    startAdmin('/admin/content/approved');
    expect(await screen.findByRole('heading', { name: 'Approved photos', level: 1 })).toBeTruthy();
    const cards = await screen.findAllByTestId('moderation-item');
    expect(within(cards[0]!).getByRole('img', { name: 'Reviewed profile photo' }).getAttribute('src')).toBe(
      '/files/photos/u/i1.webp',
    );
    expect((await within(cards[1]!).findByRole('img', { name: 'Reported chat photo' })).getAttribute('src')).toBe('blob:photo');
    expect(calls.find((c) => c.url.pathname.endsWith('/items/i2/photo'))?.auth).toBe('Bearer staff-token');
    expect(cards[2]!.textContent).toContain('Private chat photo: no report holds it, so it is not shown.');
    expect(calls.some((c) => c.url.pathname.endsWith('/items/i3/photo'))).toBe(false);
    expect(screen.getByRole('link', { name: 'approved' }).getAttribute('aria-current')).toBe('page');

    fireEvent.click(screen.getByRole('link', { name: 'rejected' }));
    expect(await screen.findByRole('heading', { name: 'Rejected photos', level: 1 })).toBeTruthy();
    expect((await screen.findByTestId('moderation-item')).textContent).toContain('Removed');
    expect(calls.some((c) => c.url.searchParams.get('status') === 'rejected')).toBe(true);
  });

  it('pages a decided queue through the server, and starts each queue at page 1', async () => {
    const calls = serveAdmin('moderator', (_m, url) => {
      if (!url.pathname.endsWith('/admin/moderation/items')) return undefined;
      const n = Number(url.searchParams.get('page') ?? 1);
      const status = url.searchParams.get('status') as 'approved' | 'rejected';
      return json({ rows: [item(`${status}-${n}`, { status, moderatorNotes: `page ${n}` })], total: 51, page: n, pageSize: 50 });
    });
    const sent = () => calls.filter((c) => c.url.pathname.endsWith('/admin/moderation/items')).map((c) => c.url.searchParams);
    startAdmin('/admin/content/approved');
    expect((await screen.findByTestId('moderation-item')).textContent).toContain('page 1');
    expect(screen.getByText('51 in all · page 1 of 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('51 in all · page 2 of 2')).toBeTruthy();
    expect(screen.getByTestId('moderation-item').textContent).toContain('page 2');
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
    expect(sent().at(-1)!.get('status')).toBe('approved');

    fireEvent.click(screen.getByRole('link', { name: 'rejected' }));
    expect(await screen.findByText('51 in all · page 1 of 2')).toBeTruthy();
    expect(Object.fromEntries(sent().at(-1)!)).toEqual({ status: 'rejected', page: '1' });
  });
});
