import type { blockedUserSchema } from '@fmk/core';
import { CANNOT_BLOCK_SELF, type Clock, type LiveServerEvent, Messages } from '@fmk/core';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { type Bus, withEvents } from '../../platform/bus.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { userCard } from '../../platform/present.ts';
import { viewerOf } from '../../platform/settings/repo.ts';
import * as repo from './repo.ts';

export interface SafetyServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
}

/** What a block ends beyond the pair's history: their ongoing call, so a blocked man cannot stay on the line. */
export type AfterBlock = (me: string, targetId: string) => Promise<void>;

type BlockedUser = z.infer<typeof blockedUserSchema>;
type Emit = (to: readonly string[], event: LiveServerEvent) => void;

/**
 * Blocking (spec sections 4, 7): adds to the blocker's blocked users and deletes their
 * conversation (and its messages), their match and their selections both ways, so neither
 * sees the other anywhere. Reads elsewhere also filter by blocks (platform/blocks/repo.ts), so an
 * unblock restores visibility but not what was deleted.
 */
export class SafetyService {
  constructor(
    private readonly deps: SafetyServiceDeps,
    private readonly afterBlock?: AfterBlock,
  ) {}

  async block(me: string, targetId: string): Promise<void> {
    if (me === targetId) throw badRequest(CANNOT_BLOCK_SELF, { id: 'is you' });
    await withEvents(this.deps.db, this.deps.bus, async (trx, emit: Emit) => {
      if (!(await repo.userExists(trx, targetId))) throw notFound(Messages.userNotFound);
      await repo.insertBlock(trx, me, targetId, this.deps.clock.now());
      const gone = await repo.deletePairHistory(trx, me, targetId);
      for (const id of gone) emit([me, targetId], { type: 'conversation', conversationId: id, removed: true });
      emit([me, targetId], { type: 'refetch', of: 'matches' });
    });
    await this.afterBlock?.(me, targetId);
  }

  async unblock(me: string, targetId: string): Promise<void> {
    await repo.deleteBlock(this.deps.db, me, targetId);
  }

  async listBlocked(me: string): Promise<BlockedUser[]> {
    const [rows, who] = await Promise.all([repo.listBlockedBy(this.deps.db, me), viewerOf(this.deps.db, me)]);
    return rows.map((r) => ({
      ...userCard(r, who),
      blockedAt: r.created_at.toISOString(),
    }));
  }
}

/** Other features raise alerts (photo moderation: content_flagged) and screen sent messages through it. */
export { AlertsService, type RaiseAlert } from './alerts.ts';
/** Meetup check-ins, the trusted contact and the safe word (messaging screens sent texts through it). */
export { MeetupService } from './meetup.ts';
/** An erased account: other men's alerts lose the actions aimed at him. */
export { forgetAlertsAbout } from './repo/alerts.ts';
/** Reports live beside blocks; their screenshot files go when the reporter's account does. */
/** Photo moderation shows staff a chat photo only when a report holds it as evidence. */
export { reportedChatPhoto, reportedChatPhotos, reportFileKeys } from './reports.ts';
/** Cruise and the grid raise location warnings and meetup reminders through it. */
export { SafetySignals } from './signals.ts';
