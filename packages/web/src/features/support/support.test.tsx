import { type Feedback, SupportMessages, type SupportThreadDetail } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { faqWithPrices, searchFaq } from './faq.ts';

const user = me();
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const report = (over: Partial<Feedback> = {}): Feedback => ({
  id: 'r1',
  kind: 'bug',
  category: 'messages',
  text: 'The send button does nothing.',
  status: 'in_review',
  screenshot: null,
  appVersion: 'abc123',
  browser: 'Chrome',
  createdAt: '2030-03-04T10:00:00.000Z',
  updatedAt: '2030-03-04T10:00:00.000Z',
  ...over,
});
const thread = (over: Partial<SupportThreadDetail> = {}): SupportThreadDetail => ({
  id: 't1',
  subject: 'Charged twice',
  status: 'answered',
  priority: false,
  unread: 0,
  lastMessageAt: '2030-03-04T11:00:00.000Z',
  createdAt: '2030-03-04T10:00:00.000Z',
  messages: [
    { id: 'm1', from: 'member', text: 'I was charged twice', createdAt: '2030-03-04T10:00:00.000Z' },
    { id: 'm2', from: 'staff', text: 'Refunded, sorry!', createdAt: '2030-03-04T11:00:00.000Z' },
  ],
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/settings/bugs-feedback', () => {
  it('says what is missing, then sends the screenshot and the report and lists it as received', async () => {
    let sent: Feedback | null = null;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/support/reports': () => json(200, sent ? [sent] : []),
      'POST /api/v1/support/screenshots': () =>
        json(201, { id: '6f1c1a52-8a4e-4d0c-9d7e-0b7c2f6f9a11', width: 390, height: 844 }),
      'POST /api/v1/support/reports': (init) => {
        const body = JSON.parse(String(init?.body));
        sent = report({ ...body, id: 'r2', status: 'new', screenshot: null });
        return json(201, sent);
      },
    });
    start('/settings/bugs-feedback');
    expect(await screen.findByRole('heading', { name: 'No reports sent yet' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send bug report' }));
    expect(await screen.findByText(SupportMessages.chooseCategory)).toBeTruthy();
    expect(screen.getByText(SupportMessages.textTooShort)).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/v1/support/reports')).toBe(false);

    fireEvent.click(screen.getByRole('radio', { name: /Feedback/ }));
    type('What is it about?', 'cruise');
    type('Tell us', 'Let me filter cruisers by age, please.');
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'shot.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByLabelText('Add a screenshot'), { target: { files: [file] } });
    expect(screen.getByText('shot.jpg')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));

    const list = await screen.findByRole('list', { name: 'Your reports' });
    expect(within(list).getByText('Feedback · Cruise')).toBeTruthy();
    expect(within(list).getByText('Received')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/v1/support/screenshots')?.body).toBeInstanceOf(FormData);
    expect(calls.find((c) => c.key === 'POST /api/v1/support/reports')?.body).toEqual({
      kind: 'feedback',
      category: 'cruise',
      text: 'Let me filter cruisers by age, please.',
      appVersion: expect.any(String),
      screenshotId: '6f1c1a52-8a4e-4d0c-9d7e-0b7c2f6f9a11',
    });
  });

  it("shows the server's daily limit and keeps what he wrote", async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/support/reports': () => json(200, [report()]),
      'POST /api/v1/support/reports': () => json(429, { error: 'rate_limited', message: SupportMessages.tooManyReports }),
    });
    start('/settings/bugs-feedback');
    expect(await screen.findByText('Being looked at')).toBeTruthy();
    type('What is it about?', 'grid');
    type('What happened?', 'The grid shows nobody near me.');
    fireEvent.click(screen.getByRole('button', { name: 'Send bug report' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SupportMessages.tooManyReports);
    expect((screen.getByLabelText('What happened?') as HTMLTextAreaElement).value).toBe('The grid shows nobody near me.');
  });

  it('says when the reports could not load, and tries again', { timeout: 20_000 }, async () => {
    let fail = true;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/support/reports': () => (fail ? json(503, { error: 'internal', message: 'down' }) : json(200, [report()])),
    });
    start('/settings/bugs-feedback');
    expect(await screen.findByRole('heading', { name: "We couldn't load your reports" }, { timeout: 12_000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The send button does nothing.')).toBeTruthy();
  });
});

describe('/settings', () => {
  it("shows on the Help link how many of support's answers he has not read", async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/support/threads': () => json(200, [{ ...thread({ unread: 2 }), messages: undefined }]),
    });
    start('/settings');
    expect(await screen.findByRole('link', { name: 'Help 2 new answers from support' })).toBeTruthy();
  });
});

