import { type Prompt, STARTER_PROMPTS } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { seedStarterPrompts } from './repo.ts';

describe.each(DB_KINDS)('prompts on %s', (kind) => {
  const t = useTestApp(kind);

  it('requires authentication', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/prompts' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Authentication required' });
  });

  it('lists the ten starter prompts, seeded once, by category then text', async () => {
    await seedStarterPrompts(t().db); // a second instance starting: nothing changes
    const { headers } = await signUp(t().app);
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/prompts', headers });
    expect(res.statusCode).toBe(200);
    const prompts = res.json() as Prompt[];
    expect(prompts).toHaveLength(10);
    expect(new Set(prompts.map((p) => p.text))).toEqual(new Set(STARTER_PROMPTS.map((p) => p.text)));
    expect(new Set(prompts.map((p) => p.category)).size).toBeGreaterThanOrEqual(5);
    const keys = prompts.map((p) => `${p.category}\u0000${p.text}`);
    expect(keys).toEqual([...keys].sort());
    expect(prompts.every((p) => p.isActive && p.usageCount === 0)).toBe(true);
    const rows = await t().db.selectFrom('prompts').select(['id', 'created_by']).execute();
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.created_by === 'system' && /^starter-\d+$/.test(r.id))).toBe(true);
  });

  it('hides inactive prompts from users', async () => {
    await t().db.updateTable('prompts').set({ is_active: false }).where('id', '=', 'starter-3').execute();
    const { headers } = await signUp(t().app);
    const prompts = (await t().app.inject({ method: 'GET', url: '/api/v1/prompts', headers })).json() as Prompt[];
    expect(prompts).toHaveLength(9);
    expect(prompts.map((p) => p.id)).not.toContain('starter-3');
    // Re-seeding does not revive a prompt an admin switched off.
    await seedStarterPrompts(t().db);
    const again = (await t().app.inject({ method: 'GET', url: '/api/v1/prompts', headers })).json() as Prompt[];
    expect(again).toHaveLength(9);
    await t().db.updateTable('prompts').set({ is_active: true }).where('id', '=', 'starter-3').execute();
  });
});
