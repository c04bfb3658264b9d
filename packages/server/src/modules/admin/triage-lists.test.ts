import { randomUUID } from 'node:crypto';
import {
  STAFF_REPORTS_PAGE,
  type StaffFeedbackPage,
  type StaffReportsPage,
  type StaffThreadsPage,
  SUPPORT_STAFF_PAGE,
} from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUpMember, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;

/**
 * The staff's triage lists, searched, filtered and paged on the server: reports (report triage),
 * support threads (Platinum first) and bugs/feedback. Older rows are written directly, enough for
 * a second page; the rest is made through the API as members make it.
 */
describe.each(DB_KINDS)('staff triage lists on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const named = async (name: string) => {
    const m = await signUpMember(t().app, t().db);
    await t().db.updateTable('users').set({ display_name: name }).where('id', '=', m.user.uid).execute();
    return m;
  };
  const anonOf = async (m: Member) =>
    (await t().db.selectFrom('users').select('anonymous_id').where('id', '=', m.user.uid).executeTakeFirstOrThrow())
      .anonymous_id!;
  const get = async <T>(h: Headers, url: string): Promise<T> => {
    const res = await call('GET', url, h);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  };
  const past = (minutes: number) => new Date(t().clock.now().getTime() - minutes * 60_000);

  it('reports: by status, category and words (reason, description, names, anonymous ids, ids), 20 a page', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    const [victim, spammer, other] = [await named('Vince'), await named('Spike'), await named('Olaf')];
    const filed = await call('POST', `/users/${spammer.user.uid}/report`, victim.headers, {
      reason: 'Crypto links every day',
      category: 'spam',
      description: 'He sends a wallet address.',
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const id = filed.json().id as string;
    t().clock.advance(60_000);
    await call('POST', `/users/${other.user.uid}/report`, victim.headers, { reason: 'Rude to me', category: 'harassment' });
    // Older reports, enough for a second page.
    await t()
      .db.insertInto('user_reports')
      .values(
        Array.from({ length: STAFF_REPORTS_PAGE + 3 }, (_, i) => ({
          id: randomUUID(),
          reporter_id: other.user.uid,
          reported_id: victim.user.uid,
          reason: `old case ${i}`,
          category: 'other' as const,
          description: '',
          blocked: false,
          reviewed_by: null,
          status: 'dismissed' as const,
          created_at: past(60 + i),
          updated_at: past(60 + i),
        })),
      )
      .execute();

    const all = await get<StaffReportsPage>(mod.staffHeaders, '/admin/reports');
    expect(all).toMatchObject({ total: STAFF_REPORTS_PAGE + 5, page: 1, pageSize: STAFF_REPORTS_PAGE });
    expect(all.rows).toHaveLength(STAFF_REPORTS_PAGE);
    expect(all.rows[0]).toMatchObject({
      reportedUser: { displayName: 'Olaf' },
      reporter: { displayName: 'Vince' },
      reporterId: victim.user.uid,
    });
    const second = await get<StaffReportsPage>(mod.staffHeaders, '/admin/reports?page=2');
    expect(second.rows).toHaveLength(5);
    expect(second.rows.map((r) => r.id)).not.toContain(all.rows.at(-1)!.id);

    const only = async (query: string) => (await get<StaffReportsPage>(mod.staffHeaders, `/admin/reports?${query}`)).rows;
    expect((await only('status=pending')).map((r) => r.reason).sort()).toEqual(['Crypto links every day', 'Rude to me']);
    expect((await only('category=spam')).map((r) => r.id)).toEqual([id]);
    for (const q of ['crypto LINKS', 'wallet', 'spike', await anonOf(spammer), spammer.user.uid, id]) {
      const found = await get<StaffReportsPage>(mod.staffHeaders, `/admin/reports?q=${encodeURIComponent(q)}`);
      expect(
        found.rows.map((r) => r.id),
        q,
      ).toEqual([id]);
      expect(found.total, q).toBe(1);
    }
    expect((await only('q=vince&status=pending&category=harassment')).map((r) => r.reason)).toEqual(['Rude to me']);
    expect((await get<StaffReportsPage>(mod.staffHeaders, '/admin/reports?q=nothing%25like_this')).total).toBe(0);
    expect(JSON.stringify(all)).not.toContain(victim.user.email);
    for (const bad of ['page=0', 'category=rudeness', 'status=open', `q=${'x'.repeat(201)}`])
      expect((await call('GET', `/admin/reports?${bad}`, mod.staffHeaders)).statusCode, bad).toBe(400);
  });

  it('support threads: Platinum first, by status, tier and words, 25 a page', async () => {
    const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
    const [free, plat] = [await named('Fred'), await named('Pascal')];
    await setTier(t().db, free.user.uid, 'free');
    await setTier(t().db, plat.user.uid, 'platinum');
    const open = async (m: Member, subject: string) =>
      (await call('POST', '/support/threads', m.headers, { subject, text: 'Please help.' })).json().id as string;
    const a = await open(free, 'Cannot upload a photo');
    t().clock.advance(60_000);
    const b = await open(plat, 'Charged twice');
    t().clock.advance(60_000);
    const c = await open(free, 'Grid is empty');
    await t()
      .db.insertInto('support_threads')
      .values(
        Array.from({ length: SUPPORT_STAFF_PAGE }, (_, i) => ({
          id: randomUUID(),
          user_id: free.user.uid,
          subject: `Old question ${i}`,
          status: 'closed' as const,
          created_at: past(600 + i),
          last_message_at: past(600 + i),
          member_read_at: past(600 + i),
          staff_read_at: null,
        })),
      )
      .execute();

    const first = await get<StaffThreadsPage>(admin.staffHeaders, '/admin/support/threads');
    expect(first).toMatchObject({ total: SUPPORT_STAFF_PAGE + 3, pageSize: SUPPORT_STAFF_PAGE });
    // Platinum first, then the latest activity.
    expect(first.rows.slice(0, 3).map((r) => r.id)).toEqual([b, c, a]);
    expect(first.rows[0]).toMatchObject({ priority: true, member: { displayName: 'Pascal', tier: 'platinum' } });
    expect((await get<StaffThreadsPage>(admin.staffHeaders, '/admin/support/threads?page=2')).rows).toHaveLength(3);
    const ids = async (query: string) =>
      (await get<StaffThreadsPage>(admin.staffHeaders, `/admin/support/threads?${query}`)).rows.map((r) => r.id);
    expect(await ids('status=open')).toEqual([b, c, a]);
    expect(await ids('tier=platinum')).toEqual([b]);
    expect(await ids('q=upload')).toEqual([a]);
    expect(await ids('q=pasc')).toEqual([b]);
    expect(await ids(`q=${await anonOf(plat)}`)).toEqual([b]);
    expect(await ids('q=grid&status=closed')).toEqual([]);
    for (const bad of ['page=0', 'status=waiting', 'tier=gold'])
      expect((await call('GET', `/admin/support/threads?${bad}`, admin.staffHeaders)).statusCode, bad).toBe(400);
  });

  it('bugs and feedback: by status, kind, category and words, 25 a page', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    const m = await named('Bugsy');
    const send = async (payload: object) => {
      const res = await call('POST', '/support/reports', m.headers, payload);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const bug = await send({ kind: 'bug', category: 'grid', text: 'The grid stays empty after a refresh.' });
    t().clock.advance(60_000);
    const idea = await send({ kind: 'feedback', category: 'profile', text: 'Let me reorder my prompts please.' });
    await t()
      .db.insertInto('feedback_reports')
      .values(
        Array.from({ length: SUPPORT_STAFF_PAGE }, (_, i) => ({
          id: randomUUID(),
          user_id: m.user.uid,
          kind: 'bug' as const,
          category: 'other',
          text: `An old bug number ${i}`,
          status: 'closed' as const,
          screenshot_id: null,
          app_version: '0.9.0',
          browser: 'Firefox',
          created_at: past(600 + i),
          updated_at: past(600 + i),
        })),
      )
      .execute();
    const first = await get<StaffFeedbackPage>(mod.staffHeaders, '/admin/support/reports');
    expect(first).toMatchObject({ total: SUPPORT_STAFF_PAGE + 2, pageSize: SUPPORT_STAFF_PAGE });
    expect(first.rows).toHaveLength(SUPPORT_STAFF_PAGE);
    expect((await get<StaffFeedbackPage>(mod.staffHeaders, '/admin/support/reports?page=2')).rows).toHaveLength(2);
    const ids = async (query: string) =>
      (await get<StaffFeedbackPage>(mod.staffHeaders, `/admin/support/reports?${query}`)).rows.map((r) => r.id);
    expect(await ids('status=new')).toEqual([idea, bug]);
    expect(await ids('status=new&kind=bug')).toEqual([bug]);
    expect(await ids('category=profile')).toEqual([idea]);
    expect(await ids('q=REORDER')).toEqual([idea]);
    expect((await ids('q=bugsy')).length).toBe(SUPPORT_STAFF_PAGE);
    expect(await ids('q=stays%20empty&kind=feedback')).toEqual([]);
    for (const bad of ['page=0', 'kind=idea', 'category=everything', 'status=done'])
      expect((await call('GET', `/admin/support/reports?${bad}`, mod.staffHeaders)).statusCode, bad).toBe(400);
    // Members never list them.
    expect((await call('GET', '/admin/support/reports', m.headers)).statusCode).toBe(403);
  });
});
