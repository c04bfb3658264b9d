import { randomUUID } from 'node:crypto';
import {
  type Actor,
  BOOST_DURATION_MS,
  BOOST_PRICE_CENTS,
  BoostMessages,
  type BoostPurchaseBody,
  type BoostStatus,
  boostDay,
  boostStart,
  type Clock,
  can,
  includedLeft,
  MINUTE,
  rulesOf,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { conflict, limitReached, unauthorized } from '../../platform/errors.ts';
import type { Answer, BillingService } from '../billing/service.ts';
import * as repo from './repo.ts';

export interface BoostDeps {
  db: Db;
  clock: Clock;
  billing: Pick<BillingService, 'oneTime'>;
}

/**
 * Boost (core boost.ts): start one (the day's included one, else a bought credit), buy a credit
 * through billing's one-time payment, and read where he stands. The grid puts a running boost
 * first (discovery) and records its viewers here (`recordBoostViews`).
 */
export class BoostService {
  constructor(private readonly deps: BoostDeps) {}

  /** GET /boost: his latest boost and its viewers, what is left today, his credits. */
  async status(actor: Actor, db: Db = this.deps.db): Promise<BoostStatus> {
    const now = this.deps.clock.now();
    const gate = can(actor, 'boost.use');
    const perDay = rulesOf(actor).limits.boostsPerDay;
    const { start, end } = boostDay(now);
    const [latest, used, credits] = await Promise.all([
      repo.latestBoost(db, actor.id),
      repo.includedStarted(db, actor.id, start, end),
      repo.unusedCredits(db, actor.id),
    ]);
    return {
      available: gate.allowed,
      upsell: gate.allowed ? null : gate.message,
      boost: latest
        ? {
            startedAt: latest.started_at.toISOString(),
            endsAt: latest.ends_at.toISOString(),
            active: latest.ends_at > now,
            source: latest.source,
            views: Number(latest.views ?? 0),
          }
        : null,
      includedPerDay: perDay,
      includedLeftToday: gate.allowed ? includedLeft({ includedPerDay: perDay, includedUsedToday: used }) : 0,
      credits,
      priceCents: BOOST_PRICE_CENTS,
      durationMinutes: BOOST_DURATION_MS / MINUTE,
      serverTime: now.toISOString(),
    };
  }

  /**
   * POST /boost: Platinum only (403 with the upgrade text); refused while one runs (409) and when
   * the day's included boosts and his credits are all used (403). Under his row lock, so two
   * taps at once start one boost.
   */
  async start(actor: Actor): Promise<BoostStatus> {
    requireAccess(actor, 'boost.use');
    const now = this.deps.clock.now();
    const { start, end } = boostDay(now);
    const refused = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.lockUser(trx, actor.id))) throw unauthorized();
      const latest = await repo.latestBoost(trx, actor.id);
      const used = await repo.includedStarted(trx, actor.id, start, end);
      const credits = await repo.unusedCredits(trx, actor.id);
      const decision = boostStart(
        {
          activeUntil: latest?.ends_at ?? null,
          includedUsedToday: used,
          includedPerDay: rulesOf(actor).limits.boostsPerDay,
          credits,
        },
        now,
      );
      if (!decision.ok) return decision;
      const id = randomUUID();
      await repo.insertBoost(trx, { id, userId: actor.id, source: decision.source, startedAt: now, endsAt: decision.endsAt });
      if (decision.source === 'credit' && !(await repo.spendCredit(trx, actor.id, id, now))) {
        throw new Error('a counted boost credit was not there to spend');
      }
      return null;
    });
    if (refused) throw refused.reason === 'active' ? conflict(refused.message) : limitReached(refused.message);
    return this.status(actor);
  }

  /**
   * POST /boost/purchase: one extra boost through billing's one-time payment (its idempotency
   * key, card, 'Payment failed' and receipt mail); the credit is written in the charge's
   * transaction, so a retried key grants it once.
   */
  async buy(actor: Actor, body: BoostPurchaseBody): Promise<Answer> {
    requireAccess(actor, 'boost.use');
    return this.deps.billing.oneTime(
      actor,
      {
        ...(body.source_id ? { source_id: body.source_id } : {}),
        amount_money: { amount: BOOST_PRICE_CENTS, currency: 'USD' },
        // Its own key space: a key the web used for another payment never answers for a boost.
        idempotency_key: `boost:${body.idempotency_key}`,
        autocomplete: true,
        note: BoostMessages.purchaseNote,
      },
      (trx, paymentId) => repo.insertCredit(trx, { id: randomUUID(), userId: actor.id, paymentId, now: this.deps.clock.now() }),
    );
  }
}

/** The grid showed these boosted men at the top of `viewerId`'s page: one view of each boost, once. */
export function recordBoostViews(db: Db, viewerId: string, boostedIds: readonly string[], now: Date): Promise<void> {
  return repo.insertViews(db, boostedIds, viewerId, now);
}
