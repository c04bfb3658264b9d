import { randomUUID } from 'node:crypto';
import {
  COULD_NOT_FIND_CONVERSATION,
  can,
  MATCHES_ONLY_TEXT,
  matchPair,
  messageLimitText,
  TIER_LIMITS,
  TIERS,
  type Tier,
  utcDayStart,
  VERIFIED_CONTACTS_ONLY_TEXT,
  VERIFIED_MESSAGES_ONLY_TEXT,
} from '@fmk/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { block, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import type { Db } from '../../db/index.ts';
import { loadActor, loadSubject } from '../../platform/access.ts';
import { sendMessage } from './repo.ts';

/**
 * The message send is PL/pgSQL the migrations create (fmk_send_message, called by repo.ts
 * sendMessage). Two things hold it: send-message.sql beside the repo is its definition as the
 * database has it, so a migration that changes it shows as a diff of that file; and it accepts
 * or refuses as core's rule (can 'message.send') does: the daily tier limit case by case around
 * each limit, the block rule it writes in SQL (either way, or the other gone), the other's
 * message settings (matches only) and his communication safety against a sender without the
 * verified badge (blockUnverifiedUsers, requirePhoneVerification).
 */

/** The send and the helper it calls, as pg_get_functiondef prints them, without the schema. */
async function sendFunctions(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string; def: string }>`
    select p.proname as name, pg_get_functiondef(p.oid) as def
      from pg_proc p
     where p.pronamespace = current_schema()::regnamespace
       and p.proname in ('fmk_send_message', 'fmk_earlier_message')
     order by p.proname desc`.execute(db);
  expect(rows.map((r) => r.name)).toEqual(['fmk_send_message', 'fmk_earlier_message']);
  const header = [
    '-- fmk_send_message (and fmk_earlier_message, which it calls) as the migrations leave them:',
    "-- pg_get_functiondef without the schema. Written by send-message.test.ts ('vitest -u' after a",
    '-- migration that changes the send); the test fails while this file and the database differ.',
  ];
  return `${[...header, '', ...rows.map((r) => `${r.def.replace(/FUNCTION [a-z0-9_]+\.fmk_/, 'FUNCTION fmk_').trimEnd()};\n`)].join('\n')}`;
}

/** Sent today before this send: each side of every limit, nothing, and far past any. */
const SENT_TODAY = [
  0,
  ...new Set(
    Object.values(TIER_LIMITS)
      .map((l) => l.messagesPerDay)
      .filter((n) => n > 0)
      .flatMap((n) => [n - 1, n, n + 1]),
  ),
  10_000,
];

const answered = (row: { created: boolean } | undefined) => (row?.created ? 'sent' : 'no row');
/** A refusal as the API words it (messaging service's sendError): FK429 names the tier whose limit was reached. */
const HIS_SETTINGS: Record<string, string> = {
  'matches only': MATCHES_ONLY_TEXT,
  'unverified contacts': VERIFIED_CONTACTS_ONLY_TEXT,
  'phone verification': VERIFIED_MESSAGES_ONLY_TEXT,
};
const refused = (err: { code?: string; message?: string }) =>
  err.code === 'FK429'
    ? `refused: ${messageLimitText(err.message as Tier)}`
    : err.code === 'FK404'
      ? `refused: ${COULD_NOT_FIND_CONVERSATION}`
      : err.code === 'FK403' && HIS_SETTINGS[err.message ?? '']
        ? `refused: ${HIS_SETTINGS[err.message ?? '']}`
        : `error ${err.code}: ${err.message}`;

