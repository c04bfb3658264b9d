import { randomUUID } from 'node:crypto';
import { MODERATION_PAGE, type ModerationPage } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signUpMember, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { insertItem } from '../../platform/moderation/repo.ts';

type Headers = Record<string, string>;
type Status = 'pending' | 'approved' | 'rejected';

/**
 * The moderation queues are paged by the server like every staff list: MODERATION_PAGE items a
 * page, the queue's count, and an order that never repeats or skips a row across pages (items
 * written in the same instant are ordered by id). Items are written directly, more than a page of
 * each decided queue, as the scorer writes them.
 */
describe.each(DB_KINDS)('moderation queue paging on %s', (kind) => {
  const t = useTestApp(kind);
  const get = (url: string, headers: Headers) => t().app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
  const page = async (headers: Headers, query: string): Promise<ModerationPage> => {
    const res = await get(`/admin/moderation/items?${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ModerationPage;
  };

  /** `n` items of a status for one member; every third shares its neighbour's instant, so ids break the tie. */
  async function items(userId: string, status: Status, n: number): Promise<{ id: string; at: number }[]> {
    const base = t().clock.now().getTime() - 10 * 86_400_000;
    const made: { id: string; at: number }[] = [];
    for (let i = 0; i < n; i++) {
      const at = base + (i - (i % 3 === 2 ? 1 : 0)) * 60_000;
      const id = randomUUID();
      made.push({ id, at });
      await insertItem(t().db, {
        id,
        content_type: 'profile_photo',
        content_id: randomUUID(),
        user_id: userId,
        storage_key: null,
        status,
        flagged_reason: null,
        confidence: 0.01,
        ai_analysis: { nudity: 0.01, violence: null, hate_speech: 0, spam: 0, underage: 0 },
        moderator_id: null,
        moderator_notes: null,
        created_at: new Date(at),
        reviewed_at: status === 'pending' ? null : new Date(at + 1000),
      });
    }
    return made;
  }
  const order = (made: { id: string; at: number }[], dir: 1 | -1) =>
    [...made].sort((a, b) => dir * (a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))).map((m) => m.id);

  it('pages each decided queue newest first and the pending one oldest first, with the count', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    const owner = await signUpMember(t().app, t().db);
    const approved = await items(owner.user.uid, 'approved', MODERATION_PAGE + 7);
    const rejected = await items(owner.user.uid, 'rejected', MODERATION_PAGE + 1);
    const pending = await items(owner.user.uid, 'pending', 4);

    const first = await page(mod.staffHeaders, 'status=approved');
    expect([first.total, first.page, first.pageSize, first.rows.length]).toEqual([
      MODERATION_PAGE + 7,
      1,
      MODERATION_PAGE,
      MODERATION_PAGE,
    ]);
    const second = await page(mod.staffHeaders, 'status=approved&page=2');
    expect([second.total, second.page, second.rows.length]).toEqual([MODERATION_PAGE + 7, 2, 7]);
    // Page 2 holds the rows right after page 1's, in the same order: none repeated, none skipped.
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(order(approved, -1));
    expect(second.rows.every((r) => r.status === 'approved')).toBe(true);
    // Past the end: no rows, the count still right.
    const third = await page(mod.staffHeaders, 'status=approved&page=3');
    expect([third.rows.length, third.total]).toEqual([0, MODERATION_PAGE + 7]);

    const r1 = await page(mod.staffHeaders, 'status=rejected&page=1');
    const r2 = await page(mod.staffHeaders, 'status=rejected&page=2');
    expect([...r1.rows, ...r2.rows].map((r) => r.id)).toEqual(order(rejected, -1));
    expect(r2.rows).toHaveLength(1);

    const queue = await page(mod.staffHeaders, '');
    expect(queue.rows.map((r) => r.id)).toEqual(order(pending, 1));
    expect(queue.total).toBe(4);
  });

  it('refuses bad paging with a clear 400, never a 500', async () => {
    const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
    for (const bad of ['-1', '0', 'abc', '1.5', 'Infinity', '10001', '99999999999999999999999', '1e400', '']) {
      const res = await get(`/admin/moderation/items?status=approved&page=${bad}`, mod.staffHeaders);
      expect(res.statusCode, `page=${bad}: ${res.body}`).toBe(400);
      expect(res.json(), bad).toEqual({
        error: 'invalid_input',
        message: 'page must be a whole number from 1 to 10000',
        fields: { page: 'page must be a whole number from 1 to 10000' },
      });
    }
    // A NUL is refused before any route reads the query, with its own words.
    const nul = await get('/admin/moderation/items?page=%00', mod.staffHeaders);
    expect([nul.statusCode, nul.json().error]).toEqual([400, 'invalid_input']);
    expect((await get('/admin/moderation/items?status=done&page=1', mod.staffHeaders)).statusCode).toBe(400);
    // A member without staff rights learns nothing of the queue.
    const member = await signUpMember(t().app, t().db);
    expect((await get('/admin/moderation/items?page=2', member.headers)).statusCode).toBe(403);
  });
});
