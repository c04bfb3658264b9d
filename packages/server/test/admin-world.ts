import type { FastifyInstance } from 'fastify';
import { signUp, signUpStaff } from './factories.ts';
import type { TestApp } from './harness.ts';

type TestDb = TestApp['db'];

/**
 * A small world of known shape for the dashboard and analytics, on the test clock's
 * 2026-06-01T12:00Z (a Monday). Every date is set here, so the counts below are exact.
 *
 *   owner  staff, joined 2026-01-01, never active
 *   a      joined 06-01 (today), onboarded, free, dating; seen today, chose b today, sent 2 messages today
 *   b      joined 05-31, onboarded, premium, now;   sent 1 message today
 *   c      joined 05-22, not onboarded, free, dating
 *   d      joined 04-01, onboarded, platinum, dating; chose a on 05-31 and on 04-08
 *   matches: a–b 06-01, b–d 05-20
 *   payments (USD): 999 completed 06-01, 500 failed 06-01, 1999 completed 05-30,
 *                   a refund of 300 (-300 completed) 05-30, 5000 completed 04-01 (outside 30 days)
 *   reports: pending 06-01, dismissed 05-28; photos to review: pending 06-01, approved 05-29
 */
export async function seedAdminWorld(app: FastifyInstance, db: TestDb, now: Date) {
  const owner = await signUpStaff(app, db, 'owner', now);
  const [a, b, c, d] = [await signUp(app), await signUp(app), await signUp(app), await signUp(app)].map((u) => u.user.uid) as [
    string,
    string,
    string,
    string,
  ];
  const at = (iso: string) => new Date(iso);
  const member = async (
    id: string,
    created: string,
    onboarded: boolean,
    tier: 'free' | 'premium' | 'platinum',
    mode: 'dating' | 'now',
  ) =>
    db
      .updateTable('users')
      .set({
        created_at: at(created),
        onboarding_complete: onboarded,
        subscription_tier: tier,
        current_mode: mode,
        last_seen: null,
      })
      .where('id', '=', id)
      .execute();
  await member(owner.user.uid, '2026-01-01T10:00:00Z', true, 'free', 'dating');
  await member(a, '2026-06-01T08:00:00Z', true, 'free', 'dating');
  await member(b, '2026-05-31T20:00:00Z', true, 'premium', 'now');
  await member(c, '2026-05-22T09:00:00Z', false, 'free', 'dating');
  await member(d, '2026-04-01T09:00:00Z', true, 'platinum', 'dating');
  await db
    .updateTable('users')
    .set({ last_seen: at('2026-06-01T11:00:00Z') })
    .where('id', '=', a)
    .execute();

  const choose = (id: string, chooser: string, target: string, when: string) =>
    db
      .insertInto('selections')
      .values({
        id,
        chooser_id: chooser,
        target_id: target,
        action: 'fuck',
        client_id: id,
        created_at: at(when),
        updated_at: at(when),
      })
      .execute();
  await choose('s1', a, b, '2026-06-01T09:00:00Z');
  await choose('s2', d, a, '2026-05-31T09:00:00Z');
  await choose('s3', d, c, '2026-04-08T09:00:00Z');

  const match = (id: string, x: string, y: string, when: string) => {
    const [ua, ub] = x < y ? [x, y] : [y, x];
    return db
      .insertInto('matches')
      .values({
        id,
        user_a: ua,
        user_b: ub,
        match_type: 'mixed',
        user_actions: JSON.stringify({ [x]: 'fuck', [y]: 'marry' }),
        created_at: at(when),
        matched_at: at(when),
      })
      .execute();
  };
  await match('m1', a, b, '2026-06-01T10:00:00Z');
  await match('m2', b, d, '2026-05-20T10:00:00Z');

  const [ca, cb] = a < b ? [a, b] : [b, a];
  const t0 = at('2026-06-01T10:05:00Z');
  await db
    .insertInto('conversations')
    .values({ id: 'c1', user_a: ca, user_b: cb, created_at: t0, updated_at: t0, last_activity: t0 })
    .execute();
  const say = (id: string, from: string, to: string, when: string) =>
    db
      .insertInto('messages')
      .values({
        id,
        conversation_id: 'c1',
        sender_id: from,
        receiver_id: to,
        client_id: id,
        type: 'text',
        content: 'hi',
        created_at: at(when),
      })
      .execute();
  await say('msg1', a, b, '2026-06-01T10:06:00Z');
  await say('msg2', a, b, '2026-06-01T10:07:00Z');
  await say('msg3', b, a, '2026-06-01T10:08:00Z');

  const pay = (id: string, user: string, status: 'completed' | 'failed', amount: number, when: string) =>
    db
      .insertInto('payments')
      .values({
        id,
        user_id: user,
        subscription_id: null,
        kind: 'one_time',
        status,
        amount,
        currency: 'USD',
        provider_payment_id: null,
        note: null,
        created_at: at(when),
      })
      .execute();
  await pay('p1', a, 'completed', 999, '2026-06-01T09:30:00Z');
  await pay('p2', a, 'failed', 500, '2026-06-01T09:31:00Z');
  await pay('p3', b, 'completed', 1999, '2026-05-30T09:00:00Z');
  await pay('p4', b, 'completed', -300, '2026-05-30T15:00:00Z');
  await pay('p5', d, 'completed', 5000, '2026-04-01T09:00:00Z');

  const report = (id: string, status: 'pending' | 'dismissed', when: string) =>
    db
      .insertInto('user_reports')
      .values({
        id,
        reporter_id: c,
        reported_id: d,
        reason: 'spam',
        category: 'spam',
        description: 'x',
        status,
        blocked: false,
        reviewed_by: null,
        created_at: at(when),
        updated_at: at(when),
      })
      .execute();
  await report('r1', 'pending', '2026-06-01T07:00:00Z');
  await report('r2', 'dismissed', '2026-05-28T07:00:00Z');

  const photo = (id: string, status: 'pending' | 'approved', when: string) =>
    db
      .insertInto('moderation_items')
      .values({
        id,
        content_type: 'profile_photo',
        content_id: id,
        user_id: b,
        storage_key: null,
        status,
        flagged_reason: null,
        confidence: 0.5,
        ai_analysis: JSON.stringify({}),
        moderator_id: null,
        moderator_notes: null,
        created_at: at(when),
        reviewed_at: null,
      })
      .execute();
  await photo('i1', 'pending', '2026-06-01T06:00:00Z');
  await photo('i2', 'approved', '2026-05-29T06:00:00Z');

  return { owner, a, b, c, d };
}
