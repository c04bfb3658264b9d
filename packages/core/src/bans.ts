/** Ban rules (spec section 4 "Ban"). */
export interface BanRecord {
  isPermanent: boolean;
  expiresAt: Date | null;
  reason: string;
}

export type BanStatus = { banned: false; expired: boolean } | { banned: true; ban: BanRecord };

/**
 * Whether a ban record is in force at `now`. An expired temporary ban reports `expired: true`
 * so the caller deletes it (it is deleted at the next check and the email is treated as not banned).
 */
export function banStatus(ban: BanRecord | null | undefined, now: Date): BanStatus {
  if (!ban) return { banned: false, expired: false };
  if (ban.isPermanent) return { banned: true, ban };
  if (ban.expiresAt && ban.expiresAt.getTime() > now.getTime()) return { banned: true, ban };
  return { banned: false, expired: true };
}
