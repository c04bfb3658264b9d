import type { Alert } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, testConfig, useTestApp } from '../../../test/harness.ts';
import { LocalBus } from '../../platform/bus.ts';
import { ConfigError, loadConfig } from '../../platform/config.ts';
import { AlertsService } from './alerts.ts';
import { DEMO_CHANCE, DemoAlertGenerator } from './demo.ts';

describe('the demo alert generator (DEMO_SAFETY_ALERTS)', () => {
  it('is off by default and refused in production', () => {
    expect(testConfig().demoSafetyAlerts).toBe(false);
    expect(testConfig({ DEMO_SAFETY_ALERTS: 'true' }).demoSafetyAlerts).toBe(true);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DEMO_SAFETY_ALERTS: 'true',
        PUSH_ENABLED: 'false',
        SMS_ENABLED: 'false',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        TOKEN_SECRET: 'x'.repeat(40),
        EMAIL_HASH_KEY: 'y'.repeat(40),
        HEALTH_KEY: 'z'.repeat(40),
      }),
    ).toThrowError(new ConfigError('DEMO_SAFETY_ALERTS simulates safety alerts for demos and cannot be on in production'));
  });
});

describe.each(DB_KINDS)('the demo alert generator on %s', (kind) => {
  const t = useTestApp(kind, { env: { DEMO_SAFETY_ALERTS: 'true' } });

  it(`gives each online member a demo alert with a ${DEMO_CHANCE * 100} % chance a tick, and nobody offline`, async () => {
    const [lucky, unlucky, offline] = await Promise.all([1, 2, 3].map(() => signUpMember(t().app, t().db)));
    await t().db.updateTable('users').set({ is_online: true }).where('id', 'in', [lucky!.user.uid, unlucky!.user.uid]).execute();
    // Each online member draws once for the chance (and the lucky one once more for the type), in id order.
    const online = [lucky!.user.uid, unlucky!.user.uid].sort();
    const draws = new Map([
      [lucky!.user.uid, [DEMO_CHANCE / 2, 0]],
      [unlucky!.user.uid, [DEMO_CHANCE]],
    ]);
    const sequence = online.flatMap((id) => draws.get(id)!);
    const alerts = new AlertsService({ db: t().db, clock: t().clock, bus: new LocalBus() });
    const demo = new DemoAlertGenerator({ db: t().db, raise: (id, a) => alerts.raise(id, a), random: () => sequence.shift()! });
    expect(await demo.tick()).toBe(1);
    const list = async (u: typeof lucky) =>
      (await t().app.inject({ method: 'GET', url: '/api/v1/me/alerts', headers: u!.headers })).json() as Alert[];
    const [got] = await list(lucky);
    expect(got!.title).toMatch(/^Demo: /);
    expect(got!.message.length).toBeGreaterThan(20);
    expect(await list(unlucky)).toEqual([]);
    expect(await list(offline)).toEqual([]);
  });
});
