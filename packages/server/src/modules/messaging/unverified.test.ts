import { randomUUID } from 'node:crypto';
import { type Conversation, HOUR, MINUTE, UNANSWERED_UNVERIFIED_CHAT_MS } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signInAgain } from '../../../test/cruise.ts';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { verifyPhone } from '../../../test/phone.ts';
import { LocalBus } from '../../platform/bus.ts';
import { UnverifiedChatSweeper } from './unverified.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;

/**
 * communicationSafety.autoDeleteUnverifiedChats: the sweep the app runs every 10 minutes, on the
 * test's clock. It hides from the member exactly the conversations an unverified man started and
 * the member never answered, once the man's latest message is 24 h old, and nothing before.
 */
describe.each(DB_KINDS)('unanswered chats from unverified men on %s', (kind) => {
  const t = useTestApp(kind);
  const api = (u: { headers: Headers }, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });
  const ok = async (...args: Parameters<typeof api>) => {
    const res = await api(...args);
    expect([200, 201, 204], `${args[1]} ${args[2]}: ${res.body}`).toContain(res.statusCode);
    return res;
  };
  const sweeper = () => new UnverifiedChatSweeper({ db: t().db, clock: t().clock, bus: new LocalBus() });
  const members: Member[] = [];
  /** A Platinum member: he may open a conversation with anyone (no match needed). */
  async function member(): Promise<Member> {
    const m = await signUpMember(t().app, t().db);
    await setTier(t().db, m.user.uid, 'platinum');
    members.push(m);
    return m;
  }
  /** Hours go by: the clock moves, and everyone signs in again (access tokens last an hour). */
  async function later(ms: number): Promise<void> {
    t().clock.advance(ms);
    for (const m of members) await signInAgain(t().app, { email: m.user.email, headers: m.headers });
  }
  /** `from` opens a conversation with `to` and writes in it; its id. */
  async function write(from: Member, to: Member): Promise<string> {
    const { id } = (await ok(from, 'POST', '/conversations', { userId: to.user.uid })).json() as Conversation;
    await say(from, id);
    return id;
  }
  const say = (from: Member, conversationId: string) =>
    ok(from, 'POST', `/conversations/${conversationId}/messages`, { clientId: randomUUID(), content: 'hey' });
  const listed = async (m: Member) => ((await ok(m, 'GET', '/conversations')).json() as Conversation[]).map((c) => c.id).sort();

  it('hides exactly the unanswered chats unverified men started, 24 h after their last message, for him alone', async () => {
    const him = await member();
    const bystander = await member();
    const [stranger, answered, verified, late, mine] = [
      await member(),
      await member(),
      await member(),
      await member(),
      await member(),
    ];
    await verifyPhone(t().app, t().config, verified.headers);
    await ok(him, 'PATCH', '/me/settings', { safety: { communicationSafety: { autoDeleteUnverifiedChats: true } } });

    const strangerChat = await write(stranger, him);
    const answeredChat = await write(answered, him);
    await say(him, answeredChat);
    const verifiedChat = await write(verified, him);
    // He started this one; the unverified man's reply does not make it his.
    const myChat = await write(him, mine);
    await say(mine, myChat);
    // The switch is his: the same man writing to a member without it changes nothing for that member.
    const bystanderChat = await write(stranger, bystander);
    await later(12 * HOUR);
    const lateChat = await write(late, him);
    const all = [strangerChat, answeredChat, verifiedChat, myChat, lateChat].sort();
    expect(await listed(him)).toEqual(all);

    // Not before 24 h.
    await later(12 * HOUR - MINUTE);
    expect(await sweeper().sweep()).toBe(0);
    expect(await listed(him)).toEqual(all);

    await later(2 * MINUTE);
    expect(await sweeper().sweep()).toBe(1);
    expect(await listed(him)).toEqual(all.filter((id) => id !== strangerChat));
    // Only his side: the man keeps his copy (and is not told); the bystander keeps his chat.
    expect(await listed(stranger)).toEqual([strangerChat, bystanderChat].sort());
    expect(await listed(bystander)).toEqual([bystanderChat]);
    // Once: a second pass finds nothing more.
    expect(await sweeper().sweep()).toBe(0);

    // The later man's 24 h run from his own message.
    await later(12 * HOUR);
    expect(await sweeper().sweep()).toBe(1);
    expect(await listed(him)).toEqual([answeredChat, verifiedChat, myChat].sort());

    // A new message from the stranger brings his chat back, for another full wait.
    await say(stranger, strangerChat);
    expect(await sweeper().sweep()).toBe(0);
    expect(await listed(him)).toContain(strangerChat);
    await later(UNANSWERED_UNVERIFIED_CHAT_MS + MINUTE);
    expect(await sweeper().sweep()).toBe(1);
    expect(await listed(him)).not.toContain(strangerChat);
  });

  it('leaves everything where the switch is off (the default)', async () => {
    const him = await member();
    const stranger = await member();
    const chat = await write(stranger, him);
    await later(3 * UNANSWERED_UNVERIFIED_CHAT_MS);
    await sweeper().sweep();
    expect(await listed(him)).toEqual([chat]);
  });
});
