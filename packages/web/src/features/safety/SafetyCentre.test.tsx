import type { Alert, Settings } from '@fmk/core';
import { DEFAULT_SETTINGS, ReportMessages, toSettings } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me();
beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const alert = (over: Partial<Alert>): Alert => ({
  id: 'a1',
  type: 'user_reported',
  severity: 'low',
  title: 'Report received',
  message: 'Thank you for telling us.',
  state: 'unread',
  isRead: false,
  isResolved: false,
  contentId: 'r1',
  actions: [],
  createdAt: '2030-03-04T10:00:00.000Z',
  ...over,
});

describe('/safety', () => {
  it('lists alerts, marks one read and dismisses it, then shows the empty state', async () => {
    let alerts = [alert({})];
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/settings': () => json(200, toSettings(DEFAULT_SETTINGS, null)),
      'GET /api/v1/me/alerts': () => json(200, alerts),
      'PATCH /api/v1/me/alerts/a1': (init?: RequestInit) => {
        const { state } = JSON.parse(String(init?.body)) as { state: 'read' | 'dismissed' };
        if (state === 'dismissed') alerts = [];
        return json(200, alert({ state, isRead: true }));
      },
    });
    start('/safety');
    const list = await screen.findByRole('list', { name: 'Safety alerts' });
    expect(within(list).getByRole('heading', { name: 'Report received' })).toBeTruthy();
    expect(within(list).getByText('New')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Mark read' }));
    await vi.waitFor(() => expect(within(list).queryByText('New')).toBeNull());
    fireEvent.click(within(list).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByRole('heading', { name: 'No alerts' })).toBeTruthy();
    expect(calls.filter((c) => c.key === 'PATCH /api/v1/me/alerts/a1')).toHaveLength(2);
  });

  it('says so when the alerts cannot load, and retries', async () => {
    let fail = true;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/settings': () => json(200, toSettings(DEFAULT_SETTINGS, null)),
      'GET /api/v1/me/alerts': () => (fail ? json(500, { error: 'x', message: 'boom' }) : json(200, [])),
    });
    start('/safety');
    fireEvent.click(await screen.findByRole('button', { name: /try again/i }, { timeout: 5000 }));
    fail = false;
    expect(await screen.findByRole('heading', { name: 'No alerts' })).toBeTruthy();
  });

  it("reports the man an alert is about, with 'Also block him', after saying what is missing", async () => {
    const warning = alert({
      type: 'suspicious_behavior',
      severity: 'high',
      title: 'Someone messaging you may be a scammer',
      actions: [
        { id: 'block', label: 'Block him', type: 'block', severity: 'high', userId: 'u9' },
        { id: 'report', label: 'Report him', type: 'report', severity: 'medium', userId: 'u9' },
      ],
    });
    let sent: unknown = null;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/settings': () => json(200, toSettings(DEFAULT_SETTINGS, null)),
      'GET /api/v1/me/alerts': () => json(200, [warning]),
      'POST /api/v1/users/u9/report': (init?: RequestInit) => {
        sent = JSON.parse(String(init?.body));
        return json(201, { id: 'r1' });
      },
      'GET /api/v1/conversations': () => json(200, []),
    });
    start('/safety');
    fireEvent.click(await screen.findByRole('button', { name: 'Report him' }));
    const form = await screen.findByRole('form', { name: 'Report him' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send report' }));
    expect(await within(form).findByText(ReportMessages.chooseCategory)).toBeTruthy();
    expect(within(form).getByText(ReportMessages.reasonMissing)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('What kind of problem?'), { target: { value: 'scam' } });
    fireEvent.change(within(form).getByLabelText('What happened, in a few words'), { target: { value: 'Asked for money' } });
    fireEvent.click(within(form).getByLabelText('Also block him'));
    fireEvent.click(within(form).getByRole('button', { name: 'Send report' }));
    await vi.waitFor(() =>
      expect(sent).toEqual({
        reason: 'Asked for money',
        category: 'scam',
        description: '',
        screenshotIds: [],
        messageIds: [],
        block: true,
      }),
    );
  });

  it('shows the safety score with what would raise it, and a one-tap fix that raises it', async () => {
    let settings: Settings = toSettings(DEFAULT_SETTINGS, null);
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/alerts': () => json(200, [alert({ severity: 'high', title: 'Unusual location change' })]),
      'GET /api/v1/me/settings': () => json(200, settings),
      'PATCH /api/v1/me/settings': (init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { safety: { privacySettings: { restrictUnverifiedContacts: boolean } } };
        settings = {
          ...settings,
          safety: { ...settings.safety, privacySettings: { ...settings.safety.privacySettings, ...body.safety.privacySettings } },
        };
        return json(200, settings);
      },
    });
    start('/safety');
    // Defaults: three of the five on (50 + 30), one unresolved high alert (−15).
    const score = await screen.findByTestId('safety-score');
    expect(score.textContent).toBe('65');
    expect(screen.getByText(/An important alert below lowers your score/)).toBeTruthy();
    const raise = screen.getByRole('list', { name: 'What raises your score' });
    fireEvent.click(within(raise).getByRole('button', { name: 'Turn on Restrict unverified contacts (+10)' }));
    await vi.waitFor(() => expect(screen.getByTestId('safety-score').textContent).toBe('75'));
    expect(calls.find((c) => c.key === 'PATCH /api/v1/me/settings')?.body).toEqual({
      safety: { privacySettings: { restrictUnverifiedContacts: true } },
    });
    // Hide exact location (off by default: it places him by a 5 km area) is the one fix left.
    expect(
      within(raise)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toHaveLength(1);
  });
});