describe('/settings/help', () => {
  it('answers what the plans cost with the prices the server sells today, and without them sends to Settings, Premium', () => {
    const plan = (id: string, tier: 'premium' | 'platinum', name: string, priceCents: number, active = true) => ({
      id,
      tier,
      name,
      priceCents,
      currency: 'USD',
      interval: 'monthly' as const,
      features: [],
      active,
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
    const priced = searchFaq(
      'cost',
      faqWithPrices([
        plan('premium-monthly', 'premium', 'Premium', 1249),
        plan('platinum-monthly', 'platinum', 'Platinum', 2499),
      ]),
    );
    expect(priced.flatMap((t) => t.entries.map((e) => e.a)).join(' ')).toContain(
      'Premium is $12.49 a month, Platinum is $24.99 a month',
    );
    const withdrawn = faqWithPrices([
      plan('premium-monthly', 'premium', 'Premium', 1249),
      plan('platinum-monthly', 'platinum', 'Platinum', 2499, false),
    ]);
    expect(searchFaq('cost', withdrawn)[0]?.entries[0]?.a).not.toContain('Platinum is');
    const unknown = searchFaq('cost', faqWithPrices(undefined))[0]?.entries[0]?.a ?? '';
    expect(unknown).toContain('Settings, Premium');
    expect(unknown).not.toMatch(/\$\d/);
  });

  it('finds answers by every word typed, across topics', () => {
    expect(searchFaq('').length).toBeGreaterThanOrEqual(10);
    const block = searchFaq('block him');
    expect(block.map((t) => t.id)).toContain('safety');
    expect(searchFaq('zzzz nothing')).toEqual([]);
    const ids = searchFaq('').map((t) => t.id);
    for (const feature of [
      'game',
      'grid',
      'matches',
      'chat',
      'cruise',
      'health',
      'activity',
      'safety',
      'plans',
      'privacy',
      'account',
    ])
      expect(ids).toContain(feature);
  });

  it('searches the FAQ, shows the tier table, opens a thread with support and reads its answer', async () => {
    let threads: SupportThreadDetail[] = [thread({ unread: 1 })];
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/support/threads': () =>
        json(
          200,
          threads.map(({ messages: _m, ...t }) => t),
        ),
      'GET /api/v1/support/threads/t1': () => json(200, { ...threads[0], unread: 0 }),
      'POST /api/v1/support/threads': (init) => {
        const body = JSON.parse(String(init?.body));
        const t = thread({
          id: 't2',
          subject: body.subject,
          status: 'open',
          messages: [{ id: 'm3', from: 'member', text: body.text, createdAt: '2030-03-05T10:00:00.000Z' }],
          lastMessageAt: '2030-03-05T10:00:00.000Z',
        });
        threads = [t, ...threads];
        return json(201, t);
      },
      'GET /api/v1/support/threads/t2': () => json(200, threads[0]),
    });
    start('/settings/help');
    const search = await screen.findByRole('searchbox', { name: 'Search help' });
    fireEvent.change(search, { target: { value: 'incognito' } });
    expect(await screen.findByText(/answers? found/)).toBeTruthy();
    expect(screen.getByText('What does incognito do?')).toBeTruthy();
    expect(screen.queryByText('How does the game work?')).toBeNull();
    fireEvent.change(search, { target: { value: 'qwertyuiop' } });
    expect(await screen.findByText('No answers found')).toBeTruthy();

    const table = screen.getByRole('table', { name: 'What each plan includes' });
    expect(within(table).getByRole('rowheader', { name: 'Messages per day' })).toBeTruthy();

    const list = await screen.findByRole('list', { name: 'Your conversations with support' });
    fireEvent.click(within(list).getByRole('button', { name: 'Charged twice, Answered, 1 new' }));
    expect(await screen.findByText('Refunded, sorry!')).toBeTruthy();
    expect(await within(list).findByRole('button', { name: 'Charged twice, Answered' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    fireEvent.click(screen.getByRole('button', { name: 'Contact support' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send to support' }));
    expect(await screen.findByText(SupportMessages.subjectMissing)).toBeTruthy();
    type('Subject', 'Photo stuck');
    type('Your message', 'My photo upload never finishes.');
    fireEvent.click(screen.getByRole('button', { name: 'Send to support' }));
    expect(await screen.findByText('My photo upload never finishes.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/v1/support/threads')?.body).toEqual({
      subject: 'Photo stuck',
      text: 'My photo upload never finishes.',
    });
  });
});
