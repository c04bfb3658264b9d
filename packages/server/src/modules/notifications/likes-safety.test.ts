import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { browserSubscription, decryptPush, LocalPushService } from '../../../test/push.ts';
import { startSmtpSink } from '../../../test/smtp.ts';

/**
 * Likes and safety alerts, from the receiver's side: the app's own notifier pushes to a local
 * push service and mails to a local SMTP server (test/smtp.ts), each only as his switches allow.
 */

const vapidKeys = webpush.generateVAPIDKeys();
const sink = await startSmtpSink();
const pushService = new LocalPushService();
beforeAll(() => pushService.start());
afterAll(async () => {
  await pushService.stop();
  await sink.close();
});
beforeEach(() => {
  pushService.received = [];
});

const REPORT = { reason: 'He keeps insulting me', category: 'harassment' };
type Push = { title: string; body: string; url: string; tag: string };

describe.each(DB_KINDS)('likes and safety alerts reach a man with no open tab on %s', (kind) => {
  const t = useTestApp(kind, {
    env: {
      VAPID_PUBLIC_KEY: vapidKeys.publicKey,
      VAPID_PRIVATE_KEY: vapidKeys.privateKey,
      VAPID_SUBJECT: 'mailto:push-test@example.com',
      SMTP_URL: sink.url,
    },
  });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  /** A member on `tier` with a confirmed email and one browser subscribed to pushes. */
  async function member(tier: 'free' | 'premium' = 'free', name = 'Alex') {
    const u = await signUpMember(t().app, t().db);
    await setTier(t().db, u.user.uid, tier);
    await t()
      .db.updateTable('users')
      .set({ display_name: name, email_verified_at: t().clock.now() })
      .where('id', '=', u.user.uid)
      .execute();
    const sub = browserSubscription(pushService.origin);
    expect((await call('PUT', '/me/push-subscription', u.headers, sub.json)).statusCode).toBe(204);
    return { ...u, sub };
  }
  type Member = Awaited<ReturnType<typeof member>>;

  /** Every push his browser received so far, decrypted, once the ones in flight are sent. */
  const pushesTo = async (u: Member): Promise<Push[]> => {
    await t().app.notifier.settle();
    const path = new URL(u.sub.endpoint).pathname;
    return pushService.received.filter((r) => r.url === path).map((r) => JSON.parse(decryptPush(u.sub, r.body)) as Push);
  };
  const mailsTo = async (u: Member) => {
    await t().app.notifier.settle();
    // The sign-up's own mail (confirm the address) aside.
    return sink.received.filter((m) => m.envelopeTo.includes(u.user.email) && m.subject !== 'Confirm your email');
  };
  const settings = async (u: Member, payload: object) => {
    const res = await call('PATCH', '/me/settings', u.headers, payload);
    expect(res.statusCode, res.body).toBe(200);
  };
  const pick = async (from: Member, to: Member, action: 'fuck' | 'marry' = 'marry') => {
    const res = await call('POST', '/selections', from.headers, { targetId: to.user.uid, action, clientId: randomUUID() });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('pushes a new like: who it is for a member who may see who likes him, how many wait for one who may not', async () => {
    const premium = await member('premium', 'Robin');
    const free = await member('free', 'Kim');
    const [a, b] = [await member('free', 'Sam'), await member('free', 'Lee')];

    await pick(a, premium);
    expect(await pushesTo(premium)).toEqual([
      { title: 'Sam likes you', body: 'Choose back to match.', url: '/likes', tag: 'likes' },
    ]);

    await pick(a, free, 'fuck');
    await pick(b, free);
    const got = await pushesTo(free);
    expect(got).toEqual([
      { title: 'Someone likes you', body: 'Someone is waiting for your answer.', url: '/likes', tag: 'likes' },
      { title: 'Someone likes you', body: '2 people are waiting for your answer.', url: '/likes', tag: 'likes' },
    ]);
    // The same man changing his pick is not a new like; likes are never mailed.
    await pick(a, free, 'marry');
    expect(await pushesTo(free)).toHaveLength(2);
    expect(await mailsTo(free)).toEqual([]);
  });

  it('sends no like push when his likes push switch or his push channel is off', async () => {
    const off = await member();
    const channelOff = await member();
    const chooser = await member('free', 'Sam');
    await settings(off, { notifications: { kinds: { likes: { push: false } } } });
    await settings(channelOff, { notifications: { channels: { push: false } } });
    await pick(chooser, off);
    await pick(chooser, channelOff);
    expect(await pushesTo(off)).toEqual([]);
    expect(await pushesTo(channelOff)).toEqual([]);
    // His other kinds still reach him: a match from the same man.
    await pick(off, chooser);
    expect((await pushesTo(chooser)).map((p) => p.title)).toContain("It's a match!");
  });

  /** A Platinum man, on the app a year, writes a scam to `to` without a match: a high alert for `to`. */
  async function scam(to: Member): Promise<void> {
    const scammer = await member('free', 'Scam');
    await setTier(t().db, scammer.user.uid, 'platinum');
    await t()
      .db.updateTable('users')
      .set({ created_at: new Date(t().clock.now().getTime() - 365 * 24 * 3600_000) })
      .where('id', '=', scammer.user.uid)
      .execute();
    const conv = await call('POST', '/conversations', scammer.headers, { userId: to.user.uid });
    expect(conv.statusCode, conv.body).toBeLessThan(300);
    const sent = await call('POST', `/conversations/${conv.json().id}/messages`, scammer.headers, {
      clientId: randomUUID(),
      content: 'hot pics at www.pics-now.xyz, send $20 by cash app first',
    });
    expect(sent.statusCode, sent.body).toBe(201);
  }

  it('pushes a safety alert and, with email on, mails it in plain words; each switch off stops its channel', async () => {
    const me = await member();
    await settings(me, { notifications: { channels: { email: true } } });
    await scam(me);
    const alert = (await pushesTo(me)).find((p) => p.url === '/safety');
    expect(alert).toMatchObject({ title: 'Someone messaging you may be a scammer', url: '/safety' });
    expect(alert!.tag).toMatch(/^alert-/);
    const [mail] = await mailsTo(me);
    expect(mail).toBeDefined();
    // A lock screen shows the subject: nothing about what the app is for, nor health.
    expect(mail!.subject).toBe('Something on your account needs a look');
    expect(mail!.text).toContain('Someone messaging you may be a scammer');
    expect(mail!.text).toContain(`${t().config.publicUrl}/safety`);
    expect(mail!.html).toContain('Open the Safety centre');

    const quiet = await member();
    await settings(quiet, { notifications: { channels: { email: true }, kinds: { safety: { push: false, email: false } } } });
    await scam(quiet);
    expect((await pushesTo(quiet)).filter((p) => p.url === '/safety')).toEqual([]);
    expect(await mailsTo(quiet)).toEqual([]);
  });

  it('sends a low reminder by push only, and nothing to a man whose tab is open (he sees it live)', async () => {
    const me = await member();
    const him = await member();
    await settings(me, { notifications: { channels: { email: true } } });
    // His own report: a low 'Report received' alert.
    const res = await call('POST', `/users/${him.user.uid}/report`, me.headers, REPORT);
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await pushesTo(me)).map((p) => p.title)).toEqual(['Report received']);
    expect(await mailsTo(me)).toEqual([]);

    const live = await openLive(t().app, me.token);
    const deadline = Date.now() + 3000;
    const online = () => t().db.selectFrom('users').select('is_online').where('id', '=', me.user.uid).executeTakeFirstOrThrow();
    while (!(await online()).is_online) {
      if (Date.now() > deadline) throw new Error('never online');
      await new Promise((r) => setTimeout(r, 20));
    }
    const other = await member();
    expect((await call('POST', `/users/${other.user.uid}/report`, me.headers, REPORT)).statusCode).toBeLessThan(300);
    expect((await live.next('alert')).alert.title).toBe('Report received');
    expect(await pushesTo(me)).toHaveLength(1);
    await live.close();
  });
});
