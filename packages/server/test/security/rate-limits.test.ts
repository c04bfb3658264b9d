import { randomUUID } from 'node:crypto';
import {
  FORGOT_PASSWORD_EMAIL_LIMIT,
  FORGOT_PASSWORD_IP_LIMIT,
  LIVE_CLOSE_TOO_MANY_FRAMES,
  PHONE_CODE_TRIES,
  PHONE_RESEND_WAIT_MS,
  PHONE_SEND_NUMBER_LIMIT,
  PHONE_SEND_USER_LIMIT,
  RESEND_VERIFICATION_LIMIT,
  USER_REPORT_LIMIT,
} from '@fmk/core';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { SIGN_IN_THROTTLE } from '../../src/modules/auth/throttle.ts';
import { finishOnboarding, newEmail, PASSWORD, setTier } from '../factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../harness.ts';
import { openLive } from '../live.ts';
import { lastCodeTo } from '../phone.ts';
import { recordScore } from './scoreboard.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });

/** The limits under test are the defaults (the harness raises the sign-up ones for other suites). */
const ENV = { SIGNUP_LIMIT_PER_SOURCE: '10', SIGNUP_LIMIT_GLOBAL: '300' };

/** One attempt's answer: refused (429 with a Retry-After, or the row's own refusal) or not, and what it was. */
interface Outcome {
  refused: boolean;
  note: string;
}

/**
 * A limit, tried at twice its figure: the first `limit` attempts must pass and every later one
 * be refused. `attempt` makes attempt i; a live channel row runs its frames itself (`run`).
 */
type Row = { name: string; limit: number } & (
  | { attempt: (i: number) => Promise<Outcome> }
  | { run: () => Promise<{ ok: boolean; note: string }> }
);

/** A 429 is a refusal only with a whole number of seconds to wait (Retry-After). */
function limited(res: LightMyRequestResponse): Outcome {
  const wait = Number(res.headers['retry-after']);
  if (res.statusCode === 429 && !(Number.isInteger(wait) && wait > 0)) return { refused: false, note: '429 without Retry-After' };
  return { refused: res.statusCode === 429, note: res.statusCode === 429 ? `429, Retry-After ${wait}` : String(res.statusCode) };
}

