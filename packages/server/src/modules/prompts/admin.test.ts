import { type Prompt, type PromptAnalytics, STARTER_PROMPTS } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { unlockProfile } from '../../../test/discovery.ts';
import { makeStaff, signUp, signUpMember, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('admin prompt management on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1/admin/prompts${url}`, headers, ...(payload ? { payload } : {}) });
  async function admin(role: 'owner' | 'super_admin' | 'admin' = 'admin') {
    const a = await signUp(t().app);
    await makeStaff(t().db, a.user.uid, role);
    Object.assign(a.headers, await staffSignIn(t().app, a.user.email, t().clock.now()));
    return a;
  }
  const endpoints: [Parameters<typeof call>[0], string, object?][] = [
    ['GET', ''],
    ['GET', '/analytics'],
    ['POST', '', { text: 'A new prompt?' }],
    ['POST', '/seed'],
    ['PATCH', '/starter-1', { isActive: false }],
    ['DELETE', '/starter-1'],
  ];

  it("refuses every endpoint without a session: 401 'Not authenticated'", async () => {
    for (const [method, url, body] of endpoints) {
      const res = await call(method, url, {}, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthenticated', message: 'Not authenticated' });
    }
  });

  it("refuses users, moderators and inactive admins: 403 'Admin access required'", async () => {
    const user = await signUp(t().app);
    const moderator = await signUp(t().app);
    await makeStaff(t().db, moderator.user.uid, 'moderator');
    const inactive = await signUp(t().app);
    await makeStaff(t().db, inactive.user.uid, 'owner', false);
    for (const who of [user, moderator, inactive]) {
      for (const [method, url, body] of endpoints) {
        const res = await call(method, url, who.headers, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ error: 'admin_required', message: 'Admin access required' });
      }
    }
    const p = await t().db.selectFrom('prompts').select(['is_active']).where('id', '=', 'starter-1').executeTakeFirstOrThrow();
    expect(p.is_active).toBe(true);
  });

  it('lets owners, super admins and admins create, list (inactive too), update and delete', async () => {
    for (const role of ['owner', 'super_admin', 'admin'] as const) {
      const a = await admin(role);
      const created = await call('POST', '', a.headers, { text: `  What ${role} loves most...  ` });
      expect(created.statusCode, role).toBe(201);
      const prompt = created.json() as Prompt;
      expect(prompt).toMatchObject({
        text: `What ${role} loves most...`,
        category: 'General',
        isActive: true,
        usageCount: 0,
        likeCount: 0,
      });
      const row = await t().db.selectFrom('prompts').select('created_by').where('id', '=', prompt.id).executeTakeFirstOrThrow();
      expect(row.created_by).toBe(a.user.uid);

      const hidden = await call('PATCH', `/${prompt.id}`, a.headers, {
        isActive: false,
        category: 'Personal',
        text: 'Changed...',
      });
      expect(hidden.statusCode).toBe(200);
      expect(hidden.json()).toMatchObject({ id: prompt.id, isActive: false, category: 'Personal', text: 'Changed...' });
      const all = (await call('GET', '', a.headers)).json() as Prompt[];
      expect(all.find((p) => p.id === prompt.id)).toMatchObject({ isActive: false });
      const visible = (await t().app.inject({ method: 'GET', url: '/api/v1/prompts', headers: a.headers })).json() as Prompt[];
      expect(visible.map((p) => p.id)).not.toContain(prompt.id);

      expect((await call('DELETE', `/${prompt.id}`, a.headers)).statusCode).toBe(204);
      expect((await call('DELETE', `/${prompt.id}`, a.headers)).statusCode).toBe(404);
      expect((await call('PATCH', `/${prompt.id}`, a.headers, { isActive: true })).json()).toMatchObject({
        message: 'Prompt not found',
      });
    }
  });

  it('validates prompt bodies', async () => {
    const a = await admin();
    for (const body of [{}, { text: 'hi' }, { text: 'x'.repeat(201) }, { text: 'Valid text', category: '' }]) {
      expect((await call('POST', '', a.headers, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PATCH', '/starter-1', a.headers, { usageCount: 99 })).statusCode).toBe(400);
    expect((await call('PATCH', '/starter-1', a.headers, { isActive: 'no' })).statusCode).toBe(400);
  });

  it('deleting a prompt removes its likes; answers already given stay on profiles', async () => {
    const a = await admin();
    const owner = await signUp(t().app);
    const fan = await signUpMember(t().app, t().db);
    const prompt = (await call('POST', '', a.headers, { text: 'My hidden talent is...', category: 'Personal' })).json() as Prompt;
    const ans = (id: string, answer: string) => ({ promptId: id, question: 'q', answer });
    await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: owner.headers,
      payload: { datingProfile: { prompts: [ans(prompt.id, 'juggling.'), ans('starter-4', 'calm.')] } },
    });
    expect(
      (
        await t().app.inject({
          method: 'POST',
          url: `/api/v1/users/${owner.user.uid}/prompts/${prompt.id}/like`,
          headers: fan.headers,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('DELETE', `/${prompt.id}`, a.headers)).statusCode).toBe(204);
    expect(await t().db.selectFrom('prompt_likes').selectAll().where('prompt_id', '=', prompt.id).execute()).toEqual([]);

    // The owner's answer stays (with its question) and they can still save their profile.
    const me = await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: owner.headers,
      payload: { datingProfile: { prompts: [ans(prompt.id, 'juggling, still.'), ans('starter-4', 'calm.')] } },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().datingProfile.prompts[0]).toMatchObject({ question: 'My hidden talent is...', answer: 'juggling, still.' });
    // Opened from the fan's grid (the tier's clickable set is proven in discovery/grid.test.ts).
    await unlockProfile(t().db, fan.user.uid, owner.user.uid, t().clock.now());
    const seen = await t().app.inject({ method: 'GET', url: `/api/v1/users/${owner.user.uid}`, headers: fan.headers });
    expect(seen.json().dating.prompts[0]).toMatchObject({ promptId: prompt.id, likeCount: 0, likedByMe: false });
  });

  it('seeds the ten starters idempotently, restoring deleted ones', async () => {
    const a = await admin();
    expect((await call('POST', '/seed', a.headers)).json()).toEqual({ created: 0 });
    await call('DELETE', '/starter-10', a.headers);
    expect((await call('POST', '/seed', a.headers)).json()).toEqual({ created: 1 });
    expect((await call('POST', '/seed', a.headers)).json()).toEqual({ created: 0 });
    const all = (await call('GET', '', a.headers)).json() as Prompt[];
    for (const s of STARTER_PROMPTS) expect(all.map((p) => p.text)).toContain(s.text);
  });

  it('reports analytics: totals, active, usage, likes, top 10 by usage and counts by category', async () => {
    const a = await admin();
    // A fixed picture: only our prompts, with known counts.
    await t().db.deleteFrom('prompt_likes').execute();
    await t().db.deleteFrom('prompts').execute();
    const mk = (id: string, category: string, usage: number, likes: number, active = true) => ({
      id,
      text: `Prompt ${id}`,
      category,
      is_active: active,
      usage_count: usage,
      like_count: likes,
      created_by: 'test',
      updated_at: new Date(),
    });
    await t()
      .db.insertInto('prompts')
      .values([
        ...Array.from({ length: 11 }, (_, i) => mk(`p${String(i).padStart(2, '0')}`, 'Dating', i, 1)),
        mk('blank', '', 50, 2, false),
        mk('life', 'Lifestyle', 0, 0),
      ])
      .execute();
    const res = await call('GET', '/analytics', a.headers);
    expect(res.statusCode).toBe(200);
    const stats = res.json() as PromptAnalytics;
    expect(stats).toMatchObject({ totalPrompts: 13, activePrompts: 12, totalUsage: 55 + 50, totalLikes: 13 });
    expect(stats.byCategory).toEqual({ Dating: 11, General: 1, Lifestyle: 1 });
    expect(stats.topPrompts.map((p) => p.id)).toEqual(['blank', 'p10', 'p09', 'p08', 'p07', 'p06', 'p05', 'p04', 'p03', 'p02']);
    await call('POST', '/seed', a.headers);
  });

  it("counts categories named like an object's built-in keys ('toString': a 500 the fuzzer found) and refuses '__proto__'", async () => {
    const a = await admin();
    await t().db.deleteFrom('prompt_likes').execute();
    await t().db.deleteFrom('prompts').execute();
    for (const category of ['toString', 'constructor', 'toString'])
      expect((await call('POST', '', a.headers, { text: `About ${category}`, category })).statusCode).toBe(201);
    // '__proto__' is refused: a reader's JSON parse would make it the counts' prototype.
    const proto = await call('POST', '', a.headers, { text: 'About prototypes', category: '__proto__' });
    expect(proto.statusCode).toBe(400);
    expect(proto.body).toContain('Choose another category name.');
    const res = await call('GET', '/analytics', a.headers);
    expect(res.statusCode).toBe(200);
    const stats = res.json() as PromptAnalytics;
    expect(stats.totalPrompts).toBe(3);
    expect(Object.entries(stats.byCategory).sort()).toEqual([
      ['constructor', 1],
      ['toString', 2],
    ]);
    await call('POST', '/seed', a.headers);
  });
});
