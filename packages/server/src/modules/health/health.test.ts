import type { HealthSummary, Medication, MedicationLog, Screening } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { PASSWORD, signUp } from '../../../test/factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../../../test/harness.ts';

type User = Awaited<ReturnType<typeof signUp>>;

/** A fresh token after the clock moved past the old one's expiry. */
async function relogin(t: TestApp, u: User): Promise<User> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: u.user.email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const token = (res.json() as { token: string }).token;
  return { ...u, token, headers: { authorization: `Bearer ${token}` } };
}

const call = (t: TestApp, u: User, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });

describe.each(DB_KINDS)('health on %s', (kind) => {
  const t = useTestApp(kind);

  it('adds, edits, pauses and deletes medications, newest first', async () => {
    const u = await signUp(t().app);
    const a = await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '09:00' });
    expect(a.statusCode).toBe(201);
    const prep = a.json() as Medication;
    expect(prep).toMatchObject({
      name: 'PrEP',
      reminderTime: '09:00',
      reminderType: 'daily',
      isActive: true,
      postExposureHours: null,
    });
    t().clock.advance(1000);
    const b = await call(t(), u, 'POST', '/health/medications', {
      name: 'Doxy-PEP',
      reminderTime: '21:00',
      reminderType: 'on-demand',
      postExposureHours: 72,
    });
    expect(b.statusCode).toBe(201);
    const list = (await call(t(), u, 'GET', '/health/medications')).json() as Medication[];
    expect(list.map((m) => m.name)).toEqual(['Doxy-PEP', 'PrEP']);

    const paused = await call(t(), u, 'PATCH', `/health/medications/${prep.id}`, { isActive: false, reminderTime: '08:30' });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ isActive: false, reminderTime: '08:30', name: 'PrEP' });

    expect((await call(t(), u, 'DELETE', `/health/medications/${prep.id}`)).statusCode).toBe(204);
    expect(((await call(t(), u, 'GET', '/health/medications')).json() as Medication[]).map((m) => m.name)).toEqual(['Doxy-PEP']);
    expect((await call(t(), u, 'DELETE', `/health/medications/${prep.id}`)).statusCode).toBe(404);
  });

  it('answers bad input with 400 and a clear message, changing nothing', async () => {
    const u = await signUp(t().app);
    const cases: Array<[object, string]> = [
      [{ name: '', reminderTime: '09:00' }, 'Enter the medication name.'],
      [{ name: 'PrEP', reminderTime: '9am' }, 'Use a time like 09:00.'],
      [{ name: 'PrEP', reminderTime: '24:00' }, 'Use a time like 09:00.'],
      [{ name: 'PEP', reminderTime: '09:00', reminderType: 'on-demand' }, 'Enter how many hours after exposure to take it.'],
      [{ name: 'PEP', reminderTime: '09:00', reminderType: 'weekly' }, 'Choose daily or on-demand.'],
    ];
    for (const [body, message] of cases) {
      const res = await call(t(), u, 'POST', '/health/medications', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(
      (await call(t(), u, 'POST', '/health/medications', { name: 'x', reminderTime: '09:00', owner: 'me' })).statusCode,
    ).toBe(400);
    expect((await call(t(), u, 'POST', '/health/screenings', { date: '2026-02-30', tests: ['HIV'] })).json().message).toBe(
      'Use a date like 2026-01-31.',
    );
    expect((await call(t(), u, 'PUT', '/health/settings', { timeZone: 'Mars/Olympus' })).json().message).toBe(
      'Unknown time zone.',
    );
    expect((await call(t(), u, 'GET', '/health/medications')).json()).toEqual([]);
  });

  it('marks the dose taken: updates today’s log or creates it; history is date descending', async () => {
    const u = await signUp(t().app);
    t().clock.set('2026-06-01T12:00:00Z');
    const med = (await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '12:30' })).json() as Medication;
    const first = await call(t(), u, 'POST', `/health/medications/${med.id}/taken`, {});
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      medicationId: med.id,
      date: '2026-06-01',
      taken: true,
      takenAt: '2026-06-01T12:00:00.000Z',
    });
    const undo = (await call(t(), u, 'POST', `/health/medications/${med.id}/taken`, { taken: false })).json() as MedicationLog;
    expect(undo).toMatchObject({ id: first.json().id, taken: false, takenAt: null });
    await call(t(), u, 'POST', `/health/medications/${med.id}/taken`, {});
    t().clock.set('2026-06-02T12:10:00Z');
    const later = await relogin(t(), u);
    await call(t(), later, 'POST', `/health/medications/${med.id}/taken`, {});
    const history = (await call(t(), later, 'GET', '/health/medication-logs')).json() as MedicationLog[];
    expect(history.map((l) => [l.date, l.taken])).toEqual([
      ['2026-06-02', true],
      ['2026-06-01', true],
    ]);
    t().clock.set('2026-06-01T12:00:00Z');
  });

  it('the summary: a medication due now, then taken; a screening overdue, then recorded', async () => {
    const u = await signUp(t().app);
    t().clock.set('2026-06-01T12:00:00Z');
    expect((await call(t(), u, 'PUT', '/health/settings', { timeZone: 'Europe/Berlin' })).statusCode).toBe(204);
    // 12:00 UTC is 14:00 in Berlin.
    const due = (await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '14:45' })).json() as Medication;
    await call(t(), u, 'POST', '/health/medications', { name: 'Later', reminderTime: '16:00' });
    let s = (await call(t(), u, 'GET', '/health/summary')).json() as HealthSummary;
    expect(s).toMatchObject({
      today: '2026-06-01',
      timeZone: 'Europe/Berlin',
      dueMedicationIds: [due.id],
      screeningOverdue: true,
    });
    await call(t(), u, 'POST', `/health/medications/${due.id}/taken`, {});
    const screening = await call(t(), u, 'POST', '/health/screenings', {
      date: '2026-04-15',
      tests: ['HIV', 'Syphilis'],
      results: { HIV: 'negative', Syphilis: 'pending' },
    });
    expect(screening.statusCode).toBe(201);
    s = (await call(t(), u, 'GET', '/health/summary')).json() as HealthSummary;
    expect(s).toMatchObject({ dueMedicationIds: [], screeningOverdue: false, lastScreening: '2026-04-15' });
    t().clock.set('2026-07-15T12:00:00Z');
    s = (await call(t(), await relogin(t(), u), 'GET', '/health/summary')).json() as HealthSummary;
    expect(s.screeningOverdue).toBe(true);
    t().clock.set('2026-06-01T12:00:00Z');

    const list = (await call(t(), u, 'GET', '/health/screenings')).json() as Screening[];
    expect(list).toEqual([screening.json()]);
    const edited = await call(t(), u, 'PUT', `/health/screenings/${list[0]!.id}`, {
      date: '2026-04-15',
      tests: ['HIV', 'Syphilis'],
      results: { HIV: 'negative', Syphilis: 'negative' },
    });
    expect(edited.json().results).toEqual({ HIV: 'negative', Syphilis: 'negative' });
    expect((await call(t(), u, 'DELETE', `/health/screenings/${list[0]!.id}`)).statusCode).toBe(204);
    expect((await call(t(), u, 'GET', '/health/screenings')).json()).toEqual([]);
  });

  it('suggests a screening after 10 unprotected encounters since the last one', async () => {
    const u = await signUp(t().app);
    await call(t(), u, 'POST', '/health/screenings', { date: '2026-05-01', tests: ['HIV'] });
    for (let i = 0; i < 10; i += 1) {
      const date = `2026-05-${String(i + 2).padStart(2, '0')}`;
      expect((await call(t(), u, 'POST', '/activity/logs', { date, protection: 'unprotected' })).statusCode).toBe(201);
    }
    const s = (await call(t(), u, 'GET', '/health/summary')).json() as HealthSummary;
    expect(s.suggestion).toEqual({ unprotected: 10, protected: 0, suggested: true });
  });

  it('is refused while health tracking is off (the tab is hidden too); export still works', async () => {
    const u = await signUp(t().app);
    await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '09:00' });
    const off = await call(t(), u, 'PATCH', '/me', { appPreferences: { healthEnabled: false } });
    expect(off.statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', '/health/medications'],
      ['GET', '/health/summary'],
      ['GET', '/health/screenings'],
      ['GET', '/health/medication-logs'],
    ] as const) {
      const res = await call(t(), u, method, url);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Health tracking is turned off. Turn it on in Settings to use it.');
    }
    expect((await call(t(), u, 'POST', '/health/medications', { name: 'x', reminderTime: '09:00' })).statusCode).toBe(403);
    expect(((await call(t(), u, 'GET', '/me/private-data')).json() as { medications: unknown[] }).medications).toHaveLength(1);
    await call(t(), u, 'PATCH', '/me', { appPreferences: { healthEnabled: true } });
    expect((await call(t(), u, 'GET', '/health/medications')).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/health/medications' });
    expect(res.statusCode).toBe(401);
  });
});
