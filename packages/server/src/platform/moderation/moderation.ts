import { randomUUID } from 'node:crypto';
import { type AiAnalysis, flaggedReasons, textScores } from '@fmk/core/moderation';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Storage } from '../storage.ts';
import { decideItem, findItem, insertItem, listItems, lockedItem, type ModerationItemRow } from './repo.ts';
import type { ImageScorer } from './scorer.ts';

export type ContentType = ModerationItemRow['content_type'];

/** A photo to score, handed over once the upload has answered. */
export interface ModerationJob {
  contentType: ContentType;
  contentId: string;
  userId: string;
  /** Where the photo is stored, for staff to look at it. */
  storageKey: string;
  /** The stored (re-encoded) image. */
  image: Buffer;
  /** The text the rules read: a chat photo's caption, a profile photo's profile text. */
  text: string;
}

/**
 * What the feature owning a kind of content does at each step, inside the item's transaction.
 * Features register it (profiles for profile photos, messaging for chat photos), so this module
 * never imports a feature.
 */
export interface ContentHandler {
  /**
   * Whether nudity alone sends the item to staff (true unless said otherwise). Chat photos say
   * no: explicit photos between adults who chose to talk are the app's business as usual; they are
   * marked (flag) and delivered, and only other reasons queue them.
   */
  reviewNudity?: boolean;
  /**
   * Every photo once scored, after `flag` when it is flagged: the owner keeps what others' content
   * filters read of it (a profile photo's verdict beside the avatar) up to date.
   */
  scored?(trx: Db, item: ModerationItemRow): Promise<void>;
  /** The model found it explicit (nudity ≥ the hold threshold): hide or mark it. */
  flag(trx: Db, item: ModerationItemRow): Promise<void>;
  /** Staff approved it: show it again. */
  approve(trx: Db, item: ModerationItemRow): Promise<void>;
  /** Staff rejected it: remove it; the answer is the storage keys to delete once committed. */
  reject(trx: Db, item: ModerationItemRow): Promise<string[]>;
}

/**
 * What happened to an item, for whoever listens (the safety alerts' content_flagged alert):
 * 'held' once scored into the staff queue, then 'approved' or 'rejected' by staff.
 */
export interface ModerationEvent {
  kind: 'held' | 'approved' | 'rejected';
  item: ModerationItemRow;
}

/**
 * Photo moderation: scores each photo after its upload (the model in a worker thread, the text
 * rules from core), records a moderation item, and lets staff decide the ones held.
 * - An item is 'pending' when any score reaches its threshold (core's flaggedReasons), else
 *   'approved' at once with no moderator.
 * - Only nudity ≥ holdAt calls the content's `flag` (a profile photo is hidden from others, a
 *   chat photo marked sensitive); an item pending for its text alone stays visible meanwhile.
 * - A photo is visible until scored (about 0.1 s with the worker idle): holding every photo until
 *   then would show a member an empty profile after each upload.
 */
/**
 * The longest a photo waits for uploads to pause before it is scored anyway: under a steady stream
 * of uploads scoring goes on, this much behind.
 */
export const MAX_DEFER_MS = 10_000;

