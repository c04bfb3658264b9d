import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { AccountMessages, DataRightsMessages, LIVE_CLOSE_UNAUTHORIZED } from '@fmk/core';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUp } from '../../../../test/factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../../../../test/harness.ts';
import { openLive } from '../../../../test/live.ts';
import { fullMember, PHONE } from '../../../../test/member.ts';
import { recordScore } from '../../../../test/security/scoreboard.ts';
import { startSmtpSink } from '../../../../test/smtp.ts';
import { phoneCountKey } from '../phone.ts';

const sink = await startSmtpSink();
afterAll(() => sink.close());

/**
 * Every row of every table (this schema's, from information_schema) whose text, JSON or array
 * columns hold one of `values`: what a deleted account must leave none of. Binary columns are
 * sealed (the vault) and read as nothing.
 */
async function rowsNaming(t: TestApp, values: readonly string[]): Promise<string[]> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')
    order by table_name, column_name`.execute(t.db);
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const value of values) {
      const { rows } = await sql<{ n: number | string }>`
        select count(*) as n from ${sql.table(table_name)} where strpos(${sql.ref(column_name)}::text, ${value}) > 0`.execute(
        t.db,
      );
      if (Number(rows[0]?.n) > 0) found.push(`${table_name}.${column_name} names ${value}`);
    }
  }
  return found;
}

/** Every file under the storage root, relative to it. */
function storedFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)));
}

describe.each(DB_KINDS)('deleting my account on %s', (kind) => {
  const t = useTestApp(kind, { env: { SMTP_URL: sink.url } });
  const del = (headers: Record<string, string>, payload: object) =>
    t().app.inject({ method: 'POST', url: '/api/v1/account/delete', headers, payload });

  it('erases every row and file that names him, ends his sessions, and keeps the others whole', async () => {
    const { me, partner, other } = await fullMember(t());
    const user = await t().db.selectFrom('users').selectAll().where('id', '=', me.user.uid).executeTakeFirstOrThrow();
    const identifying = [me.user.uid, user.anonymous_id!, me.user.email, PHONE];
    // The world really names him everywhere before: the walk finds him in many tables.
    const before = await rowsNaming(t(), identifying);
    for (const table of [
      'users.',
      'photos.',
      'messages.',
      'matches.',
      'selection_requests.',
      'prompt_likes.',
      'cruise_sessions.',
      'push_subscriptions.',
      'audit_log.',
      'banned_emails.',
      'private_records.',
      'sessions.',
      'user_blocks.',
      'payments.',
      'subscriptions.',
      'payment_methods.',
      'calls.',
    ]) {
      expect(
        before.some((f) => f.startsWith(table)),
        table,
      ).toBe(true);
    }
    const filesBefore = storedFiles(t().config.filesDir).filter((f) => f.includes(me.user.uid));
    expect(filesBefore.length).toBeGreaterThanOrEqual(4); // photo, thumbnail, message photo, screenshot
    const socket = await openLive(t().app, me.token);
    const partnerSocket = await openLive(t().app, partner.token);
    const { id: conversationId } = await t()
      .db.selectFrom('conversations')
      .select('id')
      .where((eb) => eb.or([eb('user_a', '=', me.user.uid), eb('user_b', '=', me.user.uid)]))
      .executeTakeFirstOrThrow();

    // His number's count of texts is keyed by a keyed hash of it, which no walk for the number finds.
    const countKey = phoneCountKey(t().config.tokenSecret, PHONE);
    const counts = () => t().db.selectFrom('auth_attempts').select('key').where('key', '=', countKey).execute();
    expect((await counts()).length).toBeGreaterThan(0);

    const res = await del(me.headers, { password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: DataRightsMessages.accountDeleted });

    const left = await rowsNaming(t(), identifying);
    const files = storedFiles(t().config.filesDir).filter((f) => f.includes(me.user.uid));
    recordScore({
      id: '11-erasure',
      db: kind,
      measure: 'Erasure: rows and files naming a deleted member (his ids, email, phone) outside the pseudonymised payment record',
      figure: `${left.length} rows, ${files.length} files`,
      goal: '0 rows, 0 files',
      pass: left.length === 0 && files.length === 0,
    });
    expect(left).toEqual([]);
    expect(await counts()).toEqual([]);
    // His payment stays for the books (amount, day, the provider's id of it), naming no one.
    const kept = await t().db.selectFrom('payments').selectAll().where('user_id', 'is', null).execute();
    expect(kept).toMatchObject([{ kind: 'subscription', status: 'completed', amount: 999 }]);
    expect(storedFiles(t().config.filesDir).filter((f) => f.includes(me.user.uid))).toEqual([]);
    // Signed out everywhere, his live socket closed; his credentials open nothing.
    expect(await socket.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: me.headers })).statusCode).toBe(401);
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: me.user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    await sink.waitFor((m) => m.envelopeTo.includes(me.user.email) && m.subject === 'Your account was deleted');

    // The conversation is gone for his partner too, at once on his open screen; the others keep their accounts.
    expect(await partnerSocket.next('conversation')).toMatchObject({ conversationId, removed: true });
    await partnerSocket.close();
    const partnerList = await t().app.inject({ method: 'GET', url: '/api/v1/conversations', headers: partner.headers });
    expect(partnerList.statusCode).toBe(200);
    expect(partnerList.json()).toEqual([]);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: other.headers })).statusCode).toBe(200);
    // The partner's own contact of him stays his, no longer linked to the erased account (sealed: the walk cannot see it).
    const contacts = await t().app.inject({ method: 'GET', url: '/api/v1/activity/contacts', headers: partner.headers });
    expect(contacts.json()).toMatchObject([{ name: 'Erik from the app', userId: null }]);
    // What the law keeps stays, naming no one: the ban by its hash, the audit row's action.
    expect(await t().db.selectFrom('banned_emails').select(['email', 'associated_anonymous_ids']).execute()).toEqual([
      { email: 'erased', associated_anonymous_ids: ['someone-else'] },
    ]);
    expect(await t().db.selectFrom('audit_log').select(['action', 'reason']).execute()).toContainEqual({
      action: 'lookup_identity',
      reason: 'report review',
    });
    // The address is free again: a new sign-up with it is a new, empty account.
    const again = await signUp(t().app, { email: me.user.email });
    expect(again.user.uid).not.toBe(me.user.uid);
  });

  it('refuses without the right password, and changes nothing', async () => {
    const u = await signUp(t().app);
    const missing = await del(u.headers, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(DataRightsMessages.passwordRequired);
    const wrong = await del(u.headers, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(AccountMessages.wrongPassword);
    const typed = await del(u.headers, { confirm: 'DELETE' });
    expect(typed.statusCode).toBe(400);
    const bad = await del(u.headers, { password: 42 });
    expect(bad.statusCode).toBe(400);
    const noSession = await del({}, { password: PASSWORD });
    expect(noSession.statusCode).toBe(401);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: u.headers })).statusCode).toBe(200);
    expect(await t().db.selectFrom('users').select('id').where('id', '=', u.user.uid).executeTakeFirst()).toBeDefined();
  });

  it('a Google-only account (no password) confirms by typing DELETE', async () => {
    const u = await signUp(t().app);
    // As a Google sign-up is stored: no password hash.
    await t()
      .db.updateTable('users')
      .set({ password_hash: null, google_sub: `sub-${u.user.uid}` })
      .where('id', '=', u.user.uid)
      .execute();
    const wrongWord = await del(u.headers, { confirm: 'delete me' });
    expect(wrongWord.statusCode).toBe(400);
    expect(wrongWord.json().message).toBe(DataRightsMessages.confirmRequired);
    const done = await del(u.headers, { confirm: 'DELETE' });
    expect(done.statusCode).toBe(200);
    expect(await rowsNaming(t(), [u.user.uid, `sub-${u.user.uid}`, u.user.email])).toEqual([]);
  });
});
