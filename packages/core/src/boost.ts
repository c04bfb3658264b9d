import { z } from 'zod';
import { DAY, MINUTE } from './clock.ts';
import { startOfUtcDay } from './cruise.ts';
import { UNLIMITED } from './tiers.ts';

/**
 * Boost (Platinum, spec sections 6 and 9 "profile boost"): for 30 minutes a boosted man comes first
 * in the grids of the men near him who would see him anyway (their distance, filters, blocks and
 * mode decide, as for every other cell; a boost never adds him to a grid). The Platinum flag
 * (`boost`) gates it; the flag store's `boostsPerDay` is how many a UTC day are included (one);
 * more are bought one at a time as credits, spent only once the day's included ones are used.
 * One boost runs at a time: starting another while one runs is refused (not extended), so a
 * credit is never spent on minutes he already has.
 */

export const BOOST_DURATION_MS = 30 * MINUTE;
/** The price of one extra boost, a one-time payment (our choice: the spec names no price). */
export const BOOST_PRICE_CENTS = 299;
/** At most this many boosted men head a viewer's first grid page, the nearest of them first. */
export const BOOST_TOP_MAX = 10;

export const BoostMessages = {
  upsell: 'Boost your profile to the top with Platinum membership...',
  alreadyActive: (minutesLeft: number) =>
    `Your boost is already running (${minutesLeft} min left). You can start another when it ends.`,
  noneLeft: "You've used today's included boost. Buy another one, or wait for tomorrow's (midnight UTC).",
  purchaseNote: 'FMK Boost (one extra boost)',
} as const;

export type BoostSource = 'included' | 'credit';

/** What the rule reads: his running boost, the day's included ones used, his credits. */
export interface BoostState {
  activeUntil: Date | null;
  includedUsedToday: number;
  /** The flag store's boostsPerDay for his tier (-1 unlimited). */
  includedPerDay: number;
  credits: number;
}

export type BoostStart =
  | { ok: true; source: BoostSource; endsAt: Date }
  | { ok: false; reason: 'active' | 'none_left'; message: string };

/** Included boosts left today (-1 unlimited). */
export function includedLeft(s: Pick<BoostState, 'includedUsedToday' | 'includedPerDay'>): number {
  if (s.includedPerDay === UNLIMITED) return UNLIMITED;
  return Math.max(0, s.includedPerDay - s.includedUsedToday);
}

/**
 * Whether a (Platinum) man may start a boost now, and what it spends: the day's included one
 * first, then a bought credit. A running boost refuses another.
 */
export function boostStart(s: BoostState, now: Date): BoostStart {
  if (s.activeUntil && s.activeUntil > now) {
    const minutesLeft = Math.max(1, Math.ceil((s.activeUntil.getTime() - now.getTime()) / MINUTE));
    return { ok: false, reason: 'active', message: BoostMessages.alreadyActive(minutesLeft) };
  }
  const endsAt = new Date(now.getTime() + BOOST_DURATION_MS);
  if (includedLeft(s) !== 0) return { ok: true, source: 'included', endsAt };
  if (s.credits > 0) return { ok: true, source: 'credit', endsAt };
  return { ok: false, reason: 'none_left', message: BoostMessages.noneLeft };
}

/** The UTC day an included boost counts against: [start, end). */
export function boostDay(now: Date): { start: Date; end: Date } {
  const start = startOfUtcDay(now);
  return { start, end: new Date(start.getTime() + DAY) };
}

/** 'mm:ss' left of a boost (or 'h:mm:ss' past an hour, which a boost never reaches). */
export function boostCountdown(endsAt: Date, now: Date): string {
  const total = Math.max(0, Math.ceil((endsAt.getTime() - now.getTime()) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm.padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Time left of a boost by the server's clock: `serverTime` was its now when the answer left it. */
export function boostLeftMs(endsAt: string, serverTime: string, receivedAt: number, deviceNow: number): number {
  const serverNow = new Date(serverTime).getTime() + (deviceNow - receivedAt);
  return Math.max(0, new Date(endsAt).getTime() - serverNow);
}

/** 'N men saw you': the distinct viewers whose grid showed him at its top during the boost. */
export function boostViewsText(views: number): string {
  if (views === 0) return 'No one has seen you yet';
  return views === 1 ? '1 man saw you' : `${views} men saw you`;
}

export const boostStatusSchema = z.object({
  /** His tier has Boost (the flag store's `boost`); otherwise `upsell` says which plan does. */
  available: z.boolean(),
  upsell: z.string().nullable(),
  /** His latest boost: running until `endsAt`, or ended. */
  boost: z
    .object({
      startedAt: z.string(),
      endsAt: z.string(),
      active: z.boolean(),
      source: z.enum(['included', 'credit']),
      views: z.number().int(),
    })
    .nullable(),
  includedPerDay: z.number().int(),
  /** Included boosts left this UTC day (-1 unlimited). */
  includedLeftToday: z.number().int(),
  /** Extra boosts bought and not yet used. */
  credits: z.number().int(),
  priceCents: z.number().int(),
  durationMinutes: z.number().int(),
  /** The server's clock when it answered: the countdown runs by it, whatever the phone's clock says. */
  serverTime: z.string(),
});
export type BoostStatus = z.infer<typeof boostStatusSchema>;

/** POST /boost/purchase: one extra boost, charged once per idempotency key (a saved card, or a new token). */
export const boostPurchaseBody = z.object({
  source_id: z.string().trim().min(1, 'A card token is required.').max(255).optional(),
  idempotency_key: z.string().trim().min(1).max(64),
});
export type BoostPurchaseBody = z.infer<typeof boostPurchaseBody>;
