import { randomBytes } from 'node:crypto';
import type { Medication } from '@fmk/core';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { signUp } from '../../../test/factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../../../test/harness.ts';
import { type Database, type Db, openDatabase } from '../../db/index.ts';
import { PushService } from '../../platform/push.ts';
import { Vault } from '../../platform/vault.ts';
import { ReminderScheduler } from './scheduler.ts';

type User = Awaited<ReturnType<typeof signUp>>;
const call = (t: TestApp, u: User, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });

const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:reminders@example.com' };
const log = pino({ level: 'silent' });

/**
 * The push service is the network edge: a fetch that records what would go out (the endpoint's
 * path names the browser), answering 201 as a push service does.
 */
const delivered: string[] = [];
const recordingFetch: typeof fetch = async (input) => {
  delivered.push(new URL(String(input)).pathname);
  return new Response(null, { status: 201 });
};

function scheduler(t: TestApp, db: Db = t.db) {
  const push = new PushService({ db, clock: t.clock, vapid, log, fetch: recordingFetch });
  return new ReminderScheduler({ db, clock: t.clock, vault: new Vault(t.config.healthKey, t.clock), push, log });
}

beforeEach(() => {
  delivered.length = 0;
});

describe.each(DB_KINDS)('medication reminder pushes on %s', (kind) => {
  const t = useTestApp(kind);
  // Each test's reminders only: earlier tests' medications stay queued for later days.
  beforeEach(async () => {
    await t().db.deleteFrom('medication_schedules').execute();
  });

  /** A user with one browser subscribed, in `timeZone`. */
  async function subscribedUser(timeZone = 'UTC') {
    const u = await signUp(t().app);
    const push = new PushService({ db: t().db, clock: t().clock, vapid, log });
    await push.subscribe(
      u.user.uid,
      {
        endpoint: `http://127.0.0.1:9/push/${u.user.uid}`,
        keys: { p256dh: webpush.generateVAPIDKeys().publicKey, auth: randomBytes(16).toString('base64url') },
      },
      null,
    );
    await call(t(), u, 'PUT', '/health/settings', { timeZone });
    return u;
  }
  const pushesTo = (u: User) => delivered.filter((p) => p === `/push/${u.user.uid}`).length;

  it('sends once at the reminder time, not before, and again the next day', async () => {
    t().clock.set('2026-06-01T12:00:00Z');
    const u = await subscribedUser();
    const med = (await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '12:30' })).json() as Medication;
    const s = scheduler(t());
    await s.tick();
    expect(pushesTo(u)).toBe(0);
    t().clock.set('2026-06-01T12:30:00Z');
    await s.tick();
    expect(pushesTo(u)).toBe(1);
    await s.tick();
    t().clock.advance(60_000);
    await s.tick();
    expect(pushesTo(u)).toBe(1);
    const row = await t()
      .db.selectFrom('medication_schedules')
      .selectAll()
      .where('medication_id', '=', med.id)
      .executeTakeFirstOrThrow();
    expect(row.next_due_at.toISOString()).toBe('2026-06-02T12:30:00.000Z');
    t().clock.set('2026-06-02T12:31:00Z');
    await s.tick();
    expect(pushesTo(u)).toBe(2);
  });

  it('follows the user’s time zone', async () => {
    t().clock.set('2026-06-01T00:00:00Z');
    const u = await subscribedUser('Asia/Tokyo');
    await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '21:00' });
    const s = scheduler(t());
    t().clock.set('2026-06-01T11:59:00Z'); // 20:59 in Tokyo
    await s.tick();
    expect(pushesTo(u)).toBe(0);
    t().clock.set('2026-06-01T12:00:00Z'); // 21:00 in Tokyo
    await s.tick();
    expect(pushesTo(u)).toBe(1);
  });

  it('does not remind of a dose already taken, a paused medication, or with pushes turned off', async () => {
    t().clock.set('2026-06-03T08:00:00Z');
    const u = await subscribedUser();
    const taken = (await call(t(), u, 'POST', '/health/medications', { name: 'A', reminderTime: '08:30' })).json() as Medication;
    await call(t(), u, 'POST', `/health/medications/${taken.id}/taken`, {});
    const paused = (await call(t(), u, 'POST', '/health/medications', { name: 'B', reminderTime: '08:30' })).json() as Medication;
    await call(t(), u, 'PATCH', `/health/medications/${paused.id}`, { isActive: false });
    await call(t(), u, 'POST', '/health/medications', {
      name: 'PEP',
      reminderTime: '08:30',
      reminderType: 'on-demand',
      postExposureHours: 72,
    });
    expect(
      await t().db.selectFrom('medication_schedules').select('medication_id').where('user_id', '=', u.user.uid).execute(),
    ).toEqual([{ medication_id: taken.id }]);
    t().clock.set('2026-06-03T08:30:00Z');
    await scheduler(t()).tick();
    expect(pushesTo(u)).toBe(0);

    const quiet = await subscribedUser();
    await t()
      .db.updateTable('user_settings')
      .set({ push_notifications_enabled: false })
      .where('user_id', '=', quiet.user.uid)
      .execute();
    await call(t(), quiet, 'POST', '/health/medications', { name: 'C', reminderTime: '08:40' });
    t().clock.set('2026-06-03T08:40:00Z');
    await scheduler(t()).tick();
    expect(pushesTo(quiet)).toBe(0);

    // The health reminders kind switched off for push (PATCH /me/settings): nothing either.
    const noReminders = await subscribedUser();
    await call(t(), noReminders, 'PATCH', '/me/settings', { notifications: { kinds: { healthReminders: { push: false } } } });
    await call(t(), noReminders, 'POST', '/health/medications', { name: 'D', reminderTime: '08:50' });
    t().clock.set('2026-06-03T08:50:00Z');
    await scheduler(t()).tick();
    expect(pushesTo(noReminders)).toBe(0);
  });

  it('skips a dose whose window closed while the server was down', async () => {
    t().clock.set('2026-06-04T06:00:00Z');
    const u = await subscribedUser();
    const med = (await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '07:00' })).json() as Medication;
    t().clock.set('2026-06-04T08:01:00Z');
    await scheduler(t()).tick();
    expect(pushesTo(u)).toBe(0);
    const row = await t()
      .db.selectFrom('medication_schedules')
      .selectAll()
      .where('medication_id', '=', med.id)
      .executeTakeFirstOrThrow();
    expect(row.next_due_at.toISOString()).toBe('2026-06-05T07:00:00.000Z');
  });

  it('two concurrent ticks send each reminder once', async () => {
    t().clock.set('2026-06-05T09:00:00Z');
    const users = [await subscribedUser(), await subscribedUser(), await subscribedUser()];
    for (const u of users) await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '09:15' });
    t().clock.set('2026-06-05T09:15:00Z');
    const results = await Promise.all([scheduler(t()).tick(), scheduler(t()).tick(), scheduler(t()).tick()]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(3);
    for (const u of users) expect(pushesTo(u)).toBe(1);
  });

  if (kind === 'postgres') {
    const second: Database[] = [];
    afterAll(async () => {
      for (const d of second) await d.close();
    });

    it('two server instances (separate connection pools) send each reminder once', async () => {
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(t().db)).rows[0]!.s;
      const other = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, schema });
      second.push(other);
      t().clock.set('2026-06-06T09:00:00Z');
      const users: User[] = [];
      for (let i = 0; i < 5; i += 1) users.push(await subscribedUser());
      for (const u of users) await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '09:20' });
      t().clock.set('2026-06-06T09:20:00Z');
      const a = scheduler(t(), t().db);
      const b = scheduler(t(), other.db);
      const results = await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      expect(results.reduce((n, r) => n + r.sent, 0)).toBe(5);
      for (const u of users) expect(pushesTo(u)).toBe(1);
    });
  }

  it('runs on its timer until stopped', async () => {
    t().clock.set('2026-06-07T10:00:00Z');
    const u = await subscribedUser();
    await call(t(), u, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '10:00' });
    const s = scheduler(t());
    s.start(10);
    for (let i = 0; i < 100 && pushesTo(u) === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    await s.stop();
    expect(pushesTo(u)).toBe(1);
    t().clock.set('2026-06-08T10:00:00Z');
    await new Promise((r) => setTimeout(r, 50));
    expect(pushesTo(u)).toBe(1);
  });
});
