import { randomUUID } from 'node:crypto';
import type { LikesPage, Match, SelectionResult, Stats } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { block, setTier, type signUp, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';

type User = Awaited<ReturnType<typeof signUp>>;
type Action = 'fuck' | 'marry' | 'kill';
type Ten<T> = [T, T, T, T, T, T, T, T, T, T];

describe.each(DB_KINDS)('the game on %s', (kind) => {
  const t = useTestApp(kind);
  const select = (u: User, targetId: string, action: Action, opts: { super?: boolean; clientId?: string } = {}) =>
    t().app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers: u.headers,
      payload: { targetId, action, super: opts.super ?? false, clientId: opts.clientId ?? randomUUID() },
    });
  const ok = async (u: User, targetId: string, action: Action, opts: { super?: boolean; clientId?: string } = {}) => {
    const res = await select(u, targetId, action, opts);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SelectionResult;
  };
  const get = async <T>(u: User, url: string) => {
    const res = await t().app.inject({ method: 'GET', url, headers: u.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const stats = async (u: User) =>
    (await t().db.selectFrom('users').select('stats').where('id', '=', u.user.uid).executeTakeFirstOrThrow()).stats as Stats;
  const selectionsOf = (u: User) => t().db.selectFrom('selections').selectAll().where('chooser_id', '=', u.user.uid).execute();
  const pairRows = async (table: 'matches' | 'conversations', a: User, b: User) => {
    const [x, y] = [a.user.uid, b.user.uid].sort() as [string, string];
    return t().db.selectFrom(table).selectAll().where('user_a', '=', x).where('user_b', '=', y).execute();
  };
  /** n new users (signed up from localhost, so premium beta users). */
  const users = async (n: number) => {
    const out: User[] = [];
    for (let i = 0; i < n; i++) out.push(await signUpMember(t().app, t().db));
    return out as Ten<User>;
  };

  it('requires authentication', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      payload: { targetId: 'x', action: 'fuck', clientId: randomUUID() },
    });
    expect(res.statusCode).toBe(401);
  });

  it('validates: bad action 400; self, unknown, inactive and blocked either way 404; appMode must offer the action', async () => {
    const [a, b, c, d, e] = await users(5);
    const bad = await t().app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers: a.headers,
      payload: { targetId: b.user.uid, action: 'date', clientId: randomUUID() },
    });
    expect(bad.statusCode).toBe(400);
    expect((await select(a, b.user.uid, 'fuck', { clientId: 'short' })).statusCode).toBe(400);

    for (const target of [a.user.uid, 'no-such-user']) {
      const res = await select(a, target, 'fuck');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('User not found');
    }
    await block(t().db, a.user.uid, b.user.uid);
    await block(t().db, c.user.uid, a.user.uid);
    await t().db.updateTable('users').set({ is_active: false }).where('id', '=', d.user.uid).execute();
    for (const target of [b, c, d]) {
      const res = await select(a, target.user.uid, 'marry');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('User not found');
    }

    // F#K (fuck-only) offers fuck alone; #MK marry alone; kill is always there.
    await t().db.updateTable('users').set({ app_mode: 'fuck' }).where('id', '=', a.user.uid).execute();
    const marry = await select(a, e.user.uid, 'marry');
    expect(marry.statusCode).toBe(400);
    expect(marry.json().message).toBe('Marry is not offered in your app mode.');
    expect((await ok(a, e.user.uid, 'kill')).action).toBe('kill');
    expect((await ok(a, e.user.uid, 'fuck')).action).toBe('fuck');
    await t().db.updateTable('users').set({ app_mode: 'marry' }).where('id', '=', a.user.uid).execute();
    expect((await select(a, e.user.uid, 'fuck')).statusCode).toBe(400);
    expect(await selectionsOf(a)).toHaveLength(1);
  });

  it('does not store kill', async () => {
    const [a, b] = await users(2);
    const clientId = randomUUID();
    const first = await ok(a, b.user.uid, 'kill', { clientId, super: true });
    expect(first).toEqual({ action: 'kill', super: false, match: null, superRemaining: 5 });
    expect(await ok(a, b.user.uid, 'kill', { clientId })).toEqual(first);
    expect(await selectionsOf(a)).toEqual([]);
    expect((await stats(b)).likes).toBe(0);
  });

  it('is idempotent by clientId and replaces an earlier choice toward the same target', async () => {
    const [a, b, c] = await users(3);
    const clientId = randomUUID();
    const first = await ok(a, b.user.uid, 'fuck', { clientId, super: true });
    expect(first).toMatchObject({ action: 'fuck', super: true, match: null, superRemaining: 4 });
    expect(await ok(a, b.user.uid, 'fuck', { clientId, super: true })).toEqual(first);
    expect(await selectionsOf(a)).toHaveLength(1);
    expect(await stats(b)).toMatchObject({ likes: 1 });
    expect(await stats(a)).toMatchObject({ superLikes: 1 });

    // The same client id for another selection is refused.
    expect((await select(a, c.user.uid, 'fuck', { clientId })).statusCode).toBe(409);

    const replaced = await ok(a, b.user.uid, 'marry');
    expect(replaced).toMatchObject({ action: 'marry', super: false, superRemaining: 4 });
    const rows = await selectionsOf(a);
    expect(rows.map((r) => [r.target_id, r.action, r.is_super])).toEqual([[b.user.uid, 'marry', false]]);
    // A replaced choice is not a new like.
    expect((await stats(b)).likes).toBe(1);
  });

  it('allows 1 super a day to free users, 5 to premium, unlimited to platinum; the next UTC day resets', async () => {
    // Late in the UTC day, so that tokens are still valid after midnight.
    const clock = t().clock;
    const start = clock.now();
    clock.set('2026-06-01T23:30:00Z');
    const [free, premium, platinum, ...targets] = await users(10);
    await setTier(t().db, free!.user.uid, 'free');
    await setTier(t().db, platinum!.user.uid, 'platinum');
    const tid = (i: number) => targets[i]!.user.uid;

    expect((await ok(free!, tid(0), 'fuck', { super: true })).superRemaining).toBe(0);
    const refused = await select(free!, tid(1), 'marry', { super: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'limit_reached',
      message: 'Super likes are used up for today. Get more with Premium membership...',
    });
    // Nothing was stored by the refused call; a plain selection still goes through.
    expect((await ok(free!, tid(1), 'marry')).superRemaining).toBe(0);
    // A super again toward someone already super-fucked costs nothing.
    expect((await ok(free!, tid(0), 'fuck', { super: true })).super).toBe(true);

    for (let i = 0; i < 5; i++) expect((await ok(premium!, tid(i), 'fuck', { super: true })).superRemaining).toBe(4 - i);
    const premiumRefused = await select(premium!, tid(5), 'fuck', { super: true });
    expect(premiumRefused.statusCode).toBe(403);
    expect(premiumRefused.json().message).toBe(
      'Super likes are used up for today. Get unlimited super likes with Platinum membership...',
    );

    for (let i = 0; i < 7; i++) expect((await ok(platinum!, tid(i), 'marry', { super: true })).superRemaining).toBe(-1);
    expect((await stats(platinum!)).superLikes).toBe(7);
    expect((await stats(free!)).superLikes).toBe(1);

    // At 23:59:59 still refused, at 00:00 the next day allowed again.
    clock.set('2026-06-01T23:59:59Z');
    expect((await select(free!, tid(2), 'fuck', { super: true })).statusCode).toBe(403);
    clock.set('2026-06-02T00:00:00Z');
    expect((await ok(free!, tid(2), 'fuck', { super: true })).superRemaining).toBe(0);
    clock.set(start);
  });

  it('sends the super event to the target at once', async () => {
    const [a, b] = await users(2);
    await t()
      .db.updateTable('users')
      .set({ display_name: 'Alex', photo_url: '/files/a.webp' })
      .where('id', '=', a.user.uid)
      .execute();
    const live = await openLive(t().app, b.token);
    await ok(a, b.user.uid, 'fuck', { super: true });
    expect(await live.next('super')).toEqual({
      type: 'super',
      kind: 'super-fuck',
      from: { uid: a.user.uid, displayName: 'Alex', photoURL: '/files/a.webp', verified: false },
    });
    await live.close();
  });

  it.each([
    ['fuck', 'fuck', 'perfect-fuck'],
    ['marry', 'marry', 'perfect-marry'],
    ['fuck', 'marry', 'mixed'],
    ['marry', 'fuck', 'mixed'],
  ] as const)('matches %s + %s as %s', async (first, second, type) => {
    const [a, b] = await users(2);
    expect((await ok(a, b.user.uid, first)).match).toBeNull();
    const res = await ok(b, a.user.uid, second);
    expect(res.match).toMatchObject({
      matchType: type,
      userActions: { [a.user.uid]: first, [b.user.uid]: second },
      users: [a.user.uid, b.user.uid].sort(),
      other: { uid: a.user.uid },
    });
    expect(res.match!.matchedAt).toBe(t().clock.now().toISOString());
    const [conv] = await pairRows('conversations', a, b);
    expect(conv).toMatchObject({ type: 'matched', mode: 'dating', match_type: type, id: res.match!.conversationId });
  });

  it('creates the conversation once and reuses it when the match changes; keeps stats true', async () => {
    const [a, b] = await users(2);
    await t().db.updateTable('users').set({ current_mode: 'now' }).where('id', '=', b.user.uid).execute();
    await ok(a, b.user.uid, 'fuck');
    expect(await stats(b)).toMatchObject({ likes: 1, datingLikes: 1, nowTaps: 0, matches: 0 });
    const m1 = (await ok(b, a.user.uid, 'fuck')).match!;
    expect(await stats(a)).toMatchObject({ likes: 1, datingLikes: 0, nowTaps: 1, matches: 1 });
    expect(await stats(b)).toMatchObject({ matches: 1 });

    t().clock.advance(60_000);
    const m2 = (await ok(a, b.user.uid, 'marry')).match!;
    expect(m2).toMatchObject({ id: m1.id, conversationId: m1.conversationId, matchType: 'mixed' });
    expect(m2.matchedAt).not.toBe(m1.matchedAt);
    expect(await pairRows('matches', a, b)).toHaveLength(1);
    expect(await pairRows('conversations', a, b)).toHaveLength(1);
    // A changed match is not a new one.
    expect(await stats(a)).toMatchObject({ matches: 1, likes: 1 });
    expect(await stats(b)).toMatchObject({ matches: 1, likes: 1 });

    const listA = await get<Match[]>(a, '/api/v1/matches');
    expect(listA.map((m) => [m.id, m.other.uid, m.matchType])).toEqual([[m1.id, b.user.uid, 'mixed']]);
    const listB = await get<Match[]>(b, '/api/v1/matches');
    expect(listB[0]!.other.uid).toBe(a.user.uid);
  });

  it('lists matches newest first and hides blocked users', async () => {
    const [me, x, y, z] = await users(4);
    for (const other of [x!, y!, z!]) {
      await ok(me!, other.user.uid, 'fuck');
      t().clock.advance(1000);
      await ok(other, me!.user.uid, 'marry');
    }
    expect((await get<Match[]>(me!, '/api/v1/matches')).map((m) => m.other.uid)).toEqual([z, y, x].map((u) => u!.user.uid));
    await block(t().db, y!.user.uid, me!.user.uid);
    expect((await get<Match[]>(me!, '/api/v1/matches')).map((m) => m.other.uid)).toEqual([z, x].map((u) => u!.user.uid));
  });

  it('makes exactly one match and one conversation when two users choose each other at the same moment', async () => {
    for (let i = 0; i < 20; i++) {
      const [a, b] = await users(2);
      const [ra, rb] = await Promise.all([ok(a!, b!.user.uid, 'fuck'), ok(b!, a!.user.uid, 'marry')]);
      // Exactly one of the two saw the other's selection and made the match.
      expect([ra.match, rb.match].filter(Boolean)).toHaveLength(1);
      expect(await pairRows('matches', a!, b!)).toHaveLength(1);
      expect(await pairRows('conversations', a!, b!)).toHaveLength(1);
      expect((await stats(a!)).matches).toBe(1);
      expect((await stats(b!)).matches).toBe(1);
    }
  });

  it('sends the match event to both users live', async () => {
    const [a, b] = await users(2);
    const [la, lb] = [await openLive(t().app, a.token), await openLive(t().app, b.token)];
    await ok(a, b.user.uid, 'marry');
    expect(await lb.next('like')).toEqual({ type: 'like', count: 1 });
    const res = await ok(b, a.user.uid, 'marry');
    const [ea, eb] = [await la.next('match'), await lb.next('match')];
    expect(ea).toEqual({
      type: 'match',
      new: true,
      match: { ...res.match!, other: { uid: b.user.uid, displayName: null, photoURL: null, verified: false } },
    });
    expect(eb).toEqual({ type: 'match', new: true, match: res.match });
    // The match takes the selection off b's pending list.
    expect(await lb.next('like')).toEqual({ type: 'like', count: 0 });
    await la.close();
    await lb.close();
  });

  it('who likes you: counts and blurred cards for free users, identities for premium; seen; badges', async () => {
    const [me, f1, f2, m1, matched] = await users(5);
    await setTier(t().db, me!.user.uid, 'free');
    const names = ['Fred One', 'Fred Two', 'Mary One', 'Matt Matched'];
    for (const [i, u] of [f1, f2, m1, matched].entries()) {
      await t().db.updateTable('users').set({ display_name: names[i]! }).where('id', '=', u!.user.uid).execute();
    }
    await ok(f1!, me!.user.uid, 'fuck');
    t().clock.advance(1000);
    await ok(m1!, me!.user.uid, 'marry', { super: true });
    t().clock.advance(1000);
    await ok(f2!, me!.user.uid, 'fuck');
    t().clock.advance(1000);
    await ok(matched!, me!.user.uid, 'fuck');
    await ok(me!, matched!.user.uid, 'fuck');

    const res = await t().app.inject({ method: 'GET', url: '/api/v1/likes', headers: me!.headers });
    const page = res.json() as LikesPage;
    expect(page).toMatchObject({ count: 3, fuck: 2, marry: 1, unseen: 3, redacted: true });
    expect(page.items.map((i) => [i.user, i.action, i.super, i.seen])).toEqual([
      [null, 'fuck', false, false],
      [null, 'marry', true, false],
      [null, 'fuck', false, false],
    ]);
    // The server sends no identities to a free user.
    for (const u of [f1, f2, m1]) expect(res.body).not.toContain(u!.user.uid);
    for (const n of names.slice(0, 3)) expect(res.body).not.toContain(n);

    expect(await get(me!, '/api/v1/badges')).toEqual({ messages: 3 });

    await setTier(t().db, me!.user.uid, 'premium');
    const full = await get<LikesPage>(me!, '/api/v1/likes');
    expect(full.redacted).toBe(false);
    expect(full.items.map((i) => i.user?.uid)).toEqual([f2, m1, f1].map((u) => u!.user.uid));
    expect(full.items[0]!.user).toEqual({ uid: f2!.user.uid, displayName: 'Fred Two', age: 18, photoURL: null, verified: false });

    const seen = await t().app.inject({ method: 'POST', url: '/api/v1/likes/seen', headers: me!.headers });
    expect(seen.statusCode).toBe(204);
    const after = await get<LikesPage>(me!, '/api/v1/likes');
    expect(after).toMatchObject({ count: 3, unseen: 0 });
    expect(after.items.every((i) => i.seen)).toBe(true);

    // A blocked chooser drops out of the list and the badge.
    await block(t().db, me!.user.uid, f1!.user.uid);
    expect(await get(me!, '/api/v1/badges')).toEqual({ messages: 2 });
  });
});
