import type { PublicProfile } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { unlockProfile } from '../../../test/discovery.ts';
import { block, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('prompt likes on %s', (kind) => {
  const t = useTestApp(kind);
  const like = (headers: Headers, ownerId: string, promptId: string, method: 'POST' | 'DELETE' = 'POST') =>
    t().app.inject({ method, url: `/api/v1/users/${ownerId}/prompts/${promptId}/like`, headers });
  const likeCount = async (promptId: string) =>
    (await t().db.selectFrom('prompts').select('like_count').where('id', '=', promptId).executeTakeFirstOrThrow()).like_count;
  const answers = (headers: Headers, ids: number[]) =>
    t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers,
      payload: {
        datingProfile: { prompts: ids.map((n) => ({ promptId: `starter-${n}`, question: 'q', answer: `answer ${n}` })) },
      },
    });

  it('requires authentication', async () => {
    const owner = await signUpMember(t().app, t().db);
    const res = await like({}, owner.user.uid, 'starter-1');
    expect(res.statusCode).toBe(401);
  });

  it("likes another user's answer once, counts it per answer, and keeps prompts.like_count the total", async () => {
    const [o1, o2, x, y] = [
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
    ];
    await answers(o1.headers, [7, 8]);
    await answers(o2.headers, [7]);
    const base = await likeCount('starter-7');

    expect((await like(x.headers, o1.user.uid, 'starter-7')).json()).toEqual({ liked: true, likeCount: 1 });
    // Idempotent: a retried like changes nothing.
    expect((await like(x.headers, o1.user.uid, 'starter-7')).json()).toEqual({ liked: true, likeCount: 1 });
    expect((await like(y.headers, o1.user.uid, 'starter-7')).json()).toEqual({ liked: true, likeCount: 2 });
    // The same prompt answered by someone else is counted apart.
    expect((await like(x.headers, o2.user.uid, 'starter-7')).json()).toEqual({ liked: true, likeCount: 1 });
    expect(await likeCount('starter-7')).toBe(base + 3);

    // Opened from x's grid (the tier's clickable set is proven in discovery/grid.test.ts).
    await unlockProfile(t().db, x.user.uid, o1.user.uid, t().clock.now());
    const seen = (
      await t().app.inject({ method: 'GET', url: `/api/v1/users/${o1.user.uid}`, headers: x.headers })
    ).json() as PublicProfile;
    expect(seen.dating?.prompts.map((p) => [p.promptId, p.likeCount, p.likedByMe])).toEqual([
      ['starter-7', 2, true],
      ['starter-8', 0, false],
    ]);

    expect((await like(x.headers, o1.user.uid, 'starter-7', 'DELETE')).json()).toEqual({ liked: false, likeCount: 1 });
    expect((await like(x.headers, o1.user.uid, 'starter-7', 'DELETE')).json()).toEqual({ liked: false, likeCount: 1 });
    expect(await likeCount('starter-7')).toBe(base + 2);

    // Taking the answer off the profile takes its likes with it.
    await answers(o1.headers, [8, 9]);
    expect(await likeCount('starter-7')).toBe(base + 1);
    const rows = await t().db.selectFrom('prompt_likes').selectAll().where('owner_id', '=', o1.user.uid).execute();
    expect(rows).toEqual([]);
  });

  it('keeps counts true under concurrent likes', async () => {
    const owner = await signUpMember(t().app, t().db);
    await answers(owner.headers, [6, 7]);
    const fans = await Promise.all(Array.from({ length: 4 }, () => signUpMember(t().app, t().db)));
    const base = await likeCount('starter-6');
    const results = await Promise.all(
      fans.flatMap((f) => [like(f.headers, owner.user.uid, 'starter-6'), like(f.headers, owner.user.uid, 'starter-6')]),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await likeCount('starter-6')).toBe(base + 4);
  });

  it('refuses your own answers, unanswered or unknown prompts, blocked and hidden profiles', async () => {
    const owner = await signUpMember(t().app, t().db);
    const other = await signUpMember(t().app, t().db);
    await answers(owner.headers, [1, 2]);
    const own = await like(owner.headers, owner.user.uid, 'starter-1');
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe("You can't like your own prompt.");

    for (const promptId of ['starter-3', 'no-such-prompt']) {
      const r = await like(other.headers, owner.user.uid, promptId);
      expect(r.statusCode, promptId).toBe(404);
      expect(r.json().message).toBe('Prompt not found');
    }
    const unknownUser = await like(other.headers, 'nobody', 'starter-1');
    expect(unknownUser.statusCode).toBe(404);
    expect(unknownUser.json().message).toBe('User not found');

    // The dating section hidden from this viewer: its answers cannot be liked either.
    await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: owner.headers,
      payload: { modeVisibility: { datingVisibleToAll: false } },
    });
    expect((await like(other.headers, owner.user.uid, 'starter-1')).statusCode).toBe(404);
    await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: owner.headers,
      payload: { modeVisibility: { datingVisibleToAll: true } },
    });

    await block(t().db, owner.user.uid, other.user.uid);
    const blocked = await like(other.headers, owner.user.uid, 'starter-1');
    expect(blocked.statusCode).toBe(404);
    expect(blocked.json().message).toBe('User not found');
    expect(await t().db.selectFrom('prompt_likes').selectAll().where('owner_id', '=', owner.user.uid).execute()).toEqual([]);
  });
});
