import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Contact, PrivateDataExport } from '@fmk/core';
import { sql } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeStaff, signUp } from '../../../test/factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../../../test/harness.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { Vault } from '../../platform/vault.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const call = (t: TestApp, u: User, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });

/** Words that must never appear in the database in clear. */
const SECRETS = {
  medication: 'Descovy-PrEP-7f3a',
  screeningTest: 'Gonorrhoea-swab-91c2',
  contact: 'Marco-Rossi-44d1',
  phone: '+39 333 1234 567',
  location: 'Hotel-Sauna-Verde-5e7b',
  notes: 'met-on-holiday-0b9e',
};

/** One record of every type, as the owner creates them. */
async function fillRecords(t: TestApp, u: User) {
  const med = (await call(t, u, 'POST', '/health/medications', { name: SECRETS.medication, reminderTime: '12:30' })).json() as {
    id: string;
  };
  const log = (await call(t, u, 'POST', `/health/medications/${med.id}/taken`, {})).json() as { id: string };
  const screening = (
    await call(t, u, 'POST', '/health/screenings', {
      date: '2026-05-20',
      tests: [SECRETS.screeningTest],
      results: { [SECRETS.screeningTest]: 'positive' },
    })
  ).json() as { id: string };
  const contact = (
    await call(t, u, 'POST', '/activity/contacts', { name: SECRETS.contact, phoneNumber: SECRETS.phone, tags: ['regular'] })
  ).json() as Contact;
  const activity = (
    await call(t, u, 'POST', '/activity/logs', {
      date: '2026-05-30',
      partners: [contact.id],
      location: SECRETS.location,
      activities: ['Kissing'],
      rating: 4,
      notes: SECRETS.notes,
      duration: 45,
      protection: 'unprotected',
    })
  ).json() as { id: string };
  return { med, log, screening, contact, activity };
}

