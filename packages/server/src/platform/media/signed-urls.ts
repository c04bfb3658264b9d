import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Clock, MINUTE } from '@fmk/core';

/** A private photo's URL is good for 10 to 15 minutes: expiries fall on 5-minute marks, so the
 * same viewer gets the same URL for a while and his browser's private cache can answer. */
const TTL_MS = 10 * MINUTE;
const STEP_MS = 5 * MINUTE;

/**
 * Short-lived signed URLs for private files (chat photos): an <img> cannot send the bearer token,
 * so the URL carries its own proof, an HMAC over the path, the expiry and the viewer it was made
 * for. The viewer is not written in the URL: the server knows who may see the file (the two
 * members of the conversation) and accepts the URL only when it was signed for one of them.
 * Nothing in it names the sender. The key is derived from the token secret (the configuration's,
 * or the development vault's) for this one use.
 */
export class SignedUrls {
  private readonly key: Buffer;
  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = createHmac('sha256', secret).update('fmk private file urls v1').digest();
  }

  private sign(path: string, exp: number, viewerId: string): string {
    return createHmac('sha256', this.key).update(`${path}\n${exp}\n${viewerId}`).digest('base64url');
  }

  /** `path` signed for `viewerId`, good until the next 5-minute mark at least 10 minutes away. */
  url(path: string, viewerId: string): string {
    const exp = Math.ceil((this.clock.now().getTime() + TTL_MS) / STEP_MS) * (STEP_MS / 1000);
    return `${path}?e=${exp}&s=${this.sign(path, exp, viewerId)}`;
  }

  /**
   * Which of `viewers` the URL was signed for, when it is still good: null when it expired, was
   * altered, or was made for someone else. Also the seconds it has left (the answer's max-age).
   */
  check(path: string, e: string, s: string, viewers: readonly string[]): { viewerId: string; leftS: number } | null {
    const exp = Number(e);
    if (!/^\d{1,12}$/.test(e) || !/^[A-Za-z0-9_-]{43}$/.test(s)) return null;
    const leftS = exp - Math.floor(this.clock.now().getTime() / 1000);
    if (leftS <= 0 || leftS * 1000 > TTL_MS + STEP_MS) return null;
    const given = Buffer.from(s, 'base64url');
    for (const viewerId of viewers) {
      if (timingSafeEqual(given, Buffer.from(this.sign(path, exp, viewerId), 'base64url'))) return { viewerId, leftS };
    }
    return null;
  }
}
