import { DATA_EXPORT_FILES, DAY, type DataExport, DataRightsMessages } from '@fmk/core';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUp } from '../../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../../test/harness.ts';
import { fullMember, PHONE } from '../../../../test/member.ts';
import { startSmtpSink } from '../../../../test/smtp.ts';

const sink = await startSmtpSink();
afterAll(() => sink.close());

describe.each(DB_KINDS)('downloading my data on %s', (kind) => {
  const t = useTestApp(kind, { env: { SMTP_URL: sink.url } });
  const start = (headers: Record<string, string>) => t().app.inject({ method: 'POST', url: '/api/v1/account/export', headers });
  const latest = async (headers: Record<string, string>) =>
    (await t().app.inject({ method: 'GET', url: '/api/v1/account/export', headers })).json().export as DataExport | null;
  const download = (headers: Record<string, string>, id: string) =>
    t().app.inject({ method: 'GET', url: `/api/v1/account/export/${id}/download`, headers });
  /** A fresh session after the clock moved past the old one's life. */
  const relogin = async (email: string) => {
    const res = await t().app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: PASSWORD } });
    return { authorization: `Bearer ${res.json().token as string}` };
  };
  /** Polls the progress, as the settings screen does, until the archive is no longer building. */
  async function finished(headers: Record<string, string>): Promise<DataExport> {
    for (let i = 0; i < 200; i++) {
      const e = await latest(headers);
      if (e && e.status !== 'building') return e;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the archive never finished');
  }

  it('builds one zip of every category, decrypted, downloadable by its owner only, and mails that it is ready', async () => {
    const { me, partner, other } = await fullMember(t());
    // A boost he ran, which his partner saw, and an extra one he bought and has not used.
    const at = t().clock.now();
    await t()
      .db.insertInto('boosts')
      .values({
        id: 'boost-1',
        user_id: me.user.uid,
        source: 'included',
        started_at: at,
        ends_at: new Date(at.getTime() + 1_800_000),
      })
      .execute();
    await t().db.insertInto('boost_views').values({ boost_id: 'boost-1', viewer_id: partner.user.uid, seen_at: at }).execute();
    await t()
      .db.insertInto('boost_credits')
      .values({ id: 'credit-1', user_id: me.user.uid, payment_id: null, created_at: at, boost_id: null, used_at: null })
      .execute();
    // A month of Platinum staff gave him, listed with what he paid for.
    await t()
      .db.insertInto('subscriptions')
      .values({
        id: 'comp-1',
        user_id: me.user.uid,
        customer_id: 'staff',
        plan_id: 'platinum-monthly',
        plan_name: 'Platinum',
        status: 'active',
        current_period_start: at,
        current_period_end: new Date(at.getTime() + 30 * DAY),
        next_billing_date: null,
        amount: 0,
        currency: 'USD',
        payment_method_id: null,
        provider_subscription_id: null,
        comp: true,
        created_at: new Date(at.getTime() + 1000),
        updated_at: at,
      })
      .execute();
    // Part of his payment given back by staff: his to read, not who in the team did it.
    const paid = await t().db.selectFrom('payments').select('id').where('user_id', '=', me.user.uid).executeTakeFirstOrThrow();
    const [admin] = await t().db.selectFrom('users').select('id').where('id', '!=', me.user.uid).limit(1).execute();
    await t()
      .db.insertInto('payment_refunds')
      .values({
        id: 'refund-1',
        payment_id: paid.id,
        idempotency_key: 'k-1',
        amount: 300,
        currency: 'USD',
        reason: 'Charged during an outage',
        status: 'completed',
        provider_refund_id: 'sandbox-refund-1',
        canceled_subscription: false,
        admin_id: admin?.id ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    expect(await latest(me.headers)).toBeNull();
    const res = await start(me.headers);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: 'building', progress: 0, readyAt: null, expiresAt: null });
    const ready = await finished(me.headers);
    expect(ready).toMatchObject({ id: res.json().id, status: 'ready', progress: 100 });
    expect(Date.parse(ready.expiresAt!) - Date.parse(ready.readyAt!)).toBe(DAY);
    const mail = await sink.waitFor((m) => m.envelopeTo.includes(me.user.email) && m.subject === 'Your data is ready');
    expect(mail.text).not.toMatch(/health|PrEP/i);

    // Another man, even with the id, gets nothing.
    expect((await download(partner.headers, ready.id)).statusCode).toBe(404);
    expect((await download({}, ready.id)).statusCode).toBe(401);
    const file = await download(me.headers, ready.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="fmk-data-\d{4}-\d\d-\d\d\.zip"$/);
    const zip = unzipSync(new Uint8Array(file.rawPayload));
    for (const name of DATA_EXPORT_FILES) expect(Object.keys(zip), name).toContain(name);
    const read = (name: string) => JSON.parse(strFromU8(zip[name]!));

    const profile = read('profile.json');
    expect(profile).toMatchObject({ id: me.user.uid, email: me.user.email, display_name: 'Erik', hasPassword: true });
    expect(JSON.stringify(profile)).not.toMatch(/password_hash|argon2/);
    expect(read('settings.json').settings.user_id).toBe(me.user.uid);
    expect(Object.keys(read('settings.json').choices)).toEqual(['privacy', 'notifications', 'safety', 'updatedAt']);
    const photos = read('photos.json');
    expect(photos).toHaveLength(1);
    expect(strFromU8(zip[photos[0].file]!.slice(0, 4))).toBe('RIFF'); // the WebP file itself
    expect(read('selections.json').selections).toMatchObject([{ target_id: partner.user.uid, action: 'fuck' }]);
    expect(read('matches.json')).toMatchObject([{ partnerId: partner.user.uid }]);
    const { conversations, photosSent } = read('conversations.json');
    expect(conversations[0].messages.map((m: { content: string; fromMe: boolean }) => [m.fromMe, m.content])).toEqual(
      expect.arrayContaining([
        [true, 'hi from me'],
        [false, 'hi back'],
      ]),
    );
    expect(zip[photosSent[0].file]).toBeDefined();
    // Health and activity come decrypted from the vault.
    expect(read('health.json').medications).toMatchObject([{ name: 'PrEP', reminderTime: '09:00' }]);
    expect(read('activity.json').contacts).toMatchObject([{ name: 'Sam' }]);
    const prompts = read('prompts.json');
    expect(prompts.liked).toMatchObject([{ prompt: 'My ideal Sunday', owner_id: partner.user.uid }]);
    // A like of his answer says when, not who (the app never shows him).
    expect(prompts.likesReceived).toHaveLength(1);
    expect(JSON.stringify(prompts.likesReceived)).not.toContain(other.user.uid);
    expect(read('cruise.json').sessions).toMatchObject([{ right_now: 'coffee?' }]);
    expect(read('blocks.json')).toHaveLength(1);
    const reports = read('reports.json');
    expect(reports.reports).toMatchObject([
      {
        reportedUserId: other.user.uid,
        category: 'scam',
        description: 'He wanted a gift card before meeting.',
        status: 'pending',
      },
    ]);
    expect(zip[reports.screenshots[0].file]).toBeDefined();
    // The report about him is not his to read: it would name who made it.
    expect(JSON.stringify(reports)).not.toContain('He was rude to me.');
    expect(read('alerts.json')).toMatchObject([{ type: 'user_reported' }]);
    expect(read('calls.json')).toMatchObject([{ direction: 'made', with: partner.user.uid, kind: 'video', outcome: 'missed' }]);
    const support = read('support.json');
    expect(support.reports).toMatchObject([{ kind: 'bug', text: 'The grid jumps when I scroll back up.' }]);
    expect(support.threads).toMatchObject([
      { subject: 'My photo', messages: [{ from: 'me', text: 'Why was my photo removed?' }] },
    ]);
    expect(zip[support.screenshots[0].file]).toBeDefined();
    expect(read('profile.json').phone_number).toBe(PHONE);
    const payments = read('payments.json');
    expect(payments.payments).toMatchObject([{ kind: 'subscription', status: 'completed', amount: 999, currency: 'USD' }]);
    expect(payments.refunds).toMatchObject([
      { payment_id: expect.any(String), amount: 300, currency: 'USD', reason: 'Charged during an outage', status: 'completed' },
    ]);
    expect(payments.refunds[0]).not.toHaveProperty('admin_id');
    expect(payments.subscriptions).toMatchObject([
      { plan_id: 'premium-monthly', status: 'active', comp: false },
      { plan_id: 'platinum-monthly', status: 'active', amount: 0, comp: true },
    ]);
    expect(payments.cards).toHaveLength(1);
    // His boosts say how many men saw them, never who.
    expect(payments.boosts).toMatchObject([{ source: 'included', views: 1 }]);
    expect(JSON.stringify(payments.boosts)).not.toContain(partner.user.uid);
    expect(payments.unusedBoosts).toBe(1);
    expect(read('sessions.json').length).toBeGreaterThan(0);
    expect(read('audit.json')).toMatchObject([{ action: 'lookup_identity', reason: 'report review' }]);
    const push = read('push-subscriptions.json');
    expect(push).toMatchObject([{ endpoint: 'https://push.example/abc' }]);
    expect(push[0]).not.toHaveProperty('p256dh');
    expect(push[0]).not.toHaveProperty('auth');

    // A day later the file is gone: the download says so, and a new one can be asked for.
    t().clock.advance(DAY + 1000);
    const headers = await relogin(me.user.email);
    expect(await latest(headers)).toMatchObject({ id: ready.id, status: 'expired' });
    const late = await download(headers, ready.id);
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toBe(DataRightsMessages.exportExpired);
  });

  it('builds one at a time, three a day', async () => {
    const u = await signUp(t().app);
    const both = await Promise.all([start(u.headers), start(u.headers)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().message).toBe(DataRightsMessages.exportRunning);
    await finished(u.headers);
    for (let i = 0; i < 2; i++) {
      expect((await start(u.headers)).statusCode).toBe(202);
      await finished(u.headers);
    }
    const fourth = await start(u.headers);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toBe(DataRightsMessages.exportLimit);
    t().clock.advance(DAY);
    const headers = await relogin(u.user.email);
    expect((await start(headers)).statusCode).toBe(202);
    await finished(headers);
  });

  it('answers an unknown or malformed archive id with 404, never a 500', async () => {
    const u = await signUp(t().app);
    expect((await download(u.headers, 'nope')).statusCode).toBe(404);
    expect((await download(u.headers, 'x'.repeat(80))).statusCode).toBe(400);
  });
});
