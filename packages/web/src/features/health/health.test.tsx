import type { Medication, MedicationLog, Screening } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { localNow } from './queries.ts';

const user = me();
beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const healthTab = () => within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /^Health/ });

/** A medication whose reminder is now on this machine's wall clock, and a screening of today. */
function fixtures() {
  const now = localNow();
  const med: Medication = {
    id: 'm1',
    name: 'PrEP',
    reminderTime: hhmm(now.minute),
    reminderType: 'daily',
    postExposureHours: null,
    isActive: true,
    created: new Date().toISOString(),
  };
  const screening: Screening = { id: 's1', date: now.date, tests: ['HIV'], results: { HIV: 'negative' }, created: '' };
  return { now, med, screening };
}

describe('/health', () => {
  it('a dose due now: a reminder toast and the red dot; marking it taken clears both', async () => {
    const { now, med, screening } = fixtures();
    let logs: MedicationLog[] = [];
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PUT /api/v1/health/settings': () => new Response(null, { status: 204 }),
      'GET /api/v1/health/medications': () => json(200, [med]),
      'GET /api/v1/health/medication-logs': () => json(200, logs),
      'GET /api/v1/health/screenings': () => json(200, [screening]),
      'POST /api/v1/health/medications/m1/taken': () => {
        logs = [{ id: 'l1', medicationId: 'm1', date: now.date, taken: true, takenAt: new Date().toISOString() }];
        return json(200, logs[0]);
      },
    });
    start('/health');
    expect(await screen.findByText('Time for PrEP')).toBeTruthy();
    expect(healthTab().textContent).toContain('needs attention');
    expect(await screen.findByText('Due now')).toBeTruthy();
    // The browser told the server its zone, for the reminder pushes.
    await vi.waitFor(() =>
      expect(calls.find((c) => c.key === 'PUT /api/v1/health/settings')?.body).toEqual({
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Mark PrEP taken' }));
    expect(await screen.findByRole('button', { name: 'Undo PrEP taken' })).toBeTruthy();
    await vi.waitFor(() => expect(healthTab().textContent).not.toContain('needs attention'));
    await vi.waitFor(() => expect(screen.queryByText('Time for PrEP')).toBeNull());
  });

  it('shows the overdue screening and an error state with a retry', async () => {
    let fail = true;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/health/medications': () =>
        fail ? json(500, { error: 'internal', message: 'Something went wrong' }) : json(200, []),
      'GET /api/v1/health/medication-logs': () => json(200, []),
      'GET /api/v1/health/screenings': () => json(200, []),
    });
    start('/health');
    expect(await screen.findByText("We couldn't load your health data", {}, { timeout: 12_000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Screening overdue')).toBeTruthy();
    expect(screen.getByText('No medications yet')).toBeTruthy();
    expect(healthTab().textContent).toContain('needs attention');
  });

  it('edits a screening in the same sheet: a result that came back later is sent with PUT', async () => {
    const { screening } = fixtures();
    const pending: Screening = { ...screening, tests: ['HIV', 'Syphilis'], results: { HIV: 'pending', Syphilis: 'pending' } };
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/health/medications': () => json(200, []),
      'GET /api/v1/health/medication-logs': () => json(200, []),
      'GET /api/v1/health/screenings': () => json(200, [pending]),
      'PUT /api/v1/health/screenings/s1': () => json(200, { ...pending, results: { HIV: 'negative', Syphilis: 'pending' } }),
    });
    start('/health');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the screening of Today' }));
    const sheet = await screen.findByRole('dialog', { name: 'Edit screening' });
    const hiv = within(sheet).getByLabelText('HIV result') as HTMLSelectElement;
    expect(hiv.value).toBe('pending');
    fireEvent.change(hiv, { target: { value: 'negative' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Save screening' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.key === 'PUT /api/v1/health/screenings/s1')?.body).toEqual({
        date: pending.date,
        tests: ['HIV', 'Syphilis'],
        results: { HIV: 'negative', Syphilis: 'pending' },
      }),
    );
  });
});
