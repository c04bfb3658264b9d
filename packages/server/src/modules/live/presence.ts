import { randomUUID } from 'node:crypto';
import type { Clock } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { Bus } from '../../platform/bus.ts';
import { conversationPartners } from '../messaging/service.ts';
import * as repo from './repo.ts';

/** A connection whose instance has not refreshed it for this long no longer counts (a crashed instance). */
export const PRESENCE_STALE_MS = 90_000;

/** One socket's change to presence; `recompute` reads the user's state again (a swept connection). */
type Change = { kind: 'connect'; id: string } | { kind: 'disconnect'; id: string } | { kind: 'recompute' };

/** Users in one presence transaction at most. */
const PRESENCE_BATCH = 500;

/**
 * Presence (spec section 3: isOnline, lastSeen) across instances: every open socket is a row
 * of live_connections, refreshed by its instance's heartbeat. A user is online while any of his
 * rows is fresh. The users' row locks serialise their connects and disconnects on all instances,
 * so exactly one of them sees a change and writes users.is_online / last_seen and publishes
 * {type:'presence'} to his conversation partners.
 *
 * Changes are written in batches, one transaction at a time on this instance: those made while one
 * is written go together in the next. Two thousand sockets opening at once (a restart, a
 * benchmark) were two thousand transactions of seven statements, which held the database pool for
 * tens of seconds while messages waited for it; a batch is the same seven statements for all of
 * them. Changes apply in the order made, so one user's connect and disconnect never land reversed.
 */
export class Presence {
  readonly instanceId = randomUUID();
  private queue: Array<{ userId: string; change: Change }> = [];
  private draining: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly bus: Bus,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Records a socket; returns its connection id for `disconnected`. */
  connected(userId: string): string {
    const id = randomUUID();
    this.enqueue(userId, { kind: 'connect', id });
    return id;
  }

  disconnected(userId: string, connectionId: string): void {
    this.enqueue(userId, { kind: 'disconnect', id: connectionId });
  }

  /**
   * Refreshes this instance's connections and sweeps stale ones of dead instances (their users
   * go offline). Called on the live channel's heartbeat.
   */
  async heartbeat(): Promise<void> {
    const now = this.clock.now();
    await repo.touchInstanceConnections(this.db, this.instanceId, now);
    const stale = await repo.deleteStaleConnections(this.db, new Date(now.getTime() - PRESENCE_STALE_MS));
    for (const userId of new Set(stale)) this.enqueue(userId, { kind: 'recompute' });
  }

  /** Waits for the writes in flight; the app calls this before closing the database. */
  async settle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Deletes this instance's rows (shutdown); their users' presence is recomputed. */
  async closeAll(): Promise<void> {
    await this.settle();
    const users = await repo.deleteInstanceConnections(this.db, this.instanceId);
    for (const userId of new Set(users)) this.enqueue(userId, { kind: 'recompute' });
    await this.settle();
    // Sockets terminated at shutdown close after this; the database is going away.
    this.closed = true;
  }

  private enqueue(userId: string, change: Change): void {
    if (this.closed) return;
    this.queue.push({ userId, change });
    this.draining ??= this.drain();
  }

  private async drain(): Promise<void> {
    // One macrotask first: the sockets of one burst join one batch.
    await new Promise((r) => setImmediate(r));
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      try {
        await this.apply(batch);
      } catch {
        // A batch that failed (a deadlock with a write holding these users' rows in another
        // order) is written again one user at a time, as a single user's change cannot deadlock.
        for (const userId of new Set(batch.map((b) => b.userId)))
          await this.apply(batch.filter((b) => b.userId === userId)).catch((err: unknown) => this.onError(err));
      }
    }
    this.draining = null;
  }

  /** The queue's first changes, of PRESENCE_BATCH users at most. */
  private takeBatch(): Array<{ userId: string; change: Change }> {
    const users = new Set<string>();
    let n = 0;
    for (const q of this.queue) {
      if (!users.has(q.userId) && users.size >= PRESENCE_BATCH) break;
      users.add(q.userId);
      n++;
    }
    return this.queue.splice(0, n);
  }

  private async apply(batch: ReadonlyArray<{ userId: string; change: Change }>): Promise<void> {
    const userIds = [...new Set(batch.map((b) => b.userId))];
    const flips = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const was = await repo.lockPresences(trx, userIds);
      // A user gone (deleted) has nothing to record.
      const mine = batch.filter((b) => was.has(b.userId));
      await repo.insertConnections(
        trx,
        mine.flatMap((b) =>
          b.change.kind === 'connect' ? [{ id: b.change.id, userId: b.userId, instanceId: this.instanceId, at: now }] : [],
        ),
      );
      // After the inserts: a socket that opened and closed within one batch leaves no row.
      await repo.deleteConnections(
        trx,
        mine.flatMap((b) => (b.change.kind === 'disconnect' ? [b.change.id] : [])),
      );
      const online = await repo.withFreshConnection(trx, [...was.keys()], new Date(now.getTime() - PRESENCE_STALE_MS));
      const flipped = [...was].filter(([id, isOnline]) => online.has(id) !== isOnline).map(([id]) => id);
      if (flipped.length === 0) return [];
      await repo.setPresences(
        trx,
        flipped.filter((id) => online.has(id)),
        true,
        now,
      );
      await repo.setPresences(
        trx,
        flipped.filter((id) => !online.has(id)),
        false,
        now,
      );
      const partners = await conversationPartners(trx, flipped);
      return flipped.map((userId) => ({ userId, online: online.has(userId), partners: partners.get(userId) ?? [] }));
    });
    const events = flips
      .filter((f) => f.partners.length > 0)
      .map((f) => [f.partners, { type: 'presence', userId: f.userId, isOnline: f.online }] as const);
    if (events.length > 0) await this.bus.publishBatch(events);
  }
}
