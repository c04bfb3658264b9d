import { randomUUID } from 'node:crypto';
import { VERIFIED_CONTACTS_ONLY_TEXT, VERIFIED_MESSAGES_ONLY_TEXT } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { verifyPhone as verifyPhoneOf } from '../../../test/phone.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;

/**
 * Communication safety (spec section 3) seen from the SENDER's side: the member turns a switch
 * on through PATCH /me/settings, and a man without the verified badge (no phone confirmed by a
 * texted code) is refused with the switch's own text, with nothing stored; a verified man, or
 * anyone once the switch is off, goes through.
 */
describe.each(DB_KINDS)('communication safety from the sender’s side on %s', (kind) => {
  const t = useTestApp(kind);
  const api = (u: { headers: Headers }, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });
  const ok = async (...args: Parameters<typeof api>) => {
    const res = await api(...args);
    expect([200, 201, 204], `${args[1]} ${args[2]}: ${res.body}`).toContain(res.statusCode);
    return res;
  };
  /** A refusal with the switch's text: 403, never a 500. */
  const refused = async (text: string, ...args: Parameters<typeof api>) => {
    const res = await api(...args);
    expect(res.statusCode, `${args[1]} ${args[2]}: ${res.body}`).toBe(403);
    expect(res.json()).toMatchObject({ message: text });
  };

  async function member(tier: 'premium' | 'platinum' = 'premium'): Promise<Member> {
    const m = await signUpMember(t().app, t().db);
    await setTier(t().db, m.user.uid, tier);
    return m;
  }
  const set = (m: Member, change: object) => ok(m, 'PATCH', '/me/settings', change);
  async function match(a: Member, b: Member): Promise<string> {
    await ok(a, 'POST', '/selections', { targetId: b.user.uid, action: 'fuck', clientId: randomUUID() });
    const m = await ok(b, 'POST', '/selections', { targetId: a.user.uid, action: 'fuck', clientId: randomUUID() });
    return m.json().match.conversationId as string;
  }
  const verifyPhone = (m: Member) => verifyPhoneOf(t().app, t().config, m.headers);
  const send = (from: Member, conversationId: string) =>
    api(from, 'POST', `/conversations/${conversationId}/messages`, { clientId: randomUUID(), content: 'hey there' });
  const messagesIn = async (conversationId: string) =>
    Number(
      (
        await t()
          .db.selectFrom('messages')
          .select((s) => s.fn.countAll<number>().as('n'))
          .where('conversation_id', '=', conversationId)
          // A call leaves a line of its own (type 'call'): the texts are what was written.
          .where('type', '=', 'text')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const callsFrom = async (m: Member) =>
    (await t().db.selectFrom('calls').select('id').where('caller_id', '=', m.user.uid).execute()).length;
  const conversationsOf = async (m: Member) =>
    (
      await t()
        .db.selectFrom('conversations')
        .select('id')
        .where((w) => w.or([w('user_a', '=', m.user.uid), w('user_b', '=', m.user.uid)]))
        .execute()
    ).length;
  const selectionsBy = async (m: Member) =>
    (await t().db.selectFrom('selections').select('id').where('chooser_id', '=', m.user.uid).execute()).length;
  const promptLike = (from: Member, owner: Member, method: 'POST' | 'DELETE' = 'POST') =>
    api(from, method, `/users/${owner.user.uid}/prompts/starter-1/like`);
  /** A call that rang (201), hung up at once so the next one finds nobody busy. */
  const call = async (from: Member, to: Member) => {
    const res = await ok(from, 'POST', '/calls', { userId: to.user.uid, kind: 'voice', device: 'tab-a-000001' });
    await ok(from, 'POST', `/calls/${res.json().id}/hangup`);
  };

  it('blockUnverifiedUsers (restrictUnverifiedContacts): an unverified man may not write, call, like or like an answer, match or not', async () => {
    const him = await member();
    await ok(him, 'PATCH', '/me', { datingProfile: { prompts: [{ promptId: 'starter-1', question: 'q', answer: 'a' }] } });
    // A match from before the switch: the promise has no exception for him.
    const matched = await member();
    const conversationId = await match(him, matched);
    const stranger = await member('platinum');
    // The switch by its privacy name: the same column as communicationSafety.blockUnverifiedUsers.
    const on = await set(him, { safety: { privacySettings: { restrictUnverifiedContacts: true } } });
    expect(on.json().safety.communicationSafety.blockUnverifiedUsers).toBe(true);

    await refused(VERIFIED_CONTACTS_ONLY_TEXT, matched, 'POST', `/conversations/${conversationId}/messages`, {
      clientId: randomUUID(),
      content: 'hey',
    });
    expect(await messagesIn(conversationId)).toBe(0);
    const callsBefore = await callsFrom(matched);
    await refused(VERIFIED_CONTACTS_ONLY_TEXT, matched, 'POST', '/calls', {
      userId: him.user.uid,
      kind: 'video',
      device: 'tab-a-000001',
    });
    expect(await callsFrom(matched)).toBe(callsBefore);

    await refused(VERIFIED_CONTACTS_ONLY_TEXT, stranger, 'POST', '/conversations', { userId: him.user.uid });
    expect(await conversationsOf(stranger)).toBe(0);
    for (const choice of [{ action: 'fuck' }, { action: 'marry', super: true }]) {
      await refused(VERIFIED_CONTACTS_ONLY_TEXT, stranger, 'POST', '/selections', {
        targetId: him.user.uid,
        clientId: randomUUID(),
        ...choice,
      });
    }
    expect(await selectionsBy(stranger)).toBe(0);
    await refused(VERIFIED_CONTACTS_ONLY_TEXT, stranger, 'POST', `/users/${him.user.uid}/prompts/starter-1/like`);
    // Taking back a like that is not there reaches nobody: not refused.
    expect((await promptLike(stranger, him, 'DELETE')).json()).toEqual({ liked: false, likeCount: 0 });
    // He may still write to them: the switch is about who reaches him.
    await ok(him, 'POST', `/conversations/${conversationId}/messages`, { clientId: randomUUID(), content: 'hi' });

    // Verified, each goes through.
    await verifyPhone(stranger);
    const opened = (await ok(stranger, 'POST', '/conversations', { userId: him.user.uid })).json();
    expect((await send(stranger, opened.id)).statusCode).toBe(201);
    await ok(stranger, 'POST', '/selections', { targetId: him.user.uid, action: 'fuck', clientId: randomUUID() });
    expect((await promptLike(stranger, him)).json()).toEqual({ liked: true, likeCount: 1 });
    await verifyPhone(matched);
    expect((await send(matched, conversationId)).statusCode).toBe(201);
    await call(matched, him);

    // Off: an unverified man is through too.
    await set(him, { safety: { communicationSafety: { blockUnverifiedUsers: false } } });
    const plain = await member('platinum');
    const plainChat = (await ok(plain, 'POST', '/conversations', { userId: him.user.uid })).json();
    expect((await send(plain, plainChat.id)).statusCode).toBe(201);
    expect((await promptLike(plain, him)).json()).toEqual({ liked: true, likeCount: 2 });
  });

  it('requirePhoneVerification: only phone-verified men may message him; a call is not a message', async () => {
    const him = await member();
    const matched = await member();
    const conversationId = await match(him, matched);
    const stranger = await member('platinum');
    await set(him, { safety: { communicationSafety: { requirePhoneVerification: true } } });

    await refused(VERIFIED_MESSAGES_ONLY_TEXT, matched, 'POST', `/conversations/${conversationId}/messages`, {
      clientId: randomUUID(),
      content: 'hey',
    });
    expect(await messagesIn(conversationId)).toBe(0);
    await refused(VERIFIED_MESSAGES_ONLY_TEXT, stranger, 'POST', '/conversations', { userId: him.user.uid });
    expect(await conversationsOf(stranger)).toBe(0);
    // Calls and likes are not messages: this switch leaves them be.
    await call(matched, him);
    await ok(stranger, 'POST', '/selections', { targetId: him.user.uid, action: 'fuck', clientId: randomUUID() });

    await verifyPhone(matched);
    expect((await send(matched, conversationId)).statusCode).toBe(201);
    expect(await messagesIn(conversationId)).toBe(1);

    await set(him, { safety: { communicationSafety: { requirePhoneVerification: false } } });
    const opened = (await ok(stranger, 'POST', '/conversations', { userId: him.user.uid })).json();
    expect((await send(stranger, opened.id)).statusCode).toBe(201);
  });
});