describe.each(DB_KINDS)('fmk_send_message on %s', (kind) => {
  const t = useTestApp(kind);

  it('is defined as send-message.sql says', async () => {
    await expect(await sendFunctions(t().db)).toMatchFileSnapshot('./send-message.sql');
  });

  it("accepts or refuses as core's message.send does, for every tier, lifetime premium and count around the limits", async () => {
    const { app, db, clock } = t();
    const [a, b] = [await signUpMember(app, db), await signUpMember(app, db)];
    const me = a.user.uid;
    const now = clock.now();
    const day = utcDayStart(now).toISOString().slice(0, 10);
    const [userA, userB] = matchPair(me, b.user.uid);
    const conversationId = randomUUID();
    await db
      .insertInto('conversations')
      .values({ id: conversationId, user_a: userA, user_b: userB, created_at: now, updated_at: now, last_activity: now })
      .execute();

    const cases: Array<{ tier: Tier; lifetime: boolean; sent: number; core: string; sql: string }> = [];
    for (const tier of TIERS) {
      for (const lifetime of [false, true]) {
        await db
          .updateTable('users')
          .set({ subscription_tier: tier, has_lifetime_premium: lifetime })
          .where('id', '=', me)
          .execute();
        for (const sent of SENT_TODAY) {
          await db
            .insertInto('message_counters')
            .values({ user_id: me, day, count: sent })
            .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet({ count: sent }))
            .execute();
          const actor = (await loadActor(db, me))!;
          const decision = can(
            { ...actor, usage: { ...actor.usage, messagesToday: sent } },
            'message.send',
            await loadSubject(db, actor, b.user.uid, now),
          );
          const outcome = await sendMessage(db, {
            id: randomUUID(),
            senderId: me,
            conversationId,
            clientId: randomUUID(),
            type: 'text',
            content: 'hello',
            photoId: null,
            now,
            day,
          }).then(answered, refused);
          cases.push({
            tier,
            lifetime,
            sent,
            core: decision.allowed ? 'sent' : `refused: ${decision.message}`,
            sql: outcome,
          });
        }
      }
    }
    expect(cases.filter((c) => c.core !== c.sql)).toEqual([]);
    // Both answers come up, for each tier with a limit: the table is not all one outcome.
    expect(cases.filter((c) => c.sql === 'sent').length).toBeGreaterThan(0);
    for (const tier of ['free', 'premium'] as const) {
      expect(cases.some((c) => c.tier === tier && !c.lifetime && c.sql.startsWith('refused'))).toBe(true);
    }
  });

  it("refuses as core's message.send does when either blocked the other, the other is gone, takes messages from matches only or not from unverified men", async () => {
    const { app, db, clock } = t();
    const now = clock.now();
    const day = utcDayStart(now).toISOString().slice(0, 10);
    const cases: Array<{ situation: string; core: string; sql: string }> = [];
    const his = async (
      other: string,
      set: { block_unverified_users?: boolean; require_phone_verification?: boolean; messages_from?: 'matches' },
    ) => {
      await db.updateTable('user_settings').set(set).where('user_id', '=', other).execute();
    };
    let phones = 0;
    // The verified badge: a phone number confirmed by a texted code (the route is account/phone.test.ts's).
    const verify = async (me: string) => {
      phones += 1;
      await db
        .updateTable('users')
        .set({ phone_number: `+1555000${String(phones).padStart(4, '0')}`, phone_verified_at: now })
        .where('id', '=', me)
        .execute();
    };
    const senders: string[] = [];
    const match = async (me: string, other: string) => {
      const [a, b] = matchPair(me, other);
      await db
        .insertInto('matches')
        .values({
          id: randomUUID(),
          user_a: a,
          user_b: b,
          match_type: 'mixed',
          user_actions: '{}',
          created_at: now,
          matched_at: now,
        })
        .execute();
    };
    const situations: Array<[string, (me: string, other: string) => Promise<void>]> = [
      ['nothing', async () => {}],
      ['he blocked the other', (me, other) => block(db, me, other)],
      ['the other blocked him', (me, other) => block(db, other, me)],
      [
        'the other takes messages from matches only',
        async (_me, other) => {
          await db.updateTable('user_settings').set({ messages_from: 'matches' }).where('user_id', '=', other).execute();
        },
      ],
      [
        'the other takes messages from matches only, and they matched',
        async (me, other) => {
          await db.updateTable('user_settings').set({ messages_from: 'matches' }).where('user_id', '=', other).execute();
          const [a, b] = matchPair(me, other);
          await db
            .insertInto('matches')
            .values({
              id: randomUUID(),
              user_a: a,
              user_b: b,
              match_type: 'mixed',
              user_actions: '{}',
              created_at: now,
              matched_at: now,
            })
            .execute();
        },
      ],
      [
        'the other is deactivated',
        async (_me, other) => {
          await db.updateTable('users').set({ is_active: false }).where('id', '=', other).execute();
        },
      ],
      ['the other blocks unverified men', async (_me, other) => his(other, { block_unverified_users: true })],
      [
        'the other blocks unverified men, and they matched',
        async (me, other) => {
          await his(other, { block_unverified_users: true });
          await match(me, other);
        },
      ],
      [
        'the other blocks unverified men, and he verified his phone',
        async (me, other) => {
          await his(other, { block_unverified_users: true });
          await verify(me);
        },
      ],
      ['the other requires phone verification', async (_me, other) => his(other, { require_phone_verification: true })],
      [
        'the other requires phone verification, and he verified his phone',
        async (me, other) => {
          await his(other, { require_phone_verification: true });
          await verify(me);
        },
      ],
      [
        'the other requires phone verification and blocks unverified men',
        async (_me, other) => his(other, { block_unverified_users: true, require_phone_verification: true }),
      ],
      [
        'the other takes messages from matches only and blocks unverified men',
        async (_me, other) => his(other, { messages_from: 'matches', block_unverified_users: true }),
      ],
    ];
    for (const [situation, arrange] of situations) {
      const [a, b] = [await signUpMember(app, db), await signUpMember(app, db)];
      const me = a.user.uid;
      senders.push(me);
      const [userA, userB] = matchPair(me, b.user.uid);
      const conversationId = randomUUID();
      await db
        .insertInto('conversations')
        .values({ id: conversationId, user_a: userA, user_b: userB, created_at: now, updated_at: now, last_activity: now })
        .execute();
      await arrange(me, b.user.uid);
      const actor = (await loadActor(db, me))!;
      const decision = can(
        { ...actor, usage: { ...actor.usage, messagesToday: 0 } },
        'message.send',
        await loadSubject(db, actor, b.user.uid, now),
      );
      const outcome = await sendMessage(db, {
        id: randomUUID(),
        senderId: me,
        conversationId,
        clientId: randomUUID(),
        type: 'text',
        content: 'hello',
        photoId: null,
        now,
        day,
      }).then(answered, refused);
      cases.push({ situation, core: decision.allowed ? 'sent' : `refused: ${decision.message}`, sql: outcome });
    }
    expect(cases.filter((c) => c.core !== c.sql)).toEqual([]);
    expect(cases.map((c) => c.sql)).toEqual([
      'sent',
      `refused: ${COULD_NOT_FIND_CONVERSATION}`,
      `refused: ${COULD_NOT_FIND_CONVERSATION}`,
      `refused: ${MATCHES_ONLY_TEXT}`,
      'sent',
      `refused: ${COULD_NOT_FIND_CONVERSATION}`,
      `refused: ${VERIFIED_CONTACTS_ONLY_TEXT}`,
      `refused: ${VERIFIED_CONTACTS_ONLY_TEXT}`,
      'sent',
      `refused: ${VERIFIED_MESSAGES_ONLY_TEXT}`,
      'sent',
      `refused: ${VERIFIED_CONTACTS_ONLY_TEXT}`,
      `refused: ${MATCHES_ONLY_TEXT}`,
    ]);
    // Nothing refused was stored: the sends that went through are the only messages.
    const stored = await db
      .selectFrom('messages')
      .select((s) => s.fn.countAll<number>().as('n'))
      .where('sender_id', 'in', senders)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(cases.filter((c) => c.sql === 'sent').length);
  });
});
