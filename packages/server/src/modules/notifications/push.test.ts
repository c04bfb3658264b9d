import { createPublicKey, randomUUID, verify as verifySignature } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { signUp, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { browserSubscription, decryptPush, LocalPushService } from '../../../test/push.ts';
import { type Mail, Mailer } from '../../platform/mail/mailer.ts';
import { PUSH_TTL_SECONDS, PushService } from '../../platform/push.ts';
import { PushNotifier } from './notifier.ts';

/**
 * Web Push end to end against a local push service (offline, Chromium's pushManager.subscribe()
 * never answers, so the server's side is tested here): the test plays the browser and the push
 * service (test/push.ts), checks the VAPID signature and decrypts the payload.
 */

/** Checks `Authorization: vapid t=<jwt>, k=<key>`: ES256 signature, aud = the endpoint's origin. */
function verifyVapid(headers: IncomingHttpHeaders, endpoint: string, publicKey: string): Record<string, unknown> {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  expect(m, `Authorization: ${headers.authorization}`).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(publicKey);
  const [h, p, s] = jwt!.split('.');
  expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const raw = Buffer.from(k!, 'base64url');
  expect(raw.length).toBe(65);
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = verifySignature(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s!, 'base64url'),
  );
  expect(ok).toBe(true);
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
  expect(claims.aud).toBe(new URL(endpoint).origin);
  expect(claims.sub).toBe('mailto:push-test@example.com');
  expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000);
  return claims;
}

const vapidKeys = webpush.generateVAPIDKeys();
const pushEnv = {
  VAPID_PUBLIC_KEY: vapidKeys.publicKey,
  VAPID_PRIVATE_KEY: vapidKeys.privateKey,
  VAPID_SUBJECT: 'mailto:push-test@example.com',
};

const putSub = (t: TestApp, headers: Record<string, string>, body: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/me/push-subscription', headers, payload: body as object });

/**
 * A mutual selection: b selects a first, then a selects b, so the push for the new match goes to
 * b. The push for b's like to a (likes-safety.test.ts) is sent and cleared first.
 */
async function match(t: TestApp, a: Awaited<ReturnType<typeof signUp>>, b: Awaited<ReturnType<typeof signUp>>) {
  for (const [from, to] of [
    [b, a],
    [a, b],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers: from.headers,
      payload: { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() },
    });
    expect(res.statusCode).toBe(200);
    if (from === b) {
      await t.app.notifier.settle();
      pushService.received = [];
    }
  }
  const matches = await t.app.inject({ method: 'GET', url: '/api/v1/matches', headers: b.headers });
  return (matches.json() as Array<{ conversationId: string | null }>)[0]!;
}

const pushService = new LocalPushService();
beforeAll(() => pushService.start());
afterAll(() => pushService.stop());
beforeEach(() => {
  pushService.received = [];
  pushService.status = 201;
});