let addresses = 0;
/** A source address no other attempt of this file uses. */
const freshIp = () => {
  addresses += 1;
  return `10.77.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

/**
 * Rate limits: sign-in, sign-up, password reset, verification codes (mail and text), reports,
 * messages, location and the live channel's frames (count and size), each sent twice its limit:
 * everything past the limit is answered 429 with Retry-After, or the socket is closed.
 */
describe.each(DB_KINDS)('rate limits on %s', (kind) => {
  const t = useTestApp(kind, { env: ENV });
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, opts: { headers?: object; payload?: object; ip?: string } = {}) =>
    t().app.inject({
      method,
      url: `/api/v1${url}`,
      headers: (opts.headers ?? {}) as Record<string, string>,
      remoteAddress: opts.ip ?? freshIp(),
      ...(opts.payload ? { payload: opts.payload } : {}),
    });
  /** A member who finished onboarding, signed up from an address of his own (the sign-up limit counts per address). */
  const member = async () => {
    const email = newEmail('limits');
    const res = await api('POST', '/auth/signup', { payload: { email, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(201);
    const { token, user } = res.json() as { token: string; user: { uid: string } };
    await finishOnboarding(t().db, user.uid);
    return { email, uid: user.uid, token, headers: { authorization: `Bearer ${token}` } };
  };

  it('answers twice each limit with 429 and Retry-After past it, or closes the live socket', async () => {
    const rows = await limitRows(t, api, member);
    const results: string[] = [];
    const failed: string[] = [];
    for (const row of rows) {
      let ok: boolean;
      let note: string;
      if ('run' in row) ({ ok, note } = await row.run());
      else {
        const outcomes: Outcome[] = [];
        for (let i = 0; i < 2 * row.limit; i++) outcomes.push(await row.attempt(i));
        const early = outcomes.slice(0, row.limit).findIndex((o) => o.refused);
        const late = outcomes.slice(row.limit).findIndex((o) => !o.refused);
        ok = early < 0 && late < 0;
        note =
          early >= 0
            ? `attempt ${early + 1} refused early (${outcomes[early]?.note})`
            : late >= 0
              ? `attempt ${row.limit + late + 1} passed (${outcomes[row.limit + late]?.note})`
              : `${row.limit} passed, ${row.limit} refused (${outcomes.at(-1)?.note})`;
      }
      results.push(`${row.name} (limit ${row.limit}): ${note}`);
      if (!ok) failed.push(results.at(-1) as string);
    }
    recordScore({
      id: '05-rate-limits',
      db: kind,
      measure:
        'Rate limits: sign-in, sign-up, reset, verification codes (mail, text), reports, messages, location, live frames (count, size), each sent twice its limit',
      figure: `${rows.length - failed.length} / ${rows.length} limited`,
      goal: `${rows.length} / ${rows.length}: 429 with Retry-After (or the socket closed) past each limit`,
      pass: failed.length === 0,
    });
    expect(failed, results.join('\n')).toEqual([]);
  });
});

type Api = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  opts?: { headers?: object; payload?: object; ip?: string },
) => Promise<LightMyRequestResponse>;
type MemberOf = () => Promise<{ email: string; uid: string; token: string; headers: { authorization: string } }>;

/** The table: each limit the server keeps, and how one attempt at it is made. */
async function limitRows(t: () => TestApp, api: Api, member: MemberOf): Promise<Row[]> {
  const { config } = t();
  const owner = await member();
  const attackerIp = freshIp();
  const signUpIp = freshIp();
  const resetIp = freshIp();
  const loginIp = freshIp();
  const resender = await member();
  const texter = await member();
  const waiter = await member();
  const guesser = await member();
  const reporter = await member();
  const reported = await member();
  const mover = await member();
  const live = await member();
  const [sender, receiver] = [await member(), await member()];
  await setTier(t().db, sender.uid, 'platinum');
  await api('POST', '/selections', {
    headers: sender.headers,
    payload: { targetId: receiver.uid, action: 'fuck', clientId: randomUUID() },
  });
  const matched = await api('POST', '/selections', {
    headers: receiver.headers,
    payload: { targetId: sender.uid, action: 'marry', clientId: randomUUID() },
  });
  const conversationId = matched.json().match?.conversationId as string;
  expect(conversationId, matched.body).toBeTruthy();
  await api('PUT', '/me/location/consent', { headers: mover.headers, payload: { consent: true } });
  // Numbers no other file's texts use: this run's base, then the attempt's own digits.
  const phoneBase = String(Date.now() % 1_000_000).padStart(6, '0');
  const phoneOf = (i: number) => `+1556${phoneBase}${String(i).padStart(4, '0')}`;
  const numberShared = phoneOf(9_999);
  const guessPhone = phoneOf(7_000);
  const guessed = await api('POST', '/me/phone', { headers: guesser.headers, payload: { phone: guessPhone } });
  expect(guessed.statusCode, guessed.body).toBe(200);
  const rightCode = lastCodeTo(config, guessPhone);
  const wrongCode = rightCode === '000000' ? '111111' : '000000';
  // Six accounts texting one number (the per-number count); each may text once now.
  const numberTexters = await Promise.all(Array.from({ length: 2 * PHONE_SEND_NUMBER_LIMIT.max }, () => member()));

  return [
    {
      name: 'sign-in, one email from one address',
      limit: SIGN_IN_THROTTLE.pair.free,
      attempt: async () =>
        limited(await api('POST', '/auth/login', { ip: attackerIp, payload: { email: owner.email, password: 'wrong' } })),
    },
    {
      name: 'sign-in, many emails from one address',
      limit: SIGN_IN_THROTTLE.source.free,
      attempt: async () =>
        limited(await api('POST', '/auth/login', { ip: loginIp, payload: { email: newEmail('guess'), password: 'wrong' } })),
    },
    {
      name: 'sign-up from one address',
      limit: config.signUpLimits.perSource,
      attempt: async () =>
        limited(await api('POST', '/auth/signup', { ip: signUpIp, payload: { email: newEmail('flood'), password: PASSWORD } })),
    },
    {
      name: 'password reset mails to one email',
      limit: FORGOT_PASSWORD_EMAIL_LIMIT.max,
      attempt: async () => limited(await api('POST', '/auth/password/forgot', { payload: { email: owner.email } })),
    },
    {
      name: 'password reset mails from one address',
      limit: FORGOT_PASSWORD_IP_LIMIT.max,
      attempt: async () =>
        limited(await api('POST', '/auth/password/forgot', { ip: resetIp, payload: { email: newEmail('reset') } })),
    },
    {
      name: 'email verification mails',
      limit: RESEND_VERIFICATION_LIMIT.max,
      attempt: async () => limited(await api('POST', '/auth/verify/resend', { headers: resender.headers })),
    },
    {
      // Past the tries the code is spent: even the right one is refused (410), so guessing stops.
      name: 'phone code guesses (then even the right code is refused)',
      limit: PHONE_CODE_TRIES - 1,
      attempt: async (i) => {
        const res = await api('POST', '/me/phone/verify', {
          headers: guesser.headers,
          payload: { code: i < PHONE_CODE_TRIES ? wrongCode : rightCode },
        });
        return { refused: res.statusCode === 410, note: String(res.statusCode) };
      },
    },
    {
      name: 'phone code texts, the wait between two',
      limit: 1,
      attempt: async (i) =>
        limited(await api('POST', '/me/phone', { headers: waiter.headers, payload: { phone: phoneOf(100 + i) } })),
    },
    {
      name: 'phone code texts an hour, one account',
      limit: PHONE_SEND_USER_LIMIT.max,
      attempt: async (i) => {
        t().clock.advance(PHONE_RESEND_WAIT_MS);
        return limited(await api('POST', '/me/phone', { headers: texter.headers, payload: { phone: phoneOf(200 + i) } }));
      },
    },
    {
      name: 'phone code texts an hour, one number',
      limit: PHONE_SEND_NUMBER_LIMIT.max,
      attempt: async (i) =>
        limited(await api('POST', '/me/phone', { headers: numberTexters[i]?.headers, payload: { phone: numberShared } })),
    },
    {
      name: 'reports a day',
      limit: USER_REPORT_LIMIT.max,
      attempt: async (i) =>
        limited(
          await api('POST', `/users/${reported.uid}/report`, {
            headers: reporter.headers,
            payload: { reason: `Spam number ${i}`, category: 'spam', description: 'Sends the same link to everyone.' },
          }),
        ),
    },
    {
      name: 'messages a minute',
      limit: config.rateLimits.messagesPerMinute,
      attempt: async (i) =>
        limited(
          await api('POST', `/conversations/${conversationId}/messages`, {
            headers: sender.headers,
            payload: { clientId: randomUUID(), content: `hello ${i}` },
          }),
        ),
    },
    {
      name: 'location updates (one per 30 s)',
      limit: 1,
      attempt: async (i) =>
        limited(await api('PUT', '/me/location', { headers: mover.headers, payload: { lat: 52.52 + i / 1000, lng: 13.405 } })),
    },
    {
      name: 'live frames a second',
      limit: config.rateLimits.liveFramesPerSecond,
      run: async () => {
        const socket = await openLive(t().app, live.token);
        // The auth frame was the first of the second; twice the limit in pings follow at once.
        for (let i = 0; i < 2 * config.rateLimits.liveFramesPerSecond; i++) socket.ws.send(JSON.stringify({ type: 'ping' }));
        const code = await socket.closed;
        const pongs = socket.events.filter((e) => (e as { type: string }).type === 'pong').length;
        const allowed = config.rateLimits.liveFramesPerSecond - 1;
        return { ok: code === LIVE_CLOSE_TOO_MANY_FRAMES && pongs === allowed, note: `${pongs} pongs, then closed ${code}` };
      },
    },
    {
      name: 'live frame size',
      limit: config.rateLimits.liveMaxFrameBytes,
      run: async () => {
        const socket = await openLive(t().app, live.token);
        const max = config.rateLimits.liveMaxFrameBytes;
        const frame = (bytes: number) => {
          const base = JSON.stringify({ type: 'ping', pad: '' });
          return JSON.stringify({ type: 'ping', pad: 'x'.repeat(bytes - base.length) });
        };
        socket.ws.send(frame(max));
        await socket.next('pong');
        socket.ws.send(frame(2 * max));
        const code = await socket.closed;
        return { ok: code === 1009, note: `a ${max / 1024} kB frame answered, a ${(2 * max) / 1024} kB one closed ${code}` };
      },
    },
  ];
}
