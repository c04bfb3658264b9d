import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import { signUpStaff } from '../factories.ts';
import { DB_KINDS, useTestApp } from '../harness.ts';
import { fullMember } from '../member.ts';
import { apiRoutes } from './routes.ts';
import { recordScore } from './scoreboard.ts';
import { walkGets } from './walk.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 600_000 });

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

/**
 * The level the server logs at in production: LOG_LEVEL's default (the test configuration
 * silences the log; this test turns it back on and reads every line).
 */
const PRODUCTION_LOG_LEVEL = loadConfig({ NODE_ENV: 'test' }).logLevel;

/**
 * Special-category data and identity never leave the server for anyone but their owner: member
 * A's health record (a medication name, an STI test and its positive result), his contact book
 * (a contact's name), his exact position, his email, phone number and anonymous id are seeded as
 * canary strings; then his match B reads every GET route he can reach (every id he finds, A's
 * included), an owner on staff reads every staff route the same way, every mail the server wrote
 * is read, and so is every line the server logged meanwhile (requests, warnings, errors) at the
 * level production runs at. Goal: no canary anywhere.
 */
describe.each(DB_KINDS)('canaries on %s', (kind) => {
  const logLines: string[] = [];
  const t = useTestApp(kind, {
    env: { LOG_LEVEL: PRODUCTION_LOG_LEVEL },
    logStream: { write: (line) => logLines.push(line) },
  });

  it("no answer to another member or to staff, no mail and no log line carries A's private data", async () => {
    const { me: a, partner: b } = await fullMember(t());
    const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t().app.inject({ method, url: `/api/v1${url}`, headers: a.headers, payload });
    const med = `Canarymed${Date.now().toString(36)}`;
    const contact = `Canarycontact${Date.now().toString(36)}`;
    const sti = `Canarysyphilis${Date.now().toString(36)}`;
    expect((await call('POST', '/health/medications', { name: med, reminderTime: '08:30' })).statusCode).toBe(201);
    const screening = { date: '2026-05-30', tests: [sti], results: { [sti]: 'positive' } };
    expect((await call('POST', '/health/screenings', screening)).statusCode).toBe(201);
    expect((await call('POST', '/activity/contacts', { name: contact })).statusCode).toBe(201);
    // A move right after the one fullMember made would be refused as too frequent: a while later.
    t().clock.advance(10 * 60_000);
    expect((await call('PUT', '/me/location', { lat: 52.523456, lng: 13.412345 })).statusCode).toBeLessThan(300);
    const row = await t()
      .db.selectFrom('users')
      .select(['anonymous_id', 'email', 'phone_number'])
      .where('id', '=', a.user.uid)
      .executeTakeFirstOrThrow();
    const canaries: Record<string, string | null> = {
      medication: med,
      'STI test': sti,
      contact,
      'exact latitude': '52.5234',
      'exact longitude': '13.4123',
      email: row.email,
      phone: row.phone_number ?? null,
    };
    // Staff see the anonymous id (it is how they name a member); members never do.
    const forMembers = { ...canaries, 'anonymous id': row.anonymous_id };

    const routes = apiRoutes(t().app);
    const memberWalk = await walkGets(
      t().app,
      routes.filter((r) => !r.path.startsWith('/admin')),
      b.headers,
      [a.user.uid],
    );
    const staff = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const staffWalk = await walkGets(
      t().app,
      routes.filter((r) => r.path.startsWith('/admin')),
      staff.staffHeaders,
      [a.user.uid],
    );
    await (t().app as unknown as { notifier: { settle: () => Promise<void> } }).notifier.settle();
    const mails = filesUnder(t().config.dataDir)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => ({ url: f, status: 0, body: readFileSync(f, 'utf8') }));

    const found: string[] = [];
    const scan = (where: string, answers: { url: string; body: string }[], marks: Record<string, string | null>) => {
      for (const { url, body } of answers)
        for (const [name, mark] of Object.entries(marks)) if (mark && body.includes(mark)) found.push(`${where} ${url}: ${name}`);
    };
    scan('member B', memberWalk.answers, forMembers);
    scan('staff', staffWalk.answers, canaries);
    scan('mail', mails, { medication: med, 'STI test': sti, contact, 'exact latitude': '52.5234' });
    // The operator reads the log: no one's health, contacts, position or identity in it.
    expect(logLines.length).toBeGreaterThan(0);
    scan(
      'log',
      logLines.map((line) => ({ url: line.slice(0, 300), body: line })),
      forMembers,
    );
    const read = memberWalk.answers.filter((x) => x.status < 300).length + staffWalk.answers.filter((x) => x.status < 300).length;

    recordScore({
      id: '09-canaries',
      db: kind,
      measure:
        'Special-category canaries (medication, STI result, contact, exact position, email, phone, anonymous id) in answers to another member or staff, in mails and in the server log',
      figure: `${found.length} found in ${read} answers, ${mails.length} mails and ${logLines.length} log lines (level ${PRODUCTION_LOG_LEVEL})`,
      goal: '0',
      pass: found.length === 0,
    });
    expect(read).toBeGreaterThan(40);
    expect(found).toEqual([]);
  });
});