describe.each(DB_KINDS)('health and activity privacy on %s', (kind) => {
  const t = useTestApp(kind);

  it('only the owner reads a record: another user and every staff role get 404s and empty lists', async () => {
    const owner = await signUp(t().app);
    const r = await fillRecords(t(), owner);
    const outsiders: Array<[string, User]> = [['another user', await signUp(t().app)]];
    for (const role of ['moderator', 'admin', 'super_admin', 'owner'] as const) {
      const staff = await signUp(t().app);
      await makeStaff(t().db, staff.user.uid, role);
      outsiders.push([role, staff]);
    }
    for (const [who, u] of outsiders) {
      const attempts: Array<[string, Parameters<typeof call>[2], string, object?]> = [
        ['medication', 'PATCH', `/health/medications/${r.med.id}`, { name: 'mine now' }],
        ['medication', 'DELETE', `/health/medications/${r.med.id}`],
        ['medication log', 'POST', `/health/medications/${r.med.id}/taken`, {}],
        ['screening', 'PUT', `/health/screenings/${r.screening.id}`, { date: '2026-01-01', tests: ['HIV'] }],
        ['screening', 'DELETE', `/health/screenings/${r.screening.id}`],
        ['contact', 'PATCH', `/activity/contacts/${r.contact.id}`, { name: 'x' }],
        ['contact', 'DELETE', `/activity/contacts/${r.contact.id}`],
        ['activity log', 'PATCH', `/activity/logs/${r.activity.id}`, { rating: 1 }],
        ['activity log', 'DELETE', `/activity/logs/${r.activity.id}`],
      ];
      for (const [type, method, url, body] of attempts) {
        const res = await call(t(), u, method, url, body);
        expect(res.statusCode, `${who}: ${method} ${type}`).toBe(404);
      }
      // Referring to the owner's contact in one's own log is refused too.
      expect(
        (await call(t(), u, 'POST', '/activity/logs', { date: '2026-05-30', partners: [r.contact.id], protection: 'protected' }))
          .statusCode,
      ).toBe(400);
      for (const url of [
        '/health/medications',
        '/health/medication-logs',
        '/health/screenings',
        '/activity/contacts',
        '/activity/logs',
      ]) {
        const res = await call(t(), u, 'GET', url);
        expect(res.statusCode).toBe(200);
        expect(res.json(), `${who}: GET ${url}`).toEqual([]);
      }
      const exported = (await call(t(), u, 'GET', '/me/private-data')).json() as PrivateDataExport;
      expect(JSON.stringify(exported)).not.toContain(SECRETS.medication);
    }
    // And the owner still has everything, unchanged.
    const mine = (await call(t(), owner, 'GET', '/me/private-data')).json() as PrivateDataExport;
    expect(mine.medications.map((m) => m.name)).toEqual([SECRETS.medication]);
    expect(mine.medicationLogs.map((l) => l.id)).toEqual([r.log.id]);
    expect(mine.contacts.map((c) => c.name)).toEqual([SECRETS.contact]);
    expect(mine.activityLogs.map((a) => a.rating)).toEqual([4]);
    expect(mine.screenings).toHaveLength(1);
  });

  it('keeps records encrypted at rest: no row of any table holds the plaintext', async () => {
    const owner = await signUp(t().app);
    await call(t(), owner, 'PUT', '/health/settings', { timeZone: 'Europe/Rome' });
    await fillRecords(t(), owner);
    const tables = ['private_records', 'health_keys', 'health_settings', 'medication_schedules', 'medication_reminders_sent'];
    for (const table of tables) {
      // Each row as text, bytea included (hex), as a dump would show it.
      const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table)} t`.execute(t().db);
      const dump = rows.rows.map((r) => r.row).join('\n');
      for (const secret of Object.values(SECRETS)) {
        expect(dump).not.toContain(secret);
        expect(dump).not.toContain(Buffer.from(secret).toString('hex'));
      }
    }
    const records = await t().db.selectFrom('private_records').selectAll().where('user_id', '=', owner.user.uid).execute();
    expect(records.map((r) => r.kind).sort()).toEqual(['activity_log', 'contact', 'medication', 'medication_log', 'screening']);
    for (const r of records) {
      const bytes = Buffer.from(r.payload);
      expect(bytes[0]).toBe(1);
      for (const secret of Object.values(SECRETS)) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
    const key = await t()
      .db.selectFrom('health_keys')
      .selectAll()
      .where('user_id', '=', owner.user.uid)
      .executeTakeFirstOrThrow();
    expect(key.key_version).toBe(1);
    expect(Buffer.from(key.wrapped_key)).toHaveLength(1 + 12 + 16 + 32);
  });

  it('binds each payload to its user and record: a row swapped between users does not decrypt', async () => {
    const a = await signUp(t().app);
    const b = await signUp(t().app);
    const ra = await fillRecords(t(), a);
    const rb = await fillRecords(t(), b);
    const vault = new Vault(t().config.healthKey, t().clock);
    const stolen = await t()
      .db.selectFrom('private_records')
      .select('payload')
      .where('id', '=', ra.contact.id)
      .executeTakeFirstOrThrow();
    // Same user, another record: the associated data (kind:user:id) no longer matches.
    await t().db.updateTable('private_records').set({ payload: stolen.payload }).where('id', '=', rb.contact.id).execute();
    await expect(vault.get(t().db, b.user.uid, 'contact', rb.contact.id)).rejects.toThrow();
    // Another server key cannot unwrap the user's data key.
    const other = new Vault('another-server-key-0123456789abcdef0123456789', t().clock);
    await expect(other.get(t().db, a.user.uid, 'contact', ra.contact.id)).rejects.toThrow();
    expect((await vault.get(t().db, a.user.uid, 'contact', ra.contact.id))?.data).toMatchObject({ name: SECRETS.contact });
  });

  it('exports everything as JSON and CSV, and deletes everything with the key', async () => {
    const u = await signUp(t().app);
    const r = await fillRecords(t(), u);
    const json = await call(t(), u, 'GET', '/me/private-data?format=json');
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-disposition']).toMatch(/attachment; filename="fmk-health-activity-\d{4}-\d{2}-\d{2}\.json"/);
    expect(json.headers['cache-control']).toBe('no-store');
    const data = json.json() as PrivateDataExport;
    expect(data.medications).toHaveLength(1);
    expect(data.medicationLogs).toHaveLength(1);
    expect(data.screenings[0]!.results).toEqual({ [SECRETS.screeningTest]: 'positive' });
    expect(data.contacts[0]).toMatchObject({
      name: SECRETS.contact,
      totalActivities: 1,
      avgRating: 4,
      lastActivity: '2026-05-30',
    });
    expect(data.activityLogs[0]).toMatchObject({ location: SECRETS.location, partners: [r.contact.id] });

    const csv = await call(t(), u, 'GET', '/me/private-data?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const text = csv.body;
    for (const heading of ['# medications', '# medication logs', '# sti screenings', '# contacts', '# activity logs']) {
      expect(text).toContain(heading);
    }
    expect(text).toContain(`${r.med.id},${SECRETS.medication},12:30,daily,,true,`);
    // A leading + would be a formula in a spreadsheet: defused with a quote.
    expect(text).toContain(`,'${SECRETS.phone},`);
    expect((await call(t(), u, 'GET', '/me/private-data?format=xml')).statusCode).toBe(400);

    // A contact's photo file goes with the records.
    const form = multipartFile(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer(),
    );
    const photo = await t().app.inject({
      method: 'POST',
      url: `/api/v1/activity/contacts/${r.contact.id}/photo`,
      headers: { ...u.headers, ...form.headers },
      payload: form.payload,
    });
    expect(photo.statusCode).toBe(200);
    const photos = path.join(t().config.dataDir, 'files', 'private', 'contacts', u.user.uid);
    expect(readdirSync(photos)).toHaveLength(1);

    expect((await call(t(), u, 'DELETE', '/me/private-data')).statusCode).toBe(204);
    expect(readdirSync(photos)).toEqual([]);
    for (const table of [
      'private_records',
      'health_keys',
      'health_settings',
      'medication_schedules',
      'medication_reminders_sent',
    ] as const) {
      const left = await t().db.selectFrom(table).select('user_id').where('user_id', '=', u.user.uid).execute();
      expect(left, table).toEqual([]);
    }
    const after = (await call(t(), u, 'GET', '/me/private-data')).json() as PrivateDataExport;
    expect([after.medications, after.medicationLogs, after.screenings, after.contacts, after.activityLogs]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
    // A fresh start works, under a new key.
    expect((await call(t(), u, 'POST', '/health/medications', { name: 'Again', reminderTime: '08:00' })).statusCode).toBe(201);
  });
});
