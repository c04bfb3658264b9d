import { randomUUID } from 'node:crypto';
import type { EvidencePage } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { makeStaff, signUpMember, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;

describe.each(DB_KINDS)('the messages staff may read on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const member = () => signUpMember(t().app, t().db);

  /** Two men who chose each other and wrote; returns the ids of what each sent. */
  async function chat(a: Member, b: Member, lines: [Member, string][]): Promise<string[]> {
    const choose = (from: Member, to: Member) =>
      call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(a, b);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    const ids: string[] = [];
    for (const [u, content] of lines) {
      const res = await call('POST', `/conversations/${conversationId}/messages`, u.headers, { clientId: randomUUID(), content });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id as string);
    }
    return ids;
  }

  it('lists only the messages attached to reports, with their report; never another message, and not to a member', async () => {
    const [a, b, c, d] = [await member(), await member(), await member(), await member()];
    const [hi, insult, later] = await chat(a, b, [
      [a, 'hi'],
      [b, 'you are worthless'],
      [a, 'a private line nobody reported'],
    ]);
    // A conversation nobody reported: staff never see it.
    await chat(c, d, [[c, 'nothing to see here']]);
    const report = await call('POST', `/users/${b.user.uid}/report`, a.headers, {
      reason: 'He keeps insulting me',
      category: 'harassment',
      messageIds: [insult, hi],
    });
    expect(report.statusCode, report.body).toBe(201);

    const s = await member();
    await makeStaff(t().db, s.user.uid, 'moderator');
    const h = await staffSignIn(t().app, s.user.email, t().clock.now());
    const res = await call('GET', '/admin/messages', h);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as EvidencePage;
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 50 });
    expect(page.rows.map((m) => m.id).sort()).toEqual([hi, insult].sort());
    expect(page.rows.map((m) => m.id)).not.toContain(later);
    expect(page.rows.find((m) => m.id === insult)).toMatchObject({
      content: 'you are worthless',
      fromReported: true,
      reportId: report.json().id,
      reportStatus: 'pending',
      reportCategory: 'harassment',
      reportedUserId: b.user.uid,
      reporterId: a.user.uid,
    });
    expect(JSON.stringify(page)).not.toContain('nothing to see here');
    expect(JSON.stringify(page)).not.toContain('a private line nobody reported');

    const past = (await call('GET', '/admin/messages?page=2', h)).json() as EvidencePage;
    expect(past).toMatchObject({ rows: [], total: 2, page: 2 });
    expect((await call('GET', '/admin/messages?page=0', h)).statusCode).toBe(400);
    expect((await call('GET', '/admin/messages', a.headers)).statusCode).toBe(403);
  });
});
