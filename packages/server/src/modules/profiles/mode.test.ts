import type { Me } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

describe.each(DB_KINDS)('profile mode switching on %s', (kind) => {
  const t = useTestApp(kind);
  const switchMode = (headers: Record<string, string>, payload: unknown) =>
    t().app.inject({ method: 'POST', url: '/api/v1/me/mode', headers, payload: payload as object });
  const events = (userId: string) =>
    t()
      .db.selectFrom('mode_events')
      .select(['from_label', 'to_label', 'trigger', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();

  it('requires authentication', async () => {
    const res = await switchMode({}, { mode: 'now' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Authentication required');
  });

  it('sets currentMode and logs each switch with its from/to labels and trigger', async () => {
    const { headers, user } = await signUp(t().app);
    const now = await switchMode(headers, { mode: 'now' });
    expect(now.statusCode).toBe(200);
    expect((now.json() as Me).currentMode).toBe('now');
    t().clock.advance(60_000);
    const back = await switchMode(headers, { mode: 'dating', trigger: 'auto' });
    expect((back.json() as Me).currentMode).toBe('dating');
    expect(await events(user.uid)).toEqual([
      { from_label: 'Dating', to_label: 'Hookup', trigger: 'manual', created_at: new Date('2026-06-01T12:00:00Z') },
      { from_label: 'Hookup', to_label: 'Dating', trigger: 'auto', created_at: new Date('2026-06-01T12:01:00Z') },
    ]);
    const row = await t().db.selectFrom('users').select('current_mode').where('id', '=', user.uid).executeTakeFirstOrThrow();
    expect(row.current_mode).toBe('dating');
    t().clock.set('2026-06-01T12:00:00Z');
  });

  it('switching to the current mode changes nothing and logs nothing', async () => {
    const { headers, user } = await signUp(t().app);
    const res = await switchMode(headers, { mode: 'dating' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Me).currentMode).toBe('dating');
    expect(await events(user.uid)).toEqual([]);
  });

  it('refuses unknown modes and triggers', async () => {
    const { headers, user } = await signUp(t().app);
    for (const bad of [{ mode: 'hookup' }, { mode: 'now', trigger: 'cron' }, {}, { mode: 'now', extra: 1, trigger: 'nope' }]) {
      const res = await switchMode(headers, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await events(user.uid)).toEqual([]);
  });
});
