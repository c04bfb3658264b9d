import { randomUUID } from 'node:crypto';
import type { MessagePage } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;

describe.each(DB_KINDS)('link prevention (communicationSafety.linkPreventionEnabled) on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const member = () => signUpMember(t().app, t().db);
  const send = async (u: Member, conversationId: string, content: string) => {
    const res = await call('POST', `/conversations/${conversationId}/messages`, u.headers, { clientId: randomUUID(), content });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const flags = async (u: Member, conversationId: string) =>
    ((await call('GET', `/conversations/${conversationId}/messages`, u.headers)).json() as MessagePage).messages.map((m) => [
      m.content,
      m.linkBlocked === true,
    ]);

  it('disables a link from a man he has not matched, live and on every read, unless he turns it off', async () => {
    const [me, stranger] = [await member(), await member()];
    await setTier(t().db, stranger.user.uid, 'platinum');
    const conversationId = (await call('POST', '/conversations', stranger.headers, { userId: me.user.uid })).json().id as string;
    const live = await openLive(t().app, me.token);
    await send(stranger, conversationId, 'see my pics at https://pics.example.com/x');
    expect((await live.next('message')).message).toMatchObject({ linkBlocked: true });
    await send(stranger, conversationId, 'hello there');
    expect(await flags(me, conversationId)).toEqual([
      ['see my pics at https://pics.example.com/x', true],
      ['hello there', false],
    ]);
    // His choice: off, links arrive as they are.
    const off = await call('PATCH', '/me/settings', me.headers, {
      safety: { communicationSafety: { linkPreventionEnabled: false } },
    });
    expect(off.statusCode).toBe(200);
    expect(await flags(me, conversationId)).toEqual([
      ['see my pics at https://pics.example.com/x', false],
      ['hello there', false],
    ]);
    await live.close();
  });

  it('leaves links between matches alone', async () => {
    const [a, b] = [await member(), await member()];
    const choose = (from: Member, to: Member) =>
      call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(a, b);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    await send(a, conversationId, 'the bar: https://bar.example.com');
    expect(await flags(b, conversationId)).toEqual([['the bar: https://bar.example.com', false]]);
  });
});
