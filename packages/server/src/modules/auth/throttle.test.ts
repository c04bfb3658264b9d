import { HOUR, Messages } from '@fmk/core';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { newEmail, PASSWORD } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { MAX_DELAY_MS, SIGN_IN_THROTTLE } from './throttle.ts';

const { pair, source, account } = SIGN_IN_THROTTLE;
const SECOND = 1000;

/** Every 429 says when to come back, in whole seconds. */
function retryAfter(res: LightMyRequestResponse): number {
  expect(res.statusCode).toBe(429);
  expect(res.json().message).toBe(Messages.tooManyAttempts);
  const v = Number(res.headers['retry-after']);
  expect(Number.isInteger(v) && v > 0).toBe(true);
  return v;
}

describe.each(DB_KINDS)('sign-in throttle on %s', (kind) => {
  const t = useTestApp(kind);
  const login = (email: string, password: string, ip: string) =>
    t().app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: ip });
  /** An owner who signed up (and so signed in) from `home`. */
  const owner = async (home: string) => {
    const email = newEmail('owner');
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email, password: PASSWORD },
      remoteAddress: home,
    });
    expect(res.statusCode).toBe(201);
    return email;
  };

  it('slows one email at one address with growing delays, and never delays the owner elsewhere', async () => {
    const email = await owner('10.1.0.1');
    const attacker = '10.1.9.9';
    for (let i = 0; i < pair.free; i++) expect((await login(email, `wrong ${i}`, attacker)).statusCode).toBe(401);
    // The attacker is told to wait, even with the right password (he learns nothing).
    expect(retryAfter(await login(email, PASSWORD, attacker))).toBe(pair.baseMs / 1000);
    // The owner, at his own address and at a new one, gets in at once.
    expect((await login(email, PASSWORD, '10.1.0.1')).statusCode).toBe(200);
    expect((await login(email, PASSWORD, '10.1.0.2')).statusCode).toBe(200);
    // Each further failure doubles the attacker's wait.
    t().clock.advance(pair.baseMs);
    let wait = pair.baseMs;
    for (let i = 0; i < 3; i++) {
      expect((await login(email, 'still wrong', attacker)).statusCode).toBe(401);
      wait *= 2;
      expect(retryAfter(await login(email, 'still wrong', attacker))).toBe(wait / 1000);
      t().clock.advance(wait - SECOND);
      expect(retryAfter(await login(email, 'still wrong', attacker))).toBe(1);
      t().clock.advance(SECOND);
    }
    expect((await login(email, 'still wrong', attacker)).statusCode).toBe(401);
  });

  it('slows one address trying many emails, and not the others', async () => {
    const ip = '10.2.9.9';
    for (let i = 0; i < source.free; i++) expect((await login(newEmail('guess'), PASSWORD, ip)).statusCode).toBe(401);
    const email = await owner('10.2.0.1');
    expect(retryAfter(await login(email, PASSWORD, ip))).toBe(source.baseMs / 1000);
    expect((await login(email, PASSWORD, '10.2.0.2')).statusCode).toBe(200);
    t().clock.advance(source.baseMs);
    expect((await login(email, PASSWORD, ip)).statusCode).toBe(200);
  });

  it('a guesser spread over many addresses delays only addresses the owner never used', async () => {
    const email = await owner('10.3.0.1');
    for (let i = 0; i < account.free; i++) expect((await login(email, 'guess', `10.3.9.${i + 1}`)).statusCode).toBe(401);
    // A new address waits, right password or not...
    expect(retryAfter(await login(email, PASSWORD, '10.3.8.1'))).toBe(account.baseMs / 1000);
    expect(retryAfter(await login(email, 'guess', '10.3.8.2'))).toBe(account.baseMs / 1000);
    // ...the owner at his address does not.
    expect((await login(email, PASSWORD, '10.3.0.1')).statusCode).toBe(200);
    // However long the attack, no wait is longer than the cap.
    let wait = account.baseMs / 1000;
    for (let i = 0; i < 6; i++) {
      t().clock.advance(wait * SECOND);
      expect((await login(email, 'guess', `10.3.7.${i + 1}`)).statusCode).toBe(401);
      wait = retryAfter(await login(email, PASSWORD, '10.3.8.1'));
      expect(wait).toBeLessThanOrEqual(MAX_DELAY_MS / 1000);
    }
    expect(wait).toBe(MAX_DELAY_MS / 1000);
    expect((await login(email, PASSWORD, '10.3.0.1')).statusCode).toBe(200);
  });

  it("the owner's own typos are forgiven by his next sign-in", async () => {
    const email = await owner('10.4.0.1');
    for (let i = 0; i < pair.free - 1; i++) expect((await login(email, 'typo typo', '10.4.0.1')).statusCode).toBe(401);
    expect((await login(email, PASSWORD, '10.4.0.1')).statusCode).toBe(200);
    for (let i = 0; i < pair.free - 1; i++) expect((await login(email, 'typo typo', '10.4.0.1')).statusCode).toBe(401);
    expect((await login(email, PASSWORD, '10.4.0.1')).statusCode).toBe(200);
  });
});

describe.each(DB_KINDS)('sign-up limit on %s', (kind) => {
  const t = useTestApp(kind, { env: { SIGNUP_LIMIT_PER_SOURCE: '10', SIGNUP_LIMIT_GLOBAL: '30' } });
  const signUp = (ip: string) =>
    t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: newEmail('new'), password: PASSWORD },
      remoteAddress: ip,
    });
  const users = async () =>
    Number(
      (
        await t()
          .db.selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('accepts 10 sign-ups an hour from one address: of 25 in a row, 15 are refused with Retry-After', async () => {
    const before = await users();
    const codes: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await signUp('10.5.0.1');
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().message).toBe(Messages.tooManySignUps);
        expect(res.headers['retry-after']).toBe('3600');
      }
    }
    expect(codes).toEqual([...Array(10).fill(201), ...Array(15).fill(429)]);
    expect(await users()).toBe(before + 10);
    // Another address is not held back by this one.
    expect((await signUp('10.5.0.2')).statusCode).toBe(201);
  });

  it('holds every address to a ceiling of 30 an hour in all, then lets them in again', async () => {
    // 11 so far (the test above); 19 more from as many addresses reach the ceiling.
    for (let i = 0; i < 19; i++) expect((await signUp(`10.6.0.${i + 1}`)).statusCode).toBe(201);
    const refused = await signUp('10.6.1.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    t().clock.advance(HOUR);
    expect((await signUp('10.6.1.1')).statusCode).toBe(201);
    expect((await signUp('10.5.0.1')).statusCode).toBe(201);
  });
});