export class Moderation {
  private readonly handlers = new Map<ContentType, ContentHandler>();
  private readonly listeners: ((e: ModerationEvent) => void | Promise<void>)[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private closing = false;
  /** The photos waiting, scored in order: each link is one photo. */
  private queue: Promise<void> = Promise.resolve();
  private wakeOnClose: () => void = () => {};
  private readonly closed = new Promise<void>((resolve) => {
    this.wakeOnClose = resolve;
  });

  constructor(
    private readonly deps: {
      db: Db;
      storage: Storage;
      scorer: ImageScorer | null;
      holdAt: number;
      now: () => Date;
      log: FastifyBaseLogger;
      /** Resolves when foreground image work (uploads' re-encoding) is idle, or after at most the given ms. */
      foregroundIdle?: (maxWaitMs: number) => Promise<void>;
    },
  ) {}

  get enabled(): boolean {
    return this.deps.scorer !== null;
  }

  handle(contentType: ContentType, handler: ContentHandler): void {
    this.handlers.set(contentType, handler);
  }

  /**
   * The hook for alerts: called after each commit and awaited (so `settle()` and a staff decision
   * include it); a listener's error is logged, never thrown.
   */
  subscribe(listener: (e: ModerationEvent) => void | Promise<void>): void {
    this.listeners.push(listener);
  }

  /** Scores the photo in the background; returns at once. Failures are logged: the photo stays as it is. */
  enqueue(job: ModerationJob): void {
    if (!this.deps.scorer || this.closing) return;
    // Real time, not the app's clock: this is about the CPUs, not about the photo.
    const until = performance.now() + MAX_DEFER_MS;
    // One photo at a time, each once uploads are idle (or it has waited long enough), so scoring
    // takes the CPUs between uploads rather than from them.
    const p: Promise<void> = this.queue
      .then(async () => {
        await this.whenForegroundIdle(until);
        if (!this.closing) await this.run(job);
      })
      .catch((err: unknown) => {
        if (!this.closing) this.deps.log.error({ err, contentId: job.contentId }, 'moderation failed');
      })
      .finally(() => this.inFlight.delete(p));
    this.queue = p;
    this.inFlight.add(p);
  }

  /** Resolves once every photo enqueued so far is scored and recorded (tests, benchmarks, shutdown). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Shutdown does not wait for the queue: the worker stops, the photos still waiting stay as they
   * are (visible, unscored, as after a failure), and only writes already under way finish.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.wakeOnClose();
    await this.deps.scorer?.close();
    await this.settle();
  }

  private async whenForegroundIdle(until: number): Promise<void> {
    const wait = until - performance.now();
    if (!this.deps.foregroundIdle || wait <= 0 || this.closing) return;
    await Promise.race([this.deps.foregroundIdle(wait), this.closed]);
  }

  private async run(job: ModerationJob): Promise<void> {
    const image = await this.deps.scorer!.score(job.image);
    const analysis: AiAnalysis = { nudity: image.nudity, violence: null, ...textScores(job.text) };
    const reasons = flaggedReasons(analysis, this.deps.holdAt);
    const handler = this.handlerOf(job.contentType);
    const held = reasons.includes('nudity');
    const forStaff = handler.reviewNudity === false ? reasons.filter((r) => r !== 'nudity') : reasons;
    const item: ModerationItemRow = {
      id: randomUUID(),
      content_type: job.contentType,
      content_id: job.contentId,
      user_id: job.userId,
      storage_key: job.storageKey,
      status: forStaff.length > 0 ? 'pending' : 'approved',
      flagged_reason: reasons.length > 0 ? reasons.join(', ') : null,
      confidence: reasons.length > 0 ? Math.max(...reasons.map((r) => scoreOf(analysis, r))) : image.nudity,
      ai_analysis: analysis,
      moderator_id: null,
      moderator_notes: null,
      created_at: this.deps.now(),
      reviewed_at: null,
    };
    const inserted = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await insertItem(trx, item))) return false;
      if (held) await handler.flag(trx, item);
      await handler.scored?.(trx, item);
      return true;
    });
    if (inserted && item.status === 'pending') await this.emit({ kind: 'held', item });
  }

  list(
    status: ModerationItemRow['status'],
    page: { limit: number; offset: number },
  ): Promise<{ rows: ModerationItemRow[]; total: number }> {
    return listItems(this.deps.db, status, page);
  }

  item(id: string): Promise<ModerationItemRow | undefined> {
    return findItem(this.deps.db, id);
  }

  /**
   * Staff's decision on a pending item; null when there is no such item, 'decided' when it was
   * already. `within` runs in the decision's transaction (the caller's audit row).
   */
  async decide(
    itemId: string,
    moderatorId: string,
    decision: 'approve' | 'reject',
    notes: string | null,
    within?: (trx: Db, at: Date) => Promise<void>,
  ): Promise<ModerationItemRow | null | 'decided'> {
    const status = decision === 'approve' ? 'approved' : 'rejected';
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const item = await lockedItem(trx, itemId);
      if (!item) return null;
      if (item.status !== 'pending') return 'decided' as const;
      const at = this.deps.now();
      await decideItem(trx, itemId, { status, moderatorId, notes, at });
      const handler = this.handlerOf(item.content_type);
      let removed: string[] = [];
      if (decision === 'approve') await handler.approve(trx, item);
      else removed = await handler.reject(trx, item);
      await within?.(trx, at);
      const decided: ModerationItemRow = {
        ...item,
        storage_key: status === 'rejected' ? null : item.storage_key,
        status,
        moderator_id: moderatorId,
        moderator_notes: notes,
        reviewed_at: at,
      };
      return { decided, removed };
    });
    if (result === null || result === 'decided') return result;
    for (const key of result.removed) await this.deps.storage.delete(key).catch(() => undefined);
    await this.emit({ kind: status, item: result.decided });
    return result.decided;
  }

  private handlerOf(contentType: ContentType): ContentHandler {
    const h = this.handlers.get(contentType);
    if (!h) throw new Error(`no moderation handler for ${contentType}`);
    return h;
  }

  private async emit(e: ModerationEvent): Promise<void> {
    for (const l of this.listeners) {
      try {
        await l(e);
      } catch (err) {
        this.deps.log.error({ err }, 'moderation listener failed');
      }
    }
  }
}

function scoreOf(a: AiAnalysis, reason: string): number {
  const v = a[reason as keyof AiAnalysis];
  return typeof v === 'number' ? v : 0;
}
