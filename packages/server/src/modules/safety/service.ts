import type { blockedUserSchema } from '@fmk/core';
import { CANNOT_BLOCK_SELF, type Clock, type LiveServerEvent, Messages, matchPair } from '@fmk/core';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { type Bus, withEvents } from '../../platform/bus.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { thumbnailURL } from '../../platform/media/files.ts';

export interface SafetyServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
}

type BlockedUser = z.infer<typeof blockedUserSchema>;
type Emit = (to: readonly string[], event: LiveServerEvent) => void;

/**
 * Blocking (spec sections 4, 7): adds to the blocker's blocked users and deletes their
 * conversation (and its messages), their match and their selections both ways, so neither
 * sees the other anywhere. Reads elsewhere also filter user_blocks, so an unblock restores
 * visibility but not what was deleted.
 */
export class SafetyService {
  constructor(private readonly deps: SafetyServiceDeps) {}

  async block(me: string, targetId: string): Promise<void> {
    if (me === targetId) throw badRequest(CANNOT_BLOCK_SELF, { id: 'is you' });
    await withEvents(this.deps.db, this.deps.bus, async (trx, emit: Emit) => {
      const target = await trx.selectFrom('users').select('id').where('id', '=', targetId).executeTakeFirst();
      if (!target) throw notFound(Messages.userNotFound);
      await trx
        .insertInto('user_blocks')
        .values({ blocker_id: me, blocked_id: targetId, created_at: this.deps.clock.now() })
        .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
        .execute();
      const [a, b] = matchPair(me, targetId);
      const gone = await trx
        .deleteFrom('conversations')
        .where('user_a', '=', a)
        .where('user_b', '=', b)
        .returning('id')
        .execute();
      await trx.deleteFrom('matches').where('user_a', '=', a).where('user_b', '=', b).execute();
      await trx
        .deleteFrom('selections')
        .where((w) =>
          w.or([
            w.and([w('chooser_id', '=', me), w('target_id', '=', targetId)]),
            w.and([w('chooser_id', '=', targetId), w('target_id', '=', me)]),
          ]),
        )
        .execute();
      for (const c of gone) emit([me, targetId], { type: 'conversation', conversationId: c.id, removed: true });
      emit([me, targetId], { type: 'refetch', of: 'matches' });
    });
  }

  async unblock(me: string, targetId: string): Promise<void> {
    await this.deps.db.deleteFrom('user_blocks').where('blocker_id', '=', me).where('blocked_id', '=', targetId).execute();
  }

  async listBlocked(me: string): Promise<BlockedUser[]> {
    const rows = await this.deps.db
      .selectFrom('user_blocks as b')
      .innerJoin('users as u', 'u.id', 'b.blocked_id')
      .select(['u.id', 'u.display_name', 'u.photo_url', 'b.created_at'])
      .where('b.blocker_id', '=', me)
      .orderBy('b.created_at', 'desc')
      .orderBy('u.id')
      .limit(1000)
      .execute();
    return rows.map((r) => ({
      uid: r.id,
      displayName: r.display_name,
      photoURL: thumbnailURL(r.photo_url),
      blockedAt: r.created_at.toISOString(),
    }));
  }
}
