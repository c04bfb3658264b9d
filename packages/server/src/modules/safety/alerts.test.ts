import { randomUUID } from 'node:crypto';
import { type Alert, AlertMessages, SAME_TEXT_RECIPIENTS, type UserReport } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { makeStaff, setTier, signUpMember, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';
type Member = Awaited<ReturnType<typeof signUpMember>>;

const REPORT = { reason: 'He keeps insulting me', category: 'harassment' };

describe.each(DB_KINDS)('safety alerts on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: Method, url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const member = () => signUpMember(t().app, t().db);
  // A sent text is screened after its send answers: settle first.
  const alertsOf = async (u: Member) => {
    await t().app.notifier.settle();
    return (await call('GET', '/me/alerts', u.headers)).json() as Alert[];
  };
  const choose = (from: Member, to: Member) =>
    call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
  /** Two men who chose each other: their conversation. */
  async function matched(a: Member, b: Member): Promise<string> {
    await choose(a, b);
    return (await choose(b, a)).json().match.conversationId as string;
  }
  /** A Platinum man writing to someone he has not matched: their conversation. */
  async function cold(from: Member, to: Member): Promise<string> {
    await setTier(t().db, from.user.uid, 'platinum');
    const res = await call('POST', '/conversations', from.headers, { userId: to.user.uid });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().id as string;
  }
  const send = async (u: Member, conversationId: string, content: string) => {
    const res = await call('POST', `/conversations/${conversationId}/messages`, u.headers, { clientId: randomUUID(), content });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  /** His account made long ago: the new-account rule stays out of the way. */
  const established = (u: Member) =>
    t()
      .db.updateTable('users')
      .set({ created_at: new Date(t().clock.now().getTime() - 365 * 24 * 3600_000) })
      .where('id', '=', u.user.uid)
      .execute();

  it('tells the reporter live that his report was received, then its outcome without naming what was done', async () => {
    const [me, him] = [await member(), await member()];
    const live = await openLive(t().app, me.token);
    const filed = (await call('POST', `/users/${him.user.uid}/report`, me.headers, REPORT)).json() as UserReport;
    const received = (await live.next('alert')).alert;
    expect(received).toMatchObject({
      type: 'user_reported',
      severity: 'low',
      title: 'Report received',
      state: 'unread',
      isRead: false,
      contentId: filed.id,
      actions: [{ type: 'block', userId: him.user.uid }],
    });
    expect(await alertsOf(me)).toEqual([received]);

    const moderator = await member();
    await makeStaff(t().db, moderator.user.uid, 'moderator');
    Object.assign(moderator.headers, await staffSignIn(t().app, moderator.user.email, t().clock.now()));
    await call('PATCH', `/admin/reports/${filed.id}`, moderator.headers, { status: 'reviewed' });
    // Reviewed is not an outcome yet: nothing new for him.
    expect(await alertsOf(me)).toHaveLength(1);
    t().clock.advance(1000);
    await call('PATCH', `/admin/reports/${filed.id}`, moderator.headers, { status: 'actioned' });
    const outcome = (await live.next('alert')).alert;
    expect(outcome).toMatchObject({ type: 'user_reported', title: 'Your report was reviewed', contentId: filed.id });
    expect(outcome.message).not.toMatch(/ban|suspend|delet|warn/i);
    expect((await alertsOf(me)).map((a) => a.id)).toEqual([outcome.id, received.id]);
    // The reported man hears nothing of it.
    expect(await alertsOf(him)).toEqual([]);
    await live.close();
  });

  it('lets him mark an alert read, resolved or dismissed, and nobody else', async () => {
    const [me, him] = [await member(), await member()];
    await call('POST', `/users/${him.user.uid}/report`, me.headers, REPORT);
    const [alert] = await alertsOf(me);
    const patch = (u: Member, state: string) => call('PATCH', `/me/alerts/${alert!.id}`, u.headers, { state });

    expect((await patch(him, 'read')).statusCode).toBe(404);
    const bad = await patch(me, 'unread');
    expect([bad.statusCode, bad.json().message]).toEqual([400, AlertMessages.badState]);
    expect((await patch(me, 'read')).json()).toMatchObject({ state: 'read', isRead: true, isResolved: false });
    expect((await patch(me, 'resolved')).json()).toMatchObject({ state: 'resolved', isRead: true, isResolved: true });
    expect((await patch(me, 'read')).statusCode).toBe(409);
    expect((await patch(me, 'dismissed')).statusCode).toBe(200);
    expect(await alertsOf(me)).toEqual([]);
    expect((await patch(me, 'resolved')).statusCode).toBe(404);
  });

  it('raises nothing without an event: time passing and ordinary messages between matches', async () => {
    const [a, b] = [await member(), await member()];
    await Promise.all([established(a), established(b)]);
    const conversationId = await matched(a, b);
    await send(a, conversationId, 'hey! look at www.example.com for the bar we talked about');
    await send(b, conversationId, 'sounds good');
    // Ten of the spec's 30 s generator ticks on the app's clock, and real time on the event loop.
    t().clock.advance(5 * 60_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(await alertsOf(a)).toEqual([]);
    expect(await alertsOf(b)).toEqual([]);
  });

  it('warns a man once when someone he has not matched sends a link and asks for money', async () => {
    const [me, scammer] = [await member(), await member()];
    await established(scammer);
    const live = await openLive(t().app, me.token);
    const conversationId = await cold(scammer, me);
    const messageId = await send(scammer, conversationId, 'hot pics at www.pics-now.xyz, send $20 by cash app first');
    const alert = (await live.next('alert')).alert;
    expect(alert).toMatchObject({
      type: 'suspicious_behavior',
      severity: 'high',
      contentId: messageId,
      actions: [
        { type: 'block', userId: scammer.user.uid },
        { type: 'report', userId: scammer.user.uid },
      ],
    });
    expect(alert.message).toContain('link');
    await send(scammer, conversationId, 'hello?? venmo me');
    expect(await alertsOf(me)).toHaveLength(1);
    expect(await alertsOf(scammer)).toEqual([]);
    await live.close();
  });

  it(`warns the ${SAME_TEXT_RECIPIENTS}th man who gets the same text within the hour, and men messaged by someone several reported`, async () => {
    const sender = await member();
    await established(sender);
    const receivers = await Promise.all(Array.from({ length: SAME_TEXT_RECIPIENTS }, member));
    for (const [i, r] of receivers.entries()) {
      await send(sender, await matched(sender, r), 'Hey handsome, what are you up to tonight?');
      const got = await alertsOf(r);
      expect(got.length, `receiver ${i + 1}`).toBe(i + 1 === SAME_TEXT_RECIPIENTS ? 1 : 0);
    }
    expect((await alertsOf(receivers.at(-1)!))[0]).toMatchObject({ type: 'suspicious_behavior', severity: 'medium' });

    const [x, y, next] = [await member(), await member(), await member()];
    for (const reporter of [x, y]) await call('POST', `/users/${sender.user.uid}/report`, reporter.headers, REPORT);
    await send(sender, await matched(sender, next), 'a different hello');
    expect(await alertsOf(next)).toMatchObject([{ type: 'suspicious_behavior', severity: 'high' }]);
    expect((await alertsOf(next))[0]!.message).toContain('reported');
  });
});
