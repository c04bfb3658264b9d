import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';

/**
 * The in-app switches, enforced by the server: an event that notifies leaves the live channel
 * marked `quiet` when the receiver's in-app switch for its kind is off. The event still comes
 * (it updates his screens); the web shows no toast for a quiet one.
 */
describe.each(DB_KINDS)('in-app notification switches on %s', (kind) => {
  const t = useTestApp(kind);
  type Member = Awaited<ReturnType<typeof signUpMember>>;
  const member = () => signUpMember(t().app, t().db);
  const call = (method: 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, payload });
  const pick = async (from: Member, to: Member) => {
    const res = await call('POST', '/selections', from.headers, {
      targetId: to.user.uid,
      action: 'fuck',
      clientId: randomUUID(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { match: { conversationId: string } | null };
  };
  const say = async (from: Member, conversationId: string, content: string) => {
    const res = await call('POST', `/conversations/${conversationId}/messages`, from.headers, {
      clientId: randomUUID(),
      content,
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('marks a message, a match and a safety alert quiet while his switch for that kind is off, and only then', async () => {
    const [me, him, third] = [await member(), await member(), await member()];
    const live = await openLive(t().app, me.token);
    const his = await openLive(t().app, him.token);

    await pick(me, him);
    const matched = await pick(him, me);
    const conversationId = matched.match!.conversationId;
    expect((await live.next('match')).quiet).toBeUndefined();
    await say(him, conversationId, 'hi there');
    expect(await live.next('message')).toMatchObject({ message: { content: 'hi there' } });

    // Messages and matches off in-app: the events still come, quiet.
    const off = await call('PATCH', '/me/settings', me.headers, {
      notifications: { kinds: { messages: { inApp: false }, matches: { inApp: false } } },
    });
    expect(off.statusCode, off.body).toBe(200);
    await live.next('refetch');
    await say(him, conversationId, 'still there?');
    const quiet = await live.next('message');
    expect(quiet).toMatchObject({ quiet: true, message: { content: 'still there?' } });
    // The sender's own copy is not news to him.
    expect((await his.next('message')).quiet).toBeUndefined();
    await pick(third, me);
    await pick(me, third);
    expect((await live.next('match')).quiet).toBe(true);

    // Safety still on: its alert is not quiet; the in-app channel off silences every kind.
    const report = { reason: 'He keeps insulting me', category: 'harassment' };
    expect((await call('POST', `/users/${third.user.uid}/report`, me.headers, report)).statusCode).toBeLessThan(300);
    expect((await live.next('alert')).quiet).toBeUndefined();
    expect((await call('PATCH', '/me/settings', me.headers, { notifications: { channels: { inApp: false } } })).statusCode).toBe(
      200,
    );
    await live.next('refetch');
    expect((await call('POST', `/users/${him.user.uid}/report`, me.headers, report)).statusCode).toBeLessThan(300);
    expect((await live.next('alert')).quiet).toBe(true);

    // Back on: not quiet again.
    const on = await call('PATCH', '/me/settings', me.headers, {
      notifications: { channels: { inApp: true }, kinds: { messages: { inApp: true } } },
    });
    expect(on.statusCode).toBe(200);
    await live.next('refetch');
    await say(him, conversationId, 'hello again');
    expect((await live.next('message')).quiet).toBeUndefined();
    await live.close();
    await his.close();
  });
});
