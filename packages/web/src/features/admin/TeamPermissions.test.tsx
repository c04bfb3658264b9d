import type { SystemHealth } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

afterEach(resetAdmin);

// The editor has 154 boxes: found by their label attribute directly (a role query over them is slow in jsdom).
const box = (name: string) => {
  const el = document.querySelector<HTMLInputElement>(`input[aria-label="${name}"]`);
  if (!el) throw new Error(`no box ${name}`);
  return el;
};

const member = (userId: string, role: string, permissions: string[] | null = null) => ({
  userId,
  email: `${userId}@example.com`,
  role,
  permissions,
  isActive: true,
  totpEnabled: true,
  lastLogin: null,
  invitedBy: null,
});

describe('team/permissions', () => {
  it('shows the role matrix, and a super admin edits a lower member’s explicit list or puts the defaults back', async () => {
    const calls = serveAdmin(
      'super_admin',
      (method, url) => {
        if (url.pathname.endsWith('/admin/team/members'))
          return json({
            rows: [member('u1', 'super_admin'), member('mod', 'moderator', ['users.view']), member('own', 'owner')],
          });
        if (method === 'PATCH') return new Response(null, { status: 204 });
        return undefined;
      },
      { userId: 'u1' },
    );
    startAdmin('/admin/team/permissions');
    expect(await screen.findByRole('heading', { name: 'Permissions', level: 1 })).toBeTruthy();
    expect(document.querySelector('[aria-label="Permissions by role"]')).toBeTruthy();
    fireEvent.change(await screen.findByLabelText('Member'), { target: { value: 'mod' } });
    const users = box('users view');
    expect(users.checked).toBe(true);
    expect(box('content approve').checked).toBe(false);
    // A moderator's subscriptions module is read-only: its writes cannot be ticked.
    expect(box('subscriptions edit').disabled).toBe(true);
    fireEvent.click(box('content approve'));
    fireEvent.click(screen.getByRole('button', { name: 'Save explicit permissions' }));
    await waitFor(() => {
      const patch = calls.find((c) => c.method === 'PATCH');
      expect(patch?.url.pathname).toBe('/api/v1/admin/team/members/mod');
      expect(patch?.body).toEqual({ permissions: ['content.approve', 'users.view'] });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Use role defaults' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ permissions: null }));
    // The owner outranks him: his list is shown, not editable.
    fireEvent.change(screen.getByLabelText('Member'), { target: { value: 'own' } });
    expect(box('users view').disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save explicit permissions' })).toBeNull();
    expect(screen.getByText(/Only a higher rank/)).toBeTruthy();
  });

  it('shows the server’s refusal, and the error state', async () => {
    serveAdmin('owner', (method, url) => {
      if (url.pathname.endsWith('/admin/team/members')) return json({ rows: [member('mod', 'moderator')] });
      if (method === 'PATCH') return json({ error: 'forbidden', message: 'Only a higher rank can manage this user.' }, 403);
      return undefined;
    });
    startAdmin('/admin/team/permissions');
    fireEvent.change(await screen.findByLabelText('Member'), { target: { value: 'mod' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save explicit permissions' }));
    expect(await screen.findByText('Only a higher rank can manage this user.')).toBeTruthy();
    cleanup();
    serveAdmin('owner', () => json({ error: 'x', message: 'Down' }, 503));
    startAdmin('/admin/team/permissions');
    expect(await screen.findByText('Could not load the team')).toBeTruthy();
  });
});

const health = (over: Partial<SystemHealth> = {}): SystemHealth => ({
  checkedAt: '2026-11-27T12:00:00.000Z',
  uptimeSeconds: 600,
  requests: {
    windowMinutes: 15,
    total: 40,
    errors: 4,
    slow: 1,
    slowRoutes: [{ route: 'GET /api/v1/grid', count: 1, maxMs: 1400 }],
  },
  memory: { rssMb: 300, heapUsedMb: 120, heapTotalMb: 150, heapLimitMb: 2048 },
  eventLoop: { meanMs: 10, p99Ms: 20, maxMs: 30 },
  database: { kind: 'postgres', ok: true, latencyMs: 2, connections: 5, sizeMb: 40, error: null },
  jobs: [
    {
      name: 'billing renewals',
      everyMs: 60_000,
      running: false,
      runs: 3,
      failures: 1,
      lastRunAt: null,
      lastOk: false,
      lastError: 'x',
    },
  ],
  bus: { kind: 'postgres', connected: true, subscribers: 2 },
  liveConnections: 2,
  moderationQueue: 0,
  ...over,
});

describe('system/health', () => {
  it('shows each figure against its threshold: a 10 % error rate is an alert, a slow call and a failed job warn', async () => {
    serveAdmin('owner', (_m, url) => (url.pathname.endsWith('/admin/system/health') ? json(health()) : undefined));
    startAdmin('/admin/system/health');
    expect(await screen.findByRole('heading', { name: 'System health', level: 1 })).toBeTruthy();
    await screen.findByText('Error rate');
    const card = (label: string) => screen.getByText(label, { selector: 'li h2' }).closest('li')!;
    expect(within(card('Error rate')).getByText('Alert')).toBeTruthy();
    expect(within(card('Error rate')).getByText(/10 % \(4 of 40 calls/)).toBeTruthy();
    expect(within(card('Slow API calls')).getByText('Warning')).toBeTruthy();
    expect(within(card('Background jobs')).getByText('Warning')).toBeTruthy();
    expect(within(card('Database')).getByText('OK')).toBeTruthy();
    expect(screen.getByText('GET /api/v1/grid')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/3 figures need attention/);
  });

  it('offers to try again when the figures cannot be read', async () => {
    serveAdmin('owner', () => json({ error: 'x', message: 'Down' }, 503));
    startAdmin('/admin/system/health');
    expect(await screen.findByText('Could not load the system figures')).toBeTruthy();
  });
});
