import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import {
  COULD_NOT_FIND_CONVERSATION,
  type Conversation,
  type Message,
  type MessagePage,
  Messages,
  messageLimitText,
} from '@fmk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, setTier, type signUp, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, openTestDatabase, type TestApp, testConfig, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { createApp } from '../../app.ts';
import { openDatabase } from '../../db/index.ts';

type User = Awaited<ReturnType<typeof signUp>>;
type AppLike = TestApp['app'];

const select = (app: AppLike, from: User, to: User) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/selections',
    headers: from.headers,
    payload: { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() },
  });

/** Two users who chose each other: their matched conversation. */
async function matched(app: AppLike, db: TestApp['db']): Promise<{ a: User; b: User; conversationId: string }> {
  const [a, b] = [await signUpMember(app, db), await signUpMember(app, db)];
  expect((await select(app, a, b)).statusCode).toBe(200);
  const res = await select(app, b, a);
  expect(res.statusCode).toBe(200);
  return { a, b, conversationId: res.json().match.conversationId as string };
}

const send = (app: AppLike, u: User, conversationId: string, content = 'hello', clientId: string = randomUUID()) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/conversations/${conversationId}/messages`,
    headers: u.headers,
    payload: { clientId, content },
  });

const list = async (app: AppLike, u: User) =>
  (await app.inject({ method: 'GET', url: '/api/v1/conversations', headers: u.headers })).json() as Conversation[];

describe.each(DB_KINDS)('messaging on %s', (kind) => {
  const t = useTestApp(kind);
  const count = async (table: 'messages' | 'conversations') =>
    Number(
      (
        await t()
          .db.selectFrom(table)
          .select((s) => s.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('sends idempotently by clientId: a retry returns the same message with 200 and writes no second row', async () => {
    const { a, conversationId } = await matched(t().app, t().db);
    const clientId = randomUUID();
    const first = await send(t().app, a, conversationId, 'hi there', clientId);
    expect(first.statusCode).toBe(201);
    const again = await send(t().app, a, conversationId, 'hi there', clientId);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect(again.json().seq).toBe(first.json().seq);
    const rows = await t().db.selectFrom('messages').select('id').where('client_id', '=', clientId).execute();
    expect(rows).toHaveLength(1);
    // Concurrent retries too.
    const c2 = randomUUID();
    const both = await Promise.all([send(t().app, a, conversationId, 'x', c2), send(t().app, a, conversationId, 'x', c2)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    expect(both[0]!.json().id).toBe(both[1]!.json().id);
    const counter = await t()
      .db.selectFrom('message_counters')
      .select('count')
      .where('user_id', '=', a.user.uid)
      .executeTakeFirstOrThrow();
    expect(counter.count).toBe(2);
    // The same client id in another of his conversations is a conflict, and writes nothing.
    const c = await signUpMember(t().app, t().db);
    expect((await select(t().app, a, c)).statusCode).toBe(200);
    const other = (await select(t().app, c, a)).json().match.conversationId as string;
    const reused = await send(t().app, a, other, 'elsewhere', clientId);
    expect(reused.statusCode).toBe(409);
    expect(await t().db.selectFrom('messages').select('id').where('conversation_id', '=', other).execute()).toEqual([]);
  });

  it('enforces the daily tier limit (free: 5), counts new messages only, and resets on the next UTC day', async () => {
    const { a, conversationId } = await matched(t().app, t().db);
    await setTier(t().db, a.user.uid, 'free');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(randomUUID());
      expect((await send(t().app, a, conversationId, `m${i}`, ids[i])).statusCode).toBe(201);
    }
    // A retry of a sent one still answers (not counted).
    expect((await send(t().app, a, conversationId, 'm0', ids[0])).statusCode).toBe(200);
    const sixth = await send(t().app, a, conversationId, 'm5');
    expect(sixth.statusCode).toBe(403);
    expect(sixth.json()).toMatchObject({ error: 'limit_reached', message: messageLimitText('free') });
    // 12:00 → 00:01 the next UTC day (a fresh token: the old one has expired).
    t().clock.advance(12 * 60 * 60 * 1000 + 60_000);
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: a.user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const fresh = { ...a, headers: { authorization: `Bearer ${login.json().token}` } };
    expect((await send(t().app, fresh, conversationId, 'next day')).statusCode).toBe(201);
    // The profile's messages stat counts every new message over both days, not the retry or the refused one.
    const me = await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: fresh.headers });
    expect(me.json().stats.messages).toBe(6);
    const session = await t().app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: fresh.headers });
    expect(session.json().user.stats.messages).toBe(6);
  });

  it('lets matched users start a conversation, refuses unmatched Free and Premium (403), allows Platinum', async () => {
    const { a, b } = await matched(t().app, t().db);
    const open = (u: User, other: User) =>
      t().app.inject({ method: 'POST', url: '/api/v1/conversations', headers: u.headers, payload: { userId: other.user.uid } });
    const ok = await open(a, b);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ type: 'matched', other: { uid: b.user.uid }, unreadCount: 0, lastMessage: null });

    const [p, f, q] = [
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
    ];
    await setTier(t().db, f.user.uid, 'free');
    const premium = await open(p, q);
    expect(premium.statusCode).toBe(403);
    expect(premium.json().message).toMatch(/Platinum/);
    expect((await open(f, q)).statusCode).toBe(403);
    expect(
      await t()
        .db.selectFrom('conversations')
        .selectAll()
        .where('user_a', 'in', [p.user.uid, q.user.uid])
        .where('user_b', 'in', [p.user.uid, q.user.uid])
        .execute(),
    ).toEqual([]);

    await setTier(t().db, p.user.uid, 'platinum');
    const plat = await open(p, q);
    expect(plat.statusCode).toBe(200);
    expect(plat.json().type).toBe('direct');
    expect((await send(t().app, p, plat.json().id)).statusCode).toBe(201);
    // And the other side may answer in it.
    expect((await send(t().app, q, plat.json().id, 'hey')).statusCode).toBe(201);
    // Opening again returns the same conversation.
    expect((await open(q, p)).json().id).toBe(plat.json().id);
  });

  it('blocking deletes the conversation for both, and send/open/typing answer 404 after', async () => {
    const { a, b, conversationId } = await matched(t().app, t().db);
    await send(t().app, a, conversationId);
    const la = await openLive(t().app, a.token);
    const lb = await openLive(t().app, b.token);
    const res = await t().app.inject({ method: 'POST', url: `/api/v1/users/${b.user.uid}/block`, headers: a.headers });
    expect(res.statusCode).toBe(204);
    expect(await la.next('conversation')).toEqual({ type: 'conversation', conversationId, removed: true });
    expect(await lb.next('conversation')).toEqual({ type: 'conversation', conversationId, removed: true });
    await la.close();
    await lb.close();
    expect((await list(t().app, a)).map((c) => c.id)).not.toContain(conversationId);
    expect((await list(t().app, b)).map((c) => c.id)).not.toContain(conversationId);
    expect(await t().db.selectFrom('messages').select('id').where('conversation_id', '=', conversationId).execute()).toEqual([]);

    const sent = await send(t().app, b, conversationId);
    expect(sent.statusCode).toBe(404);
    expect(sent.json().message).toBe(COULD_NOT_FIND_CONVERSATION);
    const opened = await t().app.inject({
      method: 'POST',
      url: '/api/v1/conversations',
      headers: b.headers,
      payload: { userId: a.user.uid },
    });
    // Opening one with the man who blocked him answers as for a deactivated account: he must
    // not learn that he was blocked (core access: a block looks like nobody there).
    expect(opened.statusCode).toBe(404);
    expect(opened.json().message).toBe(Messages.userNotFound);
    const gone = await signUpMember(t().app, t().db);
    await t().db.updateTable('users').set({ is_active: false }).where('id', '=', gone.user.uid).execute();
    const deactivated = await t().app.inject({
      method: 'POST',
      url: '/api/v1/conversations',
      headers: b.headers,
      payload: { userId: gone.user.uid },
    });
    expect(deactivated.json()).toEqual(opened.json());
    // Matches, profile and the blocked list.
    const matches = await t().app.inject({ method: 'GET', url: '/api/v1/matches', headers: b.headers });
    expect(matches.json()).toEqual([]);
    expect((await t().app.inject({ method: 'GET', url: `/api/v1/users/${a.user.uid}`, headers: b.headers })).statusCode).toBe(
      404,
    );
    const blocked = await t().app.inject({ method: 'GET', url: '/api/v1/me/blocked', headers: a.headers });
    expect(blocked.json()).toEqual([{ uid: b.user.uid, displayName: null, photoURL: null, blockedAt: expect.any(String) }]);
    expect(
      (await t().app.inject({ method: 'POST', url: `/api/v1/users/${a.user.uid}/block`, headers: a.headers })).statusCode,
    ).toBe(400);
    expect((await t().app.inject({ method: 'POST', url: `/api/v1/users/nobody/block`, headers: a.headers })).statusCode).toBe(
      404,
    );
    // Unblock: the list empties; the match is not restored.
    expect(
      (await t().app.inject({ method: 'DELETE', url: `/api/v1/users/${b.user.uid}/block`, headers: a.headers })).statusCode,
    ).toBe(204);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me/blocked', headers: a.headers })).json()).toEqual([]);
  });

  it('delete for me hides the conversation from me only, until a new message arrives', async () => {
    const { a, b, conversationId } = await matched(t().app, t().db);
    await send(t().app, a, conversationId);
    expect(
      (await t().app.inject({ method: 'DELETE', url: `/api/v1/conversations/${conversationId}`, headers: b.headers })).statusCode,
    ).toBe(204);
    expect((await list(t().app, b)).map((c) => c.id)).not.toContain(conversationId);
    expect((await list(t().app, a)).map((c) => c.id)).toContain(conversationId);
    await send(t().app, a, conversationId, 'are you there?');
    const back = (await list(t().app, b)).find((c) => c.id === conversationId);
    expect(back).toMatchObject({ unreadCount: 1, lastMessage: { content: 'are you there?' } });
    const other = await signUpMember(t().app, t().db);
    expect(
      (await t().app.inject({ method: 'DELETE', url: `/api/v1/conversations/${conversationId}`, headers: other.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('keeps unread counts per user, the badge counts unread conversations, and read clears them', async () => {
    const { a, b, conversationId } = await matched(t().app, t().db);
    const badge = async (u: User) =>
      (await t().app.inject({ method: 'GET', url: '/api/v1/badges', headers: u.headers })).json().messages;
    expect(await badge(b)).toBe(0);
    await send(t().app, a, conversationId, 'one');
    const last = (await send(t().app, a, conversationId, 'two')).json() as Message;
    expect((await list(t().app, b))[0]).toMatchObject({ id: conversationId, unreadCount: 2, lastMessage: { content: 'two' } });
    expect((await list(t().app, a))[0]).toMatchObject({ id: conversationId, unreadCount: 0 });
    expect(await badge(b)).toBe(1);
    expect(await badge(a)).toBe(0);
    const read = await t().app.inject({
      method: 'POST',
      url: `/api/v1/conversations/${conversationId}/read`,
      headers: b.headers,
      payload: { upTo: last.seq },
    });
    expect(read.statusCode).toBe(204);
    expect((await list(t().app, b))[0]!.unreadCount).toBe(0);
    expect(await badge(b)).toBe(0);
  });

  it('pages back beyond 100 messages, oldest first', async () => {
    const { a, b, conversationId } = await matched(t().app, t().db);
    const seeded = Array.from({ length: 130 }, (_, i) => ({
      id: randomUUID(),
      conversation_id: conversationId,
      sender_id: i % 2 ? a.user.uid : b.user.uid,
      receiver_id: i % 2 ? b.user.uid : a.user.uid,
      client_id: randomUUID(),
      type: 'text' as const,
      content: `m${i}`,
      created_at: new Date(Date.UTC(2026, 5, 1, 12, 0, i)),
    }));
    await t().db.insertInto('messages').values(seeded).execute();
    const page1 = (
      await t().app.inject({ method: 'GET', url: `/api/v1/conversations/${conversationId}/messages`, headers: a.headers })
    ).json() as MessagePage;
    expect(page1.messages).toHaveLength(100);
    expect(page1.hasMore).toBe(true);
    expect(page1.messages[0]!.content).toBe('m30');
    expect(page1.messages.at(-1)!.content).toBe('m129');
    const page2 = (
      await t().app.inject({
        method: 'GET',
        url: `/api/v1/conversations/${conversationId}/messages?before=${page1.messages[0]!.seq}`,
        headers: a.headers,
      })
    ).json() as MessagePage;
    expect(page2.messages.map((m) => m.content)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
    expect(page2.hasMore).toBe(false);
    // Fetching marked a's received messages delivered.
    expect(page1.messages.filter((m) => m.receiverId === a.user.uid).every((m) => m.status === 'delivered')).toBe(true);
  });

  it('delivers live both ways with typing, delivered and read receipts for a Premium sender', async () => {
    const { a, b, conversationId } = await matched(t().app, t().db);
    const [la, lb, la2] = [await openLive(t().app, a.token), await openLive(t().app, b.token), await openLive(t().app, a.token)];
    const sent = (await send(t().app, a, conversationId, 'live one')).json() as Message;
    expect((await lb.next('message')).message).toEqual(sent);
    expect((await la.next('message')).message.id).toBe(sent.id);
    expect((await la2.next('message')).message.id).toBe(sent.id); // the sender's other tab
    expect(await la.next('delivered')).toEqual({ type: 'delivered', conversationId, upTo: sent.seq });

    const back = (await send(t().app, b, conversationId, 'live two')).json() as Message;
    expect((await la.next('message')).message.content).toBe('live two');

    const typing = await t().app.inject({
      method: 'POST',
      url: `/api/v1/conversations/${conversationId}/typing`,
      headers: b.headers,
      payload: { typing: true },
    });
    expect(typing.statusCode).toBe(204);
    expect(await la.next('typing')).toEqual({ type: 'typing', conversationId, userId: b.user.uid, typing: true });
    expect((await list(t().app, a))[0]!.typing).toBe(true);

    await t().app.inject({
      method: 'POST',
      url: `/api/v1/conversations/${conversationId}/read`,
      headers: b.headers,
      payload: { upTo: sent.seq },
    });
    expect(await la.next('read')).toEqual({ type: 'read', conversationId, upTo: sent.seq });
    const seenByA = (
      await t().app.inject({ method: 'GET', url: `/api/v1/conversations/${conversationId}/messages`, headers: a.headers })
    ).json() as MessagePage;
    expect(seenByA.messages.find((m) => m.id === sent.id)!.status).toBe('read');
    expect(seenByA.messages.find((m) => m.id === back.id)!.status).toBe('delivered');
    for (const c of [la, lb, la2]) await c.close();
  });

  it('sends no read receipt to a Free sender, nor when the reader turned receipts off', async () => {
    const { a, b, conversationId } = await matched(t().app, t().db);
    await setTier(t().db, a.user.uid, 'free');
    const la = await openLive(t().app, a.token);
    const m1 = (await send(t().app, a, conversationId, 'free')).json() as Message;
    await t().app.inject({
      method: 'POST',
      url: `/api/v1/conversations/${conversationId}/read`,
      headers: b.headers,
      payload: { upTo: m1.seq },
    });
    const page = (
      await t().app.inject({ method: 'GET', url: `/api/v1/conversations/${conversationId}/messages`, headers: a.headers })
    ).json() as MessagePage;
    expect(page.messages[0]!.status).toBe('delivered');

    await setTier(t().db, a.user.uid, 'premium');
    await t()
      .db.insertInto('user_settings')
      .values({ user_id: b.user.uid, gender_preferences: '[]', relationship_status_preferences: '[]', show_read_receipts: false })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ show_read_receipts: false }))
      .execute();
    const m2 = (await send(t().app, a, conversationId, 'premium')).json() as Message;
    await t().app.inject({
      method: 'POST',
      url: `/api/v1/conversations/${conversationId}/read`,
      headers: b.headers,
      payload: { upTo: m2.seq },
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(la.events.filter((e) => e.type === 'read')).toEqual([]);
    await la.close();
  });

  it('catches up after a reconnect: exactly the missed messages, no gaps or duplicates', async () => {
    const { a, b, conversationId } = await matched(t().app, t().db);
    const other = await matched(t().app, t().db);
    // b also talks in another conversation with a third user.
    const third = await signUpMember(t().app, t().db);
    await setTier(t().db, third.user.uid, 'platinum');
    const c3 = (
      await t().app.inject({
        method: 'POST',
        url: '/api/v1/conversations',
        headers: third.headers,
        payload: { userId: b.user.uid },
      })
    ).json().id as string;

    let lb = await openLive(t().app, b.token);
    const seen: Message[] = [];
    for (let i = 0; i < 3; i++) {
      await send(t().app, a, conversationId, `before ${i}`);
      seen.push((await lb.next('message')).message);
    }
    await lb.close();
    const missed: string[] = [];
    for (let i = 0; i < 4; i++) {
      missed.push((await send(t().app, a, conversationId, `missed ${i}`)).json().id);
      missed.push((await send(t().app, third, c3, `third ${i}`)).json().id);
      await send(t().app, other.a, other.conversationId, 'not for b');
    }
    missed.push((await send(t().app, b, conversationId, 'from b elsewhere')).json().id);
    lb = await openLive(t().app, b.token);
    const cursor = Math.max(...seen.map((m) => m.seq));
    const since = (
      await t().app.inject({ method: 'GET', url: `/api/v1/messages/since?after=${cursor}`, headers: b.headers })
    ).json() as MessagePage;
    expect(since.messages.map((m) => m.id)).toEqual(missed);
    expect(since.hasMore).toBe(false);
    const seqs = since.messages.map((m) => m.seq);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    // A live message after the reconnect continues past the cursor.
    const after = (await send(t().app, a, conversationId, 'after')).json() as Message;
    expect((await lb.next('message')).message.id).toBe(after.id);
    expect(after.seq).toBeGreaterThan(seqs.at(-1)!);
    await lb.close();
  });

  it('rejects bad input on each route with a clear 4xx and writes nothing', async () => {
    const { a, conversationId } = await matched(t().app, t().db);
    const before = await count('messages');
    const bad = [
      { method: 'POST', url: `/api/v1/conversations/${conversationId}/messages`, payload: { clientId: 'short', content: 'x' } },
      {
        method: 'POST',
        url: `/api/v1/conversations/${conversationId}/messages`,
        payload: { clientId: randomUUID(), content: '   ' },
      },
      {
        method: 'POST',
        url: `/api/v1/conversations/${conversationId}/messages`,
        payload: { clientId: randomUUID(), content: 'x'.repeat(2001) },
      },
      {
        method: 'POST',
        url: `/api/v1/conversations/${conversationId}/messages`,
        payload: { clientId: randomUUID(), type: 'photo', photoId: 'nope' },
      },
      {
        method: 'POST',
        url: `/api/v1/conversations/${conversationId}/messages`,
        payload: { clientId: randomUUID(), type: 'video', content: 'x' },
      },
      { method: 'POST', url: `/api/v1/conversations/${conversationId}/read`, payload: { upTo: -1 } },
      { method: 'POST', url: `/api/v1/conversations/${conversationId}/typing`, payload: { typing: 'yes' } },
      { method: 'POST', url: '/api/v1/conversations', payload: {} },
      { method: 'POST', url: '/api/v1/conversations', payload: { userId: a.user.uid } },
      { method: 'GET', url: `/api/v1/conversations/${conversationId}/messages?limit=500` },
      { method: 'GET', url: '/api/v1/messages/since?after=-5' },
      { method: 'GET', url: '/api/v1/messages/since' },
      { method: 'POST', url: '/api/v1/messages/photos', payload: { file: 'x' } },
    ] as const;
    for (const r of bad) {
      const res = await t().app.inject({ ...r, headers: a.headers });
      expect(res.statusCode, `${r.method} ${r.url} ${JSON.stringify('payload' in r ? r.payload : '')}`).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    for (const url of [`/api/v1/conversations/nope/messages`, `/api/v1/conversations/nope`]) {
      const res = await t().app.inject({ method: 'GET', url, headers: a.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(COULD_NOT_FIND_CONVERSATION);
    }
    const stranger = await signUpMember(t().app, t().db);
    const foreign = await send(t().app, stranger, conversationId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(COULD_NOT_FIND_CONVERSATION);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/conversations', headers: {} })).statusCode).toBe(401);
    expect(await count('messages')).toBe(before);
  });

  it('publishes presence to conversation partners and keeps it in live_connections', async () => {
    const { a, b } = await matched(t().app, t().db);
    const la = await openLive(t().app, a.token);
    const lb = await openLive(t().app, b.token);
    expect(await la.next('presence')).toEqual({ type: 'presence', userId: b.user.uid, isOnline: true });
    // a's connection row is written in the background: wait for it.
    const rows = () =>
      t().db.selectFrom('live_connections').select('user_id').where('user_id', 'in', [a.user.uid, b.user.uid]).execute();
    for (let i = 0; i < 100 && (await rows()).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await rows()).toHaveLength(2);
    await lb.close();
    expect(await la.next('presence')).toEqual({ type: 'presence', userId: b.user.uid, isOnline: false });
    const conv = (await list(t().app, a))[0]!;
    expect(conv.other.isOnline).toBe(false);
    await la.close();
  });
});

// A message sent through instance one arrives live on a socket of instance two (LISTEN/NOTIFY).
describe.runIf(DB_KINDS.includes('postgres'))('messaging across two instances on PostgreSQL', () => {
  const config = testConfig();
  let close: Array<() => Promise<unknown>> = [];
  let one: Awaited<ReturnType<typeof createApp>>;
  let oneDb: TestApp['db'];
  let two: Awaited<ReturnType<typeof createApp>>;

  beforeAll(async () => {
    const d1 = await openTestDatabase('postgres');
    const d2 = await openDatabase({ databaseUrl: d1.url, schema: d1.schema });
    one = await createApp({ config, database: d1, logger: false });
    oneDb = d1.db;
    two = await createApp({ config, database: d2, logger: false });
    close = [() => two.close(), () => one.close()];
  });
  afterAll(async () => {
    for (const c of close) await c();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('fans a message out to a socket on the other instance, with presence across instances', async () => {
    const { a, b, conversationId } = await matched(one, oneDb);
    const aOnTwo = await openLive(two, a.token);
    const bOnTwo = await openLive(two, b.token);
    const bOnOne = await openLive(one, b.token);
    const sent = await send(one, a, conversationId, 'across');
    expect(sent.statusCode).toBe(201);
    expect((await bOnTwo.next('message')).message.id).toBe(sent.json().id);
    expect((await aOnTwo.next('message')).message.id).toBe(sent.json().id);
    expect((await aOnTwo.next('delivered')).upTo).toBe(sent.json().seq);
    // b keeps a socket on instance one: closing the one on two leaves him online.
    await bOnTwo.close();
    await new Promise((r) => setTimeout(r, 200));
    const isOnline = async () =>
      (await one.inject({ method: 'GET', url: `/api/v1/conversations/${conversationId}`, headers: a.headers })).json().other
        .isOnline;
    expect(await isOnline()).toBe(true);
    await bOnOne.close();
    let p = await aOnTwo.next('presence');
    while (p.isOnline) p = await aOnTwo.next('presence');
    expect(p).toEqual({ type: 'presence', userId: b.user.uid, isOnline: false });
    expect(await isOnline()).toBe(false);
    await aOnTwo.close();
  });
});