describe.each(DB_KINDS)('Web Push on %s', (kind) => {
  const t = useTestApp(kind, { env: pushEnv });

  const user = async (opts: { subscribe?: boolean } = {}) => {
    const u = await signUpMember(t().app, t().db);
    const sub = browserSubscription(pushService.origin);
    if (opts.subscribe !== false) expect((await putSub(t(), u.headers, sub.json)).statusCode).toBe(204);
    return { ...u, sub };
  };
  let sent: PushNotifier;
  beforeEach(() => {
    sent = notifier();
  });
  const notifier = () =>
    new PushNotifier({
      db: t().db,
      push: new PushService({ db: t().db, clock: t().clock, vapid: t().config.vapid, log: pino({ level: 'silent' }) }),
      log: pino({ level: 'silent' }),
    });

  it('offers the VAPID public key in /config', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.json().vapidPublicKey).toBe(vapidKeys.publicKey);
  });

  it('stores the subscription on the user (fcmToken, tokenUpdated) and refreshes it on a new PUT', async () => {
    const u = await user();
    const row = () =>
      t().db.selectFrom('users').select(['fcm_token', 'token_updated']).where('id', '=', u.user.uid).executeTakeFirstOrThrow();
    expect((await row()).fcm_token).toBe(u.sub.endpoint);
    expect((await row()).token_updated?.toISOString()).toBe(t().clock.now().toISOString());

    // The client re-PUTs after 7 days (web push.ts); any PUT refreshes tokenUpdated.
    t().clock.advance(30 * 60 * 1000);
    expect((await putSub(t(), u.headers, u.sub.json)).statusCode).toBe(204);
    expect((await row()).token_updated?.toISOString()).toBe(t().clock.now().toISOString());
    const subs = await t().db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', u.user.uid).execute();
    expect(subs).toHaveLength(1);
    expect(subs[0]!.updated_at.toISOString()).toBe(t().clock.now().toISOString());

    const del = await t().app.inject({
      method: 'DELETE',
      url: '/api/v1/me/push-subscription',
      headers: u.headers,
      payload: { endpoint: u.sub.endpoint },
    });
    expect(del.statusCode).toBe(204);
    expect(await row()).toEqual({ fcm_token: null, token_updated: null });
  });

  it('refuses endpoints that are not https (http only on 127.0.0.1 outside production) and needs a session', async () => {
    const u = await user({ subscribe: false });
    const keys = u.sub.json.keys;
    expect((await putSub(t(), u.headers, { endpoint: 'http://push.example.com/x', keys })).statusCode).toBe(400);
    expect((await putSub(t(), u.headers, { endpoint: 'ftp://127.0.0.1/x', keys })).statusCode).toBe(400);
    expect((await putSub(t(), u.headers, { endpoint: 'https://push.example.com/x', keys })).statusCode).toBe(204);
    expect((await putSub(t(), {}, u.sub.json)).statusCode).toBe(401);
  });

  it('sends an encrypted, VAPID-signed push for a new match to the user with no open tab', async () => {
    const a = await user();
    const b = await user();
    await t().db.updateTable('users').set({ display_name: 'Alex' }).where('id', '=', a.user.uid).execute();
    const m = await match(t(), a, b);
    const [got] = await pushService.waitFor(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(pushService.received).toHaveLength(1); // b only: a made the match
    expect(got!.url).toBe(new URL(b.sub.endpoint).pathname);
    expect(got!.headers['content-encoding']).toBe('aes128gcm');
    expect(got!.headers.ttl).toBe(String(PUSH_TTL_SECONDS));
    expect(got!.headers.urgency).toBe('high');
    verifyVapid(got!.headers, b.sub.endpoint, vapidKeys.publicKey);
    expect(JSON.parse(decryptPush(b.sub, got!.body))).toEqual({
      title: "It's a match!",
      body: 'You and Alex like each other.',
      url: `/messages/${m.conversationId}`,
      tag: `match-${m.conversationId}`,
    });
  });

  it('rings a callee with no open tab by push', async () => {
    const a = await user();
    const b = await user();
    await t().db.updateTable('users').set({ display_name: 'Alex' }).where('id', '=', a.user.uid).execute();
    const m = await match(t(), a, b);
    await pushService.waitFor(1);
    pushService.received = [];
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/calls',
      headers: a.headers,
      payload: { userId: b.user.uid, kind: 'video', device: 'tab-a-000001' },
    });
    expect(res.statusCode).toBe(201);
    const [got] = await pushService.waitFor(1);
    expect(got!.url).toBe(new URL(b.sub.endpoint).pathname);
    expect(JSON.parse(decryptPush(b.sub, got!.body))).toEqual({
      title: 'Alex is calling',
      body: 'Incoming video call',
      url: `/messages/${m.conversationId}`,
      tag: `call-${res.json().id}`,
    });
  });

  it('truncates a new message over 50 characters to 47 plus ... and links the conversation', async () => {
    const u = await user();
    const text = 'This message is definitely longer than fifty characters, by far.';
    await sent.newMessage({ toUserId: u.user.uid, fromName: 'Sam', text, conversationId: 'c-1' });
    const [got] = await pushService.waitFor(1);
    verifyVapid(got!.headers, u.sub.endpoint, vapidKeys.publicKey);
    const payload = JSON.parse(decryptPush(u.sub, got!.body)) as { title: string; body: string; url: string };
    expect(payload).toEqual({ title: 'Sam', body: `${text.slice(0, 47)}...`, url: '/messages/c-1', tag: 'conversation-c-1' });
    expect(payload.body).toHaveLength(50);
  });

  it('sends nothing to a user with an open socket, or who turned pushes off', async () => {
    const u = await user();
    const live = await openLive(t().app, u.token);
    const deadline = Date.now() + 3000;
    while (
      !(await t().db.selectFrom('users').select('is_online').where('id', '=', u.user.uid).executeTakeFirstOrThrow()).is_online
    ) {
      if (Date.now() > deadline) throw new Error('never online');
      await new Promise((r) => setTimeout(r, 20));
    }
    await sent.newMessage({ toUserId: u.user.uid, fromName: 'Sam', text: 'hi', conversationId: 'c-2' });
    await sent.settle();
    await live.close();

    const off = await user();
    const upd = await t()
      .db.updateTable('user_settings')
      .set({ push_notifications_enabled: false })
      .where('user_id', '=', off.user.uid)
      .executeTakeFirst();
    expect(Number(upd.numUpdatedRows)).toBe(1);
    await sent.newMessage({ toUserId: off.user.uid, fromName: 'Sam', text: 'hi', conversationId: 'c-3' });
    await sent.settle();
    expect(pushService.received).toEqual([]);
  });

  it('sends nothing on a channel where he switched that kind off, and the other kinds still go', async () => {
    const u = await user();
    const off = await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me/settings',
      headers: u.headers,
      payload: { notifications: { kinds: { messages: { push: false } } } },
    });
    expect(off.statusCode, off.body).toBe(200);
    await sent.newMessage({ toUserId: u.user.uid, fromName: 'Sam', text: 'hi', conversationId: 'c-4' });
    await sent.settle();
    expect(pushService.received).toEqual([]);
    await sent.newMatch({ toUserId: u.user.uid, otherName: 'Sam', conversationId: 'c-4' });
    const [got] = await pushService.waitFor(1);
    expect(JSON.parse(decryptPush(u.sub, got!.body)).title).toBe("It's a match!");
  });

  it('mails a new match to a confirmed address only while email and match emails are on', async () => {
    const mails: Mail[] = [];
    const mailer = new Mailer(
      { deliver: async (m) => void mails.push(m), close: () => {} },
      'FMK <hello@example.com>',
      pino({ level: 'silent' }),
    );
    const withMail = new PushNotifier({
      db: t().db,
      push: new PushService({ db: t().db, clock: t().clock, vapid: t().config.vapid, log: pino({ level: 'silent' }) }),
      log: pino({ level: 'silent' }),
      mail: mailer,
      publicUrl: 'https://fmk.example',
    });
    const u = await user({ subscribe: false });
    const settings = (payload: object) =>
      t().app.inject({ method: 'PATCH', url: '/api/v1/me/settings', headers: u.headers, payload });
    const notice = { toUserId: u.user.uid, otherName: 'Sam', conversationId: 'c-5' };
    const deliver = async () => {
      await withMail.newMatch(notice);
      await withMail.settle();
      await mailer.settle();
    };
    await deliver(); // email is off by default
    await t().db.updateTable('users').set({ email_verified_at: t().clock.now() }).where('id', '=', u.user.uid).execute();
    await deliver();
    expect(mails).toEqual([]);
    expect((await settings({ notifications: { channels: { email: true } } })).statusCode).toBe(200);
    await deliver();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(u.user.email);
    // A lock screen shows the subject: nothing about what the app is for.
    expect(mails[0]!.subject).toBe('Something new is waiting for you');
    expect(mails[0]!.text).toContain('https://fmk.example/messages/c-5');
    expect((await settings({ notifications: { kinds: { matches: { email: false } } } })).statusCode).toBe(200);
    await deliver();
    // Messages are never mailed one by one, whatever the switches say.
    expect(
      (await settings({ notifications: { kinds: { matches: { email: true }, messages: { email: true } } } })).statusCode,
    ).toBe(200);
    await withMail.newMessage({ toUserId: u.user.uid, fromName: 'Sam', text: 'hi', conversationId: 'c-5' });
    await withMail.settle();
    await mailer.settle();
    expect(mails).toHaveLength(1);
  });

  it('deletes a subscription the push service calls gone (410) and keeps the others', async () => {
    const u = await user();
    const second = browserSubscription(pushService.origin);
    t().clock.advance(1000);
    expect((await putSub(t(), u.headers, second.json)).statusCode).toBe(204);
    pushService.status = 410;
    await sent.newMessage({ toUserId: u.user.uid, fromName: 'Sam', text: 'hi', conversationId: 'c-4' });
    expect(await pushService.waitFor(2)).toHaveLength(2);
    await sent.settle();
    const left = await t().db.selectFrom('push_subscriptions').select('id').where('user_id', '=', u.user.uid).execute();
    expect(left).toEqual([]);
    const row = await t().db.selectFrom('users').select(['fcm_token']).where('id', '=', u.user.uid).executeTakeFirstOrThrow();
    expect(row.fcm_token).toBeNull();

    // A 500 is logged, and the subscription stays.
    pushService.status = 500;
    expect((await putSub(t(), u.headers, second.json)).statusCode).toBe(204);
    await sent.newMessage({ toUserId: u.user.uid, fromName: 'Sam', text: 'hi', conversationId: 'c-5' });
    await pushService.waitFor(3);
    await sent.settle();
    expect(await t().db.selectFrom('push_subscriptions').select('id').where('user_id', '=', u.user.uid).execute()).toHaveLength(
      1,
    );
  });
});

describe('Web Push disabled (no VAPID key)', () => {
  const t = useTestApp('pglite');

  it('offers no key, still stores subscriptions, and sends nothing', async () => {
    expect(t().config.vapid).toBeNull();
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/config' })).json().vapidPublicKey).toBeNull();
    const u = await signUp(t().app);
    const sub = browserSubscription(pushService.origin);
    expect((await putSub(t(), u.headers, sub.json)).statusCode).toBe(204);
    const push = new PushService({ db: t().db, clock: t().clock, vapid: null, log: pino({ level: 'silent' }) });
    expect(push.enabled).toBe(false);
    expect(await push.send(u.user.uid, { title: 't', body: 'b', url: '/' })).toEqual({ sent: 0, removed: 0, failed: 0 });
    await new PushNotifier({ db: t().db, push, log: pino({ level: 'silent' }) }).newMessage({
      toUserId: u.user.uid,
      fromName: 'Sam',
      text: 'hi',
      conversationId: 'c',
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(pushService.received).toEqual([]);
  });
});
