import { randomUUID } from 'node:crypto';
import type { Clock } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { Bus } from '../../platform/bus.ts';
import { conversationPartners } from '../messaging/service.ts';
import * as repo from './repo.ts';

/** A connection whose instance has not refreshed it for this long no longer counts (a crashed instance). */
export const PRESENCE_STALE_MS = 90_000;

/**
 * Presence (spec section 3: isOnline, lastSeen) across instances: every open socket is a row
 * of live_connections, refreshed by its instance's heartbeat. A user is online while any of his
 * rows is fresh. The user's row lock serialises his connects and disconnects on all instances,
 * so exactly one of them sees the change and writes users.is_online / last_seen and publishes
 * {type:'presence'} to his conversation partners.
 */
export class Presence {
  readonly instanceId = randomUUID();
  private readonly writes = new Set<Promise<void>>();
  private readonly tails = new Map<string, Promise<void>>();
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
    this.run(userId, (trx, now) => repo.insertConnection(trx, { id, userId, instanceId: this.instanceId, at: now }));
    return id;
  }

  disconnected(userId: string, connectionId: string): void {
    this.run(userId, (trx) => repo.deleteConnection(trx, connectionId));
  }

  /**
   * Refreshes this instance's connections and sweeps stale ones of dead instances (their users
   * go offline). Called on the live channel's heartbeat.
   */
  async heartbeat(): Promise<void> {
    const now = this.clock.now();
    await repo.touchInstanceConnections(this.db, this.instanceId, now);
    const stale = await repo.deleteStaleConnections(this.db, new Date(now.getTime() - PRESENCE_STALE_MS));
    for (const userId of new Set(stale)) this.run(userId, async () => {});
  }

  /** Waits for the writes in flight; the app calls this before closing the database. */
  async settle(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes);
  }

  /** Deletes this instance's rows (shutdown); their users' presence is recomputed. */
  async closeAll(): Promise<void> {
    await this.settle();
    const users = await repo.deleteInstanceConnections(this.db, this.instanceId);
    for (const userId of new Set(users)) this.run(userId, async () => {});
    await this.settle();
    // Sockets terminated at shutdown close after this; the database is going away.
    this.closed = true;
  }

  // One user's changes run in order on this instance (connect then disconnect must not land
  // reversed on two pool connections); the row lock orders them against other instances.
  private run(userId: string, change: (trx: Db, now: Date) => Promise<void>): void {
    if (this.closed) return;
    const prev = this.tails.get(userId) ?? Promise.resolve();
    const p = prev.then(() => this.apply(userId, change).catch((err: unknown) => this.onError(err)));
    this.tails.set(userId, p);
    this.writes.add(p);
    void p.finally(() => {
      this.writes.delete(p);
      if (this.tails.get(userId) === p) this.tails.delete(userId);
    });
  }

  private async apply(userId: string, change: (trx: Db, now: Date) => Promise<void>): Promise<void> {
    const flipped = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const user = await repo.lockPresence(trx, userId);
      if (!user) return null;
      await change(trx, now);
      const online = await repo.hasFreshConnection(trx, userId, new Date(now.getTime() - PRESENCE_STALE_MS));
      if (online === user.is_online) return null;
      await repo.setPresence(trx, userId, online, now);
      return { online, partners: await conversationPartners(trx, userId) };
    });
    if (flipped && flipped.partners.length > 0) {
      await this.bus.publish(flipped.partners, { type: 'presence', userId, isOnline: flipped.online });
    }
  }
}
